"""Timing helpers: best-of-N medians, and a throwaway database for the Django benchmarks."""

import os
import statistics
import tempfile
import time
from collections.abc import Callable

# Wall-clock time by default; `BENCH_CLOCK=cpu` measures the benchmark process's CPU time
# instead, which a machine shared with other work disturbs far less (docs/benchmarks.md).
CLOCK = time.process_time if os.environ.get("BENCH_CLOCK") == "cpu" else time.perf_counter


def per_call_seconds(fn: Callable[[], object], *, calls: int, rounds: int = 7) -> float:
    """Return the median over rounds of the mean time of one call."""
    fn()  # warm caches and lazy imports
    samples = []
    for _ in range(rounds):
        start = CLOCK()
        for _ in range(calls):
            fn()
        samples.append((CLOCK() - start) / calls)
    return statistics.median(samples)


def django_setup() -> None:
    """Configure Django on a fresh SQLite file and migrate it (the seed catalog comes with it)."""
    path = os.path.join(tempfile.mkdtemp(prefix="bench-"), "bench.sqlite3")
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "configurator.settings.base")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("DEBUG", "1")  # as the figures in docs/benchmarks.md were measured
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:,.0f} µs"
