"""The recommender: layouts, part choices, and builds that the engine accepts."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from configurator.engine.build import FormFactor, MemoryModule, Mode, Nic, Platform, Psu, Workload
from configurator.engine.catalog import Catalog
from configurator.engine.evaluate import Verdict, evaluate
from configurator.engine.fabric import nic_requirement
from configurator.engine.recommend import (
    Scenario,
    cheapest_memory,
    cheapest_psus,
    rank_key,
    recommend,
    socket_split,
)
from configurator.engine.recommend.search import Search, complete, fewest_gpus
from configurator.engine.registry import REGISTRY, CheckKind, RegisteredCheck
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import data_parallel, replica_gb
from configurator.engine.sizing import size_workload, usable_gb
from tests.engine import builders

RULES = RuleParams()


def platform(slug: str, cpu_socket: str, slots: tuple[int, ...], **changes) -> Platform:
    specs = {
        "slug": slug, "name": slug, "sockets": len(slots), "cpu_socket": cpu_socket,
        "pcie_gen": 5, "gpu_form_factor": FormFactor.PCIE, "gpu_slots": slots,
        "pcie_switch_uplinks": 0, "nvlink": "bridge", "dimm_slots_per_socket": 16,
        "psu_bays": 4, "max_power_w": 8000, "nic_slots": 4, "nvme_bays": 4,
        "monthly_price": 2000.0,
    }  # fmt: skip
    return Platform(**{**specs, **changes})


def dimm(gb: int, price: float, ddr: int = 5, ecc: bool = True) -> MemoryModule:
    return MemoryModule(f"ddr{ddr}-{gb}-{ecc}", f"{gb} GB DDR{ddr}", ddr, gb, ecc, ecc, 4800, price)


PSUS = (Psu("psu-2000", "2000 W", 2000, 50.0), Psu("psu-3000", "3000 W", 3000, 90.0))
DIMMS = (dimm(32, 30), dimm(48, 40), dimm(64, 60), dimm(32, 25, ddr=4), dimm(32, 10, ecc=False))
CATALOG = Catalog(
    cpus=(
        replace(builders.xeon_gold_5318y(), socket="LGA4189", monthly_price=300.0),
        replace(builders.xeon_gold_6530(), socket="LGA4677", monthly_price=600.0),
        replace(builders.xeon_gold_6542y(), socket="LGA4677", monthly_price=550.0),
        replace(builders.epyc_9754(), socket="SP5", monthly_price=900.0),
    ),
    gpus=(
        replace(builders.l20(), monthly_price=1800.0),
        replace(builders.rtx_4090(), monthly_price=1200.0),
        replace(builders.a800_pcie(), monthly_price=4500.0),
        replace(builders.h100_sxm(), monthly_price=9000.0),
    ),
    memory=DIMMS,
    psus=PSUS,
    nics=(
        Nic("cx7", "ConnectX-7", 400, 5, 16, 25, 900.0),
        Nic("cx6", "ConnectX-6", 200, 4, 16, 20, 500.0),
    ),
    platforms=(
        platform("icx-4gpu", "LGA4189", (2, 2), monthly_price=1800.0, psu_bays=2),
        platform("spr-10gpu", "LGA4677", (5, 5), monthly_price=3500.0),
        platform(
            "hgx-h100",
            "SP5",
            (4, 4),
            gpu_form_factor=FormFactor.SXM,
            nvlink="nvswitch",
            gpu_slugs=frozenset({"h100-80g-sxm"}),
            psu_bays=6,
            pcie_switch_uplinks=4,
            dimm_slots_per_socket=12,
            nic_slots=10,
            monthly_price=5000.0,
        ),
    ),
)


def test_socket_split_respects_each_sockets_slots():
    assert socket_split(5, (4, 1)) == (4, 1)
    assert socket_split(4, (4, 4)) == (2, 2)


def test_memory_fills_every_channel_with_the_cheapest_ecc_rdimm():
    cpu = CATALOG.find("cpus", "xeon-gold-6530")  # 8 channels × 2 sockets
    choice = cheapest_memory(768, cpu, CATALOG.find("platforms", "spr-10gpu"), DIMMS)
    assert (choice.count, choice.module.capacity_gb, choice.total_gb) == (16, 48, 768)


def test_memory_goes_to_two_dimms_per_channel_only_when_needed_and_slots_allow():
    cpu = CATALOG.find("cpus", "xeon-gold-6530")
    big = cheapest_memory(1536, cpu, CATALOG.find("platforms", "spr-10gpu"), DIMMS)
    assert (big.count, big.total_gb) == (32, 1536)
    few_slots = replace(CATALOG.find("platforms", "spr-10gpu"), dimm_slots_per_socket=8)
    assert cheapest_memory(1536, cpu, few_slots, DIMMS) is None


def test_memory_never_picks_non_ecc_or_another_ddr_generation():
    cpu = CATALOG.find("cpus", "xeon-gold-5318y")  # DDR4
    choice = cheapest_memory(256, cpu, CATALOG.find("platforms", "icx-4gpu"), DIMMS)
    assert choice.module.ddr_gen == 4 and choice.module.ecc


def test_psus_are_redundant_and_cover_the_need():
    choice = cheapest_psus(5280, 4, PSUS)
    # 4 × 2000 W as 3+1 (200 CNY) beats 4 × 3000 W as 2+2 (360 CNY); both keep a spare.
    assert (choice.psu.rated_w, choice.count, choice.label) == (2000, 4, "3+1")
    assert choice.usable_w == 6000 >= 5280
    n_plus_one = cheapest_psus(5280, 3, PSUS)
    assert (n_plus_one.count, n_plus_one.label) == (3, "2+1")
    assert cheapest_psus(9000, 2, PSUS) is None


def test_cheapest_distinct_drops_a_pricier_identical_part_only():
    gpu = CATALOG.find("gpus", "l20")
    clone = replace(gpu, slug="l20-b", name="L20 (other supplier)", monthly_price=2000.0)
    hotter = replace(clone, slug="l20-c", tdp_w=300)
    distinct = Catalog(gpus=(gpu, clone, hotter)).cheapest_distinct()
    assert {g.slug for g in distinct.gpus} == {"l20", "l20-c"}


def test_recommendations_are_accepted_priced_and_ranked():
    workload = Workload(13, Mode.FINETUNE, batch_size=4)
    found = recommend(workload, CATALOG, RULES)
    assert found.builds and found.reason is None
    keys = [rank_key(item) for item in found.builds]
    assert keys == sorted(keys)
    for item in found.builds:
        assert evaluate(item.build, RULES, workload).verdict == Verdict.ACCEPT
        per_node = sum(line.qty * line.monthly_price for line in item.bom)
        assert item.monthly_price == pytest.approx(per_node * item.build.nodes)


def test_one_build_per_gpu_type():
    found = recommend(Workload(7, Mode.INFER, batch_size=64), CATALOG, RULES)
    slugs = [item.build.gpu.slug for item in found.builds]
    assert len(slugs) == len(set(slugs))


def test_training_without_nvlink_is_not_recommended_for_a_large_model():
    found = recommend(Workload(34, Mode.TRAIN, batch_size=8), CATALOG, RULES)
    assert found.builds
    assert all(item.build.gpu.has_nvlink for item in found.builds)


def test_gpu_preference_and_count_are_met():
    workload = Workload(13, Mode.TRAIN, batch_size=4, gpu="h100-80g-sxm", gpu_count=16)
    (item,) = recommend(workload, CATALOG, RULES).builds
    assert item.build.gpu.slug == "h100-80g-sxm"
    assert (item.build.nodes, item.build.gpu_count) == (2, 8), "whole HGX boards"
    assert item.build.nics == 8 and item.nic.speed_gbps == 400, "one 400G NIC per H100"


def test_nothing_fits_says_why_with_numbers():
    workload = Workload(70, Mode.TRAIN, batch_size=8, gpu="h100-80g-sxm", gpu_count=8)
    found = recommend(workload, CATALOG, RULES)
    assert found.builds == ()
    assert "GB per GPU over 8 GPUs" in found.reason
    assert "77.31 GB usable (90% of the card's 80 GiB)" in found.reason


def test_the_limit_on_nodes_is_said_with_the_largest_node_it_allows():
    workload = Workload(2000, Mode.TRAIN, batch_size=8)
    reason = recommend(workload, CATALOG, RULES).reason
    # Nodes of 8: no platform here has PCIe switches for 10, and nodes stay within the limit.
    assert "64 nodes of 8 GPUs (512 GPUs) is the most a build spans" in reason


def test_rejections_are_said_in_the_users_words():
    # Small-batch inference on a slow-clock CPU only: P8 rejects every candidate.
    slow = replace(CATALOG, cpus=(CATALOG.find("cpus", "xeon-gold-5318y"),))
    reason = recommend(Workload(7, Mode.INFER, batch_size=1), slow, RULES).reason
    assert "CPU base clock too low for small-batch inference (P8)" in reason
    assert "_" not in reason, "no internal codes"


def test_matching_scenario_is_shown_even_when_not_cheapest():
    s3 = Scenario("S3", "100B+ training", frozenset({Mode.TRAIN}), 100, 10000,
                  ("h100-80g-sxm",), "epyc-9754", "hgx-h100", 1024, "scaling 84%",
                  gpus_min=8, gpus_max=8)  # fmt: skip
    found = recommend(Workload(175, Mode.TRAIN, batch_size=8), CATALOG, RULES, [s3], limit=1)
    pairing = [item for item in found.builds if item.scenario == "S3"]
    assert pairing
    assert pairing[0].build.memory_gb >= 1024
    assert "S3" in pairing[0].why


def test_scenario_label_only_on_a_build_of_the_recipes_gpu_count():
    s1 = Scenario("S1", "light inference", frozenset({Mode.INFER}), 0.1, 34, ("l20",),
                  "xeon-gold-5318y", "icx-4gpu", 256, "89%", gpus_min=2, gpus_max=4)  # fmt: skip
    one_gpu = recommend(Workload(7, Mode.INFER, batch_size=32), CATALOG, RULES, [s1])
    assert all(item.scenario is None for item in one_gpu.builds if item.build.gpu_count == 1)
    assert not s1.takes(1, 1) and s1.takes(2, 1) and s1.takes(4, 1) and not s1.takes(8, 1)
    assert not s1.takes(2, 3), "an inference recipe describes one node"


WORKLOADS = st.builds(
    Workload,
    model_params_b=st.floats(min_value=0.1, max_value=400),
    mode=st.sampled_from(list(Mode)),
    batch_size=st.integers(min_value=1, max_value=128),
    context_length=st.sampled_from([512, 2048, 8192, 32768]),
    precision=st.sampled_from(["bf16", "fp16", "fp8", "int8", "int4"]),
)


@settings(max_examples=150, deadline=None)
@given(workload=WORKLOADS)
def test_every_recommendation_is_deployable_and_accepted(workload):
    found = recommend(workload, CATALOG, RULES)
    assert bool(found.builds) != bool(found.reason)
    for item in found.builds:
        build = item.build
        evaluation = evaluate(build, RULES, workload)
        assert evaluation.verdict == Verdict.ACCEPT
        shape = next(f for f in evaluation.checks if f.code == "shape")
        assert shape.status == "pass", shape.detail
        usable = usable_gb(build.gpu.memory_gb, RULES.gpu_memory_usable_fraction)
        if item.replicas is None:
            per_gpu = size_workload(workload, build.gpu_count * build.nodes, usable).per_gpu_gb
        else:
            replicas = item.replicas
            assert replicas.size in (1, 2, 4, 8) or replicas.nodes_per_replica > 1
            assert replicas.count * replicas.size == build.gpu_count * build.nodes
            per_gpu = replica_gb(workload, replicas.size, replicas.batch, usable)
        assert per_gpu <= usable, "a card is never planned beyond its usable share"
        capacity = next(f for f in evaluation.checks if f.code == "capacity")
        assert capacity.numbers["per_gpu_gb"] <= capacity.numbers["usable_gb"]
        if build.nodes > 1 and data_parallel(workload):
            needs = nic_requirement(build.gpu, RULES)
            assert build.nics * needs.gpus_per_nic >= build.gpu_count
            assert item.nic.speed_gbps >= needs.speed_gbps_min
            assert item.platform.nvlink == "nvswitch" or item.tier == 1


def test_multi_node_inference_scales_by_replicas_without_a_fabric():
    # 70B at batch 64 on 24 GB cards: one replica is 8 GPUs; more sequences, more replicas.
    workload = Workload(70, Mode.INFER, batch_size=64, gpu="rtx-4090")
    (item,) = recommend(workload, CATALOG, RULES).builds
    assert item.build.nodes > 1 and item.replicas.count == item.build.nodes
    assert item.replicas.size == item.build.gpu_count == 8
    assert item.build.nics == 0 and item.nic is None


def test_replica_spans_nodes_only_when_the_weights_exceed_one():
    workload = Workload(405, Mode.INFER, batch_size=32, gpu="h100-80g-sxm")
    (item,) = recommend(workload, CATALOG, RULES).builds
    assert item.replicas.nodes_per_replica == 2 and item.build.gpu_count == 8
    assert item.build.nics == 8 and item.nic.speed_gbps == 400, "pipeline stages need a fabric"


def test_multi_node_training_prefers_nvswitch_boards():
    found = recommend(Workload(175, Mode.TRAIN, batch_size=8), CATALOG, RULES, limit=3)
    multi = [item for item in found.builds if item.build.nodes > 1]
    assert multi[0].platform.nvlink == "nvswitch"
    assert multi[0].build.gpu_count == 8 and multi[0].build.nics == 8
    tiers = [item.tier for item in found.builds]
    assert tiers == sorted(tiers)


def test_nic_share_and_node_limit_come_from_the_rules():
    workload = Workload(13, Mode.TRAIN, batch_size=4, gpu="h100-80g-sxm", gpu_count=16)
    one_per_pair = replace(RULES, gpus_per_nic=2)
    (item,) = recommend(workload, CATALOG, one_per_pair).builds
    assert (item.build.gpu_count, item.build.nics) == (8, 4)
    hgx = CATALOG.find("platforms", "hgx-h100")
    few_slots = replace(CATALOG, platforms=(replace(hgx, nic_slots=4),))
    assert recommend(workload, few_slots, RULES).builds == (), "8 NICs do not fit 4 slots"
    assert recommend(workload, CATALOG, replace(RULES, recommend_max_nodes=1)).builds == ()


def test_nics_sit_in_nic_slots_and_the_gpu_slots_a_pcie_node_leaves_empty():
    spr = CATALOG.find("platforms", "spr-10gpu")
    two_nic_slots = replace(CATALOG, platforms=(replace(spr, nic_slots=2),))
    workload = Workload(13, Mode.TRAIN, batch_size=4, gpu="a800-80g-pcie", gpu_count=16)
    one_per_gpu = replace(RULES, gpus_per_nic_pcie=1)  # a profile asking one NIC per PCIe GPU
    (item,) = recommend(workload, two_nic_slots, one_per_gpu).builds
    # 8 GPUs leave 2 + 2 places for 8 NICs: too few. 4 GPUs leave 2 + 6: enough.
    assert (item.build.nodes, item.build.gpu_count, item.build.nics) == (4, 4, 4)
    assert item.nic.speed_gbps >= 200


def test_psus_must_fit_the_platforms_bays():
    assert cheapest_psus(3500, 4, PSUS, bay_max_w=2000).psu.rated_w == 2000
    assert cheapest_psus(3500, 2, PSUS, bay_max_w=2000) is None


def _exhaustive_best(workload: Workload, catalog: Catalog) -> dict[str, tuple]:
    """Complete every (GPU, platform, CPU) with no bound: the best accepted build per GPU."""
    search = Search(workload, catalog, RULES, limit=100, max_nodes=RULES.recommend_max_nodes)
    best: dict[str, tuple] = {}
    for gpu in catalog.gpus:
        fewest = fewest_gpus(workload, gpu, search.usable(gpu), 1000)
        if fewest is None:
            continue
        search.needed[gpu.slug] = fewest
        for platform in catalog.platforms:
            if not platform.takes_gpu(gpu):
                continue
            plan = search.plan(gpu, platform)
            if plan is None:
                continue
            for cpu in catalog.cpus:
                if cpu.socket != platform.cpu_socket:
                    continue
                item = complete(search, gpu, platform, cpu, plan, float("inf"))
                if item is not None and (
                    gpu.slug not in best or rank_key(item) < best[gpu.slug][0]
                ):
                    best[gpu.slug] = (rank_key(item), platform.slug, cpu.slug)
    return best


@settings(max_examples=40, deadline=None)
@given(workload=WORKLOADS)
def test_pruned_search_finds_the_exhaustive_best_of_every_gpu(workload):
    found = recommend(workload, CATALOG, RULES, limit=len(CATALOG.gpus))
    pruned = {
        item.build.gpu.slug: (rank_key(item), item.platform.slug, item.build.cpu.slug)
        for item in found.builds
    }
    exhaustive = _exhaustive_best(workload, CATALOG)
    assert {gpu: key[0][:2] for gpu, key in pruned.items()} == {
        gpu: key[0][:2] for gpu, key in exhaustive.items()
    }


def test_a_cpu_side_check_in_the_registry_is_used_by_the_search(monkeypatch):
    def no_epyc(build, workload, rules):
        from configurator.engine.findings import Finding, Status

        status = Status.FAIL if "EPYC" in build.cpu.name else Status.PASS
        return Finding("no_epyc", status, "No EPYC", "test")

    registered = RegisteredCheck(
        "no_epyc", no_epyc, REGISTRY.entry("P1"), CheckKind.WORKLOAD, cpu_side=True
    )
    monkeypatch.setitem(REGISTRY._checks, "no_epyc", registered)
    workload = Workload(175, Mode.TRAIN, batch_size=8, gpu="h100-80g-sxm")
    found = recommend(workload, CATALOG, RULES)
    assert found.builds == ()  # the only H100 board takes EPYC alone
    assert "no_epyc" not in found.reason or "No EPYC" in found.reason
    search = Search(workload, CATALOG, RULES, limit=5, max_nodes=16)
    search.needed["h100-80g-sxm"] = 48
    hgx, h100 = CATALOG.find("platforms", "hgx-h100"), CATALOG.find("gpus", "h100-80g-sxm")
    plan = search.plan(h100, hgx)
    assert complete(search, h100, hgx, CATALOG.find("cpus", "epyc-9754"), plan, 1e12) is None
    assert search.explored == 0 and search.rejections["no_epyc"] == 1, "dropped before evaluate"
