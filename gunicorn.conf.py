"""gunicorn's configuration for production: `gunicorn -c gunicorn.conf.py configurator.wsgi`.

Every value can be changed through the environment gunicorn reads itself
(`GUNICORN_CMD_ARGS="--workers 8"`) or the variables below.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Sync workers: the API is CPU-bound and answers in milliseconds; two per core plus one.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
# A worker silent for this long is killed and replaced; the database gives up well before
# (DB_CONNECT_TIMEOUT 5 s, DB_STATEMENT_TIMEOUT_MS 10 s), so only a hung network reaches it.
timeout = 30
graceful_timeout = 30
keepalive = 5
# Recycle each worker after about 2,000 requests, staggered so they never restart at once:
# whatever a worker's memory grew by is given back. The app is loaded once in the master, so
# a new worker is a fork, ready in milliseconds, not a fresh Django start.
max_requests = 2000
max_requests_jitter = 200
preload_app = True
# Request line and headers stay at gunicorn's bounds; bodies are bounded by the app (413).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None  # empty: no access log
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
