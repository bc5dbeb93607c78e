"""The project's URLs plus views that fail, for tests/core/test_json_errors.py."""
from django.db import OperationalError
from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from config.urls import handler400, handler403, handler404, handler500, urlpatterns as project_urlpatterns


def boom(request):
    raise RuntimeError(f"bug while handling {request.body.decode()}")


def database_gone(request):
    raise OperationalError("connection to server on socket failed: No such file or directory")


@require_POST
def post_only(request):
    return HttpResponse("ok")


urlpatterns = [
    path("api/test/boom", boom),
    path("api/test/database-gone", database_gone),
    path("admin-test/database-gone", database_gone),
    path("api/test/post-only", post_only),
    *project_urlpatterns,
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
