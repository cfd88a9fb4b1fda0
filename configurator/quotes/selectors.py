"""Reads: the leads inbox, the bill of materials of a build, the quotes a user may see, the
recipe baseline."""

import math
import re
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, QuerySet

from catalog.kinds import KINDS_BY_LINE
from configurator import selectors as configurator_selectors
from configurator.engine.build import NAMED_PARTS, named_slug
from configurator.engine.messages import _
from configurator.engine.parts import MemoryOption, PsuOption
from configurator.engine.pcie import even_split
from configurator.engine.pricing import bill, counted_parts
from configurator.inputs import InputErrors
from configurator.quotes.models import Lead, Quote, QuoteEvent, Status
from configurator.recipes import recipe_builds
from configurator.schemas import BuildIn

CENT = Decimal("0.01")
# `Q-2026-000123` as `services._next_number` writes it (more digits past a million a year).
QUOTE_NUMBER = re.compile(r"Q-[0-9]{4}-[0-9]{6,9}", re.ASCII)


def leads_inbox(*, status: str | None = None) -> QuerySet[Lead]:
    """Return the leads, newest first, with how many builds were saved to each."""
    leads = Lead.objects.annotate(saved_builds=Count("builds")).order_by("-created_at")
    return leads.filter(status=status) if status else leads


def lead_counts() -> dict[str, int]:
    """Return how many leads each status holds."""
    counts = dict.fromkeys(Lead.Status.values, 0)
    for row in Lead.objects.values("status").annotate(n=Count("id")):
        counts[row["status"]] = row["n"]
    return counts


def _specs(kind: str, row) -> dict[str, object]:
    """Return the specs of a catalog row on a BOM line of `kind` as JSON values (Decimals as
    strings, exact)."""
    specs: dict[str, object] = {}
    for name in KINDS_BY_LINE[kind].specs:
        value = getattr(row, name)
        specs[name] = str(value) if isinstance(value, Decimal) else value
    return specs


def _line(kind: str, row, qty: int) -> dict[str, object]:
    unit = row.monthly_price.quantize(CENT)
    return {
        "kind": kind,
        "sku": row.slug,
        "name": row.name,
        "vendor": row.vendor,
        "qty": qty,
        "unit_price": str(unit),
        "monthly_price": str((unit * qty).quantize(CENT)),
        "source_url": row.source_url,
        "specs": _specs(kind, row),
    }


def _part(kind: str, ref: str, errors: InputErrors, path: str):
    """Return the engine part a slug or name names, or record an error at `path`."""
    item = configurator_selectors.snapshots()[0].everything.find(KINDS_BY_LINE[kind].key, ref)
    if item is None:
        errors.add(path, f"Unknown {kind} {ref!r}: use a catalog slug or name.")
    return item


def _given_line(build: BuildIn, kind: str, errors: InputErrors) -> tuple[object, int] | None:
    """Return (part, qty per node) of a BOM line the client chose (e.g. from /recommend)."""
    for index, line in enumerate(build.bom or ()):
        if line.get("kind") != kind:
            continue
        path = f"build.bom.{index}"
        qty = line.get("qty")
        if not isinstance(qty, int) or isinstance(qty, bool) or not 1 <= qty <= 64:
            errors.add(f"{path}.qty", "Give a whole quantity from 1 to 64.")
            return None
        ref = line.get("slug") or line.get("sku")
        if not isinstance(ref, str) or not ref:
            errors.add(f"{path}.slug", f"Name the {kind}'s catalog slug.")
            return None
        part = _part(kind, ref, errors, f"{path}.slug")
        return (part, qty) if part else None
    return None


def _given_memory(build: BuildIn, errors: InputErrors) -> MemoryOption | None:
    """Return the DIMM population the client chose, if it makes the build's memory."""
    given = _given_line(build, "memory", errors)
    if not given:
        return None
    module, count = given
    if module.capacity_gb * count != build.memory_gb:
        errors.add(
            "build.bom",
            f"{count} × {module.capacity_gb} GB is not the build's {build.memory_gb} GB.",
        )
    return MemoryOption(module, count)


