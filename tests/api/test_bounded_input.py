"""No request, anonymous or not, gets an answer much larger than itself or than a few KB."""

import json

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db
EVALUATE = "/api/v1/evaluate"


def test_a_2_4_mb_amplification_body_gets_a_small_413(post_json, example):
    example["build"]["bom"] = [1] * 1_200_000
    body = json.dumps(example)
    assert len(body) > 2_400_000

    response = post_json(EVALUATE, body)

    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json()["limit"] == 64 * 1024
    assert len(response.content) < 500


def test_a_long_bom_within_the_body_limit_gets_one_error(post_json, example):
    example["build"]["bom"] = [1] * 20_000

    response = post_json(EVALUATE, example)

    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["build.bom"]
    assert "at most 32" in response.json()["errors"]["build.bom"][0]
    assert len(response.content) < 500


def test_a_bom_as_recommend_returns_it_is_accepted(post_json, example):
    example["build"]["bom"] = [
        {"kind": "gpu", "slug": "a800-80g-sxm", "name": "A800", "qty": 8,
         "unit_price": 1.0, "monthly_price": 8.0},
    ]  # fmt: skip
    assert post_json(EVALUATE, example).status_code == 200


@pytest.mark.parametrize("url", ["/api/v1/sizing", "/api/v1/recommend"])
def test_many_unknown_keys_are_reported_once(post_json, url):
    workload = {"model_params_b": 7, "mode": "infer", **{f"k{i}": 1 for i in range(4000)}}

    response = post_json(url, {"workload": workload})

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert list(errors) == ["workload"]
    assert errors["workload"] == ["4000 unknown fields (k0, k1, k2, k3, k4, …): remove them."]
    assert len(response.content) < 500


def test_a_few_unknown_keys_are_each_named(post_json, example):
    example["build"]["colour"] = "red"
    example["build"]["size"] = 2

    errors = post_json(EVALUATE, example).json()["errors"]

    assert errors == {
        "build.colour": ["Unknown field: remove it."],
        "build.size": ["Unknown field: remove it."],
    }


def test_errors_are_capped_at_twenty_paths_with_a_count(post_json, example):
    example["build"]["bom"] = [{f"k{j}": [j] for j in range(3)} for _ in range(30)]

    body = post_json(EVALUATE, example).json()

    assert len(body["errors"]) == 20
    assert body["more_errors"] == 90 - 20


def test_an_architects_patch_with_many_unknown_keys_answers_one_error(architect_client):
    parameters = {f"no_such_rule_{i}": 1 for i in range(2000)}

    response = architect_client.patch(
        "/api/v1/rules", json.dumps({"parameters": parameters}), content_type="application/json"
    )

    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["parameters"]
    assert len(response.content) < 500


def test_deeply_nested_json_is_a_400(post_json):
    response = post_json(EVALUATE, "[" * 30_000 + "]" * 30_000)

    assert response.status_code == 400
    assert "body" in response.json()["errors"]


@override_settings(API_MAX_BODY_BYTES=100)
def test_the_body_limit_is_a_setting(post_json, example):
    assert post_json(EVALUATE, example).status_code == 413


def test_error_paths_name_the_field_as_the_client_wrote_it(architect_client):
    response = architect_client.patch(
        "/api/v1/rules",
        json.dumps({"parameters": {"threads_per_gpu_min": "six"}}),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["parameters.threads_per_gpu_min"]


def test_a_missing_required_field_is_named(post_json, example):
    del example["build"]["cpu"]

    errors = post_json(EVALUATE, example).json()["errors"]

    assert list(errors) == ["build.cpu"]


def test_a_bad_list_element_is_named_by_its_index(post_json, example):
    example["build"]["gpus_per_socket"] = [4, "four"]

    errors = post_json(EVALUATE, example).json()["errors"]

    assert list(errors) == ["build.gpus_per_socket.1"]
