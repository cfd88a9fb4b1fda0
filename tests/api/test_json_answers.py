"""evaluate's and recommend's answers read exactly as Django's JSON encoder writes them."""

import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext_lazy

from configurator import api_shapes, selectors, services
from configurator.api_json import json_answer
from configurator.inputs import evaluate_request, resolved_workload
from configurator.schemas import EvaluateIn, RecommendIn

pytestmark = pytest.mark.django_db


def django_encoded(data) -> object:
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def test_evaluates_answer_is_what_djangos_encoder_writes(client, example):
    response = client.post("/api/v1/evaluate", example, content_type="application/json")
    assert response["Content-Type"] == "application/json"
    catalog, rules = selectors.snapshots()
    asked = evaluate_request(EvaluateIn.model_validate(example), catalog.everything, rules.current)
    evaluated = services.build_evaluate(build=asked.build, workload=asked.workload)
    expected = django_encoded(api_shapes.evaluated_json(evaluated))
    assert json.loads(response.content) == expected


def test_recommends_answer_is_what_djangos_encoder_writes(client):
    body = {"workload": {"model_params_b": 70, "mode": "infer", "target_tokens_per_s": 2000}}
    response = client.post("/api/v1/recommend", body, content_type="application/json")
    asked = RecommendIn.model_validate(body)
    workload = resolved_workload(asked.workload, selectors.snapshots()[0].everything)
    recommended = services.build_recommend(workload=workload, limit=asked.limit)
    expected = django_encoded(api_shapes.recommended_json(recommended))
    assert json.loads(response.content) == expected


def test_what_orjson_does_not_know_is_written_as_django_writes_it():
    data = {"price": Decimal("12.50"), "at": datetime(2026, 11, 30, 5, 0, 0, 123456, tzinfo=UTC),
            "label": gettext_lazy("pass"), 3: "a number as a key"}  # fmt: skip
    assert json.loads(json_answer(data).content) == django_encoded(data)
