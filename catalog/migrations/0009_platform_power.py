"""Platforms state their power as their makers do, and DGX H100 joins as a reference system.

P7 takes the maker's figure before the component estimate (domain.md §6). For each seeded
platform that is the usable output, after redundancy, of the PSU configuration the maker
ships for its full GPU complement, stated for the most power-hungry GPU it documents; for
DGX H100 it is NVIDIA's published 10.2 kW maximum system power:

| platform | stock PSUs | usable | for |
|---|---|---|---|
| Supermicro 4028GR-TR | 4 × 1600 W (2 + 2) | 3200 W | 8 × 300 W (Tesla, double width) |
| Supermicro 740GP-TNRT | 2 × 2200 W (1 + 1) | 2200 W | 4 × 300 W (A100 PCIe, A40, RTX A6000) |
| Supermicro 420GP-TNR | 4 × 2000 W (2 + 2) | 4000 W | 10 × 300 W (A100 PCIe) |
| Supermicro 421GE-TNRT | 4 × 2700 W (2 + 2) | 5400 W | 10 × 350 W (H100 PCIe, L40S) |
| Supermicro 4125GS-TNRT | 4 × 2000 W (2 + 2) | 4000 W | 8 × 350 W (H100 PCIe, L40S) |
| Supermicro 420GP-TNAR | 4 × 3000 W (2 + 2) | 6000 W | 8 × 400 W (HGX A100/A800 SXM4) |
| Supermicro 821GE-TNHR | 6 × 3000 W (3 + 3) | 9000 W | 8 × 700 W (HGX H100 SXM5) |
| Supermicro 8125GS-TNHR | 6 × 3000 W (3 + 3) | 9000 W | 8 × 700 W (HGX H100 SXM5) |
| NVIDIA DGX H100 | 6 × 3300 W (4 + 2) | 10200 W published maximum | 8 × 700 W |

The Xeon Platinum 8480C is the CPU NVIDIA builds DGX H100 with (56 cores / 112 threads,
2.0 GHz base, 3.8 GHz boost, 350 W, 80 PCIe 5.0 lanes and 8 DDR5-4800 channels per socket);
it is sold only inside DGX systems, so neither it nor DGX H100 is offered for rent: they are
in the catalog to evaluate DGX H100 as the reference system it is (domain.md §8).
"""

from decimal import Decimal

from django.db import migrations, models

SMC = "https://www.supermicro.com/en/products/system/gpu/{}"
DGX_GUIDE = "https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html"
# slug -> (usable W of the maker's figure, the GPU TDP it is stated for, where it is stated)
FIGURES = {
    "smc-sys-4028gr-tr": (
        3200,
        300,
        "https://www.supermicro.com/products/system/4U/4028/SYS-4028GR-TR.cfm",
    ),
    "smc-sys-740gp-tnrt": (
        2200,
        300,
        "https://www.supermicro.com/manuals/superserver/4U/MNL-2292.pdf",
    ),
    "smc-sys-420gp-tnr": (4000, 300, SMC.format("4u/sys-420gp-tnr")),
    "smc-sys-421ge-tnrt": (5400, 350, SMC.format("4u/sys-421ge-tnrt")),
    "smc-as-4125gs-tnrt": (4000, 350, SMC.format("4u/as-4125gs-tnrt")),
    "smc-sys-420gp-tnar": (6000, 400, SMC.format("4u/sys-420gp-tnar")),
    "smc-sys-821ge-tnhr": (9000, 700, SMC.format("8u/sys-821ge-tnhr")),
    "smc-as-8125gs-tnhr": (9000, 700, SMC.format("8u/as-8125gs-tnhr")),
}
COMMON = {"price_is_placeholder": True, "offered": False}
XEON_8480C = {
    "slug": "xeon-platinum-8480c",
    "name": "Intel Xeon Platinum 8480C",
    "vendor": "Intel",
    "source_url": DGX_GUIDE,
    "monthly_price": Decimal("1200.00"),
    "notes": (
        "Sapphire Rapids, built for NVIDIA DGX H100 (2 per system, 112 cores in all); not sold "
        "on its own, so not offered. 56C/112T, 2.0 GHz base, 3.8 GHz boost, 350 W, 80 PCIe "
        "5.0 lanes and 8 DDR5-4800 channels per socket (Xeon Platinum 8480+ silicon)."
    ),
    "socket": "LGA4677",
    "cores": 56,
    "threads": 112,
    "base_ghz": Decimal("2.00"),
    "boost_ghz": Decimal("3.80"),
    "tdp_w": 350,
    "pcie_gen": 5,
    "pcie_lanes": 80,
    "pcie_lanes_2s": 160,
    "memory_channels": 8,
    "ddr_gen": 5,
    "memory_speed_mts": 4800,
    "max_sockets": 2,
}
DGX_H100 = {
    "slug": "nvidia-dgx-h100",
    "name": "NVIDIA DGX H100",
    "vendor": "NVIDIA",
    "source_url": DGX_GUIDE,
    "monthly_price": Decimal("6000.00"),
    "notes": (
        "Reference system (domain.md §8): 8 × H100 SXM5 on 4 NVSwitch chips, 2 × Xeon Platinum "
        "8480C, 2 TB DDR5 (32 DIMMs), 8 × 400 Gb/s ConnectX-7 (one per GPU) plus 2 BlueField-3, "
        "8 U.2 NVMe, 6 × 3.3 kW PSUs (4 + 2), 10.2 kW maximum system power. Sold as a whole "
        "system: evaluated, not offered."
    ),
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
    "psu_max_w": 3300,
    "max_power_w": 19800,
    "rated_power_w": 10200,
    "rated_gpu_w": 700,
    "power_source_url": DGX_GUIDE,
    "nic_slots": 10,
    "nvme_bays": 8,
    "rack_units": 8,
}


