"""Quote requests become leads; presales work on them; strangers cannot."""

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.urls import reverse

from configurator.quotes.models import Lead, LeadBuild
from configurator.web.views import QUOTE_LIMIT
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BUILD = (
    "cpu=epyc-9754&cpu_count=2&gpu=h100-80g-sxm&gpu_count=8&gpus_per_socket=4+4&memory_gb=1536"
    "&memory_ecc=true&psu_watts=9000&nvlink=true&numa_binding=true&platform=smc-as-8125gs-tnhr"
    "&model_params_b=70&mode=train&batch_size=64"
)
CUSTOMER = {
    "name": "Li Wei",
    "company": "Example AI Ltd",
    "email": "li.wei@example.com",
    "phone": "+86 10 1234 5678",
    "build": BUILD,
}


@pytest.fixture(autouse=True)
def fresh_throttle():
    cache.clear()
    yield
    cache.clear()


def test_quote_request_creates_a_new_lead_with_the_build_and_workload(client):
    response = client.post(reverse("web:quote"), CUSTOMER)
    assert response.status_code == 200
    lead = Lead.objects.get()
    assert lead.status == Lead.Status.NEW
    assert lead.build["gpu"] == "h100-80g-sxm" and lead.build["gpus_per_socket"] == [4, 4]
    assert lead.workload["model_params_b"] == 70
    assert lead.permalink.startswith("cpu=epyc-9754")
    assert lead.monthly_price > 0
    assert f"request #{lead.pk}" in response.content.decode()


