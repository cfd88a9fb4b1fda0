"""Presales and architects work on leads: they may view and change them (not delete)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

LEAD_PERMISSIONS = ("view_lead", "change_lead", "view_leadbuild", "add_leadbuild")


def grant(apps, schema_editor) -> None:
    # Permissions are normally created after the whole migrate run; create them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    permissions = Permission.objects.filter(
        content_type__app_label="web", codename__in=LEAD_PERMISSIONS
    )
    for name in ("Presales", "Architects"):
        Group.objects.get(name=name).permissions.add(*permissions)


def revoke(apps, schema_editor) -> None:
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    permissions = Permission.objects.filter(
        content_type__app_label="web", codename__in=LEAD_PERMISSIONS
    )
    for group in Group.objects.filter(name__in=("Presales", "Architects")):
        group.permissions.remove(*permissions)


class Migration(migrations.Migration):
    dependencies = [("web", "0001_leads"), ("catalog", "0003_roles")]

    operations = [migrations.RunPython(grant, revoke)]
