"""Time, throughput and cost promises: the formulas of docs/performance.md, term by term."""

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from configurator.engine.build import FinetuneMethod, Mode, Workload
from configurator.engine.performance import (
    HOURS_PER_MONTH,
    LOSSES,
    Cluster,
    Interconnect,
    gpu_seconds_floor,
    gpus_for_work,
    interconnect,
    loss_factor,
    monthly_losses,
    performance,
)
from configurator.engine.performance.efficiency import COMPUTE, Phase, power_share
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import replica_sizes
from tests.engine.builders import (
    a800_pcie,
    a800_sxm,
    h100_sxm,
    l20,
    node,
    rtx_4090,
    s1,
    s2,
    s3,
    xeon_gold_6530,
)

RULES = RuleParams()
DAY = 86_400


def one_h100():
    return replace(s3(), gpu_count=1, gpus_per_socket=(1, 0))


def train(params_b=7.0, tokens=1e9, **changes) -> Workload:
    work = Workload(params_b, Mode.TRAIN, batch_size=8, train_tokens=tokens)
    return replace(work, **changes)


def serve(params_b=7.0, **changes) -> Workload:
    return Workload(params_b, Mode.INFER, **changes)


def test_a_workload_without_work_has_no_performance():
    assert performance(s3(), Workload(70, Mode.TRAIN), RULES, 1000.0) is None
    assert performance(s3(), Workload(70, Mode.INFER, batch_size=4), RULES, 1000.0) is None


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        (s3(), Interconnect.NVSWITCH),  # SXM on an NVSwitch board
        (node(xeon_gold_6530(), a800_pcie(), 4, 512), Interconnect.BRIDGE),
        (node(xeon_gold_6530(), a800_pcie(), 4, 512, nvlink=False), Interconnect.PCIE),
        (s1(), Interconnect.PCIE),  # L20 has no NVLink
    ],
)
def test_interconnect_class_follows_nvlink_and_form_factor(build, expected):
    assert interconnect(build) == expected


# Llama-2-7B's shape: 32 layers, hidden 4096; a token of a 2048-token context attends to half
# of it on average, L·s·h more parameters per token (causal attention, Narayanan et al. 2021
# count 2·L·s·h for a full square).
ATTENTION_7B = 32 * 2048 * 4096
# Efficiencies of efficiency.COMPUTE the figures below are timed at.
H100_TRAINING = COMPUTE[(Phase.TRAINING, "hopper", "16-bit")].share
A100_TRAINING = COMPUTE[(Phase.TRAINING, "ampere", "16-bit")].share
SERVING_16_BIT = COMPUTE[(Phase.SERVING, "ampere", "16-bit")].share  # Hopper's falls back to it


def test_one_gpu_trains_in_eight_p_t_over_peak_times_efficiency():
    """7B's weights, gradients and Adam states (112 GB) exceed one 80 GB card: the layout
    shards what it can and recomputes every activation, 8·(N + L·s·h) a token."""
    result = performance(one_h100(), train(), RULES, 30_000.0)
    seconds = 8 * (7e9 + ATTENTION_7B) * 1e9 / (989.4e12 * H100_TRAINING)
    assert result.time_to_train_days == pytest.approx(seconds / DAY)
    assert result.time_to_train_s == pytest.approx(seconds)
    assert result.terms["comm_step_s"] == 0
    assert result.cost_per_run == pytest.approx(30_000 * seconds / 3600 / HOURS_PER_MONTH)


def test_lora_counts_four_p_t_no_weight_gradients_for_the_frozen_base():
    """LoRA holds only the adapters' states, so selective recomputation fits: 4·(N + L·s·h)."""
    lora = performance(
        one_h100(), train(mode=Mode.FINETUNE, finetune_method=FinetuneMethod.LORA), RULES, 1.0
    )
    assert lora.terms["flops"] == pytest.approx(4 * (7e9 + ATTENTION_7B) * 1e9)


