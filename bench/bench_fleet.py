"""`audit_fleet` end to end on generated fleet sheets: wall time, its split, peak memory.

Targets (issue: fleet audit): 100,000 rows in ≤ 10 s on the 2-core machine; 1,000,000 rows
with peak RSS ≤ 1 GB. Each size runs `manage.py audit_fleet FILE --json --timings` as its own
process (the real command, Django start-up included), writing the JSON to a file. The
baseline measured in the same run is `manage.py check` (Django start-up and nothing else).
`python -m bench.bench_fleet [ROWS ...]`.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from bench import fleet_sheet

SIZES = (100_000, 1_000_000)


def _run(args: list[str], stdout) -> tuple[float, float, str]:
    """Run a manage.py command; return wall seconds, peak RSS in MB, and its stderr."""
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    env = {**os.environ, "DEBUG": os.environ.get("DEBUG", "1")}  # as harness.django_setup
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    wall = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if peak <= before:
        peak = before  # a child's peak is only visible when it is the largest so far
    return wall, peak / 1024, done.stderr


def run(sizes=SIZES) -> None:
    folder = tempfile.mkdtemp(prefix="bench-fleet-")
    baseline, _, _ = _run(["check"], subprocess.DEVNULL)
    print(f"baseline `manage.py check`: {baseline:.2f} s")
    print("| rows | wall | ÷ baseline | reading | evaluating | writing | peak RSS |")
    print("|---|---|---|---|---|---|---|")
    for rows in sizes:
        sheet = os.path.join(folder, f"fleet-{rows}.csv")
        fleet_sheet.write(rows, sheet)
        with open(os.path.join(folder, f"out-{rows}.json"), "w") as out:
            wall, peak, err = _run(["audit_fleet", sheet, "--json", "--timings"], out)
        split = json.loads(err.strip().splitlines()[-1])
        inside = split["total"]
        shares = [
            f"{split[k]:.2f} s ({split[k] / inside:.0%})"
            for k in ("reading", "evaluating", "writing")
        ]
        print(
            f"| {rows:,} | {wall:.2f} s | {wall / baseline:.1f}× | {' | '.join(shares)} "
            f"| {peak:,.0f} MB |"
        )


if __name__ == "__main__":
    run(tuple(int(arg) for arg in sys.argv[1:]) or SIZES)
