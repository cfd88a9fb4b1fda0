"""Power: required PSU = max(guide floor, component TDPs × headroom) (domain.md §4 P7, §6)."""

from __future__ import annotations

import math
from dataclasses import replace

from configurator.engine.power import power_budget, psu_floor_w
from configurator.engine.rules import RuleParams
from tests.engine.builders import s1, s2, s3

RULES = RuleParams()


def test_8_h100_sxm_need_far_more_than_the_3600_w_floor() -> None:
    """8 × 700 W GPUs + 2 × 360 W CPUs + 24 DIMMs + the chassis, times the headroom."""
    load = 8 * 700 + 2 * 360 + 24 * RULES.dimm_w + RULES.chassis_overhead_w
    budget = power_budget(s3(), RULES)
    assert budget.load_w == load
    assert budget.need_w == math.ceil(load * RULES.psu_headroom)
    assert budget.required_w == budget.need_w > RULES.psu_floor_w_8gpu


def test_s2_and_s1_needs_from_their_datasheets() -> None:
    s2_load = 8 * 400 + 2 * 270 + 16 * RULES.dimm_w + RULES.chassis_overhead_w
    s1_load = 4 * 275 + 2 * 165 + 16 * RULES.dimm_w + RULES.chassis_overhead_w
    assert power_budget(s2(), RULES).need_w == math.ceil(s2_load * RULES.psu_headroom)
    assert power_budget(s1(), RULES).need_w == math.ceil(s1_load * RULES.psu_headroom)


def test_floors_apply_from_4_and_from_8_gpus() -> None:
    assert psu_floor_w(3, RULES) == 0
    assert psu_floor_w(4, RULES) == RULES.psu_floor_w_4gpu
    assert psu_floor_w(7, RULES) == RULES.psu_floor_w_4gpu
    assert psu_floor_w(8, RULES) == RULES.psu_floor_w_8gpu


def test_the_floor_wins_when_the_components_draw_little() -> None:
    light = replace(RULES, psu_headroom=1.0, chassis_overhead_w=0, dimm_w=0)
    budget = power_budget(s2(gpu=replace(s2().gpu, tdp_w=1), cpu=replace(s2().cpu, tdp_w=1)), light)
    assert budget.need_w < light.psu_floor_w_8gpu
    assert budget.required_w == light.psu_floor_w_8gpu


def test_nics_nvme_and_dimms_count() -> None:
    plain = power_budget(s2(), RULES)
    loaded = power_budget(s2(nics=8, nvme=4, dimm_count=32), RULES)
    build = s2()
    added = 8 * build.nic_tdp_w + 4 * build.nvme_tdp_w + (32 - build.dimms) * RULES.dimm_w
    assert loaded.load_w - plain.load_w == added


def test_headroom_is_an_editable_factor() -> None:
    generous = replace(RULES, psu_headroom=1.5)
    assert power_budget(s3(), generous).need_w == math.ceil(power_budget(s3(), RULES).load_w * 1.5)