def test_a_board_without_nvswitch_lowers_the_efficiency_by_its_class_and_one_gpu_by_none():
    """The generation's efficiency × mfu_pcie / mfu_nvswitch when the GPUs share the work over
    PCIe; a 300 W A800 PCIe holds 0.75 of the 400 W SXM part's clocks (power_share)."""
    rules = replace(RULES, mfu_pcie=0.25)
    four = performance(node(xeon_gold_6530(), a800_pcie(), 4, 512, nvlink=False), train(),
                       rules, 1.0)  # fmt: skip
    one = performance(node(xeon_gold_6530(), a800_pcie(), 1, 512, nvlink=False), train(),
                      rules, 1.0)  # fmt: skip
    assert power_share(a800_pcie()) == pytest.approx(0.75)
    assert four.terms["efficiency"] == pytest.approx(A100_TRAINING * 0.75 * 0.25 / 0.50)
    assert one.terms["efficiency"] == pytest.approx(A100_TRAINING * 0.75)


def test_data_parallel_all_reduce_moves_two_n_minus_one_over_n_of_the_gradients():
    result = performance(s3(), train(), RULES, 1.0)  # 8 GPUs on NVLink 900 GB/s two-way
    gradients = 7e9 * 2
    assert result.terms["comm_bytes_per_step"] == pytest.approx(2 * 7 / 8 * gradients)
    link = 450e9 * RULES.comm_bandwidth_efficiency
    assert result.terms["comm_step_s"] == pytest.approx(2 * 7 / 8 * gradients / link)


def test_between_nodes_the_ring_runs_at_the_nodes_whole_fabric_bandwidth():
    cluster = replace(s3(), nodes=4, nics=4, nic_speed_gbps=400)
    result = performance(cluster, train(), RULES, 1.0)
    assert result.terms["link_gbs"] == pytest.approx(4 * 400 / 8)  # 200 GB/s, below NVLink


@pytest.mark.parametrize(
    ("nodes", "nics", "params_b", "zero3"),
    [(20, 1, 70, False), (2, 8, 70, True), (20, 8, 70, True)],
)
def test_data_parallel_traffic_hides_behind_one_micro_batch_or_the_whole_step(
    nodes, nics, params_b, zero3
):
    """Gradients are reduced once the last micro-batch has accumulated them: under ZeRO-1 the
    traffic hides behind one micro-batch's compute, the rest is exposed; ZeRO-3 gathers the
    weights again for each micro-batch (its traffic grows with them) behind the whole step.
    Without overlap the two add (and the layout may change to one that sends less)."""
    cluster = replace(s3(), nodes=nodes, nics=nics, nic_speed_gbps=400 if nics > 1 else 200)
    work = train(params_b, 3e11, batch_size=4, context_length=4096)
    overlap = performance(cluster, work, RULES, 1.0)
    terms = overlap.terms
    busy, comm = terms["compute_step_s"] + terms["bubble_step_s"], terms["comm_step_s"]
    micro_batches = work.batch_size * cluster.gpu_count * nodes / terms["dp"]
    assert comm > 0 and micro_batches > 1 and bool(terms["zero3"]) is zero3
    window = busy if zero3 else busy / micro_batches
    assert overlap.time_to_train_s == pytest.approx(terms["steps"] * (busy + max(0, comm - window)))
    one = performance(cluster, replace(work, batch_size=1), RULES, 1.0).terms
    assert one["dp"] == terms["dp"]
    if zero3:  # a quarter of the micro-batches, a quarter of the traffic
        assert one["comm_step_s"] == pytest.approx(comm / 4)
    else:  # reduced once a step, however many micro-batches
        assert one["comm_step_s"] == pytest.approx(comm)
    serial = performance(cluster, work, replace(RULES, comm_overlap=0), 1.0)
    assert overlap.time_to_train_s <= serial.time_to_train_s
    assert serial.time_to_train_s <= terms["steps"] * (busy + comm) * (1 + 1e-9)


