"""A draft or returned quote is edited in the configurator's parts form, never as JSON.

The page opens on the quote's own build and workload (the configurator's fields), prices it
as the quote does (one bill), saves it re-priced, and says every refusal where it happened.
"""

from decimal import Decimal
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from hypothesis import given
from hypothesis import strategies as st

from configurator.quotes import services
from configurator.quotes.models import Quote, Status
from configurator.web.quote_edit import quote_permalink
from configurator.web.reading import read_query
from configurator.web.services import configuration_assess
from tests.quotes.test_pages import FORM
from tests.web.test_configure_fuzz import FUZZ, VALUES, queries

pytestmark = pytest.mark.django_db

# The quote form's customer and terms, as the new-quote page's tests send them.
TERMS = {name: value for name, value in FORM.items() if name not in ("build", "workload")}


def edit_url(quote: Quote) -> str:
    return f"/quotes/{quote.number}/edit/"


def with_build(quote: Quote, **changes: str) -> dict[str, str]:
    """The form as the page sends it: the terms, and the build on screen as its permalink."""
    query = QueryDict(quote_permalink(quote), mutable=True)
    for name, value in changes.items():
        query[name] = value
    return {**TERMS, "build": query.urlencode(safe="+")}


def test_the_page_opens_on_the_quotes_own_parts_and_workload(presales_client, make_quote):
    quote = make_quote()
    response = presales_client.get(edit_url(quote))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<option value="a800-80g-pcie" selected>' in html  # the configurator's selects
    assert '<option value="768" selected>' in html
    assert 'id="id_model_params_b"' in html and 'value="34"' in html  # the workload typed
    assert 'form="quote-save"' in html and 'value="王伟 Wang Wei"' in html
    assert "Build (JSON)" not in html and "{&quot;cpu&quot;" not in html  # no JSON anywhere


def test_the_page_prices_the_quote_as_the_quote_does(make_quote):
    quote = make_quote()
    read = read_query(QueryDict(quote_permalink(quote)))
    assert not read.errors and not read.adjustments
    assessed = configuration_assess(config=read.config, workload=read.workload)
    assert Decimal(str(assessed.bill.monthly_price)) == quote.list_monthly_price
    assert assessed.evaluation.verdict == quote.evaluation["verdict"]


def test_changing_a_part_and_the_term_saves_the_quote_re_priced(presales_client, make_quote):
    quote = make_quote()
    before = quote.list_monthly_price
    data = with_build(quote, memory_gb="1024")
    response = presales_client.post(edit_url(quote), {**data, "term_months": "36"})
    assert response.status_code == 302 and response["Location"] == f"/quotes/{quote.number}/"
    quote.refresh_from_db()
    assert quote.build["memory_gb"] == 1024 and quote.term_months == 36
    assert quote.list_monthly_price > before
    assert quote.term_price == quote.monthly_price * 36
    assert quote.status == Status.DRAFT
    assert quote.workload["model_params_b"] == 34 and quote.workload["batch_size"] == 64


def test_save_and_submit_sends_a_passing_build_to_review(presales_client, make_quote):
    quote = make_quote()
    response = presales_client.post(edit_url(quote), {**with_build(quote), "then": "submit"})
    assert response.status_code == 302
    quote.refresh_from_db()
    assert quote.status == Status.SUBMITTED


def test_a_failing_build_is_saved_and_the_refused_submit_says_why(presales_client, make_quote):
    quote = make_quote()
    # Two 2,000 W units of 1+1: short of what eight GPUs draw, P7 fails (the case).
    data = {**with_build(quote, psu_watts="2000"), "then": "submit"}
    response = presales_client.post(edit_url(quote), data, follow=True)
    quote.refresh_from_db()
    assert quote.build["psu_watts"] == 2000 and quote.status == Status.DRAFT
    assert response.redirect_chain[-1][0] == edit_url(quote)  # back where it can be fixed
    html = response.content.decode()
    assert "Saved, but not submitted: The build fails P7" in html and 'role="alert"' in html
    assert "Apply fix for P7" in html  # and the fix is one click away


def test_a_returned_quote_shows_why_and_is_resubmitted_from_the_parts_form(
    presales_client, make_quote, presales, architect
):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    services.quote_return(quote=quote, user=architect, comment="Use 1 TB of memory.")
    page = presales_client.get(f"/quotes/{quote.number}/").content.decode()
    assert "Returned by architect:" in page and "Use 1 TB of memory." in page
    assert f'href="{edit_url(quote)}"' in page
    assert "Use 1 TB of memory." in presales_client.get(edit_url(quote)).content.decode()
    data = {**with_build(quote, memory_gb="1024"), "then": "submit"}
    assert presales_client.post(edit_url(quote), data).status_code == 302
    quote.refresh_from_db()
    assert quote.status == Status.SUBMITTED and quote.build["memory_gb"] == 1024


def test_an_issued_quote_says_it_cannot_be_edited_and_changes_nothing(presales_client, make_issued):
    quote = make_issued()
    page = presales_client.get(f"/quotes/{quote.number}/").content.decode()
    assert edit_url(quote) not in page
    response = presales_client.get(edit_url(quote))
    assert response.status_code == 409
    assert "it can no longer be edited" in response.content.decode()
    response = presales_client.post(edit_url(quote), {**with_build(quote), "term_months": "36"})
    assert response.status_code == 409
    quote.refresh_from_db()
    assert quote.term_months == 12


