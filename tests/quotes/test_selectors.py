"""Reads for quotes: the recipe baseline an architect compares a build with."""

import pytest

from configurator.quotes import selectors

pytestmark = pytest.mark.django_db


def test_a_build_like_the_recipe_shows_no_difference(make_quote):
    rows = selectors.recipe_baseline_diff(make_quote())
    assert rows and all(row["differences"] == [] for row in rows)


def test_each_difference_from_the_recipe_is_named(make_quote):
    quote = make_quote()
    quote.build = {**quote.build, "cpu": "xeon-gold-5318y", "gpu_count": 2, "memory_gb": 128}
    (row,) = selectors.recipe_baseline_diff(quote)
    fields = {field for field, _recipe, _quote in row["differences"]}
    assert fields == {"cpu", "gpu_count", "memory_gb"}


@pytest.mark.parametrize(
    ("text", "expected"), [("8", (8, 8)), ("4–8", (4, 8)), ("2-4", (2, 4)), ("", (None, None))]
)
def test_recipe_gpu_counts_read_as_ranges(text, expected):
    assert selectors._count_range(text) == expected
