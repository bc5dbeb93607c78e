"""GET /readyz: whether this web process should get traffic (GET /healthz only says it is alive)."""
from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from memories.warmup import models_loaded

from .selectors import warm_workers_seen
from .workers import STALE_AFTER_SECONDS

RETRY_AFTER_SECONDS = 5


@never_cache
def readyz(request):
    """200 when the database answers, this process has its models loaded and a warm cluster worker
    reported in the last STALE_AFTER_SECONDS; else 503 naming the checks that failed."""
    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except DatabaseError:
        checks["database"] = "unreachable"
    checks["models"] = "ok" if models_loaded() else "not loaded in this process"
    if checks["database"] == "ok":
        try:
            warm = warm_workers_seen(within_seconds=STALE_AFTER_SECONDS)
            checks["cluster"] = "ok" if warm else f"no warm worker reported in the last {STALE_AFTER_SECONDS} s"
        except DatabaseError:
            checks["cluster"] = "unknown (heartbeat table unreadable)"
    else:
        checks["cluster"] = "unknown (database unreachable)"
    failed = [name for name, state in checks.items() if state != "ok"]
    if not failed:
        return JsonResponse({"status": "ready", "checks": checks})
    response = JsonResponse({"status": "not_ready", "checks": checks, "failed": failed}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
