"""Operator redaction (issue 9 §5): a value an operator strikes out is replaced everywhere the scope holds it.

The operator picks what to redact — memory items, messages, summaries, layer fields of one (user, character)
scope — and a reason code. The value each one holds (a fact's value, or the whole text) is replaced by REDACTED in
every row of the scope that carries it: memory content and subject values, the messages (the source message
included), conversation summaries and their topics, and the layer documents. A redacted memory leaves every
prompt; embeddings of changed rows are recomputed from the new text. One transaction; one content-free audit row
per redacted object (actor, reason code, how many rows were rewritten). There is no undo: the old value is kept
nowhere, not even in the audit trail.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from audit.services import AuditContext, audit_record
from context_layers.models import UserContext
from core.errors import ApplicationError
from memories.embeddings import embed_in_request, get_embedder
from memories.hashing import content_hash
from memories.lexical import lexical_keys
from memories.models import MemoryItem
from memories.selectors import memory_scope
from memories.services import lock_scope

from .models import ConversationSummary, Message

REDACTED = "[삭제됨]"
# Why an operator redacts: recorded as a code, never as free text (free text could repeat the value).
REDACTION_REASONS = {
    "user_request": "The user asked for it",
    "sensitive": "Sensitive personal data",
    "legal": "Legal request",
    "incorrect": "Wrong or harmful content",
    "other": "Other",
}
LAYERS = ("heartbeat", "identity", "soul", "tools")
_MIN_VALUE = 2  # a one-character value would shred every text of the scope


@dataclass
class RedactionTargets:
    memory_ids: list[int] = field(default_factory=list)
    message_ids: list[int] = field(default_factory=list)
    summary_ids: list[int] = field(default_factory=list)
    layer_fields: list[str] = field(default_factory=list)  # "identity.userSet.nickname", "tools.avoidTopics"


def _scrub(text: str, values: list[str]) -> str:
    for value in values:  # longest first, so a value inside another is not cut up first
        text = text.replace(value, REDACTED)
    return text


def _scrub_document(document, values: list[str]):
    if isinstance(document, str):
        return _scrub(document, values)
    if isinstance(document, list):
        return [_scrub_document(item, values) for item in document]
    if isinstance(document, dict):
        return {key: _scrub_document(item, values) for key, item in document.items()}
    return document


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    return []


def _layer_value(context_row: UserContext, path: str):
    layer, *keys = path.split(".")
    if layer not in LAYERS or not keys:
        raise ApplicationError(f"Unknown layer field {path!r}.", code="VALIDATION_ERROR",
                               fields={"layer_fields": ["layer.key[.key]"]})
    value = getattr(context_row, layer) or {}
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _set_layer_value(document: dict, keys: list[str]) -> dict:
    document = dict(document)
    node = document
    for key in keys[:-1]:
        node[key] = dict(node.get(key) or {})
        node = node[key]
    current = node.get(keys[-1])
    node[keys[-1]] = [REDACTED for _ in current] if isinstance(current, list) else REDACTED
    return document


def scope_redact(*, user, character, targets: RedactionTargets, reason: str, context: AuditContext) -> dict:
    """Redact `targets` of the (user, character) scope and scrub their values from the whole scope. Return how many
    rows of each kind were rewritten."""
    if reason not in REDACTION_REASONS:
        raise ApplicationError("Pick a reason.", code="INVALID_REASON", fields={"reason": sorted(REDACTION_REASONS)})
    with transaction.atomic():
        lock_scope(user_id=user.pk, character_slug=character.slug)
        memories = list(memory_scope(user=user, character=character).filter(pk__in=targets.memory_ids))
        messages = list(Message.objects.filter(user=user, character=character, pk__in=targets.message_ids))
        summaries = list(ConversationSummary.objects.filter(
            conversation__user=user, conversation__character=character, pk__in=targets.summary_ids))
        context_row = UserContext.objects.filter(user=user, character=character).first()
        if len(memories) + len(messages) + len(summaries) + len(targets.layer_fields) == 0:
            raise ApplicationError("Nothing of this user and character to redact.", code="NOTHING_TO_REDACT")
        if targets.layer_fields and context_row is None:
            raise ApplicationError("This scope has no layers.", code="NOTHING_TO_REDACT")

        values: set[str] = set()
        for item in memories:
            values.add(item.subject_value or item.content)
        values.update(message.content for message in messages)
        values.update(summary.summary for summary in summaries)
        for path in targets.layer_fields:
            values.update(_strings(_layer_value(context_row, path)))
        ordered = sorted((v.strip() for v in values if len(v.strip()) >= _MIN_VALUE and v.strip() != REDACTED),
                         key=len, reverse=True)

        counts = {"memories": _scrub_memories(user, character, ordered, {m.pk for m in memories}),
                  "messages": 0, "summaries": 0, "layers": 0}
        for message in Message.objects.filter(user=user, character=character):
            scrubbed = REDACTED if message.pk in targets.message_ids else _scrub(message.content, ordered)
            if scrubbed != message.content:
                message.content = scrubbed
                message.save(update_fields=["content"])
                counts["messages"] += 1
        for summary in ConversationSummary.objects.filter(conversation__user=user, conversation__character=character):
            text = REDACTED if summary.pk in targets.summary_ids else _scrub(summary.summary, ordered)
            topics = _scrub_document(summary.topics, ordered)
            if (text, topics) != (summary.summary, summary.topics):
                summary.summary, summary.topics = text, topics
                summary.save(update_fields=["summary", "topics"])
                counts["summaries"] += 1
        if context_row is not None:
            changed = []
            for layer in LAYERS:
                document = _scrub_document(getattr(context_row, layer) or {}, ordered)
                for path in targets.layer_fields:
                    name, *keys = path.split(".")
                    if name == layer:
                        document = _set_layer_value(document, keys)
                if document != (getattr(context_row, layer) or {}):
                    setattr(context_row, layer, document)
                    changed.append(layer)
            if changed:
                context_row.save(update_fields=[*changed, "updated_at"])
                counts["layers"] = len(changed)

        details = {"reason": reason, **{f"{name}_rewritten": number for name, number in counts.items()}}
        audited = ([("memory_item", item.pk) for item in memories] + [("message", m.pk) for m in messages]
                   + [("conversation_summary", s.pk) for s in summaries]
                   + [(f"layer:{path.split('.')[0]}", context_row.pk) for path in targets.layer_fields])
        for object_type, object_id in audited:
            audit_record(context=context, action="redacted", object_type=object_type, object_id=object_id,
                         target_user_id=user.pk, target_user_ref=user.get_username(), character_slug=character.slug,
                         changed_fields=["value"], details=details)
    return counts


def _scrub_memories(user, character, values: list[str], redacted_ids: set[int]) -> int:
    """Rewrite the scope's memories that hold a value; the redacted ones leave every prompt (deactivated), and so
    does one whose new text equals another live memory. Changed rows get new lexical keys and embeddings."""
    changed: list[MemoryItem] = []
    for item in memory_scope(user=user, character=character).order_by("id"):
        content = _scrub(item.content, values)
        subject_value = REDACTED if (item.pk in redacted_ids and item.subject_value) else _scrub(item.subject_value, values)
        if item.pk in redacted_ids and content == item.content:
            content = REDACTED
        if (content, subject_value) == (item.content, item.subject_value) and item.pk not in redacted_ids:
            continue
        item.content, item.subject_value = content, subject_value
        item.content_hash = content_hash(content)
        item.lexical_keys = lexical_keys(f"{content} {subject_value}")
        if item.pk in redacted_ids:
            item.is_active = False
        changed.append(item)
    live_hashes = set(memory_scope(user=user, character=character).filter(is_active=True)
                      .exclude(pk__in=[item.pk for item in changed]).values_list("content_hash", flat=True))
    for item in changed:
        if item.is_active and item.content_hash in live_hashes:
            item.is_active = False  # now the same text as a live memory: one is enough
        if item.is_active:
            live_hashes.add(item.content_hash)
    live = [item for item in changed if item.is_active]
    embedder = get_embedder()
    vectors = embed_in_request([item.content for item in live], embedder=embedder) if live else []
    for item, vector in zip(live, vectors):  # one embedding call for every rewritten live memory
        item.embedding, item.embedding_model = vector, embedder.model_name
    for item in changed:
        if not item.is_active:
            item.embedding, item.embedding_model = None, ""
        item.save(update_fields=["content", "subject_value", "content_hash", "lexical_keys", "is_active", "embedding",
                                 "embedding_model", "updated_at"])
    return len(changed)
