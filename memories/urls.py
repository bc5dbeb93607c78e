from django.urls import path

from .apis import MemoryCollectionApi, MemoryItemApi

urlpatterns = [
    path("<str:characterId>/memory", MemoryCollectionApi.as_view(), name="memory-collection"),
    path("<str:characterId>/memory/<str:memoryId>", MemoryItemApi.as_view(), name="memory-item"),
]
