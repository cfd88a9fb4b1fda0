"""Seed the rule profiles and give architects the right to publish rule versions.

The operator baseline (domain.md §2–§4) is the default profile; NVIDIA's PCIe-optimised
"2-8-5" reference architecture (domain.md §8) is a second one: ≥ 7 physical cores per GPU,
≥ 128 GB of system memory per GPU, base clock ≥ 2.0 GHz.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from configurator.engine.rules import RuleParams

PROFILES = [
    {
        "slug": "operator-baseline",
        "name": "Operator baseline (运营商匹配基线)",
        "description": "The rental operator's matching baseline: 320 measured nodes, 2026.",
        "is_default": True,
        "overrides": {},
    },
    {
        "slug": "nvidia-ra-2-8-5",
        "name": "NVIDIA AI Enterprise RA 2-8-5",
        "description": "NVIDIA's PCIe-optimised reference node: 2 sockets, 8 GPUs, 5 NICs.",
        "is_default": False,
        "overrides": {
            "cores_per_gpu_min": 7,
            "threads_per_gpu_min": 7,
            "memory_per_gpu_gb_min": 128,
            "cpu_base_ghz_min": 2.0,
        },
    },
]
RULE_MODELS = ("ruleprofile", "rulesetversion")


def seed(apps, schema_editor) -> None:
    RuleProfile = apps.get_model("configurator", "RuleProfile")
    RuleSetVersion = apps.get_model("configurator", "RuleSetVersion")
    defaults = RuleParams().as_dict()
    for spec in PROFILES:
        overrides = spec["overrides"]
        profile = RuleProfile.objects.create(
            slug=spec["slug"],
            name=spec["name"],
            description=spec["description"],
            is_default=spec["is_default"],
        )
        RuleSetVersion.objects.create(
            profile=profile,
            version=1,
            parameters={**defaults, **overrides},
            changes={},
            note="Initial version",
        )

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    rules = Permission.objects.filter(
        content_type__app_label="configurator", content_type__model__in=RULE_MODELS
    )
    Group.objects.get(name="Architects").permissions.add(*rules)
    Group.objects.get(name="Presales").permissions.add(*rules.filter(codename__startswith="view_"))


def unseed(apps, schema_editor) -> None:
    apps.get_model("configurator", "RuleSetVersion").objects.all().delete()
    apps.get_model("configurator", "RuleProfile").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("configurator", "0001_initial"),
        ("catalog", "0003_roles"),
    ]

    operations = [migrations.RunPython(seed, unseed)]
