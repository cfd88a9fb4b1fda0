"""Write `POST /api/v1/evaluate`'s answers to many builds and workloads, to compare two trees.

`python -m bench.evaluate_answers OUT` posts every combination of the seed catalog's CPUs,
GPUs and counts with a few workloads and both rule profiles, in English and Chinese, and
writes each answer's status and body, one a line, to OUT. Run it in two trees and compare
the files (`cmp`): a change meant only to make the endpoint faster writes the same bytes.
"""

import itertools
import json
import logging
import sys

from bench.harness import django_setup

WORKLOADS: tuple[dict[str, object] | None, ...] = (
    None,
    {"model_params_b": 7, "mode": "infer", "batch_size": 1},
    {"model_params_b": 13, "mode": "finetune", "finetune_method": "lora", "batch_size": 4},
    {"model_params_b": 34, "mode": "train", "batch_size": 8},
    {"model_params_b": 70, "mode": "infer", "batch_size": 32, "precision": "fp8"},
    {"model_params_b": 175, "mode": "train", "batch_size": 8},
)
# Builds a presales engineer sends: a full node, half of one, one socket; memory and power
# around the rules' thresholds; with and without NVLink and NUMA binding.
SHAPES: tuple[dict[str, object], ...] = (
    {"cpu_count": 2, "gpu_count": 8, "gpus_per_socket": [4, 4], "memory_gb": 1024,
     "memory_ecc": True, "psu_watts": 6000, "nvlink": True, "numa_binding": True},
    {"cpu_count": 2, "gpu_count": 8, "gpus_per_socket": [8, 0], "memory_gb": 512,
     "psu_watts": 3000, "nvlink": False, "numa_binding": False, "memory_ecc": False},
    {"cpu_count": 2, "gpu_count": 4, "gpus_per_socket": [2, 2], "memory_gb": 768,
     "memory_ecc": True, "psu_watts": 4000, "nvlink": True, "numa_binding": True, "nics": 2},
    {"cpu_count": 1, "gpu_count": 2, "memory_gb": 256, "memory_ecc": True, "psu_watts": 2000,
     "nodes": 2},
)  # fmt: skip
PROFILES: tuple[str | None, ...] = (None, "nvidia-ra-2-8-5")
LANGUAGES = ("en", "zh-hans")


def bodies() -> list[dict[str, object]]:
    """Return every request body: the catalog's CPUs × GPUs × shapes × workloads × profiles."""
    from catalog.models import Cpu, Gpu

    cpus = list(Cpu.objects.order_by("slug").values_list("slug", flat=True))
    gpus = list(Gpu.objects.order_by("slug").values_list("slug", flat=True))
    found = []
    for cpu, gpu, shape, workload, profile in itertools.product(
        cpus, gpus, SHAPES, WORKLOADS, PROFILES
    ):
        body: dict[str, object] = {"build": {"cpu": cpu, "gpu": gpu, **shape}}
        if workload is not None:
            body["workload"] = workload
        if profile is not None:
            body["profile"] = profile
        found.append(body)
    return found


def run(out: str, step: int = 1) -> int:
    django_setup()
    from django.test import Client

    logging.getLogger("django.request").setLevel(logging.ERROR)  # the 400s are answers too
    client = Client()
    written = 0
    with open(out, "w", encoding="utf-8") as answers:
        for body in bodies()[::step]:
            for language in LANGUAGES:
                response = client.post(
                    "/api/v1/evaluate",
                    json.dumps(body),
                    content_type="application/json",
                    headers={"accept-language": language},
                )
                answers.write(f"{response.status_code} {response.content.decode()}\n")
                written += 1
    return written


if __name__ == "__main__":
    step = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(run(sys.argv[1], step), "answers written")
