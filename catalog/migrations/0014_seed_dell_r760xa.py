"""Seed a 2U 1–4 GPU dual-socket platform: small work gets the smallest balanced node.

A 1.5B chatbot on one GPU was quoted a whole 10-slot 4U chassis (issue 18, "Small work, big
bill"): the catalog had no 2U PCIe host for today's Xeons. The Dell PowerEdge R760xa is
that host, from its spec sheet (source below):

| | Dell PowerEdge R760xa |
|---|---|
| form | 2U rack, 2 × 4th/5th Gen Xeon Scalable (LGA4677), PCIe 5.0 |
| GPUs | up to 4 double-width PCIe GPUs (350 W class: H100 PCIe, L40S; H100 NVL), 2 per CPU, NVLink bridges on pairs |
| memory | 32 DDR5 RDIMM slots (16 per socket) |
| PSUs | 2 hot-plug, 1 + 1 redundant; 2800 W Titanium the largest (1400–2800 W offered) |
| power figure | 2 × 2800 W, 1 + 1: 2800 W usable for 4 × 350 W GPUs |

It takes the catalog's Dell 2800 W PSU (seeded in 0013 for the XE9680), the only Dell PSU
the catalog has; its GPUs are the data-center PCIe cards Dell lists (L20 and A800 PCIe as
the China variants of L40S and A100 PCIe), not the consumer RTX 4090 (a triple-slot card
the double-width GPU bays do not hold). So, unlike the 4U chassis seeded with no card list
("any card"), it names the cards it takes. The GPU slots'
wiring (direct to the CPUs, two each), the NIC slot count and the drive bays are as read
from the spec sheet's slot table; notes say what was not confirmed there. Placeholder price,
offered by default. An architect's own row of the slug stays; the reverse deletes it.
"""

from decimal import Decimal

from django.db import migrations

DELL_R760XA = (
    "https://www.delltechnologies.com/asset/en-us/products/servers/technical-support/"
    "poweredge-r760xa-spec-sheet.pdf"
)
GPUS = ["l20", "l40s", "a800-80g-pcie", "h100-80g-pcie", "h100-nvl-94g"]
PSUS = ["dell-psu-2800w-titanium"]
R760XA = {
    "slug": "dell-r760xa",
    "name": "Dell PowerEdge R760xa",
    "vendor": "Dell",
    "source_url": DELL_R760XA,
    "monthly_price": Decimal("1600.00"),
    "price_is_placeholder": True,
    "offered": True,
    "notes": (
        "2U, dual 4th/5th Gen Xeon Scalable, up to 4 double-width PCIe 5.0 GPUs (2 per "
        "socket, direct to the CPUs), NVLink bridges on pairs. 32 DDR5 DIMM slots. 2 PSUs "
        "1 + 1, up to 2800 W Titanium (200-240 V): 2800 W usable for 4 × 350 W GPUs. NIC "
        "slot count (2 × x16 beside the GPUs) and NVMe bays (up to 8 × 2.5\") not "
        "confirmed on the vendor page."
    ),
    "sockets": 2,
    "cpu_socket": "LGA4677",
    "pcie_gen": 5,
    "gpu_form_factor": "pcie",
    "gpu_slots_socket0": 2,
    "gpu_slots_socket1": 2,
    "gpu_attach": "direct",
    "pcie_switch_uplinks": 0,
    "nvlink": "bridge",
    "dimm_slots_per_socket": 16,
    "psu_bays": 2,
    "psu_max_w": 2800,
    "max_power_w": 5600,
    "rated_power_w": 2800,
    "rated_gpu_w": 350,
    "power_source_url": DELL_R760XA,
    "nic_slots": 2,
    "nvme_bays": 8,
    "rack_units": 2,
}


def seed(apps, schema_editor) -> None:
    Platform = apps.get_model("catalog", "Platform")
    if Platform.objects.filter(slug=R760XA["slug"]).exists():
        return  # an architect's own row of the slug stays
    platform = Platform.objects.create(**R760XA)
    # GPU slugs an install lacks (deleted by an architect) are left out, not invented.
    platform.gpus.set(apps.get_model("catalog", "Gpu").objects.filter(slug__in=GPUS))
    platform.psus.set(apps.get_model("catalog", "Psu").objects.filter(slug__in=PSUS))


def unseed(apps, schema_editor) -> None:
    apps.get_model("catalog", "Platform").objects.filter(slug=R760XA["slug"]).delete()


class Migration(migrations.Migration):
    dependencies = [("catalog", "0013_seed_todays_parts")]

    operations = [migrations.RunPython(seed, unseed)]
