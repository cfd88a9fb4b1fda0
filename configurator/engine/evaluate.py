"""Evaluate one build: run every check, score its balance, and give the verdict (api.md).

Another rule profile's verdict on the same build (`verdict_under`: "operator baseline:
reject · NVIDIA RA: accept") re-runs only what reads a parameter whose value differs between
the two profiles: an evaluation made with `record_reads` keeps, per check and for the
balance score, the names of the rule parameters it read (`RecordedReads`), and a check that
read the same values gives the same finding, since checks are pure functions of the build,
the workload and the parameters they read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

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
    # With `record_reads`: the rules it was judged by and the parameters each check (and the
    # balance score, under "balance") read — what `verdict_under` compares.
    rules: RuleParams | None = field(default=None, compare=False, repr=False)
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
        pitfalls = [f.as_pitfall_dict(translate) for f in self.failures if f.is_pitfall]
        balance = self.balance.as_dict()
        result = {
            "verdict": str(self.verdict),
            "pitfalls": pitfalls,
            "checks": [finding.as_dict(translate) for finding in self.checks],
            "balance": balance,
        }
        if monthly_price is not None:
            losses = self.monthly_losses(monthly_price)
            for pitfall in pitfalls:
                if pitfall["code"] in losses:
                    pitfall["monthly_loss"] = losses[pitfall["code"]]
            if "balance" in losses:
                result["balance_monthly_loss"] = losses["balance"]
            result["monthly_price"] = round(monthly_price, 2)
            result["currency"] = CURRENCY
        return result


class RecordedReads:
    """Rule parameters that record which of them are read (`names`), for `verdict_under`.

    It is not hashable, so a cache keyed by the parameters cannot answer for it and hide
    what the cached call read.
    """

    __slots__ = ("_rules", "names")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, rules: RuleParams) -> None:
        self._rules = rules
        self.names: set[str] = set()

    def __getattr__(self, name: str) -> object:
        self.names.add(name)
        return getattr(self._rules, name)


def evaluate(
    build: Build,
    rules: RuleParams,
    workload: Workload | None = None,
    *,
    record_reads: bool = False,
) -> Evaluation:
    """Run every check on the build; reject it when any fails or the node is unbalanced.

    With `record_reads`, the evaluation keeps the parameters each check read, so that
    `verdict_under` can judge the build by other rules re-running only what they change.
    """
    reads: dict[str, frozenset[str]] = {}
    if record_reads:
        findings = []
        for registered in REGISTRY:
            recorder = RecordedReads(rules)
            findings.append(registered.check(build, workload, recorder))  # type: ignore[arg-type]
            reads[registered.code] = frozenset(recorder.names)
        recorder = RecordedReads(rules)
        balance = build_balance(build, recorder)  # type: ignore[arg-type]
        reads[BALANCE] = frozenset(recorder.names)
        findings = tuple(findings)
    else:
        findings = tuple(check(build, workload, rules) for check in REGISTRY.checks())
        balance = build_balance(build, rules)
    rejected = not balance.balanced or any(finding.failed for finding in findings)
    failed = tuple(finding.code for finding in findings if finding.failed)
    modelled = modelled_losses(build, workload, rules, failed, balance.balanced)
    verdict = Verdict.REJECT if rejected else Verdict.ACCEPT
    if not record_reads:
        return Evaluation(findings, balance, verdict, modelled)
    return Evaluation(findings, balance, verdict, modelled, rules, reads)


BALANCE = "balance"  # the balance score's entry in `Evaluation.reads`


def verdict_under(
    evaluation: Evaluation, build: Build, workload: Workload | None, rules: RuleParams
) -> Verdict:
    """Return the verdict `rules` give the build that `evaluation` judged (made with
    `record_reads`), re-running only the checks that read a parameter `rules` sets otherwise.
    """
    judged = evaluation.rules
    if judged is None:
        raise ValueError("verdict_under needs an evaluation made with record_reads=True")

    def unchanged(code: str) -> bool:
        return all(getattr(rules, name) == getattr(judged, name) for name in evaluation.reads[code])

    if unchanged(BALANCE):
        balanced = evaluation.balance.balanced
    else:
        balanced = build_balance(build, rules).balanced
    if not balanced:
        return Verdict.REJECT
    for registered, finding in zip(REGISTRY, evaluation.checks, strict=True):
        failed = (
            finding.failed
            if unchanged(registered.code)
            else registered.check(build, workload, rules).failed
        )
        if failed:
            return Verdict.REJECT
    return Verdict.ACCEPT