def _given_psus(build: BuildIn, errors: InputErrors) -> PsuOption | None:
    """Return the PSU set the client chose: its units, the spare(s) past the build's output."""
    given = _given_line(build, "psu", errors)
    if not given:
        return None
    psu, count = given
    active = max(1, min(count - 1, math.ceil(build.psu_watts / psu.rated_w))) if count > 1 else 1
    return PsuOption(psu, count, active, "N+N" if 2 * active == count else "N+1")


def _unpriced(kind: str, build: BuildIn) -> tuple[str, str]:
    """Return (field path, message) for a part of the build no offered catalog part gives."""
    if kind == "platform":
        return "build.platform", _(
            "No offered platform takes %(cpus)s × %(cpu)s and %(gpus)s × %(gpu)s: name one.",
            cpus=build.cpu_count,
            cpu=build.cpu,
            gpus=build.gpu_count,
            gpu=build.gpu,
        )
    if kind == "memory":
        return "build.memory_gb", _(
            "No offered memory population makes %(gb)s GB on this platform.", gb=build.memory_gb
        )
    if kind == "psu":
        return "build.psu_watts", _(
            "No offered PSU set gives %(watts)s W with redundancy in this platform's bays.",
            watts=build.psu_watts,
        )
    return f"build.{kind}", _("No offered %(kind)s fits this build.", kind=kind)


def quote_bom(*, build: BuildIn) -> tuple[list[dict[str, object]], BuildIn]:
    """Price a build from the catalog: BOM lines for all nodes, and the build made explicit.

    The bill is the engine's one bill (`engine/pricing.bill`), as the configurator page,
    /evaluate and /recommend price it: a build that names no platform is priced, and frozen,
    on the platform that bill assumes (the cheapest offered one that takes it); memory modules
    and PSUs are the client's BOM lines when given (as /recommend returns them), otherwise the
    cheapest offered ones that fit; a build with NICs and no NIC model gets the cheapest.
    Raises InputErrors naming every bad field, every part the catalog cannot price, and a
    memory size or PSU output no part set gives exactly (the page's bill prices the next size
    up; a quote prices the build it freezes).
    """
    errors = InputErrors()
    platform = (
        _part("platform", build.platform, errors, "build.platform") if build.platform else None
    )
    cpu = _part("cpu", build.cpu, errors, "build.cpu")
    gpu = _part("gpu", build.gpu, errors, "build.gpu")
    nic = _part("nic", build.nic, errors, "build.nic") if build.nic else None
    named = {}  # each part the build names by slug (NAMED_PARTS), by field
    for part in NAMED_PARTS:
        ref = getattr(build, part.name)
        named[part.name] = _part(part.line, ref, errors, f"build.{part.name}") if ref else None
    errors.raise_if_any()
    memory = _given_memory(build, errors)
    psus = _given_psus(build, errors)
    errors.raise_if_any()
    priced = bill(
        cpu=cpu,
        cpu_count=build.cpu_count,
        gpu=gpu,
        gpu_count=build.gpu_count,
        memory_gb=build.memory_gb,
        memory_ecc=build.memory_ecc,
        psu_watts=build.psu_watts,
        catalog=configurator_selectors.snapshots()[0].offered,
        nodes=build.nodes,
        nics=build.nics,
        platform=platform,
        nic=nic,
        dimm_count=build.dimm_count,
        memory=memory,
        psus=psus,
        parts=counted_parts(build, named),
    )
    for kind in priced.unpriced:
        errors.add(*_unpriced(kind, build))
    if psus and priced.platform and not priced.platform.takes_psu(psus.psu):  # domain.md §6
        errors.add("build.bom", f"The {priced.platform.name} does not take the {psus.psu.name}.")
    for name, value in priced.substituted:  # a quote freezes the build it prices, as asked
        errors.add(
            f"build.{name}",
            _(
                "No offered part set gives exactly %(asked)s; the next the catalog offers is "
                "%(value)s.",
                asked=getattr(build, name),
                value=value,
            ),
        )
    errors.raise_if_any()
    lines = [
        _line(line.kind, KINDS_BY_LINE[line.kind].model.objects.get(slug=line.slug),
              line.qty * build.nodes)
        for line in priced.lines
    ]  # fmt: skip
    explicit = build.model_copy(
        update={
            "cpu": cpu.slug,
            "gpu": gpu.slug,
            "platform": priced.platform.slug,
            "nic": priced.nic.slug if priced.nic else None,
            "gpus_per_socket": list(
                build.gpus_per_socket or even_split(build.gpu_count, build.cpu_count)
            ),
            "dimm_count": priced.memory.count,
            "bom": None,
        }
        | {name: named_slug(part) for name, part in named.items()}
    )
    return lines, explicit


