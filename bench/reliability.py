"""Load, faults, bad input and backup/restore under gunicorn on PostgreSQL, on loopback only.

    .venv/bin/python -m bench.reliability [--only load,faults,fuzz,backup,import]

Serves the app with the committed `gunicorn.conf.py` and production settings (DEBUG off, a
random SECRET_KEY; requests carry `X-Forwarded-Proto: https` as the TLS proxy would) on
127.0.0.1:8008 against `RELIABILITY_DATABASE_URL` (default the cfg_i8 database), and prints
the tables of docs/reliability.md. Every run is bounded: each load run lasts `LOAD_SECONDS`,
each fault run `FAULT_SECONDS`, the fuzz run `FUZZ_EXAMPLES` requests per operation.
Nothing leaves the machine.
"""

import argparse
import contextlib
import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from bench.proxy import BreakableProxy

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
HOST, PORT = "127.0.0.1", 8008
PROXY_PORT = 8108  # the fault runs reach PostgreSQL through a proxy they can break
DATABASE_URL = os.environ.get(
    "RELIABILITY_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cfg_i8"
)
LOAD_SECONDS = 5
FAULT_SECONDS = 12
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", 300))
CONCURRENCIES = (16, 64)
STATEMENT_TIMEOUT_MS = 3000  # shorter than production's 10 s, to keep the hung run short

EVALUATE = {
    "build": {
        "cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "a800-80g-sxm", "gpu_count": 8,
        "gpus_per_socket": [4, 4], "memory_gb": 1024, "memory_ecc": True, "psu_watts": 6000,
        "nvlink": True, "numa_binding": True,
    },
    "workload": {"model_params_b": 34, "mode": "train", "batch_size": 64},
}  # fmt: skip
RECOMMEND = {"workload": {"model_params_b": 70, "mode": "train", "batch_size": 64}}
KNOWN_GOOD = {
    "/api/v1/evaluate": EVALUATE,
    "/api/v1/recommend": RECOMMEND,
    "/api/v1/sizing": {"workload": {"model_params_b": 7, "mode": "infer", "gpu": "l20"}},
}
ENDPOINTS = {
    "liveness `GET /healthz`": ("GET", "/healthz", None),
    "`POST /api/v1/evaluate`": ("POST", "/api/v1/evaluate", EVALUATE),
    "`POST /api/v1/recommend`": ("POST", "/api/v1/recommend", RECOMMEND),
    "`GET /api/v1/catalog`": ("GET", "/api/v1/catalog", None),
}


# -- the server -------------------------------------------------------------------------------


def production_env(database_url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "configurator.settings.base",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": database_url,
        "GUNICORN_BIND": f"{HOST}:{PORT}",
        "GUNICORN_ACCESS_LOG": "",
        "GUNICORN_LOG_LEVEL": "warning",
        **extra,
    }


def psql(sql: str, database: str = "postgres") -> str:
    url = urlparse(DATABASE_URL)
    command = ["psql", "-h", url.hostname, "-p", str(url.port or 5432), "-U", url.username,
               "-d", database, "-tAc", sql]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


def database_name() -> str:
    return urlparse(DATABASE_URL).path.lstrip("/")


def prepare_database() -> None:
    name = database_name()
    if not psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        psql(f'CREATE DATABASE "{name}"')
    for command in (["migrate", "--no-input"], ["collectstatic", "--no-input"]):
        subprocess.run([PY, "manage.py", *command, "-v", "0"], cwd=ROOT,
                       env=production_env(DATABASE_URL), check=True)  # fmt: skip


@contextlib.contextmanager
def gunicorn(database_url: str, **extra: str):
    command = [str(ROOT / ".venv/bin/gunicorn"), "-c", "gunicorn.conf.py", "configurator.wsgi"]
    process = subprocess.Popen(command, cwd=ROOT, env=production_env(database_url, **extra))
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if request("GET", "/healthz")[0] == 200:
                    break
            time.sleep(0.3)
        else:
            raise RuntimeError("gunicorn did not start")
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=40)


def worker_pids(master: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True,
                         text=True).stdout  # fmt: skip
    return [int(pid) for pid in out.split()]


