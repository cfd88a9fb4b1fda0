"""Keep the legacy dual-E5 (PCIe 3.0) parts for fleet audits, but stop offering them.

domain.md §4 P1: no E5-class platform for new multi-GPU builds; the recommender builds only
from offered items, evaluations and audits still know these parts.
"""

from django.db import migrations

LEGACY = {"cpu": ["xeon-e5-2680-v4"], "platform": ["smc-sys-4028gr-tr"]}


def set_offered(offered: bool):
    def apply(apps, schema_editor) -> None:
        for model, slugs in LEGACY.items():
            apps.get_model("catalog", model).objects.filter(slug__in=slugs).update(offered=offered)

    return apply


class Migration(migrations.Migration):
    dependencies = [("catalog", "0004_nic")]

    operations = [migrations.RunPython(set_offered(False), set_offered(True))]
