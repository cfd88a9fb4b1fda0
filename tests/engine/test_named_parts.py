"""A part a build names by slug (engine.build.NAMED_PARTS) is found, refused when unknown, and
billed as many as the build counts: the generic path a new kind of that sort takes (measured
end to end with an NVMe drive kind in docs/architecture.md "Kinds of part")."""

from types import SimpleNamespace

from configurator import inputs
from configurator.engine import build as engine_build
from configurator.engine import catalog as engine_catalog
from configurator.engine import pricing
from configurator.engine.build import NamedPart, Nic
from configurator.engine.catalog import Catalog
from configurator.engine.messages import _

CARD = Nic("spare-card", "Spare card", 100, 4, 8, 20, monthly_price=12.5)
SPARE = NamedPart("spare", "nics", "spares", "nic", _("Network card model"))


def _bill(parts):
    return pricing.bill(
        cpu=None, cpu_count=1, gpu=None, gpu_count=1, memory_gb=64, memory_ecc=True,
        psu_watts=1000, catalog=Catalog(), parts=parts,
    )  # fmt: skip


def test_a_named_part_is_billed_as_many_as_the_build_counts(monkeypatch):
    monkeypatch.setattr(pricing, "NAMED_PARTS", (SPARE,))
    line = _bill({"spare": (CARD, 3)}).line("nic")
    assert (line.slug, line.qty, line.monthly_price) == ("spare-card", 3, 12.5)
    assert _bill({"spare": (CARD, 3)}).node_price == 37.5
    assert _bill({"spare": (None, 3)}).line("nic") is None  # not named: not priced
    assert _bill({"spare": (CARD, 0)}).line("nic") is None  # none counted


def test_counted_parts_pairs_each_found_part_with_its_count(monkeypatch):
    monkeypatch.setattr(pricing, "NAMED_PARTS", (SPARE,))
    build = SimpleNamespace(spare="spare-card", spares=2)
    assert pricing.counted_parts(build, {"spare": CARD}) == {"spare": (CARD, 2)}


def test_a_named_part_is_found_by_slug_or_name_and_an_unknown_one_is_named(monkeypatch):
    monkeypatch.setattr(engine_catalog, "NAMED_PARTS", (SPARE,))
    monkeypatch.setattr(engine_build, "NAMED_PARTS", (SPARE,))
    catalog = Catalog(nics=(CARD,))
    assert catalog.find_named(SimpleNamespace(spare="Spare card")) == {"spare": CARD}
    assert catalog.find_named(SimpleNamespace(spare="")) == {"spare": None}
    errors = inputs.InputErrors()
    found = inputs.named_parts(SimpleNamespace(spare="nope"), catalog, errors)
    assert found == {"spare": None}
    assert errors.errors == {
        "build.spare": ["Unknown Network card model 'nope': use a catalog slug or name."]
    }
