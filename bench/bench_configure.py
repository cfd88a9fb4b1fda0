"""A configurator change: the htmx fragment one select answers, against a trivial view.

Target (issue 9): GET /configure/ with `HX-Request` — what one changed select asks for —
answers its fragment in ≤ 3× the time of the trivial view (/healthz, as in bench_evaluate)
measured in the same run. POST /api/v1/evaluate of the same build is measured beside it: the
checks alone, as JSON, without the page's options, price and HTML.

A results-only fragment, once drawn, is kept (configurator/web/fragments.py), so the change is
measured twice: to a build not seen before (the kept fragments are dropped before every call,
and the dropping is timed with it) and to a build seen before (answered from the cache).
"""

import json
import re
from functools import partial
from urllib.parse import urlencode

from bench.harness import django_setup, fmt_us, per_call_seconds

# 8 × H100 PCIe on the legacy dual-E5 platform: P1 fails, so the fragment shows its fix too.
CHANGE = (
    "/configure/?cpu=xeon-e5-2680-v4&cpu_count=2&gpu=h100-80g-pcie&gpu_count=8"
    "&gpus_per_socket=4%2B4&memory_gb=1024&memory_ecc=true&psu_watts=6400&nvlink=false"
    "&numa_binding=true&platform=smc-sys-4028gr-tr&model_params_b=34&mode=train&batch_size=8"
)


BUILD = {
    "cpu": "xeon-e5-2680-v4", "cpu_count": 2, "gpu": "h100-80g-pcie", "gpu_count": 8,
    "gpus_per_socket": [4, 4], "memory_gb": 1024, "memory_ecc": True, "psu_watts": 6400,
    "nvlink": False, "numa_binding": True, "platform": "smc-sys-4028gr-tr",
}  # fmt: skip
WORKLOAD = {"model_params_b": 34, "mode": "train", "batch_size": 8}


def form_values(html: str) -> dict[str, str]:
    """The configure form's fields as a browser submits them when one select changes."""
    start = html.index('<form id="configure-form"')
    form = html[start : html.index("</form>", start)]
    values = {}
    for select in re.finditer(r'<select id="\w+" name="(\w+)"[^>]*>(.*?)</select>', form, re.S):
        picked = re.search(r'<option value="([^"]*)" selected>', select.group(2))
        values[select.group(1)] = picked.group(1) if picked else ""
    for field in re.finditer(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', form):
        values[field.group(1)] = field.group(2)
    return values


def run() -> dict[str, float]:
    django_setup()
    from django.core.cache import caches
    from django.test import Client

    client = Client()
    # Over HTTPS, as the site is served: with DEBUG off, plain HTTP is only a redirect.
    get, post = partial(client.get, secure=True), partial(client.post, secure=True)
    drawn = get(CHANGE, HTTP_HX_REQUEST="true")
    assert drawn.status_code == 200
    # The customer then picks another memory size in the form the fragment drew: every field is
    # sent, with the form's state; no select's options depend on memory, so only results change.
    values = form_values(drawn.content.decode()) | {"memory_gb": "512"}
    results_change = "/configure/?" + urlencode(values)
    assert get(results_change, HTTP_HX_REQUEST="true")["HX-Retarget"] == "#results"
    trivial = per_call_seconds(lambda: get("/healthz"), calls=300)
    body = json.dumps({"build": BUILD, "workload": WORKLOAD})
    api = per_call_seconds(
        lambda: post("/api/v1/evaluate", body, content_type="application/json"), calls=100
    )
    fragment = per_call_seconds(lambda: get(CHANGE, HTTP_HX_REQUEST="true"), calls=60)
    kept = caches["fragments"]

    def first_time():
        kept.clear()
        return get(results_change, HTTP_HX_REQUEST="true")

    results = per_call_seconds(first_time, calls=60)
    seen = per_call_seconds(lambda: get(results_change, HTTP_HX_REQUEST="true"), calls=300)
    page = per_call_seconds(lambda: get(CHANGE), calls=60)
    fix = per_call_seconds(lambda: get(CHANGE + "&fix=P1", HTTP_HX_REQUEST="true"), calls=20)
    # Over htmx the fragments leave the checks' fixes to the request their results then make
    # (`/configure/fixes/`): each fix searched, as a build not seen before.
    fixes_url = drawn["HX-Push-Url"].replace("/configure/?", "/configure/fixes/?", 1)
    assert "Apply fix for P1" in get(fixes_url, HTTP_HX_REQUEST="true").content.decode()

    def fixes_first_time():
        kept.clear()
        return get(fixes_url, HTTP_HX_REQUEST="true")

    fixes = per_call_seconds(fixes_first_time, calls=20)
    ratio = fragment / trivial
    print(f"GET /healthz (trivial view)             {fmt_us(trivial):>10}")
    print(f"POST /api/v1/evaluate, same build       {fmt_us(api):>10}   {api / trivial:.2f}×")
    print(f"configurator change, htmx fragment      {fmt_us(fragment):>10}   {ratio:.2f}× trivial")
    print(f"results only, build not seen before     {fmt_us(results):>10}   "
          f"{results / trivial:.2f}× trivial")  # fmt: skip
    print(f"results only, build seen before         {fmt_us(seen):>10}   "
          f"{seen / trivial:.2f}× trivial")  # fmt: skip
    print(f"configurator, full page                 {fmt_us(page):>10}   {page / trivial:.2f}×")
    print(f"apply fix P1, htmx fragment             {fmt_us(fix):>10}   {fix / trivial:.2f}×")
    print(f"fixes fragment, build not seen before   {fmt_us(fixes):>10}   "
          f"{fixes / trivial:.2f}×")  # fmt: skip
    return {"trivial_s": trivial, "api_s": api, "fragment_s": fragment,
            "results_s": results, "seen_s": seen, "page_s": page,
            "fix_s": fix, "fixes_s": fixes}  # fmt: skip


if __name__ == "__main__":
    run()
