"""The rules engine: plain Python, no Django.

Everything below this package works on frozen dataclasses (`build.py`) and the rule
parameters (`rules.py`), so the API, the recommender and the fleet audit share it as is.
"""
