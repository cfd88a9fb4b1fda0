"""Reads: catalog rows and rule versions turned into the engine's plain dataclasses.

Evaluations and recommendations read the whole offered catalog and the current rule versions
on every request. Both change rarely, so each process keeps a snapshot of them, keyed by the
revision tokens that every write renews (`configurator.revisions`): one small query a request
tells whether the snapshot still holds.
"""

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache

from django.core.serializers.json import DjangoJSONEncoder

from catalog.kinds import KINDS, Kind
from catalog.selectors import catalog_items
from configurator.engine.build import Mode
from configurator.engine.catalog import Catalog
from configurator.engine.evaluate import differing
from configurator.engine.messages import Written
from configurator.engine.recommend import Scenario
from configurator.engine.rules import RuleParams
from configurator.models import RuleProfile, RuleSetVersion
from configurator.models import Scenario as ScenarioRow
from configurator.revisions import CATALOG, RULES, revision_tokens


@dataclass(frozen=True)
class CatalogSnapshot:
    everything: Catalog  # evaluations and audits name any item, offered or not
    offered: Catalog  # the recommender builds only from what is offered


@lru_cache(maxsize=4)
def _catalog_at(token: str) -> CatalogSnapshot:
    everything, offered = {}, {}
    for kind in KINDS:
        rows = kind.model.objects.order_by("monthly_price", "slug")
        items = [
            (row.offered, kind.engine_part(row)) for row in rows.prefetch_related(*kind.relations)
        ]
        everything[kind.key] = tuple(item for _, item in items)
        offered[kind.key] = tuple(item for is_offered, item in items if is_offered)
    return CatalogSnapshot(Catalog(**everything), Catalog(**offered))


@dataclass(frozen=True)
class RuleVersionRef:
    profile: str
    version: int
    params: RuleParams
    name: str = ""  # the profile's name, as the admin lists it

    def as_dict(self) -> dict[str, object]:
        return {"version": self.version, "profile": self.profile}


@dataclass(frozen=True)
class RulesSnapshot:
    default: str
    current: dict[str, RuleVersionRef]  # profile slug -> its latest version
    scenarios: tuple[Scenario, ...] = ()

    @cached_property
    def differences(self) -> dict[str, dict[str, frozenset[str]]]:
        """Return, for each profile, the parameters each other profile sets otherwise
        (`engine.evaluate.differing`): a fact of these versions alone, derived once."""
        return {
            slug: {
                other: differing(version.params, (theirs.params,))
                for other, theirs in self.current.items()
                if other != slug
            }
            for slug, version in self.current.items()
        }


def gpu_count_range(text: str) -> tuple[int, int]:
    """Return a recipe's GPUs per node as (least, most): "2–4" → (2, 4), "8" → (8, 8).

    Blank or unreadable text gives (0, 0): any count.
    """
    bounds = [int(part) for part in re.findall(r"\d+", text or "")][:2]
    if not bounds:
        return 0, 0
    return min(bounds), max(bounds)


def scenario_spec(row: ScenarioRow) -> Scenario:
    """Return the engine's view of a scenario recipe (its `gpus` prefetched)."""
    modes = {Mode.TRAIN: row.for_train, Mode.FINETUNE: row.for_finetune, Mode.INFER: row.for_infer}
    gpus_min, gpus_max = gpu_count_range(row.gpu_count)
    return Scenario(
        code=row.code,
        name=Written(row.name),
        modes=frozenset(mode for mode, on in modes.items() if on),
        params_min_b=row.params_min_b,
        params_max_b=row.params_max_b,
        gpu_slugs=tuple(sorted(gpu.slug for gpu in row.gpus.all())),
        cpu_slug=row.cpu.slug,
        platform_slug=row.platform.slug if row.platform else None,
        memory_gb=row.memory_gb,
        result=Written(row.result),
        gpus_min=gpus_min,
        gpus_max=gpus_max,
    )


@lru_cache(maxsize=4)
def _rules_at(token: str, catalog_token: str) -> RulesSnapshot:
    # Scenarios name catalog parts, so a catalog change renews this snapshot too.
    current: dict[str, RuleVersionRef] = {}
    default = ""
    for version in RuleSetVersion.objects.select_related("profile").order_by("version"):
        current[version.profile.slug] = RuleVersionRef(
            version.profile.slug,
            version.version,
            RuleParams.from_mapping(version.parameters),
            version.profile.name,
        )
        if version.profile.is_default:
            default = version.profile.slug
    rows = ScenarioRow.objects.filter(active=True).select_related("cpu", "platform")
    scenarios = tuple(scenario_spec(row) for row in rows.prefetch_related("gpus"))
    return RulesSnapshot(default, current, scenarios)


Snapshots = tuple[CatalogSnapshot, RulesSnapshot]


def snapshots(tokens: dict[str, str] | None = None) -> Snapshots:
    """Return the current catalog and rules, from the process cache while they are unchanged;
    `tokens`, when the request has read the revision tokens already (`revision_tokens`)."""
    tokens = tokens if tokens is not None else revision_tokens()
    catalog_token = tokens.get(CATALOG, "")
    return _catalog_at(catalog_token), _rules_at(tokens.get(RULES, ""), catalog_token)


@lru_cache(maxsize=4)
def _catalog_listing_at(token: str) -> bytes:
    listing = {
        kind.key: [catalog_entry(kind, item) for item in catalog_items(kind, offered_only=False)]
        for kind in KINDS
    }
    return json.dumps(listing, cls=DjangoJSONEncoder).encode()


def catalog_listing_json() -> bytes:
    """Return GET /api/v1/catalog's body, from the process cache while the catalog is unchanged."""
    return _catalog_listing_at(revision_tokens().get(CATALOG, ""))


def catalog_entry(kind: Kind, item) -> dict[str, object]:
    """Return one catalog item as the API lists it."""
    entry: dict[str, object] = {
        "slug": item.slug,
        "name": item.name,
        "vendor": item.vendor,
        "source_url": item.source_url,
        "monthly_price": float(item.monthly_price),
        "currency": "CNY",
        "price_is_placeholder": item.price_is_placeholder,
        "offered": item.offered,
    }
    for name in kind.specs:
        value = getattr(item, name)
        entry[name] = float(value) if isinstance(value, Decimal) else value
    for relation in kind.relations:  # prefetched by catalog_items
        entry[relation] = [related.slug for related in getattr(item, relation).all()]
    return entry


def rule_version_current(profile_slug: str | None = None) -> RuleSetVersion:
    """Return the latest version of a profile (the default profile when none is named).

    Raises RuleProfile.DoesNotExist for an unknown profile.
    """
    profiles = RuleProfile.objects.all()
    profile = profiles.get(slug=profile_slug) if profile_slug else profiles.get(is_default=True)
    return profile.versions.select_related("profile").latest()
