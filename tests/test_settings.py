"""Production settings come from the environment and pass Django's deployment checks."""

import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "configurator.settings.base",
    "DEBUG": "0",
    "SECRET_KEY": "x" * 64 + "production-like-secret-for-the-check-only",
    "ALLOWED_HOSTS": "configurator.example.com",
    "DATABASE_URL": "sqlite:////tmp/deploy-check.sqlite3",
    "TRUSTED_PROXY_COUNT": "1",  # behind the README's TLS proxy
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_variables():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_warns_when_no_proxy_is_trusted():
    result = run_manage("check", "--deploy", env={**PRODUCTION, "TRUSTED_PROXY_COUNT": "0"})
    output = result.stdout + result.stderr
    assert "configurator.W001" in output and "TRUSTED_PROXY_COUNT is 0" in output
    assert "identified 1 issue" in output, "nothing else to warn about"


# Plain HTTP to gunicorn, as a load balancer's probe asks it.
PLAIN_HTTP_GETS = """
from django.test import Client
client = Client(HTTP_HOST="configurator.example.com")
print([client.get(path).status_code for path in ("/healthz", "/readyz", "/")])
"""


def test_the_probes_answer_over_plain_http_while_pages_redirect_to_https():
    (ssl_redirect,) = settings_in(PRODUCTION, "SECURE_SSL_REDIRECT")
    result = run_manage("shell", "--no-imports", "-c", PLAIN_HTTP_GETS, env=PRODUCTION)
    assert ssl_redirect == "True"
    assert result.stdout.strip().splitlines()[-1] == "[200, 200, 301]", result.stderr


def test_a_trusted_proxy_that_is_not_an_address_refuses_to_start():
    result = run_manage("check", env={**PRODUCTION, "TRUSTED_PROXY_ADDRESSES": "proxy.local"})
    assert result.returncode != 0
    assert "'proxy.local' is not an address or network" in result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {**PRODUCTION, "SECRET_KEY": ""}
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def settings_in(env: dict[str, str], *names: str) -> list[str]:
    code = "from django.conf import settings; " + "; ".join(
        f"print(repr(settings.{name}))" for name in names
    )
    result = run_manage("shell", "--no-imports", "-c", code, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.split("\n")[: len(names)]


def test_debug_is_off_unless_set():
    env = {key: value for key, value in PRODUCTION.items() if key != "DEBUG"}
    clean = {key: value for key, value in os.environ.items() if key != "DEBUG"}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c",
         "from django.conf import settings; print(settings.DEBUG)"],
        cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.stdout.strip() == "False", result.stderr


def test_without_debug_and_secret_key_the_app_refuses_to_start():
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT, env={**clean, "DJANGO_SETTINGS_MODULE": "configurator.settings.base"},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_every_cookie_is_secure_and_same_site_in_production():
    values = settings_in(
        PRODUCTION,
        "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "LANGUAGE_COOKIE_SECURE",
        "SESSION_COOKIE_SAMESITE", "CSRF_COOKIE_SAMESITE", "LANGUAGE_COOKIE_SAMESITE",
    )  # fmt: skip
    assert values == ["True", "True", "True", "'Lax'", "'Lax'", "'Lax'"]


def test_postgresql_gets_connect_and_statement_timeouts():
    env = {**PRODUCTION, "DATABASE_URL": "postgres://u@127.0.0.1:5432/x",
           "DB_CONNECT_TIMEOUT": "3", "DB_STATEMENT_TIMEOUT_MS": "4000"}  # fmt: skip
    (options,) = settings_in(env, "DATABASES['default']['OPTIONS']")
    assert "'connect_timeout': 3" in options
    assert "statement_timeout=4000" in options
    assert "'tcp_user_timeout': 4000" in options


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def test_a_cache_url_that_is_not_redis_refuses_to_start():
    result = run_manage("check", env={**PRODUCTION, "CACHE_URL": "memcached://127.0.0.1"})
    assert result.returncode != 0
    assert "CACHE_URL='memcached://127.0.0.1' is not a redis://" in result.stderr


# Two worker processes count one client's POSTs: 3 each against a limit of 5.
THROTTLED_POSTS = """
from django.test import RequestFactory
from django.http import HttpResponse
from configurator.throttle import throttle
view = throttle("{scope}", limit=5, period=3600)(lambda request: HttpResponse("ok"))
print([view(RequestFactory().post("/")).status_code for _ in range(3)])
"""


@pytest.mark.skipif(not redis_answers(), reason="no Redis on 127.0.0.1:6379 (CI has one)")
def test_with_a_shared_cache_every_worker_counts_the_same_client():
    env = {**PRODUCTION, "CACHE_URL": "redis://127.0.0.1:6379/0"}
    (backend,) = settings_in(env, "CACHES['default']['BACKEND']")
    assert backend == "'django.core.cache.backends.redis.RedisCache'"
    code = THROTTLED_POSTS.format(scope=f"test-{uuid.uuid4().hex}")
    first = run_manage("shell", "--no-imports", "-c", code, env=env)
    second = run_manage("shell", "--no-imports", "-c", code, env=env)
    assert first.stdout.strip() == "[200, 200, 200]", first.stderr
    assert second.stdout.strip() == "[200, 200, 429]", second.stderr


def test_the_time_zone_is_shanghai_unless_set():
    clean = {**PRODUCTION, "TIME_ZONE": ""}
    assert settings_in(clean, "TIME_ZONE") == ["'Asia/Shanghai'"]
    assert settings_in({**PRODUCTION, "TIME_ZONE": "Europe/Berlin"}, "TIME_ZONE") == [
        "'Europe/Berlin'"
    ]


def test_a_time_zone_that_is_none_is_refused_by_name():
    result = run_manage("check", env={**PRODUCTION, "TIME_ZONE": "Mars/Olympus"})
    assert result.returncode != 0
    assert "TIME_ZONE='Mars/Olympus' is not a time zone" in result.stderr
