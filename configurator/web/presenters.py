"""Shape the configurator's results into template context: one module, no logic in templates.

Everything a template shows is decided here — which options a select offers and which is
chosen, how a check is titled in the request's language, the gauge's arc, the bill's lines —
from the engine's and the services' results.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.http import QueryDict
from django.utils.formats import number_format
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from catalog.kinds import KINDS
from configurator import selectors
from configurator.engine.build import NAMED_PARTS, Mode
from configurator.engine.evaluate import Verdict
from configurator.engine.model_shapes import ModelShape, UnknownModelError, published_shape
from configurator.engine.performance import Performance
from configurator.engine.sentence import MAX_SENTENCE
from configurator.inputs import InputErrors, workload_from_input
from configurator.money import cny, cny_exact, localized
from configurator.schemas import WorkloadIn
from configurator.selectors import CatalogSnapshot
from configurator.services import Evaluated
from configurator.translation import check_code, check_title, localize
from configurator.web.configuration import (
    PAGE_FIELDS,
    PREFERENCE,
    Configuration,
    WorkloadChoice,
    query_value,
)
from configurator.web.forms import PickForm
from configurator.web.number_labels import numbers_text
from configurator.web.options import Adjustment, Choices, choices
from configurator.web.reading import Request
from configurator.web.services import Assessment, Recommended, permalink_query

STATUS_LABELS = {
    "pass": _("pass"),
    "warn": _("warning"),
    "fail": _("fail"),
    "na": _("not applicable"),
}
KIND_LABELS = {kind.line: kind.line_label for kind in KINDS}  # a bill line's kind, in words
FIELD_LABELS = {
    "platform": _("Platform"),
    "cpu": _("CPU"),
    "cpu_count": _("CPU sockets"),
    "gpu": _("GPU"),
    "gpu_count": _("GPUs per node"),
    "gpus_per_socket": _("GPUs per socket"),
    "memory_gb": _("System memory"),
    "memory_ecc": _("ECC memory"),
    "psu_watts": _("Power supplies"),
    "nvlink": _("NVLink"),
    "numa_binding": _("NUMA binding"),
    "nodes": _("Nodes"),
    "nics": _("Network cards"),
    "nic": _("Network card model"),
    "nvme": _("NVMe drives"),
} | {part.name: _(str(part.label)) for part in NAMED_PARTS}
SUB_SCORES = (
    ("cpu_threads", _("CPU threads per GPU")),
    ("pcie_lanes", _("PCIe lane headroom")),
    ("memory", _("Memory headroom")),
)


@dataclass
class Option:
    value: str
    label: str
    selected: bool


@dataclass
class FieldView:
    name: str
    label: str
    options: list[Option]
    errors: list[str] = field(default_factory=list)
    hint: str = ""

    @property
    def options_html(self) -> str:
        """Return the select's options; built here because a template loop over hundreds of
        options is most of a fragment's rendering time (docs/benchmarks.md)."""
        return format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (o.value, mark_safe(" selected") if o.selected else "", o.label)
                for o in self.options
            ),
        )


# Legacy part slugs by catalog snapshot; each entry keeps its snapshot, so its id stays its own.
_NOT_OFFERED: dict[int, tuple[CatalogSnapshot, frozenset[str]]] = {}


def _not_offered(catalog: CatalogSnapshot) -> frozenset[str]:
    """Return the slugs of the CPUs, GPUs and platforms kept only for legacy builds."""
    cached = _NOT_OFFERED.get(id(catalog))
    if cached is None:
        kinds = ("cpus", "gpus", "platforms")
        offered = {item.slug for kind in kinds for item in getattr(catalog.offered, kind)}
        every = {item.slug for kind in kinds for item in getattr(catalog.everything, kind)}
        if len(_NOT_OFFERED) >= 8:
            _NOT_OFFERED.clear()
        cached = _NOT_OFFERED[id(catalog)] = (catalog, frozenset(every - offered))
    return cached[1]


