from django.urls import path, re_path

from configurator.web import quote_edit, views
from configurator.web.models import ID_PATTERN

app_name = "web"
urlpatterns = [
    path("configure/", views.configure, name="configure"),
    path("configure/fixes/", views.configure_fixes, name="configure_fixes"),
    path("configure/compare/", views.compare, name="compare"),
    path("configure/quote/", views.quote, name="quote"),
    path("c/", views.share, name="share"),
    # Only what could be an id reaches the database (`models.ID_PATTERN`); anything else is 404.
    re_path(rf"^c/(?P<shared_id>{ID_PATTERN})/$", views.shared, name="shared"),
    path("quotes/<str:number>/edit/", quote_edit.quote_edit, name="quote_edit"),
    path("presales/", views.presales_inbox, name="presales"),
    path("presales/leads/<int:pk>/", views.presales_lead, name="presales_lead"),
    path("presales/leads/<int:pk>/save/", views.presales_lead_save, name="presales_lead_save"),
    path(
        "presales/leads/<int:pk>/status/", views.presales_lead_status, name="presales_lead_status"
    ),
]
