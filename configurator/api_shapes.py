"""The API's answers: the one module that writes the services' domain objects as api.md's JSON.

`/evaluate`, `/recommend`, `/sizing`, `/rules` and a quote's frozen evaluation are written
here, from the engine's dataclasses (`Evaluation`, `Recommendation`, `Sizing`, `Performance`); the
services return those objects and the pages read their attributes. Texts are messages
(`engine.messages`) rendered in the request's language; `tests/api/test_golden_answers.py`
holds every byte of these answers.
"""

from collections.abc import Callable
from functools import cache

from django.utils import translation

from configurator.engine.evaluate import Evaluation
from configurator.engine.recommend import Recommendation
from configurator.engine.registry import REGISTRY
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import SIZING_UNIT, card_gb
from configurator.models import RuleSetVersion
from configurator.schemas import RecommendedBuildOut
from configurator.services import Evaluated, Recommended, Sized
from configurator.translation import check_title, localize, speaks_english

# The build fields of a recommendation, as /evaluate takes them back (api.md): the schema's
# (`RecommendedBuildOut`), each one of `Build.as_fields`. A recommended build has no NVMe
# drives and its NIC is a catalog part, so it names neither `nvme` nor `nic_speed_gbps`.
RECOMMENDED_BUILD_FIELDS = tuple(name for name in RecommendedBuildOut.model_fields if name != "bom")


def translator() -> Callable[[str], str]:
    """Return how the engine's texts are written: as the engine writes them, or translated.

    Findings, the recommender's why and reason, and the assumptions of sizing and of the
    performance model are messages (`engine.messages`), rendered in the request's language.
    """
    return str if speaks_english() else localize


# api.md v1 answered each check's title in Chinese as `title_zh`. A documented field is never
# dropped, so it stays, filled from that language's catalogue like every other text; the
# request's language has `title_translated`, and `title_message` is the language-neutral id.
TITLE_ZH_LANGUAGE = "zh-hans"


@cache
def _titles_zh() -> dict[tuple[str, bool], str]:
    # A title is fixed per code and outcome (a pass says what passed), and a process loads
    # its catalogues once (as Django does): rendered once, not per answer (an evaluation has
    # sixteen checks, /recommend many).
    with translation.override(TITLE_ZH_LANGUAGE):
        return {
            (item.code, passed): check_title(item.code, status="pass" if passed else "")
            for item in REGISTRY
            for passed in (True, False)
        }


def evaluation_json(
    evaluation: Evaluation, translate: Callable[[str], str], price: float | None
) -> dict[str, object]:
    """Return an evaluation in the API's shape, its texts rendered by `translate`."""
    result = evaluation.as_dict(translate, price)
    titles = _titles_zh()
    for check in result["checks"]:
        key = (check["code"], check["status"] == "pass")
        check["title_zh"] = titles.get(key, check["title"])
    return result


def evaluated_json(evaluated: Evaluated) -> dict[str, object]:
    """Return `/evaluate`'s answer: the evaluation, its price, rule version and work."""
    translate = translator()
    result = evaluation_json(evaluated.evaluation, translate, evaluated.monthly_price)
    result["ruleset"] = evaluated.ruleset.as_dict()
    if evaluated.performance is not None:
        result["performance"] = evaluated.performance.as_dict(translate)
    result["references"] = [reference.as_dict() for reference in evaluated.references]
    return result


def recommended_json(recommended: Recommended) -> dict[str, object]:
    """Return `/recommend`'s answer: the builds, why there are none, the rule version."""
    ruleset = recommended.ruleset.as_dict()
    reason = recommended.found.reason
    translate = translator()
    return {
        "builds": [recommendation_json(item, ruleset) for item in recommended.found.builds],
        "reason": translate(reason) if reason is not None else None,
        "ruleset": ruleset,
        # Without builds, the closest ones: what each misses and the target it meets.
        "closest": [
            {
                **recommendation_json(item.recommendation, ruleset),
                "misses": [missed.as_dict(translate) for missed in item.shortfalls],
            }
            for item in recommended.found.closest
        ],
    }


def recommendation_json(item: Recommendation, ruleset: dict[str, object]) -> dict[str, object]:
    """Return a recommendation in the API's shape: its build posts back to /evaluate as is."""
    translate = translator()
    evaluation = evaluation_json(item.evaluation, translate, item.monthly_price)
    evaluation["ruleset"] = ruleset
    fields = item.build.as_fields()
    build: dict[str, object] = {name: fields[name] for name in RECOMMENDED_BUILD_FIELDS}
    build["bom"] = [
        {
            "kind": line.kind,
            "slug": line.slug,
            "name": line.name,
            "qty": line.qty,
            "unit_price": line.monthly_price,
            "monthly_price": round(line.qty * line.monthly_price, 2),
        }
        for line in item.bom
    ]
    return {
        "build": build,
        "evaluation": evaluation,
        "monthly_price": item.monthly_price,
        "currency": "CNY",
        "why": translate(item.why),
        "scenario": item.scenario,
        "psu_redundancy": item.psu_scheme,
        "replicas": (
            {
                "gpus": item.replicas.size,
                "count": item.replicas.count,
                "sequences_each": item.replicas.batch,
                "nodes_each": item.replicas.nodes_per_replica,
            }
            if item.replicas
            else None
        ),
        "performance": item.performance.as_dict(translate) if item.performance else None,
    }


def sized_json(sized: Sized) -> dict[str, object]:
    """Return `/sizing`'s answer: the need, its breakdown and assumptions; with a GPU, how
    many of it hold the need, in the maker's unit and in GB, and what they do."""
    translate = translator()
    sizing = sized.sizing
    result: dict[str, object] = {
        "total_gb": round(sizing.total_gb, 2),
        "per_gpu_gb": None if sizing.per_gpu_gb is None else round(sizing.per_gpu_gb, 2),
        "gpu_count": sizing.gpu_count,
        "breakdown": {key: round(value, 2) for key, value in sizing.breakdown.items()},
        "assumptions": [translate(note) for note in sizing.assumptions],
        "unit": translate(SIZING_UNIT),
    }
    gpu = sized.gpu
    if gpu is not None:
        result["gpu"] = gpu.slug
        result["gpus_needed"] = sized.gpus_needed
        result["gpu_memory_gib"] = gpu.memory_gb
        result["card_gb"] = round(card_gb(gpu.memory_gb), 2)
        result["usable_fraction"] = sized.usable_fraction
        result["usable_gb"] = round(sized.usable_gb, 2)
        if sized.performance is not None:
            work = sized.performance.as_dict(translate)
            work["assumptions"].append(translate(sized.rent_note))
            result["performance"] = work
    return result


def version_changes_json(version: RuleSetVersion) -> dict[str, object]:
    """Return what one published version changed, by whom and when."""
    return {
        "version": version.version,
        "changes": version.changes,
        "note": version.note,
        "published_at": version.created_at.isoformat(),
        "published_by": version.created_by.get_username() if version.created_by else None,
    }


def rules_json(version: RuleSetVersion) -> dict[str, object]:
    """Return a rule version as `/rules` answers it: its parameters, when and by whom."""
    return {
        "version": version.version,
        "profile": version.profile.slug,
        "parameters": RuleParams.from_mapping(version.parameters).as_dict(),
        "published_at": version.created_at.isoformat(),
        "published_by": version.created_by.get_username() if version.created_by else None,
    }
