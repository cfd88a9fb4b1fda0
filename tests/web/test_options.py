"""What a platform takes, what a build costs, and which one change fixes it (seed catalog)."""

from dataclasses import replace

import pytest

from configurator import selectors
from configurator.web.configuration import Configuration
from configurator.web.options import choices, conform, memory_options, psu_options
from configurator.web.pricing import bill_of_materials

pytestmark = pytest.mark.django_db

LEGACY = Configuration(
    cpu="xeon-e5-2680-v4", cpu_count=2, gpu="h100-80g-pcie", gpu_count=8,
    gpus_per_socket=(4, 4), memory_gb=1024, memory_ecc=True, psu_watts=6400, nvlink=False,
    platform="smc-sys-4028gr-tr",
)  # fmt: skip


@pytest.fixture
def catalog():
    return selectors.snapshots()[0].everything


def test_a_platform_offers_only_its_socket_s_cpus_and_its_gpus(catalog):
    offered = choices(LEGACY.changed(platform="smc-as-8125gs-tnhr", cpu="epyc-9754"), catalog)
    assert {cpu.socket for cpu in offered.cpus} == {"SP5"}
    # The HGX H100 8-GPU host takes the HGX H200 board too (catalog migration 0013).
    assert [gpu.slug for gpu in offered.gpus] == ["h100-80g-sxm", "h200-141g-sxm"]
    assert max(offered.gpu_counts) == 8


def test_placements_respect_each_socket_s_slots(catalog):
    offered = choices(LEGACY, catalog)  # 4 + 4 slots
    assert offered.splits == ((4, 4),)
    five_and_five = choices(LEGACY.changed(platform="smc-sys-420gp-tnr"), catalog)
    assert (5, 3) in five_and_five.splits and (6, 2) not in five_and_five.splits


def test_memory_options_are_balanced_populations_of_the_cpu_s_ddr_generation(catalog):
    cpu = catalog.find("cpus", "xeon-gold-6530")  # 8 channels, DDR5
    platform = catalog.find("platforms", "smc-sys-421ge-tnrt")  # 16 DIMM slots per socket
    options = memory_options(cpu, 2, platform, True, catalog)
    assert all(option.module.ddr_gen == 5 and option.module.registered for option in options)
    assert all(option.count in (16, 32) for option in options)
    assert [o.total_gb for o in options] == sorted({o.total_gb for o in options})


def test_psu_options_fit_the_bays_and_keep_a_spare(catalog):
    platform = catalog.find("platforms", "smc-sys-740gp-tnrt")  # 2 bays, ≤ 2200 W
    options = psu_options(platform, catalog)
    assert options and all(o.count <= 2 and o.psu.rated_w <= 2200 for o in options)
    assert all(o.count > o.active for o in options)


@pytest.mark.parametrize(
    ("platform", "vendor"),
    [
        ("dell-xe9680", "Dell"),
        ("inspur-nf5688m7", "Inspur"),
        ("nvidia-dgx-h100", "NVIDIA"),
        ("smc-sys-821ge-tnhr", "Supermicro"),
    ],
)
def test_psu_options_are_the_platforms_own_psus(catalog, platform, vendor):
    """domain.md §6: a bill never puts one vendor's PSU in another's chassis."""
    options = psu_options(catalog.find("platforms", platform), catalog)
    assert options and {option.psu.vendor for option in options} == {vendor}


def test_a_chassis_whose_maker_has_no_psu_in_the_catalog_gets_none_of_anothers(catalog):
    """Imported Lenovo chassis, no Lenovo PSU: the bill leaves the PSUs unpriced."""
    lenovo = replace(
        catalog.find("platforms", "dell-xe9680"), slug="lenovo-sr680a", name="Lenovo SR680a",
        vendor="Lenovo", psu_slugs=frozenset(),
    )  # fmt: skip
    assert psu_options(lenovo, catalog) == ()
    with_it = replace(catalog, platforms=(*catalog.platforms, lenovo))
    config = LEGACY.changed(
        platform="lenovo-sr680a", cpu="xeon-platinum-8480-plus", gpu="h200-141g-sxm",
        memory_gb=2048, psu_watts=8400,
    )  # fmt: skip
    bill = bill_of_materials(config, with_it)
    assert "psu" in bill.unpriced and all(line.kind != "psu" for line in bill.lines)


def test_a_dell_host_on_its_stock_psus_bills_them(catalog):
    config = LEGACY.changed(
        platform="dell-xe9680", cpu="xeon-platinum-8480-plus", gpu="h200-141g-sxm",
        memory_gb=2048, psu_watts=3 * 2800,
    )  # fmt: skip
    moved, _ = conform(config, catalog)
    (psu,) = [line for line in bill_of_materials(moved, catalog).lines if line.kind == "psu"]
    # 8400 W usable: 3 + 1 is the cheapest redundant set of Dell's own 2800 W PSUs.
    assert psu.slug == "dell-psu-2800w-titanium" and psu.qty == 4


def test_conform_moves_parts_onto_a_new_platform_and_says_so(catalog):
    moved, adjustments = conform(LEGACY.changed(platform="smc-as-8125gs-tnhr"), catalog)
    assert catalog.find("cpus", moved.cpu).socket == "SP5"
    assert moved.gpu == "h100-80g-sxm"
    assert {a.field for a in adjustments} >= {"cpu", "gpu"}


def test_conform_leaves_a_build_without_platform_as_the_api_would_see_it(catalog):
    bare = LEGACY.changed(platform="", psu_watts=1234, memory_gb=999)
    assert conform(bare, catalog) == (bare, [])


def test_bill_prices_every_part_of_every_node(catalog):
    bill = bill_of_materials(LEGACY.changed(nodes=2), catalog)
    by_kind = {line.kind: line for line in bill.lines}
    assert by_kind["gpu"].qty == 8 and by_kind["cpu"].qty == 2
    assert bill.node_price == round(sum(line.qty * line.monthly_price for line in bill.lines), 2)
    assert bill.monthly_price == round(2 * bill.node_price, 2)


def test_a_fix_clears_its_check_without_taking_gpus_away():
    from configurator.web.services import configuration_assess, configuration_fix

    catalog = selectors.snapshots()[0].everything
    short, _ = conform(
        LEGACY.changed(platform="smc-sys-421ge-tnrt", cpu="xeon-gold-6530", memory_gb=512),
        catalog,
    )
    before = configuration_assess(config=short, workload=None).evaluation
    assert "P3" in before.evaluation.failed_codes
    fix = configuration_fix(config=short, workload=None, code="P3")
    assert fix.changed == ("memory_gb",) and fix.config.memory_gb >= 768
    after = configuration_assess(config=fix.config, workload=None).evaluation
    assert "P3" not in after.evaluation.failed_codes


def test_there_is_nothing_to_fix_on_a_check_that_does_not_fail():
    from configurator.web.services import configuration_fix

    assert configuration_fix(config=LEGACY, workload=None, code="P3") is None
    assert configuration_fix(config=LEGACY, workload=None, code="not-a-check") is None
