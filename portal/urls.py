from django.urls import path

from . import views

app_name = "portal"

urlpatterns = [
    path("", views.home, name="home"),
    path("enter/<str:token>", views.enter, name="enter"),
    path("sign-out", views.sign_out, name="sign-out"),
    path("consent", views.consent, name="consent"),
    path("settings", views.settings_page, name="settings"),
    path("delete", views.delete_everything, name="delete-everything"),
    path("withdraw", views.withdraw, name="withdraw"),
    path("c/<str:slug>", views.character_page, name="character"),
    path("c/<str:slug>/pause", views.character_pause, name="character-pause"),
    path("c/<str:slug>/identity", views.identity_save, name="identity"),
    path("c/<str:slug>/rules", views.rules_save, name="rules"),
    path("c/<str:slug>/export", views.export, name="export"),
    path("c/<str:slug>/delete", views.character_delete, name="character-delete"),
    path("c/<str:slug>/m/<str:memory_id>/delete", views.memory_delete_page, name="memory-delete"),
    path("c/<str:slug>/m/<str:memory_id>/correct", views.memory_correct_page, name="memory-correct"),
]
