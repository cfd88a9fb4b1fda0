"""Production settings come from the environment and pass Django's deployment checks."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "configurator.settings.base",
    "DEBUG": "0",
    "SECRET_KEY": "x" * 64 + "production-like-secret-for-the-check-only",
    "ALLOWED_HOSTS": "configurator.example.com",
    "DATABASE_URL": "sqlite:////tmp/deploy-check.sqlite3",
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


def test_production_refuses_to_start_without_a_secret_key():
    env = {**PRODUCTION, "SECRET_KEY": ""}
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
