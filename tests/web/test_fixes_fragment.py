"""Over htmx the results leave each failing or warning check's fix to a request of its own
(`/configure/fixes/`): its text is the change "Apply fix" makes, it is kept like a results
fragment, it speaks the request's language, and without htmx the page shows the fixes itself."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.utils import translation
from django.utils.html import escape

from configurator import selectors
from configurator.translation import localize
from configurator.web import services
from configurator.web.presenters import fixes_tag
from configurator.web.services import configuration_fixes, permalink_query
from tests.web.test_fixes import BAD_BUILDS, LEGACY, TRAIN_34B, URL, conformed

pytestmark = pytest.mark.django_db

FIXES_URL = "/configure/fixes/"


@pytest.fixture
def snapshot():
    return selectors.snapshots()


def fixes_fragment(client, query: str, **headers):
    response = client.get(f"{FIXES_URL}?{query}", HTTP_HX_REQUEST="true", **headers)
    assert response.status_code == 200, response.content[:500]
    return response, response.content.decode()


def slots(html: str) -> dict[str, str]:
    """Return each fix slot's content by check code."""
    found = re.findall(r'<div class="fix-slot" id="fix-\w+-(\w+)"[^>]*>(.*?)</div>', html, re.S)
    return dict(found)


def test_the_htmx_results_leave_a_slot_and_load_the_fixes_of_their_build(client):
    query = permalink_query(LEGACY, None)
    html = client.get(f"{URL}?{query}", HTTP_HX_REQUEST="true").content.decode()
    tag = fixes_tag(query)
    assert f'id="fix-{tag}-P1"></div>' in html  # empty until the fixes come
    assert f'hx-get="{FIXES_URL}?{escape(query)}" hx-trigger="load" hx-swap="none"' in html
    assert "Apply fix for P1" not in html


def test_each_fix_shown_is_the_change_its_link_applies(client, snapshot):
    config = conformed(LEGACY, snapshot)
    query = permalink_query(config, TRAIN_34B)
    fixes = configuration_fixes(config=config, workload=TRAIN_34B, snapshot=snapshot)
    assert fixes
    response, html = fixes_fragment(client, query)
    shown = slots(html)
    assert f'id="fix-{fixes_tag(query)}-' in html and 'hx-swap-oob="true"' in html
    for code, fix in fixes.items():
        text = str(fix.change.message())
        assert escape(text) in shown[code]
        link = f"{URL}?{query}&fix={code}"
        assert f'href="{escape(link)}"' in shown[code]
        applied = client.get(link)  # what the link does, without htmx
        assert urlsplit(applied["Location"]).query == permalink_query(fix.config, TRAIN_34B)
        over_htmx = client.get(link, HTTP_HX_REQUEST="true").content.decode()
        assert escape(f"Applied the fix for {code}: {text}.") in over_htmx
    assert "HX-Request" in response["Vary"]


def test_a_failing_check_without_a_fix_gets_its_slot_emptied(client, snapshot):
    config, workload, _ = BAD_BUILDS["8 × RTX 4090, 70B full training"]
    query = permalink_query(config, workload)
    shown = slots(fixes_fragment(client, query)[1])
    assert shown["P5"].strip() == ""  # fails, but no single change clears it


def test_the_fixes_are_kept_like_a_results_fragment(client, monkeypatch):
    query = permalink_query(LEGACY, None)
    _, drawn = fixes_fragment(client, query)

    def refuse(**kwargs):
        raise AssertionError("the fixes were searched again")

    monkeypatch.setattr(services, "configuration_fixes", refuse)
    monkeypatch.setattr(services, "configuration_assess", refuse)
    again, kept = fixes_fragment(client, query)
    assert kept == drawn
    assert "HX-Request" in again["Vary"]


def test_the_fixes_speak_the_request_s_language(client, snapshot):
    query = permalink_query(LEGACY, TRAIN_34B)
    fix = configuration_fixes(config=LEGACY, workload=TRAIN_34B, snapshot=snapshot)["P5"]
    _, english = fixes_fragment(client, query)
    client.cookies["django_language"] = "zh-hans"
    _, chinese = fixes_fragment(client, query)
    with translation.override("en"):
        assert escape(localize(fix.change.message())) in slots(english)["P5"]
    with translation.override("zh-hans"):
        assert escape(localize(fix.change.message())) in slots(chinese)["P5"]
    assert "配置 NVLink" in slots(chinese)["P5"] and "为此还需改用" in chinese
    assert "Apply fix for P5" in english and "Apply fix for P5" not in chinese


def test_without_htmx_the_fixes_address_opens_the_page(client):
    query = permalink_query(LEGACY, None)
    response = client.get(f"{FIXES_URL}?{query}")
    assert response.status_code == 302
    assert response["Location"] == f"{URL}?{query}"
    page = client.get(response["Location"]).content.decode()
    assert "Apply fix for P1" in page  # the page without JavaScript shows them inline
