"""Hostile sheets and bodies: what each costs the process that reads it (docs/reliability.md).

    .venv/bin/python -m bench.hostile_sheets [--only sheets,bodies] [--timeout 60]

Each sheet runs through each reader in a fresh subprocess, twice: once timed (wall seconds and
the growth of `ru_maxrss`), once under tracemalloc (the peak of Python's allocations). A case
still running after `--timeout` seconds is stopped and reported with what it had used by then.
The sheets are the builders of `tests/fleet/sheets.py`.

The body case serves the app with gunicorn (the committed `gunicorn.conf.py`, one sync
worker, `DEBUG=1` so that no database or collected static files are needed) on
127.0.0.1:8102 with a temporary directory of its own, sends a 300 MB multipart POST with a
self-made CSRF cookie (and the same-origin Referer any client can send), and reports the
answer, its time, the most the temporary directory held while the request ran, and how much
the worker's peak memory grew.
"""

import argparse
import contextlib
import gc
import io
import json
import os
import resource
import secrets
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
HOST, PORT = "127.0.0.1", 8102
BODY_MB = 300


def _sheets() -> dict:
    from tests.fleet import sheets

    nodes = [(f"node-{n:05d}", *sheets.GOOD[1:]) for n in range(20_000)]
    return {
        "100 MB of shared strings": sheets.shared_strings_bomb,
        "entity expansion": sheets.entity_bomb,
        "one cell at XFD1048576": sheets.extent_bomb,
        "20,000 nodes (legitimate)": lambda: sheets.excel_xlsx_bytes(nodes),
    }


def _read_fleet(data: bytes) -> str:
    from configurator.fleet.sheet import open_sheet

    rows = sum(len(chunk) for chunk in open_sheet(io.BytesIO(data)).chunks())
    return f"{rows:,} rows read"


def _read_catalog(data: bytes) -> str:
    from catalog.spreadsheets import SafeXLSX

    return f"{len(SafeXLSX().create_dataset(data)):,} rows read"


READERS = {"fleet sheet reader": _read_fleet, "catalog dataset": _read_catalog}


