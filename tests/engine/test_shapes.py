"""Deployable shapes: node sizes, tensor-parallel groups, replicas, and the `shape` check."""

from dataclasses import replace

import pytest

from configurator.engine.build import Mode, Workload
from configurator.engine.evaluate import evaluate
from configurator.engine.rules import RuleParams
from configurator.engine.shape_check import deployable_shape
from configurator.engine.shapes import (
    inference_deployment,
    inference_replicas,
    node_sizes,
    splits_heads,
    tensor_parallel_sizes,
    training_deployment,
)
from tests.engine import builders

RULES = RuleParams()
INFER_70B = Workload(70, Mode.INFER, batch_size=32)


@pytest.mark.parametrize(
    ("size", "heads", "kv_heads", "splits"),
    [
        (8, 64, 8, True),  # Llama-2-70B over 8
        (8, 40, 40, True),  # Llama-2-13B: 5 heads per GPU
        (2, 71, 1, False),  # Falcon-7B: 71 heads split over no group
        (4, 36, 36, True),
        (8, 32, 4, True),  # fewer KV heads than GPUs: each replicated twice
        (4, 32, 6, False),
    ],
)
def test_a_tensor_parallel_group_splits_the_heads(size, heads, kv_heads, splits):
    assert splits_heads(size, heads, kv_heads) is splits


def test_heads_are_checked_only_when_the_shape_is_known():
    falcon = Workload(7, Mode.INFER, layers=32, hidden_size=4544, attention_heads=71, kv_heads=1,
                      vocab_size=65024)  # fmt: skip
    assert tensor_parallel_sizes(falcon) == (1,)
    assert tensor_parallel_sizes(Workload(70, Mode.INFER)) == (1, 2, 4, 8)
    assert tensor_parallel_sizes(Workload(20, Mode.INFER)) == (1, 2, 4, 8)  # derived: not held
    given = Workload(20, Mode.INFER, attention_heads=48, kv_heads=48)
    assert tensor_parallel_sizes(given) == (1, 2, 4, 8)
    assert tensor_parallel_sizes(replace(given, attention_heads=36, kv_heads=36)) == (1, 2, 4)


def test_node_sizes_follow_the_board():
    sxm, pcie = builders.h100_sxm(), builders.l20()
    assert node_sizes(sxm, pcie_switch=True) == (4, 8)
    assert node_sizes(pcie, pcie_switch=False) == (1, 2, 4, 8)
    assert node_sizes(pcie, pcie_switch=True) == (1, 2, 4, 8, 10)


def test_70b_inference_at_batch_32_is_whole_replicas():
    # 72 GB usable of an 80 GB card: one replica of 4 holds 70B and 32 sequences.
    plan = inference_deployment(INFER_70B, (1, 2, 4, 8), 72, 16)
    assert (plan.nodes, plan.per_node, plan.replicas.size, plan.replicas.count) == (1, 4, 4, 1)
    # 24 GB cards (21.6 usable): 8-GPU replicas, one per node, as many as the sequences need.
    plan = inference_deployment(INFER_70B, (1, 2, 4, 8), 21.6, 16)
    assert plan.per_node == plan.replicas.size == 8 and plan.nodes == plan.replicas.count
    assert not plan.spans_nodes


def test_a_replica_spans_nodes_only_when_the_weights_exceed_one():
    plan = inference_deployment(Workload(405, Mode.INFER, batch_size=8), (4, 8), 72, 16)
    assert plan.spans_nodes and plan.replicas.nodes_per_replica == 2 and plan.per_node == 8
    # 70B's 140 GB fit one 8 × 21.6 GB node: no replica over two nodes.
    assert inference_replicas(INFER_70B, 16, 8, 21.6).nodes_per_replica == 1
    # Two nodes of 2 × 72 GB: 140 GB of weights fit one node, but not with room for a
    # sequence, and splitting the model over the nodes is no plan.
    assert inference_replicas(Workload(70, Mode.INFER, batch_size=1), 4, 2, 72) is None


def test_training_fills_the_largest_networked_node():
    assert training_deployment(3, (1, 2, 4, 8), (1, 2, 4), 16).per_node == 4
    plan = training_deployment(44, (8,), (8,), 16)
    assert (plan.nodes, plan.per_node) == (6, 8)
    assert training_deployment(44, (8,), (), 16) is None, "no fabric, no multi-node training"
    assert training_deployment(12, (1, 2, 4, 8), (4, 8), 16, total=12).per_node == 4
    assert training_deployment(12, (8,), (8,), 16, total=12) is None


def finding(build, workload=None):
    return deployable_shape(build, workload, RULES)


@pytest.mark.parametrize(
    ("build", "status"),
    [
        (builders.node(builders.xeon_gold_6530(), builders.a800_sxm(), 3, 1024), "warn"),
        (builders.node(builders.xeon_gold_6530(), builders.a800_sxm(), 8, 1024), "pass"),
        (builders.node(builders.xeon_gold_6530(), builders.l20(), 5, 512), "warn"),
        (builders.node(builders.xeon_gold_6530(), builders.rtx_4090(), 7, 512), "warn"),
        (builders.node(builders.xeon_gold_6530(), builders.l20(), 10, 1024), "warn"),
        (
            builders.node(
                builders.xeon_gold_6530(), builders.l20(), 10, 1024, pcie_switch_uplinks=4
            ),
            "pass",
        ),
    ],
)
def test_shape_without_a_workload_judges_the_node(build, status):
    assert finding(build).status == status


