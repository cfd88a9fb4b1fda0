"""Real `db_worker` processes on the test database, and a way to wait for what they do."""

from __future__ import annotations

import os
import re
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent.parent


def database_url(*, host: str | None = None, port: int | None = None) -> str:
    """Return the URL of the test database, optionally through another host and port."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{host or db['HOST']}:{port or db['PORT']}/{db['NAME']}"


class WorkerProcess:
    """`manage.py db_worker` as production runs it (DEBUG off), with the tests' short waits."""

    def __init__(self, log: Path, *, database: str, **env: str) -> None:
        self.log_path = log
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.jobs.worker_settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": database,
            "DB_CONNECT_TIMEOUT": "1",
            "DB_STATEMENT_TIMEOUT_MS": "2000",
            **env,
        }
        command = [sys.executable, "manage.py", "db_worker", "--no-reload",
                   "--no-startup-delay", "--interval", "0.1"]  # fmt: skip
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT
            )

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: the worker gets no chance to say anything or let go of its task."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.alive:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def outages(self) -> list[float]:
        """Return how long each database outage lasted, as the worker logged it."""
        return [float(s) for s in re.findall(r"answers again after ([\d.]+) s", self.log())]


def wait_until[T](check: Callable[[], T], *, timeout: float, what: str, every: float = 0.05) -> T:
    """Return `check()`'s first true value, asking every `every` s for at most `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s: {what}")


class TableLock:
    """Tables locked from a connection of the test's own, until `release`: a worker waits."""

    def __init__(self, *tables: str, mode: str = "SHARE") -> None:
        db = connection.settings_dict
        self.statement = f"LOCK TABLE {', '.join(tables)} IN {mode} MODE"
        self.connection = psycopg.connect(
            host=db["HOST"], port=db["PORT"], user=db["USER"], password=db["PASSWORD"] or None,
            dbname=db["NAME"],
        )  # fmt: skip

    def take(self, *, wait: bool = True) -> bool:
        """Lock the tables; without `wait`, say False at once when a transaction holds them."""
        try:
            self.connection.execute(self.statement + ("" if wait else " NOWAIT"))
        except psycopg.errors.LockNotAvailable:
            self.connection.rollback()
            return False
        return True

    def release(self) -> None:
        self.connection.rollback()
        self.connection.close()


WAITING_TO_WRITE = (
    "FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' "
    "AND query LIKE %s"
)


def blocked_writing(table: str) -> bool:
    """Say whether a session waits on a lock to write into `table`: a worker mid-transaction."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) {WAITING_TO_WRITE}", [f'INSERT INTO "{table}"%'])
        return cursor.fetchone()[0] > 0


def end_orphaned_writes(table: str) -> None:
    """End the sessions of killed workers that wait to write into `table`.

    PostgreSQL notices that a session's client is gone only when it next answers it; one that
    waits on a lock answers nobody, so it would hold its transaction until the lock goes.
    """
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_terminate_backend(pid) {WAITING_TO_WRITE}",
                       [f'INSERT INTO "{table}"%'])  # fmt: skip
    wait_until(lambda: not blocked_writing(table), timeout=10, what=f"no write waits on {table}")