def build_fields(
    config: Configuration, offered: Choices, errors: dict, catalog: CatalogSnapshot
) -> list[FieldView]:
    """Return the configurator's selects, each with what the platform takes."""
    not_offered = _not_offered(catalog)

    def part(item) -> str:
        label = item.name
        if item.slug in not_offered:
            label += " — " + gettext("legacy, not offered")
        return label

    def options(pairs, current) -> list[Option]:
        current = query_value(current)
        found = [Option(query_value(value), str(label), query_value(value) == current)
                 for value, label in pairs]  # fmt: skip
        if current and not any(option.selected for option in found):
            found.insert(0, Option(current, current, True))
        return found

    yes_no = ((True, gettext("yes")), (False, gettext("no")))
    platform_pairs = [("", gettext("Any platform (board limits not checked)"))] + [
        (p.slug, part(p)) for p in offered.platforms
    ]
    memory = [
        (o.total_gb, gettext("%(gb)s GB — %(n)s × %(module)s")
         % {"gb": number_format(o.total_gb, use_l10n=True, force_grouping=True),
            "n": o.count, "module": o.module.name})
        for o in offered.memory
    ]  # fmt: skip
    psus = [
        (o.usable_w, gettext("%(w)s W usable — %(n)s × %(psu)s (%(scheme)s)")
         % {"w": number_format(o.usable_w, use_l10n=True, force_grouping=True),
            "n": o.count, "psu": o.psu.name, "scheme": f"{o.active}+{o.count - o.active}"})
        for o in offered.psus
    ]  # fmt: skip
    views = [
        ("platform", platform_pairs),
        ("cpu", [(cpu.slug, part(cpu)) for cpu in offered.cpus]),
        ("cpu_count", [(n, str(n)) for n in offered.cpu_counts]),
        ("gpu", [(gpu.slug, part(gpu)) for gpu in offered.gpus]),
        ("gpu_count", [(n, str(n)) for n in offered.gpu_counts]),
        ("gpus_per_socket", [(s, " + ".join(map(str, s))) for s in offered.splits]),
        ("memory_gb", memory),
        ("memory_ecc", yes_no),
        ("psu_watts", psus),
        ("nvlink", [pair for pair in yes_no if pair[0] in offered.nvlink]),
        ("numa_binding", yes_no),
        ("nics", [(n, str(n)) for n in offered.nics]),
        ("nic", [("", gettext("default (x16, 25 W)"))]
         + [(nic.slug, nic.name) for nic in offered.nic_models]),
        ("nvme", [(n, str(n)) for n in offered.nvme]),
        ("nodes", [(n, str(n)) for n in offered.nodes]),
    ]  # fmt: skip
    for named in NAMED_PARTS:  # each part a build names by slug, after the count of it
        after = next(i for i, (name, _pairs) in enumerate(views) if name == named.count) + 1
        pairs = [("", gettext("not named (not priced)"))] + [
            (item.slug, part(item)) for item in offered.parts[named.name]
        ]
        views.insert(after, (named.name, pairs))
    return [
        FieldView(name, str(FIELD_LABELS[name]), options(pairs, getattr(config, name)),
                  errors.get(name, []))
        for name, pairs in views
    ]  # fmt: skip


STATUS_ORDER = {"fail": 0, "warn": 1, "pass": 2, "na": 3}


def comparison_rows(columns: list[dict]) -> list[tuple[str, list[dict | None]]]:
    """Return each check code with its row in every column, in the engine's order."""
    codes: list[str] = []
    for column in columns:
        codes += [code for code in column["check_order"] if code not in codes]
    by_code = [{row["code"]: row for row in column["checks"]} for column in columns]
    return [(code, [rows.get(code) for rows in by_code]) for code in codes]


def work_rows(columns: list[dict]) -> list[tuple[str, list[str]]]:
    """Return the work's figures (time, throughput, cost: `performance_view`, as the
    configurator shows them) as comparison rows, one per figure any column has, in order; a
    column without it shows a dash."""
    labels: list[str] = []
    for column in columns:
        labels += [label for label, _ in column["performance"] if label not in labels]
    figures = [dict(column["performance"]) for column in columns]
    return [(label, [each.get(label, "—") for each in figures]) for label in labels]


def fixes_tag(permalink: str) -> str:
    """Return the short tag of a build that names its checks' fix slots: the fixes answered
    for one build (`views.configure_fixes`) can only fill that build's slots, never those of
    a build the page has moved on to meanwhile."""
    return hashlib.blake2b(permalink.encode(), digest_size=4).hexdigest()


