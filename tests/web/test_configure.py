"""The customer configurator: a permalink reopens its build; every change re-evaluates."""

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

API_EXAMPLE = (
    "cpu=xeon-gold-6530&cpu_count=2&gpu=a800-80g-sxm&gpu_count=8&gpus_per_socket=4+4"
    "&memory_gb=1024&memory_ecc=true&psu_watts=6000&nvlink=true&numa_binding=true"
)
LEGACY = (
    "cpu=xeon-e5-2680-v4&cpu_count=2&gpu=h100-80g-pcie&gpu_count=8&gpus_per_socket=4+4"
    "&memory_gb=1024&memory_ecc=true&psu_watts=6400&nvlink=false&numa_binding=true"
    "&platform=smc-sys-4028gr-tr"
)
URL = "/configure/"


def page(client, query="", **headers):
    response = client.get(f"{URL}?{query}", **headers)
    assert response.status_code == 200, response.content[:2000]
    return response, response.content.decode()


def test_configure_url_is_the_contracts():
    assert reverse("web:configure") == URL


def test_empty_configurator_opens_a_recipe_build_that_is_checked(client):
    _, html = page(client)
    assert "<html" in html
    assert 'id="check-P1"' in html and 'id="check-capacity"' in html
    assert "Bill of materials" in html


def test_api_example_permalink_shows_the_same_verdict_as_the_api(client):
    body = {"build": {
        "cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "a800-80g-sxm", "gpu_count": 8,
        "gpus_per_socket": [4, 4], "memory_gb": 1024, "memory_ecc": True, "psu_watts": 6000,
        "nvlink": True, "numa_binding": True}}  # fmt: skip
    api = client.post("/api/v1/evaluate", body, content_type="application/json").json()
    response, _html = page(client, API_EXAMPLE)
    assert response.context["verdict"] == api["verdict"]
    assert response.context["balance"]["overall"] == round(api["balance"]["overall"])
    failing = {c["code"] for c in api["checks"] if c["status"] == "fail"}
    assert {c["code"] for c in response.context["checks"] if c["status"] == "fail"} == failing


def test_permalink_reopens_the_build_field_for_field(client):
    response, _ = page(client, API_EXAMPLE)
    permalink = response.context["permalink"]
    assert permalink.startswith(API_EXAMPLE)
    reopened, _ = page(client, permalink)
    assert reopened.context["permalink"] == permalink


def test_legacy_platform_with_eight_h100_fails_p1_with_its_fix(client):
    response, html = page(client, LEGACY)
    p1 = next(c for c in response.context["checks"] if c["code"] == "P1")
    assert p1["status"] == "fail"
    assert "Gen3" in p1["detail"] and p1["fix"]
    assert "Apply fix for P1" in html
    assert response.context["verdict"] == "reject"


def test_only_cpus_of_the_platforms_socket_are_offered(client):
    response, _ = page(client, LEGACY)
    cpu_field = next(f for f in response.context["fields"] if f.name == "cpu")
    assert [o.value for o in cpu_field.options] == ["xeon-e5-2680-v4"]
    gpu_field = next(f for f in response.context["fields"] if f.name == "gpu")
    assert "h100-80g-sxm" not in [o.value for o in gpu_field.options]


def test_choosing_another_platform_moves_the_parts_onto_it(client):
    response, html = page(client, LEGACY.replace("smc-sys-4028gr-tr", "smc-sys-421ge-tnrt"))
    assert "xeon-e5-2680-v4" not in response.context["permalink"]
    assert "the platform takes no other" in html


def test_apply_fix_redirects_to_a_build_that_clears_the_check(client):
    response = client.get(f"{URL}?{LEGACY}&fix=P1")
    assert response.status_code == 302
    fixed = parse_qs(urlsplit(response["Location"]).query)
    assert fixed["platform"] != ["smc-sys-4028gr-tr"]
    reopened, _ = page(client, urlsplit(response["Location"]).query)
    p1 = next(c for c in reopened.context["checks"] if c["code"] == "P1")
    assert p1["status"] == "pass"


