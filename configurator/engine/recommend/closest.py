"""When no build meets the workload's targets or budget: the builds that come closest, what
each misses, and the target that would make it pass (docs/recommender.md, "Closest builds").

A target is a deadline, an output-tokens-per-second or a first-token target, or the monthly
budget. A build `misses` a target by a `Shortfall`: the workload's value, the build's, and
`passes_with`, the build's own figure rounded outward to two significant figures, so a
workload asking that instead is met by the build (its figures are those `/evaluate` answers
for it: `performance` on the workload as given). How close a build comes is its worst ratio
of target to figure (1: met).

The candidates are the accepted builds the search saw miss (`Search.near`, kept per GPU,
closest first) and the recommender's builds for the workload without its targets and budget
(the cheapest way to do the work on each GPU), each timed again on the workload as given.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from configurator.engine.build import Workload
from configurator.engine.findings import num
from configurator.engine.messages import Message, _, counted_days
from configurator.engine.performance import Performance, performance
from configurator.engine.recommend.results import Recommendation
from configurator.engine.rules import RuleParams


@dataclass(frozen=True, slots=True)
class Target:
    """One kind of target: the workload field that sets it, the figure it is held against,
    and whether a larger figure is better (throughput) or a smaller one (time, price)."""

    field: str
    figure: Callable[[Performance | None, float], float | None]  # (work, monthly price)
    larger_is_better: bool
    missed: Callable[[float, float, float], Message]  # (figure, target, passes with) -> text


def _days(value: float) -> Message:
    return counted_days(num(value))


TARGETS: tuple[Target, ...] = (
    Target(
        "deadline_days",
        lambda work, _price: work.time_to_train_days if work else None,
        False,
        lambda value, target, passes: _(
            "takes %(value)s against a deadline of %(target)s; meets a deadline of %(passes)s",
            value=_days(value), target=_days(target), passes=_days(passes),
        ),
    ),
    Target(
        "target_tokens_per_s",
        lambda work, _price: work.tokens_per_s if work else None,
        True,
        lambda value, target, passes: _(
            "serves %(value)s output tokens/s of the %(target)s asked; meets a target of "
            "%(passes)s",
            value=_shown(value), target=_shown(target), passes=_shown(passes),
        ),
    ),
    Target(
        "target_ttft_s",
        lambda work, _price: work.time_to_first_token_s if work else None,
        False,
        lambda value, target, passes: _(
            "first token in %(value)s s against %(target)s s; meets a first-token target of "
            "%(passes)s s",
            value=_shown(value), target=_shown(target), passes=_shown(passes),
        ),
    ),
    Target(
        "budget_monthly",
        lambda _work, price: price,
        False,
        lambda value, target, passes: _(
            "rents for CNY %(value)s a month against a budget of CNY %(target)s; fits a budget "
            "of CNY %(passes)s",
            value=_shown(value), target=_shown(target), passes=_shown(passes),
        ),
    ),
)  # fmt: skip
TARGET_FIELDS = tuple(target.field for target in TARGETS)


@dataclass(frozen=True, slots=True)
class Shortfall:
    """A target a build misses: what was asked, what the build does, what it meets."""

    field: str
    target: float
    value: float
    passes_with: float
    message: Message

    @property
    def ratio(self) -> float:
        """Return how close the build comes to the target: 1 met, towards 0 far off."""
        if self.value <= 0 or self.target <= 0:
            return 0.0
        return min(self.value / self.target, self.target / self.value)

    def as_dict(self, translate: Callable[[str], str] = str) -> dict[str, object]:
        return {
            "field": self.field,
            "target": self.target,
            "value": _rounded(self.value),
            "passes_with": self.passes_with,
            "text": translate(self.message),
        }


@dataclass(frozen=True)
class Closest:
    """A build that misses some of the workload's targets, and by how much."""

    recommendation: Recommendation
    shortfalls: tuple[Shortfall, ...]

    @property
    def closeness(self) -> float:
        return min((s.ratio for s in self.shortfalls), default=1.0)


def has_limits(workload: Workload) -> bool:
    """Return whether the workload sets a target or a budget a build can miss."""
    return any(getattr(workload, field) is not None for field in TARGET_FIELDS)


def without_limits(workload: Workload) -> Workload:
    """Return the workload with its targets and budget dropped (the work kept)."""
    return replace(workload, **dict.fromkeys(TARGET_FIELDS))


def shortfalls(workload: Workload, work: Performance | None, price: float) -> tuple[Shortfall, ...]:
    """Return the targets of the workload that these figures miss."""
    missed = []
    for target in TARGETS:
        asked = getattr(workload, target.field)
        value = target.figure(work, price)
        if asked is None or value is None:
            continue
        if (value >= asked) if target.larger_is_better else (value <= asked):
            continue
        passes = _outward(value, down=target.larger_is_better)
        text = target.missed(value, asked, passes)
        missed.append(Shortfall(target.field, asked, value, passes, text))
    return tuple(missed)


def closest_builds(
    workload: Workload,
    candidates: Iterable[Recommendation],
    rules: RuleParams,
    limit: int,
) -> tuple[Closest, ...]:
    """Return up to `limit` candidates, one per GPU, closest to the targets first (then the
    cheaper), each timed on the workload as given and with what it misses."""
    best: dict[str, Closest] = {}
    for item in candidates:
        build = item.build
        work = performance(
            build, workload, rules, item.monthly_price, item.evaluation.failed_codes,
            item.evaluation.balance.balanced,
        )  # fmt: skip
        timed = replace(item, performance=work)
        found = Closest(timed, shortfalls(workload, work, item.monthly_price))
        kept = best.get(build.gpu.slug)
        if kept is None or _order(found) < _order(kept):
            best[build.gpu.slug] = found
    return tuple(sorted(best.values(), key=_order)[:limit])


def _order(item: Closest) -> tuple[float, float]:
    return (-round(item.closeness, 6), item.recommendation.monthly_price)


def _outward(value: float, *, down: bool) -> float:
    """Return the value at two significant figures, rounded down (a throughput it serves) or
    up (a time or a price it stays within)."""
    if value <= 0:
        return value
    step = 10 ** (math.floor(math.log10(value)) - 1)
    rounded = (math.floor if down else math.ceil)(round(value / step, 9)) * step
    return _rounded(rounded)


def _rounded(value: float) -> float:
    return float(f"{value:.6g}")


def _shown(value: float) -> str:
    """Return a figure as the texts write it: 0.053, 2,400, 80,000."""
    if value >= 1000:
        return f"{value:,.0f}"
    return num(value) if value >= 0.1 else f"{value:.2g}"
