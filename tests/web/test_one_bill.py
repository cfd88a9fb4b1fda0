"""One bill: the configurator page, /api/v1/evaluate, /recommend and the quote's BOM price the
same build to the cent (engine/pricing.bill), with or without a platform named.

Builds are drawn from the seed catalog as the page holds them (conformed to their platform:
what a customer can configure); the recommender's builds are re-priced on every surface.
"""

import json
from decimal import Decimal
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from configurator import selectors
from configurator.engine.parts import cheapest_platform, memory_options, psu_options
from configurator.inputs import InputErrors
from configurator.quotes.selectors import quote_bom
from configurator.schemas import BuildIn
from configurator.web.configuration import Configuration
from configurator.web.options import conform

pytestmark = pytest.mark.django_db
PROPERTY = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def page_price(client, config: Configuration) -> float:
    response = client.get("/configure/?" + urlencode(config.query(), safe="+"))
    assert response.status_code == 200
    bill = response.context["bill"]
    assert not bill["unpriced"], bill["unpriced"]
    return bill["monthly_price_value"]


def api_price(client, config: Configuration) -> float | None:
    body = {"build": config.build_input()}
    response = client.post("/api/v1/evaluate", json.dumps(body), content_type="application/json")
    if response.status_code == 400:  # a build the API refuses has no price to compare
        return None
    assert response.status_code == 200, response.content
    return response.json()["monthly_price"]


def quote_price(build: dict) -> tuple[Decimal, BuildIn]:
    lines, explicit = quote_bom(build=BuildIn(**build))
    return sum((Decimal(line["monthly_price"]) for line in lines), Decimal(0)), explicit


def cents(value) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


@st.composite
def configurations(draw, named_platform: bool):
    """A build from the seed catalog's offered parts, as the configurator page holds it."""
    catalog = selectors.snapshots()[0].offered
    cpu = draw(st.sampled_from(catalog.cpus))
    cpu_count = draw(st.integers(1, cpu.max_sockets))
    gpu = draw(st.sampled_from(catalog.gpus))
    gpu_count = draw(st.integers(1, 8))
    platform = cheapest_platform(cpu, cpu_count, gpu, gpu_count, catalog)
    if named_platform:
        fits = [
            p
            for p in catalog.platforms
            if p.cpu_socket == cpu.socket and p.takes_gpu(gpu) and p.sockets >= cpu_count
        ]
        platform = draw(st.sampled_from(fits)) if fits else None
    if platform is None:  # nothing takes these parts: not a build the bill can price
        return None
    ecc = draw(st.booleans())
    memory = memory_options(cpu, cpu_count, platform, ecc, catalog)
    psus = psu_options(platform, catalog)
    if not memory or not psus:
        return None
    config = Configuration(
        cpu=cpu.slug,
        cpu_count=cpu_count,
        gpu=gpu.slug,
        gpu_count=gpu_count,
        gpus_per_socket=(),
        memory_gb=draw(st.sampled_from(memory)).total_gb,
        memory_ecc=ecc,
        psu_watts=draw(st.sampled_from(psus)).usable_w,
        nvlink=False,
        platform=platform.slug if named_platform else "",
        nodes=draw(st.integers(1, 3)),
        nics=draw(st.integers(0, 2)),
        nic=draw(st.sampled_from(["", *(nic.slug for nic in catalog.nics)])),
    )
    conformed, _ = conform(config, selectors.snapshots()[0].everything)
    return conformed


@PROPERTY
@given(config=configurations(named_platform=True))
def test_page_api_and_quote_price_a_build_on_its_platform_alike(client, config):
    if config is None:
        return
    page = page_price(client, config)
    api = api_price(client, config)
    quote, _ = quote_price(config.build_input())
    assert cents(page) == quote
    if api is not None:
        assert cents(api) == quote


