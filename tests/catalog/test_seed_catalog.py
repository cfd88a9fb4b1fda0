"""A fresh install carries the seed catalog, with datasheet values rather than the guide's."""

from decimal import Decimal

import pytest

from catalog.models import Cpu, Gpu, MemoryModule, Platform, Psu

pytestmark = pytest.mark.django_db

API_SLUGS = {
    Cpu: [
        "xeon-gold-5318y",
        "xeon-gold-6530",
        "epyc-9754",
        "xeon-e5-2680-v4",
        # api.md "Today's models, serving under load, node probes"
        "xeon-platinum-8480-plus",
        "xeon-platinum-8468",
        "xeon-platinum-8462y-plus",
        "epyc-9654",
    ],
    Gpu: [
        "rtx-4090",
        "l20",
        "a800-80g-pcie",
        "a800-80g-sxm",
        "h100-80g-pcie",
        "h100-80g-sxm",
        "h20-96g",
        "h200-141g-sxm",
        "h800-80g-sxm",
        "h100-nvl-94g",
    ],
    Platform: ["dell-xe9680", "inspur-nf5688m7"],
}
TODAYS_PARTS = {
    Cpu: ["xeon-platinum-8480-plus", "xeon-platinum-8468", "xeon-platinum-8462y-plus", "epyc-9654"],
    Gpu: ["h20-96g", "h200-141g-sxm", "h800-80g-sxm", "h100-nvl-94g"],
    Platform: ["dell-xe9680", "inspur-nf5688m7"],
    Psu: ["dell-psu-2800w-titanium", "inspur-psu-3200w"],
}

CATALOG_MODELS = [Cpu, Gpu, MemoryModule, Psu, Platform]


@pytest.mark.parametrize(
    ("model", "slug"), [(model, slug) for model, slugs in API_SLUGS.items() for slug in slugs]
)
def test_every_api_slug_exists(model, slug):
    assert model.objects.filter(slug=slug).exists()


@pytest.mark.parametrize(
    ("model", "slug"), [(model, slug) for model, slugs in TODAYS_PARTS.items() for slug in slugs]
)
def test_todays_parts_are_offered_by_default_with_a_vendor_source(model, slug):
    item = model.objects.get(slug=slug)
    assert item.offered and item.price_is_placeholder
    assert item.source_url.startswith("https://")


@pytest.mark.parametrize(
    ("slug", "cores", "threads", "base", "boost", "tdp_w", "socket", "lanes", "channels"),
    [
        ("xeon-platinum-8480-plus", 56, 112, "2.00", "3.80", 350, "LGA4677", 80, 8),
        ("xeon-platinum-8468", 48, 96, "2.10", "3.80", 350, "LGA4677", 80, 8),
        ("xeon-platinum-8462y-plus", 32, 64, "2.80", "4.10", 300, "LGA4677", 80, 8),
        ("epyc-9654", 96, 192, "2.40", "3.70", 360, "SP5", 128, 12),
    ],
)
def test_todays_cpus_have_their_datasheet_values(
    slug, cores, threads, base, boost, tdp_w, socket, lanes, channels
):
    cpu = Cpu.objects.get(slug=slug)
    assert (cpu.cores, cpu.threads, cpu.tdp_w, cpu.socket) == (cores, threads, tdp_w, socket)
    assert (cpu.base_ghz, cpu.boost_ghz) == (Decimal(base), Decimal(boost))
    assert (cpu.pcie_gen, cpu.pcie_lanes, cpu.pcie_lanes_2s) == (5, lanes, 160)
    assert (cpu.memory_channels, cpu.ddr_gen, cpu.memory_speed_mts) == (channels, 5, 4800)


def test_todays_gpus_are_hopper():
    slugs = TODAYS_PARTS[Gpu]
    assert set(Gpu.objects.filter(slug__in=slugs).values_list("architecture", flat=True)) == {
        "hopper"
    }


