"""Power: the platform maker's figure where known, else TDPs + board allowance × headroom.

The calibration points of docs/rules.md are asserted here: the estimate puts DGX H100's
configuration at its published 10.2 kW maximum and DGX A100's under its 6.5 kW, and the
guide's S1 recipe fits its 2000 W floor (domain.md §4 P7, §6).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from configurator.engine.power import board_allowance_w, power_budget, psu_floor_w
from configurator.engine.rules import RuleParams
from tests.engine.builders import a800_sxm, h100_sxm, node, rtx_4090, s1, s2, s3, xeon_gold_6530

RULES = RuleParams()


def ceil(watts: float) -> int:
    """Round up, ignoring float noise (1790 × 1.1 is 1969.0000000000002)."""
    return math.ceil(round(watts, 6))


def hgx_allowance(tdp_w: int, gpus: int = 8) -> int:
    return RULES.chassis_overhead_w + math.ceil(RULES.sxm_board_share * tdp_w) * gpus


def test_8_h100_sxm_need_far_more_than_the_3600_w_floor() -> None:
    """8 × 700 W GPUs + 2 × 360 W CPUs + 24 DIMMs + board and HGX allowance, × headroom."""
    load = 8 * 700 + 2 * 360 + 24 * RULES.dimm_w + hgx_allowance(700)
    budget = power_budget(s3(), RULES)
    assert budget.load_w == load
    assert budget.need_w == ceil(load * RULES.psu_headroom)
    assert budget.required_w == budget.need_w > RULES.psu_floor_w_8gpu
    assert not budget.from_platform


def test_s2_and_s1_needs_from_their_datasheets() -> None:
    s2_load = 8 * 400 + 2 * 270 + 16 * RULES.dimm_w + hgx_allowance(400)
    s1_load = 4 * 275 + 2 * 165 + 16 * RULES.dimm_w + RULES.chassis_overhead_w
    assert power_budget(s2(), RULES).need_w == ceil(s2_load * RULES.psu_headroom)
    assert power_budget(s1(), RULES).need_w == ceil(s1_load * RULES.psu_headroom)


def test_pcie_cards_get_the_chassis_allowance_only() -> None:
    assert board_allowance_w(s1(), RULES) == RULES.chassis_overhead_w


def dgx_h100_like():
    """DGX H100's parts: 8 × H100 SXM, 2 × 350 W CPUs, 32 DIMMs, 8 NICs, 8 NVMe (§8)."""
    cpu = replace(xeon_gold_6530(), tdp_w=350)
    return node(cpu, h100_sxm(), 8, 2048, dimm_count=32, nics=8, nvme=8)


def test_estimate_of_dgx_h100_parts_is_its_published_10_2_kw_maximum() -> None:
    need = power_budget(dgx_h100_like(), RULES).need_w
    assert need == pytest.approx(10_200, rel=0.01)


def test_estimate_of_dgx_a100_parts_stays_under_its_published_6_5_kw() -> None:
    """DGX A100: 8 × A100 SXM 400 W, 2 × EPYC 7742 225 W, 32 DIMMs, 8 NICs, 4 NVMe."""
    cpu = replace(xeon_gold_6530(), tdp_w=225)
    build = node(cpu, a800_sxm(), 8, 2048, dimm_count=32, nics=8, nvme=4)
    assert 6_000 < power_budget(build, RULES).need_w <= 6_500


def test_s1_fits_the_guides_2000_w_floor() -> None:
    assert power_budget(s1(), RULES).required_w == RULES.psu_floor_w_4gpu


def test_floors_apply_from_4_and_from_8_gpus() -> None:
    assert psu_floor_w(3, RULES) == 0
    assert psu_floor_w(4, RULES) == RULES.psu_floor_w_4gpu
    assert psu_floor_w(7, RULES) == RULES.psu_floor_w_4gpu
    assert psu_floor_w(8, RULES) == RULES.psu_floor_w_8gpu


