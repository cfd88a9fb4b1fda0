"""Every refusal on the quote pages says its message where the button was pressed; a cancel is
confirmed first; a lead's status follows its quotes; a waiting owner's panel updates itself."""

import pytest

from configurator.quotes import services
from configurator.quotes.models import Lead, Quote, Status
from configurator.schemas import BuildIn, WorkloadIn
from tests.quotes.conftest import CUSTOMER, GOOD_BUILD, WORKLOAD
from tests.quotes.test_pages import FORM

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
P7_BUILD = {**GOOD_BUILD, "psu_watts": 2000}  # two 2,000 W units, 1+1: short of the GPUs' draw


def transition(client, quote, action, **data):
    return client.post(f"/quotes/{quote.number}/transition/", {"action": action, **data}, **HTMX)


def test_a_refused_submit_answers_its_message_in_the_panel(presales_client, make_quote):
    quote = make_quote(P7_BUILD)
    response = transition(presales_client, quote, "submit")
    assert response.status_code == 409
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="quote-panel"')  # what htmx swaps in place
    assert "The build fails P7: fix it before submitting." in html and 'role="alert"' in html
    assert "Edit the parts and terms" in html  # and the way to fix it
    quote.refresh_from_db()
    assert quote.status == Status.DRAFT


def test_htmx_swaps_the_refusals_the_pages_answer(client):
    """The answers are swapped in only if htmx is told to: 400, 403, 409 and 429 are."""
    html = client.get("/configure/").content.decode()
    assert '"code": "4(00|03|09|29)", "swap": true, "error": false' in html


def test_no_script_replaces_the_page_with_a_refusal_in_development(client, settings):
    # django-htmx's debug script shows any 400 or 403 as a whole page, in DEBUG: a form's
    # answer would leave the configurator (issue 20). The pages load htmx alone.
    settings.DEBUG = True
    html = client.get("/configure/").content.decode()
    assert "htmx-2.min.js" in html and "django-htmx.js" not in html


def test_a_step_the_role_may_not_take_answers_403_in_the_panel(presales_client, make_quote):
    quote = make_quote()
    services.quote_submit(quote=quote, user=quote.owner)
    response = transition(presales_client, quote, "approve")
    assert response.status_code == 403
    assert "Your role may not do this: approved." in response.content.decode()
    assert response.content.decode().lstrip().startswith('<section id="quote-panel"')


def test_a_refusal_without_javascript_is_the_quotes_page_with_the_message(
    presales_client, make_quote
):
    quote = make_quote(P7_BUILD)
    response = presales_client.post(f"/quotes/{quote.number}/transition/", {"action": "submit"})
    assert response.status_code == 409
    assert "<html" in response.content.decode()
    assert "The build fails P7" in response.content.decode()


