"""A customer's request in one line, read into the workload's fields (engine/sentence.py,
docs/sentence.md): a table of requests as presales receive them, in English and Chinese.

The GPUs are the seed catalog's (catalog/migrations/0002_seed_catalog.py and 0013), by slug
and name as the page passes them; no database is needed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from configurator.engine.build import Mode, Workload
from configurator.engine.fields import declarations
from configurator.engine.sentence import (
    FIELDS,
    MAX_SENTENCE,
    UNITS,
    SentenceTooLong,
    chinese_number,
    read_sentence,
)
from configurator.inputs import workload_from_input
from configurator.schemas import WorkloadIn

GPUS = (
    ("rtx-4090", "NVIDIA GeForce RTX 4090 24GB"),
    ("l20", "NVIDIA L20 48GB"),
    ("l40s", "NVIDIA L40S 48GB"),
    ("a800-80g-pcie", "NVIDIA A800 80GB PCIe"),
    ("a800-80g-sxm", "NVIDIA A800 80GB SXM4"),
    ("h20-96g", "NVIDIA H20 96GB"),
    ("h100-80g-pcie", "NVIDIA H100 80GB PCIe"),
    ("h100-80g-sxm", "NVIDIA H100 80GB SXM5"),
    ("h100-nvl-94g", "NVIDIA H100 NVL 94GB"),
    ("h800-80g-sxm", "NVIDIA H800 80GB SXM5"),
    ("h200-141g-sxm", "NVIDIA H200 141GB SXM"),
)

# (request, the fields it sets). Every request here is read whole: nothing is left unread.
TABLE = [
    # The four requests (issue 20, "What to build" 1).
    ("serve Qwen2.5-72B to 50 users, first token under 1 s",
     {"model": "qwen2.5-72b", "mode": "infer", "concurrent_users": 50, "target_ttft_s": 1}),
    ("用 H20 部署 DeepSeek-R1，1000 tok/s",
     {"model": "deepseek-r1", "mode": "infer", "gpu": "h20-96g", "target_tokens_per_s": 1000}),
    ("train a 7B on 1T tokens in 14 days",
     {"model_params_b": 7, "mode": "train", "train_tokens": 1e12, "deadline_days": 14}),
    ("7B LoRA 便宜点", {"model_params_b": 7, "mode": "finetune", "finetune_method": "lora"}),
    # English
    ("Serve Qwen2.5-72B to about 50 users, first token under 1 s",
     {"model": "qwen2.5-72b", "mode": "infer", "concurrent_users": 50, "target_ttft_s": 1}),
    ("fine-tune Llama-3.1-8B with QLoRA",
     {"model": "llama-3.1-8b", "mode": "finetune", "finetune_method": "qlora"}),
    ("fine-tune a 7B with LoRA on a budget",
     {"model_params_b": 7, "mode": "finetune", "finetune_method": "lora"}),
    ("LoRA fine-tune of Qwen2.5-7B under 5000 CNY a month",
     {"model": "qwen2.5-7b", "mode": "finetune", "finetune_method": "lora",
      "budget_monthly": 5000}),
    ("Llama 3.1 70B inference, FP8, 2000 tokens/s",
     {"model": "llama-3.1-70b", "mode": "infer", "precision": "fp8",
      "target_tokens_per_s": 2000}),
    ("deploy DeepSeek-V3 on H200 for 64 concurrent users, TTFT < 500 ms",
     {"model": "deepseek-v3", "mode": "infer", "gpu": "h200-141g-sxm", "concurrent_users": 64,
      "target_ttft_s": 0.5}),
    ("pretrain a 70B model on 2T tokens within 30 days",
     {"model_params_b": 70, "mode": "train", "train_tokens": 2e12, "deadline_days": 30}),
    ("full fine-tune of Qwen2.5-7B, 3 epochs on a 5B-token dataset",
     {"model": "qwen2.5-7b", "mode": "finetune", "finetune_method": "full", "epochs": 3,
      "dataset_tokens": 5e9}),
    ("Mixtral 8x7B chatbot for 200 users, 4k context, budget 100k CNY/month",
     {"model": "mixtral-8x7b", "mode": "infer", "concurrent_users": 200,
      "context_length": 4000, "budget_monthly": 100_000}),
    ("cheapest way to run a 13B model for inference", {"model_params_b": 13, "mode": "infer"}),
    ("7B on RTX 4090 for 4 users",
     {"model_params_b": 7, "mode": "infer", "gpu": "rtx-4090", "concurrent_users": 4}),
    ("serve Llama 3.1 405B in FP8 with a 1 s first token",
     {"model": "llama-3.1-405b", "mode": "infer", "precision": "fp8", "target_ttft_s": 1}),
    ("users: 50, prompt 2000 tokens, output 500 tokens, Qwen2.5-7B",
     {"model": "qwen2.5-7b", "mode": "infer", "concurrent_users": 50, "prompt_tokens": 2000,
      "output_tokens": 500}),
    ("serve a 70B at 4k context to 100 users within ¥80,000 a month",
     {"model_params_b": 70, "mode": "infer", "context_length": 4000, "concurrent_users": 100,
      "budget_monthly": 80_000}),
    ("70B inference for 50 users, under 30k RMB per month",
     {"model_params_b": 70, "mode": "infer", "concurrent_users": 50, "budget_monthly": 30_000}),
    ("serve Qwen2.5-7B to 20 users with 32k context on L40S",
     {"model": "qwen2.5-7b", "mode": "infer", "gpu": "l40s", "concurrent_users": 20,
      "context_length": 32_000}),
    ("inference of a 1.5B model, int4, batch 8",
     {"model_params_b": 1.5, "mode": "infer", "precision": "int4", "batch_size": 8}),
    ("train a 13B model, batch size 4, 8k context, bf16",
     {"model_params_b": 13, "mode": "train", "batch_size": 4, "context_length": 8000,
      "precision": "bf16"}),
    ("Llama-3.1-8B, 4-bit, 16 users, TTFT 300ms",
     {"model": "llama-3.1-8b", "mode": "infer", "precision": "int4", "concurrent_users": 16,
      "target_ttft_s": 0.3}),
    # 中文
    ("部署 Llama-3.1-70B，FP8，吞吐 2000 tokens/s",
     {"model": "llama-3.1-70b", "mode": "infer", "precision": "fp8",
      "target_tokens_per_s": 2000}),
    ("微调 Qwen2.5-7B，QLoRA，预算每月 5000 元",
     {"model": "qwen2.5-7b", "mode": "finetune", "finetune_method": "qlora",
      "budget_monthly": 5000}),
    ("700亿参数模型推理，并发100",
     {"model_params_b": 70, "mode": "infer", "concurrent_users": 100}),
    ("在 4090 上跑 7B 推理，十个用户",
     {"model_params_b": 7, "mode": "infer", "gpu": "rtx-4090", "concurrent_users": 10}),
    ("DeepSeek-R1 满血版，H200，64 路并发，首 token 不超过 2 秒",
     {"model": "deepseek-r1", "mode": "infer", "gpu": "h200-141g-sxm", "concurrent_users": 64,
      "target_ttft_s": 2}),
    ("两周内训练完 7B，1T token",
     {"model_params_b": 7, "mode": "train", "train_tokens": 1e12, "deadline_days": 14}),
    ("训练 70B 模型，2T tokens，30 天内完成",
     {"model_params_b": 70, "mode": "train", "train_tokens": 2e12, "deadline_days": 30}),
    ("Qwen2.5-72B-Instruct 上线，200 并发，每秒 3000 token",
     {"model": "qwen2.5-72b", "mode": "infer", "concurrent_users": 200,
      "target_tokens_per_s": 3000}),
    ("Qwen2.5-72B 推理，五十个并发，首字 1 秒以内",
     {"model": "qwen2.5-72b", "mode": "infer", "concurrent_users": 50, "target_ttft_s": 1}),
    ("微调 Qwen2.5-7B，全参，3 轮，数据集 50 亿 tokens",
     {"model": "qwen2.5-7b", "mode": "finetune", "finetune_method": "full", "epochs": 3,
      "dataset_tokens": 5e9}),
    ("预训练 13B 模型，3000 亿 token，一个月内完成",
     {"model_params_b": 13, "mode": "train", "train_tokens": 3e11, "deadline_days": 30}),
    ("部署 DeepSeek-V3，FP8，首字延迟 500 毫秒以内，并发 32",
     {"model": "deepseek-v3", "mode": "infer", "precision": "fp8", "target_ttft_s": 0.5,
      "concurrent_users": 32}),
    ("用 L20 跑 Llama-3.1-8B 推理，20 个用户，每月预算 2 万",
     {"model": "llama-3.1-8b", "mode": "infer", "gpu": "l20", "concurrent_users": 20,
      "budget_monthly": 20_000}),
    ("Qwen2.5-7B LoRA 微调，预算 3000 元/月",
     {"model": "qwen2.5-7b", "mode": "finetune", "finetune_method": "lora",
      "budget_monthly": 3000}),
    ("用 H100 SXM 训练 Llama-3.1-70B，１Ｔ tokens，三十天",
     {"model": "llama-3.1-70b", "mode": "train", "gpu": "h100-80g-sxm", "train_tokens": 1e12,
      "deadline_days": 30}),
    # A rate's "t/s" is no trillion; a distilled model is its base; prompt and output lengths.
    ("用 H20 部署 DeepSeek-R1，1000 t/s",
     {"model": "deepseek-r1", "mode": "infer", "gpu": "h20-96g", "target_tokens_per_s": 1000}),
    ("serve deepseek-ai/DeepSeek-R1-Distill-Llama-8B to 10 users",
     {"model": "llama-3.1-8b", "mode": "infer", "concurrent_users": 10}),
    ("Qwen2.5-7B 推理，输入长度 2000 token，输出长度 500 token",
     {"model": "qwen2.5-7b", "mode": "infer", "prompt_tokens": 2000, "output_tokens": 500}),
    ("serve Qwen2.5-7B at 500 token per second",
     {"model": "qwen2.5-7b", "mode": "infer", "target_tokens_per_s": 500}),
    # How the engine splits the model: llama.cpp and Ollama split whole layers.
    ("serve Llama-3.1-70B on 4090 with Ollama for 2 users",
     {"model": "llama-3.1-70b", "mode": "infer", "gpu": "rtx-4090", "parallelism": "layers",
      "concurrent_users": 2}),
    ("用 4090 部署 Llama-3.1-70B，llama.cpp 按层切分",
     {"model": "llama-3.1-70b", "mode": "infer", "gpu": "rtx-4090", "parallelism": "layers"}),
    # The replica the engine is started with.
    ("serve Llama-3.1-70B to 100 users, tensor parallel size 2",
     {"model": "llama-3.1-70b", "mode": "infer", "concurrent_users": 100, "replica_gpus": 2}),
    ("Llama-3.1-70B 推理，100 并发，张量并行度 2",
     {"model": "llama-3.1-70b", "mode": "infer", "concurrent_users": 100, "replica_gpus": 2}),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "fields"), TABLE, ids=[row[0] for row in TABLE])
def test_a_request_sets_the_fields_it_says(sentence, fields):
    reading = read_sentence(sentence, GPUS)
    assert reading.values() == fields
    assert reading.unread == ()
    for read in reading.reads:  # each field with the words it was read from, as written
        assert all(part in reading.sentence for part in read.words.split(" · ")), read


@pytest.mark.parametrize(("sentence", "fields"), TABLE, ids=[row[0] for row in TABLE])
def test_what_it_reads_is_a_workload_the_engine_takes(sentence, fields):
    # Each request of the table names a mode and a model: what it reads goes through the
    # API's own schema and conversion, which refuse what the engine would not take.
    values = read_sentence(sentence, GPUS).values()
    assert "mode" in values and ("model" in values or "model_params_b" in values)
    values.pop("gpu", None)  # the preferred GPU is checked against the catalog, not here
    workload = workload_from_input(WorkloadIn(**values))
    for name, value in values.items():
        assert getattr(workload, name) == (value if name != "mode" else Mode(value)), name


def test_what_it_cannot_read_is_said_back_as_written():
    reading = read_sentence("serve GPT-4 to 1000 users on Kubernetes", GPUS)
    assert reading.values() == {"mode": "infer", "concurrent_users": 1000}
    assert reading.unread == ("GPT-4", "Kubernetes")


def test_a_number_without_words_or_unit_is_not_read():
    reading = read_sentence("serve a 7B, 50", GPUS)
    assert reading.values() == {"model_params_b": 7, "mode": "infer"}
    assert reading.unread == ("50",)


def test_cheap_words_are_said_back_not_guessed_into_a_field():
    reading = read_sentence("7B LoRA 便宜点", GPUS)
    assert "budget_monthly" not in reading.values()
    (note,) = reading.notes
    assert note.msgid.startswith("%(words)s: the builds are ranked cheapest first")
    assert note.params["words"] == "便宜点"


def test_a_gpu_name_that_names_several_gpus_is_said_back():
    reading = read_sentence("serve Llama-3.1-70B on H100", GPUS)
    assert "gpu" not in reading.values()
    (note,) = reading.notes
    # By the names customers know, never by the catalog's slugs.
    assert note.params["names"] == (
        "NVIDIA H100 80GB PCIe; NVIDIA H100 80GB SXM5; NVIDIA H100 NVL 94GB"
    )
    sxm = read_sentence("serve Llama-3.1-70B on H100 SXM", GPUS)
    assert sxm.values()["gpu"] == "h100-80g-sxm"
    nvl = read_sentence("serve Llama-3.1-70B on 2 x H100 NVL", GPUS)
    assert nvl.values()["gpu"] == "h100-nvl-94g"
    assert "the form takes no GPU count" in nvl.notes[0]


def test_a_field_of_another_mode_is_dropped_and_said():
    reading = read_sentence("serve a 7B to 50 users in 14 days", GPUS)
    assert reading.values() == {"model_params_b": 7, "mode": "infer", "concurrent_users": 50}
    (note,) = reading.notes
    assert note.params["words"] == "14 days"


def test_a_fine_tuning_method_makes_training_a_fine_tune():
    reading = read_sentence("train Llama-3.1-8B with QLoRA on 1B tokens", GPUS)
    assert reading.values()["mode"] == "finetune"
    assert reading.values()["train_tokens"] == 1e9


def test_the_mode_not_said_is_the_one_every_field_read_applies_to():
    assert read_sentence("Qwen2.5-7B, 16 users", GPUS).values()["mode"] == "infer"
    assert read_sentence("7B QLoRA", GPUS).values()["mode"] == "finetune"
    # Tokens to train on apply to training and fine-tuning: no one mode, none guessed.
    assert "mode" not in read_sentence("7B on 1T tokens", GPUS).values()


def test_a_field_given_twice_keeps_the_first_and_says_so():
    reading = read_sentence("serve Qwen2.5-7B to 50 users, 80 users", GPUS)
    assert reading.values()["concurrent_users"] == 50
    assert reading.notes[0].params["first"] == "50 users"


def test_tokens_go_to_the_field_whose_bounds_hold_them():
    # A trillion tokens is no context length (at most 4,194,304): the tokens to train on.
    assert read_sentence("train a 7B, 1T tokens", GPUS).values()["train_tokens"] == 1e12
    # Words beside the number decide between fields of one unit.
    assert (
        read_sentence("train a 7B, dataset of 1T tokens", GPUS).values()["dataset_tokens"] == 1e12
    )


@pytest.mark.parametrize(
    ("numeral", "value"),
    [("十四", 14), ("五十", 50), ("两千", 2000), ("一万五千", 15000), ("三亿五千万", 3.5e8),
     ("一万亿", 1e12), ("一百二十", 120), ("两", 2)],
)  # fmt: skip
def test_chinese_numerals(numeral, value):
    assert chinese_number(numeral) == value


def test_the_grammar_reads_the_declaration():
    # Every page field a number can set says how a sentence names it: words or a unit.
    page = [f for f in declarations(Workload) if f.spec.page]
    assert [f.name for f in FIELDS] == [f.name for f in page]
    for f in FIELDS:
        if f.spec.kind in ("int", "float"):
            assert f.spec.words or f.spec.unit, f.name
        elif f.spec.kind == "choice" and not f.spec.searchable:
            said = {value for value, _words in f.spec.choice_words}
            assert said == {value for value, _label in f.spec.choices}, f.name


def test_a_sentence_over_the_limit_is_refused_before_it_is_read():
    with pytest.raises(SentenceTooLong):
        read_sentence("7B " * MAX_SENTENCE, GPUS)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=MAX_SENTENCE))
def test_any_text_is_read_without_error(text):
    reading = read_sentence(text, GPUS)
    declared = {f.name for f in FIELDS}
    assert set(reading.values()) <= declared


def test_every_declared_unit_has_its_words():
    # A field declared with a unit the reader has no words for could never be read by unit.
    declared = {str(f.spec.unit) for f in declarations(Workload) if f.spec.unit}
    assert declared <= set(UNITS), declared - set(UNITS)


DOC = Path(__file__).resolve().parents[2] / "docs" / "sentence.md"


def test_the_documents_counts_are_the_declarations():
    text = DOC.read_text()
    numbers = sum(len(f.spec.words) for f in FIELDS)
    choices = sum(len(words) for f in FIELDS for _value, words in f.spec.choice_words)
    said = re.search(r"(\d+) phrases name a\s+number's field and (\d+) pick a choice", text)
    assert said and (int(said[1]), int(said[2])) == (numbers, choices)
    requests = re.search(r"(\d+) such requests, each read whole", text)
    assert requests and int(requests[1]) == len(TABLE)


def test_rent_is_no_budget():
    for sentence in (
        "rent 8 GPUs for Qwen2.5-7B inference",
        "rent 8 H100 SXM for inference",
        "月租 8 台 H20，部署 Qwen2.5-7B",
    ):
        assert "budget_monthly" not in read_sentence(sentence, GPUS).values(), sentence
    # With its currency, an amount is a budget whatever word stands beside it.
    assert read_sentence("月租 3万元", GPUS).values()["budget_monthly"] == 30_000


@pytest.mark.parametrize(
    ("sentence", "users"),
    [("Qwen2.5-7B for 50 users, 20 tokens/s per user", 50),
     ("Qwen2.5-7B, 50 users at 20 tok/s each", 50),
     ("Qwen2.5-7B 推理，并发 50，每个用户 20 token/秒", 50),
     ("Qwen2.5-7B 推理，每路 20 tokens/s", None)],
)  # fmt: skip
def test_a_rate_per_user_is_no_total(sentence, users):
    reading = read_sentence(sentence, GPUS)
    values = reading.values()
    assert "target_tokens_per_s" not in values
    assert values["target_tpot_s"] == 0.05  # one token each 1/20 s, per user
    assert values.get("concurrent_users") == users
    assert any(note.msgid.startswith("%(words)s: a rate per user") for note in reading.notes)


def test_a_distilled_model_is_not_its_teacher():
    reading = read_sentence("serve DeepSeek-R1-Distill-Qwen-7B to 10 users", GPUS)
    assert "model" not in reading.values() and "model_params_b" not in reading.values()
    (note,) = reading.notes
    assert "a distilled model" in note.msgid and note.params["base"] == "Qwen2.5-Math-7B"
    spaced = read_sentence("DeepSeek R1 Distill Llama 8B 推理", GPUS)
    assert spaced.values() == {"model": "llama-3.1-8b", "mode": "infer"}


def test_a_bare_token_count_is_no_context_length():
    reading = read_sentence("serve Qwen2.5-7B, 500 tokens", GPUS)
    assert not {"context_length", "prompt_tokens", "output_tokens"} & set(reading.values())
    assert read_sentence("Qwen2.5-7B, context 500 tokens", GPUS).values()["context_length"] == 500


@pytest.mark.parametrize(
    "budget",
    [
        "budget $5000 a month",
        "budget 5000 USD a month",
        "预算 5000 美元每月",
        "budget 5000 dollars",
    ],
)
def test_a_budget_in_another_currency_is_refused_with_a_note(budget):
    reading = read_sentence(f"Qwen2.5-7B inference, {budget}", GPUS)
    assert "budget_monthly" not in reading.values()
    assert reading.unread == ()
    (note,) = reading.notes
    assert "CNY" in note.msgid


@pytest.mark.parametrize(
    ("sentence", "field"),
    [("serve Qwen2.5-7B to 1e999 users", "Concurrent users"),
     ("serve Qwen2.5-7B to 2,000,000 users", "Concurrent users"),
     ("serve Qwen2.5-7B, first token under 2 hours", None),
     ("serve Qwen2.5-7B, 1e999 tokens/s", "Output tokens per second to serve"),
     ("serve Qwen2.5-7B, 0 tok/s per user", "Time per output token within (seconds)")],
)  # fmt: skip
def test_a_number_out_of_its_fields_bounds_is_not_read(sentence, field):
    reading = read_sentence(sentence, GPUS)
    assert set(reading.values()) == {"model", "mode"}
    if field:
        (note,) = reading.notes
        assert note.msgid == "%(words)s: %(field)s takes %(bounds)s; not read."
        assert note.params["field"] == field and note.params["bounds"].params


def test_a_mode_is_said_back_by_its_label_not_the_words():
    reading = read_sentence("serve a 7B to 50 users, deadline 14 days", GPUS)
    (note,) = reading.notes
    assert note.params["mode"] == "inference" and note.params["mode"].msgid == "inference"
