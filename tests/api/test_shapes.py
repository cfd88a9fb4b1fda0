"""The API's answers are written in one module (`api_shapes`) from the engine's dataclasses:
each engine field is either in its answer's schema or named here as one the answer does not
show, with the reason, so a field added to the engine fails here until the API decides; and
each shaped answer is what its response schema describes."""

import dataclasses

import pytest

from configurator import api_shapes, selectors, services
from configurator.engine.balance import Balance
from configurator.engine.build import Build
from configurator.engine.findings import Finding
from configurator.engine.performance import Performance
from configurator.engine.recommend import Recommendation
from configurator.engine.shapes import Replicas
from configurator.inputs import build_from_input, resolved_workload
from configurator.schemas import (
    BalanceOut,
    BuildIn,
    CheckOut,
    EvaluationOut,
    PerformanceOut,
    RecommendationOut,
    RecommendedBuildOut,
    RecommendOut,
    ReplicasOut,
    SizingOut,
    WorkloadIn,
)
from tests.api.conftest import EXAMPLE

# engine field -> its name in the answer; None: not shown, for the reason given.
SHOWN = {
    (Balance, BalanceOut): {name: name for name in BalanceOut.model_fields},
    (Finding, CheckOut): {
        "code": "code", "status": "status", "title": "title", "detail": "detail",
        "impact": "impact", "fix": "fix", "numbers": "numbers", "change": "fix_change",
        "covered_by": "covered_by",
        "picks": None,  # which part fields a fix picks: the configurator's, not the API's
    },
    (Performance, PerformanceOut): {
        "mode": None,  # the request's mode: the answer has the fields that apply to it
        "monthly_price": "monthly_price", "time_to_train_days": "time_to_train_days",
        "time_to_train_s": "time_to_train_s",
        "tokens_per_s": "tokens_per_s", "time_to_first_token_s": "time_to_first_token_s",
        "time_per_output_token_s": "time_per_output_token_s",
        "cost_per_run": "cost_per_run", "cost_per_million_tokens": "cost_per_million_tokens",
        "meets_target": "meets_target", "meets_ttft_target": "meets_ttft_target",
        "meets_tpot_target": "meets_tpot_target",
        "assumptions": "assumptions",
        "served": None,  # the replicas: the recommendation's `replicas`
        "terms": None,  # the formula's terms, for the docs and tests
    },
    (Recommendation, RecommendationOut): {
        "build": "build", "evaluation": "evaluation", "monthly_price": "monthly_price",
        "why": "why", "scenario": "scenario", "psu_scheme": "psu_redundancy",
        "replicas": "replicas", "performance": "performance",
        "platform": None, "nic": None,  # in the build, by slug
        "bom": None,  # the build's `bom`
        "tier": None,  # a ranking detail
    },
    (Replicas, ReplicasOut): {
        "size": "gpus", "count": "count", "batch": "sequences_each",
        "nodes_per_replica": "nodes_each",
    },
}  # fmt: skip


@pytest.mark.parametrize("pair", SHOWN, ids=lambda pair: pair[0].__name__)
def test_every_engine_field_is_shown_or_said_not_to_be(pair):
    engine, schema = pair
    shown = SHOWN[pair]
    assert set(shown) == {field.name for field in dataclasses.fields(engine)}
    assert {name for name in shown.values() if name} <= set(schema.model_fields)


@pytest.mark.django_db
def test_a_recommended_build_is_written_from_the_builds_fields():
    fields = set(api_shapes.RECOMMENDED_BUILD_FIELDS)
    assert fields == set(RecommendedBuildOut.model_fields) - {"bom"}
    assert fields <= set(_build().as_fields())


def _build() -> Build:
    return build_from_input(BuildIn(**EXAMPLE["build"]), selectors.snapshots()[0].everything)


@pytest.mark.django_db
def test_each_shaped_answer_is_what_its_schema_describes():
    everything = selectors.snapshots()[0].everything
    workload = resolved_workload(WorkloadIn(**EXAMPLE["workload"]), everything)
    evaluated = services.build_evaluate(build=_build(), workload=workload)
    EvaluationOut.model_validate(api_shapes.evaluated_json(evaluated))
    recommended = services.build_recommend(workload=workload, limit=2)
    assert recommended.found.builds
    RecommendOut.model_validate(api_shapes.recommended_json(recommended))
    served = WorkloadIn(model_params_b=70, mode="infer", concurrent_users=8, gpu="h100-80g-pcie")
    sized = services.workload_size(workload=resolved_workload(served, everything))
    assert sized.performance is not None
    SizingOut.model_validate(api_shapes.sized_json(sized))
