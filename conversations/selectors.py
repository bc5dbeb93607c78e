"""Reads for conversations: session memory, pending work, heartbeat statistics."""
from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Avg, F, Max

from .models import Conversation, Message

SESSION_MESSAGES = 10  # seed 001 §1.1.1


def conversation_get(*, user, character, external_id: str) -> Conversation | None:
    return Conversation.objects.filter(user=user, character=character, external_id=external_id).first()


def conversation_recent_messages(*, conversation: Conversation, limit: int = SESSION_MESSAGES) -> list[Message]:
    """The last `limit` messages of the conversation, oldest first."""
    newest = list(conversation.messages.order_by("-created_at", "-id")[:limit])
    return list(reversed(newest))


def scopes_with_pending_messages(*, older_than=None) -> list[tuple[int, str]]:
    pending = Message.objects.filter(processed_at__isnull=True)
    if older_than is not None:
        pending = pending.filter(received_at__lte=older_than)
    return list(pending.order_by().values_list("user_id", "character_id").distinct())


def heartbeat_numbers(*, user, character) -> dict:
    """Message-derived rhythm of one scope: recent active days, streak, totals, session length."""
    messages = Message.objects.filter(user=user, character=character)
    last = messages.aggregate(last=Max("created_at"))["last"]
    if last is None:
        return {}
    since = last - timedelta(days=40)
    days = sorted({(created + timedelta(minutes=offset)).date() for created, offset in
                   messages.filter(created_at__gte=since).values_list("created_at", "utc_offset_minutes")},
                  reverse=True)
    last_offset = messages.filter(created_at=last).values_list("utc_offset_minutes", flat=True).first() or 0
    last_day = (last + timedelta(minutes=last_offset)).date()
    recent = sum(1 for day in days if (last_day - day).days < 7)
    streak, expected = 0, last_day
    for day in days:
        if day != expected:
            break
        streak += 1
        expected = day - timedelta(days=1)
    conversations = Conversation.objects.filter(user=user, character=character)
    duration = conversations.filter(message_count__gt=1).aggregate(
        avg=Avg(F("last_message_at") - F("started_at")))["avg"]
    return {
        "last_seen_at": last,
        "recent_days_count": recent,
        "streak_days": streak,
        "total_conversations": conversations.count(),
        "avg_session_minutes": duration.total_seconds() / 60 if duration is not None else None,
    }


_GAP_SQL = """
WITH latest AS (
    SELECT created_at, conversation_id FROM conversations_message
    WHERE user_id = %(user)s AND character_id = %(character)s ORDER BY created_at DESC, id DESC LIMIT 1
), started AS (
    SELECT min(m.created_at) AS first FROM conversations_message m JOIN latest ON m.conversation_id = latest.conversation_id
)
SELECT (SELECT created_at FROM latest), (SELECT first FROM started),
       (SELECT max(m.created_at) FROM conversations_message m, latest, started
        WHERE m.user_id = %(user)s AND m.character_id = %(character)s AND m.created_at < started.first
          AND m.conversation_id <> latest.conversation_id)
"""


def conversation_gap(*, user, character) -> tuple[datetime | None, timedelta | None]:
    """(time of the scope's latest message, the pause before its conversation began).

    The pause is measured on the messages' own timeline: from the previous conversation's last
    message to the first message of the latest conversation.
    """
    # One round trip (this runs on every prompt request): the latest message, its conversation's
    # first message, and the last message of the scope before that conversation.
    with connection.cursor() as cursor:
        cursor.execute(_GAP_SQL, {"user": user.pk, "character": character.pk})
        latest, started, before = cursor.fetchone()
    if latest is None:
        return None, None
    return latest, (started - before) if before is not None else None
