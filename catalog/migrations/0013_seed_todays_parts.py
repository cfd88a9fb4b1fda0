"""Seed today's parts (api.md "Today's models"; domain.md §6): China's Hopper GPUs, the CPUs
and the HGX hosts they ship in, and the PSUs those hosts take.

As in 0002: literal lists, datasheet values with each item's vendor page, placeholder prices
(monthly rent in CNY), offered by default; notes say where a value could not be confirmed on
a vendor page. Dense tensor throughput is the datasheet's figure without sparsity (starred
figures halved), as in 0010.

| GPU | memory | bandwidth | TDP | NVLink | BF16 / FP8 / INT8 dense |
|---|---|---|---|---|---|
| H20 96GB | 96 GB HBM3 | 4.0 TB/s | 400 W | 900 GB/s (HGX board) | 148 / 296 / 296 |
| H200 141GB SXM | 141 GB HBM3e | 4.8 TB/s | 700 W | 900 GB/s (HGX board) | 989.4 / 1,978.9 / 1,978.9 |
| H800 80GB SXM | 80 GB HBM3 | 3.35 TB/s | 700 W | 400 GB/s (HGX board) | 989.4 / 1,978.9 / 1,978.9 |
| H100 NVL 94GB | 94 GB HBM3 | 3.9 TB/s | 350-400 W | 600 GB/s (bridged pairs) | 835.5 / 1,670.5 / 1,670.5 |

The HGX hosts take their maker's PSUs only (the platform's `psus`); their power figure is
the usable output of the stock set after redundancy (3 + 3), stated for 700 W SXM5 GPUs.
The Supermicro HGX H100 hosts seeded in 0002 also take the HGX H200 8-GPU board (same
SXM5 baseboard and 700 W), so they carry the H200 too. A slug an architect already added
(an H200 imported before this seed) keeps the architect's row; the reverse deletes the
slugs this file names.
"""

from decimal import Decimal

from django.db import migrations

INTEL_ARK = "https://www.intel.com/content/www/us/en/products/sku/{}/specifications.html"
AMD_EPYC_9004 = (
    "https://www.amd.com/en/products/processors/server/epyc/"
    "4th-generation-9004-and-8004-series/{}.html"
)
H100_DATASHEET = "https://www.nvidia.com/en-us/data-center/h100/"
H200_PAGE = "https://www.nvidia.com/en-us/data-center/h200/"
CHINA_PARTS_LISTING = (
    "https://www.tomshardware.com/pc-components/gpus/new-nvidia-ai-gpus-designed-to-get-around-"
    "us-export-bans-come-to-china-h20-l20-and-l2-to-fill-void-left-by-restricted-models"
)
DELL_XE9680 = (
    "https://www.delltechnologies.com/asset/en-us/products/servers/technical-support/"
    "poweredge-xe9680-spec-sheet.pdf"
)
# Inspur's server line is sold as IEIT Systems (ieisystem.com) outside China.
INSPUR_NF5688M7 = "https://www.ieisystem.com/global/product/ai-servers/nf5688m7.html"

SAPPHIRE_RAPIDS = {
    "vendor": "Intel",
    "socket": "LGA4677",
    "pcie_gen": 5,
    "pcie_lanes": 80,
    "pcie_lanes_2s": 160,
    "memory_channels": 8,
    "ddr_gen": 5,
    "memory_speed_mts": 4800,
    "max_sockets": 2,
}

