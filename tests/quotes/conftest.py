"""Quotes fixtures: a build the rules accept, one they refuse, and a quote factory."""

import copy
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import translation

from configurator.quotes import services
from configurator.schemas import BuildIn, WorkloadIn

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
def make_quote(presales):
    def make(build=None, *, owner=None, workload=WORKLOAD, **kwargs):
        return services.quote_create(
            owner=owner or presales,
            customer=services.Customer(**CUSTOMER),
            build=BuildIn.model_validate(build or GOOD_BUILD),
            workload=WorkloadIn.model_validate(workload) if workload else None,
            term_months=kwargs.pop("term_months", 12),
            discount_pct=kwargs.pop("discount_pct", Decimal("5")),
            **kwargs,
        )

    return make


@pytest.fixture
def make_issued(make_quote, presales, architect):
    """Write a quote and take it through review to the customer: issued."""

    def make(**kwargs):
        quote = make_quote(**kwargs)
        services.quote_submit(quote=quote, user=presales)
        services.quote_approve(quote=quote, user=architect)
        return services.quote_issue(quote=quote, user=presales)

    return make
