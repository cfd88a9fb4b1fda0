"""The quote pages: presales' drafts, the architects' review screen, the customer's link."""

import json

import pytest
from django.contrib.auth.models import Group

from configurator.quotes import links, services
from configurator.quotes.models import Quote, Status
from configurator.roles import PRESALES
from tests.conftest import JAPANESE
from tests.factories import UserFactory
from tests.quotes.conftest import GOOD_BUILD, WORKLOAD

pytestmark = pytest.mark.django_db

FORM = {
    "customer_name": "李娜 Li Na",
    "customer_company": "上海算力有限公司",
    "customer_email": "li.na@example.cn",
    "customer_phone": "",
    "term_months": "12",
    "discount_pct": "0",
    "build": json.dumps(GOOD_BUILD),
    "workload": json.dumps(WORKLOAD),
}


def test_presales_create_a_draft_from_a_build(presales_client):
    page = presales_client.get("/quotes/new/?build=" + json.dumps(GOOD_BUILD))
    assert page.status_code == 200
    assert "xeon-gold-6530" in page.content.decode()
    response = presales_client.post("/quotes/new/", FORM)
    quote = Quote.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/quotes/{quote.number}/"
    assert quote.customer_company == "上海算力有限公司"


def test_a_bad_build_shows_the_field_and_saves_nothing(presales_client):
    response = presales_client.post("/quotes/new/", {**FORM, "build": '{"cpu": "x"}'})
    assert response.status_code == 400
    assert "cpu_count" in response.content.decode()
    response = presales_client.post(
        "/quotes/new/", {**FORM, "build": json.dumps({**GOOD_BUILD, "gpu": "voodoo-2"})}
    )
    assert "build.gpu" in response.content.decode()
    assert not Quote.objects.exists()


def test_presales_see_only_their_own_quotes(presales_client, make_quote):
    mine = make_quote()
    other = UserFactory(username="someone", is_staff=True)
    other.groups.add(Group.objects.get(name=PRESALES))
    theirs = make_quote(owner=other)
    page = presales_client.get("/quotes/").content.decode()
    assert mine.number in page and theirs.number not in page
    assert presales_client.get(f"/quotes/{theirs.number}/").status_code == 404


def test_the_list_filters_by_status_as_a_fragment(presales_client, make_quote):
    quote = make_quote()
    response = presales_client.get("/quotes/?status=submitted", HTTP_HX_REQUEST="true")
    assert quote.number not in response.content.decode()
    assert "<html" not in response.content.decode()
    assert "HX-Request" in response["Vary"]


def test_the_review_queue_shows_checks_scores_and_recipe_differences(
    architect_client, make_quote, presales
):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    page = architect_client.get("/quotes/review/").content.decode()
    assert quote.number in page
    assert "P1" in page and "P8" in page
    assert "Against the scenario recipes" in page


def test_an_architect_approves_from_the_queue(architect_client, make_quote, presales):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    response = architect_client.post(
        f"/quotes/{quote.number}/transition/",
        {"action": "approve", "comment": "", "next": "review"},
    )
    assert response.status_code == 302
    quote.refresh_from_db()
    assert quote.status == Status.APPROVED


def test_a_return_without_comment_is_refused_on_the_page(architect_client, make_quote, presales):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    response = architect_client.post(
        f"/quotes/{quote.number}/transition/", {"action": "return"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "needs a comment" in response.content.decode()
    quote.refresh_from_db()
    assert quote.status == Status.SUBMITTED


def test_presales_cannot_open_the_review_queue(presales_client):
    assert presales_client.get("/quotes/review/").status_code == 403


def test_pages_need_staff(client, customer):
    assert client.get("/quotes/").status_code == 302
    client.force_login(customer)
    assert client.get("/quotes/").status_code == 403


def test_the_pages_speak_chinese(presales_client, make_quote):
    quote = make_quote()
    page = presales_client.get(f"/quotes/{quote.number}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "物料清单" in page.content.decode()


def test_a_quotes_frozen_checks_are_titled_in_the_pages_language(
    presales_client, make_quote, japanese
):
    """A quote freezes its evaluation in English; its check titles come from the catalogue,
    a passed check's saying what passed."""
    quote = make_quote()
    assert quote.evaluation["checks"][0]["status"] == "pass"  # P1, on a Gen5 platform
    chinese = presales_client.get(f"/quotes/{quote.number}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "PCIe 代次满足本节点的 GPU" in chinese.content.decode()
    page = presales_client.get(f"/quotes/{quote.number}/", HTTP_ACCEPT_LANGUAGE=japanese)
    html = page.content.decode()
    assert JAPANESE["PCIe generation fit for the node's GPUs"] in html
    assert "PCIe generation fit for the node's GPUs" not in html
    assert "Legacy PCIe 3.0 platform carrying several GPUs" not in html


def test_a_quote_the_customer_accepted_is_not_called_passed_in_chinese(presales_client, make_quote):
    page = presales_client.get("/quotes/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "已接受" in page  # the status tab: accepted by the customer
    assert ">通过<" not in page  # 通过 is the rules' verdict "accepted", not a quote status


def test_a_quote_from_a_saved_build_links_its_lead_and_marks_it_drafting(
    presales_client, lead_with_build
):
    from configurator.quotes.models import Lead

    lead, saved = lead_with_build
    form = presales_client.get(f"/quotes/new/?saved_build={saved.pk}").content.decode()
    assert "Example AI Ltd" in form and "li@example.com" in form and "xeon-gold-6530" in form
    data = {
        **FORM,
        "customer_name": "Li Wei",
        "customer_company": "Example AI Ltd",
        "saved_build": str(saved.pk),
    }
    response = presales_client.post("/quotes/new/", data)
    assert response.status_code == 302
    quote = Quote.objects.get()
    assert quote.lead == lead and quote.saved_build == saved
    lead.refresh_from_db()
    assert lead.status == Lead.Status.DRAFTING  # quoted once the quote is issued
    assert presales_client.get(f"/quotes/{quote.number}/").content.decode().count("Example AI")


def test_an_unknown_saved_build_is_404(presales_client):
    assert presales_client.get("/quotes/new/?saved_build=999").status_code == 404


def test_every_quote_screen_names_the_workload_and_build_it_was_sized_for(
    architect_client, client, make_quote, presales, architect
):
    workload = {"model_params_b": 13, "mode": "finetune", "batch_size": 4, "precision": "fp16"}
    quote = make_quote(workload={**workload, "context_length": 4096})
    services.quote_submit(quote=quote, user=presales)
    sized = "13B full fine-tune, batch 4, fp16, context 4096 tokens"
    build = f"{GOOD_BUILD['gpu_count']} × NVIDIA A800 80GB PCIe per node, 1 node"
    review = architect_client.get("/quotes/review/").content.decode()
    card = review[review.index(f'id="review-{quote.number}"') :]
    assert sized in card and build in card
    assert sized in architect_client.get(f"/quotes/{quote.number}/").content.decode()
    quote = services.quote_approve(quote=quote, user=architect)
    quote = services.quote_issue(quote=quote, user=presales)
    client.cookies["django_language"] = "zh-hans"
    page = client.get(f"/quotes/c/{links.customer_token(quote)}/").content.decode()
    assert "13B 全参数微调，批大小 4，fp16，上下文 4096 token" in page


def test_a_quote_without_workload_says_so(presales_client, make_quote):
    quote = make_quote(workload=None)
    page = presales_client.get(f"/quotes/{quote.number}/").content.decode()
    assert "No workload: the build was not sized for one." in page
