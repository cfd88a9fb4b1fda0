"""Give the Presales and Architects groups their rights on quotes.

Presales write quotes, submit their own, issue them once approved; architects do the same and
review (approve or return) any quote. Which quotes a presales engineer sees (their own) is
decided by `configurator.quotes.selectors.quotes_visible_to`.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PRESALES = ("add_quote", "change_quote", "view_quote", "submit_quote", "issue_quote")
ARCHITECTS = (*PRESALES, "review_quote")


def grant(apps, schema_editor) -> None:
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    quotes = Permission.objects.filter(content_type__app_label="quotes")
    for name, codenames in (("Presales", PRESALES), ("Architects", ARCHITECTS)):
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(*quotes.filter(codename__in=codenames))


def revoke(apps, schema_editor) -> None:
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name__in=["Presales", "Architects"]):
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="quotes"))


class Migration(migrations.Migration):
    dependencies = [
        ("quotes", "0001_initial"),
        ("catalog", "0003_roles"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
