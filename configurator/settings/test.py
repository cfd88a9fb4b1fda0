"""Settings for the test suite: the base settings with a fast password hasher."""

import os

# Development mode (plain HTTP, the development secret key) unless the environment says otherwise.
os.environ.setdefault("DEBUG", "1")

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
# Tasks run inline in tests unless a test asks for the database backend.
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
