"""A fix that is a build change carries it: applied, it clears its check, and the text says it.

The configurator applies these changes (`web/fixes.py`, tested in tests/web/test_fixes.py);
here the engine alone: each failing or warning finding's `change`, applied to the build as
it is, clears that check, and the fix's words carry the change's values.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from configurator.engine.build import Build, Mode, Workload
from configurator.engine.changes import Change, Part, field_message
from configurator.engine.evaluate import evaluate
from configurator.engine.fabric import nic_requirement
from configurator.engine.findings import Finding, Status
from configurator.engine.pcie import split_label
from configurator.engine.registry import REGISTRY
from configurator.engine.rules import RuleParams
from tests.engine.builders import (
    a800_pcie,
    a800_sxm,
    epyc_9374f,
    epyc_9754,
    h100_sxm,
    l20,
    legacy_e5,
    node,
    rtx_4090,
    s2,
    s3,
    xeon_e5_2680_v4,
    xeon_gold_5318y,
    xeon_gold_6530,
    xeon_gold_6542y,
)

RULES = RuleParams()
CLEARED = {Status.PASS, Status.NA}
TRAIN_70B = Workload(model_params_b=70, mode=Mode.TRAIN, batch_size=1)
TRAIN_34B = Workload(model_params_b=34, mode=Mode.TRAIN, batch_size=8)
INFER_13B = Workload(model_params_b=13, mode=Mode.INFER, batch_size=1)


def troubled(build: Build, workload: Workload | None) -> list[Finding]:
    return [f for f in evaluate(build, RULES, workload).checks if f.failed or f.warned]


def applied(build: Build, finding: Finding) -> Build:
    """Return the build with the finding's change made. A NIC's speed is its model's, a part
    the configurator picks beside the count (tests/web/test_fixes.py): given here."""
    fixed = replace(build, **finding.change.build_values())
    if finding.code == "fabric":
        speed = nic_requirement(build.gpu, RULES).speed_gbps_min
        fixed = replace(fixed, nic_speed_gbps=max(build.nic_speed_gbps, speed))
    return fixed


def status(code: str, build: Build, workload: Workload | None) -> Status:
    return REGISTRY.get(code).check(build, workload, RULES).status


def shown(value: object) -> str:
    """Return a value as a fix's text writes it."""
    if isinstance(value, tuple):
        return split_label(value)
    return str(value)


# The change's own text ----------------------------------------------------------------------


def test_a_change_is_written_field_by_field_in_the_order_given():
    change = Change.of(gpu_count=8, gpus_per_socket=(4, 4), nodes=2)
    assert change.message() == (
        "put 8 GPUs in each node; split the GPUs over the sockets: 4 + 4; "
        "spread the build over 2 nodes"
    )


def test_a_second_change_the_first_needs_is_said_as_such():
    change = Change(
        values=(("nvlink", True),),
        needs=(("platform", Part("smc-sys-420gp-tnr", "SYS-420GP-TNR")), ("psu_watts", 6000)),
    )
    assert change.message() == (
        "fit NVLink (bridges or the board's NVSwitch); for it to fit, also move to the "
        "SYS-420GP-TNR platform, fit PSUs giving 6000 W usable after redundancy"
    )


def test_a_change_answers_the_api_its_fields_with_parts_by_slug():
    change = Change(
        values=(("gpus_per_socket", (4, 4)),), needs=(("cpu", Part("xeon-gold-6530", "6530")),)
    )
    assert change.as_dict() == {"gpus_per_socket": [4, 4], "cpu": "xeon-gold-6530"}
    assert change.build_values() == {"gpus_per_socket": (4, 4), "cpu": "xeon-gold-6530"}


@pytest.mark.parametrize(
    "values",
    [{}, {"colour": "red"}, {"memory_gb": 1024, "nvlink": True, "dimm_count": 16}],
    ids=["nothing", "not a build field", "a field the configurator does not set"],
)
def test_a_change_sets_known_fields_only(values):
    with pytest.raises(ValueError):
        Change.of(**values)


def test_a_field_set_twice_is_refused():
    with pytest.raises(ValueError):
        Change(values=(("nodes", 2),), needs=(("nodes", 3),))


# The guide's bad builds --------------------------------------------------------------------

BAD_BUILDS = [
    pytest.param(s2(memory_gb=512), None, {"P3"}, id="P3 S2 at 512 GB"),
    pytest.param(s2(numa_binding=False), None, {"P2"}, id="P2 no binding"),
    pytest.param(s2(gpus_per_socket=(6, 2)), None, {"P4"}, id="P4 6 + 2"),
    pytest.param(s2(gpus_per_socket=(8, 0)), None, {"P4"}, id="P4 8 + 0"),
    pytest.param(
        node(epyc_9754(), h100_sxm(), 8, 1024, psu_watts=12000, cpu_count=1),
        None,
        {"P4", "numa"},
        id="P4 one socket",
    ),
    pytest.param(
        node(xeon_gold_6530(), a800_pcie(), 16, 2048, psu_watts=20000),
        None,
        {"P4"},
        id="P4 16 GPUs in a node",
    ),
    pytest.param(s2(gpus_per_socket=(5, 3)), None, {"numa"}, id="numa 5 + 3 warns"),
    pytest.param(s2(nvlink=False), TRAIN_70B, {"P5"}, id="P5 no NVLink fitted"),
    pytest.param(s2(memory_ecc=False), None, {"P6"}, id="P6 non-ECC"),
    pytest.param(s3(psu_watts=3600), None, {"P7"}, id="P7 on the floor"),
    pytest.param(s3(psu_watts=6000, platform_psu_w=8000), None, {"P7"}, id="P7 bays too small"),
    pytest.param(
        node(xeon_gold_6530(), a800_sxm(), 4, 1024, psu_watts=6000, nodes=2),
        TRAIN_34B,
        {"fabric"},
        id="fabric two nodes of 4 without NICs",
    ),
    pytest.param(
        node(xeon_gold_6530(), rtx_4090(), 8, 512, psu_watts=6000),
        Workload(model_params_b=175, mode=Mode.INFER, batch_size=8),
        {"capacity"},
        id="capacity 175B on 4090s",
    ),
    pytest.param(
        node(xeon_gold_6530(), a800_sxm(), 6, 1024, psu_watts=6000),
        None,
        {"shape"},
        id="shape 6 SXM modules",
    ),
]


