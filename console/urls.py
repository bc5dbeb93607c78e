from django.urls import path

from . import views

app_name = "console"

urlpatterns = [
    path("", views.users_search, name="users"),
    path("<str:external_id>/", views.user_page, name="user"),
    path("<str:external_id>/c/<str:slug>/", views.scope_page, name="scope"),
    path("<str:external_id>/delete/<str:kind>/", views.deletion_request, name="delete"),
]
