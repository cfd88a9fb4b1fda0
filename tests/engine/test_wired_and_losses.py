"""Interconnect as wired and losses counted once (issue 18, domain.md §6): reference cases.

Sources:
- NVLink bridges join pairs: NVIDIA H100 NVL product brief (600 GB/s NVLink bridge between
  two cards); NVIDIA AI Enterprise reference architecture, PCIe-optimised "2-8-5" node
  (NVLink-bridged pairs under one socket, 4 east-west NICs for 8 GPUs plus 1 north-south).
- DGX H100 user guide: 8 × H100 SXM on NVSwitch, 8 × 400 Gb/s ConnectX-7, one NIC per GPU,
  2 × Xeon Platinum 8480C at 2.0 GHz base (domain.md §8).
- H800 80GB SXM: NVLink 400 GB/s on an HGX board (domain.md §6); the issue's case is an HGX
  H800 node with 4 × 200G NICs (800 Gb/s).
- The operator's field guide (domain.md §4): P1 61 % utilisation, P5 +116 %, P8 +54 %
  small-batch scheduling latency.
- Issue 18: 405B FP8 on 8 × H100 NVL on a PCIe Gen4 board was timed at 629 tok/s as if NVLink
  joined all eight; with the traffic between bridged pairs on PCIe ~229 tok/s and a 1.6 s
  first token. DGX H100 serving 70B FP8 at batch 8 was 828 vs 1,276 tok/s on identical boards
  because P8 multiplied GPU throughput.
"""

from dataclasses import replace

import pytest

from configurator.engine import checks
from configurator.engine.build import FormFactor, Mode, Workload
from configurator.engine.evaluate import evaluate
from configurator.engine.fabric import nic_requirement
from configurator.engine.findings import Status
from configurator.engine.performance import (
    Cluster,
    loss_factor,
    modelled_losses,
    monthly_losses,
    performance,
)
from configurator.engine.rules import RuleParams
from tests.engine.builders import (
    a800_pcie,
    h100_nvl,
    h100_sxm,
    h800_sxm,
    l20,
    legacy_e5,
    node,
    s3,
    xeon_gold_6530,
)

RULES = RuleParams()


SERVE_405B_FP8 = Workload(405, Mode.INFER, precision="fp8", target_tokens_per_s=1000)


# Bridged pairs -----------------------------------------------------------------------------


def test_405b_fp8_on_8_bridged_h100_nvl_runs_its_tensor_parallel_traffic_over_pcie():
    """The issue's top 405B pick: 8 × H100 NVL on a PCIe Gen4 board. Timed as an all-GPU
    NVLink fabric it served ~3.4 × what it does with the ring between pairs on PCIe; the
    issue's estimate with that traffic on PCIe is ~229 tok/s and a 1.6 s first token."""
    bridged = Cluster(h100_nvl(), 8, nvlink=True, pcie_gen=4)
    served = performance(bridged, SERVE_405B_FP8, RULES, 1.0)
    assert served.terms["replica_gpus"] == 8
    notes = [str(note) for note in served.assumptions]
    assert any("the all-reduces between the 4 pairs cross PCIe 4.0 x16" in n for n in notes)
    assert 0.7 < served.tokens_per_s / 229 < 1.5
    # As if NVLink joined all eight (what the engine did before): the NVSwitch link speed.
    as_nvswitch = performance(
        Cluster(replace(h100_nvl(), form_factor=FormFactor.SXM), 8, nvlink=True, pcie_gen=4),
        SERVE_405B_FP8,
        replace(RULES, mfu_nvswitch=RULES.mfu_bridge),
        1.0,
    )
    assert served.tokens_per_s < as_nvswitch.tokens_per_s / 2.5
    # The first token of an idle replica (under this load prompts also queue, longer still).
    assert served.terms["prefill_s"] > 2.5 * as_nvswitch.terms["prefill_s"]
    assert served.terms["prefill_s"] > 0.5
    assert served.time_to_first_token_s > served.terms["prefill_s"]


def test_a_bridged_pair_still_talks_over_nvlink():
    """Two bridged cards are one NVLink pair: a 2-GPU replica runs at NVLink speed."""
    pair = Cluster(h100_nvl(), 2, nvlink=True, pcie_gen=4)
    work = Workload(70, Mode.INFER, precision="fp8", concurrent_users=8)
    served = performance(pair, work, RULES, 1.0)
    unbridged = performance(replace(pair, nvlink=False), work, RULES, 1.0)
    assert served.terms["decode_comm_s"] < unbridged.terms["decode_comm_s"]
    assert not any("bridges join pairs" in str(note) for note in served.assumptions)


