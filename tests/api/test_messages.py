"""The engine's texts are message ids with parameters, shown in the asked language.

A finding's detail, fix and measured loss; the recommender's why and its reason when no build
serves; the assumptions of sizing and of the performance model.
"""

import re

import pytest

from configurator.models import Scenario
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


# The recommender, sizing and the performance model ------------------------------------------

CHINESE = re.compile("[\u4e00-\u9fff]")
TRAIN_70B = {"model_params_b": 70, "mode": "train", "batch_size": 64}
TIMED_70B = {**TRAIN_70B, "train_tokens": 1e11, "deadline_days": 30}
SERVED_70B = {"model_params_b": 70, "mode": "infer", "batch_size": 8, "target_tokens_per_s": 2000}


def post(client, url, body, **headers):
    response = client.post(url, body, content_type="application/json", **headers)
    assert response.status_code == 200, response.content[:500]
    return response.json()


def zh(client, url, body):
    return post(client, url, body, HTTP_ACCEPT_LANGUAGE="zh-Hans")


def test_recommend_answers_the_why_in_english_by_default(client):
    item = post(client, "/api/v1/recommend", {"workload": TRAIN_70B})["builds"][0]
    assert "hold the 70B train job" in item["why"] and "Balance " in item["why"]
    assert not CHINESE.search(item["why"])


def test_recommend_answers_the_why_in_chinese(client):
    english = post(client, "/api/v1/recommend", {"workload": TRAIN_70B})["builds"]
    chinese = zh(client, "/api/v1/recommend", {"workload": TRAIN_70B})["builds"]
    assert [item["build"] for item in chinese] == [item["build"] for item in english]
    for item in chinese:
        assert "承载 70B 训练任务" in item["why"] and "均衡评分" in item["why"]
        assert "hold the" not in item["why"] and "Balance" not in item["why"]


def test_recommend_answers_the_work_line_and_assumptions_in_chinese(client):
    item = zh(client, "/api/v1/recommend", {"workload": TIMED_70B})["builds"][0]
    assert "每次运行 " in item["why"] and " 元。" in item["why"] and " days on " not in item["why"]
    assumptions = item["performance"]["assumptions"]
    assert "期限 30 天：达到" in assumptions
    assert all(CHINESE.search(note) for note in assumptions)


@pytest.mark.parametrize(
    ("workload", "english", "chinese"),
    [
        ({"model_params_b": 2000, "mode": "train", "batch_size": 8, "gpu_count": 8},
         "needs", "至少需要"),
        # (2000B training fits 64 nodes of 8 × H20 96GB since the catalog holds it; 5000B does not)
        ({"model_params_b": 5000, "mode": "train", "batch_size": 8},
         "is the most a build spans", "而一套配置最多只能覆盖"),
        ({**TRAIN_70B, "train_tokens": 3e13, "deadline_days": 0.5},
         "meets the deadline of 0.5 days", "无法在 0.5 天期限内完成"),
        ({**SERVED_70B, "target_tokens_per_s": 2e8},
         "serves the target of", "都达不到目标"),
    ],
)  # fmt: skip
def test_recommend_says_why_no_build_serves_in_the_asked_language(
    client, workload, english, chinese
):
    body = post(client, "/api/v1/recommend", {"workload": workload})
    assert body["builds"] == [] and english in body["reason"]
    assert not CHINESE.search(body["reason"])
    reason = zh(client, "/api/v1/recommend", {"workload": workload})["reason"]
    assert chinese in reason and english not in reason


def test_sizing_answers_its_assumptions_and_unit_in_chinese(client):
    workload = {"model_params_b": 7, "mode": "train", "batch_size": 4, "gpu_count": 8}
    english = post(client, "/api/v1/sizing", {"workload": workload})
    chinese = zh(client, "/api/v1/sizing", {"workload": workload})
    assert any(note.startswith("ZeRO-3 sharding over 8 GPUs") for note in english["assumptions"])
    assert "在 8 个 GPU 上做 ZeRO-3 分片" in " ".join(chinese["assumptions"])
    assert len(chinese["assumptions"]) == len(english["assumptions"])
    assert all(CHINESE.search(note) for note in chinese["assumptions"])
    assert english["unit"].startswith("GB = 10^9 bytes") and "字节" in chinese["unit"]


def test_sizing_with_work_answers_the_performance_assumptions_in_chinese(client):
    workload = {**SERVED_70B, "gpu": "h100-80g-sxm"}
    english = post(client, "/api/v1/sizing", {"workload": workload})["performance"]
    chinese = zh(client, "/api/v1/sizing", {"workload": workload})["performance"]
    assert english["assumptions"][-1].startswith("priced at the monthly rent of")
    priced = chinese["assumptions"][-1]
    assert priced.startswith("仅按") and priced.endswith("的月租计价")
    assert any(note.startswith("目标每秒 2000 个输出 token：") for note in chinese["assumptions"])