def test_more_nodes_train_faster_and_meet_a_deadline_the_one_node_misses():
    work = train(70, 3e11, deadline_days=30, batch_size=16, context_length=4096)
    one = performance(s3(), work, RULES, 100_000.0)
    many = performance(replace(s3(), nodes=20, nics=8, nic_speed_gbps=400), work, RULES, 2e6)
    assert not one.meets_target
    assert many.time_to_train_days < one.time_to_train_days / 10
    assert many.meets_target


def test_batch_one_decode_is_bound_by_reading_the_weights():
    result = performance(one_h100(), serve(concurrent_users=1), RULES, 1.0)
    bandwidth = 3350e9 * RULES.memory_bandwidth_efficiency
    assert result.terms["decode_memory_s"] > result.terms["decode_compute_s"]
    # weights (14 GB) + one sequence's KV cache at its mean context, read once per token; a
    # bare 7B is Mistral-7B's shape, grouped-query attention with 8 KV heads (domain.md §6)
    kv = 2 * 32 * 8 * 128 * 2 * (1024 + 128)
    scheduling = RULES.cpu_scheduling_ms / 1000  # the engine's CPU time a step
    assert result.terms["decode_step_s"] == pytest.approx((7e9 * 2 + kv) / bandwidth + scheduling)
    assert result.time_per_output_token_s == result.terms["decode_step_s"]


def test_time_to_first_token_is_the_prefill_of_one_prompt():
    """Alone on its replica, a prompt of p tokens costs 2·N·p for the weights and, causal,
    2·L·h·p² for attention (each token attends to half the prompt, QKᵀ and AV)."""
    result = performance(one_h100(), serve(concurrent_users=1, prompt_tokens=2000), RULES, 1.0)
    flops = 2 * (7e9 + 32 * 4096 * 2000) * 2000
    scheduling = RULES.cpu_scheduling_ms / 1000
    assert result.time_to_first_token_s == pytest.approx(
        flops / (989.4e12 * SERVING_16_BIT) + scheduling
    )


def test_a_layer_split_reads_every_weight_on_one_gpu_at_a_time_for_one_user():
    """llama.cpp's layer split (`parallelism: layers`): one sequence's token passes the
    cards in turn, so each step reads every weight at one card's bandwidth, where tensor
    parallelism reads the halves at once and pays two all-reduces a layer."""
    cards = Cluster(rtx_4090(), 2, nvlink=False, pcie_gen=4)
    work = serve(None, model="llama-3.1-70b", precision="int4", concurrent_users=1)
    split = performance(cards, replace(work, parallelism="layers"), RULES, 1.0)
    tensor = performance(cards, work, RULES, 1.0)
    assert split.terms["replica_gpus"] == tensor.terms["replica_gpus"] == 2
    assert split.terms["decode_weights_s"] == pytest.approx(2 * tensor.terms["decode_weights_s"])
    assert split.terms["decode_comm_s"] < tensor.terms["decode_comm_s"] / 10  # one hand-off
    assert split.time_per_output_token_s > 1.5 * tensor.time_per_output_token_s
    assert any("layers split over 2 GPUs" in note for note in split.assumptions)
    assert "whole layers on each GPU" in split.assumptions[0]  # how it is served, first
    assert "whole layers" not in tensor.assumptions[0]