def test_quote_over_htmx_answers_the_confirmation_fragment(client):
    response = client.post(reverse("web:quote"), CUSTOMER, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="quote"')
    assert "<html" not in html
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize(
    ("field", "value"),
    [("email", "not-an-address"), ("phone", "call me"), ("name", ""), ("company", "")],
)
def test_bad_contact_details_are_named_and_nothing_is_saved(client, field, value):
    response = client.post(reverse("web:quote"), {**CUSTOMER, field: value})
    assert response.status_code == 400
    assert f'id="err_{field}"' in response.content.decode()
    assert not Lead.objects.exists()


def test_quote_requests_are_throttled_per_address(client):
    for _ in range(5):
        assert client.post(reverse("web:quote"), CUSTOMER).status_code == 200
    response = client.post(reverse("web:quote"), CUSTOMER)
    assert response.status_code == 429
    assert "Too many requests" in response.content.decode() and response["Retry-After"]
    assert Lead.objects.count() == 5


def test_mistakes_in_the_quote_form_do_not_use_up_the_limit(client):
    # Three mistakes or more (as many as the limit): the next, right request is still taken.
    for _ in range(max(3, QUOTE_LIMIT)):
        mistake = client.post(reverse("web:quote"), {**CUSTOMER, "email": "not-an-address"})
        assert mistake.status_code == 400
    assert client.post(reverse("web:quote"), CUSTOMER).status_code == 200
    assert Lead.objects.count() == 1


def test_quote_needs_the_csrf_token():
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    assert client.post(reverse("web:quote"), CUSTOMER).status_code == 403


@pytest.fixture
def lead(db):
    return Lead.objects.create(
        name="Li Wei", company="Example AI Ltd", email="li@example.com", phone="+86 123456789",
        build={"cpu": "epyc-9754"}, workload={"model_params_b": 70, "mode": "train"},
        permalink=BUILD, monthly_price=100000, verdict="accept", language="en",
    )  # fmt: skip


def test_presales_inbox_lists_leads_by_status(presales_client, lead):
    html = presales_client.get(reverse("web:presales")).content.decode()
    assert "Example AI Ltd" in html
    html = presales_client.get(reverse("web:presales"), {"status": "quoted"}).content.decode()
    assert "Example AI Ltd" not in html


def test_inbox_tabs_swap_with_their_nav(presales_client, lead):
    response = presales_client.get(
        reverse("web:presales"), {"status": "new"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="leads"')
    assert 'class="tab active" aria-current="page">new' in html.replace("\n", "")
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize("url_name", ["web:presales", "web:presales_lead"])
def test_customers_and_anonymous_cannot_open_the_workspace(client, customer, lead, url_name):
    args = [lead.pk] if url_name == "web:presales_lead" else []
    anonymous = client.get(reverse(url_name, args=args))
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    client.force_login(customer)
    assert client.get(reverse(url_name, args=args)).status_code == 403


def test_staff_outside_the_groups_cannot_open_the_workspace(client, lead):
    client.force_login(UserFactory(username="intern", is_staff=True))
    assert client.get(reverse("web:presales")).status_code == 403


def test_architects_may_work_on_leads(architect_client, lead):
    assert architect_client.get(reverse("web:presales")).status_code == 200


def test_lead_workspace_opens_the_requested_build(presales_client, lead):
    response = presales_client.get(reverse("web:presales_lead", args=[lead.pk]))
    assert response.status_code == 200
    assert response.context["permalink"].startswith("cpu=epyc-9754")
    assert "Save to lead" in response.content.decode()


def test_workspace_changes_answer_the_configurator_fragment(presales_client, lead):
    response = presales_client.get(
        reverse("web:presales_lead", args=[lead.pk]),
        {"model_params_b": "70", "mode": "train", "batch_size": "64", "start": "recommend"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="configurator"')
    assert response.context["recommendations"]
    assert "Save to lead" in html


def test_saving_a_build_puts_the_lead_in_progress(presales_client, presales, lead):
    response = presales_client.post(
        reverse("web:presales_lead_save", args=[lead.pk]),
        {"build": BUILD, "note": "Customer prefers SXM."},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "Saved to the lead." in response.content.decode()
    saved = LeadBuild.objects.get()
    assert saved.note == "Customer prefers SXM." and saved.created_by == presales
    assert saved.verdict in ("accept", "reject") and saved.monthly_price > 0
    lead.refresh_from_db()
    assert lead.status == Lead.Status.IN_PROGRESS


def test_presales_marks_a_lead_quoted(presales_client, lead):
    presales_client.post(reverse("web:presales_lead_status", args=[lead.pk]), {"status": "quoted"})
    lead.refresh_from_db()
    assert lead.status == Lead.Status.QUOTED


def test_presales_group_holds_the_lead_permission():
    presales = Group.objects.get(name="Presales")
    assert presales.permissions.filter(codename="change_lead").exists()
    assert not presales.permissions.filter(codename="delete_lead").exists()


def test_status_change_over_htmx_answers_its_form(presales_client, lead):
    response = presales_client.post(
        reverse("web:presales_lead_status", args=[lead.pk]),
        {"status": "in_progress"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="lead-status"') and "Status saved." in html
    lead.refresh_from_db()
    assert lead.status == Lead.Status.IN_PROGRESS


def test_a_saved_build_opens_a_new_quote_with_its_build(presales_client, lead):
    presales_client.post(
        reverse("web:presales_lead_save", args=[lead.pk]), {"build": BUILD, "note": ""}
    )
    html = presales_client.get(reverse("web:presales_lead", args=[lead.pk])).content.decode()
    start = html.index(reverse("quotes:new") + "?saved_build=")
    link = html[start : html.index('"', start)]
    form = presales_client.get(link).content.decode()
    assert "h100-80g-sxm" in form
    assert lead.company in form and lead.email in form  # the customer comes from the lead


def test_without_javascript_a_mistake_answers_the_configurator_with_what_was_typed(client):
    response = client.post(reverse("web:configure"), {**CUSTOMER, "phone": "call me"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="configurator"' in html and '<details class="quote-box" open>' in html
    assert 'id="err_phone"' in html
    assert 'value="Li Wei"' in html and 'value="Example AI Ltd"' in html
    assert '<option value="h100-80g-sxm" selected>' in html  # the build the request was for
    assert 'action="/configure/"' in html  # and the form sends the next try here again
    assert not Lead.objects.exists()


def test_without_javascript_a_request_is_thanked_on_the_configurator(client):
    response = client.post(reverse("web:configure"), CUSTOMER)
    assert response.status_code == 302
    assert response["Location"].startswith("/configure/?cpu=epyc-9754")
    lead = Lead.objects.get()
    page = client.get(response["Location"]).content.decode()
    assert f"Your request #{lead.pk} has reached our presales engineers" in page
    again = client.get(response["Location"]).content.decode()
    assert "Your request #" not in again  # thanked once; a reload sends nothing


@pytest.mark.parametrize("htmx", [True, False])
def test_past_the_limit_the_form_keeps_what_was_typed(client, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    url = reverse("web:quote") if htmx else reverse("web:configure")
    for _ in range(QUOTE_LIMIT):
        assert client.post(url, CUSTOMER, **headers).status_code in (200, 302)
    response = client.post(url, {**CUSTOMER, "name": "Wang Fang"}, **headers)
    assert response.status_code == 429 and response["Retry-After"]
    html = response.content.decode()
    assert "Too many requests from your address: at most 5 an hour." in html
    assert 'id="err_throttled"' in html and 'value="Wang Fang"' in html
    assert 'value="li.wei@example.com"' in html
    assert ("<html" in html) is not htmx  # over htmx the form's region, else the configurator
    assert Lead.objects.count() == QUOTE_LIMIT
