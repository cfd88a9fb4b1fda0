"""Audit a fleet sheet: every node through the engine, identical builds evaluated once.

A sheet of thousands of nodes holds a few dozen distinct builds. Each chunk's rows are keyed
by their build cells (node_id and row number left out); a key seen before reuses its result,
so the engine runs once per distinct build however many nodes share it.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from django.utils.translation import gettext as _

from configurator.engine.catalog import Catalog
from configurator.engine.evaluate import evaluate
from configurator.engine.rules import RuleParams
from configurator.fleet.rows import RowErrors, row_build

# Mean effective GPU utilisation of nodes whose CPU side does not match their GPUs, and after
# the matching baseline (domain.md §1, the guide's 320 measured nodes).
UTILISATION_MISMATCHED = 0.637
UTILISATION_BALANCED = 0.886
ERROR = "error"
KEY_SEPARATOR = "\x1f"
NODE_ID_MAX = 200  # AuditedNode.node_id


@dataclass(frozen=True)
class NodeResult:
    """The audit of one build (or one unreadable row): api.md's per-node object, less node_id."""

    verdict: str  # accept, reject or error
    codes: tuple[str, ...] = ()  # every failed check (pitfalls and dimensions)
    balance: dict[str, object] | None = None
    errors: dict[str, list[str]] | None = None
    build: dict[str, object] | None = None  # evaluate's build shape, resolved
    fragment: str = field(default="", compare=False)  # its JSON members, for fast output

    @classmethod
    def make(cls, **values) -> NodeResult:
        result = cls(**values)
        members = {
            "verdict": result.verdict,
            "codes": list(result.codes),
            "balance": result.balance,  # null for an unreadable row
        }
        if result.errors is not None:
            members["errors"] = result.errors
        object.__setattr__(result, "fragment", json.dumps(members, ensure_ascii=False)[1:-1])
        return result

    @property
    def gpu_count(self) -> int:
        return int(self.build["gpu_count"]) if self.build else 0

    def as_dict(self, node_id: str, row: int) -> dict[str, object]:
        """Return api.md's object for one node, with its sheet row."""
        return json.loads(f'{{"node_id": {json.dumps(node_id)}, "row": {row}, {self.fragment}}}')


@dataclass
class Summary:
    """The fleet's figures: verdicts, unbalanced share, pitfall frequency, utilisation loss."""

    nodes: int = 0
    accepted: int = 0
    rejected: int = 0
    errors: int = 0
    unbalanced: int = 0
    gpus_accepted: int = 0
    gpus_rejected: int = 0
    balance_sum: float = 0.0
    codes: Counter = field(default_factory=Counter)
    distinct_builds: int = 0

    def add(self, result: NodeResult, count: int) -> None:
        self.nodes += count
        if result.verdict == ERROR:
            self.errors += count
            return
        if result.verdict == "accept":
            self.accepted += count
            self.gpus_accepted += result.gpu_count * count
        else:
            self.rejected += count
            self.gpus_rejected += result.gpu_count * count
        if not result.balance["balanced"]:
            self.unbalanced += count
        self.balance_sum += float(result.balance["overall"]) * count
        for code in result.codes:
            self.codes[code] += count

    def as_dict(self) -> dict[str, object]:
        """Return the summary as plain data (shares 0–1, utilisation by the guide's figures).

        A rejected node is taken to run at the guide's 63.7 % instead of 88.6 %: the GPUs lost
        are its GPUs times the difference.
        """
        evaluated = self.accepted + self.rejected
        gpus = self.gpus_accepted + self.gpus_rejected
        gap = UTILISATION_BALANCED - UTILISATION_MISMATCHED
        working = (
            self.gpus_accepted * UTILISATION_BALANCED + self.gpus_rejected * UTILISATION_MISMATCHED
        )
        expected = working / gpus if gpus else None
        return {
            "nodes": self.nodes,
            "accepted": self.accepted,
            "rejected": self.rejected,
            "errors": self.errors,
            "distinct_builds": self.distinct_builds,
            "unbalanced": self.unbalanced,
            "share_unbalanced": self.unbalanced / evaluated if evaluated else 0.0,
            "share_rejected": self.rejected / evaluated if evaluated else 0.0,
            "average_balance": round(self.balance_sum / evaluated, 1) if evaluated else None,
            "codes": dict(self.codes.most_common()),
            "gpus": gpus,
            "gpus_rejected": self.gpus_rejected,
            "utilisation_expected": expected,
            "utilisation_if_fixed": UTILISATION_BALANCED if gpus else None,
            "gpus_lost": round(self.gpus_rejected * gap, 1),
        }


@dataclass
class AuditedChunk:
    """One chunk's nodes: their ids and rows, and for each the index of its result."""

    node_ids: pd.Series
    rows: pd.Series
    result_index: np.ndarray