def check_rows(
    evaluated: Evaluated | None, monthly_price: float | None = None, fixes: dict | None = None
) -> list[dict]:
    """Return every check for display: status, title in the request's language, numbers,
    for a triggered pitfall with a measured loss what it costs a month on this bill, and for
    a check with a fix in `fixes` (`web/fixes.py`) the change "Apply fix" makes, in words."""
    if not evaluated:
        return []
    fixes = fixes or {}
    losses = {
        code: loss * _price_scale(evaluated, monthly_price)
        for code, loss in _losses(evaluated).items()
        if code in evaluated.evaluation.pitfalls
    }
    rows = []
    for check in evaluated.evaluation.checks:
        code, status = check.code, str(check.status)
        rows.append(
            {
                "code": code,
                "shown_code": check_code(code),
                "status": status,
                # A problem another check owns says whose it is, not "not applicable".
                "status_label": gettext("counted by %(code)s") % {"code": check.covered_by}
                if check.covered_by
                else STATUS_LABELS.get(status, status),
                "covered_by": check.covered_by,
                "title": check_title(code, str(check.title), status),
                "detail": localize(check.detail),
                "impact": localize(check.impact),
                "fix": localize(check.fix),
                "numbers": numbers_text(check.numbers),
                "fixable": code in fixes,
                "fix_change": localize(fixes[code].change.message()) if code in fixes else "",
                "monthly_loss": cny(losses[code]) if code in losses else "",
            }
        )  # fmt: skip
    return sorted(rows, key=lambda row: STATUS_ORDER.get(row["status"], 4))


def _losses(evaluated: Evaluated) -> dict[str, float]:
    """Return what each failed check with a measured loss, and an unbalanced node, cost a month
    on the price of the parts the build names (none without that price)."""
    if evaluated.monthly_price is None:
        return {}
    return evaluated.evaluation.monthly_losses(evaluated.monthly_price)


def _price_scale(evaluated: Evaluated, monthly_price: float | None) -> float:
    """Return the factor from the evaluation's price of the named parts to the page's bill.

    The evaluation prices the parts a build names; the page's bill prices every line (PSUs,
    the platform it assumes). Losses and costs are shares of the rent, so they follow the bill.
    """
    priced = evaluated.monthly_price and round(evaluated.monthly_price, 2)
    if not priced or monthly_price is None:
        return 1.0
    return monthly_price / priced


def performance_view(work: Performance | None, scale: float = 1.0) -> list:
    """Return the work's figures as (label, value) rows: time, throughput, cost (the costs
    times `scale`, from the evaluation's price to the page's bill)."""
    if not work:
        return []
    rows = []
    if work.mode != Mode.INFER and work.time_to_train_days is not None:
        days = round(work.time_to_train_days, 2)
        rows.append(
            (
                gettext("Time to train"),
                ngettext("%(days)s day", "%(days)s days", round(days))
                % {"days": localized(round(days, 1))},
            )
        )
        rows.append((gettext("Cost per run"), cny(work.cost_per_run * scale)))
    if work.mode == Mode.INFER and work.tokens_per_s is not None:
        rows.append(
            (gettext("Output tokens per second"), localized(round(round(work.tokens_per_s, 1))))
        )
        rows.append(
            (
                gettext("Time to first token"),
                gettext("%(s)s s")
                % {"s": localized(round(round(work.time_to_first_token_s, 4), 2))},
            )
        )
        rows.append(
            (
                gettext("Time per output token"),
                gettext("%(ms)s ms")
                % {"ms": localized(round(work.time_per_output_token_s * 1000, 1))},
            )
        )
        rows.append(
            (
                gettext("Cost per million output tokens"),
                cny_exact(work.cost_per_million_tokens * scale),
            )
        )
    if work.meets_ttft_target is not None:
        met = gettext("met") if work.meets_ttft_target else gettext("missed")
        rows.append((gettext("Time to first token target"), met))
    if work.meets_tpot_target is not None:
        met = gettext("met") if work.meets_tpot_target else gettext("missed")
        rows.append((gettext("Time per output token target"), met))
    if not work.meets_target:
        rows.append((gettext("Deadline or target"), gettext("missed")))
    return rows  # fmt: skip


