"""Reads: the leads inbox, the bill of materials of a build, the quotes a user may see, the
recipe baseline."""

import re
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, QuerySet

from catalog import models as catalog
from catalog.kinds import KINDS_BY_LINE
from configurator import selectors as configurator_selectors
from configurator.engine.pcie import even_split
from configurator.engine.recommend.parts import cheapest_psus
from configurator.inputs import InputErrors
from configurator.models import Scenario
from configurator.quotes.models import Lead, Quote, Status
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


def _row(kind: str, ref: str, errors: InputErrors, path: str):
    """Return the catalog row a slug or name names, or record an error at `path`."""
    everything = configurator_selectors.snapshots()[0].everything
    catalog_kind = KINDS_BY_LINE[kind]
    item = everything.find(catalog_kind.key, ref)
    if item is None:
        errors.add(path, f"Unknown {kind} {ref!r}: use a catalog slug or name.")
        return None
    return catalog_kind.model.objects.get(slug=item.slug)


def _given_line(build: BuildIn, kind: str, errors: InputErrors) -> tuple[object, int] | None:
    """Return (row, qty per node) of a BOM line the client chose (e.g. from /recommend)."""
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
        row = _row(kind, ref, errors, f"{path}.slug")
        return (row, qty) if row else None
    return None


def _memory(build: BuildIn, cpu: catalog.Cpu, platform: catalog.Platform, errors: InputErrors):
    """Return (module, DIMMs per node): the client's choice, else the cheapest that fits."""
    given = _given_line(build, "memory", errors)
    if given:
        module, count = given
        if module.capacity_gb * count != build.memory_gb:
            errors.add(
                "build.bom",
                f"{count} × {module.capacity_gb} GB is not the build's {build.memory_gb} GB.",
            )
        return given
    slots = platform.dimm_slots_per_socket * build.cpu_count
    channels = cpu.memory_channels * build.cpu_count
    options = []
    modules = catalog.MemoryModule.objects.filter(
        offered=True, ddr_gen=cpu.ddr_gen, ecc=build.memory_ecc
    )
    for module in modules:
        count = build.dimm_count or build.memory_gb // module.capacity_gb
        if module.capacity_gb * count != build.memory_gb or count > slots:
            continue
        if count % build.cpu_count:  # each socket gets the same population
            continue
        # As the recommender: one or two DIMMs on every channel first (full bandwidth).
        balanced = count in (channels, 2 * channels) and module.registered
        options.append((not balanced, module.monthly_price * count, count, module.slug, module))
    if not options:
        errors.add(
            "build.memory_gb",
            f"No offered DDR{cpu.ddr_gen} module makes {build.memory_gb} GB in the "
            f"{platform.name}'s {slots} DIMM slots"
            + (f" with {build.dimm_count} DIMMs." if build.dimm_count else "."),
        )
        return None
    *_, count, _, module = min(options)
    return module, count


def _psus(build: BuildIn, platform: catalog.Platform, errors: InputErrors):
    """Return (PSU, count per node): the client's choice, else the recommender's cheapest set."""
    snapshot = configurator_selectors.snapshots()[0]
    takes = snapshot.everything.find("platforms", platform.slug)
    given = _given_line(build, "psu", errors)
    if given:
        psu = snapshot.everything.find("psus", given[0].slug)
        if takes is not None and psu is not None and not takes.takes_psu(psu):
            errors.add("build.bom", f"The {platform.name} does not take the {psu.name}.")
        return given
    offered = tuple(psu for psu in snapshot.offered.psus if takes is None or takes.takes_psu(psu))
    choice = cheapest_psus(build.psu_watts, platform.psu_bays, offered, platform.psu_max_w)
    if choice is None:
        errors.add(
            "build.psu_watts",
            f"No offered PSU set gives {build.psu_watts} W with redundancy in the "
            f"{platform.name}'s {platform.psu_bays} bays.",
        )
        return None
    return catalog.Psu.objects.get(slug=choice.psu.slug), choice.count


def quote_bom(*, build: BuildIn) -> tuple[list[dict[str, object]], BuildIn]:
    """Price a build from the catalog: BOM lines for all nodes, and the build made explicit.

    A quote prices a whole server, so the build must name its platform. Memory modules and
    PSUs are the client's BOM lines when given (as /recommend returns them), otherwise the
    cheapest offered ones that fit. Raises InputErrors naming every bad field.
    """
    errors = InputErrors()
    if not build.platform:
        errors.add("build.platform", "A quote prices a whole server: name its platform.")
        errors.raise_if_any()
    platform = _row("platform", build.platform, errors, "build.platform")
    cpu = _row("cpu", build.cpu, errors, "build.cpu")
    gpu = _row("gpu", build.gpu, errors, "build.gpu")
    nic = _row("nic", build.nic, errors, "build.nic") if build.nic else None
    if build.nics and not build.nic:
        errors.add("build.nic", "Name the network card the quote prices.")
    errors.raise_if_any()
    memory = _memory(build, cpu, platform, errors)
    psus = _psus(build, platform, errors)
    errors.raise_if_any()
    module, dimms = memory
    psu, psu_count = psus
    nodes = build.nodes
    lines = [
        _line("platform", platform, nodes),
        _line("cpu", cpu, build.cpu_count * nodes),
        _line("gpu", gpu, build.gpu_count * nodes),
        _line("memory", module, dimms * nodes),
        _line("psu", psu, psu_count * nodes),
    ]
    if nic and build.nics:
        lines.append(_line("nic", nic, build.nics * nodes))
    explicit = build.model_copy(
        update={
            "cpu": cpu.slug,
            "gpu": gpu.slug,
            "platform": platform.slug,
            "nic": nic.slug if nic else None,
            "gpus_per_socket": list(
                build.gpus_per_socket or even_split(build.gpu_count, build.cpu_count)
            ),
            "dimm_count": dimms,
            "bom": None,
        }
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


def _count_range(text: str) -> tuple[int | None, int | None]:
    """Read a recipe's GPU count, "8" or "4–8", as (low, high); (None, None) when blank."""
    parts = [part.strip() for part in text.replace("–", "-").split("-") if part.strip()]
    if not parts or not all(part.isdigit() for part in parts):
        return None, None
    return int(parts[0]), int(parts[-1])


def recipe_baseline_diff(quote: Quote) -> list[dict[str, object]]:
    """Compare the quote's build with each scenario recipe for its GPU (domain.md §3).

    Each row is one recipe with the differences in CPU, platform, GPU count and memory; the
    recipe's memory is a minimum, so more memory is not a difference that matters.
    """
    build = quote.build
    gpu_count = build["gpu_count"]
    rows = []
    recipes = (
        Scenario.objects.filter(active=True, gpus__slug=build["gpu"])
        .select_related("cpu", "platform")
        .distinct()
    )
    mode = (quote.workload or {}).get("mode")
    for recipe in recipes:
        if mode and not getattr(recipe, f"for_{mode}", True):
            continue
        differences = []
        if recipe.cpu.slug != build["cpu"]:
            differences.append(("cpu", recipe.cpu.slug, build["cpu"]))
        if recipe.platform and recipe.platform.slug != build["platform"]:
            differences.append(("platform", recipe.platform.slug, build["platform"]))
        low, high = _count_range(recipe.gpu_count)
        if low is not None and not low <= gpu_count <= high:
            differences.append(("gpu_count", recipe.gpu_count, gpu_count))
        if build["memory_gb"] < recipe.memory_gb:
            differences.append(("memory_gb", recipe.memory_gb, build["memory_gb"]))
        rows.append({"recipe": recipe, "differences": differences})
    return rows
