"""Each role finds its pages from the header and the admin index, and only pages it may open."""

import re

import pytest

from configurator.roles import TOOLS, tools_for

pytestmark = pytest.mark.django_db

ARCHITECT_TOOLS = ["Leads", "Quotes", "Review queue", "Rules", "Catalog admin", "Fleet audit",
                   "Node probes", "Monthly report"]  # fmt: skip
ROLE_ROW = re.compile(r'<nav class="role-tools"[^>]*>(.*?)</nav>', re.S)


def header_tools(html: str) -> list[str]:
    row = ROLE_ROW.search(html)
    return re.findall(r">([^<]+)</a>", row.group(1)) if row else []


def test_architects_find_every_tool_in_the_header(architect_client):
    html = architect_client.get("/configure/").content.decode()
    assert header_tools(html) == ARCHITECT_TOOLS


def test_presales_find_leads_and_quotes(presales_client):
    html = presales_client.get("/configure/").content.decode()
    assert header_tools(html) == ["Leads", "Quotes"]


def test_customers_see_no_staff_row(client, customer):
    assert header_tools(client.get("/configure/").content.decode()) == []
    client.force_login(customer)
    assert header_tools(client.get("/configure/").content.decode()) == []


@pytest.mark.parametrize("role", ["architect", "presales"])
def test_every_tool_shown_opens_for_its_user(request, role):
    client = request.getfixturevalue(f"{role}_client")
    user = request.getfixturevalue(role)
    html = client.get("/").content.decode()
    links = re.findall(r'href="([^"]+)"', ROLE_ROW.search(html).group(1))
    assert len(links) == len(tools_for(user))
    for url in links:
        assert client.get(url).status_code == 200, url


def test_the_architects_pages_are_refused_to_presales(presales_client, presales):
    """Hidden from presales: the pages they may not open, and the rules and the catalog in the
    admin, which they may only read (their work is on leads and quotes)."""
    from django.urls import reverse

    hidden = {tool.label: tool for tool in TOOLS if tool not in tools_for(presales)}
    assert set(hidden) == set(ARCHITECT_TOOLS) - {"Leads", "Quotes"}
    for label in ("Review queue", "Fleet audit", "Node probes", "Monthly report"):
        tool = hidden[label]
        assert presales_client.get(reverse(tool.url_name, kwargs=tool.kwargs)).status_code == 403


def test_the_page_shown_is_marked_in_the_row(architect_client):
    html = architect_client.get("/quotes/review/").content.decode()
    row = ROLE_ROW.search(html).group(1)
    assert re.findall(r'<a href="([^"]+)" aria-current="page"', row) == ["/quotes/review/"]


def test_the_admin_index_lists_the_users_tools(architect_client):
    html = architect_client.get("/admin/").content.decode()
    assert "Your tools" in html
    for label in ARCHITECT_TOOLS:
        assert f">{label}</a>" in html, label


def test_the_row_speaks_chinese(architect_client):
    html = architect_client.get("/configure/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert header_tools(html) == ["销售线索", "报价单", "审核队列", "规则", "目录管理",
                                  "机群审计", "节点探测", "月度报告"]  # fmt: skip
