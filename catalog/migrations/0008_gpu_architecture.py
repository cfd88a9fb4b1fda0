"""Every GPU states its architecture: it decides the number formats the GPU runs (FP8).

Datasheet facts for the seeded GPUs: RTX 4090, L20 and L40S are Ada Lovelace (FP8 tensor
cores); A800 is Ampere (A100 silicon, no FP8); H100 is Hopper (FP8 Transformer Engine).
Rows added since are classed by the family their name states; Ampere (no FP8) otherwise.
"""

import re

from django.db import migrations, models

SEEDED = {
    "rtx-4090": "ada",
    "l20": "ada",
    "l40s": "ada",
    "a800-80g-pcie": "ampere",
    "a800-80g-sxm": "ampere",
    "h100-80g-pcie": "hopper",
    "h100-80g-sxm": "hopper",
}
# NVIDIA's product names: Hopper H100/H800/H200/H20; Ada L4/L20/L40/L40S and RTX 40-series.
HOPPER = re.compile(r"\bH(100|800|200|20)\b", re.IGNORECASE)
ADA = re.compile(r"\b(L4|L20|L40S?|RTX 40\d0|RTX 6000 Ada)\b", re.IGNORECASE)


def architecture_of(slug: str, name: str) -> str:
    if slug in SEEDED:
        return SEEDED[slug]
    if HOPPER.search(name):
        return "hopper"
    if ADA.search(name):
        return "ada"
    return "ampere"


def fill(apps, schema_editor) -> None:
    Gpu = apps.get_model("catalog", "Gpu")
    for gpu in Gpu.objects.all():
        gpu.architecture = architecture_of(gpu.slug, gpu.name)
        gpu.save(update_fields=["architecture"])


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0007_import_job"),
    ]

    operations = [
        migrations.AddField(
            model_name="gpu",
            name="architecture",
            field=models.CharField(
                choices=[("ampere", "Ampere"), ("ada", "Ada Lovelace"), ("hopper", "Hopper")],
                default="ampere",
                help_text="Decides the number formats it runs: FP8 needs Hopper or Ada.",
                max_length=12,
                verbose_name="architecture",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="historicalgpu",
            name="architecture",
            field=models.CharField(
                choices=[("ampere", "Ampere"), ("ada", "Ada Lovelace"), ("hopper", "Hopper")],
                default="ampere",
                help_text="Decides the number formats it runs: FP8 needs Hopper or Ada.",
                max_length=12,
                verbose_name="architecture",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
