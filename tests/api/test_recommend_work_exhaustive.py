"""The work ranking's pruned search against a plain exhaustive evaluation, on the seed catalog.

The workloads are docs/recommender.md's table (bench/recommend_table.py), each given an
amount of work where it states none (`with_work`: a run of tokens to train on, or its batch as
concurrent users), so builds rank by the cost of the work. Every bound the search prunes by
is meant to be a lower bound; a bound that is not drops a build the exhaustive evaluation
finds, and the top builds differ.
"""

import pytest

from bench.recommend_table import WORKLOADS, with_work
from configurator import selectors
from configurator.engine.recommend import rank_key, recommend
from configurator.inputs import workload_from_input
from configurator.schemas import WorkloadIn
from tests.engine.test_recommend_work import RULES, _exhaustive_work

pytestmark = pytest.mark.django_db
LIMIT = 5


@pytest.mark.parametrize("label", list(WORKLOADS))
def test_the_work_ranking_picks_what_evaluating_every_build_picks(label):
    workload = workload_from_input(WorkloadIn.model_validate(with_work(WORKLOADS[label])))
    assert workload.has_work
    catalog = selectors.snapshots()[0].offered
    found = recommend(workload, catalog, RULES, limit=LIMIT)
    exhaustive = sorted(_exhaustive_work(workload, catalog.cheapest_distinct()).values())
    assert [rank_key(item)[:2] for item in found.builds] == exhaustive[:LIMIT]
