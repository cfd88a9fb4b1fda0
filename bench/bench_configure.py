"""A configurator change: the htmx fragment one select answers, against a trivial view.

Target (issue 9): GET /configure/ with `HX-Request` — what one changed select asks for —
answers its fragment in ≤ 3× the time of the trivial view (/healthz, as in bench_evaluate)
measured in the same run. POST /api/v1/evaluate of the same build is measured beside it: the
checks alone, as JSON, without the page's options, price and HTML.
"""

import json

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


def run() -> dict[str, float]:
    django_setup()
    from django.test import Client

    client = Client()
    assert client.get(CHANGE, HTTP_HX_REQUEST="true").status_code == 200
    trivial = per_call_seconds(lambda: client.get("/healthz"), calls=300)
    body = json.dumps({"build": BUILD, "workload": WORKLOAD})
    api = per_call_seconds(
        lambda: client.post("/api/v1/evaluate", body, content_type="application/json"), calls=100
    )
    fragment = per_call_seconds(lambda: client.get(CHANGE, HTTP_HX_REQUEST="true"), calls=60)
    page = per_call_seconds(lambda: client.get(CHANGE), calls=60)
    fix = per_call_seconds(lambda: client.get(CHANGE + "&fix=P1", HTTP_HX_REQUEST="true"), calls=20)
    ratio = fragment / trivial
    print(f"GET /healthz (trivial view)             {fmt_us(trivial):>10}")
    print(f"POST /api/v1/evaluate, same build       {fmt_us(api):>10}   {api / trivial:.2f}×")
    print(f"configurator change, htmx fragment      {fmt_us(fragment):>10}   {ratio:.2f}× trivial")
    print(f"configurator, full page                 {fmt_us(page):>10}   {page / trivial:.2f}×")
    print(f"apply fix P1, htmx fragment             {fmt_us(fix):>10}   {fix / trivial:.2f}×")
    return {"trivial_s": trivial, "api_s": api, "fragment_s": fragment, "page_s": page,
            "fix_s": fix}  # fmt: skip


if __name__ == "__main__":
    run()
