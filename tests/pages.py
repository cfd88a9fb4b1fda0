"""Every page of the README's table ("The pages"), each with the data it needs, and who opens it.

The page tests (Chinese text, phone width) walk `pages()`: one concrete URL or more per row of
the table, each with the roles that open it. A row the README adds without a URL here fails
`test_every_page_of_the_readme_is_walked` (tests/web/test_chinese_pages.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from urllib.parse import quote as quoted

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from configurator.fleet.models import FleetAudit, NodeProbe
from configurator.quotes import links, services
from configurator.quotes.models import Lead
from configurator.schemas import BuildIn, WorkloadIn
from configurator.web.services import configuration_share
from tests.fleet import sheets
from tests.fleet.probe_archives import dual_socket_synthetic, tar_gz

README = Path(__file__).resolve().parent.parent / "README.md"

# Two builds of the README's kind: one the rules refuse (P1 and more), one they accept.
LEGACY = (
    "cpu=xeon-e5-2680-v4&cpu_count=2&gpu=h100-80g-pcie&gpu_count=8&gpus_per_socket=4+4"
    "&memory_gb=1024&memory_ecc=true&psu_watts=6400&nvlink=false&numa_binding=true"
    "&platform=smc-sys-4028gr-tr"
)
MODERN = (
    "cpu=epyc-9754&cpu_count=2&gpu=h100-80g-sxm&gpu_count=8&gpus_per_socket=4+4&memory_gb=1536"
    "&memory_ecc=true&psu_watts=9000&nvlink=true&numa_binding=true&platform=smc-as-8125gs-tnhr"
)
TRAIN_70B = "&model_params_b=70&mode=train&batch_size=64"
RECOMMEND_34B = "model_params_b=34&mode=train&batch_size=8&start=recommend"
LORA_7B = "model_params_b=7&mode=finetune&finetune_method=lora&start=recommend"
ANONYMOUS, PRESALES, ARCHITECT = "anonymous", "presales", "architect"
STAFF = (PRESALES, ARCHITECT)
EVERYONE = (ANONYMOUS, PRESALES, ARCHITECT)
CUSTOMER = {"name": "王伟", "company": "北京深度智能科技有限公司", "email": "wang.wei@example.cn",
            "phone": "+86 10 5555 0100"}  # fmt: skip


@dataclass(frozen=True)
class Page:
    row: str  # the README's path, `/presales/leads/<id>/`
    url: str
    roles: tuple[str, ...]
    compare: tuple[str, ...] = ()  # builds put on the comparison first (the session holds it)


def readme_rows() -> list[str]:
    """Return the paths of the README's table of pages, in its order."""
    text = README.read_text(encoding="utf-8")
    table = text.split("## The pages", 1)[1].split("\n\n", 2)[1]
    return re.findall(r"^\| `([^`]+)` \|", table, flags=re.M)


def page_data(presales, architect) -> dict[str, str]:
    """Make what the pages show: a lead from the configurator's quote request, a quote in
    review, one issued to its customer, a short link, a fleet audit and a node probed against
    the issued quote (one GPU link narrowed, so the comparison has deviations to show). Return
    the values of the table's placeholders."""
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.post("/configure/quote/", {**CUSTOMER, "build": MODERN + TRAIN_70B})
    lead = Lead.objects.latest("pk")

    def quote():
        return services.quote_create(
            owner=presales, customer=services.Customer(**CUSTOMER),
            build=BuildIn.model_validate({
                "cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "a800-80g-pcie", "gpu_count": 8,
                "gpus_per_socket": [4, 4], "memory_gb": 768, "memory_ecc": True,
                "psu_watts": 4400, "nvlink": True, "numa_binding": True,
                "platform": "smc-sys-421ge-tnrt",
            }),
            workload=WorkloadIn.model_validate({"model_params_b": 34, "mode": "train"}),
            term_months=12, discount_pct=Decimal("5"),
        )  # fmt: skip

    services.quote_submit(quote=quote(), user=presales)  # waits for review
    issued = quote()
    services.quote_submit(quote=issued, user=presales)
    services.quote_approve(quote=issued, user=architect)
    issued = services.quote_issue(quote=issued, user=presales)
    shared = configuration_share(query=LEGACY + TRAIN_70B)
    fleet = Client()
    fleet.force_login(architect)
    fleet.post(
        "/fleet/",
        {
            "sheet": SimpleUploadedFile(
                "fleet.csv", sheets.csv_bytes([sheets.GOOD, sheets.P3, sheets.LEGACY])
            )
        },
    )
    archive = SimpleUploadedFile("probe.tar.gz", tar_gz(dual_socket_synthetic(narrow=5)))
    fleet.post(
        "/api/v1/fleet/probes", {"archive": archive, "psu_watts": 5000, "quote": issued.number}
    )
    return {
        "id": str(lead.pk),
        "number": issued.number,
        "token": links.customer_token(issued),
        "share": shared.id,
        "audit": FleetAudit.objects.latest("pk").pk,
        "probe": NodeProbe.objects.latest("pk").pk,
    }


