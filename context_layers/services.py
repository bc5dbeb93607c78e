"""Writes for the context layers. Each opens its own transaction and audits in it."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.selectors import tier_policy_for_user
from audit.services import AuditContext, audit_record
from core.errors import ForbiddenError
from core.timestamps import format_instant
from memories.masking import mask_document
from memories.selectors import memory_list
from memories.services import lock_scope, memory_delete_scope

from .documents import validate_layer_document
from .export import render_markdown
from .models import Relationship, UserActivity, UserContext
from .selectors import context_overview

IDENTITY_USER_SET = "userSet"
IDENTITY_INFERRED = "inferred"
# What context_delete_for_character reports, per kind of row deleted.
SCOPE_DELETE_COUNTS = ("memories", "layers", "messages", "relationships")


def audit_scope_change(context: AuditContext, action: str, *, user, character, object_type: str, object_id="",
                       fields=(), details=None) -> None:
    audit_record(context=context, action=action, object_type=object_type, object_id=object_id,
                 target_user_id=user.pk, target_user_ref=user.get_username(), character_slug=character.slug,
                 changed_fields=fields, details=details)


def user_activity_touch(*, user, seen_at) -> None:
    activity, _ = UserActivity.objects.select_for_update().get_or_create(user=user)
    if activity.last_seen_at is None or activity.last_seen_at.date() != seen_at.date():
        activity.total_active_days += 1
    activity.first_seen_at = min(filter(None, [activity.first_seen_at, seen_at]))
    activity.last_seen_at = max(filter(None, [activity.last_seen_at, seen_at]))
    activity.save()


def layer_put(*, user, character, layer: str, document, identity_slot: str = IDENTITY_USER_SET,
              context: AuditContext) -> dict:
    """Replace one layer document after validation; return the stored document.

    Identity keeps user-set and inferred values apart: `identity_slot` says which one is replaced.
    Every string in the document is PII-masked first, so what is validated is what is stored.
    """
    validated = validate_layer_document(layer, mask_document(document))
    if layer == "soul" and not tier_policy_for_user(user).soul_enabled:
        raise ForbiddenError("The soul layer needs a PREMIUM or ULTIMATE plan.", code="TIER_FEATURE_UNAVAILABLE")
    with transaction.atomic():
        lock_scope(user_id=user.pk, character_slug=character.slug)
        ctx, _ = UserContext.objects.get_or_create(user=user, character=character)
        if layer == "identity":
            identity = dict(ctx.identity or {})
            identity[identity_slot] = validated
            ctx.identity = identity
        else:
            setattr(ctx, layer, validated)
        update_fields = [layer, "updated_at"]
        if layer == "heartbeat" and validated.get("lastSeenAt"):
            ctx.last_seen_at = parse_datetime(validated["lastSeenAt"])
            update_fields.append("last_seen_at")
            user_activity_touch(user=user, seen_at=ctx.last_seen_at)
        ctx.save(update_fields=update_fields)
        fields = [f"{identity_slot}.{key}" for key in validated] if layer == "identity" else list(validated)
        audit_scope_change(context, "updated", user=user, character=character, object_type=f"layer:{layer}",
                           object_id=ctx.pk, fields=fields)
    return validated


def user_context_get_or_create(*, user, character) -> UserContext:
    """The scope's row, created empty on first use (messages and conversations hang off it)."""
    try:
        with transaction.atomic():
            return UserContext.objects.get_or_create(user=user, character=character)[0]
    except IntegrityError:
        return UserContext.objects.get(user=user, character=character)


def context_delete_for_character(*, user, character, context: AuditContext) -> dict:
    """Delete the whole scope (layers, memories, conversations, relationship). The audit row keeps counts only.

    The user-level UserActivity is shared by every character of the user and stays.
    """
    with transaction.atomic():
        lock_scope(user_id=user.pk, character_slug=character.slug)
        memories_deleted = memory_delete_scope(user=user, character=character)
        _, per_model = UserContext.objects.filter(user=user, character=character).delete()
        layers_deleted = per_model.get(UserContext._meta.label, 0)
        # Conversations, messages and summaries hang off the scope row and go with it.
        messages_deleted = per_model.get("conversations.Message", 0)
        relationships_deleted, _ = Relationship.objects.filter(user=user, character=character).delete()
        counts = dict(zip(SCOPE_DELETE_COUNTS, (memories_deleted, layers_deleted, messages_deleted,
                                                relationships_deleted)))
        audit_scope_change(context, "deleted", user=user, character=character, object_type="context_scope",
                           details={"memories_deleted": memories_deleted, "layer_rows_deleted": layers_deleted,
                                    "messages_deleted": messages_deleted,
                                    "relationships_deleted": relationships_deleted})
    return counts


def context_export(*, user, character, context: AuditContext) -> dict:
    """Render the scope as Markdown and audit the export (who, when, how many items).

    `user=None` (an end user never seen) exports the empty scope; no user data is shown, so no row is written.
    """
    overview = context_overview(user=user, character=character)
    memories = list(memory_list(user=user, character=character)) if user is not None else []
    documents = render_markdown(character_name=character.display_name, overview=overview, memories=memories)
    if user is not None:
        with transaction.atomic():
            audit_scope_change(context, "exported", user=user, character=character, object_type="context_scope",
                               details={"memories": len(memories)})
    return {
        "characterId": character.slug,
        "exportedAt": format_instant(timezone.now()),
        "documents": documents,
        "markdown": "\n".join(documents.values()),
    }


def user_context_admin_save(*, user_context: UserContext, changed_fields: list[str], context: AuditContext) -> None:
    """Save an operator's edit of a scope's layers and audit which layers changed."""
    for layer in ("heartbeat", "identity", "soul", "tools"):
        setattr(user_context, layer, mask_document(getattr(user_context, layer)))
    with transaction.atomic():
        user_context.save()
        audit_scope_change(context, "updated", user=user_context.user, character=user_context.character,
                           object_type="user_context", object_id=user_context.pk, fields=changed_fields)
