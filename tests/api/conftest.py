import copy
import json

import pytest

# The request of api.md's "Evaluate a build", with a PSU sized for 8 × A800 SXM.
EXAMPLE = {
    "build": {
        "cpu": "xeon-gold-6530",
        "cpu_count": 2,
        "gpu": "a800-80g-sxm",
        "gpu_count": 8,
        "gpus_per_socket": [4, 4],
        "memory_gb": 1024,
        "memory_ecc": True,
        "psu_watts": 6000,
        "nvlink": True,
        "numa_binding": True,
    },
    "workload": {"model_params_b": 34, "mode": "train", "batch_size": 64},
}


@pytest.fixture
def example():
    return copy.deepcopy(EXAMPLE)


@pytest.fixture
def post_json(client):
    def post(url: str, body, **extra):
        data = body if isinstance(body, str | bytes) else json.dumps(body)
        return client.post(url, data, content_type="application/json", **extra)

    return post