def test_only_the_owner_edits(architect_client, make_quote):
    quote = make_quote()
    response = architect_client.get(edit_url(quote))
    assert response.status_code == 403
    assert "Only its owner edits a quote." in response.content.decode()


def test_another_presales_quote_is_not_found(client, make_quote):
    from django.contrib.auth.models import Group

    from configurator.roles import PRESALES
    from tests.factories import UserFactory

    quote = make_quote()
    other = UserFactory(username="other", is_staff=True)
    other.groups.add(Group.objects.get(name=PRESALES))
    client.force_login(other)
    assert client.get(edit_url(quote)).status_code == 404


def test_a_broken_build_is_named_and_changes_nothing(presales_client, make_quote):
    quote = make_quote()
    before = Quote.objects.values().get(pk=quote.pk)
    response = presales_client.post(edit_url(quote), with_build(quote, gpu_count="9" * 40))
    assert response.status_code == 400
    assert "GPUs per node (gpu_count)" in response.content.decode()
    assert Quote.objects.values().get(pk=quote.pk) == before


def test_a_bad_term_is_named_beside_its_field_and_the_parts_stay(presales_client, make_quote):
    quote = make_quote()
    response = presales_client.post(edit_url(quote), with_build(quote, memory_gb="1024") | {
        "term_months": "61"})  # fmt: skip
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="err_term_months"' in html
    assert '<option value="1024" selected>' in html  # the parts as they were on screen


def test_a_change_over_htmx_redraws_the_configurator_with_the_build_to_save(
    presales_client, make_quote
):
    quote = make_quote()
    query = QueryDict(quote_permalink(quote), mutable=True)
    query["memory_gb"] = "1024"
    response = presales_client.get(edit_url(quote), query, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html and html.lstrip().startswith('<div id="configurator"')
    assert 'id="quote-save-build"' in html and "memory_gb=1024" in html
    assert response["HX-Push-Url"].startswith(edit_url(quote))


def test_a_fine_tuning_method_stays_when_the_model_changes(presales_client, make_quote):
    workload = {"model_params_b": 7, "mode": "finetune", "finetune_method": "lora"}
    quote = make_quote(workload=workload)
    assert presales_client.post(edit_url(quote), with_build(quote)).status_code == 302
    quote.refresh_from_db()
    assert quote.workload["finetune_method"] == "lora"
    data = with_build(quote, model_params_b="13")  # another model: still a LoRA fine-tune
    assert presales_client.post(edit_url(quote), data).status_code == 302
    quote.refresh_from_db()
    assert quote.workload["finetune_method"] == "lora" and quote.workload["model_params_b"] == 13


def test_fields_the_page_does_not_carry_stay_while_the_model_does(presales_client, make_quote):
    """A shape given through the API (heads, KV cache precision) is the model's: kept while
    the model stays, left behind with it."""
    shape = {"attention_heads": 64, "kv_heads": 8, "kv_cache_precision": "fp8"}
    quote = make_quote(workload={"model_params_b": 70, "mode": "infer", **shape})
    assert (
        presales_client.post(edit_url(quote), with_build(quote, concurrent_users="50")).status_code
        == 302
    )
    quote.refresh_from_db()
    assert {name: quote.workload[name] for name in shape} == shape
    assert quote.workload["concurrent_users"] == 50
    assert (
        presales_client.post(edit_url(quote), with_build(quote, model_params_b="8")).status_code
        == 302
    )
    quote.refresh_from_db()
    assert quote.workload["model_params_b"] == 8
    assert all(quote.workload.get(name) is None for name in shape)


@FUZZ
@given(
    terms=st.fixed_dictionaries({}, optional=dict.fromkeys(TERMS, VALUES)),
    build=queries,
    then=st.sampled_from(["", "save", "submit", "²"]),
)
def test_any_edit_is_saved_or_names_the_field_and_changes_nothing(
    presales_client, make_quote, terms, build, then
):
    quote = make_quote()
    before = Quote.objects.values().get(pk=quote.pk)
    data = {**with_build(quote), **terms, "then": then}
    data["build"] += "&" + urlencode(build)
    response = presales_client.post(edit_url(quote), data)
    assert response.status_code in (302, 400), response.content[:300]
    if response.status_code == 400:
        html = response.content.decode()
        form = response.context["terms_form"]
        assert form.errors or response.context["errors"]
        for name in form.errors:
            assert f'id="err_{name}"' in html, name
        assert Quote.objects.values().get(pk=quote.pk) == before


def test_the_form_saves_the_build_on_screen_and_no_other(presales_client, make_quote):
    """The build travels in the configurator's region (redrawn with every change), never as a
    second, stale field of the terms form."""
    quote = make_quote()
    html = presales_client.get(edit_url(quote)).content.decode()
    assert html.count('name="build" form="quote-save"') == 1
    form = html[html.index('<form id="quote-save"') :]
    assert 'name="build"' not in form[: form.index("</form>")]
