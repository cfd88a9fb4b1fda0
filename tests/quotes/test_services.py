"""The quote workflow: what each role may do, in which order, and what is recorded."""

import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import call_command

from configurator.inputs import InputErrors
from configurator.quotes import services
from configurator.quotes.models import Quote, QuoteLocked, Status
from configurator.schemas import BuildIn

pytestmark = pytest.mark.django_db


def test_a_new_quote_is_a_numbered_draft_priced_from_the_catalog(make_quote, presales):
    quote = make_quote()
    assert quote.status == Status.DRAFT
    assert quote.number == f"Q-{quote.year}-{quote.sequence:06d}"
    kinds = [line["kind"] for line in quote.bom]
    assert kinds == ["platform", "cpu", "gpu", "memory", "psu"]
    list_price = sum(Decimal(line["monthly_price"]) for line in quote.bom)
    assert quote.list_monthly_price == list_price
    assert quote.monthly_price == (list_price * Decimal("0.95")).quantize(Decimal("0.01"))
    assert quote.term_price == quote.monthly_price * 12
    assert quote.evaluation["verdict"] == "accept"
    assert quote.evaluation["ruleset"]["parameters"]
    assert [e.action for e in quote.events.all()] == ["create"]


def test_the_memory_and_psus_are_the_cheapest_that_make_the_build(make_quote):
    quote = make_quote()
    memory = next(line for line in quote.bom if line["kind"] == "memory")
    psu = next(line for line in quote.bom if line["kind"] == "psu")
    assert memory["qty"] * memory["specs"]["capacity_gb"] == 768
    assert memory["qty"] == 16  # one DIMM on each of the 2 × 8 channels
    active = -(-4400 // psu["specs"]["rated_w"])
    assert psu["qty"] in (active + 1, 2 * active)  # N+1 or N+N
    assert quote.build["dimm_count"] == memory["qty"]


def test_numbers_follow_each_other(make_quote):
    first, second = make_quote(), make_quote()
    assert second.sequence == first.sequence + 1


def test_a_quote_without_a_platform_freezes_the_platform_the_bill_assumes(make_quote, good_build):
    del good_build["platform"]
    quote = make_quote(good_build)
    platform = next(line for line in quote.bom if line["kind"] == "platform")
    # The cheapest offered platform that takes 2 × Xeon Gold 6530 and 8 × A800 PCIe.
    assert quote.build["platform"] == platform["sku"] == "smc-sys-421ge-tnrt"


def test_a_quote_refuses_a_memory_size_no_population_gives(make_quote, good_build):
    with pytest.raises(InputErrors) as error:
        make_quote({**good_build, "memory_gb": 500})
    assert "build.memory_gb" in error.value.errors
    assert not Quote.objects.exists()


def test_full_workflow_records_every_step(make_quote, presales, architect):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    services.quote_approve(quote=quote, user=architect, comment="Balanced, go.")
    quote = services.quote_issue(quote=quote, user=presales)
    assert quote.status == Status.ISSUED and quote.issued_at
    quote = services.quote_accept(quote=quote, user=presales, comment="Signed 2026-12-01")
    events = list(quote.events.values_list("action", "to_status", "by__username", "comment"))
    assert events == [
        ("create", "draft", "presales", ""),
        ("submit", "submitted", "presales", ""),
        ("approve", "approved", "architect", "Balanced, go."),
        ("issue", "issued", "presales", ""),
        ("accept", "accepted", "presales", "Signed 2026-12-01"),
    ]


def test_a_failing_build_cannot_be_submitted(make_quote, bad_build, presales):
    quote = make_quote(bad_build)
    assert quote.evaluation["verdict"] == "reject"
    with pytest.raises(services.TransitionRefused) as refused:
        services.quote_submit(quote=quote, user=presales)
    assert refused.value.status == 409
    assert "build" in refused.value.errors
    quote.refresh_from_db()
    assert quote.status == Status.DRAFT
    assert quote.events.count() == 1


def test_presales_cannot_approve(make_quote, presales):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    with pytest.raises(services.TransitionRefused) as refused:
        services.quote_approve(quote=quote, user=presales)
    assert refused.value.status == 403


def test_a_second_approval_is_refused(make_quote, presales, architect):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    services.quote_approve(quote=quote, user=architect)
    with pytest.raises(services.TransitionRefused) as refused:
        services.quote_approve(quote=quote, user=architect)
    assert refused.value.status == 409
    assert quote.events.filter(action="approve").count() == 1


def test_returning_needs_a_comment_and_the_owner_resubmits(make_quote, presales, architect):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    with pytest.raises(InputErrors):
        services.quote_return(quote=quote, user=architect, comment="  ")
    services.quote_return(quote=quote, user=architect, comment="Use 1 TB of memory.")
    quote.refresh_from_db()
    assert quote.status == Status.RETURNED
    services.quote_submit(quote=quote, user=presales)
    quote.refresh_from_db()
    assert quote.status == Status.SUBMITTED


def test_an_issued_quote_cannot_be_edited(make_quote, presales, architect, good_build):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    services.quote_approve(quote=quote, user=architect)
    services.quote_issue(quote=quote, user=presales)
    quote.refresh_from_db()
    with pytest.raises(services.TransitionRefused) as refused:
        services.quote_update(
            quote=quote,
            user=presales,
            customer=services.Customer("Someone else"),
            build=BuildIn.model_validate(good_build),
            workload=None,
            term_months=24,
            discount_pct=Decimal(50),
        )
    assert refused.value.status == 409
    quote.customer_name = "Someone else"
    with pytest.raises(QuoteLocked):
        quote.save()
    quote.refresh_from_db()
    assert quote.customer_name != "Someone else"
    assert quote.term_months == 12


def test_requote_links_a_new_revision_to_the_old_one(make_quote, presales, architect):
    quote = make_quote()
    services.quote_cancel(quote=quote, user=presales, comment="Customer wants 24 months")
    revision = services.quote_requote(quote=quote, user=presales)
    assert revision.previous == quote
    assert revision.revision == 2
    assert revision.number != quote.number
    assert revision.status == Status.DRAFT
    with pytest.raises(services.TransitionRefused):
        services.quote_requote(quote=quote, user=presales)


def test_expired_quotes_are_marked_and_cannot_be_accepted(make_quote, presales, architect):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    services.quote_approve(quote=quote, user=architect)
    services.quote_issue(quote=quote, user=presales)
    later = quote.valid_until + datetime.timedelta(days=1)
    assert services.quotes_expire(today=later) == 1
    quote.refresh_from_db()
    assert quote.status == Status.EXPIRED
    with pytest.raises(services.TransitionRefused):
        services.quote_accept(quote=quote, user=presales)


def test_the_expire_command_marks_overdue_issued_quotes(make_quote, presales, architect):
    quote = make_quote(valid_days=1)
    services.quote_submit(quote=quote, user=presales)
    services.quote_approve(quote=quote, user=architect)
    services.quote_issue(quote=quote, user=presales)
    Quote.objects.filter(pk=quote.pk).update(
        valid_until=datetime.date.today() - datetime.timedelta(days=1)
    )
    call_command("expire_quotes", stdout=io.StringIO())
    quote.refresh_from_db()
    assert quote.status == Status.EXPIRED
    assert quote.events.last().action == "expire"


def test_a_quote_under_review_is_not_requoted(make_quote, presales):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    with pytest.raises(services.TransitionRefused) as refused:
        services.quote_requote(quote=quote, user=presales)
    assert refused.value.status == 409
    assert Quote.objects.count() == 1