def verdict_text(evaluated: Evaluated | None, balance: dict | None) -> str:
    """Return the verdict in words, counting the checks the page lists below it: a build with
    a warning on screen is accepted, but never said to pass every check."""
    if not evaluated:
        return ""
    evaluation = evaluated.evaluation
    failures, warnings = len(evaluation.failures), len(evaluation.warnings)
    accepted = evaluation.verdict == Verdict.ACCEPT
    if accepted and warnings:
        return ngettext(
            "Accepted: no check fails and the node is balanced, but %(n)s check warns.",
            "Accepted: no check fails and the node is balanced, but %(n)s checks warn.",
            warnings,
        ) % {"n": warnings}
    if accepted:
        return gettext("Accepted: this build passes every check and is balanced.")
    text = ngettext("Rejected: %(n)s check fails.", "Rejected: %(n)s checks fail.", failures) % {
        "n": failures
    }
    if balance and not balance["balanced"]:
        text += " " + gettext("Balance score %(s)s is below %(t)s.") % {
            "s": balance["overall"],
            "t": balance["threshold"],
        }
    return text


def score_words(balanced: bool, threshold: float, failures: int) -> str:
    """Return what a balance score means for renting the node out, beside the number: a
    rejected build's score is said to be rejected, however high it is."""
    if not balanced:
        return gettext("below %(t)s: not rented out") % {"t": round(threshold)}
    if failures:
        return ngettext(
            "rejected: %(n)s check fails",
            "rejected: %(n)s checks fail",
            failures,
        ) % {"n": failures}
    return gettext("rented out from %(t)s") % {"t": round(threshold)}


def balance_view(evaluated: Evaluated | None, monthly_price: float | None = None) -> dict | None:
    if not evaluated:
        return None
    balance = evaluated.evaluation.balance
    loss = _losses(evaluated).get("balance")
    scale = _price_scale(evaluated, monthly_price)
    rejected = evaluated.evaluation.verdict == Verdict.REJECT
    failures = len(evaluated.evaluation.failures)
    return {
        "monthly_loss": cny(loss * scale) if loss is not None else "",
        "overall": round(balance.overall),
        "threshold": round(balance.threshold),
        "balanced": balance.balanced,
        # The score as the verdict reads it: a rejected build's is shown rejected, in its
        # colour and its words, even when the node itself is balanced.
        "rejected": rejected,
        "words": score_words(balance.balanced, balance.threshold, failures),
        "arc": f"{max(0.0, min(100.0, balance.overall)):.1f} 100",
        "subs": [(key, str(label), round(getattr(balance, key))) for key, label in SUB_SCORES],
    }


def power_view(evaluated: Evaluated | None) -> dict | None:
    """Return the watts the node draws against its PSUs' usable output, as P7 reckoned them
    (its finding's numbers: one reckoning of power), and whether P7 failed."""
    if not evaluated:
        return None
    p7 = next((check for check in evaluated.evaluation.checks if check.code == "P7"), None)
    if p7 is None or "load_w" not in p7.numbers:
        return None
    numbers = p7.numbers
    values = {
        "load": localized(numbers["load_w"]),
        "psu": localized(numbers["psu_watts"]),
        "required": localized(numbers["required_w"]),
    }
    if p7.failed:
        text = gettext("%(load)s W drawn · PSUs %(psu)s W, %(required)s W needed") % values
    else:
        text = gettext("%(load)s W drawn · PSUs %(psu)s W") % values
    return {"text": text, "short": p7.failed}


def summary_view(evaluated: Evaluated | None, balance: dict | None) -> dict | None:
    """Return the summary bar's verdict: its word and the checks that fail or warn."""
    if not evaluated:
        return None
    evaluation = evaluated.evaluation
    failures, warnings = len(evaluation.failures), len(evaluation.warnings)
    if evaluation.verdict == Verdict.ACCEPT:
        word = gettext("Accepted")
        counts = (
            ngettext("%(n)s check warns", "%(n)s checks warn", warnings) % {"n": warnings}
            if warnings
            else gettext("every check passes")
        )
    else:
        word = gettext("Rejected")
        counts = (
            ngettext("%(n)s check fails", "%(n)s checks fail", failures) % {"n": failures}
            if failures
            else gettext("Balance score %(s)s is below %(t)s.")
            % {"s": balance["overall"], "t": balance["threshold"]}
            if balance
            else ""
        )
    return {"word": word, "counts": counts, "power": power_view(evaluated)}


