"""Memory: the requirement of P3 and a balanced DIMM population that meets it."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from configurator.engine.memory import (
    DDR4_RDIMM_GB,
    DDR5_RDIMM_GB,
    DIMMS_PER_CHANNEL,
    memory_population,
    memory_requirement,
    standard_dimm_sizes,
)
from configurator.engine.rules import RuleParams

RULES = RuleParams()


def test_s2_needs_768_gb_as_16_dimms_of_48_gb() -> None:
    """2 × Xeon Gold 6530 = 16 DDR5 channels; 8 × A800 80GB need 1.2 × 640 = 768 GB."""
    need = memory_requirement(8, 80, RULES)
    population = memory_population(need.required_gb, channels=16, ddr_gen=5)
    assert need.required_gb == RULES.memory_vram_ratio_min * 640
    assert population is not None
    assert (population.dimms, population.dimm_gb, population.total_gb) == (16, 48, 768)
    assert population.describe() == "16 × 48 GB DDR5 RDIMM"


def test_ddr4_has_no_48_or_96_gb_dimms() -> None:
    population = memory_population(768, channels=16, ddr_gen=4)
    assert population is not None
    assert (population.dimms, population.dimm_gb) == (16, 64)
    assert 48 not in standard_dimm_sizes(4) and 96 not in standard_dimm_sizes(4)


def test_equal_totals_prefer_fewer_dimms() -> None:
    population = memory_population(512, channels=16, ddr_gen=5)
    assert population is not None
    assert (population.dimms, population.dimm_gb) == (16, 32)


def test_two_dimms_per_channel_when_that_is_the_smaller_total() -> None:
    # One per channel jumps from 16 × 128 = 2048 to 16 × 256 = 4096; 32 × 96 = 3072 is smaller.
    population = memory_population(2500, channels=16, ddr_gen=5)
    assert population is not None
    assert (population.dimms, population.dimm_gb, population.total_gb) == (32, 96, 3072)


def test_no_population_when_two_of_the_largest_dimms_per_channel_are_too_little() -> None:
    most = max(DIMMS_PER_CHANNEL) * 16 * max(DDR5_RDIMM_GB)
    assert memory_population(most, channels=16, ddr_gen=5) is not None
    assert memory_population(most + 1, channels=16, ddr_gen=5) is None


def test_custom_sizes_are_honoured() -> None:
    population = memory_population(300, channels=8, ddr_gen=5, sizes=(40,))
    assert population is not None
    assert (population.dimms, population.dimm_gb) == (8, 40)


@given(
    required=st.floats(min_value=0, max_value=8192),
    channels=st.sampled_from([4, 8, 12, 16, 24]),
    ddr_gen=st.sampled_from([4, 5]),
)
def test_population_is_the_smallest_balanced_one_that_holds_the_requirement(
    required: float, channels: int, ddr_gen: int
) -> None:
    sizes = DDR4_RDIMM_GB if ddr_gen == 4 else DDR5_RDIMM_GB
    valid = [
        (channels * per_channel * size, channels * per_channel)
        for size in sizes
        for per_channel in DIMMS_PER_CHANNEL
        if channels * per_channel * size >= required
    ]
    population = memory_population(required, channels, ddr_gen)
    if not valid:
        assert population is None
        return
    assert population is not None
    assert population.total_gb >= required
    assert population.dimm_gb in sizes
    assert population.dimms // channels in DIMMS_PER_CHANNEL
    assert population.dimms % channels == 0
    assert population.total_gb == population.dimms * population.dimm_gb
    assert (population.total_gb, population.dimms) == min(valid)


def test_requirement_is_the_vram_ratio_below_8_gpus() -> None:
    need = memory_requirement(4, 48, RULES)
    assert need.floor_gb == 0
    assert need.required_gb == round(RULES.memory_vram_ratio_min * 4 * 48, 6)
    assert need.reason == "ratio"


def test_requirement_has_the_floor_from_8_gpus() -> None:
    need = memory_requirement(8, 24, RULES)
    assert need.required_gb == RULES.memory_floor_gb_8gpu
    assert need.reason == "floor"


def test_requirement_can_be_per_gpu() -> None:
    profile = replace(RULES, memory_per_gpu_gb_min=128)
    need = memory_requirement(8, 80, profile)
    assert need.required_gb == 8 * profile.memory_per_gpu_gb_min
    assert need.reason == "per_gpu"
