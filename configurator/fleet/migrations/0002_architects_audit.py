"""Architects upload fleet sheets and read every audit."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = ("add_fleetaudit", "view_fleetaudit", "delete_fleetaudit")


def grant(apps, schema_editor) -> None:
    # Permissions are normally created after the whole migrate run; create them now.
    app_config = apps.get_app_config("fleet")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    perms = Permission.objects.filter(content_type__app_label="fleet", codename__in=PERMISSIONS)
    Group.objects.get(name="Architects").permissions.add(*perms)


def revoke(apps, schema_editor) -> None:
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    perms = Permission.objects.filter(content_type__app_label="fleet", codename__in=PERMISSIONS)
    Group.objects.get(name="Architects").permissions.remove(*perms)


class Migration(migrations.Migration):
    dependencies = [
        ("fleet", "0001_audits"),
        ("catalog", "0003_roles"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
