"""Operator console for context layers: reads audited, layer documents validated, writes audited."""
from django import forms
from django.contrib import admin
from rest_framework.exceptions import ValidationError as DrfValidationError

from audit.admin_mixins import AuditedReadAdminMixin, admin_audit_context
from memories.masking import mask_document

from .documents import validate_layer_document
from .models import Relationship, UserActivity, UserContext
from .services import context_delete_for_character, user_context_admin_save


class UserContextForm(forms.ModelForm):
    class Meta:
        model = UserContext
        fields = ["user", "character", "heartbeat", "identity", "soul", "tools"]

    def _validated(self, layer: str, value):
        try:  # masked first, as layer_put does, so what is validated is what is stored
            return validate_layer_document(layer, mask_document(value or {}))
        except DrfValidationError as exc:
            raise forms.ValidationError(str(exc.detail)) from None

    def clean_heartbeat(self):
        return self._validated("heartbeat", self.cleaned_data.get("heartbeat"))

    def clean_soul(self):
        return self._validated("soul", self.cleaned_data.get("soul"))

    def clean_tools(self):
        return self._validated("tools", self.cleaned_data.get("tools"))

    def clean_identity(self):
        value = self.cleaned_data.get("identity") or {}
        if not isinstance(value, dict) or set(value) - {"userSet", "inferred"}:
            raise forms.ValidationError('Identity must be {"userSet": {...}, "inferred": {...}}.')
        return {slot: self._validated("identity", doc) for slot, doc in value.items()}


@admin.register(UserContext)
class UserContextAdmin(AuditedReadAdminMixin, admin.ModelAdmin):
    audit_object_type = "user_context"
    deletes_through_services = True
    form = UserContextForm
    list_display = ("id", "user", "character", "last_seen_at", "updated_at")
    list_filter = ("character",)
    search_fields = ("user__username",)
    list_select_related = ("user", "character")
    raw_id_fields = ("user",)

    def save_model(self, request, obj, form, change):
        user_context_admin_save(user_context=obj, changed_fields=list(form.changed_data),
                                context=admin_audit_context(request))

    # Deleting a scope in the console is the erasure every other door uses: memories, messages, summaries, layers and
    # the relationship go together, audited (the admin's own delete left the memories behind, unaudited).
    def delete_model(self, request, obj):
        context_delete_for_character(user=obj.user, character=obj.character, context=admin_audit_context(request))

    def delete_queryset(self, request, queryset):
        for user_context in queryset.select_related("user", "character"):
            self.delete_model(request, user_context)


@admin.register(UserActivity)
class UserActivityAdmin(AuditedReadAdminMixin, admin.ModelAdmin):
    audit_object_type = "user_activity"
    list_display = ("user", "first_seen_at", "last_seen_at", "total_active_days", "total_conversations")
    search_fields = ("user__username",)
    readonly_fields = ("user", "first_seen_at", "last_seen_at", "total_active_days", "total_conversations")

    def has_add_permission(self, request):
        return False


@admin.register(Relationship)
class RelationshipAdmin(AuditedReadAdminMixin, admin.ModelAdmin):
    audit_object_type = "relationship"
    list_display = ("user", "character", "intimacy_level", "intimacy_score", "updated_at")
    list_filter = ("intimacy_level", "character")
    search_fields = ("user__username",)
    readonly_fields = ("user", "character", "trust", "affection", "respect", "rivalry", "familiarity",
                       "intimacy_score", "intimacy_level")

    def has_add_permission(self, request):
        return False
