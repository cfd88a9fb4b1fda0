"""The database refuses catalog rows that cannot be true."""

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from catalog.models import Cpu, Platform
from tests.factories import GpuFactory

pytestmark = pytest.mark.django_db


def test_slugs_are_unique():
    GpuFactory(slug="dup-gpu")
    with pytest.raises(IntegrityError), transaction.atomic():
        GpuFactory(slug="dup-gpu")


@pytest.mark.parametrize("field", ["memory_gb", "tdp_w"])
def test_gpu_counts_and_watts_must_be_positive(field):
    with pytest.raises(IntegrityError), transaction.atomic():
        GpuFactory(**{field: 0})


def test_price_cannot_be_negative():
    with pytest.raises(IntegrityError), transaction.atomic():
        GpuFactory(monthly_price=-1)


def test_cpu_threads_cannot_be_fewer_than_cores():
    cpu = Cpu.objects.get(slug="xeon-gold-6530")
    cpu.pk = None
    cpu.slug = "broken-cpu"
    cpu.threads = cpu.cores - 1
    with pytest.raises(IntegrityError), transaction.atomic():
        cpu.save()


def test_platform_switch_uplinks_follow_the_attach_mode():
    platform = Platform.objects.filter(gpu_attach="direct").first()
    platform.pk = None
    platform.slug = "broken-platform"
    platform.pcie_switch_uplinks = 4
    with pytest.raises(IntegrityError), transaction.atomic():
        platform.save()


def test_single_socket_platform_has_no_socket1_slots():
    platform = Platform.objects.first()
    platform.pk = None
    platform.slug = "one-socket"
    platform.sockets = 1
    platform.gpu_slots_socket1 = 2
    with pytest.raises(IntegrityError), transaction.atomic():
        platform.save()


@pytest.mark.parametrize(
    ("architecture", "fp8_tflops", "valid"),
    [
        ("volta", 0, True),
        ("turing", 0, True),
        ("ampere", 0, True),
        ("ampere", 624, False),
        ("volta", 125, False),
        ("ada", 733, True),
        ("hopper", Decimal("1978.9"), True),
        ("blackwell", 2250, True),
    ],
)
def test_a_gpus_fp8_figure_follows_its_architecture(architecture, fp8_tflops, valid):
    """Every architecture of the open list is a choice; FP8 figures need FP8 tensor cores."""
    from django.core.exceptions import ValidationError

    gpu = GpuFactory.build(architecture=architecture, fp8_tflops=fp8_tflops)
    if valid:
        gpu.full_clean()
    else:
        with pytest.raises(ValidationError) as error:
            gpu.full_clean()
        assert "has no FP8 tensor cores" in str(error.value.message_dict["fp8_tflops"])