CPUS = [
    {
        **SAPPHIRE_RAPIDS,
        "slug": "xeon-platinum-8480-plus",
        "name": "Intel Xeon Platinum 8480+",
        "source_url": INTEL_ARK.format(
            "231746/intel-xeon-platinum-8480-processor-105m-cache-2-00-ghz"
        ),
        "monthly_price": Decimal("1200.00"),
        "notes": (
            "Sapphire Rapids, the retail part of DGX H100's 8480C: the CPU of HGX H100/H800 "
            "hosts such as Dell XE9680 and Inspur NF5688M7. 2.0 GHz base: under the P8 "
            "threshold, at NVIDIA's 2.0 GHz reference floor."
        ),
        "cores": 56,
        "threads": 112,
        "base_ghz": Decimal("2.00"),
        "boost_ghz": Decimal("3.80"),
        "tdp_w": 350,
    },
    {
        **SAPPHIRE_RAPIDS,
        "slug": "xeon-platinum-8468",
        "name": "Intel Xeon Platinum 8468",
        "source_url": INTEL_ARK.format(
            "231735/intel-xeon-platinum-8468-processor-105m-cache-2-10-ghz"
        ),
        "monthly_price": Decimal("1000.00"),
        "notes": "Sapphire Rapids, 48 cores: the common CPU of HGX H800/H20 hosts in China.",
        "cores": 48,
        "threads": 96,
        "base_ghz": Decimal("2.10"),
        "boost_ghz": Decimal("3.80"),
        "tdp_w": 350,
    },
    {
        **SAPPHIRE_RAPIDS,
        "slug": "xeon-platinum-8462y-plus",
        "name": "Intel Xeon Platinum 8462Y+",
        "source_url": INTEL_ARK.format(
            "232383/intel-xeon-platinum-8462y-processor-60m-cache-2-80-ghz"
        ),
        "monthly_price": Decimal("800.00"),
        "notes": "Sapphire Rapids, 2.8 GHz base: meets the P8 threshold on an HGX host.",
        "cores": 32,
        "threads": 64,
        "base_ghz": Decimal("2.80"),
        "boost_ghz": Decimal("4.10"),
        "tdp_w": 300,
    },
    {
        "slug": "epyc-9654",
        "name": "AMD EPYC 9654",
        "vendor": "AMD",
        "source_url": AMD_EPYC_9004.format("amd-epyc-9654"),
        "monthly_price": Decimal("1000.00"),
        "notes": (
            "Genoa, 96C/192T per socket. 128 lanes per socket; 160 usable in 2P with 3 xGMI "
            "links (128 with 4)."
        ),
        "socket": "SP5",
        "cores": 96,
        "threads": 192,
        "base_ghz": Decimal("2.40"),
        "boost_ghz": Decimal("3.70"),
        "tdp_w": 360,
        "pcie_gen": 5,
        "pcie_lanes": 128,
        "pcie_lanes_2s": 160,
        "memory_channels": 12,
        "ddr_gen": 5,
        "memory_speed_mts": 4800,
        "max_sockets": 2,
    },
]

HOPPER = {
    "vendor": "NVIDIA",
    "pcie_gen": 5,
    "ecc": True,
    "gpu_class": "datacenter",
    "architecture": "hopper",
}

GPUS = [
    {
        **HOPPER,
        "slug": "h20-96g",
        "name": "NVIDIA H20 96GB",
        "source_url": CHINA_PARTS_LISTING,
        "monthly_price": Decimal("4500.00"),
        "notes": (
            "Hopper for the China market, on HGX H20 8-GPU NVSwitch boards. NVIDIA publishes "
            "no H20 product page or datasheet; values as reported from NVIDIA's partner "
            f"documentation ({CHINA_PARTS_LISTING}) and domain.md §6: 96 GB HBM3, 4.0 TB/s, "
            "400 W, NVLink 900 GB/s. Throughput: BF16/FP16 tensor 148 TFLOPS, FP8 and INT8 "
            "296 (dense)."
        ),
        "memory_gb": 96,
        "memory_type": "HBM3",
        "tdp_w": 400,
        "form_factor": "sxm",
        "nvlink_gbps": 900,
        "bf16_tflops": Decimal("148"),
        "fp8_tflops": Decimal("296"),
        "int8_tops": Decimal("296"),
        "memory_bandwidth_gbs": 4000,
    },
    {
        **HOPPER,
        "slug": "h200-141g-sxm",
        "name": "NVIDIA H200 141GB SXM",
        "source_url": H200_PAGE,
        "monthly_price": Decimal("11000.00"),
        "notes": (
            "HGX H200 8-GPU NVSwitch boards, NVLink 900 GB/s, up to 700 W. Throughput: H200 "
            f"datasheet ({H200_PAGE}), H200 SXM: BF16/FP16 tensor 1,979 TFLOPS, FP8 and INT8 "
            "3,958 with sparsity, so 989.4 / 1,978.9 / 1,978.9 dense; 4.8 TB/s HBM3e."
        ),
        "memory_gb": 141,
        "memory_type": "HBM3e",
        "tdp_w": 700,
        "form_factor": "sxm",
        "nvlink_gbps": 900,
        "bf16_tflops": Decimal("989.4"),
        "fp8_tflops": Decimal("1978.9"),
        "int8_tops": Decimal("1978.9"),
        "memory_bandwidth_gbs": 4800,
    },
    {
        **HOPPER,
        "slug": "h800-80g-sxm",
        "name": "NVIDIA H800 80GB SXM5",
        "source_url": H100_DATASHEET,
        "monthly_price": Decimal("8500.00"),
        "notes": (
            "H100 80GB SXM5 with NVLink limited to 400 GB/s, on HGX H800 8-GPU NVSwitch boards. "
            "NVIDIA publishes no H800 SXM datasheet; memory, power and tensor throughput are "
            f"the H100 SXM datasheet's. Throughput: H100 datasheet ({H100_DATASHEET}), H100 "
            "SXM: BF16/FP16 tensor 989.4, FP8 and INT8 1,978.9 (dense); 3.35 TB/s HBM3, 700 W."
        ),
        "memory_gb": 80,
        "memory_type": "HBM3",
        "tdp_w": 700,
        "form_factor": "sxm",
        "nvlink_gbps": 400,
        "bf16_tflops": Decimal("989.4"),
        "fp8_tflops": Decimal("1978.9"),
        "int8_tops": Decimal("1978.9"),
        "memory_bandwidth_gbs": 3350,
    },
    {
        **HOPPER,
        "slug": "h100-nvl-94g",
        "name": "NVIDIA H100 NVL 94GB",
        "source_url": H100_DATASHEET,
        "monthly_price": Decimal("7500.00"),
        "notes": (
            "PCIe card, NVLink bridges join pairs at 600 GB/s (domain.md §6: a ring over more "
            "than two cards crosses PCIe). TDP is the datasheet's 350-400 W range top. "
            f"Throughput: H100 datasheet ({H100_DATASHEET}), H100 NVL: BF16/FP16 tensor 1,671 "
            "TFLOPS, FP8 and INT8 3,341 with sparsity, so 835.5 / 1,670.5 / 1,670.5 dense; "
            "3.9 TB/s HBM3."
        ),
        "memory_gb": 94,
        "memory_type": "HBM3",
        "tdp_w": 400,
        "form_factor": "pcie",
        "nvlink_gbps": 600,
        "bf16_tflops": Decimal("835.5"),
        "fp8_tflops": Decimal("1670.5"),
        "int8_tops": Decimal("1670.5"),
        "memory_bandwidth_gbs": 3900,
    },
]

