from django.urls import path

from configurator.fleet import views

app_name = "fleet"
urlpatterns = [
    path("", views.audit_upload, name="upload"),
    path("audits/<int:pk>/", views.audit_detail, name="audit"),
    path("audits/<int:pk>/export.csv", views.audit_export, {"fmt": "csv"}, name="export-csv"),
    path("audits/<int:pk>/export.xlsx", views.audit_export, {"fmt": "xlsx"}, name="export-xlsx"),
]
