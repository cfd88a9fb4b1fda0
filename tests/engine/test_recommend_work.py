"""The recommender with an amount of work: the cost of the work ranks, deadlines add nodes."""

import math
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from configurator.engine.build import Mode, Workload
from configurator.engine.catalog import Catalog
from configurator.engine.performance import gpus_for_work
from configurator.engine.recommend import rank_key, recommend
from configurator.engine.recommend.search import (
    FLOOR_MARGIN,
    NODE_STEPS,
    Search,
    _most_gpus,
    complete,
    fewest_gpus,
)
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


# The pruned search against completing every (GPU, platform, CPU) with no bound. Prices are
# moved ±50 % so that a dearer month is sometimes the cheaper run, and the GPU the cheapest
# month would pick is not always the cheapest work.
FACTORS = st.floats(min_value=0.5, max_value=1.5)


@st.composite
def priced_catalogs(draw) -> Catalog:
    def moved(items):
        return tuple(
            replace(item, monthly_price=round(item.monthly_price * draw(FACTORS), 2))
            for item in items
        )

    return replace(
        CATALOG,
        gpus=moved(CATALOG.gpus),
        platforms=moved(CATALOG.platforms),
        cpus=moved(CATALOG.cpus),
    )


@st.composite
def work_workloads(draw, *, targets: bool = False) -> Workload:
    mode = draw(st.sampled_from(list(Mode)))
    workload = Workload(
        model_params_b=draw(st.floats(min_value=0.5, max_value=200)),
        mode=mode,
        batch_size=draw(st.integers(min_value=1, max_value=64)),
        context_length=draw(st.sampled_from([512, 2048, 8192])),
        precision=draw(st.sampled_from(["bf16", "fp8", "int8", "int4"])),
    )
    if mode is Mode.INFER:
        return replace(
            workload,
            concurrent_users=draw(st.integers(min_value=1, max_value=256)),
            parallelism=draw(st.sampled_from([None, "pipeline"])),
            replica_gpus=draw(st.sampled_from([None, 1, 2, 4])),
            prompt_tokens=draw(st.sampled_from([None, 128, 4096])),
            output_tokens=draw(st.sampled_from([None, 64, 1024])),
            target_tokens_per_s=draw(st.sampled_from([None, 500, 5000])) if targets else None,
        )
    return replace(
        workload,
        train_tokens=draw(st.sampled_from([1e8, 1e10, 3e11])),
        deadline_days=draw(st.sampled_from([None, 3, 30])) if targets else None,
    )


def _exhaustive_work(workload: Workload, catalog: Catalog) -> dict[str, tuple]:
    """Complete every (GPU, platform, CPU) with no bound, as the search counts its GPUs: the
    fewest that do the work in time, a node more while its accepted builds all miss."""
    search = Search(workload, catalog, RULES, limit=100, max_nodes=RULES.recommend_max_nodes)
    max_gpus = max(_most_gpus(search, g, p) for g in catalog.gpus for p in catalog.platforms)
    best: dict[str, tuple] = {}
    for gpu in catalog.gpus:
        fewest = fewest_gpus(workload, gpu, search.usable(gpu), max_gpus)
        if fewest is not None:
            fewest = gpus_for_work(workload, gpu, fewest, RULES, max_gpus)
        for _ in range(NODE_STEPS + 1):
            if fewest is None or fewest > max_gpus:
                break
            search.needed[gpu.slug] = fewest
            for platform in catalog.platforms:
                plan = search.plan(gpu, platform) if platform.takes_gpu(gpu) else None
                for cpu in catalog.cpus if plan else ():
                    if cpu.socket != platform.cpu_socket or cpu.max_sockets < platform.sockets:
                        continue
                    item = complete(search, gpu, platform, cpu, plan, math.inf)
                    if item is not None and (
                        gpu.slug not in best or rank_key(item) < best[gpu.slug]
                    ):
                        best[gpu.slug] = rank_key(item)
            if gpu.slug in best or gpu.slug not in search.missed:
                break
            search.missed.discard(gpu.slug)
            fewest += 8
    return {gpu: key[:2] for gpu, key in best.items()}


@settings(max_examples=60, deadline=None)
@given(workload=work_workloads(), catalog=priced_catalogs())
def test_pruned_work_search_finds_the_exhaustive_best_of_every_gpu(workload, catalog):
    found = recommend(workload, catalog, RULES, limit=len(catalog.gpus))
    pruned = {item.build.gpu.slug: rank_key(item)[:2] for item in found.builds}
    assert pruned == _exhaustive_work(workload, catalog)


@settings(max_examples=80, deadline=None)
@given(
    workload=work_workloads(targets=True),
    catalog=priced_catalogs(),
    limit=st.integers(min_value=1, max_value=3),
)
def test_pruned_work_search_finds_the_exhaustive_top_limit(workload, catalog, limit):
    found = recommend(workload, catalog, RULES, limit=limit)
    exhaustive = sorted(_exhaustive_work(workload, catalog).values())[:limit]
    assert [rank_key(item)[:2] for item in found.builds] == exhaustive


@settings(max_examples=40, deadline=None)
@given(workload=work_workloads(), catalog=priced_catalogs())
def test_a_layouts_work_floor_is_below_every_build_laid_out_so(workload, catalog):
    """The bound the work ranking skips a platform by, and orders its GPUs by while it has no
    `limit`-th best: no build of the GPU on the platform, at its count, costs less."""
    search = Search(workload, catalog, RULES, limit=5, max_nodes=RULES.recommend_max_nodes)
    platforms, cpus_by_socket = search.cheapest_first()
    max_gpus = max(_most_gpus(search, g, p) for g in catalog.gpus for p in catalog.platforms)
    for gpu in catalog.gpus:
        fewest = fewest_gpus(workload, gpu, search.usable(gpu), max_gpus)
        if fewest is None:
            continue
        search.needed[gpu.slug] = fewest
        for platform in platforms:
            floor = search.layout_work_floor(gpu, platform, cpus_by_socket)
            plan = search.plan(gpu, platform) if platform.takes_gpu(gpu) else None
            assert plan is not None or floor == math.inf
            for cpu in cpus_by_socket.get(platform.cpu_socket, []) if plan else ():
                if cpu.max_sockets < platform.sockets:
                    continue
                item = complete(search, gpu, platform, cpu, plan, math.inf)
                if item is not None:
                    assert floor <= item.performance.work_cost * FLOOR_MARGIN