class FleetAuditor:
    """Audit chunks of sheet cells against one catalog and one rule version."""

    def __init__(
        self, catalog: Catalog, rules: RuleParams, fields: tuple[str, ...], version=None
    ) -> None:
        self.version = version  # the rule version the rules come from, for the record
        self.catalog = catalog
        self.rules = rules
        self.fields = tuple(name for name in fields if name != "node_id")
        self.results: list[NodeResult] = []
        self.summary = Summary()
        self._by_key: dict[str, int] = {}  # the cells of a build -> its result's index
        self._by_build: dict[str, NodeResult] = {}  # a resolved build -> its result
        self._first_row: dict[str, int] = {}

    def result_for(self, cells: dict[str, str]) -> NodeResult:
        """Evaluate one build's cells; a build already met under another spelling is reused.

        Cells that differ only in how they name a part ("xeon-gold-6530" or "Intel Xeon Gold
        6530", "yes" or "true") resolve to the same build, evaluated once.
        """
        try:
            built, fields = row_build(cells, self.catalog)
        except RowErrors as error:
            return NodeResult.make(verdict=ERROR, errors=error.errors)
        resolved = json.dumps(fields, sort_keys=True)
        if resolved in self._by_build:
            return self._by_build[resolved]
        evaluation = evaluate(built, self.rules)
        result = self._by_build[resolved] = NodeResult.make(
            verdict=str(evaluation.verdict),
            codes=evaluation.failed_codes,
            balance=evaluation.balance.as_dict(),
            build=fields,
        )
        self.summary.distinct_builds += 1
        return result

    def _add(self, result: NodeResult) -> int:
        self.results.append(result)
        return len(self.results) - 1

    def audit(self, frame: pd.DataFrame) -> AuditedChunk:
        """Audit one chunk of cells (columns: row, node_id and the build fields)."""
        fields = list(self.fields)
        keys = frame[fields[0]].str.cat(frame[fields[1:]], sep=KEY_SEPARATOR)
        for key in keys.drop_duplicates():
            if key not in self._by_key:
                cells = dict(zip(fields, key.split(KEY_SEPARATOR), strict=True))
                self._by_key[key] = self._add(self.result_for(cells))
        index = keys.map(self._by_key).to_numpy(dtype=np.int64, copy=True)
        node_ids = frame["node_id"].str.strip()
        for position in np.flatnonzero(self._node_id_problems(node_ids, frame["row"])):
            row = int(frame["row"].iloc[position])
            index[position] = self._add(
                self._with_node_error(self.results[index[position]], node_ids.iloc[position], row)
            )
        for result_index, count in zip(*np.unique(index, return_counts=True), strict=True):
            self.summary.add(self.results[result_index], int(count))
        return AuditedChunk(node_ids, frame["row"], index)

    def _node_id_problems(self, node_ids: pd.Series, rows: pd.Series) -> np.ndarray:
        """Mark rows whose node_id is empty, unstorable, a formula or already used; remember ids."""
        empty = (
            (node_ids == "")
            | (node_ids.str.len() > NODE_ID_MAX)
            | node_ids.str.contains("\x00", regex=False)
            | node_ids.str.startswith("=")
        ).to_numpy()
        seen = self._first_row  # a hash lookup per id: isin() would copy every id seen so far
        earlier = np.fromiter((node_id in seen for node_id in node_ids), bool, len(node_ids))
        repeated = node_ids.duplicated().to_numpy() | earlier
        fresh = ~(empty | repeated)
        for node_id, row in zip(node_ids[fresh], rows[fresh], strict=True):
            self._first_row[node_id] = int(row)
        return empty | repeated

    def _with_node_error(self, result: NodeResult, node_id: str, row: int) -> NodeResult:
        if not node_id:
            problem = _("This cell is empty.")
        elif node_id.startswith("="):
            problem = _("A formula is not a value: type the value itself.")
        elif len(node_id) > NODE_ID_MAX or "\x00" in node_id:
            problem = _("A node id has at most %(n)s characters and no NUL character.") % {
                "n": NODE_ID_MAX
            }
        else:
            problem = _("Node %(id)s is already listed in row %(row)s.") % {
                "id": node_id,
                "row": self._first_row[node_id],
            }
        errors = dict(result.errors or {})
        errors["node_id"] = [problem]
        return NodeResult.make(verdict=ERROR, errors=errors, build=None)

    def json_items(self, chunk: AuditedChunk) -> list[str]:
        """Return each node of a chunk as a JSON object string (api.md's audit_fleet --json)."""
        fragments = np.array([result.fragment for result in self.results], dtype=object)
        ids = chunk.node_ids.map(lambda value: json.dumps(value, ensure_ascii=False))
        return list(
            '{"node_id": '
            + ids.to_numpy(dtype=object)
            + ', "row": '
            + chunk.rows.astype(str).to_numpy(dtype=object)
            + ", "
            + fragments[chunk.result_index]
            + "}"
        )
