"""Whatever JSON a client sends, /api/v1/evaluate answers 200 or 400 — never a 500."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.conftest import EXAMPLE

pytestmark = pytest.mark.django_db
URL = "/api/v1/evaluate"
BUILD_FIELDS = sorted(EXAMPLE["build"])

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def assert_client_error_or_answer(response) -> None:
    assert response.status_code in (200, 400), response.content[:300]
    body = response.json()
    if response.status_code == 400:
        assert body["errors"] and all(isinstance(v, list) for v in body["errors"].values())
    else:
        assert body["verdict"] in ("accept", "reject")


@FUZZ
@given(body=json_values)
def test_any_json_document_is_answered(client, body):
    response = client.post(URL, json.dumps(body), content_type="application/json")
    assert_client_error_or_answer(response)


@FUZZ
@given(
    build_changes=st.dictionaries(st.sampled_from(BUILD_FIELDS), json_values, max_size=3),
    workload_changes=st.dictionaries(
        st.sampled_from(["model_params_b", "mode", "batch_size", "precision", "context_length",
                         "layers", "hidden_size", "kv_heads", "gpu_count"]),
        json_values | st.integers(min_value=0, max_value=10**7),
        max_size=3,
    ),
)  # fmt: skip
def test_any_mutation_of_a_valid_request_is_answered(client, build_changes, workload_changes):
    body = {
        "build": {**EXAMPLE["build"], **build_changes},
        "workload": {**EXAMPLE["workload"], **workload_changes},
    }
    response = client.post(URL, json.dumps(body), content_type="application/json")
    assert_client_error_or_answer(response)


@FUZZ
@given(
    gpu_count=st.integers(min_value=1, max_value=16),
    cpu_count=st.integers(min_value=1, max_value=2),
    memory_gb=st.integers(min_value=1, max_value=65536),
    psu_watts=st.integers(min_value=1, max_value=100000),
    gpu=st.sampled_from(["rtx-4090", "l20", "a800-80g-pcie", "a800-80g-sxm", "h100-80g-sxm"]),
    cpu=st.sampled_from(["xeon-gold-5318y", "xeon-gold-6530", "epyc-9754", "xeon-e5-2680-v4"]),
    params=st.floats(min_value=0.001, max_value=20000),
    mode=st.sampled_from(["train", "finetune", "infer"]),
    batch=st.integers(min_value=1, max_value=65536),
)
def test_every_valid_build_gets_a_verdict(
    client, gpu_count, cpu_count, memory_gb, psu_watts, gpu, cpu, params, mode, batch
):
    body = {
        "build": {"cpu": cpu, "cpu_count": cpu_count, "gpu": gpu, "gpu_count": gpu_count,
                  "memory_gb": memory_gb, "memory_ecc": True, "psu_watts": psu_watts},
        "workload": {"model_params_b": params, "mode": mode, "batch_size": batch},
    }  # fmt: skip
    response = client.post(URL, json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content[:300]