def test_the_issues_odd_builds_warn_with_a_fix_that_passes():
    cpu = builders.xeon_gold_6530()
    odd = [
        builders.node(cpu, builders.a800_sxm(), 3, 1024),
        builders.node(cpu, builders.l20(), 5, 512),
        builders.node(cpu, builders.rtx_4090(), 7, 512),
    ]
    for build in odd:
        result = finding(build, INFER_70B)
        assert result.status == "warn" and result.fix
        assert "shape" not in evaluate(build, RULES, INFER_70B).failed_codes
    fixed = builders.node(cpu, builders.l20(), 8, 768)
    assert finding(fixed, INFER_70B).status == "pass"
    assert "replica" in finding(fixed, INFER_70B).detail


def test_one_model_split_over_nodes_while_it_fits_one_warns():
    build = builders.node(builders.xeon_gold_6530(), builders.a800_pcie(), 2, 256, nodes=2)
    # Two replicas of 2 cannot hold 4 long sequences each; one replica over both nodes could,
    # but 70B's 140 GB of weights fit one node of two 80 GB cards.
    result = finding(build, Workload(70, Mode.INFER, batch_size=8, context_length=32768))
    assert result.status == "warn"
    assert "fit one node" in result.detail


def test_training_forms_no_tensor_parallel_group():
    build = builders.node(
        builders.xeon_gold_6530(), builders.a800_pcie(), 10, 1024, pcie_switch_uplinks=4
    )
    result = finding(build, Workload(13, Mode.TRAIN, batch_size=4))
    assert result.status == "pass" and "data parallel" in result.detail


def test_a_warning_never_rejects_on_its_own():
    build = builders.node(builders.xeon_gold_6530(), builders.l20(), 6, 768, psu_watts=6000)
    evaluation = evaluate(build, RULES, Workload(7, Mode.INFER, batch_size=64))
    shape = next(f for f in evaluation.checks if f.code == "shape")
    assert shape.status == "warn"
    assert evaluation.verdict == "accept", [f.code for f in evaluation.failures]


def test_a_node_without_gpus_has_no_shape_to_judge():
    build = builders.node(builders.xeon_gold_6530(), builders.l20(), 1, 256)
    assert finding(replace(build, gpu_count=0, gpus_per_socket=(0, 0))).status == "na"


@pytest.mark.parametrize(
    ("gpu", "count", "deployed"),
    [
        (builders.h100_sxm(), 1, 4),  # an SXM part comes on a whole HGX board
        (builders.h100_sxm(), 5, 8),
        (builders.h100_sxm(), 6, 8),  # 405B FP8's fewest H100 SXM: one 8-GPU board
        (builders.h100_sxm(), 9, 16),
        (builders.l20(), 3, 4),
        (builders.l20(), 5, 8),
        (builders.l20(), 2, 2),
        (builders.l20(), 17, 24),
    ],
)
def test_counts_are_rounded_up_to_whole_boards(gpu, count, deployed):
    from configurator.engine.shapes import deployable_count

    assert deployable_count(gpu, count) == deployed


def test_the_counts_a_target_is_searched_on_are_whole_boards():
    """issue 18: the fewest H100 SXM holding 405B FP8 (6) was timed as a 6-GPU node."""
    from configurator.engine.performance import gpus_for_work

    workload = Workload(405, Mode.INFER, precision="fp8", target_tokens_per_s=1000)
    for fewest in (4, 5, 6, 7):
        total = gpus_for_work(workload, builders.h100_sxm(), fewest, RULES, 512)
        assert total is not None and (total in (4, 8) or total % 8 == 0), (fewest, total)


def test_the_shape_says_the_replica_the_engine_is_started_with_or_that_it_cannot_serve():
    board = builders.node(builders.xeon_gold_6530(), builders.a800_sxm(), 8, 1024)
    work = Workload(70, Mode.INFER, concurrent_users=16, prompt_tokens=1000, output_tokens=200)
    pinned = finding(board, replace(work, replica_gpus=8))
    assert pinned.numbers["replica_gpus"] == 8 and "cannot serve" not in pinned.detail
    refused = finding(board, replace(work, replica_gpus=3))
    assert refused.numbers["replica_gpus"] == finding(board, work).numbers["replica_gpus"]
    assert "replicas of 3 GPUs, as the engine was to be started, cannot serve" in refused.detail
    split = finding(board, replace(work, replica_gpus=8, parallelism="pipeline"))
    assert "(layers split)" in split.detail and "heads split evenly" not in split.detail


def test_a_deployment_takes_the_replica_the_engine_is_started_with():
    """The recommender lays a build out on the replica size the workload names, when it
    serves; otherwise on the size it would pick anyway."""
    work = Workload(70, Mode.INFER, batch_size=16, precision="fp8")
    free = inference_deployment(work, (1, 2, 4, 8), 72.0, 16)
    pinned = inference_deployment(replace(work, replica_gpus=8), (1, 2, 4, 8), 72.0, 16)
    assert free.replicas.size != 8
    assert (pinned.per_node, pinned.replicas.size) == (8, 8)
    unservable = inference_deployment(replace(work, replica_gpus=3), (1, 2, 4, 8), 72.0, 16)
    assert unservable == free
    assert inference_replicas(replace(work, replica_gpus=4), 8, 8, 72.0).size == 4
