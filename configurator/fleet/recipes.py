"""The guide's scenario recipes as builds, for the fleet's delivery page and rule-impact
preview: the one recipe → build (`configurator/recipes.py`), which the configurator page and
the recommender use too."""

from configurator.recipes import RecipeBuild, recipe_builds

__all__ = ["RecipeBuild", "recipe_builds"]
