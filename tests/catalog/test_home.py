"""The home page lists the catalog by kind; htmx swaps only the table."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_lists_gpus_by_default(client):
    response = client.get(reverse("catalog:home"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert "h100-80g-sxm" in html
    assert "xeon-gold-6530" not in html


@pytest.mark.parametrize(
    ("kind", "slug"),
    [("cpus", "epyc-9754"), ("memory", "ddr5"), ("psus", "W"), ("platforms", "Supermicro")],
)
def test_home_filters_by_kind(client, kind, slug):
    html = client.get(reverse("catalog:home"), {"kind": kind}).content.decode()
    assert slug in html


def test_htmx_request_gets_only_the_table(client):
    response = client.get(reverse("catalog:home"), {"kind": "cpus"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="catalog-table"')
    assert "<html" not in html
    assert "epyc-9754" in html


def test_unknown_kind_falls_back_to_gpus(client):
    response = client.get(reverse("catalog:home"), {"kind": "<script>"})
    assert response.status_code == 200
    assert "rtx-4090" in response.content.decode()


def test_home_marks_placeholder_prices(client):
    assert "placeholder" in client.get(reverse("catalog:home")).content.decode()


def test_admin_login_page_loads(client):
    assert client.get(reverse("admin:login")).status_code == 200


def test_pages_carry_a_nonce_based_content_security_policy(client):
    policy = client.get(reverse("catalog:home")).headers["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in policy
    assert "frame-ancestors 'none'" in policy


def test_api_docs_are_served_from_local_static_files(client):
    html = client.get("/api/v1/docs").content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower()


def test_health_probe_answers(client):
    assert client.get("/healthz").json() == {"status": "ok"}


def test_home_page_speaks_chinese(client):
    client.cookies["django_language"] = "zh-hans"
    html = client.get(reverse("catalog:home")).content.decode()
    assert "硬件目录" in html and "元 / 月" in html and "平台" in html


def test_language_switch_sets_chinese(client):
    response = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    assert response.status_code == 302
    assert "均衡 GPU 服务器配置器" in client.get("/").content.decode()


def test_htmx_swap_carries_the_tabs_so_the_active_tab_follows(client):
    html = client.get(reverse("catalog:home"), {"kind": "cpus"}, HTTP_HX_REQUEST="true").content
    tabs = re.findall(r"<a [^>]*>", html.decode())
    active = [tab for tab in tabs if "tab active" in tab]
    assert len(active) == 1 and 'href="?kind=cpus"' in active[0]
    assert 'aria-current="page"' in active[0]