def fill(apps, schema_editor) -> None:
    Platform = apps.get_model("catalog", "Platform")
    for slug, (rated_w, gpu_w, source) in FIGURES.items():
        Platform.objects.filter(slug=slug).update(
            rated_power_w=rated_w, rated_gpu_w=gpu_w, power_source_url=source
        )
    apps.get_model("catalog", "Cpu").objects.create(**COMMON, **XEON_8480C)
    dgx = Platform.objects.create(**COMMON, **DGX_H100)
    dgx.gpus.set(apps.get_model("catalog", "Gpu").objects.filter(slug="h100-80g-sxm"))


def unfill(apps, schema_editor) -> None:
    apps.get_model("catalog", "Platform").objects.filter(slug=DGX_H100["slug"]).delete()
    apps.get_model("catalog", "Cpu").objects.filter(slug=XEON_8480C["slug"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0008_gpu_architecture"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalplatform",
            name="power_source_url",
            field=models.URLField(blank=True, max_length=300, verbose_name="power figure source"),
        ),
        migrations.AddField(
            model_name="historicalplatform",
            name="rated_gpu_w",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The TDP of each GPU the maker's figure is stated for.",
                verbose_name="GPU power of that figure W",
            ),
        ),
        migrations.AddField(
            model_name="historicalplatform",
            name="rated_power_w",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The maker's published maximum system power, or the usable output (after redundancy) of the PSU configuration it ships fully populated; 0 when neither is published. P7 uses it instead of the component estimate.",
                verbose_name="maker's power figure W",
            ),
        ),
        migrations.AddField(
            model_name="platform",
            name="power_source_url",
            field=models.URLField(blank=True, max_length=300, verbose_name="power figure source"),
        ),
        migrations.AddField(
            model_name="platform",
            name="rated_gpu_w",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The TDP of each GPU the maker's figure is stated for.",
                verbose_name="GPU power of that figure W",
            ),
        ),
        migrations.AddField(
            model_name="platform",
            name="rated_power_w",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The maker's published maximum system power, or the usable output (after redundancy) of the PSU configuration it ships fully populated; 0 when neither is published. P7 uses it instead of the component estimate.",
                verbose_name="maker's power figure W",
            ),
        ),
        migrations.AlterField(
            model_name="historicalplatform",
            name="max_power_w",
            field=models.PositiveIntegerField(
                help_text="Every bay filled with its largest PSU.",
                verbose_name="total PSU rating W",
            ),
        ),
        migrations.AlterField(
            model_name="platform",
            name="max_power_w",
            field=models.PositiveIntegerField(
                help_text="Every bay filled with its largest PSU.",
                verbose_name="total PSU rating W",
            ),
        ),
        migrations.AddConstraint(
            model_name="platform",
            constraint=models.CheckConstraint(
                condition=models.Q(("rated_power_w", 0), ("rated_gpu_w__gt", 0), _connector="OR"),
                name="catalog_platform_power_figure_names_its_gpu_power",
            ),
        ),
        migrations.RunPython(fill, unfill),
    ]
