"""The workload's one declaration: its documented defaults, derived where the engine says so,
and the batch that P8 and sizing see following the users served."""

from dataclasses import MISSING, fields

import pytest

from configurator.engine import checks
from configurator.engine.build import (
    DEFAULT_BATCH_SIZE,
    DEFAULT_CONTEXT_LENGTH,
    DEFAULT_OUTPUT_TOKENS,
    DEFAULT_PROMPT_TOKENS,
    Mode,
    Workload,
)
from configurator.engine.fields import INPUT, declarations
from configurator.engine.findings import Status
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import size_workload
from tests.engine.builders import s1

RULES = RuleParams()


def test_every_workload_field_is_declared_once_with_a_label():
    declared = list(declarations(Workload))
    assert [f.name for f in declared] == [f.name for f in fields(Workload)]
    for field in declared:
        assert field.spec.label, field.name
        assert field.spec.kind in ("int", "float", "str", "choice"), field.name
        if field.spec.kind == "choice":
            assert field.spec.choices, field.name
    assert all(INPUT in f.metadata for f in fields(Workload))
    assert [f.name for f in declared if f.default is MISSING] == ["model_params_b", "mode"]


def test_the_documented_defaults_apply_when_nothing_is_given():
    workload = Workload(70, Mode.TRAIN)
    assert workload.batch_size == DEFAULT_BATCH_SIZE
    assert workload.context_length == DEFAULT_CONTEXT_LENGTH
    assert workload.precision == "bf16"


@pytest.mark.parametrize(
    ("given", "batch", "context"),
    [
        ({"concurrent_users": 50}, 50, DEFAULT_CONTEXT_LENGTH),
        ({"concurrent_users": 50, "batch_size": 4}, 4, DEFAULT_CONTEXT_LENGTH),
        ({"prompt_tokens": 512}, 1, 512 + DEFAULT_OUTPUT_TOKENS),
        ({"output_tokens": 100}, 1, DEFAULT_PROMPT_TOKENS + 100),
        ({"prompt_tokens": 512, "context_length": 4096}, 1, 4096),
    ],
)
def test_an_inference_batch_is_the_users_and_the_context_holds_the_lengths(given, batch, context):
    workload = Workload(70, Mode.INFER, **given)
    assert (workload.batch_size, workload.context_length) == (batch, context)


def test_users_do_not_set_a_training_batch():
    assert Workload(70, Mode.TRAIN, concurrent_users=50).batch_size == DEFAULT_BATCH_SIZE


def test_p8_judges_the_batch_the_users_make():
    served = checks.low_base_clock(s1(), Workload(13, Mode.INFER, concurrent_users=50), RULES)
    assert served.status is Status.NA
    assert "batch 50" in served.detail and "batch 1 " not in served.detail
    few = checks.low_base_clock(s1(), Workload(13, Mode.INFER, concurrent_users=8), RULES)
    assert "batch 8" in few.detail


def test_sizing_holds_the_kv_cache_of_every_user():
    one = size_workload(Workload(13, Mode.INFER), 8).breakdown["kv_cache"]
    fifty = size_workload(Workload(13, Mode.INFER, concurrent_users=50), 8).breakdown["kv_cache"]
    assert fifty == pytest.approx(50 * one)
