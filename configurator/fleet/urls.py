from django.urls import path

from configurator.fleet import views

app_name = "fleet"
urlpatterns = [
    path("probe.sh", views.probe_script, name="probe-script"),
    path("probes/", views.probe_upload, name="probe-upload"),
    path("probes/<int:pk>/", views.probe_detail, name="probe"),
    path("probes/<int:pk>/binding.sh", views.probe_binding, name="probe-binding"),
    path("probes/<int:pk>/report.pdf", views.probe_pdf, name="probe-pdf"),
    path("report/", views.monthly_report, name="monthly"),
    path("report/monthly.pdf", views.monthly_report_pdf, name="monthly-pdf"),
    path("delivery/", views.delivery_page, name="delivery"),
    path("binding.sh", views.build_binding, name="build-binding"),
    path("nodes/<int:pk>/binding.sh", views.node_binding, name="node-binding"),
    path("", views.audit_upload, name="upload"),
    path("audits/<int:pk>/", views.audit_detail, name="audit"),
    path("audits/<int:pk>/export.csv", views.audit_export, {"fmt": "csv"}, name="export-csv"),
    path("audits/<int:pk>/export.xlsx", views.audit_export, {"fmt": "xlsx"}, name="export-xlsx"),
]
