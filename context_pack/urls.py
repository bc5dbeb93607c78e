from django.urls import path

from .apis import PromptApi

urlpatterns = [
    path("<str:characterId>/prompt", PromptApi.as_view(), name="context-prompt"),
]