# -- one case, in a fresh process -------------------------------------------------------------


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(path: str, reader: str, mode: str, timeout: float) -> None:
    """Read one sheet file with one reader; print its figures as one JSON line."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "configurator.settings.test")
    import django

    django.setup()
    data = Path(path).read_bytes()  # built by the parent, so building costs this process nothing
    gc.collect()
    rss_before = _maxrss_mb()
    if mode == "trace":
        tracemalloc.start()
    started = time.perf_counter()

    def report(outcome: str) -> None:
        figures = {
            "outcome": outcome,
            "seconds": time.perf_counter() - started,
            "rss_growth_mb": _maxrss_mb() - rss_before,
            "file_bytes": len(data),
        }
        if mode == "trace":
            figures["traced_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        print(json.dumps(figures), flush=True)
        os._exit(0)

    watchdog = threading.Timer(timeout, report, args=(f"still running after {timeout:.0f} s",))
    watchdog.daemon = True
    watchdog.start()
    try:
        outcome = READERS[reader](data)
    except Exception as error:  # what the reader answers is the figure
        outcome = f"{type(error).__name__}: {' '.join(str(error).split())[:90]}"
    report(outcome)


def run_case(path: Path, reader: str, mode: str, timeout: float) -> dict:
    command = [PY, "-m", "bench.hostile_sheets", "--child", str(path), reader, mode,
               "--timeout", str(timeout)]  # fmt: skip
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                              timeout=timeout + 60)  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"outcome": "killed (no answer)", "seconds": timeout + 60}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"outcome": f"crashed: {done.stderr.strip().splitlines()[-1:]}", "seconds": 0}
    return json.loads(lines[-1])


def run_sheets(timeout: float) -> None:
    print("| sheet (packed size) | reader | outcome | time | ru_maxrss growth | tracemalloc peak |")
    print("|---|---|---|---|---|---|")
    folder = Path(tempfile.mkdtemp(prefix="hostile-sheets-"))
    for number, (sheet, build) in enumerate(_sheets().items()):
        path = folder / f"{number}.xlsx"
        path.write_bytes(build())
        for reader in READERS:
            timed = run_case(path, reader, "time", timeout)
            traced = run_case(path, reader, "trace", timeout)
            size = timed.get("file_bytes", 0) / 1024
            peak = traced.get("traced_peak_mb")
            print(
                f"| {sheet} ({size:,.0f} KB) | {reader} | {timed['outcome']} "
                f"| {timed['seconds']:.2f} s | {timed.get('rss_growth_mb', 0):,.1f} MB "
                f"| {'—' if peak is None else f'{peak:,.1f} MB'} |",
                flush=True,
            )
        path.unlink()
    folder.rmdir()


# -- a 300 MB body with a self-made CSRF cookie -----------------------------------------------


@contextlib.contextmanager
def gunicorn(tmpdir: str):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "configurator.settings.base",
        "DEBUG": "1",
        "TMPDIR": tmpdir,
        "WEB_CONCURRENCY": "1",
        "GUNICORN_BIND": f"{HOST}:{PORT}",
        "GUNICORN_ACCESS_LOG": "",
        "GUNICORN_LOG_LEVEL": "warning",
    }
    command = [str(ROOT / ".venv/bin/gunicorn"), "-c", "gunicorn.conf.py", "configurator.wsgi"]
    process = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection((HOST, PORT), 1) as s:
                s.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
                if b" 200 " in s.recv(100):
                    break
            time.sleep(0.3)
        else:
            raise RuntimeError("gunicorn did not start")
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=40)


def _worker_peak_mb(master: int) -> float:
    pids = subprocess.run(["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True,
                          text=True).stdout.split()  # fmt: skip
    for line in Path(f"/proc/{pids[0]}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _tree_bytes(folder: str) -> int:
    total = 0
    for path in Path(folder).rglob("*"):
        with contextlib.suppress(OSError):
            total += path.stat().st_size
    return total


def post_body(path: str, megabytes: int) -> tuple[str, float, int]:
    """Send a multipart POST of `megabytes` MB; return (status line, seconds, body bytes sent)."""
    boundary = secrets.token_hex(8)
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"sheet\"; "
            f"filename=\"big.csv\"\r\nContent-Type: text/csv\r\n\r\n").encode()  # fmt: skip
    tail = f"\r\n--{boundary}--\r\n".encode()
    block = b"a" * 2**20
    length = len(head) + megabytes * len(block) + len(tail)
    token = secrets.token_hex(16)
    request = (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nX-Forwarded-Proto: https\r\n"
        f"Referer: https://{HOST}/\r\nCookie: csrftoken={token}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
        f"Content-Length: {length}\r\nConnection: close\r\n\r\n"
    ).encode()
    started = time.perf_counter()
    sent = 0
    with socket.create_connection((HOST, PORT), timeout=120) as connection:
        connection.sendall(request)
        try:
            for chunk in (head, *([block] * megabytes), tail):
                if select.select([connection], [], [], 0)[0]:
                    break  # the server answered before reading the body
                connection.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass  # refused and closed: read what it answered
        answer = b""
        with contextlib.suppress(OSError):
            while data := connection.recv(65536):
                answer += data
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "no answer"
    return status, time.perf_counter() - started, sent


def run_bodies() -> None:
    print(f"\n| {BODY_MB} MB POST, self-made CSRF cookie | answer | time | body bytes sent "
          "| most in the temporary directory | worker peak memory growth |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for path in ("/", "/fleet/"):
        with tempfile.TemporaryDirectory(prefix="hostile-body-") as tmpdir:
            with gunicorn(tmpdir) as server:
                before = _worker_peak_mb(server.pid)
                most = [0]
                stop = threading.Event()

                def watch(folder=tmpdir, most=most, stop=stop) -> None:
                    while not stop.is_set():
                        most[0] = max(most[0], _tree_bytes(folder))
                        time.sleep(0.02)

                watcher = threading.Thread(target=watch, daemon=True)
                watcher.start()
                status, seconds, sent = post_body(path, BODY_MB)
                time.sleep(0.5)
                stop.set()
                watcher.join()
                growth = _worker_peak_mb(server.pid) - before
            print(f"| `POST {path}` | {status.removeprefix('HTTP/1.1 ')} | {seconds:.2f} s "
                  f"| {sent / 2**20:,.1f} MB | {most[0] / 2**20:,.1f} MB "
                  f"| {growth:,.1f} MB |", flush=True)  # fmt: skip


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        path, reader, mode = sys.argv[2:5]
        child(path, reader, mode, float(sys.argv[6]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="sheets,bodies")
    parser.add_argument("--timeout", type=float, default=60)
    options = parser.parse_args()
    parts = options.only.split(",")
    if "sheets" in parts:
        run_sheets(options.timeout)
    if "bodies" in parts:
        run_bodies()


if __name__ == "__main__":
    main()