@pytest.mark.parametrize(("build", "workload", "codes"), BAD_BUILDS)
def test_each_bad_build_s_failing_checks_carry_their_change(build, workload, codes):
    with_change = {f.code for f in troubled(build, workload) if f.change is not None}
    assert codes <= with_change


@pytest.mark.parametrize(("build", "workload", "codes"), BAD_BUILDS)
def test_a_change_applied_clears_its_check(build, workload, codes):
    for finding in troubled(build, workload):
        if finding.change is not None:
            fixed = applied(build, finding)
            assert status(finding.code, fixed, workload) in CLEARED, (finding.code, fixed)


@pytest.mark.parametrize(("build", "workload", "codes"), BAD_BUILDS)
def test_the_fix_is_written_from_its_change(build, workload, codes):
    for finding in troubled(build, workload):
        if finding.change is None:
            continue
        for name, value in finding.change.fields().items():
            if not isinstance(value, bool):
                assert shown(value) in finding.fix, (finding.code, name, finding.fix)
        assert finding.as_dict()["fix_change"] == finding.change.as_dict()


def test_the_p4_fix_says_the_split_its_change_sets():
    finding = REGISTRY.get("P4").check(s2(gpus_per_socket=(6, 2)), None, RULES)
    assert finding.change == Change.of(gpus_per_socket=(4, 4))
    assert finding.fix == "split the GPUs evenly over the sockets: 4 + 4"


def test_a_fix_that_is_a_part_names_what_the_catalog_picks_instead():
    """P1 asks for a Gen4 platform, P8 for a high-clock CPU: no change, the fields to pick."""
    p1 = REGISTRY.get("P1").check(legacy_e5(), None, RULES)
    assert p1.change is None and p1.picks == ("platform", "cpu")
    assert p1.as_dict()["fix_change"] is None
    p8 = REGISTRY.get("P8").check(s2(cpu=xeon_gold_5318y()), INFER_13B, RULES)
    assert p8.change is None and "cpu" in p8.picks


def test_a_passing_check_carries_no_change():
    for finding in evaluate(s2(), RULES).checks:
        assert finding.change is None and finding.as_dict()["fix_change"] is None


def test_every_field_a_change_may_set_has_its_text():
    for name, value in [
        ("platform", Part("p", "P")), ("cpu", Part("c", "C")), ("gpu", Part("g", "G")),
        ("nic", Part("n", "N")), ("nic", Part("", "")), ("platform", Part("", "")),
        ("cpu_count", 2), ("gpu_count", 1), ("gpus_per_socket", (4, 4)), ("nodes", 3),
        ("memory_gb", 768), ("memory_ecc", True), ("memory_ecc", False), ("psu_watts", 6000),
        ("nvlink", True), ("nvlink", False), ("numa_binding", True), ("numa_binding", False),
        ("nics", 8),
    ]:  # fmt: skip
        assert str(field_message(name, value))


# Generated bad builds ------------------------------------------------------------------------

CPUS = [xeon_gold_5318y(), xeon_gold_6530(), xeon_gold_6542y(), epyc_9754(), epyc_9374f(),
        xeon_e5_2680_v4()]  # fmt: skip
GPUS = [rtx_4090(), l20(), a800_pcie(), a800_sxm(), h100_sxm()]
WORKLOADS = [
    None,
    TRAIN_70B,
    TRAIN_34B,
    INFER_13B,
    Workload(model_params_b=175, mode=Mode.TRAIN, batch_size=1),
    Workload(model_params_b=70, mode=Mode.INFER, batch_size=16, precision="fp8"),
]


@st.composite
def builds(draw) -> Build:
    cpu_count = draw(st.sampled_from([1, 2]))
    gpus = draw(st.integers(1, 12))
    first = draw(st.integers(0, gpus)) if cpu_count == 2 else gpus
    split = (first, gpus - first) if cpu_count == 2 else (gpus,)
    return node(
        draw(st.sampled_from(CPUS)),
        draw(st.sampled_from(GPUS)),
        gpus,
        draw(st.sampled_from([128, 256, 512, 768, 1024, 2048])),
        psu_watts=draw(st.sampled_from([1600, 3600, 6000, 12000])),
        cpu_count=cpu_count,
        gpus_per_socket=split,
        memory_ecc=draw(st.booleans()),
        nvlink=draw(st.booleans()),
        numa_binding=draw(st.booleans()),
        nodes=draw(st.integers(1, 4)),
        nics=draw(st.integers(0, 8)),
        nic_speed_gbps=draw(st.sampled_from([0, 100, 200, 400])),
        platform_psu_w=draw(st.sampled_from([0, 8000])),
    )


@settings(max_examples=200, deadline=None)
@given(build=builds(), workload=st.sampled_from(WORKLOADS))
def test_any_change_a_finding_carries_clears_its_check(build, workload):
    for finding in troubled(build, workload):
        if finding.change is None:
            continue
        fixed = applied(build, finding)
        assert status(finding.code, fixed, workload) in CLEARED, (finding.code, finding.fix)
