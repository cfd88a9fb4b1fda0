"""Shared fixtures: one account per role; every test starts with no drawn fragments kept and
no throttle counts (sign-in failures per address, quote requests)."""

import os
import struct
from dataclasses import FrozenInstanceError, fields
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.cache import caches
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from configurator.engine.findings import Finding
from configurator.quotes import services as quote_services
from configurator.roles import ARCHITECTS, PRESALES
from configurator.schemas import BuildIn, WorkloadIn
from tests.factories import UserFactory
from tests.quotes.conftest import CUSTOMER, GOOD_BUILD, WORKLOAD

# CI (`.ci/run`) draws the same examples on every run, so a red build is the change's, never
# the draw's; elsewhere each run draws anew and explores further. A failure found locally is
# replayed from .hypothesis/ until fixed.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


_LAST_FIELD = fields(Finding)[-1].name


def _set_while_made(finding: Finding, name: str, value: object) -> None:
    # `__init__` sets the fields in order: once the last is set, the finding is made, and
    # nothing may change it.
    try:
        getattr(finding, _LAST_FIELD)
    except AttributeError:
        object.__setattr__(finding, name, value)
        return
    raise FrozenInstanceError(f"cannot assign to field {name!r}: a finding never changes")


@pytest.fixture(autouse=True, scope="session")
def _findings_never_change():
    # A finding is not a frozen dataclass, which costs four times as much to make
    # (engine/findings.py): under every test it behaves as one, so a change that alters a
    # finding after its check made it fails here, whichever test exercises it.
    Finding.__setattr__ = _set_while_made
    yield
    del Finding.__setattr__


@pytest.fixture(autouse=True)
def _no_kept_fragments():
    # Each test's database starts over, so fragments drawn from another test's rows must go.
    caches["fragments"].clear()


@pytest.fixture(autouse=True)
def _no_throttle_counts():
    # The counts live in the process's cache: another test's failed sign-ins must not count.
    caches[settings.THROTTLE_CACHE].clear()


@pytest.fixture
def architect(db):
    user = UserFactory(username="architect", is_staff=True)
    user.groups.add(Group.objects.get(name=ARCHITECTS))
    return user


@pytest.fixture
def presales(db):
    user = UserFactory(username="presales", is_staff=True)
    user.groups.add(Group.objects.get(name=PRESALES))
    return user


# Quotes: a factory of drafts, and of quotes taken through review to the customer. ---------------


@pytest.fixture
def make_quote(presales):
    def make(build=None, *, owner=None, workload=WORKLOAD, **kwargs):
        return quote_services.quote_create(
            owner=owner or presales,
            customer=quote_services.Customer(**CUSTOMER),
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
        quote_services.quote_submit(quote=quote, user=presales)
        quote_services.quote_approve(quote=quote, user=architect)
        return quote_services.quote_issue(quote=quote, user=presales)

    return make


@pytest.fixture
def customer(db):
    return UserFactory(username="customer")


@pytest.fixture
def architect_client(client, architect):
    client.force_login(architect)
    return client


@pytest.fixture
def presales_client(client, presales):
    client.force_login(presales)
    return client


# Page languages the project has no catalogue of: they prove that no language is special. ------


def compiled_catalogue(entries: dict[str, str]) -> bytes:
    """Return a GNU .mo catalogue of `entries` (msgid → msgstr), laid out as msgfmt writes it."""
    header = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=1; plural=0;\n"
    items = sorted({"": header, **entries}.items())
    ids = strs = b""
    offsets = []
    for msgid, msgstr in items:
        key, value = msgid.encode(), msgstr.encode()
        offsets.append((len(ids), len(key), len(strs), len(value)))
        ids, strs = ids + key + b"\0", strs + value + b"\0"
    count = len(items)
    ids_at = 7 * 4 + 16 * count
    strs_at = ids_at + len(ids)
    table = [n for at, size, _, _ in offsets for n in (size, ids_at + at)]
    table += [n for _, _, at, size in offsets for n in (size, strs_at + at)]
    head = struct.pack("<7I", 0x950412DE, 0, count, 28, 28 + 8 * count, 0, 0)
    return head + struct.pack(f"<{len(table)}I", *table) + ids + strs


# A third page language with a catalogue of a few entries: a check's title, a recipe's name, an
# input error, a PDF label (the words are Japanese; the entries are all the catalogue has).
JAPANESE = {
    "Legacy PCIe 3.0 platform carrying several GPUs": "複数 GPU を載せた旧式 PCIe 3.0 基盤",
    "PCIe generation fit for the node's GPUs": "GPU に見合う PCIe 世代",
    "Mid-size distributed training": "中規模の分散学習",
    "Unknown CPU %(cpu)s: use a catalog slug or name.": "不明な CPU %(cpu)s です。",
    "Quotation": "見積書",
}


@pytest.fixture
def japanese(settings, tmp_path):
    """Add Japanese to the page languages with the tiny catalogue above, and nothing else."""
    folder = tmp_path / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.mo").write_bytes(compiled_catalogue(JAPANESE))
    settings.LOCALE_PATHS = [tmp_path, *settings.LOCALE_PATHS]
    settings.LANGUAGES = [*settings.LANGUAGES, ("ja", "Japanese")]
    yield "ja"
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def french(settings):
    """Add French to the page languages with no catalogue of the project's: every text falls
    back to its English id (Django's own words are French, in Latin script)."""
    settings.LANGUAGES = [*settings.LANGUAGES, ("fr", "French")]
    yield "fr"
    translation.activate(settings.LANGUAGE_CODE)