def test_evaluate_answers_the_performance_assumptions_in_chinese(client):
    build = {**BUILD, "cpu": "xeon-gold-6530", "memory_ecc": True, "numa_binding": True}
    body = {"build": build, "workload": TIMED_70B}
    english = post(client, "/api/v1/evaluate", body)["performance"]["assumptions"]
    chinese = zh(client, "/api/v1/evaluate", body)["performance"]["assumptions"]
    assert any(note.startswith("a month is 730 hours") for note in english)
    assert "每月按 730 小时折算整机月租" in chinese
    assert all(CHINESE.search(note) for note in chinese)


def test_the_configurator_page_shows_the_recommenders_why_in_chinese(client):
    client.cookies["django_language"] = "zh-hans"
    query = "model_params_b=70&mode=train&batch_size=64&start=recommend"
    html = client.get(f"/configure/?{query}").content.decode()
    assert "承载 70B 训练任务" in html and "hold the 70B train job" not in html


def test_the_configurator_page_says_in_chinese_why_no_build_serves(client):
    query = "model_params_b=5000&mode=train&batch_size=8&start=recommend"
    html = client.get(f"/configure/?{query}", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "而一套配置最多只能覆盖 64 个节点" in html and "the most a build spans" not in html


def test_the_guides_recipe_name_and_result_read_in_the_asked_language(client):
    """The guide's recipes' names and measured results are message ids in the catalogue."""
    body = {"workload": {"model_params_b": 34, "mode": "train", "batch_size": 8}}
    english = post(client, "/api/v1/recommend", body)["builds"]
    chinese = zh(client, "/api/v1/recommend", body)["builds"]
    recipe = next(index for index, item in enumerate(english) if item["scenario"] == "S2")
    assert "(Mid-size distributed training): 7B–34B data parallel" in english[recipe]["why"]
    assert "中型模型分布式训练" in chinese[recipe]["why"]
    assert "7B–34B 数据并行，AllReduce 时间 −62%" in chinese[recipe]["why"]
    why = chinese[recipe]["why"]
    assert "Mid-size" not in why and "data parallel" not in why


def test_a_result_written_in_the_admin_is_shown_as_written_in_every_language(client):
    """Text an architect writes is data: no catalogue has it, so every language shows it."""
    scenario = Scenario.objects.get(code="S2")
    scenario.result = "7B–34B data parallel, AllReduce time −60% (re-measured)"
    scenario.save()  # renews the rules snapshot, as an edit in the admin does
    body = {"workload": {"model_params_b": 34, "mode": "train", "batch_size": 8}}
    chinese = zh(client, "/api/v1/recommend", body)["builds"]
    why = next(item["why"] for item in chinese if item["scenario"] == "S2")
    assert "中型模型分布式训练" in why  # the name is still the guide's
    assert "7B–34B data parallel, AllReduce time −60% (re-measured)" in why


def test_the_recipe_buttons_name_their_recipe_in_the_pages_language(client):
    english = client.get("/configure/").content.decode()
    client.cookies["django_language"] = "zh-hans"
    chinese = client.get("/configure/").content.decode()
    assert 'value="S2" class="secondary" title="Mid-size distributed training"' in english
    assert 'value="S2" class="secondary" title="中型模型分布式训练"' in chinese


# Input errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "path", "english", "chinese"),
    [
        ({**BUILD, "cpu": "nope"}, "build.cpu",
         "Unknown CPU 'nope': use a catalog slug or name.",
         "未知的 CPU 'nope'：请使用目录中的 slug 或名称。"),
        ({**BUILD, "gpu": "l20", "nvlink": True}, "build.nvlink",
         "NVIDIA L20 48GB has no NVLink.", "NVIDIA L20 48GB 没有 NVLink。"),
        ({**BUILD, "gpus_per_socket": [5, 4]}, "build.gpus_per_socket",
         "The counts add up to 9, but gpu_count is 8.", "各路数量之和为 9，但 gpu_count 为 8。"),
    ],
)  # fmt: skip
def test_a_bad_field_is_named_in_the_asked_language(client, build, path, english, chinese):
    def errors(**headers):
        response = client.post(
            "/api/v1/evaluate", {"build": build}, content_type="application/json", **headers
        )
        assert response.status_code == 400
        return response.json()["errors"][path]

    assert errors() == [english]
    assert errors(HTTP_ACCEPT_LANGUAGE="zh-Hans") == [chinese]


def test_a_bad_model_shape_is_named_in_chinese(client):
    workload = {"model_params_b": 7, "mode": "train", "attention_heads": 32, "kv_heads": 64}
    body = {"workload": workload}
    response = client.post(
        "/api/v1/sizing", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-Hans"
    )
    assert response.status_code == 400
    assert response.json()["errors"]["workload.kv_heads"] == [
        "kv_heads（64）不能超过 attention_heads（32）。"
    ]