PSUS = [
    {
        "slug": "dell-psu-2800w-titanium",
        "name": "Dell 2800W Titanium hot-plug PSU (86 mm)",
        "vendor": "Dell",
        "source_url": DELL_XE9680,
        "monthly_price": Decimal("90.00"),
        "notes": (
            "The PowerEdge XE9680's PSU: six, 3 + 3 fault-tolerant (or 5 + 1), 200-240 V AC "
            "or 240 V HVDC, 80 PLUS Titanium. Fits Dell chassis only."
        ),
        "rated_w": 2800,
        "efficiency": "titanium",
    },
    {
        "slug": "inspur-psu-3200w",
        "name": "Inspur 3200W Titanium CRPS PSU",
        "vendor": "Inspur",
        "source_url": INSPUR_NF5688M7,
        "monthly_price": Decimal("100.00"),
        "notes": (
            "The NF5688M7's PSU: six, N + N. Rating from Inspur's NF5688M7 specifications; "
            "part number and efficiency class not confirmed on the vendor page."
        ),
        "rated_w": 3200,
        "efficiency": "titanium",
    },
]

HGX_HOST = {
    "sockets": 2,
    "cpu_socket": "LGA4677",
    "pcie_gen": 5,
    "gpu_form_factor": "sxm",
    "gpu_slots_socket0": 4,
    "gpu_slots_socket1": 4,
    "gpu_attach": "switch",
    "pcie_switch_uplinks": 4,
    "nvlink": "nvswitch",
    "dimm_slots_per_socket": 16,
    "psu_bays": 6,
    "rated_gpu_w": 700,
    "rack_units": 6,
}

