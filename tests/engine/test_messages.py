"""Every text the engine reports is a message id with parameters; English renders as before.

Findings' details and fixes, the recommender's why and reasons and the assumptions of sizing
and of the performance model all render through the Chinese catalogue.
"""

import gettext
import re
from dataclasses import replace
from pathlib import Path

import pytest

from configurator.engine.build import FinetuneMethod, Mode, Workload
from configurator.engine.evaluate import evaluate
from configurator.engine.messages import Message, _, join, ngettext
from configurator.engine.recommend import Scenario, recommend
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import KNOWN_SHAPES, size_workload
from tests.engine import builders
from tests.engine.test_recommend import CATALOG, RULES

BUILDS = [
    builders.s1(),
    builders.s2(),
    builders.s3(),
    builders.legacy_e5(),
    builders.s2(memory_gb=128, memory_ecc=False, numa_binding=False, psu_watts=1000),
    builders.s3(nodes=4),
]
WORKLOADS = [
    None,
    Workload(model_params_b=70, mode=Mode.TRAIN, batch_size=64),
    Workload(model_params_b=7, mode=Mode.INFER, batch_size=1, precision="fp8"),
    Workload(model_params_b=400, mode=Mode.INFER, batch_size=32),
]


def findings():
    for build in BUILDS:
        for workload in WORKLOADS:
            yield from evaluate(build, RuleParams(), workload).checks


def test_every_detail_and_fix_is_a_message():
    for finding in findings():
        assert isinstance(finding.detail, Message), (finding.code, finding.detail)
        assert finding.fix == "" or isinstance(finding.fix, Message), (finding.code, finding.fix)


def test_a_message_is_its_english_rendering():
    message = _("%(gpus)s need %(gb)s GB", gpus=ngettext("%(n)s GPU", "%(n)s GPUs", 8), gb=768)
    assert message == "8 GPUs need 768 GB"
    assert message.render(lambda text: text, lambda s, p, n: s if n == 1 else p) == message
    assert message.as_dict()["params"]["gpus"] == {
        "message_id": "%(n)s GPU",
        "params": {"n": 8},
    }


def test_messages_render_through_a_translation():
    catalogue = {"%(n)s GPU": "%(n)s 个 GPU", "%(gpus)s need %(gb)s GB": "%(gpus)s 需要 %(gb)s GB"}
    message = _("%(gpus)s need %(gb)s GB", gpus=ngettext("%(n)s GPU", "%(n)s GPUs", 8), gb=768)
    rendered = message.render(lambda text: catalogue.get(text, text), lambda s, p, n: catalogue[s])
    assert rendered == "8 个 GPU 需要 768 GB"


def test_joined_messages_keep_their_parts():
    joined = join([_("no binding"), _("%(n)s remote", n=2)])
    assert joined == "no binding; 2 remote"
    shout = {"no binding": "NO BINDING", "%(n)s remote": "%(n)s REMOTE"}
    assert joined.render(lambda text: shout.get(text, text), None) == "NO BINDING; 2 REMOTE"


@pytest.mark.parametrize("code", ["P1", "P3", "memory", "pcie_lanes", "cpu_threads"])
def test_message_ids_with_flat_parameters_format_to_the_detail(code):
    build = builders.legacy_e5()
    finding = next(f for f in evaluate(build, RuleParams()).checks if f.code == code)
    params = {
        key: str(value) if isinstance(value, Message) else value
        for key, value in finding.detail.params.items()
    }
    plain = finding.detail.msgid % params if finding.detail.plural is None else None
    assert plain is None or plain == finding.detail


