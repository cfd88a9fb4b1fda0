"""The answers of /evaluate, /recommend, /sizing and quote creation, byte for byte as they were
before the services took domain objects (issue 17): a refactor of the layer between the engine
and the API changes no byte of an answer, in English or in Chinese.

`GOLDEN_WRITE=1` rewrites tests/api/golden/answers.json from the current code (only to record
a deliberate, documented change of an answer).
"""

import copy
import json
import os
from pathlib import Path

import pytest

from tests.api.conftest import EXAMPLE
from tests.quotes.conftest import CUSTOMER, GOOD_BUILD, WORKLOAD

pytestmark = pytest.mark.django_db
GOLDEN = Path(__file__).parent / "golden" / "answers.json"
LANGUAGES = ("en", "zh-hans")


def _example(**build):
    body = copy.deepcopy(EXAMPLE)
    body["build"].update(build)
    return body


INFER = {
    "model_params_b": 70,
    "mode": "infer",
    "precision": "fp8",
    "concurrent_users": 50,
    "prompt_tokens": 1000,
    "output_tokens": 300,
    "target_ttft_s": 2,
}
WITH_NIC = {**GOOD_BUILD, "nic": "cx6-hdr-200g-qsfp56", "nics": 2, "nvme": 4, "dimm_count": 24}
CASES: dict[str, tuple[str, dict]] = {
    "evaluate-example": ("/api/v1/evaluate", EXAMPLE),
    "evaluate-no-workload": ("/api/v1/evaluate", {"build": EXAMPLE["build"]}),
    "evaluate-platform-nic": ("/api/v1/evaluate", {"build": WITH_NIC, "workload": INFER}),
    "evaluate-failing": (
        "/api/v1/evaluate",
        _example(gpus_per_socket=[8, 0], psu_watts=2000, memory_gb=256, memory_ecc=False),
    ),
    "evaluate-errors": (
        "/api/v1/evaluate",
        {"build": {**EXAMPLE["build"], "cpu": "nope", "platform": "nope"}, "profile": "nope"},
    ),
    "sizing-plain": ("/api/v1/sizing", {"workload": {"model_params_b": 34, "mode": "train"}}),
    "sizing-gpu-work": ("/api/v1/sizing", {"workload": {**INFER, "gpu": "h100-80g-pcie"}}),
    "recommend-train": ("/api/v1/recommend", {"workload": WORKLOAD, "limit": 3}),
    "recommend-infer": ("/api/v1/recommend", {"workload": INFER, "limit": 2}),
    "recommend-none": (
        "/api/v1/recommend",
        {"workload": {"model_params_b": 4000, "mode": "train", "batch_size": 512}},
    ),
}
QUOTE = {
    "customer": CUSTOMER,
    "build": GOOD_BUILD,
    "workload": WORKLOAD,
    "term_months": 24,
    "discount_pct": 10,
}
# What differs between two creations of the same quote: its number, dates and links.
VOLATILE = ("number", "valid_until", "history", "pdf_url")


def _answers(client) -> dict[str, dict[str, object]]:
    answers = {}
    for language in LANGUAGES:
        for name, (url, body) in CASES.items():
            response = client.post(
                url, json.dumps(body), content_type="application/json",
                HTTP_ACCEPT_LANGUAGE=language,
            )  # fmt: skip
            answers[f"{name}/{language}"] = {
                "status": response.status_code,
                "body": response.content.decode(),
            }
    return answers


def _quote_answers(client) -> dict[str, dict[str, object]]:
    answers = {}
    for language in LANGUAGES:
        response = client.post(
            "/api/v1/quotes", json.dumps(QUOTE), content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        )  # fmt: skip
        data = response.json()
        answers[f"quote-create/{language}"] = {
            "status": response.status_code,
            "body": {key: value for key, value in data.items() if key not in VOLATILE},
        }
    return answers


def test_the_answers_are_the_recorded_ones(client, presales_client):
    answers = {**_answers(client), **_quote_answers(presales_client)}
    if os.environ.get("GOLDEN_WRITE"):
        GOLDEN.write_text(json.dumps(answers, ensure_ascii=False, indent=1) + "\n")
    recorded = json.loads(GOLDEN.read_text())
    assert answers.keys() == recorded.keys()
    for name, answer in answers.items():
        assert answer == recorded[name], name
