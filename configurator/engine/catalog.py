"""The offered catalog as plain data, for lookups by slug or name and for the recommender."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType

from configurator.engine.build import NAMED_PARTS, Cpu, Gpu, MemoryModule, Nic, Platform, Psu

IDENTITY = frozenset({"slug", "name", "monthly_price"})


def _cheapest_distinct(items: tuple) -> tuple:
    """Keep, of items alike in every spec, the cheapest (first listed on a tie)."""
    best: dict[tuple, object] = {}
    for item in items:
        key = tuple(getattr(item, f.name) for f in fields(item) if f.name not in IDENTITY)
        if key not in best or item.monthly_price < best[key].monthly_price:
            best[key] = item
    kept = set(map(id, best.values()))
    return tuple(item for item in items if id(item) in kept)


def _index(items: tuple) -> Mapping[str, object]:
    """Return items by lowercase slug and by lowercase name."""
    index = {}
    for item in items:
        index[item.name.lower()] = item
    for item in items:  # a slug wins over another item's identical name
        index[item.slug] = item
    return MappingProxyType(index)


@dataclass(frozen=True)
class Catalog:
    """Every part a build can use, with its specs and monthly price: one field per kind."""

    cpus: tuple[Cpu, ...] = ()
    gpus: tuple[Gpu, ...] = ()
    memory: tuple[MemoryModule, ...] = ()
    psus: tuple[Psu, ...] = ()
    nics: tuple[Nic, ...] = ()
    platforms: tuple[Platform, ...] = ()
    _by_key: dict[str, Mapping[str, object]] = field(init=False, repr=False, compare=False)
    _derived: dict[Hashable, object] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {k: _index(getattr(self, k)) for k in KIND_KEYS})
        object.__setattr__(self, "_derived", {})

    def derived(self, key: Hashable, compute: Callable[[], object]) -> object:
        """Return what `compute` derives from this catalog alone, computed once per catalog.

        A catalog never changes (a write makes a new snapshot), so a fact of its parts (the
        DIMM populations a CPU and board hold, the PSU sets a chassis takes) is the same on
        every request; `key` names the fact and the parts it is of, which bounds the entries
        by the catalog's size.
        """
        try:
            return self._derived[key]
        except KeyError:
            value = self._derived[key] = compute()
            return value

    def cheapest_distinct(self) -> Catalog:
        """Return the catalog without items that a cheaper one matches in every spec.

        Such an item can never be part of a cheapest build, so a search over the rest finds
        the same answers; many suppliers listing one part then cost the search nothing.
        Derived once per catalog, so what the search memoises on it (`derived`) lasts as long
        as the catalog does.
        """
        return self.derived(
            "cheapest_distinct",
            lambda: Catalog(**{key: _cheapest_distinct(getattr(self, key)) for key in KIND_KEYS}),
        )

    def find(self, kind: str, key: str) -> object | None:
        """Return the item of a kind whose slug or name is `key` (case-insensitive)."""
        return self._by_key[kind].get(key.strip().lower())

    def find_named(self, build: object) -> dict[str, object | None]:
        """Return each part a build (the API's build, the page's configuration) names by slug
        (`build.NAMED_PARTS`), by field: the part, or None when not named or not found."""
        found = {}
        for part in NAMED_PARTS:
            ref = getattr(build, part.name) or None
            found[part.name] = self.find(part.key, ref) if ref else None
        return found


# The kinds of part, one per field of Catalog: the engine's side of a kind is its dataclass
# (engine/build.py) and this field; catalog/kinds.py declares the Django side under the same key.
KIND_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Catalog) if f.init)
