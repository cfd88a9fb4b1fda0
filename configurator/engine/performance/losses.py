"""A pitfall's cost, counted once (domain.md §6; docs/performance.md "Pitfalls cost money").

Where the model times the cause itself — P1's PCIe 3.0 links, P5's all-reduce over PCIe, P8's
CPU scheduling latency (added to each step and the first token, `cpu_latency_s`) — the figures
carry no further factor and the monthly loss is the modelled difference
(`work.modelled_losses`). An unbalanced node loses what the guide measured (`BALANCE_LOSS`):
its time is multiplied, its throughput divided, and its monthly loss is the share of the rent
that buys nothing, price · (1 − 1/factor).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from configurator.engine.registry import REGISTRY
from configurator.engine.rules import RuleParams


@dataclass(frozen=True, slots=True)
class Loss:
    """A pitfall's measured loss as a factor on the time a job takes."""

    factor: float
    measured: str
    source: str

    def monthly(self, monthly_price: float) -> float:
        """Return the share of a month's rent this loss wastes, in CNY."""
        return round(monthly_price * (1 - 1 / self.factor), 2)


BALANCED_UTILISATION = 0.886  # a node on the matching baseline [guide §1]
# An unbalanced node's loss; each check's own measured loss is registry data (its catalogue
# entry's `loss`, engine/catalogue.py), read through `LOSSES`.
BALANCE_LOSS = Loss(
    BALANCED_UTILISATION / 0.637,
    "GPU utilisation 63.7 % instead of 88.6 %",
    "domain.md §1 [guide]",
)


class RegisteredLosses(Mapping[str, Loss]):
    """Every measured loss by code: the registered checks' and, under "balance", the
    unbalanced node's. A view of the registry, so a check's loss is stated once."""

    def _losses(self) -> dict[str, Loss]:
        return {**REGISTRY.losses(), "balance": BALANCE_LOSS}

    def __getitem__(self, code: str) -> Loss:
        return self._losses()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._losses())

    def __len__(self) -> int:
        return len(self._losses())


LOSSES: Mapping[str, Loss] = RegisteredLosses()


# Pitfalls whose cause the time model itself times (domain.md §6 "A pitfall's cost is counted
# once"): P1's PCIe 3.0 links and P5's all-reduce over PCIe are in the links it times, P8's
# scheduling latency is added on the CPU side (`cpu_latency_s`). Their loss is never a factor
# on the figures; their monthly loss is the modelled difference (`modelled_losses`).
MODELLED = frozenset({"P1", "P5", "P8"})


def loss_factor(codes: tuple[str, ...], balanced: bool) -> float:
    """Return the product of the measured losses of the failed checks that have one and that
    the time model does not time itself (`MODELLED`)."""
    losses = REGISTRY.losses()
    factor = 1.0
    for code in codes:
        if code in losses and code not in MODELLED:
            factor *= losses[code].factor
    if not balanced:
        factor *= BALANCE_LOSS.factor
    return factor


def cpu_latency_s(codes: tuple[str, ...], rules: RuleParams) -> float:
    """Return the CPU-side latency a step gains from P8: the measured +54 % of the serving
    engine's scheduling time per step (`cpu_scheduling_ms`); 0 when P8 did not fail."""
    if "P8" not in codes:
        return 0.0
    return (REGISTRY.losses()["P8"].factor - 1) * rules.cpu_scheduling_ms / 1000


def monthly_losses(
    codes: tuple[str, ...],
    balanced: bool,
    monthly_price: float,
    modelled: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Return what each failed check with a measured loss costs per month, by code.

    `modelled` holds, for the pitfalls the time model times (`MODELLED`), the share of the
    work's rent the cause wastes (`modelled_losses`); such a pitfall without a modelled share
    carries the guide's measured factor only where the guide measured it, training (P1, P5),
    and none for inference (the key "" is 0.0 then); P8 has none without a modelled share.
    """
    measured = REGISTRY.losses()
    modelled = modelled if modelled is not None else {}
    losses = {}
    for code in codes:
        if code in modelled:
            losses[code] = round(monthly_price * modelled[code], 2)
        elif code in measured and code not in MODELLED:
            losses[code] = measured[code].monthly(monthly_price)
        elif code in measured and code != "P8" and modelled.get("", 1.0):
            losses[code] = measured[code].monthly(monthly_price)  # the guide's, for training
    if not balanced:
        losses["balance"] = BALANCE_LOSS.monthly(monthly_price)
    return losses