def bill_view(assessment: Assessment) -> dict:
    bill = assessment.bill
    return {
        "lines": [
            {
                "kind": str(KIND_LABELS.get(line.kind, line.kind)),
                "name": line.name,
                "slug": line.slug,
                "qty": line.qty,
                "unit": cny(line.monthly_price),
                "total": cny(line.qty * line.monthly_price),
            }
            for line in bill.lines
        ],
        "node_price": cny(bill.node_price),
        "monthly_price": cny(bill.monthly_price),
        "monthly_price_value": bill.monthly_price,
        "nodes": assessment.config.nodes,
        "platform_assumed": bill.platform_assumed,
        "unpriced": [str(KIND_LABELS.get(name, name)) for name in bill.unpriced],
        "substituted": [
            gettext("%(field)s priced as %(value)s, the next size the catalog offers.")
            % {"field": FIELD_LABELS[name], "value": number_format(value, force_grouping=True)}
            for name, value in bill.substituted
        ],
    }


def adjustment_texts(adjustments: list[Adjustment]) -> list[str]:
    return [
        gettext("%(field)s changed from %(old)s to %(new)s: the platform takes no other.")
        % {"field": FIELD_LABELS.get(a.field, a.field), "old": query_value(a.old) or "—",
           "new": query_value(a.new)}
        for a in adjustments
    ]  # fmt: skip


def gpu_memory_per_gpu(config: Configuration, catalog: CatalogSnapshot) -> int | None:
    gpu = catalog.everything.find("gpus", config.gpu)
    return gpu.memory_gb if gpu else None


VERDICT_WORDS = {"accept": _("accepted"), "reject": _("rejected")}
# A bilingual profile name, "Operator baseline (<its Chinese name>)": the aside in brackets
# (ASCII or full-width) holding CJK ideographs.
CJK = re.compile(r"[\u4e00-\u9fff]")
CHINESE_ASIDE = re.compile(r"\s*[(\uff08][^)\uff09]*[\u4e00-\u9fff][^)\uff09]*[)\uff09]")


def profile_label(name: str) -> str:
    """Return a profile's name as the page writes it: a bilingual name's CJK aside alone where
    the page's own words are written in that script (its catalogue's "accepted"), the name
    without it elsewhere."""
    if CJK.search(str(VERDICT_WORDS["accept"])):
        aside = CHINESE_ASIDE.search(name)
        return aside.group(0).strip().strip("()\uff08\uff09").strip() if aside else name
    return CHINESE_ASIDE.sub("", name).strip() or name


def references_view(evaluated: Evaluated | None) -> list[dict]:
    """Return the verdict of the profile the page judged by, then every other published
    reference's on the same build (domain.md §8): "Operator baseline: rejected · NVIDIA AI
    Enterprise RA 2-8-5: accepted". Empty when there is no other profile to compare."""
    if evaluated is None or not evaluated.references:
        return []
    own = evaluated.ruleset
    rows = [(own.name or own.profile, own.profile, evaluated.verdict)]
    rows += [(r.ruleset.name or r.ruleset.profile, r.ruleset.profile, r.verdict)
             for r in evaluated.references]  # fmt: skip
    return [
        {
            "name": profile_label(name),
            "profile": slug,
            "verdict": verdict,
            "text": VERDICT_WORDS[verdict],
        }
        for name, slug, verdict in rows
    ]


