from django.urls import path

from .apis import MemoryCollectionApi, MemoryHistoryApi, MemoryItemApi, MemorySettingsApi

urlpatterns = [
    # before every "<characterId>" path of /api/context/ (memories.urls is included first): no character is "settings"
    path("settings", MemorySettingsApi.as_view(), name="memory-settings"),
    path("<str:characterId>/memory", MemoryCollectionApi.as_view(), name="memory-collection"),
    path("<str:characterId>/memory/<str:memoryId>", MemoryItemApi.as_view(), name="memory-item"),
    path("<str:characterId>/memory/<str:memoryId>/history", MemoryHistoryApi.as_view(), name="memory-history"),
]
