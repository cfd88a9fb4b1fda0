"""Publish the rule parameters of issue 18's "interconnect as wired" and "losses counted once"
(domain.md §6) as a new version of every rule profile that lacks them.

- `gpus_per_nic_pcie` 2 (new): fabric by board. HGX/DGX (SXM) boards keep `gpus_per_nic`, one
  NIC per GPU; PCIe boards share one east-west NIC between two GPUs, as NVIDIA's
  PCIe-optimised "2-8-5" node does (8 GPUs, 4 east-west NICs + 1 north-south).
- `cpu_scheduling_ms` 1.0 (new): P8's measured +54 % is CPU-side scheduling latency, added to
  each inference step and the first token, never a multiplier on GPU throughput.

Existing versions are never rewritten; a profile that already holds both gets no new version.
"""

from django.db import migrations

NEW = {"gpus_per_nic_pcie": 2, "cpu_scheduling_ms": 1.0}
NOTE = "Fabric by board (one NIC per two PCIe GPUs); P8 as CPU-side latency"


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
    dependencies = [("configurator", "0010_remove_scenario_zh")]

    operations = [migrations.RunPython(publish, unpublish)]
