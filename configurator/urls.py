from django.contrib import admin
from django.urls import include, path

from configurator import views
from configurator.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("fleet/", include("configurator.fleet.urls")),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("quotes/", include("configurator.quotes.urls")),
    path("", include("configurator.web.urls")),
    path("", include("catalog.urls")),
]

handler500 = "configurator.views.server_error"