PLATFORMS = [
    {
        **HGX_HOST,
        "slug": "dell-xe9680",
        "name": "Dell PowerEdge XE9680 (HGX 8-GPU)",
        "vendor": "Dell",
        "source_url": DELL_XE9680,
        "monthly_price": Decimal("5500.00"),
        "notes": (
            "6U, dual 4th/5th Gen Xeon, HGX H100/H200 8-GPU SXM5 NVSwitch board (H800 in China "
            "configurations); PCIe 5.0 switches on the board, 2 per socket. 32 DDR5 DIMM "
            "slots, up to 10 PCIe 5.0 x16 slots (8 for one NIC per GPU), 16 E3.S NVMe bays. "
            "6 × 2800 W Titanium PSUs, 3 + 3 FTR: 8400 W usable. Switch uplink count not "
            "confirmed on the vendor page."
        ),
        "gpus": ["h100-80g-sxm", "h200-141g-sxm", "h800-80g-sxm"],
        "psus": ["dell-psu-2800w-titanium"],
        "psu_max_w": 2800,
        "max_power_w": 16800,
        "rated_power_w": 8400,
        "power_source_url": DELL_XE9680,
        "nic_slots": 10,
        "nvme_bays": 16,
    },
    {
        **HGX_HOST,
        "slug": "inspur-nf5688m7",
        "name": "Inspur NF5688M7 (HGX 8-GPU)",
        "vendor": "Inspur",
        "source_url": INSPUR_NF5688M7,
        "monthly_price": Decimal("5000.00"),
        "notes": (
            "6U, dual 4th/5th Gen Xeon, HGX H100/H800/H200/H20 8-GPU SXM5 NVSwitch board; PCIe "
            "5.0 switches, 2 per socket, one NIC slot per GPU. 32 DDR5 DIMM slots. 6 × 3200 W "
            "PSUs, N + N: 9600 W usable. The vendor page's address, the PSU rating, switch "
            "uplink count and NVMe bays were not confirmed on the vendor page (not reachable "
            "when seeded): verify them."
        ),
        "gpus": ["h100-80g-sxm", "h200-141g-sxm", "h800-80g-sxm", "h20-96g"],
        "psus": ["inspur-psu-3200w"],
        "psu_max_w": 3200,
        "max_power_w": 19200,
        "rated_power_w": 9600,
        "power_source_url": INSPUR_NF5688M7,
        "nic_slots": 10,
        "nvme_bays": 16,
    },
]
# Supermicro's HGX H100 8-GPU hosts take the HGX H200 8-GPU board too (vendor pages).
H200_ON = ["smc-sys-821ge-tnhr", "smc-as-8125gs-tnhr"]
# NVIDIA's DGX H100 takes its own 3.3 kW PSUs only.
OWN_PSUS = {"nvidia-dgx-h100": ["nvidia-dgx-h100-psu-3300w"]}
COMMON = {"price_is_placeholder": True, "offered": True}


def _related(model, slugs: list[str], owner: str) -> list:
    rows = list(model.objects.filter(slug__in=slugs))
    if len(rows) != len(slugs):
        raise ValueError(f"{owner}: unknown slug in {slugs}")
    return rows


def _new(model, rows: list[dict]) -> list[dict]:
    """Return the rows whose slug the catalog lacks: an architect's own row of a slug stays."""
    have = set(
        model.objects.filter(slug__in=[r["slug"] for r in rows]).values_list("slug", flat=True)
    )
    return [row for row in rows if row["slug"] not in have]


def seed(apps, schema_editor) -> None:
    Gpu = apps.get_model("catalog", "Gpu")
    Psu = apps.get_model("catalog", "Psu")
    Platform = apps.get_model("catalog", "Platform")
    for model_name, rows in (("Cpu", CPUS), ("Gpu", GPUS), ("Psu", PSUS)):
        model = apps.get_model("catalog", model_name)
        model.objects.bulk_create([model(**COMMON, **row) for row in _new(model, rows)])
    for row in _new(Platform, PLATFORMS):
        fields = {key: value for key, value in row.items() if key not in ("gpus", "psus")}
        platform = Platform.objects.create(**COMMON, **fields)
        platform.gpus.set(_related(Gpu, row["gpus"], row["slug"]))
        platform.psus.set(_related(Psu, row["psus"], row["slug"]))
    h200 = Gpu.objects.get(slug="h200-141g-sxm")
    for platform in Platform.objects.filter(slug__in=H200_ON):
        platform.gpus.add(h200)
    for slug, psus in OWN_PSUS.items():
        for platform in Platform.objects.filter(slug=slug):
            platform.psus.set(Psu.objects.filter(slug__in=psus))


def unseed(apps, schema_editor) -> None:
    Platform = apps.get_model("catalog", "Platform")
    for slug in OWN_PSUS:
        for platform in Platform.objects.filter(slug=slug):
            platform.psus.clear()
    for model_name, rows in (
        ("Platform", PLATFORMS),
        ("Psu", PSUS),
        ("Gpu", GPUS),
        ("Cpu", CPUS),
    ):
        model = apps.get_model("catalog", model_name)
        model.objects.filter(slug__in=[row["slug"] for row in rows]).delete()


class Migration(migrations.Migration):
    dependencies = [("catalog", "0012_gpu_architectures_platform_psus")]

    operations = [migrations.RunPython(seed, unseed)]
