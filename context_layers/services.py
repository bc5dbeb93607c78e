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
from memories.models import MemorySettings
from memories.selectors import memory_characters, memory_list
from memories.services import lock_scope, memory_delete_scope

from .documents import validate_layer_document
from .export import render_markdown
from .models import Relationship, UserActivity, UserContext
from .selectors import context_overview

IDENTITY_USER_SET = "userSet"
IDENTITY_INFERRED = "inferred"
# What the erasures report, per kind of row deleted (seed 000 §7.1; issue 9 §3).
SCOPE_DELETE_COUNTS = ("memories", "layers", "messages", "summaries", "relationships")
ACCOUNT_DELETE_COUNTS = (*SCOPE_DELETE_COUNTS, "characters", "tokens", "settings")


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


def _deleted_counts(counts: dict) -> dict:
    """An erasure's audit details: how many of each kind went, never what."""
    return {f"{name}_deleted": number for name, number in counts.items()}


def _erase_scopes(*, user, characters=None) -> dict:
    """Delete the scopes of `user` (every character, or those of the slugs in `characters`): memories,
    conversations with their messages and summaries, layers and relationships. Inside the caller's transaction,
    each scope locked against its processing first (in slug order). Returns SCOPE_DELETE_COUNTS and "characters"."""
    contexts = UserContext.objects.filter(user=user)
    relationships = Relationship.objects.filter(user=user)
    if characters is not None:
        contexts, relationships = contexts.filter(character__in=characters), relationships.filter(character__in=characters)
    slugs = sorted(set(contexts.values_list("character_id", flat=True))
                   | set(relationships.values_list("character_id", flat=True))
                   | set(memory_characters(user=user) if characters is None else characters))
    for slug in slugs:
        lock_scope(user_id=user.pk, character_slug=slug)
    memories_deleted = sum(memory_delete_scope(user=user, character=slug) for slug in slugs)
    # Conversations, messages and summaries hang off the scope rows and go with them.
    _, per_model = contexts.delete()
    relationships_deleted, _ = relationships.delete()
    counts = (memories_deleted, per_model.get(UserContext._meta.label, 0), per_model.get("conversations.Message", 0),
              per_model.get("conversations.ConversationSummary", 0), relationships_deleted)
    return {**dict(zip(SCOPE_DELETE_COUNTS, counts)), "characters": len(slugs)}


def context_delete_for_character(*, user, character, context: AuditContext) -> dict:
    """Delete the whole scope (layers, memories, conversations, relationship). The audit row keeps counts only.

    The user-level UserActivity is shared by every character of the user and stays.
    """
    with transaction.atomic():
        counts = _erase_scopes(user=user, characters=[character.slug])
        counts.pop("characters")
        audit_scope_change(context, "deleted", user=user, character=character, object_type="context_scope",
                           details=_deleted_counts(counts))
    return counts


def context_delete_all(*, user, context: AuditContext) -> dict:
    """Delete what every character holds of the user — each scope as context_delete_for_character does, and the
    shared activity — in one transaction with one content-free audit row. The account, its settings and its tokens
    stay (account_withdraw removes those too)."""
    with transaction.atomic():
        counts = _erase_scopes(user=user)
        UserActivity.objects.filter(user=user).delete()
        audit_record(context=context, action="deleted", object_type="user_contexts", object_id=user.pk,
                     target_user_id=user.pk, target_user_ref=user.get_username(),
                     details=_deleted_counts(counts))
    return counts


def account_withdraw(*, user, context: AuditContext) -> dict:
    """Account withdrawal: everything the user has here — every scope, the activity, memory settings, plan, API
    tokens, and the account itself — in one transaction. The audit trail keeps its rows (they hold no content)
    and gains one naming the user and the counts."""
    with transaction.atomic():
        counts = _erase_scopes(user=user)
        counts["tokens"] = user.api_tokens.count()
        counts["settings"] = int(MemorySettings.objects.filter(user=user).exists())
        user_id, external_id = user.pk, user.get_username()
        user.delete()  # cascades: activity, settings, plan, tokens
        audit_record(context=context, action="deleted", object_type="account", object_id=user_id,
                     target_user_id=user_id, target_user_ref=external_id,
                     details=_deleted_counts(counts))
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
