"""The balance score keeps the promises of domain.md §5 and §6, for any editable parameters."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from configurator.engine.balance import (
    balance_of,
    build_balance,
    cpu_score,
    headroom_score,
    overall_score,
    threads_score,
)
from configurator.engine.build import Build
from configurator.engine.rules import RuleParams
from tests.engine.builders import legacy_e5, s1, s2, s3

RULES = RuleParams()


@st.composite
def rule_params(draw: st.DrawFn) -> RuleParams:
    """Draw an architect's plausible edit of the balance parameters."""
    low = draw(st.floats(min_value=1, max_value=16))
    return replace(
        RULES,
        threads_per_gpu_min=low,
        threads_per_gpu_max=low + draw(st.floats(min_value=0.5, max_value=32)),
        pcie_headroom_target=draw(st.floats(min_value=0.01, max_value=2)),
        memory_headroom_target=draw(st.floats(min_value=0.01, max_value=2)),
        balance_score_min=draw(st.floats(min_value=50, max_value=99)),
        balance_margin=draw(st.floats(min_value=0, max_value=20)),
        over_provision_penalty=draw(st.floats(min_value=0, max_value=100)),
    )


amounts = st.floats(min_value=0, max_value=1e5)
needs = st.floats(min_value=1e-3, max_value=1e5)
ratios = st.floats(min_value=0, max_value=1e3)
scores = st.floats(min_value=0, max_value=100)


def headroom_scores(rules: RuleParams, have: float, need: float) -> tuple[float, float]:
    threshold = rules.balance_score_min
    return (
        headroom_score(have, need, rules.pcie_headroom_target, threshold),
        headroom_score(have, need, rules.memory_headroom_target, threshold),
    )


# Every sub-score is 0–100 ------------------------------------------------------------------


@given(rules=rule_params(), have=amounts, need=needs, threads=ratios, cores=ratios)
def test_every_sub_score_is_between_0_and_100(
    rules: RuleParams, have: float, need: float, threads: float, cores: float
) -> None:
    for score in (*headroom_scores(rules, have, need), cpu_score(threads, cores, rules)):
        assert 0 <= score <= 100


# Meeting a baseline scores at least the threshold, breaking it scores below --------------------


@given(rules=rule_params(), need=needs, extra=st.floats(min_value=0, max_value=10))
def test_lanes_or_memory_that_meet_the_need_score_at_least_the_threshold(
    rules: RuleParams, need: float, extra: float
) -> None:
    for score in headroom_scores(rules, need * (1 + extra), need):
        assert score >= rules.balance_score_min


@given(rules=rule_params(), need=needs, share=st.floats(min_value=0, max_value=1, exclude_max=True))
def test_lanes_or_memory_short_of_the_need_score_below_the_threshold(
    rules: RuleParams, need: float, share: float
) -> None:
    assume(need * share < need)
    for score in headroom_scores(rules, need * share, need):
        assert score < rules.balance_score_min


@given(rules=rule_params(), position=st.floats(min_value=0, max_value=1))
def test_threads_inside_the_band_score_at_least_the_threshold(
    rules: RuleParams, position: float
) -> None:
    low, high = rules.threads_per_gpu_min, rules.threads_per_gpu_max
    threads = min(high, low + position * (high - low))
    assert threads_score(threads, rules) >= rules.balance_score_min


@given(rules=rule_params(), share=st.floats(min_value=0, max_value=1, exclude_max=True))
def test_threads_below_the_band_score_below_the_threshold(rules: RuleParams, share: float) -> None:
    threads = rules.threads_per_gpu_min * share
    assume(threads < rules.threads_per_gpu_min)
    assert threads_score(threads, rules) < rules.balance_score_min


@given(rules=rule_params(), threads=ratios, share=st.floats(min_value=0, max_value=0.99))
def test_a_cores_per_gpu_minimum_breaks_the_cpu_score_when_missed(
    rules: RuleParams, threads: float, share: float
) -> None:
    profile = replace(rules, cores_per_gpu_min=7)
    assert cpu_score(threads, profile.cores_per_gpu_min * share, profile) < rules.balance_score_min


# Over-provisioned threads are waste, never a fault --------------------------------------------


@given(rules=rule_params(), multiple=st.floats(min_value=1, max_value=100, exclude_min=True))
def test_over_provisioned_threads_never_fall_below_the_threshold(
    rules: RuleParams, multiple: float
) -> None:
    high = rules.threads_per_gpu_max
    score = threads_score(high * multiple, rules)
    assert rules.balance_score_min <= score <= 100
    expected = 100 - rules.over_provision_penalty * (multiple - 1)
    assert score == pytest.approx(max(rules.balance_score_min, expected))


