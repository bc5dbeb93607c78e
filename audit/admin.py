"""The audit trail in the admin: readable, never editable or deletable."""
from django.contrib import admin

from .admin_mixins import ContextAdminOnlyMixin
from .models import AuditLog


class _TextFilter(admin.SimpleListFilter):
    """A free-text filter (exact match) for fields with too many values to list: external ids, actors."""

    template = "audit/text_filter.html"
    field = ""

    def lookups(self, request, model_admin):
        return ()

    def has_output(self):
        return True

    def queryset(self, request, queryset):
        value = (self.value() or "").strip()
        return queryset.filter(**{self.field: value}) if value else queryset


class TargetUserFilter(_TextFilter):
    title = "user (external id)"
    parameter_name = "user"
    field = "target_user_ref"


class ActorFilter(_TextFilter):
    title = "actor"
    parameter_name = "actor"
    field = "actor_label"


@admin.register(AuditLog)
class AuditLogAdmin(ContextAdminOnlyMixin, admin.ModelAdmin):
    list_display = ("created_at", "actor_label", "action", "trigger", "object_type", "object_id",
                    "target_user_ref", "character_slug")
    list_filter = (TargetUserFilter, ActorFilter, "action", "trigger", "object_type")
    search_fields = ("target_user_ref", "actor_label", "object_id", "request_id")
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