# What the recommender says, through the Chinese catalogue ------------------------------------

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES"
# Technical terms Chinese writes as English does; everything else must be translated.
LATIN_TERMS = {
    "token", "NVLink", "NVSwitch", "PCIe", "TFLOPS", "FLOPs", "Adam", "LoRA", "QLoRA", "ZeRO",
    "CUDA", "logits", "reduce", "RDIMM",
}  # fmt: skip
SCENARIO = Scenario(
    "S3", "100B+ training", frozenset({Mode.TRAIN}), 100, 10000, ("h100-80g-sxm",),
    "epyc-9754", "hgx-h100", 1024, "scaling 84%", gpus_min=8, gpus_max=8,
)  # fmt: skip
QLORA = Workload(7, Mode.FINETUNE, batch_size=4, finetune_method=FinetuneMethod.QLORA)
SLOW = replace(CATALOG, cpus=(CATALOG.find("cpus", "xeon-gold-5318y"),))
RECOMMENDED = [
    (Workload(7, Mode.INFER, batch_size=1), CATALOG),  # small-batch inference, base clock
    (Workload(70, Mode.INFER, batch_size=32), CATALOG),  # replicas
    (Workload(405, Mode.INFER, batch_size=8), CATALOG),  # a replica spans nodes
    (Workload(175, Mode.TRAIN, batch_size=8), CATALOG),  # nodes, NICs, a recipe
    (Workload(13, Mode.TRAIN, batch_size=512), CATALOG),  # gradient accumulation
    (replace(QLORA, epochs=3, dataset_tokens=2e9), CATALOG),
    (Workload(13, Mode.TRAIN, batch_size=8, train_tokens=2e11, deadline_days=30), CATALOG),
    (Workload(7, Mode.INFER, target_tokens_per_s=5000, target_ttft_s=1), CATALOG),
    # No build: each reason the recommender gives.
    (Workload(7, Mode.TRAIN, batch_size=4, gpu="b200"), CATALOG),
    (Workload(2000, Mode.TRAIN, batch_size=8), CATALOG),
    (Workload(2000, Mode.TRAIN, batch_size=8, gpu_count=8), CATALOG),
    (Workload(7, Mode.INFER, batch_size=1), SLOW),
    (Workload(70, Mode.TRAIN, batch_size=8, train_tokens=3e13, deadline_days=0.5), CATALOG),
    (Workload(70, Mode.INFER, target_tokens_per_s=2e8, target_ttft_s=0.001), CATALOG),
]


def chinese():
    with (LOCALE / "django.mo").open("rb") as compiled:
        return gettext.GNUTranslations(compiled)


def recommender_texts():
    """Yield every text the recommender answers for the workloads above, with its data."""
    for workload, catalog in RECOMMENDED:
        found = recommend(workload, catalog, RULES, [SCENARIO], limit=3)
        if found.reason is not None:
            yield found.reason
        for item in found.builds:
            yield item.why
            yield from item.performance.assumptions if item.performance else ()
        yield from size_workload(workload, 8, 70.0).assumptions


def data_names(catalog=CATALOG) -> list[str]:
    """Return the names a text may quote as they are: parts, models, the recipe."""
    parts = [item.name for kind in ("cpus", "gpus", "memory", "psus", "nics", "platforms")
             for item in getattr(catalog, kind)]  # fmt: skip
    models = [name for _size, name, _shape in KNOWN_SHAPES]
    return sorted([*parts, *models, SCENARIO.name, SCENARIO.result], key=len, reverse=True)


def test_every_text_the_recommender_answers_is_a_message():
    for text in recommender_texts():
        assert isinstance(text, Message), text


def test_every_text_the_recommender_answers_reads_in_chinese():
    catalogue, names = chinese(), data_names()
    for text in recommender_texts():
        rendered = text.render(catalogue.gettext, catalogue.ngettext)
        assert re.search("[\u4e00-\u9fff]", rendered), rendered
        for name in names:
            rendered = rendered.replace(name, "")
        english = set(re.findall("[A-Za-z]{4,}", rendered)) - LATIN_TERMS
        assert not english, (english, text.render(catalogue.gettext, catalogue.ngettext))


def test_the_reason_names_a_rejecting_check_by_its_chinese_title():
    reason = recommend(Workload(7, Mode.INFER, batch_size=1), SLOW, RULES).reason
    catalogue = chinese()
    assert "CPU 基础频率过低（小批量推理）（P8）" in reason.render(
        catalogue.gettext, catalogue.ngettext
    )
