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


def test_the_recipe_diff_reads_gpu_ranges_with_the_one_parser():
    # One parser of "4–8" (`configurator.selectors.gpu_count_range`, tested with the
    # recipes): the quote's diff has none of its own.
    assert not hasattr(selectors, "_count_range")
