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
