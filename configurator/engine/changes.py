"""A fix as a build change: which fields of a build take which values, and the text saying so.

A check that knows what clears it attaches a `Change` to its finding (`findings.failed`,
`findings.warned`) and writes its fix from that change's values, so the advice and the change
cannot disagree; the API answers the change as `fix_change`. The configurator applies a change
as it is (`web/fixes.py`); where the platform needs a second change for it (a platform that
takes the parts, a PSU set its bays hold), that second change is the change's `needs`, and
`message` names it too. Field names are api.md's build fields; a part is named by its slug, and
the text says its name. No Django here: the texts are `engine.messages` message ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

from configurator.engine.messages import Message, _, join, ngettext
from configurator.engine.pcie import split_label

# The build fields a change may set, in the order a text names them.
FIELDS = (
    "platform", "cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket", "nodes",
    "memory_gb", "memory_ecc", "psu_watts", "nvlink", "numa_binding", "nics", "nic",
)  # fmt: skip
PART_FIELDS = frozenset({"platform", "cpu", "gpu", "nic"})


@dataclass(frozen=True, slots=True)
class Part:
    """A catalog part a change puts in: the slug a build names, the name a text says."""

    slug: str
    name: str


Value = int | bool | tuple[int, ...] | Part


@dataclass(frozen=True, slots=True)
class Change:
    """Build fields and the values they take; `needs`: the second change that makes it fit."""

    values: tuple[tuple[str, Value], ...]
    needs: tuple[tuple[str, Value], ...] = ()

    def __post_init__(self) -> None:
        names = [name for name, _ in (*self.values, *self.needs)]
        if not self.values:
            raise ValueError("a change sets at least one field")
        unknown = set(names) - set(FIELDS)
        if unknown or len(names) != len(set(names)):
            raise ValueError(f"a change sets known fields once each, not {names}")

    @classmethod
    def of(cls, **values: Value) -> Change:
        """Return the change that sets these fields, in the order given."""
        return cls(tuple((name, _normal(value)) for name, value in values.items()))

    def __getitem__(self, name: str) -> Value:
        return self.fields()[name]

    def fields(self) -> dict[str, Value]:
        """Return every field the change sets, its `needs` included."""
        return dict((*self.values, *self.needs))

    def build_values(self) -> dict[str, object]:
        """Return the fields as a build holds them: a part by its slug, a split as a tuple."""
        return {
            name: value.slug if isinstance(value, Part) else value
            for name, value in self.fields().items()
        }

    def as_dict(self) -> dict[str, object]:
        """Return the fields as JSON-ready data, api.md's names: `{"gpus_per_socket": [4, 4]}`."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in self.build_values().items()
        }

    def message(self) -> Message:
        """Return what the change does, one message per field; its `needs` said as such."""
        text = join(field_message(name, value) for name, value in self.values)
        if not self.needs:
            return text
        needs = reduce(
            # Translators: one item of a list after another (Chinese: 、).
            lambda first, then: _("%(first)s, %(then)s", first=first, then=then),
            (field_message(name, value) for name, value in self.needs),
        )
        return _("%(change)s; for it to fit, also %(needs)s", change=text, needs=needs)


def _normal(value: object) -> Value:
    if isinstance(value, list):
        return tuple(value)
    return value  # type: ignore[return-value]


def field_message(name: str, value: Value) -> Message:
    """Return the text of one field taking one value: `split the GPUs … 4 + 4`."""
    if isinstance(value, Part):
        return _part_message(name, value)
    if isinstance(value, bool):
        return _switch_message(name, value)
    if name == "gpus_per_socket":
        return _("split the GPUs over the sockets: %(split)s", split=split_label(value))
    # Literal ids in each call, so that makemessages collects them.
    if name == "cpu_count":
        return ngettext("use %(n)s CPU socket", "use %(n)s CPU sockets", value)
    if name == "gpu_count":
        return ngettext("put %(n)s GPU in each node", "put %(n)s GPUs in each node", value)
    if name == "nodes":
        return ngettext("run the build on %(n)s node", "spread the build over %(n)s nodes", value)
    if name == "nics":
        return ngettext("fit %(n)s NIC per node", "fit %(n)s NICs per node", value)
    if name == "memory_gb":
        return _("fit %(gb)s GB of system memory", gb=value)
    if name == "psu_watts":
        return _("fit PSUs giving %(w)s W usable after redundancy", w=value)
    raise ValueError(f"no text for {name} = {value!r}")


def _part_message(name: str, part: Part) -> Message:
    if name == "platform":
        if not part.slug:
            return _("choose no platform")
        return _("move to the %(platform)s platform", platform=part.name)
    if name == "cpu":
        return _("replace the CPUs with %(cpu)s", cpu=part.name)
    if name == "gpu":
        return _("replace the GPUs with %(gpu)s", gpu=part.name)
    if not part.slug:
        return _("use the default network card (x16, 25 W)")
    return _("use %(nic)s network cards", nic=part.name)


def _switch_message(name: str, on: bool) -> Message:
    if name == "memory_ecc":
        return _("use server ECC memory (RDIMMs)") if on else _("use memory without ECC")
    if name == "nvlink":
        return _("fit NVLink (bridges or the board's NVSwitch)") if on else _("leave NVLink out")
    if name == "numa_binding" and on:
        return _("ship the automatic core/NUMA binding script (numactl/taskset per GPU)")
    if name == "numa_binding":
        return _("ship no NUMA binding script")
    raise ValueError(f"no text for {name} = {on!r}")
