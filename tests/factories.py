"""Factories for test data; `.build()` where no database is needed."""

from decimal import Decimal

import factory
from django.contrib.auth import get_user_model

from catalog.models import Gpu


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("correct horse battery staple")


class GpuFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Gpu

    slug = factory.Sequence(lambda n: f"test-gpu-{n}")
    name = factory.Sequence(lambda n: f"Test GPU {n}")
    vendor = "NVIDIA"
    source_url = "https://www.nvidia.com/en-us/data-center/"
    monthly_price = Decimal("1000.00")
    memory_gb = 48
    memory_type = "GDDR6"
    tdp_w = 300
    pcie_gen = 4
    form_factor = "pcie"
    nvlink_gbps = 0
    ecc = True
    gpu_class = "datacenter"
    architecture = "ada"
