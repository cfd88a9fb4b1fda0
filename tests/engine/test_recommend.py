"""The recommender: layouts, part choices, and builds that the engine accepts."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from configurator.engine.build import FormFactor, MemoryModule, Mode, Nic, Platform, Psu, Workload
from configurator.engine.catalog import Catalog
from configurator.engine.evaluate import Verdict, evaluate
from configurator.engine.recommend import (
    Scenario,
    cheapest_memory,
    cheapest_psus,
    layout,
    recommend,
    socket_split,
)
from configurator.engine.rules import RuleParams
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
    nics=(Nic("cx7", "ConnectX-7", 400, 5, 16, 25, 900.0),),
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
            monthly_price=5000.0,
        ),
    ),
)


@pytest.mark.parametrize(
    ("total", "slots", "exact", "expected"),
    [
        (8, (5, 5), False, (1, 8, (4, 4))),
        (3, (5, 5), False, (1, 3, (2, 1))),
        (12, (4, 4), False, (2, 6, (3, 3))),
        (9, (4, 4), False, (2, 5, (3, 2))),
        (9, (4, 4), True, (3, 3, (2, 1))),
        (8, (8,), False, (2, 4, (4,))),
    ],
)
def test_layout_uses_the_fewest_identical_nodes(total, slots, exact, expected):
    plan = layout(total, platform("p", "X", slots), RULES, exact=exact)
    assert (plan.nodes, plan.per_node, plan.split) == expected
    assert max(plan.split) <= RULES.gpus_per_socket_max


def test_exact_prime_count_spreads_over_as_many_nodes_as_it_must():
    plan = layout(7, platform("p", "X", (2, 2)), RULES, exact=True)
    assert (plan.nodes, plan.per_node) == (7, 1)


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
    assert (choice.psu.rated_w, choice.count, choice.scheme) == (2000, 4, "3+1")
    assert choice.usable_w == 6000 >= 5280
    n_plus_one = cheapest_psus(5280, 3, PSUS)
    assert (n_plus_one.count, n_plus_one.scheme) == (3, "2+1")
    assert cheapest_psus(9000, 2, PSUS) is None


def test_cheapest_distinct_drops_a_pricier_identical_part_only():
    gpu = CATALOG.find("gpus", "l20")
    clone = replace(gpu, slug="l20-b", name="L20 (other supplier)", monthly_price=2000.0)
    hotter = replace(clone, slug="l20-c", tdp_w=300)
    distinct = Catalog(gpus=(gpu, clone, hotter)).cheapest_distinct()
    assert {g.slug for g in distinct.gpus} == {"l20", "l20-c"}


def test_recommendations_are_accepted_priced_and_cheapest_first():
    workload = Workload(13, Mode.FINETUNE, batch_size=4)
    found = recommend(workload, CATALOG, RULES)
    assert found.builds and found.reason is None
    prices = [item.monthly_price for item in found.builds]
    assert prices == sorted(prices)
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
    assert all(item.build.gpu.has_nvlink for item in found.builds)


def test_gpu_preference_and_count_are_met():
    workload = Workload(13, Mode.TRAIN, batch_size=4, gpu="h100-80g-sxm", gpu_count=16)
    found = recommend(workload, CATALOG, RULES)
    assert found.builds
    for item in found.builds:
        assert item.build.gpu.slug == "h100-80g-sxm"
        assert item.build.gpu_count * item.build.nodes == 16
        assert item.build.nics == item.build.gpu_count // RULES.gpus_per_nic


def test_nothing_fits_says_why_with_numbers():
    workload = Workload(70, Mode.TRAIN, batch_size=8, gpu="h100-80g-sxm", gpu_count=8)
    found = recommend(workload, CATALOG, RULES)
    assert found.builds == ()
    assert "GB per GPU over 8 GPUs" in found.reason and "80 GB" in found.reason


def test_matching_scenario_is_shown_even_when_not_cheapest():
    s3 = Scenario("S3", "100B+ training", frozenset({Mode.TRAIN}), 100, 10000,
                  ("h100-80g-sxm",), "epyc-9754", "hgx-h100", 1024, "scaling 84%")  # fmt: skip
    found = recommend(Workload(175, Mode.TRAIN, batch_size=8), CATALOG, RULES, [s3], limit=1)
    pairing = [item for item in found.builds if item.scenario == "S3"]
    assert pairing
    assert pairing[0].build.memory_gb >= 1024
    assert "S3" in pairing[0].why


@settings(max_examples=150, deadline=None)
@given(
    params=st.floats(min_value=0.1, max_value=400),
    mode=st.sampled_from(list(Mode)),
    batch=st.integers(min_value=1, max_value=128),
    context=st.sampled_from([512, 2048, 8192, 32768]),
    precision=st.sampled_from(["bf16", "fp16", "fp8", "int8", "int4"]),
)
def test_every_recommendation_is_accepted_by_the_engine(params, mode, batch, context, precision):
    workload = Workload(params, mode, batch_size=batch, context_length=context, precision=precision)
    found = recommend(workload, CATALOG, RULES)
    assert bool(found.builds) != bool(found.reason)
    for item in found.builds:
        assert evaluate(item.build, RULES, workload).verdict == Verdict.ACCEPT


def test_nic_share_and_node_limit_come_from_the_rules():
    workload = Workload(13, Mode.TRAIN, batch_size=4, gpu="h100-80g-sxm", gpu_count=16)
    one_per_gpu = replace(RULES, gpus_per_nic=1)
    hgx = CATALOG.find("platforms", "hgx-h100")
    (four_slots,) = recommend(workload, CATALOG, one_per_gpu).builds
    assert (four_slots.build.gpu_count, four_slots.build.nics) == (4, 4), "4 NIC slots"
    roomy = replace(CATALOG, platforms=(replace(hgx, nic_slots=8),))
    (item,) = recommend(workload, roomy, one_per_gpu).builds
    assert item.build.nics == item.build.gpu_count == 8
    assert recommend(workload, CATALOG, replace(RULES, recommend_max_nodes=1)).builds == ()


def test_multi_node_nodes_hold_no_more_gpus_than_their_nic_slots_serve():
    spr = CATALOG.find("platforms", "spr-10gpu")
    two_nic_slots = replace(CATALOG, platforms=(replace(spr, nic_slots=2),))
    workload = Workload(13, Mode.TRAIN, batch_size=4, gpu="a800-80g-pcie", gpu_count=16)
    (item,) = recommend(workload, two_nic_slots, RULES).builds
    assert item.build.gpu_count == 2 * RULES.gpus_per_nic  # as many per node as its NIC slots serve
    assert (item.build.nodes, item.build.nics) == (16 // item.build.gpu_count, 2)


def test_psus_must_fit_the_platforms_bays():
    assert cheapest_psus(3500, 4, PSUS, bay_max_w=2000).psu.rated_w == 2000
    assert cheapest_psus(3500, 2, PSUS, bay_max_w=2000) is None
