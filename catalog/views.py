"""The home page: the catalog, one kind at a time."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from catalog.kinds import KINDS, KINDS_BY_KEY
from catalog.selectors import catalog_items, item_specs


def home(request: HttpRequest) -> HttpResponse:
    """List the offered catalog, filtered by kind (?kind=gpus); htmx swaps only the table."""
    kind = KINDS_BY_KEY.get(request.GET.get("kind", ""), KINDS[1])
    rows = [(item, item_specs(kind, item)) for item in catalog_items(kind)]
    headers = [str(kind.model._meta.get_field(name).verbose_name) for name in kind.specs]
    template = "catalog/home.html"
    if request.htmx:
        template += "#catalog-table"
    return render(
        request,
        template,
        {"kinds": KINDS, "kind": kind, "rows": rows, "headers": headers},
    )
