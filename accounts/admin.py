"""Operator console for plans, tier policies and API tokens."""
from django.contrib import admin, messages
from django.db import transaction

from audit.admin_mixins import AuditedReadAdminMixin, ContextAdminOnlyMixin, admin_audit_context
from audit.services import audit_record

from .models import ApiToken, PortalLink, TierPolicy, TokenFailureWindow, UserPlan
from .services import api_token_return_origins_set, api_token_revoke, token_lockout_clear, user_plan_set


@admin.register(TierPolicy)
class TierPolicyAdmin(admin.ModelAdmin):
    list_display = ("plan", "memory_cap", "soul_enabled", "heartbeat_detail", "updated_at")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            obj.save()
            audit_record(context=admin_audit_context(request), action="updated", object_type="tier_policy",
                         object_id=obj.pk, changed_fields=form.changed_data)


@admin.register(UserPlan)
class UserPlanAdmin(AuditedReadAdminMixin, admin.ModelAdmin):
    audit_object_type = "user_plan"
    list_display = ("user", "plan", "changed_at")
    list_filter = ("plan",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)

    def save_model(self, request, obj, form, change):
        if change:
            user_plan_set(user=obj.user, plan=obj.plan, context=admin_audit_context(request))
        else:
            obj.save()


@admin.register(ApiToken)
class ApiTokenAdmin(ContextAdminOnlyMixin, admin.ModelAdmin):
    list_display = ("name", "kind", "user", "key_prefix", "created_at", "revoked_at")
    list_filter = ("kind",)
    readonly_fields = ("name", "kind", "user", "key_prefix", "key_hash", "created_at", "revoked_at")
    fields = ("name", "kind", "user", "key_prefix", "created_at", "revoked_at", "return_origins")
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False  # tokens are created with `manage.py create_service_token`, shown once

    def has_delete_permission(self, request, obj=None):
        return False  # revoke instead (audited); a deleted token would leave no trace

    def save_model(self, request, obj, form, change):
        if "return_origins" in form.changed_data:
            api_token_return_origins_set(token=obj, origins=list(obj.return_origins),
                                         context=admin_audit_context(request))

    @admin.action(description="Revoke selected tokens")
    def revoke(self, request, queryset):
        with transaction.atomic():
            for token in queryset.filter(revoked_at__isnull=True).select_related("user"):
                api_token_revoke(token=token, context=admin_audit_context(request))
        messages.success(request, "Tokens revoked.")


@admin.register(TokenFailureWindow)
class TokenFailureWindowAdmin(admin.ModelAdmin):
    """Client addresses with failed bearer tokens in their current window; deleting one unlocks it."""

    list_display = ("client_address", "failures", "window_started_at")
    readonly_fields = ("client_address", "failures", "window_started_at")
    actions = ["unlock"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # only through the audited action below

    @admin.action(description="Unlock selected addresses", permissions=["unlock"])
    def unlock(self, request, queryset):
        count = token_lockout_clear(client_addresses=list(queryset.values_list("client_address", flat=True)),
                                    context=admin_audit_context(request))
        messages.success(request, f"{count} address(es) unlocked.")

    def has_unlock_permission(self, request):
        return request.user.has_perm("accounts.delete_tokenfailurewindow")


@admin.register(PortalLink)
class PortalLinkAdmin(AuditedReadAdminMixin, admin.ModelAdmin):
    """Portal links chat backends opened for users: who, when, until when, whether used. Never the secret."""

    audit_object_type = "portal_link"
    list_display = ("id", "user", "character_slug", "created_at", "expires_at", "used_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    fields = ("user", "issued_by", "character_slug", "return_url", "language", "created_at", "expires_at", "used_at")
    readonly_fields = fields

    def audit_target(self, obj) -> dict:
        return {"target_user_id": obj.user_id, "target_user_ref": obj.user.get_username(),
                "character_slug": obj.character_slug}

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
