"""Admin mixins that audit every operator read of user data (seed 000 §7.3)."""
from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.db import transaction

from .services import AuditContext, audit_record, audit_record_many


def admin_audit_context(request) -> AuditContext:
    return AuditContext(
        actor_id=request.user.pk,
        actor_label=f"admin:{request.user.get_username()}",
        trigger="admin",
        request_id=getattr(request, "request_id", ""),
        ip_address=request.META.get("REMOTE_ADDR") or None,
    )


def sees_user_data(request) -> bool:
    """Whether this console user may see end users' data: active staff in the CONTEXT_ADMIN_GROUP (a superuser
    outside it included: seeing user data is a duty given by the group, not a side effect of other rights)."""
    cached = getattr(request, "_sees_user_data", None)
    if cached is None:
        user = request.user
        cached = bool(user.is_active and user.is_staff
                      and user.groups.filter(name=settings.CONTEXT_ADMIN_GROUP).exists())
        request._sees_user_data = cached
    return cached


class ContextAdminOnlyMixin:
    """An admin of end users' data: invisible and refused (403) to staff outside the context-admin group."""

    def has_module_permission(self, request):
        return sees_user_data(request) and super().has_module_permission(request)

    def has_view_permission(self, request, obj=None):
        return sees_user_data(request) and super().has_view_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return sees_user_data(request) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return sees_user_data(request) and super().has_delete_permission(request, obj)

    def has_add_permission(self, request, *args):
        return sees_user_data(request) and super().has_add_permission(request, *args)


class AuditedReadAdminMixin(ContextAdminOnlyMixin):
    """Write `viewed` audit rows for each list or detail page that shows user data, naming whose data it was.

    A detail page writes one row for its object. A list page writes one row per (user, character) whose
    rows it shows, with how many of them (`details.count`), so "who looked at alice's data" finds every
    list page that showed any of it; an empty page writes nothing.

    Subclasses set `audit_object_type` and may override `audit_target(obj)` to name the user and
    character whose data the page shows.
    """

    audit_object_type = ""
    # Deleting user data from the console goes through an erasure service, which audits it: an admin whose
    # delete_model/delete_queryset call one sets this; the others offer no delete at all (the console's
    # deletion requests erase users' data).
    deletes_through_services = False

    def has_delete_permission(self, request, obj=None):
        return self.deletes_through_services and super().has_delete_permission(request, obj)

    def audit_target(self, obj) -> dict:
        user = getattr(obj, "user", None)
        return {
            "target_user_id": getattr(obj, "user_id", None),
            "target_user_ref": user.get_username() if user is not None else "",
            "character_slug": getattr(obj, "character_id", "") or "",
        }

    def changelist_view(self, request, extra_context=None):
        response = super().changelist_view(request, extra_context)
        changelist = getattr(response, "context_data", {}).get("cl") if hasattr(response, "context_data") else None
        if changelist is not None:
            # result_list is the page's queryset; evaluating it here fills the cache the template renders from.
            shown = Counter(tuple(sorted(self.audit_target(obj).items())) for obj in changelist.result_list)
            if shown:
                with transaction.atomic():
                    audit_record_many(context=admin_audit_context(request), entries=[
                        {"action": "viewed", "object_type": f"{self.audit_object_type}_list", **dict(target),
                         "details": {"count": count}}
                        for target, count in shown.items()])
        return response

    def change_view(self, request, object_id, form_url="", extra_context=None):
        response = super().change_view(request, object_id, form_url, extra_context)
        if request.method == "GET" and getattr(response, "status_code", 200) == 200:
            obj = self.get_object(request, object_id)
            if obj is not None:
                with transaction.atomic():
                    audit_record(context=admin_audit_context(request), action="viewed",
                                 object_type=self.audit_object_type, object_id=obj.pk, **self.audit_target(obj))
        return response
