"""Reads of the catalog."""

from django.db.models import QuerySet

from catalog.kinds import Kind


def catalog_items(kind: Kind, *, offered_only: bool = True) -> QuerySet:
    """Return the items of one kind, cheapest first within each vendor."""
    items = kind.model.objects.all()
    if offered_only:
        items = items.filter(offered=True)
    items = items.prefetch_related(*kind.relations)
    return items.order_by("vendor", "monthly_price", "name")


def item_specs(kind: Kind, item) -> list[tuple[str, object]]:
    """Return (label, display value) for each spec of an item."""
    specs = []
    for name in kind.specs:
        field = kind.model._meta.get_field(name)
        display = getattr(item, f"get_{name}_display", None)
        specs.append((str(field.verbose_name), display() if display else getattr(item, name)))
    return specs
