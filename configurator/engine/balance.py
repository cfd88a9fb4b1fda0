"""The balance score: CPU threads per GPU, PCIe lane headroom, memory headroom (domain.md §5).

The guide names the three scores and the threshold (below 85 a node is not rented out) but
gives no formula. This is the product's [decision]; every constant is a `RuleParams` field.

With T = `balance_score_min`, each sub-score is 0–100:

    below the baseline (have < need):   (T − 1) × have / need          always < T
    at or above it (headroom h = have / need − 1, target H):
                                        T + (100 − T) × min(1, h / H)   T at h = 0, 100 at h ≥ H

- PCIe lanes: have = lanes the CPUs provide, need = GPU links + NICs + NVMe;
  H = `pcie_headroom_target`.
- Memory: have = RAM, need = the P3 requirement (max of ratio × VRAM, the 8-GPU floor,
  the per-GPU minimum); H = `memory_headroom_target`.
- CPU threads per GPU has a band [t_min, t_max] (`threads_per_gpu_min`/`_max`):
  below t_min the below-baseline line with have/need = ratio / t_min; inside the band
  T + (100 − T) × (ratio − t_min) / (t_max − t_min); above t_max the threads are a cost
  waste, not a fault (decision §6), so the score drops by `over_provision_penalty` per
  multiple over t_max, 100 − penalty × (ratio / t_max − 1), but never below T.
  When `cores_per_gpu_min` > 0, cores per GPU below it score on the below-baseline line too,
  and the CPU sub-score is the lower of the two.

overall = min(mean of the three, lowest + `balance_margin`), so one bad dimension cannot be
averaged away; `balanced` = overall ≥ T and every sub-score ≥ T. Scores are rounded to one
decimal for display; `balanced` is decided on the unrounded values.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.engine.build import Build
from configurator.engine.memory import memory_requirement
from configurator.engine.pcie import lane_budget
from configurator.engine.rules import RuleParams

FULL_SCORE = 100.0


@dataclass(frozen=True, slots=True)
class Balance:
    """The three sub-scores, the overall score, and whether the node may be rented out."""

    cpu_threads: float
    pcie_lanes: float
    memory: float
    overall: float
    threshold: float
    balanced: bool

    def as_dict(self) -> dict[str, float | bool]:
        """Return the API's shape of the balance score."""
        return {
            "cpu_threads": self.cpu_threads,
            "pcie_lanes": self.pcie_lanes,
            "memory": self.memory,
            "overall": self.overall,
            "threshold": self.threshold,
            "balanced": self.balanced,
        }


def _clamp(score: float) -> float:
    return float(min(FULL_SCORE, max(0.0, score)))


def below_baseline_score(have: float, need: float, threshold: float) -> float:
    """Score a dimension short of its baseline: proportional to what it has, always < threshold."""
    return _clamp(max(threshold - 1, 0.0) * max(have, 0.0) / need)


def headroom_score(have: float, need: float, target: float, threshold: float) -> float:
    """Score a have-versus-need dimension: under threshold when short, 100 at the target."""
    if need <= 0:
        return FULL_SCORE
    if have < need:
        return below_baseline_score(have, need, threshold)
    headroom = have / need - 1
    filled = 1.0 if target <= 0 else min(1.0, headroom / target)
    return _clamp(threshold + (FULL_SCORE - threshold) * filled)


def threads_score(threads_per_gpu: float, rules: RuleParams) -> float:
    """Score CPU threads per GPU against the baseline band, penalising over-provision mildly."""
    low, high = rules.threads_per_gpu_min, rules.threads_per_gpu_max
    threshold = rules.balance_score_min
    if threads_per_gpu < low:
        return below_baseline_score(threads_per_gpu, low, threshold)
    if high <= low or high <= 0:
        return FULL_SCORE
    if threads_per_gpu <= high:
        return _clamp(threshold + (FULL_SCORE - threshold) * (threads_per_gpu - low) / (high - low))
    penalty = rules.over_provision_penalty * (threads_per_gpu / high - 1)
    # Over-provision wastes money but starves nothing: it never unbalances a node on its own.
    return _clamp(max(threshold, FULL_SCORE - penalty))


def cpu_score(threads_per_gpu: float, cores_per_gpu: float, rules: RuleParams) -> float:
    """Score the CPU side: threads per GPU, and cores per GPU when the profile asks for them."""
    score = threads_score(threads_per_gpu, rules)
    cores_min = rules.cores_per_gpu_min
    if cores_min > 0 and cores_per_gpu < cores_min:
        score = min(score, below_baseline_score(cores_per_gpu, cores_min, rules.balance_score_min))
    return score


def overall_score(scores: tuple[float, ...], margin: float) -> float:
    """Combine sub-scores: their mean, capped at the lowest plus the margin."""
    lowest = min(scores)
    # A mean is never below the lowest score; the max only removes float rounding (85 × 3 / 3).
    mean = max(sum(scores) / len(scores), lowest)
    return min(mean, lowest + margin)


def balance_of(
    threads_per_gpu: float,
    cores_per_gpu: float,
    lanes_available: float,
    lanes_needed: float,
    memory_gb: float,
    memory_required_gb: float,
    rules: RuleParams,
) -> Balance:
    """Return the balance score from the three dimensions' measured and needed values."""
    threshold = rules.balance_score_min
    cpu = cpu_score(threads_per_gpu, cores_per_gpu, rules)
    lanes = headroom_score(lanes_available, lanes_needed, rules.pcie_headroom_target, threshold)
    memory = headroom_score(memory_gb, memory_required_gb, rules.memory_headroom_target, threshold)
    overall = overall_score((cpu, lanes, memory), rules.balance_margin)
    return Balance(
        cpu_threads=round(cpu, 1),
        pcie_lanes=round(lanes, 1),
        memory=round(memory, 1),
        overall=round(overall, 1),
        threshold=float(threshold),
        balanced=overall >= threshold and min(cpu, lanes, memory) >= threshold,
    )


def build_balance(build: Build, rules: RuleParams) -> Balance:
    """Return the balance score of one node of the build."""
    gpus = max(build.gpu_count, 1)
    lanes = lane_budget(build, rules)
    need = memory_requirement(build.gpu_count, build.gpu.memory_gb, rules)
    return balance_of(
        threads_per_gpu=build.threads / gpus,
        cores_per_gpu=build.cores / gpus,
        lanes_available=lanes.available,
        lanes_needed=lanes.needed,
        memory_gb=build.memory_gb,
        memory_required_gb=need.required_gb,
        rules=rules,
    )
