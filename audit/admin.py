"""The audit trail in the admin: readable, never editable or deletable."""
from django.contrib import admin

from .models import AuditLog


@admin.register(AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    list_display = ("created_at", "actor_label", "action", "trigger", "object_type", "object_id",
                    "target_user_ref", "character_slug")
    list_filter = ("action", "trigger", "object_type")
    search_fields = ("target_user_ref", "actor_label", "object_id", "request_id")
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
