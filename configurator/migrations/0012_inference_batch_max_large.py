"""Publish issue 19's serving batch on large cards as a new version of every rule profile that
lacks it.

- `inference_batch_max_large` 1024 (new): with a throughput target alone, a replica of cards
  of 70 GiB or more batches up to 1,024 sequences, as vLLM's own default does on such GPUs
  (`get_batch_defaults`: 1024 at 70 GiB and above, 256 below, which `inference_batch_max`
  keeps).

Existing versions are never rewritten; a profile that already holds it gets no new version.
"""

from django.db import migrations

NEW = {"inference_batch_max_large": 1024}
NOTE = "Serving batch on cards of 70 GiB or more (vLLM's default)"


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
    dependencies = [("configurator", "0011_fabric_by_board_cpu_latency")]

    operations = [migrations.RunPython(publish, unpublish)]
