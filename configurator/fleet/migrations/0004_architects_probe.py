"""Architects upload node probes and read their reports."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = ("add_nodeprobe", "view_nodeprobe", "delete_nodeprobe")


def _perms(apps):
    app_config = apps.get_app_config("fleet")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Permission = apps.get_model("auth", "Permission")
    return Permission.objects.filter(content_type__app_label="fleet", codename__in=PERMISSIONS)


def grant(apps, schema_editor) -> None:
    apps.get_model("auth", "Group").objects.get(name="Architects").permissions.add(*_perms(apps))


def revoke(apps, schema_editor) -> None:
    group = apps.get_model("auth", "Group").objects.get(name="Architects")
    group.permissions.remove(*_perms(apps))


class Migration(migrations.Migration):
    dependencies = [("fleet", "0003_node_probe")]

    operations = [migrations.RunPython(grant, revoke)]