@pytest.mark.parametrize(
    ("slug", "gpus", "psus", "rated_w"),
    [
        ("dell-xe9680", {"h100-80g-sxm", "h200-141g-sxm", "h800-80g-sxm"},
         {"dell-psu-2800w-titanium"}, 3 * 2800),
        ("inspur-nf5688m7", {"h100-80g-sxm", "h200-141g-sxm", "h800-80g-sxm", "h20-96g"},
         {"inspur-psu-3200w"}, 3 * 3200),
    ],
)  # fmt: skip
def test_hgx_hosts_carry_their_boards_and_take_their_makers_psus(slug, gpus, psus, rated_w):
    platform = Platform.objects.get(slug=slug)
    assert (platform.gpu_form_factor, platform.nvlink, platform.gpu_slots) == ("sxm", "nvswitch", 8)
    assert (platform.sockets, platform.cpu_socket, platform.pcie_gen) == (2, "LGA4677", 5)
    assert set(platform.gpus.values_list("slug", flat=True)) == gpus
    assert set(platform.psus.values_list("slug", flat=True)) == psus
    assert {psu.vendor for psu in platform.psus.all()} == {platform.vendor}
    assert platform.psu_bays == 6 and platform.rated_power_w == rated_w  # 3 + 3 stock PSUs
    assert platform.rated_gpu_w == 700 and platform.power_source_url.startswith("https://")


def test_dgx_h100_takes_nvidias_psus_and_supermicro_hgx_hosts_take_the_h200():
    dgx = Platform.objects.get(slug="nvidia-dgx-h100")
    assert list(dgx.psus.values_list("slug", flat=True)) == ["nvidia-dgx-h100-psu-3300w"]
    for slug in ("smc-sys-821ge-tnhr", "smc-as-8125gs-tnhr"):
        platform = Platform.objects.get(slug=slug)
        assert set(platform.gpus.values_list("slug", flat=True)) == {
            "h100-80g-sxm",
            "h200-141g-sxm",
        }
        assert not platform.psus.exists(), "empty: the maker's own PSUs"


def test_xeon_gold_6530_is_32_cores_pcie5():
    cpu = Cpu.objects.get(slug="xeon-gold-6530")
    assert (cpu.cores, cpu.threads, cpu.pcie_gen) == (32, 64, 5)
    assert cpu.socket == "LGA4677"


def test_epyc_9754_is_128_cores_per_socket_with_160_lanes_in_2p():
    cpu = Cpu.objects.get(slug="epyc-9754")
    assert (cpu.cores, cpu.threads) == (128, 256)
    assert cpu.pcie_lanes == 128
    assert cpu.pcie_lanes_2s == 160
    assert cpu.socket == "SP5"


@pytest.mark.parametrize(
    ("slug", "base"),
    [("xeon-gold-5318y", "2.10"), ("xeon-gold-6530", "2.10"), ("epyc-9754", "2.25")],
)
def test_recipe_cpus_have_datasheet_base_clocks(slug, base):
    assert Cpu.objects.get(slug=slug).base_ghz == Decimal(base)


def test_legacy_e5_is_pcie3_with_40_lanes_per_socket():
    cpu = Cpu.objects.get(slug="xeon-e5-2680-v4")
    assert (cpu.pcie_gen, cpu.pcie_lanes, cpu.pcie_lanes_2s) == (3, 40, 80)
    assert cpu.socket == "LGA2011-3"
    assert "legacy" in cpu.notes.lower()


def test_at_least_three_offered_server_cpus_meet_the_base_clock_threshold():
    fast = Cpu.objects.filter(offered=True, base_ghz__gte=Decimal("2.5"), max_sockets=2)
    assert fast.count() >= 3


@pytest.mark.parametrize(
    ("slug", "memory_gb", "memory_type", "tdp_w", "form_factor", "nvlink_gbps"),
    [
        ("rtx-4090", 24, "GDDR6X", 450, "pcie", 0),
        ("l20", 48, "GDDR6", 275, "pcie", 0),
        ("a800-80g-pcie", 80, "HBM2e", 300, "pcie", 400),
        ("a800-80g-sxm", 80, "HBM2e", 400, "sxm", 400),
        ("h100-80g-pcie", 80, "HBM2e", 350, "pcie", 600),
        ("h100-80g-sxm", 80, "HBM3", 700, "sxm", 900),
        ("h20-96g", 96, "HBM3", 400, "sxm", 900),
        ("h200-141g-sxm", 141, "HBM3e", 700, "sxm", 900),
        ("h800-80g-sxm", 80, "HBM3", 700, "sxm", 400),
        ("h100-nvl-94g", 94, "HBM3", 400, "pcie", 600),
    ],
)
def test_gpu_datasheet_values(slug, memory_gb, memory_type, tdp_w, form_factor, nvlink_gbps):
    gpu = Gpu.objects.get(slug=slug)
    assert (gpu.memory_gb, gpu.memory_type, gpu.tdp_w) == (memory_gb, memory_type, tdp_w)
    assert (gpu.form_factor, gpu.nvlink_gbps) == (form_factor, nvlink_gbps)