def pages(values: dict[str, str]) -> list[Page]:
    """Return the concrete pages of the README's table, `values` filling its placeholders."""
    sentence = quoted("用 H20 部署 DeepSeek-R1，50 个并发，首 token 1 秒以内")
    variants = {
        "/": [Page("/", "/", EVERYONE)],
        "/configure/": [
            Page("/configure/", "/configure/", EVERYONE),
            Page("/configure/", f"/configure/?{LEGACY}", (ANONYMOUS,)),
            Page("/configure/", f"/configure/?{MODERN}{TRAIN_70B}", (ANONYMOUS,)),
            Page("/configure/", f"/configure/?{MODERN}{TRAIN_70B}&nodes=2&nics=8", (ANONYMOUS,)),
            Page("/configure/", f"/configure/?{RECOMMEND_34B}", (ANONYMOUS,)),
            Page("/configure/", f"/configure/?sentence={sentence}", (ANONYMOUS,)),
            Page("/configure/", f"/configure/?{LORA_7B}", (ANONYMOUS,)),
        ],
        "/configure/compare/": [
            Page("/configure/compare/", "/configure/compare/", (ANONYMOUS,), (LEGACY, MODERN))
        ],
        "/c/<id>/": [Page("/c/<id>/", "/c/{share}/", (ANONYMOUS,))],
        "/presales/": [Page("/presales/", "/presales/", STAFF)],
        "/presales/leads/<id>/": [Page("/presales/leads/<id>/", "/presales/leads/{id}/", STAFF)],
        "/admin/": [Page("/admin/", "/admin/", STAFF)],
        "/quotes/": [Page("/quotes/", "/quotes/", STAFF)],
        "/quotes/<number>/": [Page("/quotes/<number>/", "/quotes/{number}/", STAFF)],
        "/quotes/review/": [Page("/quotes/review/", "/quotes/review/", (ARCHITECT,))],
        "/quotes/c/<token>/": [Page("/quotes/c/<token>/", "/quotes/c/{token}/", (ANONYMOUS,))],
        "/fleet/": [Page("/fleet/", "/fleet/", (ARCHITECT,))],
        "/fleet/audits/<id>/": [
            Page("/fleet/audits/<id>/", "/fleet/audits/{audit}/", (ARCHITECT,))
        ],
        "/fleet/probes/": [Page("/fleet/probes/", "/fleet/probes/", (ARCHITECT,))],
        "/fleet/probes/<id>/": [
            Page("/fleet/probes/<id>/", "/fleet/probes/{probe}/", (ARCHITECT,))
        ],
        "/fleet/report/": [Page("/fleet/report/", "/fleet/report/", (ARCHITECT,))],
        "/fleet/delivery/": [Page("/fleet/delivery/", "/fleet/delivery/", (ARCHITECT,))],
    }
    found = []
    for row in readme_rows():
        for page in variants.get(row, []):
            url = page.url.format(**values) if "{" in page.url else page.url
            found.append(Page(page.row, url, page.roles, page.compare))
    return found


def walked_rows() -> set[str]:
    """Return the README rows `pages` has URLs for."""
    values = {"id": "1", "number": "Q", "token": "T", "share": "S", "audit": "1", "probe": "1"}
    return {page.row for page in pages(values)}