# -- the client -------------------------------------------------------------------------------

HEADERS = {"X-Forwarded-Proto": "https", "Content-Type": "application/json"}


def request(method: str, path: str, body=None, *, connection=None, timeout: float = 60):
    """Send one request; return (status, body bytes, seconds)."""
    own = connection is None
    connection = connection or http.client.HTTPConnection(HOST, PORT, timeout=timeout)
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body))
    start = time.perf_counter()
    try:
        connection.request(method, path, body=data, headers=HEADERS)
        response = connection.getresponse()
        content = response.read()
        return response.status, content, time.perf_counter() - start
    finally:
        if own:
            connection.close()


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    slowest_error_s: float = 0.0
    slowest_s: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, outcome: str, seconds: float) -> None:
        with self.lock:
            self.statuses[outcome] = self.statuses.get(outcome, 0) + 1
            self.slowest_s = max(self.slowest_s, seconds)
            if outcome == "200":
                self.latencies.append(seconds)
            else:
                self.slowest_error_s = max(self.slowest_error_s, seconds)

    @property
    def ok(self) -> int:
        return self.statuses.get("200", 0)

    @property
    def errors(self) -> int:
        return sum(count for outcome, count in self.statuses.items() if outcome != "200")

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load(method: str, path: str, body, *, concurrency: int, seconds: float,
         during=None) -> Tally:  # fmt: skip
    """Keep `concurrency` keep-alive clients busy for `seconds`; `during(t0)` runs beside."""
    tally = Tally()
    deadline = time.monotonic() + seconds

    def client() -> None:
        connection = http.client.HTTPConnection(HOST, PORT, timeout=40)
        while time.monotonic() < deadline:
            start = time.perf_counter()
            try:
                status, _, spent = request(method, path, body, connection=connection)
                tally.add(str(status), spent)
            except (OSError, http.client.HTTPException) as error:
                tally.add(type(error).__name__, time.perf_counter() - start)
                connection.close()
                connection = http.client.HTTPConnection(HOST, PORT, timeout=40)
        connection.close()

    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    if during:
        during()
    for thread in threads:
        thread.join()
    return tally


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def run_load() -> None:
    print("\n## Load\n")
    print("| endpoint | clients | req/s | p50 | p99 | errors | req/s ÷ liveness |")
    print("|---|---|---|---|---|---|---|")
    with gunicorn(DATABASE_URL):
        for concurrency in CONCURRENCIES:
            baseline = None
            for label, (method, path, body) in ENDPOINTS.items():
                request(method, path, body)  # warm the snapshots
                tally = load(method, path, body, concurrency=concurrency, seconds=LOAD_SECONDS)
                rate = tally.ok / LOAD_SECONDS
                baseline = baseline or rate
                print(f"| {label} | {concurrency} | {rate:.0f} | {ms(tally.percentile(0.5))} | "
                      f"{ms(tally.percentile(0.99))} | {tally.errors} | "
                      f"{rate / baseline:.2f}× |")  # fmt: skip


