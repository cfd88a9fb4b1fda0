"""Leads moved from the pages app to the quotes app: an existing database keeps every lead, its
saved builds, the quotes written from them and the groups' rights on them.

Each test takes the database back to where the pages app held the leads, writes the rows an
existing database has there, and migrates forward as a deployment would.
"""

from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.core.management.sql import emit_post_migrate_signal
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from configurator.quotes import services
from configurator.quotes.models import Lead, LeadBuild, Quote
from configurator.roles import ARCHITECTS, PRESALES
from configurator.schemas import BuildIn, WorkloadIn
from tests.factories import UserFactory
from tests.quotes.conftest import CUSTOMER, GOOD_BUILD, WORKLOAD

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# Where the pages app (`web`) still held the leads.
BEFORE = [("web", "0002_lead_permissions"), ("quotes", "0004_quote_superseded")]
LEAD_RIGHTS = {"view_lead", "change_lead", "view_leadbuild", "add_leadbuild"}


def migrate(targets=None):
    """Migrate to `targets` (every app's latest without them); return that state's models."""
    executor = MigrationExecutor(connection)
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    ContentType.objects.clear_cache()
    return executor.loader.project_state(targets).apps


def rights(group: str, app_label: str) -> set[str]:
    permissions = Group.objects.get(name=group).permissions
    return set(
        permissions.filter(content_type__app_label=app_label).values_list("codename", flat=True)
    )


def old_lead(apps, **changes):
    """Write a lead as the pages app's model did."""
    values = {"name": "Li Wei", "company": "Example AI Ltd", "email": "li@example.com",
              "phone": "+86 10 1234", "build": GOOD_BUILD, "workload": WORKLOAD,
              "permalink": "cpu=xeon-gold-6530", "monthly_price": Decimal("123456.78"),
              "verdict": "accept", "language": "zh-hans"}  # fmt: skip
    return apps.get_model("web", "Lead").objects.create(**{**values, **changes})


@pytest.fixture
def quoted_lead(db):
    """A lead, a build saved to it and a quote written from that build, as rows of the tables."""
    presales = UserFactory(username="presales", is_staff=True)
    presales.groups.add(Group.objects.get(name=PRESALES))
    lead = Lead.objects.create(
        name="王伟", company="北京深度智能", email="wang@example.cn", phone="+86 10 5555",
        build=GOOD_BUILD, workload=WORKLOAD, permalink="cpu=xeon-gold-6530",
        monthly_price=Decimal("99999.99"), verdict="accept", language="zh-hans",
    )  # fmt: skip
    saved = LeadBuild.objects.create(
        lead=lead, build=GOOD_BUILD, workload=WORKLOAD, permalink="cpu=xeon-gold-6530",
        monthly_price=Decimal("99999.99"), verdict="accept", note="8 GPUs", created_by=presales,
    )  # fmt: skip
    quote = services.quote_create(
        owner=presales, customer=services.Customer(**CUSTOMER),
        build=BuildIn.model_validate(GOOD_BUILD), workload=WorkloadIn.model_validate(WORKLOAD),
        saved_build=saved,
    )  # fmt: skip
    return lead, saved, quote


def test_leads_saved_builds_and_their_quotes_survive_the_move(quoted_lead, client):
    lead, saved, quote = quoted_lead
    apps = migrate(BEFORE)
    assert apps.get_model("web", "Lead").objects.get(pk=lead.pk).company == "北京深度智能"
    assert rights(PRESALES, "web") == LEAD_RIGHTS
    older = old_lead(apps)
    apps.get_model("web", "LeadBuild").objects.create(
        lead=older, build=GOOD_BUILD, permalink="", monthly_price=1, verdict="reject"
    )

    migrate()

    moved = Lead.objects.get(pk=older.pk)
    assert (moved.company, moved.monthly_price, moved.language) == (
        "Example AI Ltd", Decimal("123456.78"), "zh-hans",
    )  # fmt: skip
    assert moved.builds.get().verdict == "reject"
    quote = Quote.objects.get(pk=quote.pk)
    assert quote.lead == lead and quote.saved_build == saved
    # Its quote is a draft: the lead is drafting (quotes.0006), quoted once it is issued.
    assert Lead.objects.get(pk=lead.pk).status == Lead.Status.DRAFTING
    assert rights(PRESALES, "quotes") >= LEAD_RIGHTS
    assert rights(ARCHITECTS, "quotes") >= LEAD_RIGHTS
    assert not ContentType.objects.filter(app_label="web", model__in=["lead", "leadbuild"]).exists()
    # The groups' rights still open the workspace on the moved rows.
    client.force_login(quote.owner)
    page = client.get(reverse("web:presales_lead", args=[older.pk]))
    assert page.status_code == 200 and "Example AI Ltd" in page.content.decode()


def test_a_database_migrated_back_and_forth_keeps_the_rights(quoted_lead):
    # `migrate quotes 0004` ends with post_migrate, which gives today's models (quotes.Lead)
    # their content type and permissions beside the pages app's: both exist going forward.
    migrate(BEFORE)
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    assert ContentType.objects.filter(app_label="quotes", model="lead").exists()
    assert rights(PRESALES, "web") == LEAD_RIGHTS

    migrate()

    assert rights(PRESALES, "quotes") >= LEAD_RIGHTS
    assert rights(ARCHITECTS, "quotes") >= LEAD_RIGHTS
    assert not ContentType.objects.filter(app_label="web", model__in=["lead", "leadbuild"]).exists()
    presales = UserFactory(username="presales-2", is_staff=True)
    presales.groups.add(Group.objects.get(name=PRESALES))
    assert presales.has_perm("quotes.change_lead") and not presales.has_perm("quotes.delete_lead")


def test_leads_called_quoted_for_a_draft_or_a_cancelled_quote_follow_them(quoted_lead):
    lead, _, quote = quoted_lead
    other = Lead.objects.create(**{f.name: getattr(lead, f.name) for f in Lead._meta.fields
                                   if f.name not in ("id", "status")})  # fmt: skip
    withdrawn = services.quote_create(
        owner=quote.owner, customer=services.Customer(**CUSTOMER),
        build=BuildIn.model_validate(GOOD_BUILD),
        saved_build=LeadBuild.objects.create(lead=other, build=GOOD_BUILD, permalink="",
                                             monthly_price=1, verdict="accept"),
    )  # fmt: skip
    services.quote_cancel(quote=withdrawn, user=quote.owner)
    apps = migrate([("quotes", "0005_leads")])
    # Before quotes.0006 a lead was quoted as soon as a draft was written from it.
    apps.get_model("quotes", "Lead").objects.update(status="quoted")
    migrate()
    assert Lead.objects.get(pk=lead.pk).status == Lead.Status.DRAFTING
    assert Lead.objects.get(pk=other.pk).status == Lead.Status.IN_PROGRESS