def test_llama_cpp_decodes_a_few_users_in_one_micro_batch_where_pipeline_parallelism_splits():
    """llama.cpp splits a batch into micro-batches only past 512 tokens: eight users' decode
    step passes the cards in turn; vLLM's pipeline parallelism runs a micro-batch per stage,
    both cards at once."""
    cards = Cluster(rtx_4090(), 2, nvlink=False, pcie_gen=4)
    work = serve(None, model="llama-3.1-70b", precision="int4", concurrent_users=8)
    llama = performance(cards, replace(work, parallelism="layers"), RULES, 1.0)
    staged = performance(cards, replace(work, parallelism="pipeline"), RULES, 1.0)
    assert llama.terms["decode_weights_s"] == pytest.approx(staged.terms["decode_weights_s"])
    assert llama.terms["decode_kv_s"] == pytest.approx(2 * staged.terms["decode_kv_s"])
    assert llama.time_per_output_token_s > staged.time_per_output_token_s
    assert any("a decode step runs as 1 micro-batch," in note for note in llama.assumptions)
    assert any("a decode step runs as 2 micro-batches" in note for note in staged.assumptions)


def test_a_long_prompt_passes_the_stages_in_its_chunks_whatever_the_load():
    """A new prompt is one micro-batch per prefill chunk: 6,000 tokens under vLLM's
    pipeline parallelism (chunks of 8,192) pass two stages in turn, under llama.cpp (512)
    in twelve micro-batches both stages at once; the first token does not jump with B."""
    board = Cluster(h100_sxm(), 2, nvlink=True, pcie_gen=5)
    work = serve(70, precision="fp8", prompt_tokens=6000, output_tokens=200)
    first = {
        (split, users): performance(
            board, replace(work, parallelism=split, concurrent_users=users), RULES, 1.0
        ).time_to_first_token_s
        for split in ("pipeline", "layers")
        for users in (2, 3)
    }
    assert first["pipeline", 3] == pytest.approx(first["pipeline", 2], rel=0.3)
    assert first["layers", 2] < first["pipeline", 2]


def test_pipeline_parallelism_under_load_keeps_every_stage_busy_without_all_reduces():
    """With as many micro-batches as stages, every stage works at once: the maths spreads
    over all the GPUs as under tensor parallelism, each stage reads its weights once per
    micro-batch, and only activations pass between the stages."""
    board = Cluster(h100_sxm(), 2, nvlink=True, pcie_gen=5)
    work = serve(70, precision="fp8", concurrent_users=512)
    split = performance(board, replace(work, parallelism="pipeline"), RULES, 1.0)
    tensor = performance(board, work, RULES, 1.0)
    # A stage holds its activations whole: a few sequences fewer fit beside the weights.
    assert 0.95 < split.terms["sequences"] / tensor.terms["sequences"] <= 1
    per_token = {
        name: result.terms["decode_compute_s"] / result.terms["step_tokens"]
        for name, result in (("split", split), ("tensor", tensor))
    }
    assert per_token["split"] == pytest.approx(per_token["tensor"], rel=1e-3)
    assert split.terms["decode_weights_s"] == pytest.approx(2 * tensor.terms["decode_weights_s"])
    assert split.terms["decode_comm_s"] < tensor.terms["decode_comm_s"] / 20
    assert split.tokens_per_s > tensor.tokens_per_s  # compute-bound: the all-reduces saved


def test_a_layer_split_serves_on_gpu_counts_that_do_not_split_the_heads():
    """Tensor parallelism must divide the heads (28 heads, 4 KV heads: 1, 2 or 4 GPUs);
    whole layers split over any of the replica sizes."""
    work = serve(7, attention_heads=28, kv_heads=4, hidden_size=3584, layers=28)
    assert replica_sizes(work) == (1, 2, 4)
    assert replica_sizes(replace(work, parallelism="pipeline")) == (1, 2, 4, 8)