def assessment_context(
    assessment: Assessment, catalog: CatalogSnapshot | None = None, fixes: dict | None = None
) -> dict:
    """Return what the results region shows for one assessed build (`fixes`: the change that
    clears each check that has one, offered beside it)."""
    catalog = catalog or selectors.snapshots()[0]
    evaluated = assessment.evaluation
    checks = evaluated.evaluation.checks if evaluated else ()
    statuses = [str(check.status) for check in checks]
    balance = balance_view(evaluated, assessment.bill.monthly_price)
    scale = _price_scale(evaluated, assessment.bill.monthly_price) if evaluated else 1.0
    return {
        "verdict": evaluated.verdict if evaluated else None,
        "verdict_text": verdict_text(evaluated, balance),
        "ruleset": evaluated.ruleset.as_dict() if evaluated else None,
        "references": references_view(evaluated),
        "checks": check_rows(evaluated, assessment.bill.monthly_price, fixes),
        "performance": performance_view(evaluated.performance if evaluated else None, scale),
        "check_order": [check.code for check in checks],
        # The verdict's sentence counts the same checks the list below it shows.
        "failures": statuses.count("fail"),
        "warnings": statuses.count("warn"),
        "balance": balance,
        "summary": summary_view(evaluated, balance),
        "bill": bill_view(assessment),
        "input_errors": assessment.errors,
        "permalink": assessment.permalink_query,
        "gpu_memory_gb": gpu_memory_per_gpu(assessment.config, catalog),
    }


def recommendation_cards(
    found: list[Recommended],
    workload,
    catalog: CatalogSnapshot | None = None,
    *,
    query: QueryDict | None = None,
    chosen: int | None = None,
    prefer_gpu: str = "",
) -> list[dict]:
    """Return the recommended builds as cards; each links to itself by `pick` in `query`.
    A closest build's card says what it misses, each with a link that asks for the target it
    meets instead."""
    catalog = catalog or selectors.snapshots()[0]
    cards = []
    for index, item in enumerate(found):
        config = item.config
        gpu = catalog.everything.find("gpus", config.gpu)
        cpu = catalog.everything.find("cpus", config.cpu)
        platform = catalog.everything.find("platforms", config.platform)
        picked = query.copy() if query is not None else None
        if picked is not None:
            picked["pick"] = str(index)
        cards.append(
            {
                "summary": ngettext("%(n)s node", "%(n)s nodes", config.nodes)
                % {"n": config.nodes},
                "gpus": f"{config.gpu_count} × {gpu.name if gpu else config.gpu}",
                "cpus": f"{config.cpu_count} × {cpu.name if cpu else config.cpu}",
                "platform": platform.name if platform else config.platform,
                "memory_gb": config.memory_gb,
                "price": cny(item.monthly_price),
                "why": item.why,
                "performance": performance_view(item.performance),
                "scenario": item.scenario,
                "verdict": item.verdict,
                "permalink": permalink_query(config, workload),
                "chosen": index == chosen,
                "pick_query": picked.urlencode() if picked is not None else "",
                "misses": [
                    {"text": miss.text, **_retarget(workload, miss, prefer_gpu)}
                    for miss in item.misses
                ],
            }
        )
    return cards


def _retarget(workload: WorkloadChoice | None, miss, prefer_gpu: str) -> dict[str, str]:
    """Return the link that asks the recommender again with the target a build meets."""
    if workload is None:
        return {}
    field = FIELDS_BY_NAME[miss.field]
    values = {**workload.given, miss.field: miss.passes_with}
    query = [(name, query_value(value)) for name, value in values.items()]
    if prefer_gpu:
        query.append(("prefer_gpu", prefer_gpu))
    label = gettext(str(field.spec.label))
    return {
        "query": urlencode([*query, ("start", "recommend")]),
        "label": gettext("Recommend again with %(label)s: %(value)s")
        % {"label": label, "value": _number(miss.passes_with)},
    }


def form_state(context: dict) -> str:
    """Return a digest of what the form shows apart from the values picked in it: each
    select's options, the messages beside the fields, the adjustments and the language.

    The form carries it; a change that leaves it equal, and whose picked values are the ones
    the form would show, needs only the results region redrawn (`form_unchanged`). Written
    as JSON text (lazy strings as text), so every server process computes the same digest."""
    shown = (
        get_language(),
        [(f.name, f.label, [(o.value, o.label) for o in f.options], f.errors)
         for f in context["fields"]],
        context["adjustments"],
        context["workload_errors"],
        [gpu.slug for gpu in context["gpus"]],
        list(context["recipes"]),
        context["sentence"],  # a form the sentence filled redraws whole on the next change
    )  # fmt: skip
    return hashlib.blake2b(json.dumps(shown, default=str).encode(), digest_size=12).hexdigest()