def test_training_on_8_bridged_cards_all_reduces_at_pcie_speed_and_p5_says_why():
    a800_node = node(xeon_gold_6530(), a800_pcie(), 8, 1024, psu_watts=6000)
    work = Workload(34, Mode.TRAIN, batch_size=4, train_tokens=1e10)
    timed = performance(a800_node, work, RULES, 1.0)
    assert timed.terms["link_gbs"] == 31.5  # PCIe 4.0 x16 one way, not NVLink's 200
    assert any("between NVLink-bridged pairs" in str(note) for note in timed.assumptions)
    finding = checks.training_without_nvlink(a800_node, work, RULES)
    assert finding.status is Status.PASS
    assert "bridges join pairs" in finding.detail and "4 pairs crosses PCIe Gen4" in finding.detail


# Fabric by board -----------------------------------------------------------------------------


def test_pcie_multi_node_training_takes_one_nic_per_two_gpus_and_fills_8_gpu_nodes():
    """NVIDIA's PCIe "2-8-5": 8 GPUs, 4 east-west NICs. HGX keeps one NIC per GPU."""
    pcie = Cluster.of_gpus(a800_pcie(), 16, RULES)
    assert (pcie.nodes, pcie.gpu_count, pcie.nics) == (2, 8, 4)
    hgx = Cluster.of_gpus(h100_sxm(), 16, RULES)
    assert (hgx.nodes, hgx.gpu_count, hgx.nics) == (2, 8, 8)


def test_hgx_h800_with_4_x_200g_is_judged_by_the_bandwidth_it_has():
    """The issue's case: HGX H800, 4 × 200G NICs per node, 2 nodes. It has 800 Gb/s of
    fabric, not a management network; it needs 8 × 400 Gb/s = 3,200 Gb/s (one 400G per
    Hopper GPU, NVIDIA's DGX H100 reference)."""
    build = replace(s3(), gpu=h800_sxm(), nodes=2, nics=4, nic_speed_gbps=200)
    work = Workload(70, Mode.TRAIN, batch_size=4, train_tokens=1e11)
    finding = checks.multi_node_fabric(build, work, RULES)
    assert finding.status is Status.FAIL
    assert "800 Gb/s of fabric" in finding.detail and "3,200 Gb/s" in finding.detail
    assert "management network" not in finding.detail
    assert finding.numbers["fabric_gbps"] == 800 and finding.numbers["fabric_gbps_needed"] == 3200
    rail = checks.multi_node_fabric(replace(build, nics=8, nic_speed_gbps=400), work, RULES)
    assert rail.status is Status.PASS and "3,200 Gb/s of fabric" in rail.detail
    # The same bandwidth on fewer, faster NICs meets the bandwidth too.
    fewer = checks.multi_node_fabric(replace(build, nics=4, nic_speed_gbps=800), work, RULES)
    assert fewer.status is Status.PASS


def test_a_node_without_nics_is_said_to_use_the_management_network_with_its_speed():
    build = replace(s3(), nodes=2, nics=0)
    finding = checks.multi_node_fabric(build, Workload(70, Mode.TRAIN, batch_size=4), RULES)
    assert finding.status is Status.FAIL
    assert "25 Gb/s management network" in finding.detail and "3,200 Gb/s" in finding.detail


def test_the_pcie_share_of_a_profile_is_read_per_form_factor():
    assert nic_requirement(a800_pcie(), RULES).nics_for(8) == 4
    assert nic_requirement(h800_sxm(), RULES).nics_for(8) == 8


# Losses counted once ---------------------------------------------------------------------------


def dgx_h100():
    """DGX H100 as the engine sees it: 8 × H100 SXM, 2 × Xeon 8480C at 2.0 GHz base."""
    build = s3()
    return replace(build, cpu=replace(build.cpu, name="Xeon Platinum 8480C", base_ghz=2.0))


def test_p8_adds_cpu_latency_and_leaves_the_gpus_throughput_alone():
    """DGX H100 serving 70B FP8 at batch 8: before, P8 divided throughput by 1.54 (828 vs
    1,276 tok/s on identical boards). Now the 54 % lengthens the CPU's scheduling per step."""
    work = Workload(70, Mode.INFER, precision="fp8", concurrent_users=8)
    build = dgx_h100()
    evaluation = evaluate(build, RULES, work)
    assert "P8" in evaluation.failed_codes
    sound = performance(build, work, RULES, 1.0)
    slow = performance(build, work, RULES, 1.0, evaluation.failed_codes)
    assert slow.tokens_per_s > 0.9 * sound.tokens_per_s  # not 1 / 1.54 = 0.65
    assert slow.terms["decode_memory_s"] == sound.terms["decode_memory_s"]
    share = evaluation.modelled["P8"]
    assert share == pytest.approx(1 - slow.tokens_per_s / sound.tokens_per_s)
    assert evaluation.monthly_losses(100_000.0)["P8"] == pytest.approx(100_000 * share, abs=0.01)
    assert share < 1 - 1 / 1.54


