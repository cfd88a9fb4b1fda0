"""Read a configurator request: the build and workload a query string (a permalink) names."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import QueryDict

from configurator import selectors
from configurator.web import services
from configurator.web.configuration import WORKLOAD_FIELDS, Configuration, WorkloadChoice
from configurator.web.forms import ConfigurationForm, PickForm, WorkloadForm
from configurator.web.options import Adjustment, conform


@dataclass(frozen=True)
class Request:
    config: Configuration
    workload: WorkloadChoice | None
    adjustments: list[Adjustment]
    errors: dict[str, list[str]]  # form errors by field name
    prefer_gpu: str
    start: str  # "", a recipe code, or "recommend"
    workload_values: dict[str, str]  # as typed, so an unfinished workload is not lost
    pick: int = 0  # which recommended build to show (a bad `pick` is in `errors`)


def read_query(query: QueryDict, *, snapshot: services.Snapshot | None = None) -> Request:
    """Return the build a query string names, on its platform, and the workload it carries.

    An empty query opens the default recipe; `start=S1..S3` opens a recipe; fields given
    override the starting build's, so a permalink reopens exactly its build.
    """
    snapshot = snapshot or selectors.snapshots()
    catalog, _ = snapshot
    start = query.get("start", "")
    base = None
    if start and start != "recommend":
        base = services.configuration_from_recipe(start, snapshot=snapshot)
    form = ConfigurationForm(query)
    form.is_valid()
    if base is None:
        base = services.configuration_from_recipe(services.DEFAULT_RECIPE, snapshot=snapshot)
    if start and start != "recommend":
        config = base  # a recipe replaces the build on screen
    else:

        def has_nvlink(slug: str) -> bool:
            gpu = catalog.everything.find("gpus", slug)
            return bool(gpu and gpu.has_nvlink)

        config = form.configuration(base, gpu_has_nvlink=has_nvlink)
    config, adjustments = conform(config, catalog.everything)
    workload_form = WorkloadForm(query, catalog=catalog.everything)
    workload_form.is_valid()
    pick_form = PickForm(query)
    pick_form.is_valid()
    errors = {}
    for each in (form, workload_form, pick_form):
        errors.update({name: list(messages) for name, messages in each.errors.items()})
    workload = workload_form.workload() if not workload_form.errors else None
    values = {name: query.get(name, "")[:40] for name in WORKLOAD_FIELDS}
    if workload is not None:
        values = dict(workload.query())
    return Request(
        config=config,
        workload=workload,
        workload_values=values,
        adjustments=adjustments if form.has_build() else [],
        errors=errors,
        prefer_gpu=workload_form.cleaned_data.get("prefer_gpu", "")
        if workload_form.is_bound
        else "",
        start=start,
        pick=pick_form.cleaned_data.get("pick") or 0,
    )
