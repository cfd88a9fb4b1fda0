# The two commands of the README: `make run` serves the app, `make test` passes the tests.
PY := .venv/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup setup-test migrate lint format bench clean

# Development: debug pages, plain HTTP and the development secret key (production is the default).
run: export DEBUG = 1
run: setup migrate
	$(PY) manage.py runserver $(HOST):$(PORT)

test: setup-test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest

setup:
	bin/setup requirements.txt

setup-test:
	bin/setup requirements.txt requirements-test.txt requirements-test-nodeps.txt

migrate:
	$(PY) manage.py migrate --no-input

lint:
	$(PY) -m ruff check --fix .

format:
	$(PY) -m ruff format .

bench: setup-test
	$(PY) -m bench

clean:
	rm -rf .venv db.sqlite3 staticfiles .pytest_cache .ruff_cache