@pytest.mark.parametrize(
    ("slug", "bf16_tflops", "fp8_tflops", "int8_tops", "memory_bandwidth_gbs"),
    [
        ("rtx-4090", "165.2", "330.3", "660.6", 1008),
        ("l20", "119.5", "239", "239", 864),
        ("l40s", "362.05", "733", "733", 864),
        ("a800-80g-pcie", "312", "0", "624", 1935),
        ("a800-80g-sxm", "312", "0", "624", 2039),
        ("h100-80g-pcie", "756", "1513", "1513", 2000),
        ("h100-80g-sxm", "989.4", "1978.9", "1978.9", 3350),
        ("h20-96g", "148", "296", "296", 4000),
        ("h200-141g-sxm", "989.4", "1978.9", "1978.9", 4800),
        ("h800-80g-sxm", "989.4", "1978.9", "1978.9", 3350),
        ("h100-nvl-94g", "835.5", "1670.5", "1670.5", 3900),
    ],
)
def test_gpu_dense_throughput_and_bandwidth_are_the_datasheets(
    slug, bf16_tflops, fp8_tflops, int8_tops, memory_bandwidth_gbs
):
    gpu = Gpu.objects.get(slug=slug)
    assert (gpu.bf16_tflops, gpu.fp8_tflops, gpu.int8_tops) == (
        Decimal(bf16_tflops),
        Decimal(fp8_tflops),
        Decimal(int8_tops),
    )
    assert gpu.memory_bandwidth_gbs == memory_bandwidth_gbs
    assert "Throughput:" in gpu.notes and "https://" in gpu.notes


def test_only_hopper_and_ada_gpus_have_fp8():
    without = set(Gpu.objects.filter(fp8_tflops=0).values_list("slug", flat=True))
    assert without == {"a800-80g-pcie", "a800-80g-sxm"}


def test_rtx_4090_and_l20_have_no_nvlink():
    assert not Gpu.objects.filter(slug__in=["rtx-4090", "l20"], nvlink_gbps__gt=0).exists()


def test_rtx_4090_is_a_consumer_card_and_l20_has_ecc():
    assert Gpu.objects.get(slug="rtx-4090").gpu_class == "consumer"
    assert Gpu.objects.get(slug="l20").ecc


@pytest.mark.parametrize(("ddr_gen", "min_sizes"), [(4, 3), (5, 5)])
def test_ecc_rdimms_in_several_sizes(ddr_gen, min_sizes):
    sizes = set(
        MemoryModule.objects.filter(
            ddr_gen=ddr_gen, registered=True, ecc=True, offered=True
        ).values_list("capacity_gb", flat=True)
    )
    assert len(sizes) >= min_sizes


def test_ddr5_rdimms_cover_the_common_sizes():
    sizes = set(
        MemoryModule.objects.filter(ddr_gen=5, registered=True, ecc=True).values_list(
            "capacity_gb", flat=True
        )
    )
    assert {16, 32, 64, 96, 128} <= sizes


def test_a_non_ecc_module_exists_for_the_p6_pitfall():
    assert MemoryModule.objects.filter(ecc=False, registered=False).exists()


def test_psus_span_2000_to_3300_watts():
    watts = set(Psu.objects.values_list("rated_w", flat=True))
    assert min(watts) <= 2000
    assert max(watts) >= 3300
    assert {2000, 3000} <= watts


def _platforms_for(cpu_slug, gpu_slug, gpu_count):
    cpu = Cpu.objects.get(slug=cpu_slug)
    gpu = Gpu.objects.get(slug=gpu_slug)
    fitting = []
    for platform in Platform.objects.filter(
        offered=True, sockets=2, cpu_socket=cpu.socket, gpu_form_factor=gpu.form_factor
    ):
        takes_gpu = not platform.gpus.exists() or platform.gpus.filter(pk=gpu.pk).exists()
        if takes_gpu and platform.gpu_slots >= gpu_count:
            fitting.append(platform)
    return fitting


