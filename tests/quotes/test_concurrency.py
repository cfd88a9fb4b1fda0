"""Numbers and transitions stay right when requests run at the same time (PostgreSQL only)."""

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections

from configurator.quotes import services
from configurator.quotes.models import Quote, Status

pytestmark = [
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite serialises every write, so it cannot show a race; "
        "run with DATABASE_URL=postgres://… (.ci/run does)",
    ),
]


def race(jobs: list[Callable[[], object]]) -> list[object]:
    """Run the jobs on threads released together; return each one's result or exception."""
    start = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(index: int, job) -> None:
        try:
            start.wait()
            results[index] = job()
        except Exception as error:  # the test inspects what each thread got
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_quotes_created_at_once_get_distinct_consecutive_numbers(make_quote):
    results = race([make_quote for _ in range(8)])
    assert not [r for r in results if isinstance(r, Exception)], results
    sequences = sorted(Quote.objects.values_list("sequence", flat=True))
    assert sequences == list(range(sequences[0], sequences[0] + 8))
    assert Quote.objects.values("number").distinct().count() == 8


def test_approve_and_return_at_once_one_wins_nothing_half_written(make_quote, presales, architect):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    results = race(
        [
            lambda: services.quote_approve(quote=quote, user=architect),
            lambda: services.quote_return(quote=quote, user=architect, comment="More memory."),
        ]
    )
    refused = [r for r in results if isinstance(r, services.TransitionRefused)]
    won = [r for r in results if isinstance(r, Quote)]
    assert len(won) == 1 and len(refused) == 1
    assert refused[0].status == 409
    quote.refresh_from_db()
    assert quote.status in (Status.APPROVED, Status.RETURNED)
    assert quote.status == won[0].status
    assert list(quote.events.values_list("action", flat=True)) == [
        "create",
        "submit",
        "approve" if quote.status == Status.APPROVED else "return",
    ]
