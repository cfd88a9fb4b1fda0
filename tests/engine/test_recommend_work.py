"""The recommender with an amount of work: the cost of the work ranks, deadlines add nodes."""

from configurator.engine.build import Mode, Workload
from configurator.engine.recommend import rank_key, recommend
from configurator.engine.rules import RuleParams
from tests.engine.test_recommend import CATALOG

RULES = RuleParams()
TRAIN = Workload(
    13, Mode.TRAIN, batch_size=8, context_length=4096, train_tokens=2e11, deadline_days=30
)


def test_builds_rank_by_the_cost_of_the_run_not_the_month():
    builds = recommend(TRAIN, CATALOG, RULES).builds
    assert len(builds) >= 2
    costs = [item.performance.cost_per_run for item in builds]
    assert costs == sorted(costs)
    assert [rank_key(item) for item in builds] == sorted(rank_key(item) for item in builds)


def test_every_build_meets_the_deadline_with_the_nodes_it_takes():
    for item in recommend(TRAIN, CATALOG, RULES).builds:
        assert item.performance.time_to_train_days <= 30
        assert item.performance.meets_target


def test_a_tighter_deadline_takes_more_gpus():
    relaxed = recommend(TRAIN, CATALOG, RULES).builds[0]
    tight = recommend(
        Workload(13, Mode.TRAIN, batch_size=8, context_length=4096, train_tokens=2e11,
                 deadline_days=5, gpu=relaxed.build.gpu.slug),
        CATALOG,
        RULES,
    ).builds[0]  # fmt: skip
    gpus = lambda item: item.build.gpu_count * item.build.nodes  # noqa: E731
    assert gpus(tight) > gpus(relaxed)
    assert tight.performance.time_to_train_days <= 5


def test_the_why_says_the_days_the_gpus_and_the_cost():
    item = recommend(TRAIN, CATALOG, RULES).builds[0]
    assert f"{item.build.gpu.name}" in item.why
    assert " days on " in item.why and "per run" in item.why


def test_a_throughput_target_is_met_by_replicas_and_ranked_per_million_tokens():
    serve = Workload(7, Mode.INFER, target_tokens_per_s=5000)
    builds = recommend(serve, CATALOG, RULES).builds
    assert builds
    costs = [item.performance.cost_per_million_tokens for item in builds]
    assert costs == sorted(costs)
    assert all(item.performance.tokens_per_s >= 5000 for item in builds)