def test_p1_on_an_inference_job_is_billed_what_the_model_times_not_the_training_loss():
    """The E5 box (PCIe 3.0): the guide's 61 % is 8-GPU training utilisation. An inference job
    is billed the modelled difference of its PCIe 3.0 links, and its figures are not slowed
    a second time by P1's factor."""
    e5 = legacy_e5()
    work = Workload(70, Mode.INFER, concurrent_users=8)
    evaluation = evaluate(e5, RULES, work)
    assert "P1" in evaluation.failed_codes
    balanced = evaluation.balance.balanced
    timed = performance(e5, work, RULES, 1.0, evaluation.failed_codes, balanced)
    gen4 = performance(replace(e5, platform_pcie_gen=4, cpu=replace(e5.cpu, pcie_gen=4)), work,
                       RULES, 1.0, (), balanced)  # fmt: skip
    assert timed.terms["factor"] == loss_factor((), balanced)  # the balance loss alone, not P1's
    share = evaluation.modelled["P1"]
    assert share == pytest.approx(1 - timed.tokens_per_s / gen4.tokens_per_s)
    assert share != pytest.approx(1 - 0.61 / 0.886)


def test_p1_and_p5_keep_the_guides_loss_only_where_nothing_is_timed_and_it_is_training():
    e5 = legacy_e5()
    assert modelled_losses(e5, None, RULES, ("P1",), True) == {"": 1.0}
    losses = monthly_losses(("P1",), True, 10_000.0, {"": 1.0})
    assert losses["P1"] == pytest.approx(10_000 * (1 - 0.61 / 0.886), abs=1)
    inference = Workload(7, Mode.INFER, batch_size=1)
    assert modelled_losses(e5, inference, RULES, ("P1",), True) == {"": 0.0}
    assert "P1" not in monthly_losses(("P1",), True, 10_000.0, {"": 0.0})


def test_p5_loss_is_the_modelled_difference_to_bridged_nvlink():
    unlinked = node(xeon_gold_6530(), a800_pcie(), 8, 1024, psu_watts=6000, nvlink=False)
    work = Workload(70, Mode.TRAIN, batch_size=4, train_tokens=1e10)
    evaluation = evaluate(unlinked, RULES, work)
    assert "P5" in evaluation.failed_codes
    slower = performance(unlinked, work, RULES, 1.0, evaluation.failed_codes)
    assert slower.terms["factor"] == 1.0  # not × 2.16 on top of the PCIe all-reduce
    linked = performance(replace(unlinked, nvlink=True), work, RULES, 1.0)
    share = evaluation.modelled["P5"]
    assert share == pytest.approx(1 - linked.time_to_train_days / slower.time_to_train_days)


def test_p5_on_a_card_no_bridge_links_is_the_linked_efficiency_with_the_traffic_hidden():
    """An L20 has no NVLink: there is no linked board of it to time, so P5's loss is the run
    at a bridged board's efficiency with its gradient traffic hidden, against the run as
    timed (not zero, which timing the same cards with NVLink asked for would give)."""
    cards = node(xeon_gold_6530(), l20(), 8, 1024, psu_watts=6000, nvlink=False)
    work = Workload(34, Mode.TRAIN, batch_size=4, train_tokens=1e10)  # above P5's 13B
    evaluation = evaluate(cards, RULES, work)
    assert "P5" in evaluation.failed_codes
    timed = performance(cards, work, RULES, 1.0, evaluation.failed_codes)
    terms = timed.terms
    hidden = terms["busy_s"] * terms["mfu"] / RULES.mfu_bridge * terms["factor"]
    assert evaluation.modelled["P5"] == pytest.approx(1 - hidden / terms["seconds"])
    assert evaluation.modelled["P5"] >= 1 - RULES.mfu_pcie / RULES.mfu_bridge - 1e-9


def test_the_p8_fix_names_only_cpus_the_boards_socket_takes():
    """The issue: P8's fix offered an EPYC 9374F (SP5) for an LGA4677 board."""
    build = dgx_h100()
    lga4677 = replace(build, cpu=replace(build.cpu, socket="LGA4677"))
    work = Workload(70, Mode.INFER, precision="fp8", concurrent_users=8)
    finding = checks.low_base_clock(lga4677, work, RULES)
    assert finding.status is Status.FAIL
    assert "EPYC" not in finding.fix and "Xeon Gold 6542Y" in finding.fix
    sp5 = replace(build, cpu=replace(build.cpu, name="EPYC 9754", socket="SP5"))
    assert "Xeon" not in checks.low_base_clock(sp5, work, RULES).fix
