"""Leads move from the pages app (`web`) to this one; their tables and rows stay where they are.

The models' state moves here with their tables' names (`web_lead`, `web_leadbuild`), so no
row is copied and nothing is written to the schema; the quotes' foreign keys follow them.
The two content types are re-pointed rather than replaced, so the permissions the Presales
and Architects groups hold on leads (`web/0002_lead_permissions`) are the same rows, now
`quotes.view_lead`, `quotes.change_lead`, … and the groups keep their rights.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("lead", "leadbuild")


def _move(apps, source: str, target: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    for model in MODELS:
        old = ContentType.objects.filter(app_label=source, model=model).first()
        if old is None:
            continue  # no permissions were made for it yet: post_migrate makes them here
        new = ContentType.objects.filter(app_label=target, model=model).first()
        if new is None:
            old.app_label = target
            old.save(update_fields=["app_label"])
            continue
        # Both exist (permissions were made for the new place already): give the new
        # permissions the groups and users that held the old ones, then drop the old.
        for permission in Permission.objects.filter(content_type=old):
            twin, _ = Permission.objects.get_or_create(
                content_type=new, codename=permission.codename, defaults={"name": permission.name}
            )
            twin.group_set.add(*permission.group_set.all())
            twin.user_set.add(*permission.user_set.all())
        old.delete()


def to_quotes(apps, schema_editor) -> None:
    _move(apps, "web", "quotes")


def to_web(apps, schema_editor) -> None:
    _move(apps, "quotes", "web")


class Migration(migrations.Migration):
    dependencies = [
        ("quotes", "0004_quote_superseded"),
        ("web", "0002_lead_permissions"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Lead",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        ("company", models.CharField(max_length=200, verbose_name="company")),
                        ("email", models.EmailField(max_length=254, verbose_name="e-mail")),
                        ("phone", models.CharField(max_length=30, verbose_name="phone")),
                        ("build", models.JSONField(help_text="As /api/v1/evaluate takes it.", verbose_name="build")),
                        ("workload", models.JSONField(blank=True, null=True, verbose_name="workload")),
                        ("permalink", models.CharField(max_length=2000, verbose_name="permalink")),
                        ("monthly_price", models.DecimalField(decimal_places=2, max_digits=12, verbose_name="monthly price (CNY)")),
                        ("verdict", models.CharField(max_length=10, verbose_name="verdict")),
                        ("language", models.CharField(max_length=10, verbose_name="language")),
                        ("status", models.CharField(choices=[("new", "new"), ("in_progress", "in progress"), ("quoted", "quoted")], default="new", max_length=20, verbose_name="status")),
                        ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="received at")),
                        ("updated_at", models.DateTimeField(auto_now=True, verbose_name="updated at")),
                    ],
                    options={
                        "verbose_name": "lead",
                        "verbose_name_plural": "leads",
                        "db_table": "web_lead",
                        "ordering": ["-created_at"],
                        "indexes": [models.Index(fields=["status", "-created_at"], name="web_lead_status_f3debe_idx")],
                    },
                ),
                migrations.CreateModel(
                    name="LeadBuild",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("build", models.JSONField(verbose_name="build")),
                        ("workload", models.JSONField(blank=True, null=True, verbose_name="workload")),
                        ("permalink", models.CharField(max_length=2000, verbose_name="permalink")),
                        ("monthly_price", models.DecimalField(decimal_places=2, max_digits=12, verbose_name="monthly price (CNY)")),
                        ("verdict", models.CharField(max_length=10, verbose_name="verdict")),
                        ("note", models.TextField(blank=True, verbose_name="note")),
                        ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="saved at")),
                        ("created_by", models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="saved by")),
                        ("lead", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="builds", to="quotes.lead", verbose_name="lead")),
                    ],
                    options={
                        "verbose_name": "saved build",
                        "verbose_name_plural": "saved builds",
                        "db_table": "web_leadbuild",
                        "ordering": ["-created_at"],
                    },
                ),
                migrations.AlterField(
                    model_name="quote",
                    name="lead",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="quotes", to="quotes.lead", verbose_name="lead"),
                ),
                migrations.AlterField(
                    model_name="quote",
                    name="saved_build",
                    field=models.ForeignKey(blank=True, help_text="The build saved to the lead that this quote was written from.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="quotes", to="quotes.leadbuild", verbose_name="saved build"),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(to_quotes, to_web),
    ]
