"""One recipe → build: S1–S3 are the same Build with the same verdict on the configurator page,
in the fleet's recipe list, in the delivery script's build, in the rule-impact preview, in the
recommender's scenario build and in the quote's recipe diff (configurator/recipes.py).

S2 was built by the fleet with the recipe's literal 512 GB (P3 rejects it for 8 × A800) while
the page opened it with 768 GB; both surfaces now take the page's memory.
"""

import json
from dataclasses import replace
from decimal import Decimal

import pytest
from django.http import QueryDict

from configurator import selectors
from configurator.engine.evaluate import evaluate
from configurator.engine.recommend.recipes import recipe_gpus
from configurator.fleet import selectors as fleet_selectors
from configurator.fleet.impact import rule_change_impact
from configurator.fleet.recipes import recipe_builds
from configurator.inputs import build_from_input
from configurator.quotes import selectors as quote_selectors
from configurator.quotes import services as quote_services
from configurator.schemas import BuildIn
from configurator.web import services as web_services

pytestmark = pytest.mark.django_db
CODES = ("S1", "S2", "S3")
# A workload each recipe is for, that needs the recipe's GPUs per node.
WORKLOADS = {
    "S1": {"model_params_b": 7, "mode": "finetune", "batch_size": 8, "gpu": "l20", "gpu_count": 4},
    "S2": {"model_params_b": 13, "mode": "train", "batch_size": 64, "gpu": "a800-80g-pcie",
           "gpu_count": 8},
    "S3": {"model_params_b": 100, "mode": "train", "batch_size": 64, "gpu": "h100-80g-sxm"},
}  # fmt: skip


def params():
    _, rules = selectors.snapshots()
    return rules.current[rules.default].params


def fleet_recipe(code: str):
    """The fleet's build of a recipe with its first GPU model (the one the page opens)."""
    catalog, rules = selectors.snapshots()
    scenario = next(s for s in rules.scenarios if s.code == code)
    first = recipe_gpus(scenario, catalog.everything)[0]
    return next(r for r in recipe_builds() if r.code == code and r.build.gpu == first)


def page_build(code: str):
    config = web_services.configuration_from_recipe(code)
    catalog = selectors.snapshots()[0]
    return config, build_from_input(web_services._build_in(config), catalog.everything)


@pytest.mark.parametrize("code", CODES)
def test_the_page_the_fleet_and_the_delivery_script_build_a_recipe_alike(code):
    config, on_page = page_build(code)
    recipe = fleet_recipe(code)
    assert on_page == recipe.build
    listed = next(
        item for item in fleet_selectors.recipe_list() if item["recipe"].label == recipe.label
    )
    assert fleet_selectors.build_from_query(QueryDict(listed["query"])) == recipe.build
    assessed = web_services.configuration_assess(config=config, workload=None)
    assert assessed.evaluation.verdict == evaluate(recipe.build, params()).verdict == "accept"


def test_s2_has_the_pages_memory_everywhere():
    _, on_page = page_build("S2")
    assert on_page.memory_gb == fleet_recipe("S2").build.memory_gb == 768


def test_the_rule_impact_preview_judges_the_recipes_the_page_opens():
    # 1.6 × the GPUs' memory: S2's 768 GB (8 × 80 GB × 1.2) falls short, so S2 changes —
    # from accepted, as the page shows it (the literal 512 GB was rejected before any change).
    proposed = replace(params(), memory_vram_ratio_min=1.6)
    impact = rule_change_impact(current=params(), proposed=proposed)
    assert impact.checked["recipe"] == len(recipe_builds())
    s2 = next(c for c in impact.changes if c.kind == "recipe" and c.label.startswith("S2"))
    assert (s2.verdict_before, s2.verdict_after) == ("accept", "reject")


@pytest.mark.parametrize("code", CODES)
def test_the_recommenders_scenario_build_is_the_recipes_node(client, code):
    recipe = fleet_recipe(code).build
    body = {"workload": WORKLOADS[code], "limit": 10}
    answer = client.post("/api/v1/recommend", json.dumps(body), content_type="application/json")
    (paired,) = [item for item in answer.json()["builds"] if item["scenario"] == code]
    assert paired["evaluation"]["verdict"] == "accept"
    fields = {k: v for k, v in paired["build"].items() if k not in ("bom", "dimm_count")}
    built = build_from_input(BuildIn(**fields), selectors.snapshots()[0].everything)
    if built.nodes == 1:  # the recipe's own build
        assert built == recipe
    else:  # S3's 100B training needs three such nodes and their fabric: the node is the recipe's
        node = replace(
            built, nodes=1, nics=0, nic=None, nic_lanes=16, nic_tdp_w=25, nic_speed_gbps=0
        )
        assert replace(node, psu_watts=recipe.psu_watts) == recipe


@pytest.mark.parametrize("code", CODES)
def test_a_quote_of_the_recipe_build_matches_its_recipe(code, presales):
    recipe = fleet_recipe(code)
    quote = quote_services.quote_create(
        owner=presales,
        customer=quote_services.Customer(name="Recipe Co", email="r@example.com"),
        build=recipe.fields,
        workload=None,
        term_months=12,
        discount_pct=Decimal("0"),
    )
    rows = {row["recipe"].code: row for row in quote_selectors.recipe_baseline_diff(quote)}
    assert rows[code]["differences"] == []
    assert quote.evaluation["verdict"] == "accept"