def test_the_replica_the_engine_is_started_with_serves():
    """`replica_gpus` pins the replica to the size the engine runs (vLLM's
    --tensor-parallel-size): its figures, not those of the size that would serve the most."""
    board = Cluster(h100_sxm(), 8, nvlink=True, pcie_gen=5)
    work = serve(70, precision="fp8", concurrent_users=64)
    free = performance(board, work, RULES, 1.0)
    served = {}
    for gpus in (2, 4, 8):
        pinned = performance(board, replace(work, replica_gpus=gpus), RULES, 1.0)
        assert (pinned.terms["replica_gpus"], pinned.terms["replicas"]) == (gpus, 8 // gpus)
        assert not any("cannot serve" in note for note in pinned.assumptions)
        served[gpus] = pinned.tokens_per_s
    assert len(set(served.values())) == 3  # each pin is timed as itself
    assert free.tokens_per_s == max(served.values())


@pytest.mark.parametrize(
    ("gpus", "nodes", "split"),
    [(3, 1, None), (1, 1, None), (16, 1, None), (32, 2, "pipeline"), (12, 2, None)],
)
def test_a_replica_the_build_cannot_serve_on_is_said_and_the_best_serves(gpus, nodes, split):
    """3 GPUs do not split 8; one H100 does not hold 70B in bf16; 16 are more than a node,
    32 more than two, and 12 split no node: the answer is the unpinned one, and says so."""
    board = Cluster(h100_sxm(), 8, nodes, nvlink=True, pcie_gen=5, nics=8, nic_speed_gbps=400)
    work = serve(70, concurrent_users=8 * nodes, parallelism=split)
    pinned = performance(board, replace(work, replica_gpus=gpus), RULES, 1.0)
    free = performance(board, work, RULES, 1.0)
    assert pinned.terms["replica_gpus"] == free.terms["replica_gpus"]
    assert pinned.tokens_per_s == free.tokens_per_s
    assert any(f"replicas of {gpus} GPU" in note and "cannot serve" in note
               for note in pinned.assumptions)  # fmt: skip


def test_cost_per_million_tokens_is_the_monthly_price_over_a_months_tokens():
    result = performance(one_h100(), serve(concurrent_users=8), RULES, 20_000.0)
    tokens_a_month = result.tokens_per_s * HOURS_PER_MONTH * 3600
    assert result.cost_per_million_tokens == pytest.approx(20_000 / tokens_a_month * 1e6)


def test_a_throughput_target_fills_each_replica_with_the_sequences_its_memory_holds():
    result = performance(s3(), serve(70, target_tokens_per_s=2000), RULES, 1.0)
    assert result.terms["sequences"] <= RULES.inference_batch_max_large  # an 80 GB card
    assert (
        result.tokens_per_s
        > performance(s3(), serve(70, concurrent_users=1), RULES, 1.0).tokens_per_s
    )
    assert result.meets_target


def test_replicas_multiply_throughput():
    one_node = performance(s2(), serve(70, target_tokens_per_s=2000), RULES, 1.0)
    two_nodes = performance(replace(s2(), nodes=2), serve(70, target_tokens_per_s=2000), RULES, 1.0)
    assert two_nodes.tokens_per_s == pytest.approx(2 * one_node.tokens_per_s)


def test_a_gpu_without_datasheet_throughput_has_no_figures_and_meets_nothing():
    unknown = replace(one_h100(), gpu=replace(h100_sxm(), bf16_tflops=0, memory_bandwidth_gbs=0))
    result = performance(unknown, serve(concurrent_users=1), RULES, 1.0)
    assert result.tokens_per_s is None and not result.meets_target


def test_fp8_needs_fp8_tensor_cores():
    result = performance(s2(), serve(7, concurrent_users=1, precision="fp8"), RULES, 1.0)
    assert result.tokens_per_s is None


@pytest.mark.parametrize(
    ("code", "share"),
    [("P1", 1 - 0.61 / 0.886), ("P5", 1 - 1 / 2.16), ("balance", 0.281)],
)
def test_without_stated_work_a_pitfall_loses_the_share_of_the_rent_the_guide_measured(code, share):
    """Without work to time (or with no workload) P1 and P5 fall back to the guide's measured
    training loss; the balance loss is always the guide's."""
    losses = monthly_losses((code,) if code != "balance" else (), code != "balance", 10_000.0)
    assert losses[code] == pytest.approx(10_000 * share, abs=1)


def test_p8_without_work_and_p1_for_inference_without_work_carry_no_guide_loss():
    """P8's +54 % is latency, never a rent share; inference is not billed with the guide's
    8-GPU training loss (domain.md §6 "A pitfall's cost is counted once")."""
    assert "P8" not in monthly_losses(("P8",), True, 10_000.0)
    assert "P1" not in monthly_losses(("P1",), True, 10_000.0, {"": 0.0})


def test_p5_does_not_multiply_training_time_the_model_already_times():
    work = train()
    sound = performance(s3(), work, RULES, 1.0)
    flagged = performance(s3(), work, RULES, 1.0, failed_codes=("P5",))
    assert flagged.time_to_train_days == pytest.approx(sound.time_to_train_days)


def test_p8_adds_cpu_latency_and_never_divides_gpu_throughput():
    """P8 lengthens every step by the CPU time it adds: one user's first token (one step with
    its prompt) and every token after by exactly that; the GPUs' terms never change."""
    work = serve(concurrent_users=1)
    sound = performance(s1(), work, RULES, 1.0)
    slow = performance(s1(), work, RULES, 1.0, failed_codes=("P8",))
    added = 0.54 * RULES.cpu_scheduling_ms / 1000
    assert slow.time_to_first_token_s == pytest.approx(sound.time_to_first_token_s + added)
    assert slow.terms["decode_step_s"] == pytest.approx(sound.terms["decode_step_s"] + added)
    assert slow.terms["decode_memory_s"] == sound.terms["decode_memory_s"]
    loaded = serve(concurrent_users=64)
    assert performance(s1(), loaded, RULES, 1.0, failed_codes=("P8",)).tokens_per_s < (
        performance(s1(), loaded, RULES, 1.0).tokens_per_s
    )


def test_checks_without_a_measured_time_loss_do_not_change_the_figures():
    assert loss_factor(("P3", "P6", "capacity"), balanced=True) == 1
    assert loss_factor((), balanced=False) == pytest.approx(LOSSES["balance"].factor)


def test_l20_serves_fewer_tokens_than_h100_for_the_same_model():
    work = serve(7, concurrent_users=16)
    l20_node = replace(s1(), gpu=l20())
    assert (
        performance(l20_node, work, RULES, 1.0).tokens_per_s
        < performance(
            replace(s3(), gpu_count=4, gpus_per_socket=(2, 2)), work, RULES, 1.0
        ).tokens_per_s
    )


def test_a_deadline_is_met_with_as_many_whole_nodes_as_it_takes():
    work = train(70, 3e11, deadline_days=30, batch_size=16, context_length=4096)
    total = gpus_for_work(work, h100_sxm(), 8, RULES, max_gpus=512)
    assert total % 8 == 0
    assert performance(Cluster.of_gpus(h100_sxm(), total, RULES), work, RULES, 1.0).meets_target
    fewer = Cluster.of_gpus(h100_sxm(), total - 8, RULES)
    assert not performance(fewer, work, RULES, 1.0).meets_target


def test_a_node_count_that_splits_badly_does_not_push_the_deadline_past_the_largest_build():
    """134B on 300B tokens in 30 days: 240 GPUs miss by 14 %, scaled to 280 (35 nodes, data
    parallel 35 only under ZeRO-3, gathering the weights for every micro-batch) miss by twice
    as much, and scaling from there overshot the largest build. The next boards are tried
    instead: 288 (tensor 4 × pipeline 8 × data 9) meet the deadline, 8 fewer do not."""
    work = train(134, 3e11, deadline_days=30, batch_size=1, context_length=512)
    total = gpus_for_work(work, h100_sxm(), 30, RULES, max_gpus=512)
    assert total == 288
    assert performance(Cluster.of_gpus(h100_sxm(), total, RULES), work, RULES, 1.0).meets_target
    for fewer in (total - 8, total - 16):
        cluster = Cluster.of_gpus(h100_sxm(), fewer, RULES)
        assert not performance(cluster, work, RULES, 1.0).meets_target


def test_a_deadline_beyond_the_largest_build_has_no_answer():
    work = train(70, 3e11, deadline_days=1, batch_size=16, context_length=4096)
    assert gpus_for_work(work, h100_sxm(), 8, RULES, max_gpus=128) is None


def test_a_throughput_target_is_met_with_more_replicas():
    work = serve(70, target_tokens_per_s=20_000)
    total = gpus_for_work(work, h100_sxm(), 2, RULES, max_gpus=512)
    assert (
        performance(Cluster.of_gpus(h100_sxm(), total, RULES), work, RULES, 1.0).tokens_per_s
        >= 20_000
    )
    assert total > 8


def test_without_a_deadline_or_target_the_fewest_gpus_do():
    assert gpus_for_work(train(70, 3e11), h100_sxm(), 8, RULES, max_gpus=512) == 8


def test_a_model_no_node_holds_spans_the_fewest_whole_nodes():
    cluster = Cluster.of_gpus(h100_sxm(), 64, RULES)  # 8 nodes of 8
    result = performance(cluster, serve(405, target_tokens_per_s=1e5), RULES, 1.0)
    assert result.terms["replica_gpus"] == 16  # 810 GB of bf16 weights: two nodes a replica
    assert result.terms["replicas"] == 4


def test_a_first_token_target_takes_the_replica_that_meets_it():
    """Long prompts at a throughput target: the replica that serves most queues its prompts;
    a first-token target below its wait takes a replica that meets it, serving less."""
    work = serve(70, target_tokens_per_s=2000, prompt_tokens=8000)
    fastest = performance(s3(), work, RULES, 1.0)
    ttft = fastest.time_to_first_token_s * 0.7
    result = performance(s3(), replace(work, target_ttft_s=ttft), RULES, 1.0)
    assert result.time_to_first_token_s <= ttft < fastest.time_to_first_token_s
    assert result.tokens_per_s < fastest.tokens_per_s
    assert result.meets_ttft_target and fastest.meets_ttft_target is None


def test_a_per_token_target_takes_the_replica_whose_steps_meet_it():
    work = serve(70, target_tokens_per_s=2000)
    fastest = performance(s3(), work, RULES, 1.0)
    tpot = fastest.time_per_output_token_s * 0.5
    result = performance(s3(), replace(work, target_tpot_s=tpot), RULES, 1.0)
    assert result.time_per_output_token_s <= tpot
    assert result.meets_tpot_target
    assert fastest.meets_tpot_target is None
    missed = performance(s3(), replace(work, target_tpot_s=1e-4), RULES, 1.0)
    assert missed.meets_tpot_target is False and not missed.meets_target


def test_a_first_token_target_is_met_with_more_gpus_per_replica():
    work = serve(70, prompt_tokens=8000, target_ttft_s=0.6)
    total = gpus_for_work(work, h100_sxm(), 2, RULES, max_gpus=512)
    result = performance(Cluster.of_gpus(h100_sxm(), total, RULES), work, RULES, 1.0)
    assert result.time_to_first_token_s <= 0.6
    assert total > 2
    assert gpus_for_work(replace(work, target_ttft_s=1e-6), h100_sxm(), 2, RULES, 64) is None


WORK = st.one_of(
    st.builds(
        train,
        params_b=st.floats(min_value=0.5, max_value=400),
        tokens=st.sampled_from([1e6, 1e9, 3e11]),
        mode=st.sampled_from([Mode.TRAIN, Mode.FINETUNE]),
        finetune_method=st.sampled_from(list(FinetuneMethod)),
        batch_size=st.integers(min_value=1, max_value=64),
        precision=st.sampled_from(["bf16", "fp8", "fp32"]),
    ),
    st.builds(
        serve,
        params_b=st.floats(min_value=0.5, max_value=400),
        parallelism=st.sampled_from([None, "tensor", "pipeline"]),
        replica_gpus=st.sampled_from([None, 1, 2, 8]),
        concurrent_users=st.integers(min_value=1, max_value=512),
        prompt_tokens=st.sampled_from([None, 64, 8000]),
        output_tokens=st.sampled_from([None, 16, 2048]),
        target_tokens_per_s=st.sampled_from([None, 1000]),
        precision=st.sampled_from(["bf16", "fp8", "int8", "int4"]),
    ),
    st.builds(  # a throughput target alone: each replica batches what its memory holds
        serve,
        params_b=st.floats(min_value=0.5, max_value=400),
        target_tokens_per_s=st.sampled_from([10, 1000, 1e5]),
        context_length=st.sampled_from([2048, 32768]),
    ),
    st.builds(  # today's models by name: mixtures of experts, MLA (issue 18)
        serve,
        params_b=st.none(),
        model=st.sampled_from(["mixtral-8x7b", "qwen3-235b-a22b", "deepseek-r1", "qwen2.5-7b"]),
        concurrent_users=st.sampled_from([1, 8, 64, 512]),
        target_tokens_per_s=st.sampled_from([None, 1000]),
        precision=st.sampled_from(["bf16", "fp8"]),
    ),
)
CLUSTERS = st.builds(
    Cluster,
    gpu=st.sampled_from([rtx_4090(), l20(), a800_pcie(), a800_sxm(), h100_sxm()]),
    gpu_count=st.sampled_from([1, 2, 4, 8, 10]),
    nodes=st.integers(min_value=1, max_value=16),
    nvlink=st.booleans(),
    nics=st.integers(min_value=0, max_value=8),
    nic_speed_gbps=st.sampled_from([0, 200, 400]),
    pcie_gen=st.integers(min_value=3, max_value=5),
)


@settings(max_examples=300, deadline=None)
@given(cluster=CLUSTERS, work=WORK)
def test_no_build_does_the_work_in_fewer_gpu_seconds_than_the_floor(cluster, work):
    # The recommender prunes by this floor: a build of N GPUs at a monthly price M costs at
    # least M / N · floor / 3600 / 730, whatever its nodes, links and replicas.
    result = performance(cluster, work, RULES, 1.0)
    floor = gpu_seconds_floor(cluster.gpu, work, RULES)
    gpus = cluster.gpu_count * cluster.nodes
    if math.isinf(result.work_cost):
        return  # the figures are unknown: no build is priced
    assert result.work_cost >= floor / gpus / 3600 / HOURS_PER_MONTH * (1 - 1e-9)


def test_the_floor_is_the_figures_of_one_gpu_with_every_sequence():
    work = serve(7, concurrent_users=8)
    one = replace(Cluster.of_gpus(a800_pcie(), 1, RULES), nvlink=True)
    seconds = performance(one, work, RULES, 1.0).work_cost * 3600 * HOURS_PER_MONTH
    assert gpu_seconds_floor(a800_pcie(), work, RULES) == pytest.approx(seconds)


@pytest.mark.parametrize(
    "sentence",
    ["llama-3.1-70b for 50 users, first token under 1 s, 50 ms per output token",
     "llama-3.1-70b 50 并发，首 token 1 秒以内，吐字间隔 50 毫秒"],
)  # fmt: skip
def test_a_sentence_names_the_per_token_target_in_either_language(sentence):
    """The per-token target is declared with its words (build.Workload), so a request in one
    line reads it as the form and the API take it."""
    from configurator.engine.sentence import read_sentence

    reads = {read.field: read.value for read in read_sentence(sentence).reads}
    assert reads["target_tpot_s"] == pytest.approx(0.05)
    assert reads["target_ttft_s"] == pytest.approx(1.0)
