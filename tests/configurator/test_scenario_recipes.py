"""Scenario recipes reach the engine with the GPUs per node that their label requires."""

import pytest

from configurator import selectors
from configurator.selectors import gpu_count_range


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2–4", (2, 4)), ("4-8", (4, 8)), ("8", (8, 8)), ("", (0, 0)), ("several", (0, 0))],
)
def test_a_recipes_gpu_count_reads_as_a_range(text, expected):
    assert gpu_count_range(text) == expected


@pytest.mark.django_db
def test_seeded_recipes_carry_their_gpu_counts():
    _, rules = selectors.snapshots()
    counts = {s.code: (s.gpus_min, s.gpus_max) for s in rules.scenarios}
    assert counts == {"S1": (2, 4), "S2": (4, 8), "S3": (8, 8)}
