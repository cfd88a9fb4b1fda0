"""A probed CPU or GPU is its catalog part by the whole model name, or an unknown part."""

import pytest

from configurator.fleet.probe.matching import cpu_identity, match_cpu, match_gpu


@pytest.fixture
def catalog(db):
    from configurator import selectors

    return selectors.snapshots()[0].everything


@pytest.mark.parametrize(
    ("model", "slug"),
    [
        # lscpu's "Model name" as Intel and AMD print it
        ("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", "xeon-e5-2680-v4"),
        ("Intel(R) Xeon(R) CPU E5-2687W v4 @ 3.00GHz", None),  # not the 2680 v4
        ("Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz", None),
        ("Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz", None),
        ("Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz", None),  # another generation
        ("Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz", None),  # the first E5-2680
        ("INTEL(R) XEON(R) GOLD 6530", "xeon-gold-6530"),
        ("Intel(R) Xeon(R) Platinum 8480+", "xeon-platinum-8480-plus"),
        ("Intel(R) Xeon(R) Platinum 8480C", "xeon-platinum-8480c"),  # DGX H100's
        ("Intel(R) Xeon(R) Platinum 8480CL", None),
        ("Intel(R) Xeon(R) Gold 6548Y+", "xeon-gold-6548y-plus"),
        ("Intel(R) Xeon(R) Gold 6548Y", None),
        ("Intel(R) Xeon(R) Platinum 8462Y+", "xeon-platinum-8462y-plus"),
        ("AMD EPYC 9654 96-Core Processor", "epyc-9654"),
        ("AMD EPYC 9654P 96-Core Processor", None),
        ("AMD EPYC 9374F 32-Core Processor", "epyc-9374f"),
        ("AMD EPYC 9374 32-Core Processor", None),
        ("Intel(R) Xeon(R) Processor", None),  # a cloud VM's generic vCPU
    ],
)
def test_a_cpu_is_its_catalog_part_by_the_whole_model_name(catalog, model, slug):
    found = match_cpu(model, catalog)
    assert (found.slug if found else None) == slug


def test_the_generation_is_part_of_the_model_however_it_is_written():
    assert cpu_identity("Intel(R) Xeon(R) CPU E5-2680v4 @ 2.40GHz") == ("XEON", "E5-2680", "V4")
    assert cpu_identity("Intel Xeon E5-2680 v4") == ("XEON", "E5-2680", "V4")
    assert cpu_identity("AMD EPYC 7763 64-Core Processor") == ("EPYC", "7763", "")


@pytest.mark.parametrize(
    ("product", "slug"),
    [
        ("NVIDIA GeForce RTX 4090", "rtx-4090"),
        ("NVIDIA GeForce RTX 4090 D", None),  # the China-market part, fewer cores
        ("NVIDIA L40S", "l40s"),
        ("NVIDIA L40", None),
        ("NVIDIA A800-SXM4-80GB", "a800-80g-sxm"),
        ("NVIDIA A100-SXM4-80GB", None),
    ],
)
def test_a_gpu_is_its_catalog_part_with_its_variant_words(catalog, product, slug):
    found = match_gpu(product, catalog, sxm_hint=False)
    assert (found.slug if found else None) == slug


@pytest.mark.parametrize(
    ("path", "slug"),
    [
        ("public/lscpu-xeon-8462y-plus-nested.txt", "xeon-platinum-8462y-plus"),
        ("public/lscpu-xeon-e5-2696-v4.txt", None),  # a v4, but not the catalog's 2680 v4
        ("public/lscpu-epyc-7281-dual-socket.txt", None),
    ],
)
def test_real_lscpu_model_names_match_or_are_unknown(catalog, path, slug):
    from configurator.fleet.probe.parsers import parse_lscpu_text
    from tests.fleet.probe_archives import fixture

    found = match_cpu(parse_lscpu_text(fixture(path)).model, catalog)
    assert (found.slug if found else None) == slug
