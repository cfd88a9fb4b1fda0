"""Seed catalog: datasheet values of the parts the fleet rents out.

The data lives in this file as literal lists so that the migration never changes meaning.
Values are vendor datasheet values (domain.md §6: never the field guide's), each item names the
vendor page its values come from, and every price is a placeholder (monthly rent in CNY) until an
architect sets the real one. Notes say where a value could not be confirmed on a vendor page.

The reverse operation deletes exactly the slugs seeded here.
"""

from decimal import Decimal

from django.db import migrations

INTEL_ARK = "https://www.intel.com/content/www/us/en/products/sku/{}/specifications.html"
AMD_EPYC_9004 = (
    "https://www.amd.com/en/products/processors/server/epyc/"
    "4th-generation-9004-and-8004-series/{}.html"
)
SAMSUNG_RDIMM = "https://semiconductor.samsung.com/us/dram/module/rdimm/{}/"
MICRON_PART = (
    "https://www.micron.com/products/memory/dram-modules/rdimm/part-catalog/part-detail/{}"
)
SMC_GPU = "https://www.supermicro.com/en/products/system/gpu/{}"

CPUS = [
    {
        "slug": "xeon-gold-5318y",
        "name": "Intel Xeon Gold 5318Y",
        "vendor": "Intel",
        "source_url": INTEL_ARK.format(
            "215271/intel-xeon-gold-5318y-processor-36m-cache-2-10-ghz"
        ),
        "monthly_price": Decimal("300.00"),
        "notes": "Ice Lake-SP. Recipe S1 CPU. Base clock below the P8 threshold.",
        "socket": "LGA4189",
        "cores": 24,
        "threads": 48,
        "base_ghz": Decimal("2.10"),
        "boost_ghz": Decimal("3.40"),
        "tdp_w": 165,
        "pcie_gen": 4,
        "pcie_lanes": 64,
        "pcie_lanes_2s": 128,
        "memory_channels": 8,
        "ddr_gen": 4,
        "memory_speed_mts": 2933,
        "max_sockets": 2,
    },
    {
        "slug": "xeon-gold-6530",
        "name": "Intel Xeon Gold 6530",
        "vendor": "Intel",
        "source_url": INTEL_ARK.format(
            "237249/intel-xeon-gold-6530-processor-160m-cache-2-10-ghz"
        ),
        "monthly_price": Decimal("600.00"),
        "notes": (
            "Emerald Rapids. Recipe S2 CPU. Datasheet: 32C/64T and PCIe 5.0 "
            "(the guide's 28C/56T PCIe 4.0 is wrong)."
        ),
        "socket": "LGA4677",
        "cores": 32,
        "threads": 64,
        "base_ghz": Decimal("2.10"),
        "boost_ghz": Decimal("4.00"),
        "tdp_w": 270,
        "pcie_gen": 5,
        "pcie_lanes": 80,
        "pcie_lanes_2s": 160,
        "memory_channels": 8,
        "ddr_gen": 5,
        "memory_speed_mts": 4800,
        "max_sockets": 2,
    },
    {
        "slug": "xeon-gold-6542y",
        "name": "Intel Xeon Gold 6542Y",
        "vendor": "Intel",
        "source_url": INTEL_ARK.format(
            "237559/intel-xeon-gold-6542y-processor-60m-cache-2-90-ghz"
        ),
        "monthly_price": Decimal("550.00"),
        "notes": "Emerald Rapids, high base clock for small-batch inference (P8).",
        "socket": "LGA4677",
        "cores": 24,
        "threads": 48,
        "base_ghz": Decimal("2.90"),
        "boost_ghz": Decimal("4.10"),
        "tdp_w": 250,
        "pcie_gen": 5,
        "pcie_lanes": 80,
        "pcie_lanes_2s": 160,
        "memory_channels": 8,
        "ddr_gen": 5,
        "memory_speed_mts": 5200,
        "max_sockets": 2,
    },
    {
        "slug": "xeon-gold-6548y-plus",
        "name": "Intel Xeon Gold 6548Y+",
        "vendor": "Intel",
        "source_url": INTEL_ARK.format(
            "237564/intel-xeon-gold-6548y-processor-60m-cache-2-50-ghz"
        ),
        "monthly_price": Decimal("650.00"),
        "notes": "Emerald Rapids, 2.5 GHz base: meets the P8 threshold.",
        "socket": "LGA4677",
        "cores": 32,
        "threads": 64,
        "base_ghz": Decimal("2.50"),
        "boost_ghz": Decimal("4.10"),
        "tdp_w": 250,
        "pcie_gen": 5,
        "pcie_lanes": 80,
        "pcie_lanes_2s": 160,
        "memory_channels": 8,
        "ddr_gen": 5,
        "memory_speed_mts": 5200,
        "max_sockets": 2,
    },
    {
        "slug": "xeon-e5-2680-v4",
        "name": "Intel Xeon E5-2680 v4",
        "vendor": "Intel",
        "source_url": (
            "https://ark.intel.com/content/www/us/en/ark/products/91754/"
            "intel-xeon-processor-e5-2680-v4-35m-cache-2-40-ghz.html"
        ),
        "monthly_price": Decimal("60.00"),
        "notes": "Legacy (Broadwell-EP, PCIe 3.0): the fleet still has these nodes (pitfall P1).",
        "socket": "LGA2011-3",
        "cores": 14,
        "threads": 28,
        "base_ghz": Decimal("2.40"),
        "boost_ghz": Decimal("3.30"),
        "tdp_w": 120,
        "pcie_gen": 3,
        "pcie_lanes": 40,
        "pcie_lanes_2s": 80,
        "memory_channels": 4,
        "ddr_gen": 4,
        "memory_speed_mts": 2400,
        "max_sockets": 2,
    },
    {
        "slug": "epyc-9754",
        "name": "AMD EPYC 9754",
        "vendor": "AMD",
        "source_url": AMD_EPYC_9004.format("amd-epyc-9754"),
        "monthly_price": Decimal("900.00"),
        "notes": (
            "Bergamo (Zen 4c). Recipe S3 CPU. 128C/256T per socket, so 512 threads in 2P "
            "(the guide's 256 in total is wrong). 128 lanes per socket; 160 usable in 2P "
            "with 3 xGMI links (128 with 4)."
        ),
        "socket": "SP5",
        "cores": 128,
        "threads": 256,
        "base_ghz": Decimal("2.25"),
        "boost_ghz": Decimal("3.10"),
        "tdp_w": 360,
        "pcie_gen": 5,
        "pcie_lanes": 128,
        "pcie_lanes_2s": 160,
        "memory_channels": 12,
        "ddr_gen": 5,
        "memory_speed_mts": 4800,
        "max_sockets": 2,
    },
    {
        "slug": "epyc-9374f",
        "name": "AMD EPYC 9374F",
        "vendor": "AMD",
        "source_url": AMD_EPYC_9004.format("amd-epyc-9374f"),
        "monthly_price": Decimal("700.00"),
        "notes": "Genoa, frequency-optimised: 3.85 GHz base for small-batch inference (P8).",
        "socket": "SP5",
        "cores": 32,
        "threads": 64,
        "base_ghz": Decimal("3.85"),
        "boost_ghz": Decimal("4.30"),
        "tdp_w": 320,
        "pcie_gen": 5,
        "pcie_lanes": 128,
        "pcie_lanes_2s": 160,
        "memory_channels": 12,
        "ddr_gen": 5,
        "memory_speed_mts": 4800,
        "max_sockets": 2,
    },
    {
        "slug": "epyc-9474f",
        "name": "AMD EPYC 9474F",
        "vendor": "AMD",
        "source_url": AMD_EPYC_9004.format("amd-epyc-9474f"),
        "monthly_price": Decimal("800.00"),
        "notes": "Genoa, frequency-optimised: 3.6 GHz base for small-batch inference (P8).",
        "socket": "SP5",
        "cores": 48,
        "threads": 96,
        "base_ghz": Decimal("3.60"),
        "boost_ghz": Decimal("4.10"),
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

GPUS = [
    {
        "slug": "rtx-4090",
        "name": "NVIDIA GeForce RTX 4090 24GB",
        "vendor": "NVIDIA",
        "source_url": "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4090/",
        "monthly_price": Decimal("1200.00"),
        "notes": "Consumer card: no NVLink; ECC is off by default.",
        "memory_gb": 24,
        "memory_type": "GDDR6X",
        "tdp_w": 450,
        "pcie_gen": 4,
        "form_factor": "pcie",
        "nvlink_gbps": 0,
        "ecc": False,
        "gpu_class": "consumer",
    },
    {
        "slug": "l20",
        "name": "NVIDIA L20 48GB",
        "vendor": "NVIDIA",
        "source_url": (
            "https://www.alibabacloud.com/help/zh/egs/gpu-accelerated-compute-optimized-instance-families"
        ),
        "monthly_price": Decimal("1800.00"),
        "notes": (
            "Ada Lovelace, PCIe only, no NVLink. NVIDIA publishes no L20 product page or "
            "datasheet; memory from the cloud partner's instance documentation, 275 W TDP "
            "from domain.md §9 (not on a vendor page)."
        ),
        "memory_gb": 48,
        "memory_type": "GDDR6",
        "tdp_w": 275,
        "pcie_gen": 4,
        "form_factor": "pcie",
        "nvlink_gbps": 0,
        "ecc": True,
        "gpu_class": "datacenter",
    },
    {
        "slug": "l40s",
        "name": "NVIDIA L40S 48GB",
        "vendor": "NVIDIA",
        "source_url": "https://www.nvidia.com/en-us/data-center/l40s/",
        "monthly_price": Decimal("2500.00"),
        "notes": "Ada Lovelace, PCIe only, no NVLink.",
        "memory_gb": 48,
        "memory_type": "GDDR6",
        "tdp_w": 350,
        "pcie_gen": 4,
        "form_factor": "pcie",
        "nvlink_gbps": 0,
        "ecc": True,
        "gpu_class": "datacenter",
    },
    {
        "slug": "a800-80g-pcie",
        "name": "NVIDIA A800 80GB PCIe",
        "vendor": "NVIDIA",
        "source_url": "https://www.nvidia.com/en-us/data-center/a100/",
        "monthly_price": Decimal("4500.00"),
        "notes": (
            "A100 80GB PCIe with NVLink limited to 400 GB/s (2-GPU bridge). NVIDIA's A800 "
            "data-centre page is withdrawn; values are the A100 80GB PCIe datasheet's."
        ),
        "memory_gb": 80,
        "memory_type": "HBM2e",
        "tdp_w": 300,
        "pcie_gen": 4,
        "form_factor": "pcie",
        "nvlink_gbps": 400,
        "ecc": True,
        "gpu_class": "datacenter",
    },
    {
        "slug": "a800-80g-sxm",
        "name": "NVIDIA A800 80GB SXM4",
        "vendor": "NVIDIA",
        "source_url": "https://www.nvidia.com/en-us/data-center/a100/",
        "monthly_price": Decimal("5500.00"),
        "notes": (
            "A100 80GB SXM4 with NVLink limited to 400 GB/s, on HGX A800 8-GPU NVSwitch "
            "boards. NVIDIA's A800 data-centre page is withdrawn; values are the A100 80GB "
            "SXM datasheet's."
        ),
        "memory_gb": 80,
        "memory_type": "HBM2e",
        "tdp_w": 400,
        "pcie_gen": 4,
        "form_factor": "sxm",
        "nvlink_gbps": 400,
        "ecc": True,
        "gpu_class": "datacenter",
    },
    {
        "slug": "h100-80g-pcie",
        "name": "NVIDIA H100 80GB PCIe",
        "vendor": "NVIDIA",
        "source_url": "https://www.nvidia.com/en-us/data-center/h100/",
        "monthly_price": Decimal("7000.00"),
        "notes": "NVLink bridge 600 GB/s. TDP is the datasheet's 300-350 W range top.",
        "memory_gb": 80,
        "memory_type": "HBM2e",
        "tdp_w": 350,
        "pcie_gen": 5,
        "form_factor": "pcie",
        "nvlink_gbps": 600,
        "ecc": True,
        "gpu_class": "datacenter",
    },
    {
        "slug": "h100-80g-sxm",
        "name": "NVIDIA H100 80GB SXM5",
        "vendor": "NVIDIA",
        "source_url": "https://www.nvidia.com/en-us/data-center/h100/",
        "monthly_price": Decimal("9000.00"),
        "notes": "HGX H100 8-GPU NVSwitch boards, NVLink 900 GB/s.",
        "memory_gb": 80,
        "memory_type": "HBM3",
        "tdp_w": 700,
        "pcie_gen": 5,
        "form_factor": "sxm",
        "nvlink_gbps": 900,
        "ecc": True,
        "gpu_class": "datacenter",
    },
]

MEMORY = [
    {
        "slug": "ddr4-rdimm-16g-3200",
        "name": "Samsung M393A2K40DB3-CWE 16GB DDR4-3200 ECC RDIMM",
        "vendor": "Samsung",
        "source_url": SAMSUNG_RDIMM.format("m393a2k40db3-cwe"),
        "monthly_price": Decimal("20.00"),
        "notes": "1Rx4. Part number not confirmed on the vendor page.",
        "ddr_gen": 4,
        "capacity_gb": 16,
        "registered": True,
        "ecc": True,
        "speed_mts": 3200,
    },
    {
        "slug": "ddr4-rdimm-32g-3200",
        "name": "Samsung M393A4K40DB3-CWE 32GB DDR4-3200 ECC RDIMM",
        "vendor": "Samsung",
        "source_url": SAMSUNG_RDIMM.format("m393a4k40db3-cwe"),
        "monthly_price": Decimal("40.00"),
        "notes": "",
        "ddr_gen": 4,
        "capacity_gb": 32,
        "registered": True,
        "ecc": True,
        "speed_mts": 3200,
    },
    {
        "slug": "ddr4-rdimm-64g-3200",
        "name": "Samsung M393A8G40AB2-CWE 64GB DDR4-3200 ECC RDIMM",
        "vendor": "Samsung",
        "source_url": SAMSUNG_RDIMM.format("m393a8g40ab2-cwe"),
        "monthly_price": Decimal("70.00"),
        "notes": "2Rx4.",
        "ddr_gen": 4,
        "capacity_gb": 64,
        "registered": True,
        "ecc": True,
        "speed_mts": 3200,
    },
    {
        "slug": "ddr5-rdimm-16g-4800",
        "name": "Samsung M321R2GA3BB6-CQK 16GB DDR5-4800 ECC RDIMM",
        "vendor": "Samsung",
        "source_url": SAMSUNG_RDIMM.format("m321r2ga3bb6-cqk"),
        "monthly_price": Decimal("40.00"),
        "notes": "1Rx8. Part number not confirmed on the vendor page.",
        "ddr_gen": 5,
        "capacity_gb": 16,
        "registered": True,
        "ecc": True,
        "speed_mts": 4800,
    },
    {
        "slug": "ddr5-rdimm-32g-4800",
        "name": "Samsung M321R4GA0BB0-CQK 32GB DDR5-4800 ECC RDIMM",
        "vendor": "Samsung",
        "source_url": SAMSUNG_RDIMM.format("m321r4ga0bb0-cqk"),
        "monthly_price": Decimal("70.00"),
        "notes": "1Rx4.",
        "ddr_gen": 5,
        "capacity_gb": 32,
        "registered": True,
        "ecc": True,
        "speed_mts": 4800,
    },
    {
        "slug": "ddr5-rdimm-32g-5600",
        "name": "Micron MTC20F1045S1RC56BD1 32GB DDR5-5600 ECC RDIMM",
        "vendor": "Micron",
        "source_url": MICRON_PART.format("mtc20f1045s1rc56bd1"),
        "monthly_price": Decimal("80.00"),
        "notes": "1Rx4.",
        "ddr_gen": 5,
        "capacity_gb": 32,
        "registered": True,
        "ecc": True,
        "speed_mts": 5600,
    },
    {
        "slug": "ddr5-rdimm-48g-5600",
        "name": "Micron 48GB DDR5-5600 ECC RDIMM",
        "vendor": "Micron",
        "source_url": "https://www.micron.com/products/memory/dram-modules/rdimm",
        "monthly_price": Decimal("95.00"),
        "notes": "24 Gb-die module; no exact part number confirmed, priced as a class.",
        "ddr_gen": 5,
        "capacity_gb": 48,
        "registered": True,
        "ecc": True,
        "speed_mts": 5600,
    },
    {
        "slug": "ddr5-rdimm-64g-4800",
        "name": "Micron MTC40F2046S1RC48BA1 64GB DDR5-4800 ECC RDIMM",
        "vendor": "Micron",
        "source_url": MICRON_PART.format("mtc40f2046s1rc48ba1"),
        "monthly_price": Decimal("120.00"),
        "notes": "2Rx4.",
        "ddr_gen": 5,
        "capacity_gb": 64,
        "registered": True,
        "ecc": True,
        "speed_mts": 4800,
    },
    {
        "slug": "ddr5-rdimm-96g-4800",
        "name": "Samsung M321RYGA0BB0-CQK 96GB DDR5-4800 ECC RDIMM",
        "vendor": "Samsung",
        "source_url": SAMSUNG_RDIMM.format("m321ryga0bb0-cqk"),
        "monthly_price": Decimal("180.00"),
        "notes": "2Rx4.",
        "ddr_gen": 5,
        "capacity_gb": 96,
        "registered": True,
        "ecc": True,
        "speed_mts": 4800,
    },
    {
        "slug": "ddr5-rdimm-96g-5600",
        "name": "Samsung M321RYGA0PB0-CWM 96GB DDR5-5600 ECC RDIMM",
        "vendor": "Samsung",
        "source_url": SAMSUNG_RDIMM.format("m321ryga0pb0-cwm"),
        "monthly_price": Decimal("190.00"),
        "notes": "2Rx4.",
        "ddr_gen": 5,
        "capacity_gb": 96,
        "registered": True,
        "ecc": True,
        "speed_mts": 5600,
    },
    {
        "slug": "ddr5-rdimm-128g-5600",
        "name": "Micron MTC40F2047S1RC56BB1 128GB DDR5-5600 ECC RDIMM",
        "vendor": "Micron",
        "source_url": MICRON_PART.format("mtc40f2047s1rc56bb1"),
        "monthly_price": Decimal("240.00"),
        "notes": "2Rx4.",
        "ddr_gen": 5,
        "capacity_gb": 128,
        "registered": True,
        "ecc": True,
        "speed_mts": 5600,
    },
    {
        "slug": "ddr5-udimm-32g-4800",
        "name": "Crucial CT32G48C40U5 32GB DDR5-4800 UDIMM (non-ECC)",
        "vendor": "Crucial",
        "source_url": "https://www.crucial.com/memory/ddr5/ct32g48c40u5",
        "monthly_price": Decimal("50.00"),
        "notes": "Consumer unbuffered non-ECC module: kept so that pitfall P6 can be shown.",
        "ddr_gen": 5,
        "capacity_gb": 32,
        "registered": False,
        "ecc": False,
        "speed_mts": 4800,
    },
]

PSUS = [
    {
        "slug": "smc-pws-2k04a-1r",
        "name": "Supermicro PWS-2K04A-1R 2000W",
        "vendor": "Supermicro",
        "source_url": "https://store.supermicro.com/us_en/power-supply-pws-2k04a-1r.html",
        "monthly_price": Decimal("60.00"),
        "notes": "2000 W at 200-240 V AC. Efficiency class not confirmed on the vendor page.",
        "rated_w": 2000,
        "efficiency": "titanium",
    },
    {
        "slug": "smc-pws-2k20a-1r",
        "name": "Supermicro PWS-2K20A-1R 2200W",
        "vendor": "Supermicro",
        "source_url": "https://store.supermicro.com/us_en/power-supply-pws-2k20a-1r.html",
        "monthly_price": Decimal("70.00"),
        "notes": "2200 W at 200-240 V AC. Efficiency class not confirmed on the vendor page.",
        "rated_w": 2200,
        "efficiency": "titanium",
    },
    {
        "slug": "smc-pws-3k02g-2r",
        "name": "Supermicro PWS-3K02G-2R 3000W Titanium",
        "vendor": "Supermicro",
        "source_url": "https://store.supermicro.com/us_en/power-supply-pws-3k02g-2r.html",
        "monthly_price": Decimal("90.00"),
        "notes": "3000 W at 207-240 V AC (2880 W at 200-207 V), 80 PLUS Titanium.",
        "rated_w": 3000,
        "efficiency": "titanium",
    },
    {
        "slug": "nvidia-dgx-h100-psu-3300w",
        "name": "NVIDIA DGX H100 power supply 3300W",
        "vendor": "NVIDIA",
        "source_url": (
            "https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html"
        ),
        "monthly_price": Decimal("100.00"),
        "notes": (
            "DGX H100 takes six (4+2) for 10.2 kW maximum system power (domain.md §8). "
            "Efficiency class not confirmed on the vendor page."
        ),
        "rated_w": 3300,
        "efficiency": "titanium",
    },
]

PLATFORMS = [
    {
        "slug": "smc-sys-4028gr-tr",
        "name": "Supermicro SuperServer 4028GR-TR",
        "vendor": "Supermicro",
        "source_url": "https://www.supermicro.com/products/system/4U/4028/SYS-4028GR-TR.cfm",
        "monthly_price": Decimal("1500.00"),
        "notes": (
            "Legacy: dual Xeon E5-2600 v3/v4, 8 double-width GPUs behind PCIe 3.0 switches "
            "(dual root, 4+4) — pitfall P1. PSU bays 4 x 1600 W; switch uplink count (one x16 "
            "per switch) not confirmed on the vendor page."
        ),
        "sockets": 2,
        "cpu_socket": "LGA2011-3",
        "pcie_gen": 3,
        "gpu_form_factor": "pcie",
        "gpus": [],
        "gpu_slots_socket0": 4,
        "gpu_slots_socket1": 4,
        "gpu_attach": "switch",
        "pcie_switch_uplinks": 4,
        "nvlink": "none",
        "dimm_slots_per_socket": 12,
        "psu_bays": 4,
        "max_power_w": 6400,
        "nic_slots": 2,
        "nvme_bays": 0,
        "rack_units": 4,
    },
    {
        "slug": "smc-sys-740gp-tnrt",
        "name": "Supermicro SuperWorkstation 740GP-TNRT",
        "vendor": "Supermicro",
        "source_url": "https://www.supermicro.com/manuals/superserver/4U/MNL-2292.pdf",
        "monthly_price": Decimal("1800.00"),
        "notes": (
            "Recipe S1 (2-4 x L20 or RTX 4090, 2 x Xeon Gold 5318Y): 4 double-width PCIe 4.0 "
            "x16 GPUs direct to the CPUs, 2 per socket. Tower / 4U rack. PSU wattage "
            "(2 x 2200 W) and NVMe bay count not confirmed on the vendor page."
        ),
        "sockets": 2,
        "cpu_socket": "LGA4189",
        "pcie_gen": 4,
        "gpu_form_factor": "pcie",
        "gpus": [],
        "gpu_slots_socket0": 2,
        "gpu_slots_socket1": 2,
        "gpu_attach": "direct",
        "pcie_switch_uplinks": 0,
        "nvlink": "bridge",
        "dimm_slots_per_socket": 8,
        "psu_bays": 2,
        "max_power_w": 4400,
        "nic_slots": 2,
        "nvme_bays": 4,
        "rack_units": 4,
    },
    {
        "slug": "smc-sys-420gp-tnr",
        "name": "Supermicro SuperServer 420GP-TNR",
        "vendor": "Supermicro",
        "source_url": SMC_GPU.format("4u/sys-420gp-tnr"),
        "monthly_price": Decimal("2500.00"),
        "notes": (
            "Recipe S1 at up to 10 PCIe 4.0 GPUs: dual-root PCIe switches, 5 slots per socket. "
            "4 x 2000 W PSUs, 32 DIMM slots. Switch uplink count and NVMe bays not confirmed "
            "on the vendor page."
        ),
        "sockets": 2,
        "cpu_socket": "LGA4189",
        "pcie_gen": 4,
        "gpu_form_factor": "pcie",
        "gpus": [],
        "gpu_slots_socket0": 5,
        "gpu_slots_socket1": 5,
        "gpu_attach": "switch",
        "pcie_switch_uplinks": 4,
        "nvlink": "bridge",
        "dimm_slots_per_socket": 16,
        "psu_bays": 4,
        "max_power_w": 8000,
        "nic_slots": 2,
        "nvme_bays": 6,
        "rack_units": 4,
    },
    {
        "slug": "smc-sys-421ge-tnrt",
        "name": "Supermicro SuperServer 421GE-TNRT",
        "vendor": "Supermicro",
        "source_url": SMC_GPU.format("4u/sys-421ge-tnrt"),
        "monthly_price": Decimal("3500.00"),
        "notes": (
            "Recipe S2 (4-8 x A800 80GB PCIe, 2 x Xeon Gold 6530): up to 10 double-width "
            "PCIe 5.0 GPUs behind dual-root PCIe 5.0 switches (X13DEG-OA board), 5 per socket; "
            "not literally 'direct to CPU'. 4 x 2700 W PSUs, 32 DIMM slots. Switch uplink "
            "count and NVMe bays not confirmed on the vendor page."
        ),
        "sockets": 2,
        "cpu_socket": "LGA4677",
        "pcie_gen": 5,
        "gpu_form_factor": "pcie",
        "gpus": [],
        "gpu_slots_socket0": 5,
        "gpu_slots_socket1": 5,
        "gpu_attach": "switch",
        "pcie_switch_uplinks": 4,
        "nvlink": "bridge",
        "dimm_slots_per_socket": 16,
        "psu_bays": 4,
        "max_power_w": 10800,
        "nic_slots": 2,
        "nvme_bays": 8,
        "rack_units": 4,
    },
    {
        "slug": "smc-as-4125gs-tnrt",
        "name": "Supermicro A+ Server 4125GS-TNRT",
        "vendor": "Supermicro",
        "source_url": SMC_GPU.format("4u/as-4125gs-tnrt"),
        "monthly_price": Decimal("3500.00"),
        "notes": (
            "Dual EPYC 9004 with up to 8 double-width PCIe 5.0 GPUs, 4 per socket (the switched "
            "TNRT1/TNRT2 variants take 10); home for high-clock EPYC with PCIe cards. "
            "4 x 2000 W PSUs, 24 DIMM slots. Direct attach and NVMe bays not confirmed on the "
            "vendor page."
        ),
        "sockets": 2,
        "cpu_socket": "SP5",
        "pcie_gen": 5,
        "gpu_form_factor": "pcie",
        "gpus": [],
        "gpu_slots_socket0": 4,
        "gpu_slots_socket1": 4,
        "gpu_attach": "direct",
        "pcie_switch_uplinks": 0,
        "nvlink": "bridge",
        "dimm_slots_per_socket": 12,
        "psu_bays": 4,
        "max_power_w": 8000,
        "nic_slots": 2,
        "nvme_bays": 4,
        "rack_units": 4,
    },
    {
        "slug": "smc-sys-420gp-tnar",
        "name": "Supermicro SuperServer 420GP-TNAR (HGX A100/A800 8-GPU)",
        "vendor": "Supermicro",
        "source_url": SMC_GPU.format("4u/sys-420gp-tnar"),
        "monthly_price": Decimal("4000.00"),
        "notes": (
            "HGX 8-GPU SXM4 NVSwitch board on dual 3rd Gen Xeon; 4 PCIe 4.0 switches on the "
            "board, 2 per socket. 32 DIMM slots. PSU wattage (4 x 3000 W class) and NIC slot "
            "count not confirmed on the vendor page."
        ),
        "sockets": 2,
        "cpu_socket": "LGA4189",
        "pcie_gen": 4,
        "gpu_form_factor": "sxm",
        "gpus": ["a800-80g-sxm"],
        "gpu_slots_socket0": 4,
        "gpu_slots_socket1": 4,
        "gpu_attach": "switch",
        "pcie_switch_uplinks": 4,
        "nvlink": "nvswitch",
        "dimm_slots_per_socket": 16,
        "psu_bays": 4,
        "max_power_w": 12000,
        "nic_slots": 8,
        "nvme_bays": 6,
        "rack_units": 4,
    },
    {
        "slug": "smc-sys-821ge-tnhr",
        "name": "Supermicro SuperServer 821GE-TNHR (HGX H100 8-GPU)",
        "vendor": "Supermicro",
        "source_url": SMC_GPU.format("8u/sys-821ge-tnhr"),
        "monthly_price": Decimal("5000.00"),
        "notes": (
            "HGX H100 8-GPU SXM5 NVSwitch board on dual 4th/5th Gen Xeon; 4 PCIe 5.0 switches "
            "on the board, 2 per socket. 6 x 3000 W PSUs (18 kW), 32 DIMM slots, 16 NVMe bays, "
            "8 low-profile + 2 full-height x16 slots."
        ),
        "sockets": 2,
        "cpu_socket": "LGA4677",
        "pcie_gen": 5,
        "gpu_form_factor": "sxm",
        "gpus": ["h100-80g-sxm"],
        "gpu_slots_socket0": 4,
        "gpu_slots_socket1": 4,
        "gpu_attach": "switch",
        "pcie_switch_uplinks": 4,
        "nvlink": "nvswitch",
        "dimm_slots_per_socket": 16,
        "psu_bays": 6,
        "max_power_w": 18000,
        "nic_slots": 10,
        "nvme_bays": 16,
        "rack_units": 8,
    },
    {
        "slug": "smc-as-8125gs-tnhr",
        "name": "Supermicro A+ Server 8125GS-TNHR (HGX H100 8-GPU)",
        "vendor": "Supermicro",
        "source_url": SMC_GPU.format("8u/as-8125gs-tnhr"),
        "monthly_price": Decimal("5000.00"),
        "notes": (
            "Recipe S3 (8 x H100 SXM, 2 x EPYC 9754): HGX H100 8-GPU SXM5 NVSwitch board on "
            "dual EPYC 9004; 4 PCIe 5.0 switches on the board, 2 per socket. 6 x 3000 W PSUs "
            "(18 kW), 24 DIMM slots, 16 NVMe bays, 8 low-profile + 2 full-height x16 slots."
        ),
        "sockets": 2,
        "cpu_socket": "SP5",
        "pcie_gen": 5,
        "gpu_form_factor": "sxm",
        "gpus": ["h100-80g-sxm"],
        "gpu_slots_socket0": 4,
        "gpu_slots_socket1": 4,
        "gpu_attach": "switch",
        "pcie_switch_uplinks": 4,
        "nvlink": "nvswitch",
        "dimm_slots_per_socket": 12,
        "psu_bays": 6,
        "max_power_w": 18000,
        "nic_slots": 10,
        "nvme_bays": 16,
        "rack_units": 8,
    },
]

COMMON = {"price_is_placeholder": True, "offered": True}


def seed(apps, schema_editor):
    for model_name, rows in (
        ("Cpu", CPUS),
        ("Gpu", GPUS),
        ("MemoryModule", MEMORY),
        ("Psu", PSUS),
    ):
        model = apps.get_model("catalog", model_name)
        model.objects.bulk_create([model(**COMMON, **row) for row in rows])

    gpu_model = apps.get_model("catalog", "Gpu")
    platform_model = apps.get_model("catalog", "Platform")
    for row in PLATFORMS:
        fields = {key: value for key, value in row.items() if key != "gpus"}
        platform = platform_model.objects.create(**COMMON, **fields)
        if row["gpus"]:
            gpus = list(gpu_model.objects.filter(slug__in=row["gpus"]))
            if len(gpus) != len(row["gpus"]):
                raise ValueError(f"{row['slug']}: unknown GPU slug in {row['gpus']}")
            platform.gpus.set(gpus)


def unseed(apps, schema_editor):
    for model_name, rows in (
        ("Platform", PLATFORMS),
        ("Psu", PSUS),
        ("MemoryModule", MEMORY),
        ("Gpu", GPUS),
        ("Cpu", CPUS),
    ):
        model = apps.get_model("catalog", model_name)
        model.objects.filter(slug__in=[row["slug"] for row in rows]).delete()


class Migration(migrations.Migration):
    dependencies = [("catalog", "0001_initial")]

    operations = [migrations.RunPython(seed, unseed)]
