"""Evaluate one build: run every check, score its balance, and give the verdict (api.md).

Another rule profile's verdict on the same build (`verdict_under`: "operator baseline:
reject · NVIDIA RA: accept") re-runs only what reads a parameter whose value differs between
the two profiles: an evaluation made with `watch` (the parameters other profiles set
otherwise, `differing`) keeps, per check and for the balance score, which of them it read
(`WatchedReads`), and a check that read none of them gives the same finding, since checks
are pure functions of the build, the workload and the parameters they read. A check re-run
for a verdict is asked only whether it fails: by its registered decision (`fails`) where it
has one, without writing the finding's texts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from operator import attrgetter

from configurator.engine.balance import Balance, build_balance
from configurator.engine.build import Build, Workload
from configurator.engine.findings import Finding
from configurator.engine.performance import CURRENCY, modelled_losses, monthly_losses
from configurator.engine.registry import REGISTRY
from configurator.engine.rules import RuleParams

# The codes in the order the checks run and are shown (the registry imports every module that
# registers checks on its first read, `registry.CHECK_MODULES`).
CHECK_CODES: tuple[str, ...] = REGISTRY.codes()


class Verdict(StrEnum):
    ACCEPT = "accept"
    REJECT = "reject"


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every check's finding, the balance score, and whether the node may be rented out."""

    checks: tuple[Finding, ...]
    balance: Balance
    verdict: Verdict
    # The share of the rent each failed pitfall the time model times wastes (P1, P5, P8:
    # `performance.modelled_losses`), counted once (domain.md §6).
    modelled: Mapping[str, float] = field(default_factory=dict)
    # The rules it was judged by; with `watch`, the parameters watched and which of them each
    # check (and the balance score, under "balance") read, a check that read none of them
    # left out — what `verdict_under` compares.
    rules: RuleParams = field(default_factory=RuleParams, compare=False, repr=False)
    watched: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    reads: Mapping[str, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def failures(self) -> tuple[Finding, ...]:
        """Return every failed check, pitfalls and dimensions alike."""
        return tuple(finding for finding in self.checks if finding.failed)

    @property
    def pitfalls(self) -> tuple[str, ...]:
        """Return the codes of the triggered pitfalls (P1–P8)."""
        return tuple(finding.code for finding in self.failures if finding.is_pitfall)

    @property
    def failed_codes(self) -> tuple[str, ...]:
        return tuple(finding.code for finding in self.failures)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        """Return the checks that warn: reported, but they do not reject the build."""
        return tuple(finding for finding in self.checks if finding.warned)

    def monthly_losses(self, monthly_price: float) -> dict[str, float]:
        """Return what each failed check with a loss, and an unbalanced node, cost a month."""
        return monthly_losses(
            self.failed_codes, self.balance.balanced, monthly_price, self.modelled
        )

    def as_dict(
        self, translate: Callable[[str], str] = str, monthly_price: float | None = None
    ) -> dict[str, object]:
        """Return api.md's evaluate response, less the `ruleset` the caller adds.

        `translate` renders each finding's detail and fix (`engine.messages`); English when
        not given. With the build's monthly price, each triggered pitfall with a measured loss
        carries `monthly_loss`, and an unbalanced node `balance_monthly_loss`: what it costs a
        month.
        """
        failures = self.failures
        pitfalls = [f.as_pitfall_dict(translate) for f in failures if f.is_pitfall]
        balance = self.balance.as_dict()
        result = {
            "verdict": str(self.verdict),
            "pitfalls": pitfalls,
            "checks": [finding.as_dict(translate) for finding in self.checks],
            "balance": balance,
        }
        if monthly_price is not None:
            failed = tuple(finding.code for finding in failures)
            losses = monthly_losses(failed, self.balance.balanced, monthly_price, self.modelled)
            for pitfall in pitfalls:
                if pitfall["code"] in losses:
                    pitfall["monthly_loss"] = losses[pitfall["code"]]
            if "balance" in losses:
                result["balance_monthly_loss"] = losses["balance"]
            result["monthly_price"] = round(monthly_price, 2)
            result["currency"] = CURRENCY
        return result


class WatchedReads:
    """Rule parameters that note which of the `watched` ones a check reads (`read`).

    The others are plain attributes, so watching costs nothing on their reads. It is not
    hashable, so a cache keyed by the parameters cannot answer for it and hide what the cached
    call read.
    """

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, rules: RuleParams, watched: frozenset[str]) -> None:
        self.__dict__.update(_unwatched(rules, watched))
        self._rules = rules
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> object:  # only for what __dict__ lacks: the watched
        self.read.add(name)
        return getattr(self._rules, name)