def test_the_floor_wins_when_the_components_draw_little() -> None:
    light = replace(RULES, psu_headroom=1.0, chassis_overhead_w=0, dimm_w=0, sxm_board_share=0)
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
    assert power_budget(s3(), generous).need_w == ceil(power_budget(s3(), RULES).load_w * 1.5)


# The platform maker's figure ---------------------------------------------------------------


def on_platform(build, rated_w: int, gpus: int, gpu_w: int):
    return replace(build, rated_power_w=rated_w, rated_gpus=gpus, rated_gpu_w=gpu_w)


def test_the_platforms_figure_replaces_the_estimate_when_it_has_one() -> None:
    budget = power_budget(on_platform(s3(), 10_200, 8, 700), RULES)
    assert budget.from_platform
    assert budget.need_w == budget.required_w == 10_200


def test_the_platforms_figure_moves_with_the_gpus_it_carries() -> None:
    """740GP-TNRT: 2200 W usable (2 × 2200 W, 1+1) for 4 × 300 W; 4 × L20 at 275 W need 2100."""
    assert power_budget(on_platform(s1(), 2_200, 4, 300), RULES).need_w == 2_100


def test_a_partly_filled_chassis_needs_what_its_parts_draw_on_the_platforms_headroom() -> None:
    """2 × L20 in the 740GP-TNRT: their load × (2200 W over the 4 × 300 W configuration's load),
    not the stated figure less two GPUs (domain.md §6: power of a partly filled chassis)."""
    two = on_platform(s1(gpu_count=2, gpus_per_socket=(1, 1)), 2_200, 4, 300)
    budget = power_budget(two, RULES)
    load = 2 * 275 + 2 * 165 + 16 * RULES.dimm_w + RULES.chassis_overhead_w
    full = 4 * 300 + 2 * 165 + 16 * RULES.dimm_w + RULES.chassis_overhead_w
    assert budget.load_w == load
    assert budget.full_load_w == full
    assert budget.need_w == ceil(load * 2_200 / full)
    assert budget.need_w < 2_200 - 4 * 300 + 2 * 275  # what the figure moved gave


def one_4090_in_a_10_slot_chassis():
    """The issue's case: 1 × RTX 4090 (450 W) in a chassis stated at 5400 W for 10 × 350 W."""
    build = s1(gpu=rtx_4090(), gpu_count=1, gpus_per_socket=(1, 0))
    return on_platform(build, 5_400, 10, 350)


def test_one_4090_in_a_10_slot_chassis_does_not_need_the_chassis_maximum() -> None:
    budget = power_budget(one_4090_in_a_10_slot_chassis(), RULES)
    moved = 5_400 + 450 - 10 * 350  # 2350 W: the figure
    assert budget.partly_filled
    assert budget.need_w < 0.75 * moved
    assert budget.need_w >= ceil(budget.load_w * RULES.psu_headroom)


@pytest.mark.parametrize("gpus", range(1, 10))
def test_the_need_grows_with_every_gpu_up_to_the_stated_figure(gpus: int) -> None:
    def need(count: int) -> int:
        split = (math.ceil(count / 2), count // 2)
        build = s1(gpu=rtx_4090(), gpu_count=count, gpus_per_socket=split)
        return power_budget(on_platform(build, 5_400, 10, 350), RULES).need_w

    assert need(gpus) <= need(gpus + 1)
    assert need(10) == 5_400 + 10 * (450 - 350)  # fully loaded: the maker's figure, moved


def test_the_fully_loaded_configuration_gets_the_makers_figure() -> None:
    budget = power_budget(on_platform(s3(), 10_200, 8, 700), RULES)
    assert not budget.partly_filled
    assert budget.need_w == 10_200


def test_the_floor_still_holds_under_a_platform_figure() -> None:
    budget = power_budget(on_platform(s2(), 3_000, 8, 400), RULES)
    assert budget.required_w == RULES.psu_floor_w_8gpu
