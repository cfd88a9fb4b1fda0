"""Evaluate one build: run every check, score its balance, and give the verdict (api.md)."""

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


def evaluate(build: Build, rules: RuleParams, workload: Workload | None = None) -> Evaluation:
    """Run every check on the build; reject it when any fails or the node is unbalanced."""
    findings = tuple(check(build, workload, rules) for check in REGISTRY.checks())
    balance = build_balance(build, rules)
    rejected = not balance.balanced or any(finding.failed for finding in findings)
    failed = tuple(finding.code for finding in findings if finding.failed)
    modelled = modelled_losses(build, workload, rules, failed, balance.balanced)
    verdict = Verdict.REJECT if rejected else Verdict.ACCEPT
    return Evaluation(findings, balance, verdict, modelled)
