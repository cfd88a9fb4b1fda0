"""Quotes fixtures: a build the rules accept, one they refuse, and a quote factory."""

import copy

import pytest
from django.conf import settings
from django.utils import translation

# The recommender's second answer for a 34B training workload: accepted by the baseline.
GOOD_BUILD = {
    "cpu": "xeon-gold-6530",
    "cpu_count": 2,
    "gpu": "a800-80g-pcie",
    "gpu_count": 8,
    "gpus_per_socket": [4, 4],
    "memory_gb": 768,
    "memory_ecc": True,
    "psu_watts": 4400,
    "nvlink": True,
    "numa_binding": True,
    "platform": "smc-sys-421ge-tnrt",
}
WORKLOAD = {"model_params_b": 34, "mode": "train", "batch_size": 64}
CUSTOMER = {
    "name": "王伟 Wang Wei",
    "company": "北京深度智能科技有限公司",
    "email": "wang.wei@example.cn",
    "phone": "+86 10 5555 0100",
}


@pytest.fixture(autouse=True)
def default_language():
    """Leave the thread in the default language: a zh-hans request must not leak into others."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def good_build():
    return copy.deepcopy(GOOD_BUILD)


@pytest.fixture
def bad_build():
    # Half the system memory the eight GPUs need, in 12 × 32 GB: the memory check fails.
    return {**copy.deepcopy(GOOD_BUILD), "memory_gb": 384, "dimm_count": 12}


@pytest.fixture
def lead_with_build(presales):
    """A customer's lead and a build presales saved to it."""
    from configurator.quotes.models import Lead, LeadBuild

    lead = Lead.objects.create(
        name="Li Wei", company="Example AI Ltd", email="li@example.com", phone="+86 10 1234",
        build=GOOD_BUILD, workload=WORKLOAD, permalink="", monthly_price=1, verdict="accept",
        language="en",
    )  # fmt: skip
    saved = LeadBuild.objects.create(
        lead=lead, build=GOOD_BUILD, workload=WORKLOAD, permalink="", monthly_price=1,
        verdict="accept", created_by=presales,
    )  # fmt: skip
    return lead, saved
