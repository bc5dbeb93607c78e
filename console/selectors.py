"""Reads for the operator console's user pages: one user by external id, across their characters."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Q

from accounts.access import is_end_user
from accounts.selectors import plan_for_user
from context_layers.models import Relationship, UserActivity, UserContext
from context_layers.selectors import user_characters
from conversations.models import Conversation, ConversationSummary, Message
from memories.selectors import memory_scope, memory_settings_for

RECENT = 10


def end_user_by_external_id(external_id: str):
    """The end user with exactly this external id (no partial match, no staff or service accounts), or None."""
    if not external_id or "\x00" in external_id or len(external_id) > 150:
        return None
    user = get_user_model().objects.filter(username=external_id).first()
    return user if user is not None and is_end_user(user) else None


def user_overview(*, user) -> dict:
    """Everything an operator needs on one page: plan, settings, activity, and per character the counts of each
    layer and the latest conversations. Counts and dates only: no memory or message text."""
    settings = memory_settings_for(user)
    characters = []
    for character in user_characters(user=user):
        memories = memory_scope(user=user, character=character).aggregate(
            live=Count("id", filter=Q(is_active=True)), inactive=Count("id", filter=Q(is_active=False)))
        messages = Message.objects.filter(user=user, character=character).aggregate(
            count=Count("id"), last=Max("created_at"))
        context_row = UserContext.objects.filter(user=user, character=character).first()
        relationship = Relationship.objects.filter(user=user, character=character).first()
        characters.append({
            "character": character,
            "memories": memories["live"], "inactive_memories": memories["inactive"],
            "messages": messages["count"], "last_message_at": messages["last"],
            "summaries": ConversationSummary.objects.filter(conversation__user=user,
                                                            conversation__character=character).count(),
            "layers": [layer for layer in ("heartbeat", "identity", "soul", "tools")
                       if context_row is not None and getattr(context_row, layer)],
            "intimacy_level": relationship.intimacy_level if relationship else None,
            "remembers": settings.remembers(character),
        })
    return {
        # not "user": the admin templates greet the signed-in operator under that name
        "subject": user, "plan": plan_for_user(user), "settings": settings,
        "activity": UserActivity.objects.filter(user=user).first(),
        "characters": characters,
        "conversations": list(Conversation.objects.filter(user=user).select_related("character")
                              .order_by("-last_message_at")[:RECENT]),
    }


def scope_contents(*, user, character) -> dict:
    """One scope's redactable contents for an operator: memories (active first), the latest messages, summaries,
    and the layer fields that hold text."""
    context_row = UserContext.objects.filter(user=user, character=character).first()
    fields = []
    if context_row is not None:
        for layer in ("heartbeat", "identity", "soul", "tools"):
            fields.extend(_leaf_fields(layer, getattr(context_row, layer) or {}))
    return {
        "memories": list(memory_scope(user=user, character=character).order_by("-is_active", "-created_at", "-id")),
        # not "messages": the admin templates show the messages framework's notices under that name
        "chat_messages": list(Message.objects.filter(user=user, character=character).order_by("-created_at", "-id")[:50]),
        "summaries": list(ConversationSummary.objects.filter(conversation__user=user, conversation__character=character)
                          .select_related("conversation").order_by("-created_at")),
        "layer_fields": fields,
    }


def _leaf_fields(path: str, value) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [field for key, item in value.items() for field in _leaf_fields(f"{path}.{key}", item)]
    if isinstance(value, str) and value:
        return [(path, value)]
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return [(path, ", ".join(value))]
    return []
