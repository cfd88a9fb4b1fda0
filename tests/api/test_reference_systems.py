"""Reference systems get the verdicts the industry would give them (issue: deployed builds).

Each system is posted to /api/v1/evaluate as a customer would send it; the catalog is the
one a fresh install seeds. Accepted systems fail no check; rejected ones fail exactly the
listed checks. Every seeded platform passes P7 on its maker's stock PSU configuration with
the GPUs it is documented for.
"""

import pytest

from catalog.models import Cpu, Gpu, Platform
from tests.api.reference_systems import REFERENCES, Reference

pytestmark = pytest.mark.django_db
URL = "/api/v1/evaluate"


def failing(body: dict) -> set[str]:
    return {check["code"] for check in body["checks"] if check["status"] == "fail"}


@pytest.mark.parametrize("reference", REFERENCES, ids=lambda reference: reference.name)
def test_reference_system_gets_its_verdict(post_json, reference: Reference):
    response = post_json(URL, reference.body())
    assert response.status_code == 200, response.json()
    body = response.json()
    assert failing(body) == set(reference.failing), [
        (check["code"], check["detail"]) for check in body["checks"] if check["status"] == "fail"
    ]
    assert body["verdict"] == reference.verdict
    assert body["balance"]["balanced"]


def test_dgx_h100_p7_uses_nvidias_published_maximum(post_json):
    (dgx,) = [ref for ref in REFERENCES if ref.name == "DGX H100, no workload"]
    checks = {check["code"]: check for check in post_json(URL, dgx.body()).json()["checks"]}
    assert checks["P7"]["numbers"]["required_w"] == 10_200
    assert "stated 10200 W" in checks["P7"]["detail"]


def test_dgx_h100_training_has_its_fabric(post_json):
    (dgx,) = [ref for ref in REFERENCES if ref.name == "DGX H100 × 2, 70B training"]
    checks = {check["code"]: check for check in post_json(URL, dgx.body()).json()["checks"]}
    assert checks["fabric"]["status"] == "pass"
    assert "8 × 400 Gb/s" in checks["fabric"]["detail"]


def _documented_gpu(platform: Platform) -> Gpu:
    """The GPU of the catalog the platform takes at the power its maker documents."""
    taken = platform.gpus.all() or Gpu.objects.filter(form_factor=platform.gpu_form_factor)
    fitting = [gpu for gpu in taken if gpu.tdp_w <= platform.rated_gpu_w]
    return max(fitting, key=lambda gpu: (gpu.tdp_w, gpu.memory_gb))


@pytest.mark.parametrize(
    "slug",
    [
        "smc-sys-740gp-tnrt", "smc-sys-420gp-tnr", "smc-sys-421ge-tnrt",
        "smc-as-4125gs-tnrt", "smc-sys-420gp-tnar", "smc-sys-821ge-tnhr", "smc-as-8125gs-tnhr",
        "nvidia-dgx-h100", "dell-xe9680", "inspur-nf5688m7",
    ],
)  # fmt: skip
def test_every_platform_passes_p7_on_its_stock_psus_with_its_documented_gpus(post_json, slug):
    checks = _stock_checks(post_json, slug)
    assert checks["P7"]["status"] == "pass", checks["P7"]["detail"]
    checks = _stock_checks(post_json, slug, less_w=1)
    assert checks["P7"]["status"] == "fail"


def test_the_legacy_4028gr_stock_psus_fall_under_the_guides_8_gpu_floor(post_json):
    """4 × 1600 W (2 + 2) = 3200 W is the maker's figure, the guide's floor is 3600 W: the
    floor is a minimum and stays (domain.md §4 P7), so the legacy box fails P7 beside P1."""
    checks = _stock_checks(post_json, "smc-sys-4028gr-tr")
    assert checks["P7"]["status"] == "fail"
    assert "max(3600 W floor, the platform's stated 3200 W)" in checks["P7"]["detail"]
    assert checks["P1"]["status"] == "fail"


def _stock_checks(post_json, slug: str, less_w: int = 0) -> dict[str, dict]:
    platform = Platform.objects.get(slug=slug)
    assert platform.rated_power_w > 0 and platform.power_source_url
    cpu = Cpu.objects.filter(socket=platform.cpu_socket).order_by("-tdp_w").first()
    gpu = _documented_gpu(platform)
    slots = platform.gpu_slots_socket0 + platform.gpu_slots_socket1
    stock = {
        "cpu": cpu.slug, "cpu_count": platform.sockets, "gpu": gpu.slug, "gpu_count": slots,
        "memory_gb": 2048, "memory_ecc": True, "psu_watts": platform.rated_power_w - less_w,
        "platform": slug,
    }  # fmt: skip
    return {c["code"]: c for c in post_json(URL, {"build": stock}).json()["checks"]}
