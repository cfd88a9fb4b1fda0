"""The all-reduce bus bandwidth a manifest expects, against published single-node nccl-tests runs.

`expected_manifest(build, rules)["allreduce_busbw_gbs"]` is the time model's ring (the GPU's
one-way NVLink bandwidth × `comm_bandwidth_efficiency`). Each row below is an 8-GPU NVSwitch
build from today's catalog and rules, beside the `all_reduce_perf` busbw its owners published
for the largest messages (the plateau), with the source. A row passes within ±30 %; the ratio
is printed (`pytest -s`). The table is in docs/fleet.md ("Against published nccl-tests").

NCCL runs all-reduce on an NVSwitch board with NVLink SHARP (NVLS, NCCL 2.17 and later) by
default: its busbw is not the bandwidth on the wire and exceeds what a ring reaches
(sjeaugey, https://github.com/NVIDIA/nccl-tests/issues/212). The model times a ring, so the
NVLS rows sit below 1.
"""

import pytest

from configurator import selectors as configurator_selectors
from configurator.engine.build import Build
from configurator.fleet.manifest import expected_manifest
from tests.engine.builders import a100_sxm

TOLERANCE = 0.30

# (row, GPU: a catalog slug or a datasheet part, CPU slug, published busbw GB/s, what was run,
#  source)
PUBLISHED = [
    ("8 × H100 SXM, ring", "h100-80g-sxm", "xeon-platinum-8480-plus", 370.0,
     "NCCL_ALGO=RING, 2–4 GB: 365–370 GB/s (and sjeaugey: ~370 GB/s with RING)",
     "https://github.com/NVIDIA/nccl/issues/1455, https://github.com/NVIDIA/nccl-tests/issues/212"),
    ("8 × H100 SXM, default (NVLS)", "h100-80g-sxm", "xeon-platinum-8480-plus", 480.0,
     "default algorithm, largest sizes: ~480 GB/s (476 GB/s in #290)",
     "https://github.com/NVIDIA/nccl-tests/issues/212, https://github.com/NVIDIA/nccl-tests/issues/290"),
    ("8 × H800 SXM, default (NVLS)", "h800-80g-sxm", "xeon-platinum-8480-plus", 215.0,
     "default algorithm: 215 GB/s",
     "https://github.com/NVIDIA/nccl/issues/1374"),
    # The catalog carries no A100 SXM (its A800 SXM is the A100 with NVLink capped at 400
    # GB/s): the engine tests' datasheet A100, NVLink 600 GB/s.
    ("8 × A100 SXM4 80GB", a100_sxm(), "xeon-gold-5318y", 200.0,
     "HPE Apollo 6500, -b 8 -e 1G: ~200 GB/s",
     "https://github.com/NVIDIA/nccl-tests/issues/149"),
]  # fmt: skip


def eight_gpu_build(everything, gpu, cpu_slug: str) -> Build:
    if isinstance(gpu, str):
        gpu = everything.find("gpus", gpu)
    return Build.assemble(
        cpu=everything.find("cpus", cpu_slug), cpu_count=2, gpu=gpu, gpu_count=8,
        gpus_per_socket=(4, 4), memory_gb=2048, memory_ecc=True, psu_watts=18000, nvlink=True,
    )  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("row", "gpu", "cpu", "published", "run", "source"),
                         PUBLISHED, ids=[row[0] for row in PUBLISHED])  # fmt: skip
def test_expected_busbw_is_near_the_published_run(row, gpu, cpu, published, run, source):
    catalog, rules = configurator_selectors.snapshots()
    build = eight_gpu_build(catalog.everything, gpu, cpu)
    manifest = expected_manifest(build, rules.current[rules.default].params)
    assert manifest["nvswitch"] is True
    ours = manifest["allreduce_busbw_gbs"]
    ratio = ours / published
    print(f"{row}: ours {ours} GB/s, published {published} GB/s ({run}; {source}), "
          f"ratio {ratio:.2f}")  # fmt: skip
    assert abs(ratio - 1) <= TOLERANCE, f"{row}: ours {ours}, published {published} ({source})"
