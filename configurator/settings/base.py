"""Settings for every environment; production differs only through environment variables.

DATABASE_URL   a database URL (postgres://user@host:5432/name); SQLite in the project when unset
SECRET_KEY     required when DEBUG is off
DEBUG          "1"/"true" for local development (`make run` sets it); off when unset
ALLOWED_HOSTS  comma-separated host names; local hosts when unset
CSRF_TRUSTED_ORIGINS  comma-separated origins (https://configurator.example.com) behind a proxy
TIME_ZONE      the site's time zone, an IANA name; Asia/Shanghai when unset
"""

import os
import tempfile
from datetime import timedelta
from ipaddress import ip_network
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from configurator.env import env_bool, env_int, env_list

BASE_DIR = Path(__file__).resolve().parent.parent.parent

# Production by default: a server started without DEBUG=1 runs without debug pages, with
# secure cookies, and refuses to start without a SECRET_KEY.
DEBUG = env_bool("DEBUG", default=False)

# Development only: without DEBUG a real SECRET_KEY is required (see below).
_DEV_SECRET = "dev-only-insecure-key-not-for-production"
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "ninja",
    "import_export",
    "simple_history",
    # Before django_tasks_db: its `db_worker` command is replaced by the project's.
    "configurator.jobs",
    "django_tasks_db",
    "axes",
    "catalog",
    "configurator",
    "configurator.fleet",
    "configurator.quotes",
    "configurator.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "configurator.middleware.ApiGuardMiddleware",
    # Before anything that reads the body (sessions, CSRF): a body over its limit is refused
    # unread (REQUEST BODIES below).
    "configurator.middleware.BodyLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into a 429 answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "configurator.urls"
WSGI_APPLICATION = "configurator.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    )
}
# A dead or hung database must cost a request seconds, not a worker: connecting gives up after
# DB_CONNECT_TIMEOUT s and a statement (a lock wait included) after DB_STATEMENT_TIMEOUT_MS;
# the API then answers 503 (configurator.middleware). Both stay under gunicorn's 30 s timeout.
DB_CONNECT_TIMEOUT = env_int("DB_CONNECT_TIMEOUT", default=5)
DB_STATEMENT_TIMEOUT_MS = env_int("DB_STATEMENT_TIMEOUT_MS", default=10_000)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "connect_timeout": DB_CONNECT_TIMEOUT,
            "options": f"-c statement_timeout={DB_STATEMENT_TIMEOUT_MS}",
            # A network that drops packets: sent data unacknowledged this long closes the
            # connection, and an idle one is probed, so a partition ends in an error, not a
            # worker waiting for gunicorn's timeout. A slow query is not affected.
            "tcp_user_timeout": DB_STATEMENT_TIMEOUT_MS,
            "keepalives": 1,
            "keepalives_idle": 30,
            "keepalives_interval": 10,
            "keepalives_count": 3,
        }
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # How long a write waits for SQLite's lock before "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = DB_CONNECT_TIMEOUT
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Sign-ins (configurator.throttle): django-axes counts wrong passwords per account *and*
# address together and locks that pair after LOGIN_FAILURE_LIMIT of them for
# LOGIN_LOCKOUT_MINUTES (429), so nobody can lock a colleague out from elsewhere; a success
# resets the count. Beyond that, an address with LOGIN_ADDRESS_FAILURE_LIMIT failed sign-ins
# (any accounts) in a window of LOGIN_ADDRESS_WINDOW_MINUTES may not sign in until the window
# ends: one address cannot try many accounts, and no account is locked by it. Failures and
# successes are logged (logger "axes") and kept (admin: Axes, for superusers). An operator
# unlocks early with `manage.py axes_reset_username NAME` (README).
AUTHENTICATION_BACKENDS = [
    "configurator.throttle.SignInThrottleBackend",
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", default=30))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "configurator.throttle.client_ip"
# Either refusal (429) is a page of the site, in the visitor's language, with Retry-After.
AXES_LOCKOUT_CALLABLE = "configurator.throttle.sign_in_refused"
# Log which account and address failed (passwords are never logged).
AXES_SENSITIVE_PARAMETERS: list[str] = []
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", default=20)
LOGIN_ADDRESS_WINDOW_MINUTES = env_int("LOGIN_ADDRESS_WINDOW_MINUTES", default=15)
# How many proxies in front of the app append to X-Forwarded-For (0: clients connect directly),
# and the addresses they connect from: the header is read only on a request from one of them,
# so a client that reaches gunicorn directly cannot name itself. Behind one TLS proxy on the
# same host set TRUSTED_PROXY_COUNT=1, or every client shares the proxy's address (a deploy
# check warns: configurator/checks.py).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", default=0)
TRUSTED_PROXY_ADDRESSES = env_list("TRUSTED_PROXY_ADDRESSES", default=["127.0.0.1", "::1"])
for _proxy in TRUSTED_PROXY_ADDRESSES:
    try:
        ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXY_ADDRESSES: {_proxy!r} is not an address or network (10.0.0.0/8)."
        ) from None
