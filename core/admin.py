"""Operator console: the periodic jobs' failure records (ids and error classes only, no user content)."""
from django.contrib import admin

from .models import JobFailure


@admin.register(JobFailure)
class JobFailureAdmin(admin.ModelAdmin):
    list_display = ("job", "key", "attempts", "last_error_code", "first_failed_at", "last_failed_at")
    list_filter = ("job", "last_error_code")
    search_fields = ("key",)
    readonly_fields = ("job", "key", "user_id", "character_slug", "attempts", "last_error_code", "first_failed_at",
                       "last_failed_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SuperuserOnlyMixin:
    """The django-q2 monitor (tasks, failures, schedules, queue) is for superusers: it shows job arguments."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self.has_module_permission(request) and super().has_delete_permission(request, obj)

    def has_add_permission(self, request):
        return self.has_module_permission(request) and super().has_add_permission(request)


def _superusers_only_for_django_q() -> None:
    for model, model_admin in list(admin.site._registry.items()):
        if model._meta.app_label == "django_q" and not isinstance(model_admin, SuperuserOnlyMixin):
            admin.site.unregister(model)
            admin.site.register(model, type(f"SuperuserOnly{type(model_admin).__name__}",
                                            (SuperuserOnlyMixin, type(model_admin)), {}))


_superusers_only_for_django_q()
