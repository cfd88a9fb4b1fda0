"""NVMe drives are counted against the bays of a real platform of the seed catalog.

The Supermicro SYS-740GP-TNRT (the guide's S1 tower) has 4 NVMe bays in the seed catalog.
"""

import pytest
from django.urls import reverse

from catalog.models import Platform
from tests.api.reference_systems import S1_ON_740GP

pytestmark = pytest.mark.django_db
URL = "/api/v1/evaluate"
PLATFORM = "smc-sys-740gp-tnrt"


def drive_check(body: dict) -> dict:
    return next(check for check in body["checks"] if check["code"] == "drive_bays")


def test_the_platform_of_the_seed_catalog_has_four_bays():
    assert Platform.objects.get(slug=PLATFORM).nvme_bays == 4


def test_thirty_drives_on_the_four_bay_platform_are_rejected_with_the_numbers(post_json):
    body = post_json(URL, {"build": {**S1_ON_740GP, "nvme": 30}}).json()
    check = drive_check(body)
    assert check["status"] == "fail" and body["verdict"] == "reject"
    assert check["numbers"] == {"nvme": 30, "nvme_bays": 4}
    assert check["detail"] == "30 NVMe drives per node; the platform has 4 NVMe bays"
    assert "at most 4 NVMe drives per node (26 fewer)" in check["fix"]
    assert check["title"] == "NVMe drives within the platform's bays"


def test_four_drives_on_the_four_bay_platform_pass(post_json):
    body = post_json(URL, {"build": {**S1_ON_740GP, "nvme": 4}}).json()
    assert drive_check(body)["status"] == "pass"
    assert body["verdict"] == "accept"


def test_without_a_platform_the_bays_are_not_known(post_json):
    build = {key: value for key, value in S1_ON_740GP.items() if key != "platform"}
    check = drive_check(post_json(URL, {"build": {**build, "nvme": 30}}).json())
    assert check["status"] == "na"


def test_the_check_speaks_chinese(post_json):
    body = post_json(
        URL, {"build": {**S1_ON_740GP, "nvme": 30}}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).json()
    check = drive_check(body)
    assert check["title_zh"] == "NVMe 硬盘数不超过平台盘位"
    assert "30 块 NVMe 硬盘" in check["detail"] and "4 个 NVMe 盘位" in check["detail"]


def test_the_configurator_offers_as_many_drives_as_the_platform_has_bays(client):
    query = {**S1_ON_740GP, "cpu_count": 2, "nvme": 30}
    response = client.get(reverse("web:configure"), {k: str(v).lower() for k, v in query.items()})
    html = response.content.decode()
    assert response.status_code == 200
    assert "NVMe drives changed from 30 to 4: the platform takes no other." in html
    select = html.split('name="nvme"', 1)[1].split("</select>", 1)[0]
    assert [f'value="{n}"' in select for n in range(6)] == [True] * 5 + [False]
    assert "4 NVMe drives per node in the platform&#x27;s 4 NVMe bays" in html
