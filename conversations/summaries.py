"""Conversation summaries (seed 001 §2.1): on end, every 20 messages, on an explicit save request,
and for conversations idle for 30 minutes. Each summary is also kept as an episodic memory."""
from __future__ import annotations

import logging
from collections import Counter

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from context_layers.pipeline_updates import SOUL_DREAM_SUBJECTS, SOUL_PHASE_SUBJECTS, WORRY_EMOTIONS, soul_refresh
from memories.extraction.base import ExtractedFact
from memories.fact_writing import SurpriseThresholds, memory_write_fact
from memories.masking import mask_document, mask_text
from memories.selectors import memory_live, memory_settings_for
from memories.services import lock_scope

from .models import Conversation, ConversationStatus, ConversationSummary, EndReason, Message
from .processing import PIPELINE_CONTEXT, message_turns

logger = logging.getLogger(__name__)

SUMMARY_CATEGORY = "event"


def conversation_end(*, conversation: Conversation, reason: str = EndReason.EXPLICIT) -> Conversation:
    """Mark a conversation ended (idempotent); summarising is a separate job."""
    with transaction.atomic():
        conversation = Conversation.objects.select_for_update().get(pk=conversation.pk)
        if conversation.status != ConversationStatus.ENDED:
            conversation.status = ConversationStatus.ENDED
            conversation.end_reason = reason
            conversation.ended_at = timezone.now()
            conversation.save(update_fields=["status", "end_reason", "ended_at", "last_received_at"])
    return conversation


def summary_due(conversation: Conversation) -> bool:
    unsummarised = conversation.message_count - conversation.summarized_count
    if conversation.status == ConversationStatus.ENDED:
        return unsummarised > 0
    return unsummarised >= settings.CONVERSATION_SUMMARY_EVERY


def conversation_summarize(*, conversation_id: int) -> ConversationSummary | None:
    """Summarise the messages not yet covered; store the summary and an episodic memory of it."""
    from memories.embeddings import embed_or_none, get_embedder
    from memories.extraction.factory import get_summarizer

    conversation = Conversation.objects.select_related("user", "character").get(pk=conversation_id)
    covers_until = conversation.message_count
    if covers_until <= conversation.summarized_count:
        return None
    span = conversation.messages.order_by("created_at", "id")[conversation.summarized_count:covers_until]
    # Quarantined messages (processing kept failing on them) are left out; they may be unreadable.
    kept = [pk for pk, quarantined_at in span.values_list("pk", "quarantined_at") if quarantined_at is None]
    messages = list(Message.objects.filter(pk__in=kept).order_by("created_at", "id"))
    turns = message_turns(messages)
    summarizer = get_summarizer()
    result = summarizer.summarize(turns=turns)
    user, character = conversation.user, conversation.character
    try:
        with transaction.atomic():
            lock_scope(user_id=user.pk, character_slug=character.pk)
            summary = ConversationSummary.objects.create(
                conversation=conversation, summary=mask_text(result.summary),
                topics=mask_document(list(result.topics)),
                emotion=result.emotion, importance=result.importance, fallback=result.fallback,
                covers_until=covers_until, summarizer=summarizer.name,
            )
            Conversation.objects.filter(pk=conversation.pk, summarized_count__lt=covers_until).update(
                summarized_count=covers_until)
            memory_settings = memory_settings_for(user)
            if memory_settings.remembers(character) and memory_settings.auto_extraction and result.summary:
                embedder = get_embedder()
                memory_write_fact(
                    user=user, character=character, memory_settings=memory_settings, context=PIPELINE_CONTEXT,
                    fact=ExtractedFact(content=result.summary, category=SUMMARY_CATEGORY, kind="episodic",
                                       importance=result.importance, emotion=result.emotion,
                                       source_message_id=messages[-1].external_id if messages else "",
                                       event_date=messages[-1].local_created_at.date() if messages else None),
                    embedding=embed_or_none([result.summary], embedder=embedder)[0],
                    embedding_model=embedder.model_name,
                    thresholds=SurpriseThresholds.from_settings(), conversation_id=conversation.external_id,
                )
            _refresh_soul(user=user, character=character, latest=summary)
    except IntegrityError:  # another worker summarised the same span
        return None
    return summary


def _refresh_soul(*, user, character, latest: ConversationSummary) -> None:
    """Soul layer from summaries (seed 000 §5): dreams and life phase from facts, recurring worries."""
    facts = memory_live(user=user, character=character).exclude(subject_key="").only("subject_key", "subject_value")
    dreams = [f.subject_value for f in facts if f.subject_key in SOUL_DREAM_SUBJECTS and f.subject_value]
    phase = next((f.subject_value for f in facts if f.subject_key in SOUL_PHASE_SUBJECTS and f.subject_value), "")
    worry_counts: Counter = Counter()
    for summary in ConversationSummary.objects.filter(conversation__user=user, conversation__character=character,
                                                      emotion__in=WORRY_EMOTIONS):
        worry_counts.update(set(summary.topics))
    worries = [topic for topic, count in worry_counts.most_common(5) if count >= 2]
    soul_refresh(user=user, character=character, dreams=dreams, life_phase=phase, worry_topics=worries,
                 summary=latest.summary if not latest.fallback else "", context=PIPELINE_CONTEXT)
