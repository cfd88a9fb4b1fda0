"""The offered catalog as plain data, for lookups by slug or name and for the recommender."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from configurator.engine.build import Cpu, Gpu, MemoryModule, Nic, Platform, Psu


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
    """Every part a build can use, with its specs and monthly price."""

    cpus: tuple[Cpu, ...] = ()
    gpus: tuple[Gpu, ...] = ()
    memory: tuple[MemoryModule, ...] = ()
    psus: tuple[Psu, ...] = ()
    nics: tuple[Nic, ...] = ()
    platforms: tuple[Platform, ...] = ()
    _by_key: dict[str, Mapping[str, object]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds = ("cpus", "gpus", "memory", "psus", "nics", "platforms")
        object.__setattr__(self, "_by_key", {k: _index(getattr(self, k)) for k in kinds})

    def find(self, kind: str, key: str) -> object | None:
        """Return the item of a kind whose slug or name is `key` (case-insensitive)."""
        return self._by_key[kind].get(key.strip().lower())
