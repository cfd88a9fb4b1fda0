"""Create the two staff groups: Architects edit the catalog, Presales read it."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

CATALOG_MODELS = ("cpu", "gpu", "memorymodule", "psu", "platform")
ARCHITECTS = "Architects"
PRESALES = "Presales"


def ensure_permissions(apps) -> None:
    # Permissions are normally created after the whole migrate run; create them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None


def create_groups(apps, schema_editor) -> None:
    ensure_permissions(apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    catalog = Permission.objects.filter(
        content_type__app_label="catalog", content_type__model__in=CATALOG_MODELS
    )
    architects, _ = Group.objects.get_or_create(name=ARCHITECTS)
    architects.permissions.add(*catalog)
    presales, _ = Group.objects.get_or_create(name=PRESALES)
    presales.permissions.add(*catalog.filter(codename__startswith="view_"))


def delete_groups(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.filter(name__in=[ARCHITECTS, PRESALES]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0002_seed_catalog"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, delete_groups)]
