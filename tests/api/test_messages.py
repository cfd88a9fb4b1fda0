"""A finding's detail and fix are message ids with parameters, shown in the asked language."""

import pytest

from tests.web.test_configure import LEGACY

pytestmark = pytest.mark.django_db

BUILD = {
    "cpu": "xeon-e5-2680-v4", "cpu_count": 2, "gpu": "h100-80g-pcie", "gpu_count": 8,
    "gpus_per_socket": [4, 4], "memory_gb": 256, "memory_ecc": False, "psu_watts": 6400,
    "nvlink": False, "numa_binding": False,
}  # fmt: skip


def evaluate(client, **headers):
    response = client.post(
        "/api/v1/evaluate", {"build": BUILD}, content_type="application/json", **headers
    )
    assert response.status_code == 200
    return {check["code"]: check for check in response.json()["checks"]}


def test_english_is_the_default_and_carries_the_message_id_and_parameters(client):
    p1 = evaluate(client)["P1"]
    assert p1["detail"] == (
        "8 × NVIDIA H100 80GB PCIe on a PCIe Gen3 platform (2 × Intel Xeon E5-2680 v4); "
        "multi-GPU nodes need Gen4 or newer"
    )
    message = p1["detail_message"]
    assert message["message_id"].startswith("%(gpus)s on a PCIe Gen%(gen)s platform")
    assert message["params"]["gen"] == 3 and message["params"]["gen_min"] == 4
    assert message["message_id"] % message["params"] == p1["detail"]


@pytest.mark.parametrize("code", ["P1", "P2", "P3", "P6"])
def test_accept_language_renders_details_and_fixes_in_chinese(client, code):
    english = evaluate(client)[code]
    chinese = evaluate(client, HTTP_ACCEPT_LANGUAGE="zh-Hans")[code]
    assert chinese["status"] == english["status"] == "fail"
    assert chinese["detail"] != english["detail"] and chinese["fix"] != english["fix"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in chinese["detail"] + chinese["fix"])
    assert chinese["detail_message"] == english["detail_message"]  # the same id, the same numbers


def test_plural_gpu_counts_follow_the_language(client):
    english = evaluate(client)["P3"]["detail"]
    chinese = evaluate(client, HTTP_ACCEPT_LANGUAGE="zh-Hans")["P3"]["detail"]
    assert english.startswith("8 GPUs need") and chinese.startswith("8 个 GPU 需要")


def test_the_configurator_page_shows_chinese_details_and_fixes(client):
    client.cookies["django_language"] = "zh-hans"
    html = client.get(f"/configure/?{LEGACY}").content.decode()
    assert "装在 PCIe Gen3 平台上" in html and "改用 PCIe Gen4/Gen5 平台" in html


def test_the_measured_loss_is_in_the_asked_language_in_checks_and_pitfalls(client):
    english = client.post("/api/v1/evaluate", {"build": BUILD}, content_type="application/json")
    chinese = client.post(
        "/api/v1/evaluate",
        {"build": BUILD},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="zh-Hans",
    )
    english_p1 = next(p for p in english.json()["pitfalls"] if p["code"] == "P1")
    chinese_p1 = next(p for p in chinese.json()["pitfalls"] if p["code"] == "P1")
    assert english_p1["impact"].startswith("8-GPU utilisation only 61%")
    assert chinese_p1["impact"].startswith("8 卡利用率仅 61%")
    chinese_p6 = {c["code"]: c for c in chinese.json()["checks"]}["P6"]
    assert chinese_p6["impact"] == "72 小时满载内存出错概率 9.3%"


def test_the_configurator_page_shows_the_measured_loss_in_chinese(client):
    client.cookies["django_language"] = "zh-hans"
    html = client.get(f"/configure/?{LEGACY}").content.decode()
    assert "8 卡利用率仅 61%" in html
