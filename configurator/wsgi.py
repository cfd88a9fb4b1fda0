"""WSGI entry point: `gunicorn configurator.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "configurator.settings.base")
application = get_wsgi_application()