def worker_rss_mb(master: int) -> float:
    total = 0
    for pid in worker_pids(master):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def run_attacks() -> None:
    print("\n## The issue's attacks, replayed\n")
    compact = {"separators": (",", ":")}
    bom = [1] * 1_200_000
    amplification = json.dumps({**EVALUATE, "build": {**EVALUATE["build"], "bom": bom}}, **compact)
    many = {f"k{i}": 1 for i in range(150_000)}
    unknown_keys = json.dumps(
        {"workload": {"model_params_b": 7, "mode": "infer", **many}}, **compact
    )
    print("| attack | body | answers | largest answer | slowest | worker memory before → after |")
    print("|---|---|---|---|---|---|")
    with gunicorn(DATABASE_URL) as server:
        for label, path, body in (
            ("`bom: [1, 1, …]` × 1.2 M to evaluate, 4 at once, 25 times", "/api/v1/evaluate",
             amplification),
            ("150,000 unknown keys to sizing, 4 at once, 25 times", "/api/v1/sizing",
             unknown_keys),
        ):  # fmt: skip
            load(
                "POST", "/api/v1/evaluate", EVALUATE, concurrency=8, seconds=2
            )  # warm every worker
            before = worker_rss_mb(server.pid)
            results: list[tuple[object, int, float]] = []

            def attack(body=body, path=path, results=results) -> None:
                for _ in range(25):
                    start = time.perf_counter()
                    try:
                        status, content, spent = request("POST", path, body.encode())
                        results.append((status, len(content), spent))
                    except OSError as error:  # answered before the body was all sent
                        results.append((type(error).__name__, 0, time.perf_counter() - start))

            threads = [threading.Thread(target=attack) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            counted: dict[str, int] = {}
            for status, _, _ in results:
                counted[str(status)] = counted.get(str(status), 0) + 1
            answers = ", ".join(f"{n} × {status}" for status, n in sorted(counted.items()))
            print(f"| {label} | {len(body) / 1e6:.1f} MB | {answers} | "
                  f"{max(size for _, size, _ in results)} B | "
                  f"{ms(max(spent for _, _, spent in results))} | "
                  f"{before:.0f} → {worker_rss_mb(server.pid):.0f} MB |")  # fmt: skip
        print()
        print(sign_in_attempts(50))


def sign_in_attempts(count: int) -> str:
    """Try `count` wrong passwords for one account at the admin login, as a browser would."""
    outcomes: dict[int, int] = {}
    origin = f"https://{HOST}:{PORT}"
    for _ in range(count):
        connection = http.client.HTTPConnection(HOST, PORT, timeout=30)
        connection.request("GET", "/admin/login/", headers=HEADERS)
        response = connection.getresponse()
        page = response.read().decode()
        cookie = response.getheader("Set-Cookie", "").split(";")[0]
        token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
        form = f"csrfmiddlewaretoken={token}&username=architect&password=guess&next=/admin/"
        headers = {"X-Forwarded-Proto": "https", "Cookie": cookie, "Referer": origin + "/",
                   "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip
        connection.request("POST", "/admin/login/", body=form, headers=headers)
        status = connection.getresponse().status
        outcomes[status] = outcomes.get(status, 0) + 1
        connection.close()
    psql("DELETE FROM axes_accessattempt WHERE username = 'architect'", database_name())
    summary = ", ".join(f"{n} × {status}" for status, n in sorted(outcomes.items()))
    return f"{count} wrong passwords for `architect` at `/admin/login/`: {summary}."


# -- faults -----------------------------------------------------------------------------------


def outcome_summary(tally: Tally) -> str:
    parts = [f"{count} × {outcome}" for outcome, count in sorted(tally.statuses.items())]
    return ", ".join(parts)


def run_faults() -> None:
    print("\n## Faults\n")
    print(f"Each run: 16 clients on `POST /api/v1/evaluate` for {FAULT_SECONDS} s; the fault "
          "starts at 3 s and, where it ends, ends at 8 s.\n")  # fmt: skip
    print("| fault | what clients saw | slowest error | slowest answer | after the fault |")
    print("|---|---|---|---|---|")
    url = urlparse(DATABASE_URL)
    proxy = BreakableProxy(url.hostname, url.port or 5432, host=HOST, port=PROXY_PORT)
    proxied = DATABASE_URL.replace(f"{url.hostname}:{url.port or 5432}", f"{HOST}:{PROXY_PORT}")
    method, path, body = ENDPOINTS["`POST /api/v1/evaluate`"]
    extra = {"DB_STATEMENT_TIMEOUT_MS": str(STATEMENT_TIMEOUT_MS), "DB_CONNECT_TIMEOUT": "3"}

    def fault_run(label: str, start, stop=None) -> None:
        def during() -> None:
            time.sleep(3)
            start()
            if stop:
                time.sleep(5)
                stop()

        tally = load(method, path, body, concurrency=16, seconds=FAULT_SECONDS, during=during)
        time.sleep(1)
        after = request(method, path, body)[0]
        print(f"| {label} | {outcome_summary(tally)} | {ms(tally.slowest_error_s)} | "
              f"{ms(tally.slowest_s)} | {after} |")  # fmt: skip

    with gunicorn(proxied, **extra) as server:
        fault_run("a worker killed (SIGKILL)",
                  lambda: os.kill(worker_pids(server.pid)[0], signal.SIGKILL))  # fmt: skip
        fault_run(
            "connections terminated (`pg_terminate_backend`)",
            lambda: psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                         f"WHERE datname = '{database_name()}' AND pid <> pg_backend_pid()"),
        )  # fmt: skip
        fault_run("database closed (refuses connections) for 5 s",
                  lambda: proxy.set("closed"), lambda: proxy.set("pass"))  # fmt: skip
        locker: dict[str, subprocess.Popen] = {}

        def lock() -> None:
            url_ = urlparse(DATABASE_URL)
            locker["p"] = subprocess.Popen(
                ["psql", "-h", url_.hostname, "-p", str(url_.port or 5432), "-U", url_.username,
                 "-d", database_name(), "-c",
                 "BEGIN; LOCK TABLE configurator_revision IN ACCESS EXCLUSIVE MODE; "
                 "SELECT pg_sleep(5); COMMIT;"],
                stdout=subprocess.DEVNULL,
            )  # fmt: skip

        fault_run(f"database hung (a lock held 5 s; statement timeout {STATEMENT_TIMEOUT_MS} ms)",
                  lock, lambda: locker["p"].wait())  # fmt: skip
        fault_run("network to the database hung for 5 s (proxy stops forwarding)",
                  lambda: proxy.set("hang"), lambda: proxy.set("pass"))  # fmt: skip


# -- bad input --------------------------------------------------------------------------------


def run_fuzz() -> None:
    """Hypothesis: bodies from the OpenAPI schemas, valid and broken, at the live server."""
    from hypothesis import strategies as st

    print("\n## Bad input\n")
    with gunicorn(DATABASE_URL):
        spec = json.loads(request("GET", "/api/v1/openapi.json")[1])
        catalog = json.loads(request("GET", "/api/v1/catalog")[1])
        slugs = sorted(item["slug"] for items in catalog.values() for item in items)
        schemas = spec["components"]["schemas"]
        operations = [
            (path, method.upper(), op)
            for path, item in spec["paths"].items()
            for method, op in item.items()
            if method in ("post", "patch") and "requestBody" in op
        ]

        def resolve(schema: dict) -> dict:
            while "$ref" in schema:
                schema = schemas[schema["$ref"].rsplit("/", 1)[1]]
            return schema

        junk = st.one_of(
            st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
            st.text(max_size=20), st.lists(st.integers(), max_size=5),
        )  # fmt: skip

        def from_schema(schema: dict, depth: int = 0):
            schema = resolve(schema)
            if "anyOf" in schema:
                return st.one_of([from_schema(s, depth) for s in schema["anyOf"]])
            if "enum" in schema:
                return st.sampled_from(schema["enum"])
            kind = schema.get("type")
            if kind == "object" and "properties" in schema and depth < 4:
                required = set(schema.get("required", []))
                fields = {
                    name: from_schema(sub, depth + 1) for name, sub in schema["properties"].items()
                }
                return st.fixed_dictionaries(
                    {k: v for k, v in fields.items() if k in required},
                    optional={k: v for k, v in fields.items() if k not in required},
                )
            if kind == "object":
                return st.dictionaries(st.text(max_size=10), junk, max_size=5)
            if kind == "array":
                return st.lists(from_schema(schema.get("items", {}), depth + 1), max_size=6)
            low = schema.get("minimum", schema.get("exclusiveMinimum"))
            high = schema.get("maximum", schema.get("exclusiveMaximum"))
            if kind == "integer":
                return st.integers(low if low is not None else -(10**6), high or 10**9)
            if kind == "number":
                return st.floats(low, high, allow_nan=False, allow_infinity=False,
                                 exclude_min="exclusiveMinimum" in schema,
                                 exclude_max="exclusiveMaximum" in schema)  # fmt: skip
            if kind == "string":  # a catalog slug half the time, so that some builds are valid
                text = st.text(max_size=schema.get("maxLength", 50))
                return st.one_of(st.sampled_from(slugs), text)
            if kind == "boolean":
                return st.booleans()
            return junk

        def broken(valid):
            """Mutate a valid document: drop, retype or add a key somewhere, or send junk."""
            return st.one_of(
                junk,
                valid.flatmap(lambda doc: st.sampled_from(sorted(doc) or ["x"]).map(
                    lambda key: {k: v for k, v in doc.items() if k != key})),
                st.tuples(valid, junk).map(lambda pair: {**pair[0], "unexpected": pair[1]}),
                st.tuples(valid, junk).map(
                    lambda pair: {k: pair[1] for k in pair[0]} if pair[0] else pair[1]),
            )  # fmt: skip

        print("| operation | requests | 2xx | 4xx | 5xx | not JSON | largest answer |")
        print("|---|---|---|---|---|---|---|")
        totals = {"requests": 0, "5xx": 0, "not JSON": 0}
        for path, method, op in operations:
            body_schema = op["requestBody"]["content"]["application/json"]["schema"]
            generated = from_schema(body_schema)
            documents = [generated, broken(generated)]
            if path in KNOWN_GOOD:  # a real request, and that request broken one way or another
                documents += [st.just(KNOWN_GOOD[path]), broken(st.just(KNOWN_GOOD[path]))]
            seen = {"requests": 0, "2xx": 0, "4xx": 0, "5xx": 0, "not JSON": 0, "largest": 0}
            fuzz_operation(method, path, st.one_of(documents), seen)
            for key in totals:
                totals[key] += seen.get(key, 0)
            print(f"| `{method} {path}` | {seen['requests']} | {seen['2xx']} | {seen['4xx']} | "
                  f"{seen['5xx']} | {seen['not JSON']} | {seen['largest']:,} B |")  # fmt: skip
        print(f"\nIn all: {totals['requests']} requests, {totals['5xx']} answers 5xx, "
              f"{totals['not JSON']} not JSON.")  # fmt: skip


def fuzz_operation(method: str, path: str, documents, seen: dict[str, int]) -> None:
    """Send FUZZ_EXAMPLES documents to one operation, counting the answers in `seen`."""
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(documents)
    def probe(document) -> None:
        status, content, _ = request(method, path, document)
        seen["requests"] += 1
        seen[f"{status // 100}xx"] = seen.get(f"{status // 100}xx", 0) + 1
        seen["largest"] = max(seen["largest"], len(content))
        try:
            answer = json.loads(content)
        except ValueError:
            seen["not JSON"] += 1
        else:
            if os.environ.get("FUZZ_DEBUG") and isinstance(answer, dict):
                print(sorted(answer.get("errors", {}))[:3], file=sys.stderr)

    probe()


# -- backup and restore -----------------------------------------------------------------------

COMPARED = (
    "catalog_cpu", "catalog_gpu", "catalog_memorymodule", "catalog_psu", "catalog_nic",
    "catalog_platform", "catalog_platform_gpus", "configurator_ruleprofile",
    "configurator_rulesetversion", "configurator_scenario", "configurator_scenario_gpus",
    "auth_user", "auth_group",
)  # fmt: skip


def fingerprint(database: str) -> dict[str, str]:
    return {
        table: psql(f"SELECT count(*) || ' ' || md5(coalesce(string_agg(t::text, '|' ORDER BY "
                    f"t::text), '')) FROM {table} t", database)
        for table in COMPARED
    }  # fmt: skip


def run_backup() -> None:
    print("\n## Backup and restore\n")
    url = urlparse(DATABASE_URL)
    target = f"{database_name()}_restore"
    dump = Path("/tmp") / f"{database_name()}.dump"
    connect = ["-h", url.hostname, "-p", str(url.port or 5432), "-U", url.username]
    start = time.perf_counter()
    subprocess.run(["pg_dump", *connect, "-Fc", "-f", str(dump), database_name()], check=True)
    dumped = time.perf_counter() - start
    psql(f'DROP DATABASE IF EXISTS "{target}"')
    psql(f'CREATE DATABASE "{target}"')
    start = time.perf_counter()
    subprocess.run(["pg_restore", *connect, "--no-owner", "-d", target, str(dump)], check=True)
    restored = time.perf_counter() - start
    restored_url = DATABASE_URL.rsplit("/", 1)[0] + f"/{target}"
    check = subprocess.run([PY, "manage.py", "migrate", "--check"], cwd=ROOT,
                           env=production_env(restored_url), capture_output=True)  # fmt: skip
    before, after = fingerprint(database_name()), fingerprint(target)
    migrations = "complete" if check.returncode == 0 else "INCOMPLETE"
    same = [table for table in COMPARED if before[table] == after[table]]
    print(f"pg_dump {dump.stat().st_size:,} B in {dumped:.1f} s; pg_restore into a fresh "
          f"database in {restored:.1f} s; {len(same)} of {len(COMPARED)} tables identical "
          f"(row count and checksum of every row); migrations of the restored database: "
          f"{migrations} (`migrate --check`).\n")  # fmt: skip
    print("| table | rows | identical |")
    print("|---|---|---|")
    for table in COMPARED:
        print(f"| `{table}` | {before[table].split()[0]} | {before[table] == after[table]} |")
    psql(f'DROP DATABASE "{target}"')
    dump.unlink()


# -- a long catalog sheet ---------------------------------------------------------------------


def run_import(rows: int = 5000) -> None:
    """Import a `rows`-row GPU sheet through the background job, as db_worker runs it."""
    print("\n## A long catalog sheet\n")
    script = f"""
import time, django
django.setup()
from django.test import override_settings
from catalog.imports import import_job_run
from catalog.models import Gpu, ImportJob
from catalog.kinds import RESOURCE_OF
# The seed catalog's first GPU as its own export writes it, {rows} times under new slugs: the
# sheet has every column the import asks for, whatever the GPU model holds.
sheet = RESOURCE_OF[Gpu]().export(queryset=Gpu.objects.order_by("pk")[:1])
template = dict(zip(sheet.headers, sheet[0]))
sheet.wipe()
sheet.headers = list(template)
for i in range({rows}):
    sheet.append([{{**template, "id": "", "slug": f"bulk-{{i}}", "name": f"Bulk GPU {{i}}",
                   "monthly_price": 1000 + i, "offered": 0}}[h] for h in sheet.headers])
job = ImportJob.objects.create(model="catalog.gpu", file_name="bulk.csv", file_format="csv",
                               data=sheet.export("csv").encode(), rows_total={rows})
start = time.perf_counter()
# The task as a worker runs it, in this process (the immediate backend gives it its context).
immediate = {{"default": {{"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}}}
with override_settings(TASKS=immediate):
    import_job_run.enqueue(job.pk)
spent = time.perf_counter() - start
job.refresh_from_db()
status = job.status
print(f"{{status}} {{spent:.1f}} {{job.totals}} {{len(job.data)}}")
Gpu.objects.filter(slug__startswith="bulk-").delete()
job.delete()
"""
    result = subprocess.run([PY, "-c", script], cwd=ROOT, env=production_env(DATABASE_URL),
                            capture_output=True, text=True, check=True)  # fmt: skip
    status, spent, *rest = result.stdout.split()
    size = rest[-1]
    print(f"{rows:,} GPU rows ({int(size):,} B CSV): {status} in {float(spent):.0f} s "
          f"({float(spent) / rows * 1000:.1f} ms a row: every row checked, then all written in "
          f"one transaction).")  # fmt: skip


PARTS = {"attacks": run_attacks, "load": run_load, "faults": run_faults, "fuzz": run_fuzz,
         "backup": run_backup, "import": run_import}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(PARTS), help="comma-separated parts")
    chosen = parser.parse_args().only.split(",")
    with socket.socket() as probe:
        if probe.connect_ex((HOST, PORT)) == 0:
            sys.exit(f"{HOST}:{PORT} is in use")
    prepare_database()
    print(
        f"Machine: {os.cpu_count()} cores; {time.strftime('%Y-%m-%d')}; "
        f"database {database_name()} (PostgreSQL {psql('SHOW server_version')})."
    )
    for name in chosen:
        PARTS[name]()


if __name__ == "__main__":
    main()
