"""A re-quoted issued quote is superseded: still readable through its link, never accepted."""

import importlib
import io
import re
from urllib.parse import unquote

import pytest
from django.apps import apps
from django.test import Client
from django.utils import translation
from pypdf import PdfReader

from configurator.quotes import links, services
from configurator.quotes.models import Quote, Status

pytestmark = pytest.mark.django_db


@pytest.fixture
def superseded(make_issued, presales):
    """An issued quote, re-quoted: (the original, its new draft revision)."""
    original = make_issued()
    revision = services.quote_requote(quote=original, user=presales)
    original.refresh_from_db()
    return original, revision


def customer_page(quote: Quote, **headers) -> str:
    response = Client().get(f"/quotes/c/{links.customer_token(quote)}/", **headers)
    assert response.status_code == 200
    return response.content.decode()


# The service ---------------------------------------------------------------------------------


def test_re_quoting_an_issued_quote_supersedes_it_and_records_why(superseded):
    original, revision = superseded
    assert original.status == Status.SUPERSEDED
    event = original.events.last()
    assert (event.action, event.from_status, event.to_status) == (
        "supersede",
        "issued",
        "superseded",
    )
    assert event.by.username == "presales"
    assert event.comment == f"Replaced by {revision.number}"
    assert original.newer_revision == revision and revision.status == Status.DRAFT


def test_a_superseded_quote_cannot_be_accepted(superseded, presales):
    original, revision = superseded
    with pytest.raises(services.TransitionRefused) as refused:
        services.quote_accept(quote=original, user=presales)
    assert refused.value.status == 409
    assert refused.value.errors == {
        "action": [
            f"Quote {original.number} was replaced by {revision.number}: it cannot be accepted "
            f"any more; work on {revision.number} instead."
        ]
    }
    original.refresh_from_db()
    assert original.status == Status.SUPERSEDED
    assert original.events.last().action == "supersede"


def test_a_superseded_quote_is_neither_cancelled_nor_re_quoted_again(superseded, presales):
    original, _ = superseded
    with pytest.raises(services.TransitionRefused):
        services.quote_cancel(quote=original, user=presales)
    with pytest.raises(services.TransitionRefused) as refused:
        services.quote_requote(quote=original, user=presales)
    assert refused.value.errors == {"quote": ["This quote already has a newer revision."]}
    assert Quote.objects.count() == 2


def test_a_superseded_quote_does_not_expire(superseded):
    original, _ = superseded
    assert services.quotes_expire(today=original.valid_until.replace(year=2100)) == 0
    original.refresh_from_db()
    assert original.status == Status.SUPERSEDED


def test_only_an_issued_original_is_superseded(make_issued, presales):
    issued = make_issued()
    accepted = services.quote_accept(quote=make_issued(), user=presales)
    for quote in (issued, accepted):
        services.quote_requote(quote=quote, user=presales)
        quote.refresh_from_db()
    assert (issued.status, accepted.status) == (Status.SUPERSEDED, Status.ACCEPTED)


def test_the_status_is_named_in_chinese():
    with translation.override("zh-hans"):
        assert str(Status.SUPERSEDED.label) == "已被取代"


# The pages -----------------------------------------------------------------------------------


def test_the_staff_page_shows_it_superseded_and_offers_no_step(presales_client, superseded):
    original, revision = superseded
    response = presales_client.get(f"/quotes/{original.number}/")
    html = response.content.decode()
    assert '<span class="status status-superseded">superseded</span>' in html
    assert f'revised by <a href="/quotes/{revision.number}/">{revision.number}</a>' in html
    assert response.context["actions"] == []
    assert "Replaced by " + revision.number in html  # the history


def test_recording_acceptance_on_the_page_is_refused_with_the_reason(presales_client, superseded):
    original, revision = superseded
    response = presales_client.post(f"/quotes/{original.number}/transition/", {"action": "accept"})
    assert response.status_code == 409
    assert f"was replaced by {revision.number}" in response.content.decode()
    original.refresh_from_db()
    assert original.status == Status.SUPERSEDED


def test_the_list_filters_superseded_quotes(presales_client, superseded):
    original, _ = superseded
    quotes = presales_client.get("/quotes/?status=superseded").context["quotes"]
    assert list(quotes) == [original]


# The API -------------------------------------------------------------------------------------


def test_the_api_reads_it_superseded_and_refuses_acceptance(presales_client, superseded):
    original, revision = superseded
    read = presales_client.get(f"/api/v1/quotes/{original.number}").json()
    assert read["status"] == "superseded" and read["next"] == revision.number
    assert read["history"][-1]["action"] == "supersede"
    assert read["customer_url"].endswith(f"/quotes/c/{links.customer_token(original)}/")
    assert presales_client.get(f"/api/v1/quotes/{revision.number}").json()["previous"] == (
        original.number
    )
    refused = presales_client.post(
        f"/api/v1/quotes/{original.number}/transition",
        {"action": "accept"},
        content_type="application/json",
    )
    assert refused.status_code == 409
    assert "was replaced by" in refused.json()["errors"]["action"][0]


# The customer's link -------------------------------------------------------------------------


def test_the_old_link_opens_it_read_only_marked_as_replaced(superseded):
    original, revision = superseded
    html = customer_page(original)
    assert f"This quotation was replaced by quotation {revision.number}." in html
    assert "can no longer be accepted" in html
    assert "Your presales contact will send you the new quotation." in html
    # The draft revision is not the customer's yet: no link to it, nor to the staff page.
    tokens = {unquote(token) for token in re.findall(r"/quotes/c/([^/\"]+)/", html)}
    assert tokens == {links.customer_token(original)}  # its own (sign-in and language links)
    assert f"/quotes/{revision.number}/" not in html
    assert "<form" not in html.split("</header>", 1)[-1]  # nothing to press but the PDF


def test_once_the_revision_is_issued_the_old_link_leads_to_it(superseded, presales, architect):
    original, revision = superseded
    services.quote_submit(quote=revision, user=presales)
    services.quote_approve(quote=revision, user=architect)
    revision = services.quote_issue(quote=revision, user=presales)
    html = customer_page(original)
    token = links.customer_token(revision)
    assert f'<a href="/quotes/c/{token}/">Open quotation {revision.number}</a>' in html


def test_the_old_link_speaks_chinese(superseded):
    original, revision = superseded
    html = customer_page(original, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert f"此报价单已被报价单 {revision.number} 取代。" in html
    assert "已被取代" in html


def test_the_pdf_of_the_old_link_is_marked_superseded_in_both_languages(superseded):
    original, revision = superseded
    token = links.customer_token(original)
    response = Client().get(f"/quotes/c/{token}/?pdf=1")
    assert response["Content-Type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    text = re.sub(r"\s+", " ", text)
    assert f"Superseded: replaced by quotation {revision.number}." in text
    assert f"已被取代：由报价单 {revision.number} 替代" in text


# Quotes re-quoted before this status existed ---------------------------------------------------

migration = importlib.import_module("configurator.quotes.migrations.0004_quote_superseded")


def test_an_issued_quote_re_quoted_before_the_upgrade_is_superseded_by_it(superseded):
    original, revision = superseded
    Quote.objects.filter(pk=original.pk).update(status=Status.ISSUED)  # as the old code left it
    original.events.filter(action="supersede").delete()

    migration.supersede_requoted(apps, None)

    original.refresh_from_db()
    assert original.status == Status.SUPERSEDED
    assert original.events.last().comment == f"Replaced by {revision.number}"
    assert Quote.objects.get(pk=revision.pk).status == Status.DRAFT
