"""Publish issue 21's delivered-as-quoted thresholds as a new version of every rule profile
that lacks them (they were literals in fleet/manifest.py; the values are unchanged):

- `probe_memory_share_min` 0.95: a probed node shows at least this share of the quoted memory
  (numactl reports usable memory, about 2 % below what is installed on a 1 TB node).
- `probe_node_memory_share_min` 0.90: each NUMA node holds at least this share of its part
  (less: a memory channel empty).
- `probe_busbw_share_min` 0.80: a measured all-reduce plateau below this share of the time
  model's figure is reported (WARN only).

Existing versions are never rewritten; a profile that already holds them gets no new version.
"""

from django.db import migrations

NEW = {
    "probe_memory_share_min": 0.95,
    "probe_node_memory_share_min": 0.90,
    "probe_busbw_share_min": 0.80,
}
NOTE = "Delivered-as-quoted thresholds (memory, NUMA node memory, all-reduce bus bandwidth)"


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
    dependencies = [("configurator", "0012_inference_batch_max_large")]

    operations = [migrations.RunPython(publish, unpublish)]
