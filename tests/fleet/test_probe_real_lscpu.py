"""Real outputs collected from public sources parse to the facts a person reads from them.

Each sample is cited in tests/fixtures/probe/public/README.md; the expected values are
read off the raw text by eye (a table: sample -> facts).
"""

import pytest

from configurator.fleet.probe import parsers as p
from configurator.fleet.probe.matching import match_cpu, match_gpu
from tests.fleet.probe_archives import fixture


@pytest.mark.parametrize(
    ("path", "model", "vendor", "counts"),
    [
        # CentOS/RHEL 7-era plain lscpu (util-linux before 2.30 has no -J)
        ("public/lscpu-2x-xeon-e5-2687w-v4.txt",
         "Intel(R) Xeon(R) CPU E5-2687W v4 @ 3.00GHz", "GenuineIntel", (2, 12, 2, 2)),
        ("public/lscpu-2x-xeon-e5-2620-v4.txt",
         "Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz", "GenuineIntel", (2, 8, 2, 2)),
        # lscpu under zh_CN.UTF-8: every field name translated, full-width colons
        ("public/lscpu-zh-cn-2x-hygon-7280.txt",
         "Hygon C86 7280 32-core Processor", "HygonGenuine", (2, 32, 2, 8)),
        # an older util-linux with part of the zh_CN catalogue: English and Chinese mixed
        ("public/lscpu-zh-cn-partly-epyc-7h12-vm.txt",
         "AMD EPYC 7H12 64-Core Processor", "AuthenticAMD", (2, 16, 2, 2)),
    ],
)  # fmt: skip
def test_plain_lscpu_in_any_locale_reads_as_printed(path, model, vendor, counts):
    cpu = p.parse_lscpu_text(fixture(path))
    assert (cpu.model, cpu.vendor) == (model, vendor)
    assert (cpu.sockets, cpu.cores_per_socket, cpu.threads_per_core, cpu.numa_nodes) == counts


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "public/lscpu-2x-xeon-e5-2687w-v4.txt",
        "public/lscpu-2x-xeon-e5-2620-v4.txt",
        "public/lscpu-zh-cn-2x-hygon-7280.txt",
    ],
)
def test_real_cpus_the_catalog_lacks_are_unknown_parts_not_a_neighbour(path):
    """The catalog's only v4 Xeon is the E5-2680 v4: an E5-2687W v4 (12 cores) or an
    E5-2620 v4 (8 cores) read as it would be judged with 14 cores a socket."""
    from configurator import selectors

    catalog = selectors.snapshots()[0].everything
    assert match_cpu(p.parse_lscpu_text(fixture(path)).model, catalog) is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("product", "linked", "slug"),
    [
        ("NVIDIA H800 PCIe", False, None),  # only the SXM5 H800 is in the catalog
        ("NVIDIA H800 PCIe", True, None),  # links do not make a PCIe card an SXM module
        ("NVIDIA H200 NVL", False, None),  # only the SXM H200 is
        ("NVIDIA H100 NVL", False, "h100-nvl-94g"),
        ("NVIDIA H100 PCIe", False, "h100-80g-pcie"),
        ("NVIDIA H100 80GB HBM3", False, "h100-80g-sxm"),
        ("NVIDIA A800 80GB PCIe", False, "a800-80g-pcie"),
        ("NVIDIA A800 40GB PCIe", False, None),  # the stated memory is another card's
        ("NVIDIA A800-SXM4-80GB", True, "a800-80g-sxm"),
    ],
)
def test_a_gpu_name_stating_its_form_factor_or_memory_is_that_part_or_none(product, linked, slug):
    from configurator import selectors

    catalog = selectors.snapshots()[0].everything
    found = match_gpu(product, catalog, sxm_hint=linked)
    assert (found.slug if found else None) == slug
