"""Every admin page answers each role as README's "Accounts and roles" says.

Two presales engineers and an architect open every registered model's list and one object's
page. Presales read the catalog and the rules, and only their own quotes; architects also edit
them, follow sheet imports, audits and probes, and read every quote; users, groups, sign-in
records and task results are an operator's (superuser's) alone.
"""

from decimal import Decimal

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from catalog.kinds import KINDS
from catalog.models import Gpu, ImportJob
from configurator.fleet.models import FleetAudit, NodeProbe
from configurator.models import RuleProfile, RuleSetVersion, Scenario
from configurator.quotes import services
from configurator.quotes.models import Quote
from configurator.roles import PRESALES
from configurator.schemas import BuildIn
from tests.factories import UserFactory
from tests.quotes.conftest import CUSTOMER, GOOD_BUILD

pytestmark = pytest.mark.django_db

BOTH = {"architect", "presales"}
ARCHITECT = {"architect"}
NOBODY: set[str] = set()


def first(model):
    return lambda owner: model.objects.first()


def import_job(owner):
    return ImportJob.objects.create(model="catalog.gpu", file_name="gpus.csv", file_format="csv",
                                    data=b"slug\n", created_by=owner)  # fmt: skip


def fleet_audit(owner):
    return FleetAudit.objects.create(file_name="fleet.csv", created_by=owner)


def node_probe(owner):
    return NodeProbe.objects.create(file_name="probe.tar.gz", psu_watts=5000, created_by=owner)


def quote(owner):
    return services.quote_create(
        owner=owner, customer=services.Customer(**CUSTOMER),
        build=BuildIn.model_validate(GOOD_BUILD), workload=None, term_months=12,
        discount_pct=Decimal("5"),
    )  # fmt: skip


def access_attempt(owner):
    return AccessAttempt.objects.create(username="architect", ip_address="203.0.113.9",
                                        user_agent="curl", failures_since_start=3)  # fmt: skip


def access_log(owner):
    return AccessLog.objects.create(username="architect", ip_address="203.0.113.9",
                                    user_agent="curl")  # fmt: skip


def access_failure_log(owner):
    return AccessFailureLog.objects.create(username="architect", ip_address="203.0.113.9",
                                           user_agent="curl", locked_out=False)  # fmt: skip


def task_result(owner):
    return DBTaskResult.objects.create(
        args_kwargs={"args": [], "kwargs": {}}, task_path="catalog.imports.import_job_run",
        backend_name="default", run_after=timezone.now(), exception_class_path="", traceback="",
    )  # fmt: skip


# model, who reads it in the admin, the object a test opens (made for its owner, presales A).
PAGES = [
    *((kind.model, BOTH, first(kind.model)) for kind in KINDS),  # every kind of part
    (ImportJob, ARCHITECT, import_job),
    (RuleProfile, BOTH, first(RuleProfile)),
    (RuleSetVersion, BOTH, first(RuleSetVersion)),
    (Scenario, BOTH, first(Scenario)),
    (FleetAudit, ARCHITECT, fleet_audit),
    (NodeProbe, ARCHITECT, node_probe),
    (Quote, BOTH, quote),
    (AccessAttempt, NOBODY, access_attempt),
    (AccessLog, NOBODY, access_log),
    (AccessFailureLog, NOBODY, access_failure_log),
    (DBTaskResult, NOBODY, task_result),
    (Group, NOBODY, first(Group)),
]
# Models whose rows belong to someone: a presales engineer reads only their own.
OWNED = {Quote}


def url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def staff(architect, presales):
    other = UserFactory(username="presales-b", is_staff=True)
    other.groups.add(Group.objects.get(name=PRESALES))
    return {"architect": architect, "presales": presales, "presales-b": other}


def test_every_registered_model_is_in_the_table():
    covered = {model for model, _, _ in PAGES} | {get_user_model()}  # users: below
    assert set(admin.site._registry) == covered


@pytest.mark.parametrize(("model", "readers", "make"), PAGES, ids=[m.__name__ for m, *_ in PAGES])
def test_each_role_lists_and_opens_what_it_may_read(staff, model, readers, make):
    owned = make(staff["presales"])
    for name, role in (("architect", "architect"), ("presales", "presales"),
                       ("presales-b", "presales")):  # fmt: skip
        client = signed_in(staff[name])
        listing = client.get(url(model, "changelist"))
        page = client.get(url(model, "change", owned.pk))
        if role not in readers:
            assert listing.status_code == 403, name
            assert page.status_code == 403, name
        elif model in OWNED and name == "presales-b":
            assert listing.status_code == 200
            assert url(model, "change", owned.pk) not in listing.content.decode(), "not listed"
            assert page.status_code == 302, "another's row is not found"
            assert page["Location"] == reverse("admin:index")
        else:
            assert listing.status_code == 200, name
            assert url(model, "change", owned.pk) in listing.content.decode(), name
            assert page.status_code == 200, name


def test_users_are_an_operators_alone(staff):
    for name in staff:
        client = signed_in(staff[name])
        assert client.get(url(get_user_model(), "changelist")).status_code == 403
        assert client.get(url(get_user_model(), "change", staff[name].pk)).status_code == 403


def test_a_presales_engineer_finds_none_of_anothers_quotes(staff):
    mine = quote(staff["presales"])
    theirs = quote(staff["presales-b"])
    client = signed_in(staff["presales"])

    listing = client.get(url(Quote, "changelist")).content.decode()
    searched = client.get(url(Quote, "changelist"), {"q": theirs.number}).content.decode()

    assert url(Quote, "change", mine.pk) in listing
    assert url(Quote, "change", theirs.pk) not in listing
    assert url(Quote, "change", theirs.pk) not in searched
    assert client.get(url(Quote, "history", theirs.pk)).status_code == 302
    architect = signed_in(staff["architect"]).get(url(Quote, "changelist")).content.decode()
    assert url(Quote, "change", mine.pk) in architect
    assert url(Quote, "change", theirs.pk) in architect


def test_a_quotes_events_show_on_its_owners_page_only(staff):
    theirs = quote(staff["presales-b"])
    services.quote_submit(quote=theirs, user=staff["presales-b"])
    mine = signed_in(staff["presales"]).get(url(Quote, "change", theirs.pk), follow=True)
    owner = signed_in(staff["presales-b"]).get(url(Quote, "change", theirs.pk))

    assert "submit" in owner.content.decode()
    assert theirs.customer_email not in mine.content.decode()


@pytest.mark.parametrize("model", [Gpu, RuleProfile, Scenario], ids=lambda m: m.__name__)
def test_reading_a_past_version_does_not_let_a_reader_write_it(staff, model):
    row = model.objects.first()
    row.save()  # a second history record
    version = row.history.last()
    past = url(model, "simple_history", row.pk, version.history_id)
    client = signed_in(staff["presales"])
    before = model.objects.get(pk=row.pk).history.count()

    assert client.get(url(model, "history", row.pk)).status_code == 200
    assert client.get(past).status_code == 200
    assert client.post(past, {"name": "rewritten"}).status_code == 403
    assert model.objects.get(pk=row.pk).history.count() == before, "nothing written"


def test_presales_cannot_change_what_they_read(staff):
    client = signed_in(staff["presales"])
    for model in (Gpu, RuleProfile, Scenario):
        row = model.objects.first()
        assert client.post(url(model, "change", row.pk), {"name": "renamed"}).status_code == 403