@PROPERTY
@given(config=configurations(named_platform=False))
def test_a_build_without_a_platform_is_priced_alike_and_the_quote_freezes_its_platform(
    client, config
):
    if config is None:
        return
    page = page_price(client, config)
    api = api_price(client, config)
    quote, explicit = quote_price(config.build_input())
    assert cents(page) == cents(api) == quote
    catalog = selectors.snapshots()[0].offered
    cpu, gpu = catalog.find("cpus", config.cpu), catalog.find("gpus", config.gpu)
    assumed = cheapest_platform(cpu, config.cpu_count, gpu, config.gpu_count, catalog)
    assert explicit.platform == assumed.slug
    # The frozen build, platform named, is the same price again on every surface.
    frozen = config.changed(platform=explicit.platform, nic=explicit.nic or "")
    assert cents(page_price(client, frozen)) == quote
    assert cents(api_price(client, frozen)) == quote


def test_the_non_ecc_build_keeps_its_psus_on_the_bill_and_the_headline_says_what_is_missing(
    client,
):
    # Non-ECC DDR5 on the S2 recipe's parts: the UDIMMs and the PSUs are both billed.
    query = (
        "cpu=xeon-gold-6530&cpu_count=2&gpu=a800-80g-pcie&gpu_count=8&memory_gb=512"
        "&memory_ecc=false&psu_watts=4400&nvlink=false"
    )
    response = client.get("/configure/?" + query)
    kinds = [line["kind"] for line in response.context["bill"]["lines"]]
    assert "Power supplies" in kinds and "Memory" in kinds
    assert 'id="price_incomplete"' not in response.content.decode()
    # A DDR4 CPU has no non-ECC module in the catalog: the headline says so, next to the price.
    legacy = query.replace("xeon-gold-6530", "xeon-e5-2680-v4")
    response = client.get("/configure/?" + legacy + "&platform=smc-sys-4028gr-tr")
    bill = response.context["bill"]
    assert "Memory" in bill["unpriced"]
    assert 'id="price_incomplete"' in response.content.decode()


WORKLOADS = [
    {"model_params_b": 7, "mode": "infer", "batch_size": 8},
    {"model_params_b": 13, "mode": "finetune", "batch_size": 16},
    {"model_params_b": 70, "mode": "train", "batch_size": 64},
]


@pytest.mark.parametrize("workload", WORKLOADS)
def test_each_recommended_build_is_priced_alike_on_the_page_the_api_and_the_quote(client, workload):
    response = client.post(
        "/api/v1/recommend", json.dumps({"workload": workload}), content_type="application/json"
    )
    builds = response.json()["builds"]
    assert builds
    for item in builds:
        build = item["build"]
        price = cents(item["monthly_price"])
        evaluated = {key: value for key, value in build.items() if key != "bom"}
        answer = client.post(
            "/api/v1/evaluate",
            json.dumps({"build": evaluated, "workload": workload}),
            content_type="application/json",
        ).json()
        assert cents(answer["monthly_price"]) == price
        assert quote_price(build)[0] == price  # its BOM lines, as /recommend gave them
        assert quote_price(evaluated)[0] == price  # the build alone, the BOM priced anew
        fields = {name: build[name] for name in Configuration.field_names() if name in build}
        config = Configuration(
            **fields
            | {"gpus_per_socket": tuple(build["gpus_per_socket"]), "nic": build["nic"] or ""}
        )
        assert cents(page_price(client, config)) == price


def test_a_build_no_offered_platform_takes_is_refused_by_the_quote_and_unpriced_on_the_page(
    client,
):
    legacy = {
        "cpu": "xeon-e5-2680-v4", "cpu_count": 2, "gpu": "a800-80g-pcie", "gpu_count": 8,
        "memory_gb": 512, "memory_ecc": True, "psu_watts": 4400, "nvlink": False,
    }  # fmt: skip
    with pytest.raises(InputErrors) as error:
        quote_bom(build=BuildIn(**legacy))
    assert "build.platform" in error.value.errors
    query = {**legacy, "memory_ecc": "true", "nvlink": "false"}
    response = client.get("/configure/?" + urlencode(query))
    assert "Platform" in response.context["bill"]["unpriced"]
