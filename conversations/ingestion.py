"""Storing posted chat messages: validated, PII-masked, encrypted, idempotent on message id.

A message id names one message of one (user, character) scope: posting it again with the same
content (role, time, text) is a duplicate and stores nothing; with other content, or into another
conversation, it is a 409.

The messages and the follow-up job are committed together: the job is enqueued on commit, and any
message still pending later is picked up by the `process_pending` sweep, so none is ever lost.

While the user has memory off, or paused for the character, nothing posted is kept: the batch is validated
and answered (`kept` false), and no message, conversation or job is written.
"""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction

from context_layers.services import user_context_get_or_create
from core.errors import ApplicationError, ConflictError
from core.timing import phase
from memories.masking import mask_with_kinds
from memories.selectors import memory_settings_for

from .models import Conversation, ConversationStatus, Message

MESSAGE_ID_CONSTRAINT = "message_unique_external_id"


@dataclass(frozen=True)
class IncomingMessage:
    external_id: str
    role: str
    content: str
    created_at: datetime


@dataclass(frozen=True)
class IngestResult:
    conversation: Conversation | None  # None when nothing was kept
    accepted: int
    duplicates: int
    kept: bool = True  # False: memory is off or paused for the character, nothing was stored


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
    """The conversation, locked for this transaction; created (with the scope's layers) on its first message.
    An existing one costs one statement: the common case of a chat in progress (issue 11 §2)."""
    existing = Conversation.objects.select_for_update().filter(user=user, character=character,
                                                              external_id=external_id).first()
    if existing is not None:
        return existing
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


def message_digest(masked_text: str) -> str:
    """Keyed hash of a message's stored (masked) text: compares re-posted content, reveals nothing."""
    key = settings.MEMORY_HASH_KEY.encode("utf-8")
    return hmac.new(key, b"message:" + masked_text.encode("utf-8"), hashlib.sha256).hexdigest()


def _same_message(stored: Message, incoming: IncomingMessage, digest: str) -> bool:
    """Whether a stored message is the one being posted again (same role, time, offset and text)."""
    if (stored.role, stored.created_at, stored.utc_offset_minutes) != (
            incoming.role, incoming.created_at, _offset_minutes(incoming.created_at)):
        return False
    if stored.content_digest:
        return stored.content_digest == digest
    if "llm" in stored.pii_kinds:  # stored before digests and re-masked since: the text cannot be compared
        return True
    return message_digest(stored.content) == digest


def _check_known(*, conversation: Conversation, known: dict[str, Message], messages: list[IncomingMessage],
                 digests: dict[str, str]) -> None:
    """Refuse ids already stored with other content, or already stored in another conversation."""
    changed = [m.external_id for m in messages
               if m.external_id in known and not _same_message(known[m.external_id], m, digests[m.external_id])]
    if changed:
        raise ConflictError("A message id was already stored with different content.", code="MESSAGE_ID_CONFLICT",
                            fields={"messages": [f"{message_id}: stored with different content"
                                                 for message_id in changed[:10]]})
    elsewhere = [m.external_id for m in messages
                 if m.external_id in known and known[m.external_id].conversation_id != conversation.pk]
    if elsewhere:
        raise _duplicate_elsewhere(elsewhere)


def _duplicate_elsewhere(message_ids: list[str]) -> ConflictError:
    return ConflictError("A message id is already stored in another conversation of this character.",
                         code="DUPLICATE_MESSAGE_ID",
                         fields={"messages": [f"{message_id}: already in another conversation"
                                              for message_id in message_ids[:10]]})


def _is_message_id_clash(error: IntegrityError) -> bool:
    diag = getattr(error.__cause__, "diag", None)
    return getattr(diag, "constraint_name", None) == MESSAGE_ID_CONSTRAINT


def messages_ingest(*, user, character, conversation_id: str, messages: list[IncomingMessage],
                    on_commit=None) -> IngestResult:
    """Store new messages of one conversation; ids already stored with the same content count as duplicates.

    A rejected batch stores nothing: 409 MESSAGE_ID_CONFLICT for a stored id with other content,
    409 DUPLICATE_MESSAGE_ID for a stored id of another conversation. `on_commit` (e.g. enqueueing
    the processing job) runs only if the transaction commits.
    """
    _check_batch(messages)
    if not memory_settings_for(user).remembers(character):
        return IngestResult(conversation=None, accepted=0, duplicates=0, kept=False)
    with phase("mask"):
        masked = {message.external_id: mask_with_kinds(message.content) for message in messages}
        digests = {message_id: message_digest(result.text) for message_id, result in masked.items()}
    # A clash on the unique index means a concurrent request stored one of these ids first (each request
    # locks only its own conversation). Its row is committed now, so a second pass answers as if the two
    # had run one after the other; a third racer is answered 409 outright.
    for last_try in (False, True):
        try:
            with phase("store"):  # the transaction; the job enqueued on its commit reports "enqueue"
                return _ingest(user=user, character=character, conversation_id=conversation_id, messages=messages,
                               masked=masked, digests=digests, on_commit=on_commit)
        except IntegrityError as error:
            if not _is_message_id_clash(error):
                raise
            if last_try:
                raise _duplicate_elsewhere([message.external_id for message in messages]) from None
    raise AssertionError("unreachable")


def _ingest(*, user, character, conversation_id: str, messages: list[IncomingMessage], masked: dict,
            digests: dict[str, str], on_commit) -> IngestResult:
    with transaction.atomic():
        conversation = _conversation_for_update(user=user, character=character, external_id=conversation_id,
                                                first_at=messages[0].created_at)
        known = {
            stored.external_id: stored for stored in
            Message.objects.filter(user=user, character=character,
                                   external_id__in=[message.external_id for message in messages])
        }
        _check_known(conversation=conversation, known=known, messages=messages, digests=digests)
        new = [message for message in messages if message.external_id not in known]
        if new and conversation.message_count and new[0].created_at < conversation.last_message_at:
            raise ApplicationError("Messages must not be older than the conversation's last message.",
                                   code="MESSAGES_OUT_OF_ORDER",
                                   fields={"messages": [f"{new[0].external_id} is older than the last stored message"]})
        rows = []
        for message in new:
            result = masked[message.external_id]
            rows.append(Message(
                conversation=conversation, user=user, character=character, external_id=message.external_id,
                role=message.role, content=result.text, pii_kinds=list(result.kinds),
                content_digest=digests[message.external_id], created_at=message.created_at,
                utc_offset_minutes=_offset_minutes(message.created_at),
            ))
        Message.objects.bulk_create(rows)
        if rows:
            conversation.message_count += len(rows)
            conversation.last_message_at = max(conversation.last_message_at, rows[-1].created_at)
            changed = ["message_count", "last_message_at", "last_received_at"]  # auto_now is set on save
            if conversation.status == ConversationStatus.ENDED:
                conversation.status, conversation.ended_at, conversation.end_reason = ConversationStatus.OPEN, None, ""
                changed += ["status", "ended_at", "end_reason"]
            conversation.save(update_fields=changed)
            if on_commit is not None:
                transaction.on_commit(on_commit)
    return IngestResult(conversation=conversation, accepted=len(rows), duplicates=len(messages) - len(rows))
