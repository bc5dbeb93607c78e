from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.apis import PlanApi, UserTokenApi, UserTokensApi
from context_layers.apis import AccountApi, ContextAllApi
from context_pack.apis import MemoryLoadApi
from health.views import readyz
from memories import apis_v1 as memory_v1
from memories.apis import LegacyBioApi, UserMemoriesApi, UserMemoryApi, UserMemorySettingsApi
from portal.apis import PortalSessionsApi


def health(request):
    return JsonResponse({"status": "ok"})


urlpatterns = [
    path("admin/users/", include("console.urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/context", ContextAllApi.as_view(), name="context-all"),
    path("api/context/", include("memories.urls")),
    path("api/context/", include("conversations.urls")),
    path("api/context/", include("context_pack.urls")),
    path("api/v1/memory/load", MemoryLoadApi.as_view(), name="memory-load-v1"),
    path("api/v1/memory/summarize", memory_v1.SummarizeApi.as_view(), name="memory-summarize-v1"),
    path("api/v1/memory/create", memory_v1.CreateApi.as_view(), name="memory-create-v1"),
    path("api/v1/memory/list", memory_v1.ListApi.as_view(), name="memory-list-v1"),
    path("api/v1/memory/<str:memoryId>", memory_v1.ItemApi.as_view(), name="memory-item-v1"),
    path("api/v1/memory/<str:memoryId>/archive", memory_v1.ArchiveApi.as_view(), name="memory-archive-v1"),
    path("api/v1/memory/<str:memoryId>/unarchive", memory_v1.UnarchiveApi.as_view(), name="memory-unarchive-v1"),
    path("api/v1/legacy/bio", LegacyBioApi.as_view(), name="legacy-bio"),
    path("api/v1/users/me/memories", UserMemoriesApi.as_view(), name="user-memories-v1"),
    path("api/v1/users/me/memories/<str:memoryId>", UserMemoryApi.as_view(), name="user-memory-v1"),
    path("api/v1/users/me/memory-settings", UserMemorySettingsApi.as_view(), name="user-memory-settings-v1"),
    path("api/accounts/plan", PlanApi.as_view(), name="plan"),
    path("api/accounts/me", AccountApi.as_view(), name="account"),
    path("api/accounts/portal-sessions", PortalSessionsApi.as_view(), name="portal-sessions"),
    path("api/accounts/user-tokens", UserTokensApi.as_view(), name="user-tokens"),
    path("api/accounts/user-tokens/<str:tokenId>", UserTokenApi.as_view(), name="user-token"),
    path("api/context/", include("context_layers.urls")),
    path("me/", include("portal.urls")),
    path("healthz", health),
    path("readyz", readyz),
]

handler400 = "config.exception_handler.json_400"
handler403 = "config.exception_handler.json_403"
handler404 = "config.exception_handler.json_404"
handler500 = "config.exception_handler.json_500"
