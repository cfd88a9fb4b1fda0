from django.urls import path

from configurator.quotes import views

app_name = "quotes"
urlpatterns = [
    path("", views.quote_list, name="list"),
    path("new/", views.quote_new, name="new"),
    path("review/", views.review_queue, name="review"),
    path("c/<str:token>/", views.customer_quote, name="customer"),
    path("<str:number>/", views.quote_detail, name="detail"),
    path("<str:number>/transition/", views.quote_transition, name="transition"),
    path("<str:number>/pdf/", views.quote_pdf, name="pdf"),
    path("<str:number>/xlsx/", views.quote_xlsx, name="xlsx"),
]