def test_apply_fix_over_htmx_answers_the_fragment_and_pushes_the_permalink(client):
    response = client.get(f"{URL}?{LEGACY}&fix=P1", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="configurator"')
    assert "Applied the fix for P1" in html
    assert "platform=smc-sys-4028gr-tr" not in response["HX-Push-Url"]


def test_htmx_change_answers_only_the_fragment_with_the_live_verdict(client):
    response, html = page(client, LEGACY, HTTP_HX_REQUEST="true")
    assert "<html" not in html
    assert '<div id="summary-bar" hx-swap-oob="innerHTML">' in html  # the bar's content only
    assert "Rejected" in html
    assert response["HX-Push-Url"].startswith(f"{URL}?cpu=xeon-e5-2680-v4")


def submitted(html):
    """Return the configure form's values as the browser submits them on a change."""
    start = html.index('<form id="configure-form"')
    form = html[start : html.index("</form>", start)]
    values = {}
    for select in re.finditer(r'<select id="\w+" name="(\w+)"[^>]*>(.*?)</select>', form, re.S):
        picked = re.search(r'<option value="([^"]*)" selected>', select.group(2))
        values[select.group(1)] = picked.group(1) if picked else ""
    for field in re.finditer(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', form):
        values[field.group(1)] = field.group(2)
    return values


def test_a_change_that_keeps_the_forms_options_redraws_only_the_results(client):
    _, html = page(client, LEGACY + "&model_params_b=34&mode=train")
    values = submitted(html)  # every field, as the browser sends the form on a change
    _, html = page(client, urlencode(values), HTTP_HX_REQUEST="true")
    if '<form id="configure-form"' in html:  # the first change may redraw the form whole
        values = submitted(html)
    values["memory_gb"] = "512"  # another memory size: no select's options depend on it
    response, fragment = page(client, urlencode(values), HTTP_HX_REQUEST="true")
    assert response["HX-Retarget"] == "#results"
    assert response["HX-Reswap"] == "outerHTML"
    assert 'id="configure-form"' not in fragment
    assert '<section class="results" id="results"' in fragment
    assert '<div id="summary-bar" hx-swap-oob="innerHTML">' in fragment
    assert 'id="language-next" value="/configure/?' in fragment
    assert "memory_gb=512" in response["HX-Push-Url"]
    assert "HX-Request" in response["Vary"]


def test_a_change_that_changes_the_forms_options_redraws_the_whole_configurator(client):
    _, html = page(client, LEGACY)
    values = submitted(html)
    values["gpu_count"] = "4"  # fewer GPUs: the socket splits offered change
    response, fragment = page(client, urlencode(values), HTTP_HX_REQUEST="true")
    assert "HX-Retarget" not in response
    assert fragment.lstrip().startswith('<div id="configurator"')
    assert 'id="configure-form"' in fragment


def test_a_form_drawn_in_another_language_is_redrawn(client):
    _, html = page(client, LEGACY)
    values = submitted(html)
    client.cookies["django_language"] = "zh-hans"
    response, fragment = page(client, urlencode(values), HTTP_HX_REQUEST="true")
    assert "HX-Retarget" not in response
    assert 'id="configure-form"' in fragment


def test_answers_vary_on_hx_request(client):
    response, _ = page(client, LEGACY)
    assert "HX-Request" in response["Vary"]


def test_price_is_the_bill_of_materials_on_the_cheapest_platform_that_fits(client):
    query = API_EXAMPLE.replace("xeon-gold-6530", "epyc-9754").replace(
        "a800-80g-sxm", "h100-80g-sxm"
    )
    response, html = page(client, query)
    bill = response.context["bill"]
    lines = {line["kind"]: line for line in bill["lines"]}
    assert lines["Platform"]["slug"] == "smc-as-8125gs-tnhr"
    assert lines["GPU"]["qty"] == 8
    # 1024 GB is no balanced population of 24 channels and the build counts no DIMMs (it is
    # evaluated with one per channel): the next balanced one up is priced, and said
    assert lines["Memory"]["qty"] == 24
    assert "System memory priced as 1,152" in html
    assert bill["platform_assumed"]
    assert "cheapest platform that takes these parts" in html
    # 5000 platform + 2 × 900 CPU + 8 × 9000 GPU + 16 × 120 DIMM (64 GB DDR5) + PSUs
    assert bill["monthly_price_value"] >= 5000 + 1800 + 72000


def test_parts_no_platform_takes_together_are_not_priced_silently(client):
    response, html = page(client, API_EXAMPLE)
    assert "Platform" in response.context["bill"]["unpriced"]
    assert "Not priced" in html


def test_bad_query_values_are_named_not_a_500(client):
    response, html = page(client, "cpu=nope&gpu_count=99&memory_ecc=maybe")
    assert "nope" in html
    assert set(response.context["fields"][0].errors) == set()
    errors = {f.name: f.errors for f in response.context["fields"]}
    assert errors["gpu_count"] and errors["memory_ecc"]


def test_workload_in_the_permalink_is_checked_for_capacity(client):
    response, _ = page(client, API_EXAMPLE + "&model_params_b=175&mode=train&batch_size=8")
    capacity = next(c for c in response.context["checks"] if c["code"] == "capacity")
    assert capacity["status"] == "fail"
    assert "model_params_b=175" in response.context["permalink"]


def test_recommend_for_me_loads_the_best_build_and_lists_the_others(client):
    response, html = page(client, "model_params_b=70&mode=train&batch_size=64&start=recommend")
    cards = response.context["recommendations"]
    assert cards and cards[0]["chosen"]
    assert response.context["verdict"] == "accept"
    assert "Choose this build" in html or len(cards) == 1


def test_recommend_without_a_workload_asks_for_one(client):
    _, html = page(client, "start=recommend")
    assert "Give the model size and the mode" in html


@pytest.mark.parametrize("code", ["S1", "S2", "S3"])
def test_recipes_open_as_builds(client, code):
    response, _ = page(client, f"start={code}")
    assert response.context["verdict"] in ("accept", "reject")
    assert response.context["bill"]["lines"]


def test_page_speaks_chinese_with_yuan(client):
    client.cookies["django_language"] = "zh-hans"
    response, html = page(client, LEGACY)
    assert "老旧 PCIe 3.0 平台" in html
    assert "元" in response.context["bill"]["monthly_price"]


def test_page_works_without_javascript(client):
    _, html = page(client, LEGACY)
    assert 'method="get" action="/configure/"' in html
    assert "<noscript>" in html  # a submit button where htmx does not run
    fix = html[html.index('class="button apply-fix"') :][:400]
    assert 'href="/configure/?cpu=xeon-e5-2680-v4' in fix and "fix=P1" in fix


def test_htmx_is_vendored_nonced_and_carries_the_csrf_token(client):
    response, html = page(client)
    assert '<script src="/static/django_htmx/' in html or "/static/htmx/" in html
    nonce = response.headers["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'nonce="{nonce}"' in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html


def test_a_fix_that_no_single_change_makes_is_said_on_the_page(client):
    # 16 GPUs of 80 GB cannot hold a 10,000B training job by changing one part.
    query = LEGACY + "&model_params_b=10000&mode=train&batch_size=8&fix=capacity"
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 200
    assert "No single component change clears capacity" in response.content.decode()


def test_an_uneven_placement_survives_the_permalink(client):
    query = LEGACY.replace("platform=smc-sys-4028gr-tr", "platform=smc-sys-420gp-tnr").replace(
        "cpu=xeon-e5-2680-v4", "cpu=xeon-gold-5318y"
    )
    query = query.replace("gpus_per_socket=4+4", "gpus_per_socket=5+3")
    response, _ = page(client, query)
    assert "gpus_per_socket=5+3" in response.context["permalink"]
    reopened, _ = page(client, response.context["permalink"])
    assert reopened.context["permalink"] == response.context["permalink"]
    escaped, _ = page(client, query.replace("5+3", "5%2B3"))
    assert escaped.context["permalink"] == response.context["permalink"]


@pytest.mark.parametrize(("code", "low", "high"), [("S1", 2, 4), ("S2", 4, 8), ("S3", 8, 8)])
def test_a_recipe_opens_with_the_gpu_count_it_names_and_is_accepted(client, code, low, high):
    """domain.md §3: S1 is 2–4 GPUs, S2 4–8, S3 8, though S2's board has ten slots."""
    response, html = page(client, f"start={code}", HTTP_HX_REQUEST="true")
    opened = parse_qs(urlsplit(response["HX-Push-Url"]).query)
    assert low <= int(opened["gpu_count"][0]) <= high
    assert 'class="verdict verdict-accept"' in html


def test_the_summary_bar_is_a_live_region_with_verdict_score_price_and_watts(client):
    """8 GPUs on one socket with non-ECC memory: rejected, and its score said so."""
    query = "cpu=epyc-9754&gpu=h100-80g-sxm&gpu_count=8&cpu_count=1&gpus_per_socket=8"
    _, html = page(client, query + "&memory_ecc=false")
    start = html.index('<div id="summary-bar"')
    bar = html[start : html.index('<div id="configurator"', start)]
    assert 'aria-live="polite"' in bar and 'role="status"' in bar
    assert ">Rejected<" in bar and "checks fail" in bar
    assert 'class="bar-score score-rejected"' in bar and "rejected" in bar
    assert "per month" in bar and "CNY " in bar
    assert " W drawn · PSUs " in bar
    gauge = html[html.index('<figure class="gauge') :]
    assert gauge.startswith('<figure class="gauge score-rejected"')
    assert 'class="gauge-value bad"' in gauge[: gauge.index("</figure>")]


S2_1024 = "cpu=xeon-gold-6530&gpu=a800-80g-sxm&gpu_count=8&memory_gb=1024"


def test_a_high_score_of_a_rejected_build_is_shown_rejected(client):
    _, html = page(client, S2_1024 + "&psu_watts=4400")  # P7 fails; balance 99
    bar = html[html.index('<div id="summary-bar"') : html.index('<div id="configurator"')]
    assert ">Rejected<" in bar and "score-rejected" in bar and "<span>rejected</span>" in bar
    assert "rejected: 1 check fails" in html[html.index('id="gauge-caption"') :][:200]
    assert "5,284 W drawn · PSUs 4,400 W, 5,813 W needed" in bar
    assert 'class="bar-power power-short"' in bar


def test_an_accepted_builds_score_reads_as_rented_out(client):
    _, html = page(client, S2_1024 + "&psu_watts=6000")
    bar = html[html.index('<div id="summary-bar"') : html.index('<div id="configurator"')]
    assert ">Accepted<" in bar and "every check passes" in bar
    assert "score-rejected" not in bar and "rented out from 85" in bar
    assert "5,284 W drawn · PSUs 6,000 W<" in bar


def test_a_passed_check_says_what_passed_in_both_languages(client):
    _, html = page(client, S2_1024)
    p6 = html[html.index('id="check-P6"') :]
    p6 = p6[: p6.index("</li>")]
    assert "ECC server memory" in p6 and "Non-ECC" not in p6
    _, chinese = page(client, S2_1024, HTTP_ACCEPT_LANGUAGE="zh-hans")
    p6 = chinese[chinese.index('id="check-P6"') :]
    assert "服务器 ECC 内存" in p6[: p6.index("</li>")]


def test_a_problem_another_check_owns_says_whose_it_is(client):
    _, html = page(client, "cpu=xeon-gold-6530&gpu=a800-80g-sxm&gpu_count=8&memory_gb=512")
    memory = html[html.index('id="check-memory"') :]
    memory = memory[: memory.index("</li>")]
    assert "check status-na" in html[html.index('id="check-memory"') - 40 :][:60]
    assert "counted by P3" in memory and "Apply fix" not in memory


def test_the_skip_link_is_the_first_stop_and_targets_the_results(client):
    _, html = page(client, LEGACY)
    body = html[html.index("<body") :]
    first_link = re.search(r"<(a|button|input|select)\b[^>]*>", body).group(0)
    assert 'class="skip-link" href="#results"' in first_link
    assert 'id="results"' in html and 'tabindex="-1"' in html