def test_a_refusal_in_the_review_queue_is_said_in_the_queue(architect_client, make_quote):
    quote = make_quote()
    services.quote_submit(quote=quote, user=quote.owner)
    response = architect_client.post(
        f"/quotes/{quote.number}/transition/", {"action": "return", "next": "review"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Review queue" in html and f"{quote.number}</a>: Say what to change" in html
    assert f'id="review-{quote.number}"' in html  # still waiting in the queue


def test_cancel_asks_first_and_the_confirmation_cancels(presales_client, make_quote):
    quote = make_quote()
    asked = transition(presales_client, quote, "cancel", comment="The customer went elsewhere.")
    assert asked.status_code == 200
    html = asked.content.decode()
    assert f"Cancel quote {quote.number}?" in html and "Yes, cancel the quote" in html
    assert 'value="The customer went elsewhere."' in html  # the comment travels with it
    quote.refresh_from_db()
    assert quote.status == Status.DRAFT
    done = transition(presales_client, quote, "cancel", confirmed="true",
                      comment="The customer went elsewhere.")  # fmt: skip
    assert done.status_code == 200
    quote.refresh_from_db()
    assert quote.status == Status.CANCELLED
    assert quote.events.last().comment == "The customer went elsewhere."


def test_cancel_is_confirmed_without_javascript_too(presales_client, make_quote):
    quote = make_quote()
    url = f"/quotes/{quote.number}/transition/"
    page = presales_client.post(url, {"action": "cancel"})
    assert page.status_code == 200 and "<html" in page.content.decode()
    assert 'name="confirmed" value="true"' in page.content.decode()
    assert "csrfmiddlewaretoken" in page.content.decode()  # a plain form that posts
    assert presales_client.post(url, {"action": "cancel", "confirmed": "true"}).status_code == 302
    quote.refresh_from_db()
    assert quote.status == Status.CANCELLED


def test_the_cancel_button_is_not_the_primary_one(presales_client, make_quote):
    quote = make_quote()
    html = presales_client.get(f"/quotes/{quote.number}/").content.decode()
    assert '<button name="action" value="submit" class="primary">' in html
    assert '<button name="action" value="cancel" class="danger">' in html


def test_create_and_submit_sends_a_passing_build_to_review(presales_client):
    response = presales_client.post("/quotes/new/", {**FORM, "then": "submit"})
    assert response.status_code == 302
    assert Quote.objects.get().status == Status.SUBMITTED


def test_create_and_submit_keeps_a_failing_draft_and_says_why(presales_client):
    import json

    data = {**FORM, "build": json.dumps(P7_BUILD), "then": "submit"}
    response = presales_client.post("/quotes/new/", data, follow=True)
    quote = Quote.objects.get()
    assert quote.status == Status.DRAFT
    html = response.content.decode()
    assert "Saved, but not submitted: The build fails P7" in html


def test_the_waiting_owner_asks_whether_the_status_changed(presales_client, make_quote, architect):
    quote = make_quote()
    services.quote_submit(quote=quote, user=quote.owner)
    page = presales_client.get(f"/quotes/{quote.number}/").content.decode()
    assert f'hx-get="/quotes/{quote.number}/?since=submitted"' in page
    asked = presales_client.get(f"/quotes/{quote.number}/", {"since": "submitted"}, **HTMX)
    assert asked.status_code == 204  # nothing new: htmx leaves the panel
    services.quote_approve(quote=quote, user=architect)
    asked = presales_client.get(f"/quotes/{quote.number}/", {"since": "submitted"}, **HTMX)
    assert asked.status_code == 200 and "Issue to the customer" in asked.content.decode()
    assert "since=" not in asked.content.decode()  # approved: it waits on nobody else now


def quote_from(saved, owner):
    return services.quote_create(
        owner=owner, customer=services.Customer(**CUSTOMER),
        build=BuildIn.model_validate(GOOD_BUILD), workload=WorkloadIn.model_validate(WORKLOAD),
        saved_build=saved,
    )  # fmt: skip


def status_of(lead) -> str:
    lead.refresh_from_db()
    return lead.status


def test_the_lead_is_drafting_until_its_quote_is_issued(lead_with_build, presales, architect):
    lead, saved = lead_with_build
    quote = quote_from(saved, presales)
    assert status_of(lead) == Lead.Status.DRAFTING
    services.quote_submit(quote=quote, user=presales)
    services.quote_approve(quote=quote, user=architect)
    assert status_of(lead) == Lead.Status.DRAFTING
    services.quote_issue(quote=quote, user=presales)
    assert status_of(lead) == Lead.Status.QUOTED
    revision = services.quote_requote(quote=quote, user=presales)
    assert status_of(lead) == Lead.Status.DRAFTING  # the offer out there is superseded
    services.quote_cancel(quote=revision, user=presales)
    assert status_of(lead) == Lead.Status.IN_PROGRESS  # nothing the customer can accept


def test_the_lead_stays_quoted_while_an_alternative_is_drafted(
    lead_with_build, presales, architect
):
    lead, saved = lead_with_build
    issued = quote_from(saved, presales)
    services.quote_submit(quote=issued, user=presales)
    services.quote_approve(quote=issued, user=architect)
    services.quote_issue(quote=issued, user=presales)
    quote_from(saved, presales)  # a second offer, not a revision: the first still holds
    assert status_of(lead) == Lead.Status.QUOTED


def test_an_expired_quote_leaves_its_lead_quoted(lead_with_build, presales, architect):
    import datetime

    lead, saved = lead_with_build
    quote = quote_from(saved, presales)
    services.quote_submit(quote=quote, user=presales)
    services.quote_approve(quote=quote, user=architect)
    services.quote_issue(quote=quote, user=presales)
    later = quote.valid_until + datetime.timedelta(days=1)
    assert services.quotes_expire(today=later) == 1
    assert status_of(lead) == Lead.Status.QUOTED


def test_the_inbox_counts_drafting_leads(presales_client, lead_with_build, presales):
    _, saved = lead_with_build
    quote_from(saved, presales)
    page = presales_client.get("/presales/?status=drafting").content.decode()
    assert "drafting a quote" in page and "Example AI Ltd" in page
