"""The why describes one build one way: the layout it times is the layout it sizes."""

import re

import pytest

from configurator.engine.build import Mode, Workload
from configurator.engine.recommend import recommend
from configurator.engine.rules import RuleParams
from tests.engine.test_recommend import CATALOG

RULES = RuleParams()
WORK_LAYOUT = re.compile(r"\((\d+) replicas? of (\d+) GPUs?, (\d+) sequences? in flight each\)")
SIZED_LAYOUT = re.compile(r"serve the .* job as (\d+) replicas? of (\d+) GPUs?, (\d+) sequences?")


@pytest.mark.parametrize(
    "workload",
    [
        Workload(70, Mode.INFER, batch_size=8, target_tokens_per_s=2000),
        Workload(7, Mode.INFER, target_tokens_per_s=5000),
        Workload(13, Mode.INFER, batch_size=64, concurrent_users=64, output_tokens=512),
    ],
    ids=["70B at 2,000 tokens/s", "7B at 5,000 tokens/s", "13B for 64 users"],
)
def test_the_served_layout_is_the_one_the_capacity_is_sized_on(workload):
    builds = recommend(workload, CATALOG, RULES).builds
    assert builds
    for item in builds:
        timed = WORK_LAYOUT.search(item.why)
        sized = SIZED_LAYOUT.search(item.why)
        assert timed and sized, item.why
        assert timed.groups() == sized.groups(), item.why
        replicas, gpus, _ = map(int, timed.groups())
        assert replicas * gpus == item.build.gpu_count * item.build.nodes


PER_GPU = re.compile(r"sequences? each: ([\d.]+) GB per GPU of ([\d.]+) GB usable")


def test_the_memory_stated_is_that_of_the_contexts_the_model_timed():
    """Serving is timed on contexts that hold prompt and output (1,024 + 256 by default), so a
    shorter context given is sized as that too, never as the shorter one."""
    short = recommend(Workload(70, Mode.INFER, context_length=512, target_tokens_per_s=3000),
                      CATALOG, RULES).builds  # fmt: skip
    served = recommend(Workload(70, Mode.INFER, context_length=1280, target_tokens_per_s=3000),
                       CATALOG, RULES).builds  # fmt: skip
    assert short and [item.why for item in short] == [item.why for item in served]
    for item in short:
        need, usable = map(float, PER_GPU.search(item.why).groups())
        assert need <= usable
