"""Drain one scope's pending messages: extract, write memories, update layers, mark processed.

Runs as a django-q2 job (and inline for read-your-writes). The scope's advisory lock serialises
workers; pending rows are claimed with SKIP LOCKED, so running twice is harmless.
"""
from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import replace

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from audit.services import AuditContext
from characters.models import Character
from context_layers.pipeline_updates import HeartbeatStats, heartbeat_record, rules_merge
from context_layers.relationship import RelationshipSignals, relationship_apply
from core.jobs import TRANSIENT_ERRORS, error_code
from memories.extraction.base import ChatTurn, ExistingFact
from memories.extraction.corrections import corrected_facts
from memories.extraction.factory import get_extractor, get_pii_second_pass
from memories.fact_writing import SurpriseThresholds, memory_write_fact
from memories.pii import mask_substrings
from memories.selectors import memory_live, memory_settings_for
from memories.services import lock_scope
from memories.warmup import ensure_models_loaded

from .models import Message, MessageRole
from .selectors import heartbeat_numbers

logger = logging.getLogger(__name__)

BATCH = 200
PIPELINE_CONTEXT = AuditContext(actor_label="system:pipeline", trigger="llm_extraction")
SAVE_REQUEST = re.compile(r"(대화\s*(내용\s*)?(저장|기억)해|이\s*대화\s*저장|save\s+(this|our)\s+(conversation|chat))",
                          re.IGNORECASE)


CONTEXT_MESSAGES = 12  # earlier messages of the conversation given to the extractor as context


def _turns_with_context(pending: list[Message]) -> list[ChatTurn]:
    """The pending messages, preceded by the conversation's last CONTEXT_MESSAGES processed messages.

    The context carries the assistant's question before an answer ("키는 몇이야?" → "178!") and a
    roleplay set up a few turns earlier; facts are only taken from the pending messages.
    (kiwipiepy analyses are cached, so re-reading the context costs little.)
    """
    first = pending[0]
    earlier = list(
        Message.objects.filter(conversation_id=first.conversation_id, created_at__lte=first.created_at,
                               processed_at__isnull=False, quarantined_at__isnull=True)
        .exclude(pk__in=[m.pk for m in pending]).order_by("-created_at", "-id")[:CONTEXT_MESSAGES]
    )
    if not earlier:  # a new conversation: the scope's previous message may still be the question
        previous = (Message.objects.filter(user_id=first.user_id, character_id=first.character_id,
                                           created_at__lte=first.created_at, processed_at__isnull=False,
                                           quarantined_at__isnull=True)
                    .exclude(pk=first.pk).order_by("-created_at", "-id").first())
        earlier = [previous] if previous is not None else []
    return message_turns(list(reversed(earlier)) + pending)


def message_turns(messages: list[Message]) -> list[ChatTurn]:
    """Messages as extractor/summarizer turns, timed in each sender's own UTC offset."""
    return [ChatTurn(message_id=m.external_id, role=m.role, content=m.content, created_at=m.local_created_at)
            for m in messages]


def _existing_facts(user, character) -> list[ExistingFact]:
    items = memory_live(user=user, character=character).exclude(subject_key="").only(
        "subject_key", "subject_value", "content")
    return [ExistingFact(subject=i.subject_key, value=i.subject_value, content=i.content) for i in items]


def _write_memories(*, user, character, result, settings, conversation_ids: dict[str, str]) -> Counter:
    from memories.embeddings import embed_or_none, get_embedder

    outcomes: Counter = Counter()
    facts = result.facts
    if not facts:
        return outcomes
    embedder = get_embedder()
    # Embedding service down: store the facts without vectors; the backfill job embeds them later.
    vectors = embed_or_none([fact.content for fact in facts], embedder=embedder)
    thresholds = SurpriseThresholds.from_settings()
    for fact, vector in zip(facts, vectors):
        outcome = memory_write_fact(
            user=user, character=character, fact=fact, embedding=vector, embedding_model=embedder.model_name,
            memory_settings=settings, context=PIPELINE_CONTEXT, thresholds=thresholds,
            conversation_id=conversation_ids.get(fact.source_message_id, ""),
            explicit_only=not settings.auto_extraction,
        )
        outcomes[outcome.value] += 1
    return outcomes


def _llm_pii_pass(pending: list[Message]) -> None:
    """With Gemini on, a second PII check (seed 000 §7.2) before anything is extracted from the text.

    The regex pass already masked the stored text at ingestion; this catches what patterns miss
    (addresses, passport numbers) and re-masks the stored message too.
    """
    check = get_pii_second_pass()
    if check is None:
        return
    for message in pending:
        if message.role != MessageRole.USER:
            continue
        flagged = check(message.content)
        if flagged:
            message.content = mask_substrings(message.content, flagged)
            message.pii_kinds = sorted(set(message.pii_kinds) | {"llm"})
            message.save(update_fields=["content", "pii_kinds"])


