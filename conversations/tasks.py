"""django-q2 entry points for the chat pipeline. Each takes ids and is safe to run twice."""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django_q.tasks import async_task

from core.jobs import JobRun, scope_key

from .models import Conversation, ConversationStatus, EndReason
from .processing import process_scope_isolating
from .selectors import scopes_with_pending_messages
from .summaries import conversation_end, conversation_summarize, summary_due

logger = logging.getLogger(__name__)

SUMMARY_JOB = "conversation_summarize"


def process_scope_task(user_id: int, character_slug: str) -> dict:
    """Drain a scope's pending messages, then summarise conversations that are due.

    A message that fails is recorded on the message and left for a later run (quarantined after
    JOB_MAX_ATTEMPTS runs); a conversation whose summary fails is recorded in JobFailure. Neither
    stops the rest of the scope.
    """
    total: dict = {"processed": 0, "failed": 0}
    while True:
        result = process_scope_isolating(user_id=user_id, character_slug=character_slug)
        total["processed"] += result["processed"]
        total["failed"] += result["failed"]
        for conversation_id in result.get("save_requested", []):
            conversation_end(conversation=Conversation.objects.get(pk=conversation_id), reason=EndReason.SAVE_REQUEST)
        if result["processed"] == 0 or result["failed"]:
            break  # a failed message is retried by a later run, not again in this one
    summaries = JobRun(SUMMARY_JOB, log=logger)
    # Only the counters are read: a conversation row that cannot be read fails its own summary, not the loop.
    for conversation in (Conversation.objects.filter(user_id=user_id, character_id=character_slug)
                         .only("pk", "status", "message_count", "summarized_count")):
        if summary_due(conversation):
            summaries.run(f"conversation:{conversation.pk}",
                          lambda pk=conversation.pk: conversation_summarize(conversation_id=pk),
                          user_id=user_id, character_slug=character_slug)
    return total


def enqueue_scope(user_id: int, character_slug: str) -> None:
    async_task("conversations.tasks.process_scope_task", user_id, character_slug,
               task_name=f"process-{user_id}-{character_slug}"[:100], group="process_scope")


def process_pending_task() -> dict:
    """Safety net: process scopes whose messages were stored but never processed (e.g. after a crash).

    Each scope runs on its own: one that fails is logged and recorded (JobFailure, job
    `process_pending`) and the next scope still runs.
    """
    scopes = scopes_with_pending_messages(older_than=timezone.now() - timedelta(seconds=30))
    run = JobRun("process_pending", log=logger)
    for user_id, character_slug in scopes:
        run.run(scope_key(user_id, character_slug),
                lambda user_id=user_id, character_slug=character_slug: process_scope_task(user_id, character_slug),
                user_id=user_id, character_slug=character_slug)
    return {"scopes": len(scopes), "failed_scopes": run.failed, "skipped_scopes": run.skipped}


def end_idle_conversations_task() -> dict:
    """End conversations idle for CONVERSATION_IDLE_MINUTES and summarise them (seed 001 §4.3).

    Each conversation is handled on its own; one that fails is logged and recorded (JobFailure) and
    the sweep goes on.
    """
    cutoff = timezone.now() - timedelta(minutes=settings.CONVERSATION_IDLE_MINUTES)
    idle = list(Conversation.objects.filter(status=ConversationStatus.OPEN, last_received_at__lt=cutoff)
                .order_by("pk").values_list("pk", "user_id", "character_id"))
    run = JobRun("end_idle_conversation", log=logger)
    summaries = JobRun(SUMMARY_JOB, log=logger)
    ended = 0
    for pk, user_id, character_slug in idle:
        done, conversation = run.run(
            f"conversation:{pk}",
            lambda pk=pk: conversation_end(conversation=Conversation(pk=pk), reason=EndReason.IDLE),
            user_id=user_id, character_slug=character_slug)
        if not done:
            continue
        ended += 1
        if summary_due(conversation):
            summaries.run(f"conversation:{pk}", lambda pk=pk: conversation_summarize(conversation_id=pk),
                          user_id=user_id, character_slug=character_slug)
    return {"ended": ended, "failed": run.failed + summaries.failed, "skipped": run.skipped + summaries.skipped}