# The cache that counts throttled requests (configurator.throttle).
THROTTLE_CACHE = "default"

# The default cache holds the throttle's counts: in the process unless `CACHE_URL` names a
# Redis (redis://host:6379/0) that every gunicorn worker shares, or each counts on its own.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL and not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(
        f"CACHE_URL={CACHE_URL!r} is not a redis://, rediss:// or unix:// URL."
    )
SHARED_CACHE = {
    "BACKEND": "django.core.cache.backends.redis.RedisCache",
    "LOCATION": CACHE_URL,
    "KEY_PREFIX": "configurator",
}
CACHES = {
    "default": SHARED_CACHE
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Drawn results fragments (configurator.web.fragments): in the process, where a hit costs
    # less than drawing; keyed by the catalog and rules revisions, so never stale after an edit.
    # A fragment is about 18 KB: 500 of them hold about 9 MB in each worker.
    "fragments": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fragments",
        "TIMEOUT": 3600,
        "OPTIONS": {"MAX_ENTRIES": env_int("FRAGMENT_CACHE_ENTRIES", default=500)},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The page languages: the language switch lists them, each by its own name (Django's
# language info, so the names here are not shown and not translated: a new language needs no
# entry in the other catalogues). A language is added with one entry here and its catalogue,
# locale/<locale>/LC_MESSAGES/django.po (README, "Translations"); no code names a language.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "Simplified Chinese")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The languages every PDF (the quote, the probe report, the monthly report) is written in, each
# label in each of them, in this order: one document serves a reader of either. Each is in
# LANGUAGES (a system check says so) and the PDF font has its glyphs (static/fonts/).
PDF_LANGUAGES = ["en", "zh-hans"]
# A language's number formats where the product writes them otherwise than Django
# (configurator/formats/<locale>/formats.py: Chinese groups thousands with a comma).
FORMAT_MODULE_PATH = ["configurator.formats"]
# The site's time zone: every date and time a page, a PDF or a workbook shows (a quote's issue
# date, its history, the monthly report's months) is written in it. An IANA name.
TIME_ZONE = os.environ.get("TIME_ZONE", "").strip() or "Asia/Shanghai"
try:
    ZoneInfo(TIME_ZONE)
except (ZoneInfoNotFoundError, ValueError) as error:
    raise ImproperlyConfigured(
        f"TIME_ZONE={TIME_ZONE!r} is not a time zone (an IANA name such as Asia/Shanghai)."
    ) from error
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

LOGIN_URL = "admin:login"

# Security: strict by default, relaxed only for plain-HTTP local development.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "frame-ancestors": [CSP.NONE],
}
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    # The probes answer over plain HTTP: a load balancer or orchestrator asks gunicorn itself,
    # and a 301 would hide the readiness 503 from it.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Admin import/export: every import is previewed and runs in one transaction.
IMPORT_EXPORT_USE_TRANSACTIONS = True
IMPORT_EXPORT_SKIP_ADMIN_LOG = False
IMPORT_EXPORT_IMPORT_PERMISSION_CODE = "change"
IMPORT_EXPORT_EXPORT_PERMISSION_CODE = "view"
# Exported text that a spreadsheet would run as a formula is written with a leading '
# (catalog.spreadsheets); imports refuse it outright.
IMPORT_EXPORT_ESCAPE_FORMULAE_ON_EXPORT = True
# The largest catalog sheet the admin accepts for import (a 50,000-row GPU sheet is ~8 MB).
CATALOG_IMPORT_MAX_BYTES = env_int("CATALOG_IMPORT_MAX_BYTES", default=16 * 1024 * 1024)
# Longer sheets are checked and imported by a background task with progress (catalog.imports).
CATALOG_IMPORT_INLINE_ROWS = env_int("CATALOG_IMPORT_INLINE_ROWS", default=1000)
# A previewed sheet waits for its confirmation under a random name in a folder of its own, and
# the confirmation may name only a sheet stored for the same user this long ago at most
# (catalog.import_files; django-import-export's default opens any name in the temp directory).
IMPORT_EXPORT_TMP_STORAGE_CLASS = "catalog.import_files.ImportFileStorage"
CATALOG_IMPORT_TMP_DIR = os.environ.get(
    "CATALOG_IMPORT_TMP_DIR", str(Path(tempfile.gettempdir()) / "configurator-imports")
)
CATALOG_IMPORT_KEEP_SECONDS = env_int("CATALOG_IMPORT_KEEP_SECONDS", default=3600)

# Request bodies. Every path has a limit, checked from Content-Length before anything reads the
# body (configurator.middleware.BodyLimitMiddleware): over it, 413 unread — a page in the
# visitor's language, or the API's JSON; a body without a length (chunked) is 411. Pages take
# forms (the largest, an admin list saved with its editable column, is a few KB); the API takes
# JSON (its largest real request, a build with its BOM, is about 2 KB); the upload paths take
# their file's own limit plus 1 MB for the multipart envelope. The TLS proxy in front cuts what
# the app cannot: a slow sender (README, "Production"; docs/reliability.md).
PAGE_MAX_BODY_BYTES = env_int("PAGE_MAX_BODY_BYTES", default=256 * 1024)
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", default=64 * 1024)
_ENVELOPE = 1024 * 1024
UPLOAD_MAX_BODY_BYTES = {  # path, as a regular expression matched whole -> its limit
    r"/fleet/": 20 * 1024 * 1024 + _ENVELOPE,  # a fleet sheet (fleet.services.MAX_UPLOAD_BYTES)
    r"/fleet/probes/": 10 * 1024 * 1024 + _ENVELOPE,  # a probe archive (probe.MAX_ARCHIVE_BYTES)
    r"/api/v1/fleet/probes": 10 * 1024 * 1024 + _ENVELOPE,
    r"/admin/catalog/[a-z]+/import/": CATALOG_IMPORT_MAX_BYTES + _ENVELOPE,
}
# What Django itself reads of a body it was let through: form fields (not files) up to the page
# limit; a file over 2.5 MB goes to a temporary file rather than memory (Django's default);
# at most 1,000 fields (an admin list's page with its editable column is a few hundred) and
# 5 files (every upload form takes one). Over any of them, 400 (the API's JSON for the API).
DATA_UPLOAD_MAX_MEMORY_SIZE = PAGE_MAX_BODY_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 5

# Background work (big imports, fleet audits, bulk PDFs) runs on Django's tasks API with the
# database backend of django-tasks-db: `manage.py db_worker` runs the queue (README).
# Quotes (docs/quotes.md): how long a new quote is valid, and how long a customer's signed link
# to an issued quote opens it.
QUOTE_VALID_DAYS = env_int("QUOTE_VALID_DAYS", default=30)
QUOTE_LINK_MAX_AGE_DAYS = env_int("QUOTE_LINK_MAX_AGE_DAYS", default=30)

TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# A worker beats every quarter of TASK_LEASE_SECONDS; a running task whose worker has not
# beaten for a whole lease is taken up again by a live worker, until TASK_MAX_ATTEMPTS
# workers have started it, then failed with that reason (configurator.jobs.leases). A worker
# whose database does not answer tries again TASK_WORKER_RETRY_SECONDS later, twice as long
# each time up to TASK_WORKER_RETRY_MAX_SECONDS, instead of exiting (docs/reliability.md).
TASK_LEASE_SECONDS = env_int("TASK_LEASE_SECONDS", default=60)
TASK_MAX_ATTEMPTS = env_int("TASK_MAX_ATTEMPTS", default=3)
TASK_WORKER_RETRY_SECONDS = 1
TASK_WORKER_RETRY_MAX_SECONDS = env_int("TASK_WORKER_RETRY_MAX_SECONDS", default=60)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO" if not DEBUG else "WARNING"},
    # Every login, failed or successful, and every lockout, in development too.
    "loggers": {"axes": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
