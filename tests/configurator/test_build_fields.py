"""One way from inputs to a Build, one way back (issue 17): every field of the engine's
`Build` is either given to `Build.assemble` or taken from the part it names, and every
surface that writes a build down (the API's input, a recommendation, a fleet sheet row, the
configurator's permalink, a quote) gives the same build back. A field added to `Build` fails
here until it is declared, assembled, and carried by each path (or named below as one a path
does not carry, with the reason)."""

import dataclasses
import inspect
import re
from decimal import Decimal
from pathlib import Path

import pytest

from configurator import api_shapes, selectors
from configurator.engine.build import (
    BUILD_FIXED,
    BUILD_FROM_NIC,
    BUILD_FROM_PLATFORM,
    BUILD_GIVEN,
    NAMED_PARTS,
    Build,
)
from configurator.fleet.rows import ROW_OPTIONAL_FIELDS, build_fields
from configurator.inputs import build_from_input
from configurator.quotes.services import quote_content
from configurator.schemas import BuildIn
from configurator.web.configuration import PERMALINK_FIELDS, Configuration

pytestmark = pytest.mark.django_db

# The platform attribute each board field of a build is taken from; the NIC's for NIC fields.
FROM_PLATFORM = {
    "platform_pcie_gen": "pcie_gen",
    "pcie_switch_uplinks": "pcie_switch_uplinks",
    "nvme_bays": "nvme_bays",
    "rated_power_w": "rated_power_w",
    "rated_gpus": "gpu_capacity",
    "rated_gpu_w": "rated_gpu_w",
    "platform_psu_w": "max_power_w",
}
FROM_NIC = {"nic_lanes": "pcie_lanes", "nic_tdp_w": "tdp_w", "nic_speed_gbps": "speed_gbps"}
# Measured on a probed node only: no input names GPUs that cross sockets.
MEASURED = {"gpus_cross_numa"}
# What each way of writing a build down does not carry, and why.
NOT_CARRIED = {
    "api": MEASURED,
    # A row is one audited node: a sheet has no nodes column.
    "fleet row": MEASURED | {"nodes"},
    # The page sizes the DIMMs from the CPU's channels; the permalink does not hold a count.
    "permalink": MEASURED | {"dimm_count"},
    # A recommended build has no drives (api.md's recommend build has no `nvme`).
    "recommendation": MEASURED | {"nvme", *(part.name for part in NAMED_PARTS)},
    "quote": MEASURED,
}


def _sample() -> Build:
    """Return a build with every given field off its default (the board and NIC named)."""
    everything = selectors.snapshots()[0].everything
    return Build.assemble(
        cpu=everything.find("cpus", "xeon-gold-6530"),
        cpu_count=2,
        gpu=everything.find("gpus", "a800-80g-pcie"),
        gpu_count=8,
        gpus_per_socket=(5, 3),
        memory_gb=768,
        memory_ecc=False,
        psu_watts=4400,
        nvlink=False,
        numa_binding=False,
        nodes=2,
        platform=everything.find("platforms", "smc-sys-421ge-tnrt"),
        nics=2,
        nic=everything.find("nics", "cx6-hdr-200g-qsfp56"),
        nvme=2,
        dimm_count=24,
        gpus_cross_numa=1,
        # each part a build names by slug: the first of its kind the seed catalog holds
        parts={part.name: getattr(everything, part.key)[0] for part in NAMED_PARTS},
    )


def test_every_field_of_a_build_is_given_or_taken_from_a_part():
    names = {field.name for field in dataclasses.fields(Build)}
    declared = {*BUILD_GIVEN, *BUILD_FROM_PLATFORM, *BUILD_FROM_NIC, *BUILD_FIXED}
    assert names == declared
    assert set(FROM_PLATFORM) == set(BUILD_FROM_PLATFORM)
    assert set(FROM_NIC) == set(BUILD_FROM_NIC)


def test_the_assembler_takes_every_given_field():
    # A part a build names by slug (NAMED_PARTS) is given in `parts`, by its field's name.
    given = set(inspect.signature(Build.assemble).parameters) - {"cls", "parts"}
    assert given | {part.name for part in NAMED_PARTS} == set(BUILD_GIVEN)
    assert {part.name for part in NAMED_PARTS} <= {f.name for f in dataclasses.fields(Build)}


def test_the_sample_sets_every_given_field_off_its_default():
    sample = _sample()
    # The required fields' default is MISSING, which no value equals.
    defaults = {field.name: field.default for field in dataclasses.fields(Build)}
    for name in BUILD_GIVEN:
        assert getattr(sample, name) != defaults[name], name


def test_board_and_nic_fields_come_from_the_parts():
    sample = _sample()
    for name, attribute in FROM_PLATFORM.items():
        assert getattr(sample, name) == getattr(sample.platform, attribute), name
    for name, attribute in FROM_NIC.items():
        assert getattr(sample, name) == getattr(sample.nic, attribute), name


def _written(path: str, build: Build) -> dict[str, object]:
    """Return the build as the surface `path` writes it down (evaluate's request shape)."""
    if path == "api":
        return build.as_fields()
    if path == "fleet row":
        return build_fields(build, ROW_OPTIONAL_FIELDS)
    if path == "permalink":
        return Configuration.from_build(build).build_input()
    if path == "recommendation":
        return {name: build.as_fields()[name] for name in api_shapes.RECOMMENDED_BUILD_FIELDS}
    if path == "quote":
        content = quote_content(
            build=BuildIn(**build.as_fields()),
            workload=None,
            term_months=12,
            discount_pct=Decimal(0),
        )
        return content["build"]
    raise AssertionError(path)


@pytest.mark.parametrize("path", NOT_CARRIED)
def test_each_way_of_writing_a_build_down_gives_the_build_back(path):
    sample = _sample()
    written = _written(path, sample)
    back = build_from_input(BuildIn(**written), selectors.snapshots()[0].everything)
    for field in dataclasses.fields(Build):
        if field.name in NOT_CARRIED[path]:
            continue
        assert getattr(back, field.name) == getattr(sample, field.name), (path, field.name)


def test_the_permalink_carries_every_field_of_a_configuration():
    assert set(PERMALINK_FIELDS) == set(Configuration.field_names())


def test_no_module_puts_a_build_together_but_the_assembler():
    """The API, the pages, the recommender, recipes and probes all call `Build.assemble`."""
    root = Path(__file__).resolve().parents[2] / "configurator"
    direct = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "build.py" and re.search(r"(?<![\w.])(engine\.)?Build\(", path.read_text())
    ]
    assert direct == []