def form_unchanged(context: dict, query: QueryDict) -> bool:
    """Whether the customer's form already shows what a redraw would: the same `form_state`
    and every select's picked value equal to the one sent."""
    if query.get("form_state") != context["form_state"]:
        return False
    for f in context["fields"]:
        picked = next((o.value for o in f.options if o.selected), None)
        if picked is None or query.get(f.name) != picked:
            return False
    return query.get("prefer_gpu", "") == (context["prefer_gpu"] or "")


def _taken(workload: WorkloadChoice | None):
    """Return the engine's workload for the one typed (its derived defaults), or None."""
    if workload is None:
        return None
    try:
        return workload_from_input(WorkloadIn(**workload.workload_input()))
    except InputErrors:
        return None


def _number(value: float) -> str:
    return number_format(f"{value:g}") if value % 1 else number_format(int(value))


def model_facts(shape: ModelShape) -> list[tuple[str, str]]:
    """Return a named model's published fields as the page shows them beside its name:
    parameters (total and active), attention, experts, KV heads."""
    params = gettext("%(total)sB") % {"total": _number(shape.params_b)}
    if shape.is_moe:
        params = gettext("%(total)sB, %(active)sB active") % {
            "total": _number(shape.params_b), "active": _number(shape.active_params_b),
        }  # fmt: skip
    facts = [
        (gettext("Parameters"), params),
        (gettext("Attention"), str(shape.attention).upper()),
    ]
    if shape.is_moe:
        facts.append((
            gettext("Experts"),
            gettext("%(experts)s, %(used)s per token") % {
                "experts": shape.experts, "used": shape.experts_per_token,
            },
        ))  # fmt: skip
    if str(shape.attention) == "mla":
        latent = gettext("latent, %(rank)s + %(rope)s values per layer") % {
            "rank": shape.kv_lora_rank, "rope": shape.qk_rope_head_dim,
        }  # fmt: skip
        facts.append((gettext("KV cache"), latent))  # MLA keeps a latent, not KV heads
    else:
        kv = gettext("%(kv)s of %(heads)s heads") % {
            "kv": shape.kv_heads, "heads": shape.attention_heads,
        }  # fmt: skip
        facts.append((gettext("KV heads"), kv))
    facts.append((gettext("Layers"), str(shape.layers)))
    return facts


def _picked_model(value: str) -> ModelShape | None:
    try:
        return published_shape(value) if value.strip() else None
    except UnknownModelError:
        return None


def workload_inputs(
    typed: dict[str, str],
    errors: dict[str, list[str]],
    workload: WorkloadChoice | None,
    read: dict[str, str] | None = None,
) -> list[dict]:
    """Return the workload's inputs as the template draws them, one per declared page field
    (the preferred GPU, a select of the offered GPUs, is drawn beside them).

    A field not typed stays empty and says the default that applies: the engine's, for the
    workload typed (`default: 50` for a batch of 50 users), or its fallback. A field the
    customer's sentence set carries the words it was read from (`read`)."""
    read = read or {}
    taken = _taken(workload)
    inputs = []
    # The model by name first: picked, it fills the size and the shape below it.
    for f in sorted(PAGE_FIELDS, key=lambda each: not each.spec.searchable):
        if f.name == PREFERENCE:
            continue
        spec = f.spec
        default = f.shown_default
        if taken is not None and f.default is None and not f.optional:
            default = getattr(taken, f.name)  # derived by the engine from what was typed
        elif taken is not None and taken.model is not None and f.spec.required_unless:
            default = getattr(taken, f.name)  # the named model's published size
        hint = gettext(str(spec.default_text)) % {"default": f.shown_default} if (
            spec.default_text
        ) else (gettext(str(spec.help)) if spec.help else "")  # fmt: skip
        value = typed.get(f.name, "")
        item = {
            "name": f.name,
            "label": gettext(str(spec.label)),
            "value": value,
            "errors": errors.get(f.name, []),
            "modes": " ".join(spec.modes),
            "hint": hint,
            "default": default,
            "read": read.get(f.name, ""),
        }
        if spec.searchable:
            item["datalist"] = [(choice, gettext(str(text))) for choice, text in spec.choices]
            shape = _picked_model(value) if f.name == "model" else None
            if shape is not None:
                item["value"] = shape.name  # as the list shows it
                item["facts"] = model_facts(shape)
                item["source"] = shape.card
        elif spec.kind == "choice":
            # The default in words, as the options below say it ("default: full fine-tune").
            named = next((text for choice, text in spec.choices if choice == default), default)
            empty = (
                "—"
                if f.required
                else gettext("default: %(default)s") % {"default": gettext(str(named))}
            )
            item["options"] = [("", empty, value == "")] + [
                (choice, gettext(str(text)), value == choice) for choice, text in spec.choices
            ]
        else:
            item["number"] = {
                "step": "any" if spec.kind == "float" else None,
                "min": None if spec.ge is None else query_value(spec.ge),
                "max": None if spec.le is None else query_value(spec.le),
            }
            if default is not None:
                shown = query_value(default)
                if spec.unit:
                    shown = f"{shown} {gettext(str(spec.unit))}"
                item["placeholder"] = gettext("default: %(default)s") % {"default": shown}
            elif spec.example:
                item["placeholder"] = gettext("e.g. %(example)s") % {"example": spec.example}
        inputs.append(item)
    return inputs


