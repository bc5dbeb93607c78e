"""Operator console for memories: every read audited, every write through services."""
from django.contrib import admin

from audit.admin_mixins import AuditedReadAdminMixin, admin_audit_context

from .models import MemoryItem, MemorySettings
from .services import memory_delete, memory_settings_save, memory_update


@admin.register(MemoryItem)
class MemoryItemAdmin(AuditedReadAdminMixin, admin.ModelAdmin):
    audit_object_type = "memory_item"
    deletes_through_services = True
    list_display = ("id", "user", "character", "category", "kind", "importance", "strength", "is_active",
                    "archived_at", "created_at")
    list_filter = ("character", "category", "kind", "source", "is_active")
    search_fields = ("user__username",)
    list_select_related = ("user", "character")
    raw_id_fields = ("user",)
    # No select of every memory in the database (it would not load at 1M rows): the successor is shown, not chosen.
    readonly_fields = ("superseded_by", "content_hash", "embedding_model", "mentioned_count", "usage_count",
                       "last_used_at", "created_at", "updated_at")
    exclude = ("embedding",)

    def save_model(self, request, obj, form, change):
        memory_update(item=obj, changes={}, context=admin_audit_context(request))  # the form set the values

    def delete_model(self, request, obj):
        memory_delete(item=obj, context=admin_audit_context(request))

    def delete_queryset(self, request, queryset):
        for item in queryset.select_related("user"):
            memory_delete(item=item, context=admin_audit_context(request))


@admin.register(MemorySettings)
class MemorySettingsAdmin(AuditedReadAdminMixin, admin.ModelAdmin):
    audit_object_type = "memory_settings"
    list_display = ("user", "enabled", "auto_extraction", "retention_days", "updated_at")
    list_filter = ("enabled", "auto_extraction")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)

    def save_model(self, request, obj, form, change):
        memory_settings_save(settings=obj, changed_fields=list(form.changed_data), context=admin_audit_context(request))
