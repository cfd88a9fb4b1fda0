"""Read a configurator request: the build and workload a query string (a permalink) names."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import QueryDict

from configurator import selectors
from configurator.engine.catalog import Catalog
from configurator.engine.sentence import MAX_SENTENCE, Reading, read_sentence
from configurator.web import services
from configurator.web.configuration import (
    PAGE_FIELDS,
    WORKLOAD_FIELDS,
    Configuration,
    WorkloadChoice,
    query_value,
)
from configurator.web.forms import (
    SENTENCE,
    ConfigurationForm,
    PickForm,
    SentenceForm,
    WorkloadForm,
)
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
    reading: Reading | None = None  # what the customer's sentence set, when one was read
    sentence: str = ""  # the sentence as typed (kept in its input, read or not)


def read_query(query: QueryDict, *, snapshot: services.Snapshot | None = None) -> Request:
    """Return the build a query string names, on its platform, and the workload it carries.

    An empty query opens the default recipe; `start=S1..S3` opens a recipe; fields given
    override the starting build's, so a permalink reopens exactly its build.
    """
    snapshot = snapshot or selectors.snapshots()
    catalog, _ = snapshot
    sentence = SentenceForm(query)
    query, reading = read_sentence_query(query, sentence, catalog.offered)
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
    for each in (form, workload_form, pick_form, sentence):
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
        reading=reading,
        sentence=query.get(SENTENCE, "")[: 2 * MAX_SENTENCE],
    )


def read_sentence_query(
    query: QueryDict, form: SentenceForm, catalog: Catalog
) -> tuple[QueryDict, Reading | None]:
    """Return the query a customer's sentence stands for, and what was read from it.

    A query with `sentence` is a new start: the workload is what the sentence says (the
    fields it sets, as if typed; no other workload or build field of the query counts) and
    the recommender is asked for builds (`start=recommend`); `pick` and the sentence are kept,
    so a card's link reads it again. A sentence the form refuses (too long) is not read.
    """
    text = form.cleaned_data.get(SENTENCE, "") if form.is_valid() else ""
    if not text:
        return query, None
    reading = read_sentence(text, gpus=[(gpu.slug, gpu.name) for gpu in catalog.gpus])
    names = {f.name: f.query_name for f in PAGE_FIELDS}
    derived = QueryDict(mutable=True)
    for name, value in reading.values().items():
        derived[names[name]] = query_value(value)
    derived["start"] = "recommend"
    derived[SENTENCE] = text
    if "pick" in query:
        derived["pick"] = query["pick"]
    return derived, reading
