"""Operator console pages by external user id (issue 9 §5): find a user, see their overview, redact values and
handle deletion requests — each destructive step after a confirmation page, each through the services the API
and the user's own pages use, each audited (reads included). Only staff in the context-admin group get in."""
from __future__ import annotations

from functools import wraps

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from audit.admin_mixins import admin_audit_context, sees_user_data
from audit.services import audit_record
from characters.models import Character
from context_layers.services import account_withdraw, context_delete_all, context_delete_for_character
from conversations.redaction import REDACTION_REASONS, RedactionTargets, scope_redact
from core.errors import ApplicationError
from memories.selectors import memory_scope
from memories.services import memory_delete

from .selectors import end_user_by_external_id, scope_contents, user_overview

IRREVERSIBLE = "Deleted data cannot be recovered (삭제된 데이터는 복구할 수 없습니다)."


def _page(request, template: str, status: int = 200, **context):
    return render(request, f"console/{template}", {**admin.site.each_context(request), **context}, status=status)


def operator_page(view):
    """Staff in the context-admin group only (others get 403, whatever else they may do in the admin); the
    user named in the URL must be an end user."""
    @staff_member_required
    @wraps(view)
    def wrapped(request, *args, external_id: str | None = None, **kwargs):
        if not sees_user_data(request):
            return _page(request, "refused.html", status=403, title="Not allowed")
        if external_id is None:
            return view(request, *args, **kwargs)
        user = end_user_by_external_id(external_id)
        if user is None:
            return _page(request, "refused.html", status=404, title="No such user",
                         message=f"No end user with external id {external_id!r}.")
        return view(request, user, *args, **kwargs)
    return wrapped


def _audit_view(request, user, object_type: str, *, character_slug: str = "", details=None) -> None:
    with transaction.atomic():
        audit_record(context=admin_audit_context(request), action="viewed", object_type=object_type,
                     target_user_id=user.pk, target_user_ref=user.get_username(), character_slug=character_slug,
                     details=details)


@require_GET
@operator_page
def users_search(request):
    query = (request.GET.get("q") or "").strip()
    if query:
        if end_user_by_external_id(query) is not None:
            return redirect("console:user", external_id=query)
    return _page(request, "search.html", title="Users by external id", query=query,
                 not_found=bool(query))


@require_GET
@operator_page
def user_page(request, user):
    overview = user_overview(user=user)
    _audit_view(request, user, "user_overview", details={"characters": len(overview["characters"])})
    return _page(request, "user.html", title=f"User {user.get_username()}", **overview)


def _character(slug: str):
    return None if "\x00" in slug else Character.objects.filter(slug=slug).first()


def _ids(values) -> list[int]:
    return [int(value) for value in values if value.isascii() and value.isdigit() and len(value) < 19]


@require_http_methods(["GET", "POST"])
@operator_page
def scope_page(request, user, slug: str):
    character = _character(slug)
    if character is None:
        return _page(request, "refused.html", status=404, title="No such character")
    error = ""
    if request.method == "POST":
        targets = RedactionTargets(memory_ids=_ids(request.POST.getlist("memory")),
                                   message_ids=_ids(request.POST.getlist("message")),
                                   summary_ids=_ids(request.POST.getlist("summary")),
                                   layer_fields=[f for f in request.POST.getlist("layer_field") if len(f) < 200])
        reason = request.POST.get("reason", "")
        if request.POST.get("confirmed") == "yes":
            try:
                counts = scope_redact(user=user, character=character, targets=targets, reason=reason,
                                      context=admin_audit_context(request))
            except ApplicationError as exc:
                error = exc.message
            else:
                return _page(request, "done.html", title="Redacted", user_ref=user.get_username(),
                             message=f"Redacted. Rows rewritten: {counts}.",
                             back=reverse("console:scope", args=[user.get_username(), slug]))
        else:
            selected = (len(targets.memory_ids) + len(targets.message_ids) + len(targets.summary_ids)
                        + len(targets.layer_fields))
            if not selected or reason not in REDACTION_REASONS:
                error = "Select what to redact and a reason."
            else:
                return _page(request, "confirm_redact.html", title="Redact — confirm", user_ref=user.get_username(),
                             character=character, targets=targets, reason=reason,
                             reason_label=REDACTION_REASONS[reason], selected=selected)
    contents = scope_contents(user=user, character=character)
    _audit_view(request, user, "user_scope", character_slug=character.slug,
                details={"memories": len(contents["memories"]), "messages": len(contents["chat_messages"])})
    return _page(request, "scope.html", status=400 if error else 200, title=f"{user.get_username()} · "
                 f"{character.display_name}", user_ref=user.get_username(), character=character,
                 reasons=REDACTION_REASONS, error=error, **contents)


DELETION_KINDS = {
    "memory": "Delete one memory",
    "character": "Delete everything for one character (memories, messages, summaries, layers, relationship)",
    "everything": "Delete everything for every character (the account, settings and tokens stay)",
    "account": "Withdraw the account: delete everything this service holds about the user",
}


@require_http_methods(["GET", "POST"])
@operator_page
def deletion_request(request, user, kind: str):
    if kind not in DELETION_KINDS:
        return _page(request, "refused.html", status=404, title="No such deletion")
    params = request.POST if request.method == "POST" else request.GET
    character = _character(params.get("character", "")) if kind in ("memory", "character") else None
    item = None
    if kind in ("memory", "character") and character is None:
        return _page(request, "refused.html", status=404, title="No such character")
    if kind == "memory":
        ids = _ids([params.get("memory", "")])
        item = memory_scope(user=user, character=character).filter(pk__in=ids).first() if ids else None
        if item is None:
            return _page(request, "refused.html", status=404, title="No such memory")
    external_id = user.get_username()
    if request.method == "POST":
        context = admin_audit_context(request)
        if kind == "memory":
            memory_delete(item=item, context=context)
        elif kind == "character":
            context_delete_for_character(user=user, character=character, context=context)
        elif kind == "everything":
            context_delete_all(user=user, context=context)
        else:
            account_withdraw(user=user, context=context)
            return _page(request, "done.html", title="Account withdrawn", message=f"{external_id}: all data deleted.",
                         back=reverse("console:users"))
        back = (reverse("console:scope", args=[external_id, character.slug]) if kind == "memory"
                else reverse("console:user", args=[external_id]))
        return _page(request, "done.html", title="Deleted", message=f"{DELETION_KINDS[kind]}: done.", back=back)
    return _page(request, "confirm_delete.html", title="Deletion request — confirm", user_ref=external_id,
                 kind=kind, what=DELETION_KINDS[kind], character=character, item=item, irreversible=IRREVERSIBLE)
