"""Publish the defaults calibrated against systems the industry ships (domain.md §6).

Each profile gets a new version when one of these keys still holds the old default (or is
absent); a value a profile set itself is kept. Old versions are never rewritten.

- `gpus_per_socket_max` 4 → 5: P4 is one CPU carrying 6 or more GPUs (the guide's words).
- `gpu_memory_usable_fraction` 0.9 (new): a card is never planned full.
- `gpus_per_nic` 2 → 1 and `nic_speed_gbps_min_hopper` 400 (new): NVIDIA's DGX/HGX reference,
  one 200G NIC per A100/A800 and one 400G NIC per H100. NVIDIA's PCIe "2-8-5" node shares one
  east-west NIC between two GPUs (4 for 8 GPUs, plus one north-south), so that profile keeps 2.
- `psu_headroom` 1.2 → 1.1, `chassis_overhead_w` 500 → 200 and `sxm_board_share` 0.37 (new):
  P7 calibrated against systems vendors ship (docs/rules.md, "Calibration").
"""

from django.db import migrations

ABSENT = object()
# key -> (previous default, new default)
CHANGES = {
    "gpus_per_socket_max": (4, 5),
    "gpu_memory_usable_fraction": (ABSENT, 0.9),
    "gpus_per_nic": (2, 1),
    "nic_speed_gbps_min_hopper": (ABSENT, 400),
    "psu_headroom": (1.2, 1.1),
    "chassis_overhead_w": (500, 200),
    "sxm_board_share": (ABSENT, 0.37),
}
# What a profile's own design says, where it differs from the new default.
PROFILE_VALUES = {"nvidia-ra-2-8-5": {"gpus_per_nic": 2}}
NOTE = "Calibrated against deployed systems: P4 at 6+ GPUs, GPU memory headroom, fabric, P7"


def publish(apps, schema_editor) -> None:
    RuleProfile = apps.get_model("configurator", "RuleProfile")
    RuleSetVersion = apps.get_model("configurator", "RuleSetVersion")
    for profile in RuleProfile.objects.all():
        current = RuleSetVersion.objects.filter(profile=profile).order_by("-version").first()
        if current is None:
            continue
        parameters = dict(current.parameters)
        own = PROFILE_VALUES.get(profile.slug, {})
        changes = {}
        for key, (old, new) in CHANGES.items():
            value = parameters.get(key, ABSENT)
            wanted = own.get(key, new)
            # A default (old or new) gives way; a value the profile chose itself stays.
            if value != wanted and (value is ABSENT or value in (old, new)):
                changes[key] = [None if value is ABSENT else value, wanted]
                parameters[key] = wanted
        if changes:
            RuleSetVersion.objects.create(
                profile=profile,
                version=current.version + 1,
                parameters=parameters,
                changes=changes,
                note=NOTE,
            )


class Migration(migrations.Migration):
    dependencies = [("configurator", "0004_scenario")]

    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
