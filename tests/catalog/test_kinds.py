"""One list of kinds: a kind of part added to the catalog reaches every surface, or a test says
which one it missed. Every test here is parametrized over KINDS, so a new kind is tested too."""

from dataclasses import fields
from decimal import Decimal
from typing import get_type_hints

import pytest
from django import forms
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse

from catalog.kinds import KINDS, KINDS_BY_LINE, Kind
from catalog.models import CatalogItem
from configurator import selectors
from configurator.engine.catalog import KIND_KEYS, Catalog
from configurator.quotes.selectors import quote_bom
from configurator.revisions import CATALOG, revision_tokens
from configurator.roles import ARCHITECTS, PRESALES
from configurator.schemas import BuildIn
from configurator.web.configuration import Configuration
from configurator.web.presenters import KIND_LABELS
from configurator.web.pricing import bill_of_materials

pytestmark = pytest.mark.django_db

by_key = pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.key)
RELATIONS = [(kind, name) for kind in KINDS for name in kind.relations]


def seeded(kind: Kind) -> CatalogItem:
    item = kind.model.objects.order_by("pk").first()
    assert item is not None, f"seed at least one {kind.model.__name__} (catalog/migrations)"
    return item


def catalog_token() -> str:
    return revision_tokens()[CATALOG]


def test_every_part_model_of_the_catalog_is_a_kind():
    parts = {
        model
        for model in apps.get_app_config("catalog").get_models()
        if issubclass(model, CatalogItem)
    }
    assert parts == {kind.model for kind in KINDS}


def test_kinds_are_named_once_each_on_every_surface():
    for name in ("key", "line", "model"):
        values = [getattr(kind, name) for kind in KINDS]
        assert len(set(values)) == len(values), name


def test_every_kind_is_a_field_of_the_engine_catalog_holding_its_engine_part():
    assert {kind.key for kind in KINDS} == set(KIND_KEYS)
    hints = get_type_hints(Catalog)
    for kind in KINDS:
        assert hints[kind.key] == tuple[kind.engine, ...], kind.key


@by_key
def test_every_kind_names_model_fields_on_its_lists(kind):
    names = {field.name for field in kind.model._meta.get_fields()}
    assert set(kind.specs) <= names
    assert set(kind.admin_columns) <= names
    assert set(kind.admin_filters) <= names


@by_key
def test_every_kind_has_an_admin_list_that_imports_and_exports_its_sheet(kind, architect_client):
    model_admin = admin.site._registry[kind.model]
    assert model_admin.resource_classes == [kind.resource]
    assert kind.resource._meta.model is kind.model
    name = kind.model._meta.model_name
    assert architect_client.get(reverse(f"admin:catalog_{name}_changelist")).status_code == 200
    # Its own export imported again changes nothing and refuses nothing.
    sheet = kind.resource().export(queryset=kind.model.objects.order_by("pk"))
    result = kind.resource().import_data(sheet, dry_run=True)
    assert not result.has_errors() and not result.has_validation_errors()
    assert {row.import_type for row in result.rows} == {"skip"}


@by_key
def test_architects_change_and_presales_read_every_kind(kind):
    name = kind.model._meta.model_name
    architects = Group.objects.get(name=ARCHITECTS).permissions.values_list("codename", flat=True)
    presales = Group.objects.get(name=PRESALES).permissions.values_list("codename", flat=True)
    assert {f"{action}_{name}" for action in ("add", "change", "delete", "view")} <= set(architects)
    assert f"view_{name}" in set(presales)
    assert f"change_{name}" not in set(presales)


def admin_form_data(model_admin, request, item) -> dict[str, object]:
    """Return the admin change form's fields as the browser posts them, unchanged."""
    form = model_admin.get_form(request, item)(instance=item)
    data: dict[str, object] = {"_save": "Save"}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        elif isinstance(value, list | tuple):
            data[name] = [str(v) for v in value]
        else:
            data[name] = "" if value is None else value
    return data


@by_key
def test_an_admin_edit_of_any_kind_renews_the_catalog_and_the_next_answers_show_it(
    kind, architect_client, rf, architect
):
    item = seeded(kind)
    selectors.snapshots()  # a snapshot to go stale
    before = catalog_token()
    request = rf.get("/")
    request.user = architect
    data = admin_form_data(admin.site._registry[kind.model], request, item)
    data["name"] = f"{item.name} (edited)"
    url = reverse(f"admin:catalog_{kind.model._meta.model_name}_change", args=[item.pk])
    response = architect_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert catalog_token() != before
    part = selectors.snapshots()[0].everything.find(kind.key, item.slug)
    assert part.name == f"{item.name} (edited)"
    listed = architect_client.get("/api/v1/catalog").json()[kind.key]
    assert f"{item.name} (edited)" in {entry["name"] for entry in listed}


@pytest.mark.parametrize(
    "kind, relation", RELATIONS, ids=lambda value: getattr(value, "key", value)
)
def test_a_change_to_a_kinds_relation_renews_the_catalog(kind, relation):
    item = seeded(kind)
    before = catalog_token()
    getattr(item, relation).clear()
    assert catalog_token() != before


@by_key
def test_every_item_of_every_kind_becomes_its_engine_part(kind):
    for row in kind.model.objects.all():
        part = selectors.snapshots()[0].everything.find(kind.key, row.slug)
        assert isinstance(part, kind.engine)
        assert (part.slug, part.name) == (row.slug, row.name)
        assert part.monthly_price == float(row.monthly_price)
        same = {f.name for f in fields(kind.engine)} & {f.name for f in kind.model._meta.fields}
        for name in same - set(kind.engine_fields(row)):
            value = getattr(row, name)
            assert getattr(part, name) == (float(value) if isinstance(value, Decimal) else value)


@by_key
def test_every_kind_is_on_the_home_page_and_in_the_api_with_its_specs(kind, client):
    item = seeded(kind)
    page = client.get("/", {"kind": kind.key}).content.decode()
    assert str(kind.label) in page
    listed = {entry["slug"]: entry for entry in client.get("/api/v1/catalog").json()[kind.key]}
    assert set(kind.specs) <= set(listed[item.slug])
    for relation in kind.relations:  # by slug
        slugs = [related.slug for related in getattr(item, relation).all()]
        assert listed[item.slug][relation] == slugs


# A build with a part of every kind (a new kind's part goes here too).
EVERY_KIND = {
    "cpu": "xeon-gold-6530",
    "cpu_count": 2,
    "gpu": "a800-80g-pcie",
    "gpu_count": 8,
    "gpus_per_socket": [4, 4],
    "memory_gb": 768,
    "memory_ecc": True,
    "psu_watts": 4400,
    "nvlink": True,
    "platform": "smc-sys-421ge-tnrt",
    "nics": 2,
    "nic": "cx7-ndr-400g-osfp",
}


def test_the_quotes_frozen_bom_has_a_line_of_every_kind_with_its_specs():
    lines, _ = quote_bom(build=BuildIn.model_validate(EVERY_KIND))
    assert {line["kind"] for line in lines} == set(KINDS_BY_LINE)
    for line in lines:
        assert set(line["specs"]) == set(KINDS_BY_LINE[line["kind"]].specs)


def test_the_configurators_bill_names_every_kind_in_words():
    build = {**EVERY_KIND, "gpus_per_socket": (4, 4)}
    bill = bill_of_materials(Configuration(**build), selectors.snapshots()[0].offered)
    assert {line.kind for line in bill.lines} == set(KINDS_BY_LINE)
    assert set(KIND_LABELS) == set(KINDS_BY_LINE)
    assert {kind.line: kind.line_label for kind in KINDS} == KIND_LABELS