def sentence_view(request: Request, catalog: CatalogSnapshot) -> dict:
    """Return the sentence line: the text as typed, each field it set as the form shows it
    (label, value, the words it was read from), what it could not read and its notes."""
    reading = request.reading
    view = {
        "text": request.sentence,
        "max": MAX_SENTENCE,
        "errors": request.errors.get("sentence", []),
        "read": reading is not None,
    }
    if reading is None:
        return view
    view["reads"] = [
        {"name": each.field, "label": gettext(str(FIELDS_BY_NAME[each.field].spec.label)),
         "value": _read_value(each.field, each.value, catalog), "words": each.words}
        # The model first, as the form draws it.
        for each in sorted(reading.reads, key=lambda r: not FIELDS_BY_NAME[r.field].spec.searchable)
    ]  # fmt: skip
    view["unread"] = list(reading.unread)
    view["notes"] = [localize(note) for note in reading.notes]
    return view


FIELDS_BY_NAME = {f.name: f for f in PAGE_FIELDS}


def _read_value(name: str, value: object, catalog: CatalogSnapshot) -> str:
    """Return a field's value as the form shows it: a model or GPU by name, a choice in
    words, a number with its unit."""
    spec = FIELDS_BY_NAME[name].spec
    if name == PREFERENCE:
        gpu = catalog.everything.find("gpus", str(value))
        return gpu.name if gpu else str(value)
    if spec.searchable:
        shape = _picked_model(str(value))
        return shape.name if shape else str(value)
    if spec.kind == "choice":
        return next((gettext(str(text)) for choice, text in spec.choices if choice == value), "")
    shown, unit = _number(float(value)), gettext(str(spec.unit)) if spec.unit else ""
    # The unit once: not again where the label says it ("Deadline (days)").
    if not unit or unit.lower() in gettext(str(spec.label)).lower():
        return shown
    return f"{shown} {unit}"


def configurator_context(
    request: Request, assessment: Assessment, catalog: CatalogSnapshot, fixes: dict | None = None
) -> dict:
    """Return the whole configurator region: the form with its options, and the results."""
    offered = choices(assessment.config, catalog.everything)
    context = {
        "fields": build_fields(assessment.config, offered, request.errors, catalog),
        "adjustments": adjustment_texts(request.adjustments),
        "workload": assessment.workload,
        "workload_inputs": workload_inputs(
            request.workload_values,
            request.errors,
            assessment.workload,
            {each.field: each.words for each in request.reading.reads} if request.reading else {},
        ),
        "sentence": sentence_view(request, catalog),
        "prefer_gpu_read": next(
            (each.words for each in request.reading.reads if each.field == PREFERENCE), ""
        )
        if request.reading
        else "",
        # Beside their fields, so in `form_state`: the work fields' messages too.
        "workload_errors": {
            k: v for k, v in request.errors.items() if k in {f.query_name for f in PAGE_FIELDS}
        },
        "prefer_gpu": request.prefer_gpu,
        # `pick` comes from a card's link, not a field: its message stands above the cards.
        "pick_errors": [
            f"{PickForm.base_fields['pick'].label} (pick): {message}"
            for message in request.errors.get("pick", [])
        ],
        "gpus": catalog.offered.gpus,
    }
    context.update(assessment_context(assessment, catalog, fixes))
    return context
