"""Small work, small bill (issue 18 item 6; domain.md §6 "Power of a partly filled chassis"):
a 1.5B chatbot on one GPU gets the smallest balanced node the catalog has, and the PSUs of a
partly filled chassis follow the parts installed, not the chassis' maximum."""

import json

import pytest

pytestmark = pytest.mark.django_db
CHATBOT = {"model_params_b": 1.5, "mode": "infer", "precision": "bf16", "concurrent_users": 4}


def recommend(client, **workload):
    body = {"workload": {**CHATBOT, **workload}}
    response = client.post("/api/v1/recommend", json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()["builds"]


def p7(build: dict) -> dict:
    return next(c for c in build["evaluation"]["checks"] if c["code"] == "P7")


def test_one_data_center_card_lands_on_the_2u_four_gpu_node(client):
    builds = recommend(client)
    # A data-center card: the RTX 4090, a consumer card, takes a chassis the 2U node is not.
    single = [b for b in builds if b["build"]["gpu_count"] == 1 and b["build"]["gpu"] != "rtx-4090"]
    assert single and all(b["build"]["platform"] == "dell-r760xa" for b in single)
    for build in single:
        assert [line["slug"] for line in build["build"]["bom"] if line["kind"] == "psu"] == [
            "dell-psu-2800w-titanium"
        ]


def test_one_rtx_4090_is_not_sized_for_the_chassis_maximum(client):
    build = recommend(client, gpu="rtx-4090")[0]
    assert build["build"]["gpu_count"] == 1
    check = p7(build)
    assert check["status"] == "pass"
    assert check["numbers"]["required_w"] < 2000 < 2350  # the 2,350 W
    assert "installed parts" in check["detail"]
    assert build["build"]["psu_watts"] == 2000
