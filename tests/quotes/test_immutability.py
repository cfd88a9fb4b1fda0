"""An issued quote is what the customer received: later catalog and rule changes leave it."""

from decimal import Decimal

import pytest

from catalog.models import Cpu, Gpu, Platform
from configurator.models import RuleProfile
from configurator.quotes import pdf, services
from configurator.quotes.models import Quote
from configurator.services import ruleset_publish

pytestmark = pytest.mark.django_db

FROZEN = (
    "bom",
    "build",
    "evaluation",
    "monthly_price",
    "term_price",
    "list_monthly_price",
    "valid_until",
    "ruleset_version_id",
)


def issued(make_quote, presales, architect) -> Quote:
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    services.quote_approve(quote=quote, user=architect)
    return services.quote_issue(quote=quote, user=presales)


def test_price_spec_and_rule_changes_leave_an_issued_quote_as_issued(
    make_quote, presales, architect
):
    quote = issued(make_quote, presales, architect)
    before = {name: getattr(quote, name) for name in FROZEN}
    pdf_before = pdf.quote_pdf(quote)

    Gpu.objects.filter(slug="a800-80g-pcie").update(monthly_price=Decimal("9999.00"), tdp_w=450)
    Cpu.objects.filter(slug="xeon-gold-6530").update(cores=8, threads=16)
    Platform.objects.filter(slug="smc-sys-421ge-tnrt").update(dimm_slots_per_socket=4)
    ruleset_publish(
        profile=RuleProfile.objects.get(is_default=True),
        changes={"memory_per_gpu_gb_min": 512},
        user=architect,
    )

    quote = Quote.objects.get(pk=quote.pk)
    assert {name: getattr(quote, name) for name in FROZEN} == before
    assert pdf.quote_pdf(quote) == pdf_before
    gpu_line = next(line for line in quote.bom if line["kind"] == "gpu")
    assert gpu_line["unit_price"] == "4500.00"


def test_a_requote_after_the_change_takes_the_new_prices(make_quote, presales, architect):
    quote = issued(make_quote, presales, architect)
    Gpu.objects.filter(slug="a800-80g-pcie").update(monthly_price=Decimal("5000.00"))
    revision = services.quote_requote(quote=quote, user=presales)
    assert revision.monthly_price > quote.monthly_price
    assert Quote.objects.get(pk=quote.pk).monthly_price == quote.monthly_price
