"""A configured build as the configurator page holds it: the permalink's fields, plain data.

The field names are the build fields of api.md ("Web pages"), so a permalink reads like an
`/api/v1/evaluate` body. No Django here: the page's form turns a query string into a
`Configuration`, and the option, pricing and fix modules work on it as plain data.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import cache

from configurator.engine.build import NAMED_PARTS, Workload
from configurator.engine.fields import declarations

# The order of the permalink's query parameters: api.md's example first, then the extras.
PERMALINK_FIELDS = (
    "cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket", "memory_gb", "memory_ecc",
    "psu_watts", "nvlink", "numa_binding", "platform", "nodes", "nics", "nic", "nvme",
    *(part.name for part in NAMED_PARTS),
)  # fmt: skip
# The fields that name a part by slug and are left out of the permalink when empty.
PART_FIELDS = ("platform", "nic", *(part.name for part in NAMED_PARTS))
# The workload's fields the page carries, as `engine.build.Workload` declares them, in its
# order: the form, the permalink and the template's inputs are made from these. The preferred
# GPU (the API's `gpu`, the page's `prefer_gpu`) is the recommender's, carried beside them.
PAGE_FIELDS = tuple(f for f in declarations(Workload) if f.spec.page)
PREFERENCE = "gpu"
WORKLOAD_FIELDS = tuple(f.name for f in PAGE_FIELDS if f.name != PREFERENCE)


def _with_named_parts(cls: type) -> type:
    """Give the class a field per part a build names by slug (`NAMED_PARTS`): "" not named."""
    for part in NAMED_PARTS:
        cls.__annotations__[part.name] = "str"
        setattr(cls, part.name, "")
    return cls


@dataclass(frozen=True, slots=True)
@_with_named_parts
class Configuration:
    """One node of a build, `nodes` alike; slugs name the parts (and a field of each of
    `NAMED_PARTS`, added by `_with_named_parts`)."""

    cpu: str
    cpu_count: int
    gpu: str
    gpu_count: int
    gpus_per_socket: tuple[int, ...]
    memory_gb: int
    memory_ecc: bool
    psu_watts: int
    nvlink: bool
    numa_binding: bool = True
    platform: str = ""  # empty: no platform chosen, the board's limits are not checked
    nodes: int = 1
    nics: int = 0
    nic: str = ""
    nvme: int = 0  # NVMe drives per node

    def changed(self, **changes: object) -> Configuration:
        return replace(self, **changes)

    @classmethod
    def from_build(cls, build) -> Configuration:
        """Return the configuration of an engine `Build`, from its fields (`Build.as_fields`);
        a permalink holds no DIMM count or NIC speed (the page derives them from the parts)."""
        values = build.as_fields()
        return cls(
            **{name: values[name] for name in cls.field_names()}
            | {name: values[name] or "" for name in PART_FIELDS}
            | {"gpus_per_socket": tuple(values["gpus_per_socket"])}
        )

    def build_input(self) -> dict[str, object]:
        """Return the build in the shape of `/api/v1/evaluate`'s `build`."""
        values = asdict(self)
        values["gpus_per_socket"] = list(self.gpus_per_socket)
        for name in PART_FIELDS:
            values[name] = getattr(self, name) or None
        return values

    def query(self) -> list[tuple[str, str]]:
        """Return the permalink's query parameters, named as the build fields."""
        params = []
        for name in PERMALINK_FIELDS:
            value = getattr(self, name)
            if name in PART_FIELDS and not value:
                continue
            if name == "nodes" and value == 1:
                continue
            if name in ("nics", "nvme") and value == 0:
                continue
            params.append((name, query_value(value)))
        return params

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return _field_names(cls)


class WorkloadChoice:
    """The workload the customer typed, as the page's form holds it: only the fields given.

    A field not typed is absent, not its default: the engine's documented default applies
    (`engine.build.Workload`) and the page says so, so a permalink, the API's workload and a
    lead carry what the customer typed and nothing else. Read a field as an attribute (`None`
    when not typed).
    """

    __slots__ = ("given",)

    def __init__(self, **values: object) -> None:
        unknown = set(values) - set(WORKLOAD_FIELDS)
        if unknown:
            raise TypeError(f"not a workload field of the page: {', '.join(sorted(unknown))}")
        given = {name: values[name] for name in WORKLOAD_FIELDS if values.get(name) is not None}
        object.__setattr__(self, "given", given)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a WorkloadChoice does not change")

    def __getattr__(self, name: str) -> object:
        if name in WORKLOAD_FIELDS:
            return self.given.get(name)
        raise AttributeError(name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WorkloadChoice) and self.given == other.given

    def __hash__(self) -> int:
        return hash(tuple(self.given.items()))

    def __repr__(self) -> str:
        return f"WorkloadChoice({', '.join(f'{k}={v!r}' for k, v in self.given.items())})"

    def workload_input(self) -> dict[str, object]:
        """Return the workload in the shape of the API's `workload`: the fields typed."""
        return dict(self.given)

    def query(self) -> list[tuple[str, str]]:
        """Return the permalink's workload parameters: the fields typed, in declared order."""
        return [(name, query_value(value)) for name, value in self.given.items()]


def query_value(value: object) -> str:
    """Write one field as the permalink does: `true`/`false`, `4+4`, `70` rather than `70.0`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "+".join(str(item) for item in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))