@pytest.mark.parametrize(
    ("recipe", "cpu_slug", "gpu_slug", "gpu_count"),
    [
        ("S1", "xeon-gold-5318y", "l20", 4),
        ("S1", "xeon-gold-5318y", "rtx-4090", 4),
        ("S2", "xeon-gold-6530", "a800-80g-pcie", 8),
        ("S3", "epyc-9754", "h100-80g-sxm", 8),
    ],
)
def test_every_recipe_has_a_platform(recipe, cpu_slug, gpu_slug, gpu_count):
    assert _platforms_for(cpu_slug, gpu_slug, gpu_count), recipe


def test_recipe_platforms_split_gpus_evenly_across_sockets():
    for cpu_slug, gpu_slug, gpu_count in [
        ("xeon-gold-5318y", "l20", 4),
        ("xeon-gold-6530", "a800-80g-pcie", 8),
        ("epyc-9754", "h100-80g-sxm", 8),
    ]:
        for platform in _platforms_for(cpu_slug, gpu_slug, gpu_count):
            assert platform.gpu_slots_socket0 == platform.gpu_slots_socket1, platform.slug


# PCIe chassis whose maker lists the cards its bays hold (the R760xa's double-width bays:
# data-center cards, no triple-slot RTX 4090); the other PCIe chassis take any card.
PCIE_CHASSIS_WITH_A_CARD_LIST = {"dell-r760xa"}


def test_sxm_baseboards_name_their_modules_and_pcie_chassis_their_cards_only_when_listed():
    for platform in Platform.objects.all():
        modules = list(platform.gpus.values_list("form_factor", flat=True))
        if platform.gpu_form_factor == "sxm":
            assert modules, platform.slug
            assert set(modules) == {"sxm"}, platform.slug
            assert platform.nvlink == "nvswitch", platform.slug
        elif platform.slug in PCIE_CHASSIS_WITH_A_CARD_LIST:
            assert set(modules) == {"pcie"}, platform.slug
        else:
            assert modules == [], platform.slug


def test_a_2u_four_gpu_dual_socket_host_takes_todays_xeons_and_its_makers_psu():
    """Small work gets the smallest balanced node (issue 18 item 6): Dell R760xa, 2U."""
    r760xa = Platform.objects.get(slug="dell-r760xa")
    assert (r760xa.rack_units, r760xa.sockets, r760xa.cpu_socket) == (2, 2, "LGA4677")
    assert (r760xa.gpu_slots_socket0, r760xa.gpu_slots_socket1) == (2, 2)
    assert (r760xa.psu_bays, r760xa.rated_power_w, r760xa.rated_gpu_w) == (2, 2800, 350)
    assert list(r760xa.psus.values_list("slug", flat=True)) == ["dell-psu-2800w-titanium"]
    assert "rtx-4090" not in set(r760xa.gpus.values_list("slug", flat=True))
    assert {"l20", "h100-nvl-94g"} <= set(r760xa.gpus.values_list("slug", flat=True))
    assert r760xa.offered and r760xa.source_url.startswith("https://www.delltechnologies.com/")


def test_a800_sxm_and_high_clock_epyc_have_homes():
    assert _platforms_for("xeon-gold-5318y", "a800-80g-sxm", 8)
    assert _platforms_for("epyc-9374f", "h100-80g-pcie", 4)
    assert _platforms_for("xeon-gold-6530", "h100-80g-sxm", 8)


def test_legacy_e5_eight_gpu_chassis_is_pcie3():
    legacy = Platform.objects.filter(cpu_socket="LGA2011-3", pcie_gen=3, sockets=2)
    assert any(platform.gpu_slots >= 8 for platform in legacy)


def test_switch_uplinks_match_the_attach_mode():
    for platform in Platform.objects.all():
        assert (platform.gpu_attach == "switch") == (platform.pcie_switch_uplinks > 0)


@pytest.mark.parametrize("model", CATALOG_MODELS)
def test_every_item_has_an_https_source_and_a_placeholder_price(model):
    items = list(model.objects.all())
    assert items
    for item in items:
        assert item.source_url.startswith("https://"), item.slug
        assert item.price_is_placeholder, item.slug
        assert item.monthly_price > 0, item.slug
