"""A results fragment drawn once is answered from the cache — never stale, never another's."""

from decimal import Decimal
from urllib.parse import urlencode

import pytest

from catalog.models import Gpu
from configurator.web import services
from tests.web.test_configure import LEGACY, page, submitted

pytestmark = pytest.mark.django_db


def results_change(client) -> str:
    """Return the query of a change that redraws only the results (another memory size)."""
    _, html = page(client, LEGACY + "&model_params_b=34&mode=train")
    values = submitted(html)
    _, html = page(client, urlencode(values), HTTP_HX_REQUEST="true")
    if '<form id="configure-form"' in html:
        values = submitted(html)
    values["memory_gb"] = "512"
    return urlencode(values)


def no_drawing(monkeypatch):
    def refuse(**kwargs):
        raise AssertionError("the build was evaluated again")

    monkeypatch.setattr(services, "configuration_assess", refuse)


def test_a_change_seen_before_is_answered_from_the_cache_unchanged(client, monkeypatch):
    query = results_change(client)
    first, drawn = page(client, query, HTTP_HX_REQUEST="true")
    assert first["HX-Retarget"] == "#results"
    no_drawing(monkeypatch)
    again, kept = page(client, query, HTTP_HX_REQUEST="true")
    assert kept == drawn
    for header in ("HX-Retarget", "HX-Reswap", "HX-Push-Url"):
        assert again[header] == first[header]
    assert "HX-Request" in again["Vary"]


def test_a_catalog_edit_is_never_answered_from_an_old_fragment(client):
    query = results_change(client)
    _, before = page(client, query, HTTP_HX_REQUEST="true")
    gpu = Gpu.objects.get(slug="h100-80g-pcie")
    gpu.monthly_price = Decimal("99999")
    gpu.save()
    _, after = page(client, query, HTTP_HX_REQUEST="true")
    assert after != before
    assert "99,999" in after


def test_each_language_has_its_own_fragment(client):
    query = results_change(client)
    _, english = page(client, query, HTTP_HX_REQUEST="true")
    _, chinese = page(client, query, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "Bill of materials" in english
    assert "Bill of materials" not in chinese


def test_the_full_page_and_the_whole_region_are_never_kept(client, monkeypatch):
    query = results_change(client)
    page(client, query)
    page(client, LEGACY, HTTP_HX_REQUEST="true")
    no_drawing(monkeypatch)
    with pytest.raises(AssertionError, match="evaluated again"):
        page(client, query)
    with pytest.raises(AssertionError, match="evaluated again"):
        page(client, LEGACY, HTTP_HX_REQUEST="true")


def test_the_results_fragment_carries_no_session_or_form_token(client):
    """What is kept must be the same for everyone: the comparison tray, the CSRF token and the
    quote form sit outside it, and only the permalink they carry is updated out of band."""
    client.post("/configure/compare/", {"build": LEGACY})
    _, fragment = page(client, results_change(client), HTTP_HX_REQUEST="true")
    assert "csrfmiddlewaretoken" not in fragment
    assert 'id="compare-tray"' not in fragment
    assert 'name="email"' not in fragment
    for target in ('id="permalink-row" hx-swap-oob="true"',
                   'id="compare-build" value="cpu=', 'id="quote-build" value="cpu='):  # fmt: skip
        assert target in fragment
    assert 'id="quote-build" value="cpu=xeon-e5-2680-v4' in fragment
    assert "memory_gb=512" in fragment.split('id="quote-build"')[1].split(">")[0]


def test_a_repeated_field_is_read_as_the_view_reads_it_the_last_value(client):
    """`memory_gb=512&memory_gb=1024` and the reverse are two builds: never one kept fragment."""
    base = results_change(client).replace("memory_gb=512", "memory_gb=512&memory_gb=1024")
    first, _ = page(client, base, HTTP_HX_REQUEST="true")
    swapped = base.replace("memory_gb=512&memory_gb=1024", "memory_gb=1024&memory_gb=512")
    second, _ = page(client, swapped, HTTP_HX_REQUEST="true")
    assert "memory_gb=1024" in first["HX-Push-Url"]
    assert "memory_gb=512" in second["HX-Push-Url"]


def test_the_results_answer_varies_on_the_language_cookie(client):
    response, _ = page(client, results_change(client), HTTP_HX_REQUEST="true")
    assert "Cookie" in response["Vary"] and "HX-Request" in response["Vary"]