def quotes_visible_to(user: AbstractBaseUser) -> QuerySet[Quote]:
    """Return the quotes a user may read: architects every quote, presales their own."""
    quotes = Quote.objects.select_related("owner", "previous")
    if not user.is_authenticated or not user.is_staff:
        return quotes.none()
    if user.has_perm("quotes.review_quote"):
        return quotes
    if user.has_perm("quotes.view_quote"):
        return quotes.filter(owner=user)
    return quotes.none()


def quote_for(user: AbstractBaseUser, number: str) -> Quote | None:
    """Return the quote with this number if the user may read it, else None.

    Text that is no quote number names no quote, and is not sent to the database: PostgreSQL
    refuses a NUL in a query (a 500 before this check).
    """
    if not QUOTE_NUMBER.fullmatch(number):
        return None
    return quotes_visible_to(user).filter(number=number).first()


def quote_returned_with(quote: Quote) -> QuoteEvent | None:
    """Return the architect's return of a returned quote: who sent it back, and why."""
    if quote.status != Status.RETURNED:
        return None
    return quote.events.filter(action="return").select_related("by").order_by("-at").first()


def review_queue() -> QuerySet[Quote]:
    """Return the submitted quotes, oldest first: the architects' review queue."""
    return (
        Quote.objects.filter(status=Status.SUBMITTED)
        .select_related("owner")
        .order_by("updated_at", "pk")
    )


def quote_history(quote: Quote) -> list[dict[str, object]]:
    """Return the quote's recorded transitions in the API's shape."""
    return [
        {
            "action": event.action,
            "status": event.to_status,
            "from": event.from_status or None,
            "by": event.by.get_username() if event.by else None,
            "at": event.at.isoformat(),
            "comment": event.comment,
        }
        for event in quote.events.select_related("by")
    ]


def recipe_baseline_diff(quote: Quote) -> list[dict[str, object]]:
    """Compare the quote's build with each scenario recipe's build for its GPU (domain.md §3).

    The recipes' builds are the one recipe → build (`configurator/recipes.py`), as the
    configurator page opens them. Each row is one recipe with the differences in CPU,
    platform, GPU count (the recipe's range) and memory; the recipe's memory is a minimum, so
    more memory is not a difference that matters.
    """
    build = quote.build
    gpu_count = build["gpu_count"]
    mode = (quote.workload or {}).get("mode")
    rows = []
    for recipe in recipe_builds():
        scenario, fields = recipe.scenario, recipe.fields
        if recipe.build.gpu.slug != build["gpu"]:
            continue
        if mode and mode not in scenario.modes:
            continue
        differences = []
        if fields.cpu != build["cpu"]:
            differences.append(("cpu", fields.cpu, build["cpu"]))
        if fields.platform and fields.platform != build["platform"]:
            differences.append(("platform", fields.platform, build["platform"]))
        low, high = scenario.gpus_min, scenario.gpus_max
        if high and not low <= gpu_count <= high:
            span = f"{low}–{high}" if low != high else str(high)
            differences.append(("gpu_count", span, gpu_count))
        if build["memory_gb"] < fields.memory_gb:
            differences.append(("memory_gb", fields.memory_gb, build["memory_gb"]))
        rows.append({"recipe": recipe, "differences": differences})
    return rows
