"""Publish the parameters of the time-and-cost model as a new version of every rule profile.

Existing versions are never rewritten: each profile gets a next version holding its current
parameters plus the new ones (docs/performance.md), and the recommender may span 64 nodes
instead of 16 where the profile still has the old default, so a training deadline can be met
with more nodes. A profile that already holds every value gets no new version.
"""

from django.db import migrations

NEW = {
    "mfu_nvswitch": 0.50,
    "mfu_bridge": 0.40,
    "mfu_pcie": 0.30,
    "memory_bandwidth_efficiency": 0.70,
    "comm_bandwidth_efficiency": 0.80,
    "comm_overlap": 1,
    "inference_batch_max": 256,
}
RAISED = {"recommend_max_nodes": (16, 64)}  # name: (old default, new default)
NOTE = "Time, throughput and cost of the work: efficiency parameters; up to 64 nodes"


def publish(apps, schema_editor) -> None:
    RuleProfile = apps.get_model("configurator", "RuleProfile")
    RuleSetVersion = apps.get_model("configurator", "RuleSetVersion")
    for profile in RuleProfile.objects.all():
        current = RuleSetVersion.objects.filter(profile=profile).order_by("-version").first()
        if current is None:
            continue
        parameters = dict(current.parameters)
        changes = {}
        for name, value in NEW.items():
            if name not in parameters:
                parameters[name] = value
                changes[name] = [None, value]
        for name, (old, new) in RAISED.items():
            if parameters.get(name, old) == old:
                changes[name] = [current.parameters.get(name), new]
                parameters[name] = new
        if not changes:
            continue
        RuleSetVersion.objects.create(
            profile=profile,
            version=current.version + 1,
            parameters=parameters,
            changes=changes,
            note=NOTE,
        )


def unpublish(apps, schema_editor) -> None:
    apps.get_model("configurator", "RuleSetVersion").objects.filter(note=NOTE).delete()


class Migration(migrations.Migration):
    dependencies = [("configurator", "0005_rules_deployed_systems")]

    operations = [migrations.RunPython(publish, unpublish)]