@given(rules=rule_params(), a=st.floats(min_value=1, max_value=100), b=st.floats(1, 100))
def test_more_over_provision_never_scores_higher(rules: RuleParams, a: float, b: float) -> None:
    high = rules.threads_per_gpu_max
    fewer, more = sorted((a, b))
    assert threads_score(high * more, rules) <= threads_score(high * fewer, rules)


# Headroom reaches 100 at the target ---------------------------------------------------------


@given(rules=rule_params(), need=needs, beyond=st.floats(min_value=0, max_value=5))
def test_headroom_at_or_past_the_target_scores_100(
    rules: RuleParams, need: float, beyond: float
) -> None:
    threshold = rules.balance_score_min
    lanes = need * (1 + rules.pcie_headroom_target * (1 + 1e-9) + beyond)
    memory = need * (1 + rules.memory_headroom_target * (1 + 1e-9) + beyond)
    assert headroom_score(lanes, need, rules.pcie_headroom_target, threshold) == 100
    assert headroom_score(memory, need, rules.memory_headroom_target, threshold) == 100


@given(rules=rule_params(), need=needs, a=amounts, b=amounts)
def test_more_lanes_or_memory_never_score_lower(
    rules: RuleParams, need: float, a: float, b: float
) -> None:
    less, more = sorted((a, b))
    for target in (rules.pcie_headroom_target, rules.memory_headroom_target):
        low = headroom_score(less, need, target, rules.balance_score_min)
        high = headroom_score(more, need, target, rules.balance_score_min)
        assert low <= high


# The overall score cannot average a bad dimension away ---------------------------------------


@given(
    subs=st.tuples(scores, scores, scores),
    margin=st.floats(min_value=0, max_value=30),
)
def test_overall_is_at_most_the_lowest_plus_the_margin_and_at_most_the_mean(
    subs: tuple[float, float, float], margin: float
) -> None:
    overall = overall_score(subs, margin)
    assert overall <= min(subs) + margin
    assert overall <= sum(subs) / 3 + 1e-9
    assert overall >= min(subs) - 1e-9


@given(
    rules=rule_params(),
    threads=ratios,
    cores=ratios,
    lanes=st.tuples(amounts, needs),
    memory=st.tuples(amounts, needs),
)
def test_balanced_means_every_sub_score_and_the_overall_reach_the_threshold(
    rules: RuleParams,
    threads: float,
    cores: float,
    lanes: tuple[float, float],
    memory: tuple[float, float],
) -> None:
    balance = balance_of(threads, cores, *lanes, *memory, rules)
    threshold = rules.balance_score_min
    raw_cpu = cpu_score(threads, cores, rules)
    raw_lanes = headroom_score(*lanes, rules.pcie_headroom_target, threshold)
    raw_memory = headroom_score(*memory, rules.memory_headroom_target, threshold)
    assert balance.balanced == (min(raw_cpu, raw_lanes, raw_memory) >= threshold)
    assert balance.threshold == threshold
    for value in (balance.cpu_threads, balance.pcie_lanes, balance.memory, balance.overall):
        assert value == round(value, 1)


# The guide's recipes (domain.md §3, §6) -------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        pytest.param(s1(), (90.0, 100.0, 91.7, 93.9), id="S1: 24 threads/GPU"),
        pytest.param(s2(memory_gb=768), (96.7, 100.0, 85.0, 90.0), id="S2 at 768 GB"),
        pytest.param(s3(), (85.0, 100.0, 100.0, 90.0), id="S3: 64 threads/GPU"),
    ],
)
def test_recipe_scores_are_the_documented_worked_examples(
    build: Build, expected: tuple[float, float, float, float]
) -> None:
    """docs/rules.md works these out by hand with the default parameters."""
    balance = build_balance(build, RULES)
    assert (balance.cpu_threads, balance.pcie_lanes, balance.memory, balance.overall) == expected
    assert balance.balanced


def test_the_guide_recipes_come_out_balanced() -> None:
    for build in (s1(), s2(memory_gb=768), s3()):
        assert build_balance(build, RULES).balanced


def test_s2_at_512_gb_and_a_legacy_e5_are_unbalanced() -> None:
    short_memory = build_balance(s2(memory_gb=512), RULES)
    legacy = build_balance(legacy_e5(), RULES)
    assert short_memory.memory < RULES.balance_score_min
    assert legacy.pcie_lanes < RULES.balance_score_min
    assert not short_memory.balanced and not legacy.balanced
    assert short_memory.overall <= short_memory.memory + RULES.balance_margin