def process_scope(*, user_id: int, character_slug: str, lock_timeout_ms: int | None = None,
                  message_ids: list[int] | None = None) -> dict:
    """Process up to BATCH pending messages of one scope (only `message_ids`, if given); return counts.

    With `lock_timeout_ms`, waiting for another worker that holds the scope gives up after that
    long (django.db.OperationalError), for callers that must answer quickly.
    """
    # Load the models before taking the scope: a worker still loading them would hold the lock for
    # seconds while a prompt waits for it (read-your-writes right after start).
    ensure_models_loaded()
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return {"processed": 0}  # the account was withdrawn after the job was enqueued: nothing left to process
    character = Character.objects.get(pk=character_slug)
    with transaction.atomic():
        if lock_timeout_ms is not None:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = %s", [f"{int(lock_timeout_ms)}ms"])
        lock_scope(user_id=user.pk, character_slug=character.pk)
        claim = (Message.objects.select_for_update(skip_locked=True, of=("self",)).select_related("conversation")
                 .filter(user=user, character=character, processed_at__isnull=True))
        if message_ids is not None:
            claim = claim.filter(pk__in=message_ids)
        pending = list(claim.order_by("created_at", "id")[:BATCH])
        if not pending:
            return {"processed": 0}
        _llm_pii_pass(pending)
        settings = memory_settings_for(user)
        outcomes: Counter = Counter()
        emotions: list[str] = []
        if settings.remembers(character):
            result = get_extractor().extract(turns=_turns_with_context(pending),
                                             existing=_existing_facts(user, character))
            # Only from the pending messages (the earlier ones are context): the user's facts from the user's
            # messages, the character's own words (speaker "character") from the assistant's.
            spoken_by = {m.external_id: ("user" if m.role == MessageRole.USER else "character") for m in pending}
            result.facts = [fact for fact in result.facts
                            if spoken_by.get(fact.source_message_id) == fact.speaker
                            or (not fact.source_message_id and fact.speaker == "user")]
            # Corrections for every extractor ("유성 안 살아, 세종으로 이사왔어"): the local one marks them itself.
            result.facts = corrected_facts(result.facts, {m.external_id: m.content for m in pending
                                                          if m.role == MessageRole.USER})
            sent_at = {m.external_id: m.local_created_at for m in pending}
            result.facts = [
                replace(fact, event_date=sent_at[fact.source_message_id].date())
                if fact.event_date is None and fact.kind == "episodic" and fact.source_message_id in sent_at else fact
                for fact in result.facts
            ]
            conversation_ids = {m.external_id: m.conversation.external_id for m in pending}
            outcomes = _write_memories(user=user, character=character, result=result, settings=settings,
                                       conversation_ids=conversation_ids)
            rules_merge(user=user, character=character, avoid_topics=result.avoid_topics,
                        special_dates=[{"date": d.date, "description": d.description} for d in result.special_dates],
                        identity=result.identity, context=PIPELINE_CONTEXT)
            emotions = [fact.emotion for fact in result.facts if fact.emotion]
        relationship_apply(user=user, character=character, signals=RelationshipSignals(
            user_messages=[m.content for m in pending if m.role == MessageRole.USER], emotions=emotions))
        numbers = heartbeat_numbers(user=user, character=character)
        heartbeat_record(user=user, character=character, context=PIPELINE_CONTEXT,
                         stats=HeartbeatStats(emotion_keywords=emotions, **numbers))
        Message.objects.filter(pk__in=[m.pk for m in pending]).update(processed_at=timezone.now())
        save_requested = {m.conversation_id for m in pending
                          if m.role == MessageRole.USER and SAVE_REQUEST.search(m.content)}
    logger.info("processed %d messages of scope user=%s character=%s: %s", len(pending), user.pk, character.pk,
                dict(outcomes))
    return {"processed": len(pending), "save_requested": sorted(save_requested), **dict(outcomes)}


def process_scope_isolating(*, user_id: int, character_slug: str) -> dict:
    """Like process_scope, but a message that makes the batch fail cannot block the others.

    When the batch fails, its messages are processed one at a time: each one that fails gets its
    attempt and error class recorded (message_record_failure) and is left for a later run; the
    others are processed. Database connectivity errors are raised (nothing is the message's fault).
    Returns process_scope's counts plus `failed` (messages that failed in this call).
    """
    try:
        return {**process_scope(user_id=user_id, character_slug=character_slug), "failed": 0}
    except TRANSIENT_ERRORS:
        raise
    except Exception as error:  # noqa: BLE001 - find the bad message instead of failing the scope
        logger.warning("batch of scope user=%s character=%s failed (%s); processing its messages one by one",
                       user_id, character_slug, error_code(error))
    ids = list(Message.objects.filter(user_id=user_id, character_id=character_slug, processed_at__isnull=True)
               .order_by("created_at", "id").values_list("pk", flat=True)[:BATCH])
    total: Counter = Counter()
    save_requested: set[int] = set()
    for message_id in ids:
        try:
            result = process_scope(user_id=user_id, character_slug=character_slug, message_ids=[message_id])
        except TRANSIENT_ERRORS:
            raise
        except Exception as error:  # noqa: BLE001 - record it and go on with the next message
            total["failed"] += 1
            message_record_failure(message_id=message_id, code=error_code(error))
            continue
        save_requested.update(result.pop("save_requested", []))
        total.update(result)
    return {"processed": 0, "failed": 0, **dict(total), "save_requested": sorted(save_requested)}


def message_record_failure(*, message_id: int, code: str) -> bool:
    """Count a failed processing run of a pending message; quarantine it at JOB_MAX_ATTEMPTS.

    Plain UPDATEs that never read the row (it may be the unreadable one). Returns whether the
    message is now quarantined: out of the queue (processed_at set) with its error code kept.
    """
    pending = Message.objects.filter(pk=message_id, processed_at__isnull=True)
    pending.update(process_attempts=F("process_attempts") + 1, last_error_code=code[:64])
    now = timezone.now()
    quarantined = bool(pending.filter(process_attempts__gte=django_settings.JOB_MAX_ATTEMPTS)
                       .update(processed_at=now, quarantined_at=now))
    row = Message.objects.filter(pk=message_id).values_list("user_id", "character_id", "process_attempts").first()
    if row is not None:
        logger.error("message %s of scope user=%s character=%s failed processing: %s (attempt %d%s)",
                     message_id, row[0], row[1], code, row[2], ", quarantined" if quarantined else "")
    return quarantined
