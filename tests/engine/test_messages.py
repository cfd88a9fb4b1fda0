"""Every finding's detail and fix is a message id with parameters; English renders as before."""

import pytest

from configurator.engine.build import Mode, Workload
from configurator.engine.evaluate import evaluate
from configurator.engine.messages import Message, _, join, ngettext
from configurator.engine.rules import RuleParams
from tests.engine import builders

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
