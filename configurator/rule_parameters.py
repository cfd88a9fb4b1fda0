"""What each rule parameter means, for the people who set it: dimension, words, unit, source.

Declared with the parameter itself (`engine.rules.RuleParams`, `rule(...)`); here they are
lazy texts in the request's language, and the rules form groups its fields by `DIMENSIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from configurator.engine.rules import RuleParams

DIMENSIONS: dict[str, Promise] = {
    "cpu": _("CPU and NUMA"),
    "pcie": _("PCIe"),
    "memory": _("Memory"),
    "power": _("Power"),
    "fabric": _("Fabric (NVLink and network)"),
    "balance": _("Balance score"),
    "recommender": _("Recommender"),
    "performance": _("Time, throughput and cost of the work"),
    "delivery": _("Delivered as quoted (a probed node against its build)"),
    "other": _("Other"),
}


@dataclass(frozen=True)
class ParameterInfo:
    dimension: str
    label: Promise
    unit: Promise
    source: Promise
    section: str = ""  # where in the source, e.g. "§2"


# Each parameter's words, from its declaration (`engine.rules.rule`), rendered lazily in the
# request's language.
PARAMETERS: dict[str, ParameterInfo] = {
    name: ParameterInfo(
        info.dimension,
        gettext_lazy(info.label.msgid),
        gettext_lazy(info.unit.msgid),
        gettext_lazy(info.source.msgid),
        info.section,
    )
    for name, info in RuleParams.described().items()
}
