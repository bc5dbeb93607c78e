"""Storing posted chat messages: validated, PII-masked, encrypted, idempotent on message id.

The messages and the follow-up job are committed together: the job is enqueued on commit, and any
message still pending later is picked up by the `process_pending` sweep, so none is ever lost.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction

from context_layers.services import user_context_get_or_create
from core.errors import ApplicationError
from memories.masking import mask_with_kinds

from .models import Conversation, ConversationStatus, Message


@dataclass(frozen=True)
class IncomingMessage:
    external_id: str
    role: str
    content: str
    created_at: datetime


@dataclass(frozen=True)
class IngestResult:
    conversation: Conversation
    accepted: int
    duplicates: int


def _offset_minutes(moment: datetime) -> int:
    offset = moment.utcoffset()
    return int(offset.total_seconds() // 60) if offset is not None else 0


def _check_batch(messages: list[IncomingMessage]) -> None:
    ids = [message.external_id for message in messages]
    repeated = sorted({message_id for message_id in ids if ids.count(message_id) > 1})
    if repeated:
        raise ApplicationError("Message ids must be unique within a batch.", code="DUPLICATE_MESSAGE_ID",
                               fields={"messages": [f"repeated id: {message_id}" for message_id in repeated[:10]]})
    for earlier, later in zip(messages, messages[1:]):
        if later.created_at < earlier.created_at:
            raise ApplicationError("Messages must be in chronological order (createdAt).",
                                   code="MESSAGES_OUT_OF_ORDER",
                                   fields={"messages": [f"{later.external_id} is earlier than {earlier.external_id}"]})


def _conversation_for_update(*, user, character, external_id: str, first_at: datetime) -> Conversation:
    try:
        with transaction.atomic():
            conversation, _ = Conversation.objects.select_for_update().get_or_create(
                user=user, character=character, external_id=external_id,
                defaults={"started_at": first_at, "last_message_at": first_at,
                          "scope": user_context_get_or_create(user=user, character=character)},
            )
    except IntegrityError:  # created by a concurrent request
        conversation = Conversation.objects.select_for_update().get(user=user, character=character,
                                                                    external_id=external_id)
    return conversation


def messages_ingest(*, user, character, conversation_id: str, messages: list[IncomingMessage],
                    on_commit=None) -> IngestResult:
    """Store new messages of one conversation; ids already stored count as duplicates.

    A rejected batch stores nothing. `on_commit` (e.g. enqueueing the processing job) runs only
    if the transaction commits.
    """
    _check_batch(messages)
    with transaction.atomic():
        conversation = _conversation_for_update(user=user, character=character, external_id=conversation_id,
                                                first_at=messages[0].created_at)
        known = set(
            Message.objects.filter(user=user, character=character,
                                   external_id__in=[message.external_id for message in messages])
            .values_list("external_id", flat=True)
        )
        new = [message for message in messages if message.external_id not in known]
        if new and conversation.message_count and new[0].created_at < conversation.last_message_at:
            raise ApplicationError("Messages must not be older than the conversation's last message.",
                                   code="MESSAGES_OUT_OF_ORDER",
                                   fields={"messages": [f"{new[0].external_id} is older than the last stored message"]})
        rows = []
        for message in new:
            masked = mask_with_kinds(message.content)
            rows.append(Message(
                conversation=conversation, user=user, character=character, external_id=message.external_id,
                role=message.role, content=masked.text, pii_kinds=list(masked.kinds), created_at=message.created_at,
                utc_offset_minutes=_offset_minutes(message.created_at),
            ))
        Message.objects.bulk_create(rows)
        if rows:
            conversation.message_count += len(rows)
            conversation.last_message_at = max(conversation.last_message_at, rows[-1].created_at)
            if conversation.status == ConversationStatus.ENDED:
                conversation.status, conversation.ended_at, conversation.end_reason = ConversationStatus.OPEN, None, ""
            conversation.save()
            if on_commit is not None:
                transaction.on_commit(on_commit)
    return IngestResult(conversation=conversation, accepted=len(rows), duplicates=len(messages) - len(rows))
