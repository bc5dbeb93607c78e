"""django-q2 entry points for the chat pipeline. Each takes ids and is safe to run twice."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django_q.tasks import async_task

from .models import Conversation, ConversationStatus, EndReason
from .processing import process_scope
from .selectors import scopes_with_pending_messages
from .summaries import conversation_end, conversation_summarize, summary_due


def process_scope_task(user_id: int, character_slug: str) -> dict:
    """Drain a scope's pending messages, then summarise conversations that are due."""
    total: dict = {"processed": 0}
    while True:
        result = process_scope(user_id=user_id, character_slug=character_slug)
        total["processed"] += result["processed"]
        for conversation_id in result.get("save_requested", []):
            conversation_end(conversation=Conversation.objects.get(pk=conversation_id), reason=EndReason.SAVE_REQUEST)
        if result["processed"] == 0:
            break
    for conversation in Conversation.objects.filter(user_id=user_id, character_id=character_slug):
        if summary_due(conversation):
            conversation_summarize(conversation_id=conversation.pk)
    return total


def enqueue_scope(user_id: int, character_slug: str) -> None:
    async_task("conversations.tasks.process_scope_task", user_id, character_slug,
               task_name=f"process-{user_id}-{character_slug}"[:100], group="process_scope")


def process_pending_task() -> int:
    """Safety net: process scopes whose messages were stored but never processed (e.g. after a crash)."""
    scopes = scopes_with_pending_messages(older_than=timezone.now() - timedelta(seconds=30))
    for user_id, character_slug in scopes:
        process_scope_task(user_id, character_slug)
    return len(scopes)


def end_idle_conversations_task() -> int:
    """End conversations idle for CONVERSATION_IDLE_MINUTES and summarise them (seed 001 §4.3)."""
    cutoff = timezone.now() - timedelta(minutes=settings.CONVERSATION_IDLE_MINUTES)
    idle = Conversation.objects.filter(status=ConversationStatus.OPEN, last_received_at__lt=cutoff)
    ended = 0
    for conversation in idle:
        conversation = conversation_end(conversation=conversation, reason=EndReason.IDLE)
        if summary_due(conversation):
            conversation_summarize(conversation_id=conversation.pk)
        ended += 1
    return ended
