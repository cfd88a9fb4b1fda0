"""No query string or form, however wrong, makes the pages answer a 5xx; what is wrong is named.

Each property sends what a client could type or forge — every field of the configurator's
permalink, every start, `pick`, `fix`, the form's own `form_state`, as a full page and over
htmx — and holds the answer to the promise: a page (200), or a 400 whose page names the field.
"""

from urllib.parse import urlencode

import pytest
from django.core.cache import cache
from django.http import QueryDict
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from configurator.quotes.models import Lead, LeadBuild
from configurator.web.reading import read_query
from tests.web.test_leads import BUILD, CUSTOMER

pytestmark = pytest.mark.django_db

BUILD_FIELDS = ["platform", "cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket",
                "memory_gb", "memory_ecc", "psu_watts", "nvlink", "numa_binding", "nodes", "nics",
                "nic"]  # fmt: skip
WORKLOAD_FIELDS = ["model_params_b", "mode", "batch_size", "precision", "context_length",
                   "prefer_gpu", "train_tokens", "epochs", "dataset_tokens", "deadline_days",
                   "concurrent_users", "prompt_tokens", "output_tokens", "target_tokens_per_s",
                   "target_ttft_s"]  # fmt: skip
FIELDS = [*BUILD_FIELDS, *WORKLOAD_FIELDS, "start", "fix", "pick", "form_state"]
STARTS = ["", "recommend", "S1", "S2", "S3", "S9", "²"]
VALUES = st.one_of(
    st.sampled_from(["", "0", "-1", "1", "2", "8", "99999999999", "true", "maybe", "4+4", "8+0",
                     "1+1+1", "4+4\n", "smc-sys-4028gr-tr", "h100-80g-sxm", "a800-80g-pcie",
                     "xeon-e5-2680-v4", "S1", "recommend", "P1", "capacity", "train", "infer",
                     "finetune", "fp8", "1e9", "3e11", "1e400", "nan", "inf", "-inf", "²", "８",
                     "٣", "1_000", "0x10", " 7 ", "\x00", "7\x00", "9" * 5000]),
    st.text(max_size=12),
)  # fmt: skip
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
queries = st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=8)


def assert_names_every_error(html: str, query: dict[str, str]) -> None:
    """Every field the page's forms refuse has its message beside it (`err_<name>`)."""
    errors = read_query(QueryDict(urlencode(query))).errors
    for name in errors:
        if name == "pick":  # from a card's link: named above the cards, when recommending
            if query.get("start") == "recommend":
                assert "(pick):" in html
            continue
        assert f'id="err_{name}"' in html, (name, errors[name])


def broken_fields(build: str) -> set[str]:
    """Return the fields of a build's query string that its forms refuse (a lead keeps neither
    the card picked nor the preferred GPU, so those two do not count)."""
    return set(read_query(QueryDict(build)).errors) - {"pick", "prefer_gpu"}


@FUZZ
@given(query=queries, start=st.sampled_from(STARTS), htmx=st.booleans())
def test_any_query_answers_a_page_that_names_what_is_wrong(client, query, start, htmx):
    query = {**query, "start": start} if start else query
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.get("/configure/", query, **headers)
    assert response.status_code in (200, 302), response.content[:300]  # 302: a fix applied
    if response.status_code == 200 and response.context is not None:
        assert_names_every_error(response.content.decode(), query)


@FUZZ
@given(query=st.dictionaries(st.sampled_from(WORKLOAD_FIELDS), VALUES, max_size=6))
def test_any_workload_asked_for_a_recommendation_answers_a_page(client, query):
    query = {"start": "recommend", "model_params_b": "7", "mode": "infer", **query}
    response = client.get("/configure/", query)
    assert response.status_code == 200
    assert_names_every_error(response.content.decode(), query)


@settings(FUZZ, max_examples=20)  # each example draws up to three columns
@given(builds=st.lists(queries, min_size=1, max_size=4), remove=VALUES)
def test_any_builds_compared_answer_a_page(client, builds, remove):
    for build in builds:
        assert client.post("/configure/compare/", {"build": urlencode(build)}).status_code == 302
    assert client.post("/configure/compare/", {"remove": remove}).status_code == 302
    assert client.get("/configure/compare/").status_code == 200


CONTACT = {"name": VALUES, "company": VALUES, "email": VALUES, "phone": VALUES}


@FUZZ
@given(
    contact=st.fixed_dictionaries({}, optional=CONTACT),
    build=queries,
    htmx=st.booleans(),
)
def test_any_quote_request_is_a_lead_or_a_400_naming_the_field(client, contact, build, htmx):
    cache.clear()  # the throttle allows five requests an hour per address
    leads = Lead.objects.count()
    data = {**CUSTOMER, **contact, "build": BUILD + "&" + urlencode(build)}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(reverse("web:quote"), data, **headers)
    assert response.status_code in (200, 400), response.content[:300]
    if response.status_code == 400:
        form = response.context["form"]
        assert form.errors
        html = response.content.decode()
        assert all(f'id="err_{name}"' in html for name in form.errors), form.errors
        assert Lead.objects.count() == leads
    else:
        assert Lead.objects.count() == leads + 1
    if broken_fields(data["build"]):
        assert response.status_code == 400 and "build" in response.context["form"].errors


@pytest.fixture
def lead(client):
    client.post(reverse("web:quote"), CUSTOMER)  # a customer's request: a new lead
    cache.clear()
    return Lead.objects.get()


@FUZZ
@given(query=queries, htmx=st.booleans())
def test_any_query_on_a_lead_answers_its_page(presales_client, lead, query, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = presales_client.get(f"/presales/leads/{lead.pk}/", query, **headers)
    assert response.status_code == 200
    assert_names_every_error(response.content.decode(), query)


@FUZZ
@given(build=queries, note=VALUES, status=VALUES, htmx=st.booleans())
def test_any_save_or_status_on_a_lead_is_done_or_named(presales_client, lead, build, note, status,
                                                       htmx):  # fmt: skip
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    saved = LeadBuild.objects.count()
    data = {"build": BUILD + "&" + urlencode(build), "note": note}
    response = presales_client.post(f"/presales/leads/{lead.pk}/save/", data, **headers)
    assert response.status_code in (200, 302, 400)
    if response.status_code == 400:
        refused = response.context["save_refused"].errors
        assert all(f'id="err_save_{name}"' in response.content.decode() for name in refused)
        assert LeadBuild.objects.count() == saved
    if broken_fields(data["build"]):
        assert response.status_code == 400 and "build" in response.context["save_refused"].errors
    response = presales_client.post(
        f"/presales/leads/{lead.pk}/status/", {"status": status}, **headers
    )
    assert response.status_code in (200, 302)
    if htmx and status not in Lead.Status.values:
        assert response.context["status_form"].errors["status"]
    inbox = presales_client.get("/presales/", {"status": status}, **headers)
    assert inbox.status_code == 200
