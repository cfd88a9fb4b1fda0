"""Change the catalog and rules revision tokens whenever either is written.

A token is random, never a counter: a rolled-back transaction must not bring back a token
whose cached snapshot described rows that no longer exist.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from uuid import uuid4

from django.db import connection
from django.db.models.signals import m2m_changed, post_delete, post_save

CATALOG = "catalog"
RULES = "rules"


# Inside `revision_bumps_deferred`, the names bumped so far (bumped once when it ends).
_deferred: ContextVar[set[str] | None] = ContextVar("revision_bumps_deferred", default=None)


def revision_bump(name: str) -> None:
    """Give a revision a new token."""
    from configurator.models import Revision

    pending = _deferred.get()
    if pending is not None:
        pending.add(name)
        return
    Revision.objects.update_or_create(name=name, defaults={"token": uuid4().hex})


@contextmanager
def revision_bumps_deferred() -> Iterator[None]:
    """Bump each revision written inside the block once, at its end (for bulk writes)."""
    if _deferred.get() is not None:
        yield
        return
    pending: set[str] = set()
    reset = _deferred.set(pending)
    try:
        yield
    finally:
        _deferred.reset(reset)
        for name in sorted(pending):
            revision_bump(name)


def revisions_renew(**kwargs) -> None:
    """Give every revision a new token (after `migrate`, whose data steps send no signals)."""
    from configurator.models import Revision

    using = kwargs.get("using", "default")
    if Revision._meta.db_table in connection.introspection.table_names():
        for name in (CATALOG, RULES):
            Revision.objects.using(using).update_or_create(
                name=name, defaults={"token": uuid4().hex}
            )


def revision_tokens() -> dict[str, str]:
    """Return the current token of every revision in one query."""
    from configurator.models import Revision

    with connection.cursor() as cursor:
        # The table name comes from the model, never from input.
        cursor.execute(f"SELECT name, token FROM {Revision._meta.db_table}")
        return dict(cursor.fetchall())


def connect_signals() -> None:
    """Bump the right revision after any save or delete of a catalog or rules row."""
    from catalog.kinds import KINDS
    from configurator.models import RuleProfile, RuleSetVersion, Scenario

    watched = {
        CATALOG: tuple(kind.model for kind in KINDS),  # every kind of part, and nothing else
        RULES: (RuleProfile, RuleSetVersion, Scenario),
    }
    for name, models in watched.items():

        def bump(sender, name=name, **kwargs) -> None:
            revision_bump(name)

        for model in models:
            uid = f"revision-{name}-{model._meta.label_lower}"
            post_save.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}-save")
            post_delete.connect(bump, sender=model, weak=False, dispatch_uid=f"{uid}-delete")
            # A relation between rows (a platform's GPUs, a recipe's) is a write of the row.
            for field in model._meta.many_to_many:
                m2m_changed.connect(
                    bump,
                    sender=field.remote_field.through,
                    weak=False,
                    dispatch_uid=f"{uid}-{field.name}",
                )
