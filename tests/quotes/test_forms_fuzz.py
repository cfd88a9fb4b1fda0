"""No form, query string or number in an address makes the quote pages answer a 5xx.

Presales write and edit quotes, architects and presales press the workflow's buttons, anyone
types a quote number into an address: a refusal is a 4xx that names what is wrong, and a
refused form saves nothing.
"""

import json
from urllib.parse import quote as urlquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from configurator.quotes import selectors
from configurator.quotes.models import Quote
from tests.quotes.conftest import GOOD_BUILD, WORKLOAD
from tests.quotes.test_pages import FORM
from tests.web.test_configure_fuzz import VALUES

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
# A build as JSON text: the good one with fields changed, or text that is hardly JSON at all.
build_texts = st.one_of(
    st.dictionaries(st.sampled_from(sorted(GOOD_BUILD)), json_scalars, max_size=3).map(
        lambda changes: json.dumps({**GOOD_BUILD, **changes})
    ),
    st.sampled_from(['{"gpu_count": ' + "9" * 5000 + "}", '{"gpu_count": NaN}', "[" * 5000,
                     '{"cpu": "x\\u0000"}', "null", "[]", '"x"', "{"]),
    st.text(max_size=30),
)  # fmt: skip
FORM_FIELDS = {
    "customer_name": VALUES,
    "customer_company": VALUES,
    "customer_email": VALUES,
    "customer_phone": VALUES,
    "term_months": VALUES,
    "discount_pct": VALUES,
    "build": build_texts,
    "workload": build_texts,
    "saved_build": VALUES,
}
forms = st.fixed_dictionaries({}, optional=FORM_FIELDS)


def assert_refusal_names_its_fields(response) -> None:
    form = response.context["form"]
    assert form.errors
    html = response.content.decode()
    for name in form.errors:
        assert name == "__all__" or f'name="{name}"' in html, name


@FUZZ
@given(saved_build=VALUES, build=VALUES)
def test_any_start_of_a_new_quote_answers_a_form_or_names_the_field(
    presales_client, saved_build, build
):
    response = presales_client.get("/quotes/new/", {"saved_build": saved_build, "build": build})
    assert response.status_code in (200, 400, 404)
    if response.status_code == 400:  # the start form names the field it refused
        html = response.content.decode()
        assert "(saved_build):" in html or "(build):" in html


@FUZZ
@given(changes=forms)
def test_any_new_quote_form_is_a_draft_or_names_the_field(presales_client, changes):
    quotes = Quote.objects.count()
    response = presales_client.post("/quotes/new/", {**FORM, **changes})
    assert response.status_code in (302, 400, 404), response.content[:300]
    if response.status_code == 400:
        assert_refusal_names_its_fields(response)
        assert Quote.objects.count() == quotes


ACTIONS = st.sampled_from(["submit", "approve", "return", "issue", "accept", "cancel", "requote",
                           "supersede", "", "SUBMIT", "²", "\x00"])  # fmt: skip


@settings(FUZZ, max_examples=12)  # each example writes a quote and walks it: the slowest here
@given(steps=st.lists(st.tuples(st.booleans(), ACTIONS, VALUES), min_size=1, max_size=5))
def test_any_sequence_of_buttons_answers_or_refuses(presales, architect, make_quote, client,
                                                     steps):  # fmt: skip
    quote = make_quote(workload=WORKLOAD)
    for as_architect, action, comment in steps:
        user = architect if as_architect else presales
        client.force_login(user)
        number = Quote.objects.filter(pk=quote.pk).values_list("number", flat=True).get()
        response = client.post(
            f"/quotes/{number}/transition/", {"action": action, "comment": comment}
        )
        # An architect's re-quote is the architect's: its owner alone (and architects) see it.
        readable = selectors.quote_for(user, number) is not None
        expected = (200, 302, 400, 403, 409) if readable else (404,)
        assert response.status_code in expected, response.content[:300]
        if response.status_code in (400, 403, 409):  # said where the button was pressed
            assert response.context["errors"]
        quote = Quote.objects.order_by("-pk").first()  # a re-quote goes on with the revision


@FUZZ
@given(number=st.one_of(VALUES, st.just("Q-2026-000001\x00"), st.text(min_size=1, max_size=20)))
def test_any_quote_number_in_an_address_is_a_quote_or_404(presales_client, number):
    path = urlquote(number, safe="")
    if not path or path in (".", "..", "new", "review"):  # not numbers: other pages
        return
    for url in (f"/quotes/{path}/", f"/quotes/{path}/pdf/", f"/api/v1/quotes/{path}"):
        assert presales_client.get(url).status_code == 404, url
    api = presales_client.post(
        f"/api/v1/quotes/{path}/transition", {"action": "submit"}, content_type="application/json"
    )
    assert api.status_code == 404
    assert presales_client.get("/quotes/", {"status": number}).status_code == 200
