"""The quotes API (api.md "Quotes"): roles, statuses, refusals that change nothing."""

import copy
import json

import pytest
from django.contrib.auth.models import Group
from django.core.signing import b62_encode
from django.test import Client

from configurator.quotes import links, services
from configurator.quotes.models import Quote, Status
from configurator.roles import PRESALES
from tests.factories import UserFactory
from tests.quotes.conftest import CUSTOMER, GOOD_BUILD, WORKLOAD

pytestmark = pytest.mark.django_db
URL = "/api/v1/quotes"


def body(build=None, **extra):
    return {
        "customer": CUSTOMER,
        "build": build or copy.deepcopy(GOOD_BUILD),
        "workload": WORKLOAD,
        "term_months": 24,
        "discount_pct": 10,
        **extra,
    }


def post(client, url, data):
    return client.post(url, json.dumps(data), content_type="application/json")


def login(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")  # the page sets the CSRF cookie
    return client


def csrf_post(client, url, data):
    return client.post(
        url,
        json.dumps(data),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
    )


def test_presales_create_a_draft_quote(presales_client):
    response = post(presales_client, URL, body())
    assert response.status_code == 201, response.content
    quote = response.json()
    assert quote["number"].startswith("Q-") and len(quote["number"]) == 13
    assert quote["status"] == "draft"
    assert quote["currency"] == "CNY"
    assert quote["customer"]["name"] == CUSTOMER["name"]
    assert quote["term_months"] == 24
    assert quote["evaluation"]["verdict"] == "accept"
    assert quote["history"][0]["status"] == "draft"
    assert "customer_url" not in quote


def test_creating_needs_a_session_and_csrf(client, presales):
    assert post(client, URL, body()).status_code == 401
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(presales)
    assert post(strict, URL, body()).status_code == 403
    assert csrf_post(login(presales), URL, body()).status_code == 201


def test_a_customer_account_cannot_create(client, customer):
    client.force_login(customer)
    response = post(client, URL, body())
    assert response.status_code == 403
    assert not Quote.objects.exists()


def test_bad_input_names_the_field_and_saves_nothing(presales_client):
    build = {**copy.deepcopy(GOOD_BUILD), "cpu": "pentium-4", "platform": None}
    response = post(presales_client, URL, body(build, discount_pct=120))
    assert response.status_code == 400
    assert "discount_pct" in response.json()["errors"]
    response = post(presales_client, URL, body(build))
    assert response.status_code == 400
    # No platform is no error (the bill assumes one, as the configurator's does): the CPU is.
    assert set(response.json()["errors"]) == {"build.cpu"}
    assert not Quote.objects.exists()


def flow(client, number, action, comment=""):
    return post(client, f"{URL}/{number}/transition", {"action": action, "comment": comment})


def test_the_whole_workflow_through_the_api(presales, architect):
    sales, arch = login(presales), login(architect)
    number = csrf_post(sales, URL, body()).json()["number"]
    url = f"{URL}/{number}/transition"
    assert csrf_post(sales, url, {"action": "submit"}).status_code == 200
    assert csrf_post(sales, url, {"action": "approve"}).status_code == 403
    assert csrf_post(arch, url, {"action": "approve", "comment": "OK"}).status_code == 200
    assert csrf_post(arch, url, {"action": "approve"}).status_code == 409
    issued = csrf_post(sales, url, {"action": "issue"}).json()
    assert issued["status"] == "issued"
    assert issued["customer_url"].startswith("http://testserver/quotes/c/")
    assert [step["status"] for step in issued["history"]] == [
        "draft",
        "submitted",
        "approved",
        "issued",
    ]
    assert issued["history"][2]["by"] == "architect"
    # the customer opens the link without signing in
    anonymous = Client()
    page = anonymous.get(issued["customer_url"])
    assert page.status_code == 200
    assert number in page.content.decode()
    download = anonymous.get(issued["customer_url"] + "?pdf=1")
    assert download["Content-Type"] == "application/pdf"
    assert download["Content-Disposition"].startswith("attachment")
    assert "no-store" in download["Cache-Control"]


def test_a_failing_build_is_refused_at_submit_with_409(presales_client):
    build = {**copy.deepcopy(GOOD_BUILD), "memory_gb": 384, "dimm_count": 12}
    number = post(presales_client, URL, body(build)).json()["number"]
    response = flow(presales_client, number, "submit")
    assert response.status_code == 409
    assert "build" in response.json()["errors"]
    assert Quote.objects.get(number=number).status == Status.DRAFT


def test_owner_and_architects_read_others_get_404(presales_client, architect):
    number = post(presales_client, URL, body()).json()["number"]
    assert presales_client.get(f"{URL}/{number}").status_code == 200
    assert login(architect).get(f"{URL}/{number}").status_code == 200
    other = UserFactory(username="other-presales", is_staff=True)
    other.groups.add(Group.objects.get(name=PRESALES))
    assert login(other).get(f"{URL}/{number}").status_code == 404
    assert login(other).get(f"{URL}/{number}.pdf").status_code == 404
    assert flow(login(other), number, "cancel").status_code in (403, 404)
    assert Client().get(f"{URL}/{number}").status_code == 401


def test_the_pdf_endpoint_answers_a_pdf(presales_client):
    number = post(presales_client, URL, body()).json()["number"]
    response = presales_client.get(f"{URL}/{number}.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def issue(presales_client, architect_user):
    number = post(presales_client, URL, body()).json()["number"]
    flow(presales_client, number, "submit")
    quote = Quote.objects.get(number=number)
    services.quote_approve(quote=quote, user=architect_user)
    return flow(presales_client, number, "issue").json()


def test_a_tampered_link_is_404(presales_client, architect):
    quote = issue(presales_client, architect)
    url = quote["customer_url"]
    token = url.rstrip("/").rsplit("/", 1)[1]
    tampered = url.replace(token, token.replace(quote["number"], "Q-2026-999999"))
    assert Client().get(tampered).status_code == 404
    assert Client().get(url[:-3] + "xx/").status_code == 404


def test_an_expired_link_is_refused_with_403(presales_client, architect, settings):
    quote = issue(presales_client, architect)
    settings.QUOTE_LINK_MAX_AGE_DAYS = 0
    response = Client().get(quote["customer_url"])
    assert response.status_code == 403
    assert "expired" in response.content.decode()


def test_a_cancelled_quote_is_no_longer_open_to_the_customer(presales_client, architect):
    quote = issue(presales_client, architect)
    assert flow(presales_client, quote["number"], "cancel", "Lost the deal").status_code == 200
    assert Client().get(quote["customer_url"]).status_code == 404


def test_the_link_is_stable_and_dated_from_issue(presales_client, architect):
    quote = issue(presales_client, architect)
    again = presales_client.get(f"{URL}/{quote['number']}").json()
    assert again["customer_url"] == quote["customer_url"]
    issued_at = Quote.objects.get(number=quote["number"]).issued_at
    assert b62_encode(int(issued_at.timestamp())) in quote["customer_url"]
    assert links.quote_for_token(quote["customer_url"].rstrip("/").rsplit("/", 1)[1])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"customer": {"name": ""}}, "customer.name"),
        ({"customer": {"name": "A", "email": "not-an-email"}}, "customer.email"),
        ({"customer": {"name": "A\x00"}}, "customer.name"),
        ({"term_months": "12"}, "term_months"),
        ({"term_months": 0}, "term_months"),
        ({"discount_pct": -1}, "discount_pct"),
        ({"valid_days": 1000}, "valid_days"),
        ({"build": {**GOOD_BUILD, "memory_gb": 100}}, "build.memory_gb"),
        (
            {"build": {**GOOD_BUILD, "bom": [{"kind": "memory", "slug": "nope", "qty": 16}]}},
            "build.bom.0.slug",
        ),
        (
            {"build": {**GOOD_BUILD, "bom": [{"kind": "psu", "slug": "x", "qty": "3"}]}},
            "build.bom.0.qty",
        ),
        (  # domain.md §6: no Dell PSU in a Supermicro chassis
            {
                "build": {
                    **GOOD_BUILD,
                    "bom": [{"kind": "psu", "slug": "dell-psu-2800w-titanium", "qty": 4}],
                }
            },
            "build.bom",
        ),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_each_bad_field_is_named_and_nothing_is_saved(presales_client, change, field):
    response = post(presales_client, URL, {**body(), **change})
    assert response.status_code == 400, response.content
    assert field in response.json()["errors"]
    assert not Quote.objects.exists()


def test_a_bom_from_recommend_is_priced_from_the_catalog_not_the_client(presales_client):
    build = {
        **GOOD_BUILD,
        "bom": [
            {"kind": "memory", "slug": "ddr5-rdimm-48g-5600", "qty": 16, "unit_price": 0.01},
            {"kind": "psu", "slug": "smc-pws-2k20a-1r", "qty": 4, "unit_price": 0.01},
        ],
    }
    quote = post(presales_client, URL, body(build)).json()
    psu = next(line for line in quote["bom"] if line["kind"] == "psu")
    assert psu["qty"] == 4 and psu["unit_price"] == "70.00"


def test_a_transition_with_an_unknown_action_is_400(presales_client):
    number = post(presales_client, URL, body()).json()["number"]
    response = flow(presales_client, number, "delete")
    assert response.status_code == 400
    assert "action" in response.json()["errors"]
