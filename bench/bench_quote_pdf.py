"""Render a quote's PDF: in-process, and through GET /api/v1/quotes/{number}.pdf.

Target (issue: quotes): a quote's PDF renders in ≤ 0.5 s. The baseline measured in the same
run is GET /api/v1/quotes/{number}, the same quote as JSON through the same stack, so the
ratio is what the PDF adds. The first render of a process also loads the CJK font; it is
reported on its own.
"""

import time

from bench.harness import django_setup, per_call_seconds

BUILD = {
    "cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "a800-80g-pcie", "gpu_count": 8,
    "gpus_per_socket": [4, 4], "memory_gb": 768, "memory_ecc": True, "psu_watts": 4400,
    "nvlink": True, "numa_binding": True, "platform": "smc-sys-421ge-tnrt",
}  # fmt: skip


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f} ms"


def run() -> dict[str, float]:
    django_setup()
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from configurator.quotes import pdf, services
    from configurator.roles import PRESALES
    from configurator.schemas import BuildIn, WorkloadIn

    user = User.objects.create_user("bench-presales", is_staff=True)
    user.groups.add(Group.objects.get(name=PRESALES))
    quote = services.quote_create(
        owner=user,
        customer=services.Customer("王伟 Wang Wei", "北京深度智能科技有限公司"),
        build=BuildIn.model_validate(BUILD),
        workload=WorkloadIn.model_validate({"model_params_b": 34, "mode": "train"}),
    )
    start = time.perf_counter()
    pdf.quote_pdf(quote)
    first = time.perf_counter() - start
    render = per_call_seconds(lambda: pdf.quote_pdf(quote), calls=20)
    client = Client()
    client.force_login(user)
    json_view = per_call_seconds(lambda: client.get(f"/api/v1/quotes/{quote.number}"), calls=50)
    pdf_view = per_call_seconds(lambda: client.get(f"/api/v1/quotes/{quote.number}.pdf"), calls=20)
    print(f"first render in a process (font load)  {fmt_ms(first):>9}")
    print(f"quote_pdf(), in-process                {fmt_ms(render):>9}   (target ≤ 500 ms)")
    print(f"GET /api/v1/quotes/{{n}} (JSON, baseline) {fmt_ms(json_view):>8}")
    ratio = pdf_view / json_view
    print(f"GET /api/v1/quotes/{{n}}.pdf             {fmt_ms(pdf_view):>9}   {ratio:.1f}× JSON")
    return {"first_s": first, "render_s": render, "json_s": json_view, "pdf_s": pdf_view}


if __name__ == "__main__":
    run()
