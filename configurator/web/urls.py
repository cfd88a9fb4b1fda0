from django.urls import path

from configurator.web import views

app_name = "web"
urlpatterns = [
    path("configure/", views.configure, name="configure"),
    path("configure/fixes/", views.configure_fixes, name="configure_fixes"),
    path("configure/compare/", views.compare, name="compare"),
    path("configure/quote/", views.quote, name="quote"),
    path("presales/", views.presales_inbox, name="presales"),
    path("presales/leads/<int:pk>/", views.presales_lead, name="presales_lead"),
    path("presales/leads/<int:pk>/save/", views.presales_lead_save, name="presales_lead_save"),
    path(
        "presales/leads/<int:pk>/status/", views.presales_lead_status, name="presales_lead_status"
    ),
]