@lru_cache(maxsize=16)
def _unwatched(rules: RuleParams, watched: frozenset[str]) -> dict[str, object]:
    # The same for every evaluation by these rules that watches these parameters (a process
    # has a few profiles): read, never changed.
    values = zip(RuleParams.names(), _values(rules), strict=True)
    return {name: value for name, value in values if name not in watched}


def evaluate(
    build: Build,
    rules: RuleParams,
    workload: Workload | None = None,
    *,
    watch: frozenset[str] = frozenset(),
) -> Evaluation:
    """Run every check on the build; reject it when any fails or the node is unbalanced.

    With `watch` (rule parameters other profiles set otherwise: `differing`), the evaluation
    keeps which of them each check and the balance score read, so that `verdict_under` can
    judge the build by those profiles re-running only what their values change.
    """
    if watch:
        reads: dict[str, frozenset[str]] = {}
        watching = WatchedReads(rules, watch)
        read = watching.read
        findings = []
        for registered in REGISTRY:
            findings.append(registered.check(build, workload, watching))  # type: ignore[arg-type]
            if read:
                reads[registered.code] = frozenset(read)
                read.clear()
        balance = build_balance(build, watching)  # type: ignore[arg-type]
        if read:
            reads[BALANCE] = frozenset(read)
        findings = tuple(findings)
    else:
        findings = tuple(check(build, workload, rules) for check in REGISTRY.checks())
        balance = build_balance(build, rules)
    failed = tuple(finding.code for finding in findings if finding.failed)
    modelled = modelled_losses(build, workload, rules, failed, balance.balanced)
    verdict = Verdict.REJECT if failed or not balance.balanced else Verdict.ACCEPT
    if not watch:
        return Evaluation(findings, balance, verdict, modelled, rules)
    return Evaluation(findings, balance, verdict, modelled, rules, watch, reads)


BALANCE = "balance"  # the balance score's entry in `Evaluation.reads`


def _values(rules: RuleParams) -> tuple[object, ...]:
    """Return every parameter's value, in the order of `RuleParams.names()`."""
    return attrgetter(*RuleParams.names())(rules)


def differing(rules: RuleParams, others: Iterable[RuleParams]) -> frozenset[str]:
    """Return the names of the parameters any of `others` sets otherwise than `rules`."""
    names, values = RuleParams.names(), _values(rules)
    return frozenset(
        name
        for other in others
        for name, mine, theirs in zip(names, values, _values(other), strict=True)
        if mine != theirs
    )


def verdict_under(
    evaluation: Evaluation,
    build: Build,
    workload: Workload | None,
    rules: RuleParams,
    changed: frozenset[str] | None = None,
) -> Verdict:
    """Return the verdict `rules` give the build that `evaluation` judged, re-running only the
    checks that read a parameter `rules` sets otherwise (all of them when the evaluation did
    not watch every parameter `rules` changes).

    `changed`, when the caller knows them (a rules snapshot derives them once per profile:
    `selectors.RulesSnapshot.differences`), are `differing(evaluation.rules, (rules,))`.
    """
    if changed is None:
        changed = differing(evaluation.rules, (rules,))
    if not changed:
        return evaluation.verdict
    if not changed <= evaluation.watched:
        return evaluate(build, rules, workload).verdict
    reads = evaluation.reads
    again = [code for code, read in reads.items() if read & changed]
    # What no changed parameter reaches is judged as before: a failure there rejects the
    # build without re-running anything.
    if BALANCE not in again and not evaluation.balance.balanced:
        return Verdict.REJECT
    if any(finding.failed and finding.code not in again for finding in evaluation.checks):
        return Verdict.REJECT
    if BALANCE in again and not build_balance(build, rules).balanced:
        return Verdict.REJECT
    for code in again:
        if code != BALANCE and REGISTRY.get(code).failed(build, workload, rules):
            return Verdict.REJECT
    return Verdict.ACCEPT
