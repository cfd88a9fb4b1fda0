"""A platform's bays take PSUs up to a rating: record it, so no build gets a PSU that won't fit.

Every seeded platform's maximum system power is its bays × its stock PSU module, so the bay
rating of the existing rows is that quotient.
"""

from django.db import migrations, models
from django.db.models import F


def from_stock_psus(apps, schema_editor) -> None:
    Platform = apps.get_model("catalog", "Platform")
    Platform.objects.update(psu_max_w=F("max_power_w") / F("psu_bays"))


class Migration(migrations.Migration):
    dependencies = [("catalog", "0005_legacy_not_offered")]

    operations = [
        migrations.AddField(
            model_name="platform",
            name="psu_max_w",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The highest-rated PSU module a bay takes.",
                verbose_name="largest PSU per bay W",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="historicalplatform",
            name="psu_max_w",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The highest-rated PSU module a bay takes.",
                verbose_name="largest PSU per bay W",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(from_stock_psus, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="platform",
            constraint=models.CheckConstraint(
                condition=models.Q(("psu_max_w__gt", 0)),
                name="catalog_platform_psu_max_w_positive",
            ),
        ),
    ]
