from django.urls import path

from .apis import ContextApi, ExportApi, HeartbeatApi, IdentityApi, SoulApi, ToolsApi

urlpatterns = [
    path("<str:characterId>", ContextApi.as_view(), name="context"),
    path("<str:characterId>/heartbeat", HeartbeatApi.as_view(), name="context-heartbeat"),
    path("<str:characterId>/identity", IdentityApi.as_view(), name="context-identity"),
    path("<str:characterId>/soul", SoulApi.as_view(), name="context-soul"),
    path("<str:characterId>/tools", ToolsApi.as_view(), name="context-tools"),
    path("<str:characterId>/export", ExportApi.as_view(), name="context-export"),
]
