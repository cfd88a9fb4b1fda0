"""Catalog migration 0013 seeds today's parts on installs that are already in use.

An architect may have added one of its slugs before (an H200 imported by sheet): that row
stays as the architect made it, and the rest is seeded beside it. Run on the live models
(as tests/configurator/test_rules_migration.py does): the seed only reads and writes rows.
"""

import importlib
from decimal import Decimal

import pytest
from django.apps import apps

from catalog.models import Gpu, Platform, Psu

pytestmark = pytest.mark.django_db
migration = importlib.import_module("catalog.migrations.0013_seed_todays_parts")


def test_an_architects_own_row_of_a_seeded_slug_stays_and_the_rest_is_seeded():
    migration.unseed(apps, None)
    assert not Platform.objects.filter(slug="dell-xe9680").exists()
    mine = Gpu.objects.create(
        slug="h200-141g-sxm", name="H200 (our import)", vendor="NVIDIA",
        source_url="https://example.com/h200", monthly_price=Decimal("12345"), memory_gb=141,
        memory_type="HBM3e", tdp_w=700, pcie_gen=5, form_factor="sxm", ecc=True,
        gpu_class="datacenter", architecture="hopper",
    )  # fmt: skip

    migration.seed(apps, None)

    kept = Gpu.objects.get(slug="h200-141g-sxm")
    assert (kept.pk, kept.name, kept.monthly_price) == (mine.pk, "H200 (our import)", 12345)
    xe9680 = Platform.objects.get(slug="dell-xe9680")
    assert kept in xe9680.gpus.all()
    assert list(xe9680.psus.values_list("slug", flat=True)) == ["dell-psu-2800w-titanium"]
    assert Psu.objects.filter(slug="inspur-psu-3200w").count() == 1


def test_seeding_twice_adds_nothing():
    before = {m: m.objects.count() for m in (Gpu, Psu, Platform)}
    migration.seed(apps, None)
    assert {m: m.objects.count() for m in (Gpu, Psu, Platform)} == before
