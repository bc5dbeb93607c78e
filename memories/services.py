"""Writes for memories. Each opens its own transaction and writes its audit rows in it."""
from __future__ import annotations

import zlib
from dataclasses import dataclass, replace
from datetime import datetime

from django.apps import apps
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from accounts.selectors import tier_policy_for_user
from audit.services import AuditContext, audit_record
from characters.selectors import characters_unknown
from core.errors import ApplicationError, ConflictError, NotFoundError

from .categories import MemoryCategory, MemoryKind, MemorySource
from .embeddings import embed_in_request, get_embedder
from .extraction.base import ChatTurn
from .extraction.factory import get_summarizer
from .hashing import content_hash, normalise_content
from .lexical import lexical_keys
from .masking import mask_text
from .models import MemoryItem, MemorySettings
from .selectors import memory_live_count, memory_scope, memory_settings_for
from .subjects import is_single_valued


@dataclass(frozen=True)
class MemoryInput:
    content: str
    category: str = MemoryCategory.OTHER
    kind: str = MemoryKind.SEMANTIC
    subject_key: str = ""
    subject_value: str = ""
    importance: int = 5
    confidence: float = 1.0
    emotion: str = ""
    emotion_intensity: float = 0.0
    source: str = MemorySource.INFERRED
    source_conversation_id: str = ""
    source_message_id: str = ""
    expires_at: datetime | None = None
    topics: tuple[str, ...] = ()

    def masked(self) -> "MemoryInput":
        """This input with its free text normalised and PII-masked (the content words and hash come from it)."""
        return replace(self, content=mask_text(normalise_content(self.content)),
                       subject_key=mask_text(self.subject_key)[:100], subject_value=mask_text(self.subject_value),
                       emotion=mask_text(self.emotion)[:32],
                       topics=tuple(mask_text(str(topic))[:50] for topic in self.topics[:10]))


def lock_scope(*, user_id: int, character_slug: str) -> None:
    """Serialise writers of one (user, character) scope until the transaction ends."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [int(user_id) % 2**31, zlib.crc32(character_slug.encode()) % 2**31])


def audit_memory_change(context: AuditContext, action: str, item: MemoryItem, *, fields=(), details=None,
                        user_ref: str | None = None) -> None:
    """Audit one change to a memory (ids and field names only). `user_ref` saves loading the user."""
    audit_record(
        context=context, action=action, object_type="memory_item", object_id=item.pk,
        target_user_id=item.user_id, target_user_ref=user_ref if user_ref is not None else item.user.get_username(),
        character_slug=item.character_id, changed_fields=fields, details=details,
    )


def memory_make_room(*, user, character, context: AuditContext) -> list[int]:
    """Apply the plan's cap: archive the least important, oldest items (return their ids: seed 001 §4.2 tells the
    user which); refuse after a downgrade."""
    cap = tier_policy_for_user(user).memory_cap
    if cap is None:
        return []
    live = memory_live_count(user=user, character=character)
    if live > cap:
        # Only a downgrade leaves a scope above its cap: keep what exists readable, add nothing.
        raise ConflictError(
            f"This plan keeps at most {cap} memories and {live} already exist; new memories are refused.",
            code="MEMORY_LIMIT_REACHED", extra={"limit": cap, "count": live},
        )
    if live < cap:
        return []
    evict = list(
        memory_scope(user=user, character=character)
        .filter(is_active=True, archived_at__isnull=True)
        .order_by("importance", "created_at", "id")[: live - cap + 1]
    )
    now = timezone.now()
    archive_context = AuditContext(**{**context.__dict__, "trigger": "tier_policy"})
    for item in evict:
        item.archived_at = now
        item.save(update_fields=["archived_at", "updated_at"])
        audit_memory_change(archive_context, "archived", item, fields=["archived_at"], details={"cap": cap})
    return [item.pk for item in evict]


def memory_deactivate(old: MemoryItem, successor: MemoryItem, context: AuditContext, *, reason: str) -> None:
    """Deactivate `old` as superseded by `successor` (a newer value, a correction) and audit it."""
    old.is_active = False
    old.superseded_by = successor
    old.save(update_fields=["is_active", "superseded_by", "updated_at"])
    audit_memory_change(context, "deactivated", old, fields=["is_active", "superseded_by"],
                        details={"reason": reason, "superseded_by": successor.pk},
                        user_ref=successor.user.get_username())


def memory_insert(*, user, character, data: MemoryInput, content_hash: str, context: AuditContext,
                  embedding=None, embedding_model: str = "", event_date=None) -> tuple[MemoryItem, int]:
    """The one place a memory row is created, whoever writes it (the pipeline's fact writing, the API, the
    demo): the plan's cap first (ApplicationError when a downgraded plan refuses), then the row with its lexical
    keys, its audit row, and — for a single-valued subject — the older values it supersedes. `data` is masked.
    Return the item and how many older values it superseded. Call inside the scope's locked transaction."""
    evicted = memory_make_room(user=user, character=character, context=context)
    item = MemoryItem.objects.create(
        user=user, character=character, content=data.content, content_hash=content_hash,
        category=data.category, kind=data.kind if data.kind in MemoryKind.values else MemoryKind.SEMANTIC,
        subject_key=data.subject_key[:100], subject_value=data.subject_value[:500], importance=data.importance,
        confidence=data.confidence, emotion=data.emotion[:32],
        emotion_intensity=max(0.0, min(1.0, data.emotion_intensity)), source=data.source,
        source_conversation_id=data.source_conversation_id[:128], source_message_id=data.source_message_id[:128],
        expires_at=data.expires_at, event_date=event_date, embedding=embedding, topics=list(data.topics),
        embedding_model=embedding_model if embedding is not None else "",
        lexical_keys=lexical_keys(f"{data.content} {data.subject_value}"),
    )
    set_fields = [name for name, value in data.__dict__.items() if value not in ("", None)]
    audit_memory_change(context, "created", item, fields=set_fields, details={"source": data.source})
    superseded = []
    if item.subject_key and is_single_valued(item.subject_key) and item.source != MemorySource.CHARACTER:
        superseded = list(memory_scope(user=user, character=character)
                          .filter(is_active=True, archived_at__isnull=True, subject_key=item.subject_key)
                          .exclude(pk=item.pk).exclude(source=MemorySource.CHARACTER))
    for old in superseded:
        memory_deactivate(old, item, context, reason="superseded")
    item.evicted_ids = evicted  # archived by the plan's cap to make room for this one
    return item, len(superseded)


def memory_create(*, user, character, data: MemoryInput, context: AuditContext) -> tuple[MemoryItem, bool]:
    """Store one memory in the scope. Return (item, created); an equal active item is returned as is."""
    data = data.masked()
    content = data.content
    if not content:
        raise ApplicationError("Memory content is empty.", code="VALIDATION_ERROR", fields={"content": ["empty"]})
    settings = memory_settings_for(user)
    if not settings.remembers(character):
        raise ConflictError("The user has turned memory off for this character.", code="MEMORY_DISABLED")
    if not settings.allows(data.category):
        raise ConflictError(f"The user does not allow memories of category {data.category!r}.",
                            code="CATEGORY_NOT_ALLOWED")
    with transaction.atomic():
        lock_scope(user_id=user.pk, character_slug=character.pk)
        return _store(user=user, character=character, data=data, context=context)


def _store(*, user, character, data: MemoryInput, context: AuditContext, event_date=None) -> tuple[MemoryItem, bool]:
    """Store masked `data` in the scope unless an equal live memory is there: (that one, False) or (the new one,
    True), embedded in the request when the embedder answers. Call inside the scope's locked transaction."""
    digest = content_hash(data.content)
    existing = memory_scope(user=user, character=character).filter(is_active=True, content_hash=digest).first()
    if existing is not None:
        return existing, False
    embedder = get_embedder()
    # Embedding service down or slow: store the item without a vector; the backfill job embeds it later.
    vector = embed_in_request([data.content], embedder=embedder)[0]
    item, _ = memory_insert(user=user, character=character, data=data, content_hash=digest, context=context,
                            embedding=vector, embedding_model=embedder.model_name, event_date=event_date)
    return item, True


def memory_delete(*, item: MemoryItem, context: AuditContext) -> None:
    """Delete one memory for good; the audit row keeps its id, never its text."""
    with transaction.atomic():
        audit_memory_change(context, "deleted", item, details={"category": item.category})
        item.delete()


def memory_correct(*, item: MemoryItem, text: str, context: AuditContext) -> MemoryItem:
    """The user marks a memory wrong and says what is true: `text` (PII-masked like every write) replaces it as an
    explicit memory of the same category and subject, and the wrong one is deactivated as corrected — never shown
    again. One transaction; audited with ids only."""
    data = MemoryInput(content=text, category=item.category, kind=item.kind, subject_key=item.subject_key,
                       subject_value=text if item.subject_key else "", importance=max(item.importance, 7),
                       source=MemorySource.EXPLICIT, expires_at=None).masked()
    if not data.content:
        raise ApplicationError("Say what is right.", code="VALIDATION_ERROR", fields={"content": ["empty"]})
    with transaction.atomic():
        lock_scope(user_id=item.user_id, character_slug=item.character_id)
        item = MemoryItem.objects.select_for_update().get(pk=item.pk)
        if not item.is_active:
            raise ConflictError("This memory was already replaced.", code="MEMORY_ALREADY_REPLACED")
        if content_hash(data.content) == item.content_hash:
            raise ApplicationError("That is what it says already.", code="VALIDATION_ERROR",
                                   fields={"content": ["unchanged"]})
        successor, _ = _store(user=item.user, character=item.character, data=data, context=context,
                              event_date=item.event_date)
        item.refresh_from_db(fields=["is_active"])
        if item.is_active:  # a single-valued subject's insert has superseded it already
            memory_deactivate(item, successor, context, reason="corrected")
    return successor


def memory_archive(*, item: MemoryItem, archived: bool, context: AuditContext) -> MemoryItem:
    """Archive a memory (kept, out of every prompt and the default list) or bring it back. Bringing one back into a
    scope at its plan's cap is refused (409 MEMORY_LIMIT_REACHED) rather than archiving another in its place."""
    with transaction.atomic():
        lock_scope(user_id=item.user_id, character_slug=item.character_id)
        item = MemoryItem.objects.select_for_update().get(pk=item.pk)
        if archived == (item.archived_at is not None):
            return item
        if not archived:
            cap = tier_policy_for_user(item.user).memory_cap
            live = memory_live_count(user=item.user, character=item.character_id)
            if cap is not None and live >= cap:
                raise ConflictError(f"This plan keeps at most {cap} live memories.", code="MEMORY_LIMIT_REACHED",
                                    extra={"limit": cap, "count": live})
        item.archived_at = timezone.now() if archived else None
        item.save(update_fields=["archived_at", "updated_at"])
        audit_memory_change(context, "archived" if archived else "reactivated", item, fields=["archived_at"])
    return item


def memory_summarize(*, user, character, turns: list[tuple[str, str]], manual_summary: str = "", session_id: str = "",
                     context: AuditContext) -> tuple[MemoryItem, bool]:
    """Seed 001 §2.1 / §3.1: one memory summing up a stretch of conversation — the user's own summary when given,
    else the summarizer's (Gemini when configured, the local one otherwise; a failed LLM call falls back to the
    local summary, seed 001 §4.1). The messages are masked before any summarizer sees them. Stored through
    memory_create (the one create path). Returns (item, created)."""
    if manual_summary.strip():
        data = MemoryInput(content=manual_summary, category=MemoryCategory.EVENT, kind=MemoryKind.EPISODIC,
                           importance=7, source=MemorySource.EXPLICIT, source_conversation_id=session_id)
    else:
        now = timezone.now()
        masked = [ChatTurn(message_id=str(index), role=role, content=mask_text(text), created_at=now)
                  for index, (role, text) in enumerate(turns) if text.strip()]
        if not masked:
            raise ApplicationError("Nothing to summarize: send messages or a manualSummary.", code="VALIDATION_ERROR",
                                   fields={"messages": ["empty"]})
        result = get_summarizer().summarize(turns=masked)
        # Seed 001 §4.1: a summary that fails keeps part of the (masked) text itself rather than nothing.
        summary = result.summary or " ".join(turn.content for turn in masked if turn.role == "user")[:500] \
            or " ".join(turn.content for turn in masked)[:500]
        data = MemoryInput(content=summary, category=MemoryCategory.EVENT, kind=MemoryKind.EPISODIC,
                           importance=result.importance, emotion=result.emotion, topics=tuple(result.topics),
                           source=MemorySource.INFERRED, source_conversation_id=session_id)
    return memory_create(user=user, character=character, data=data, context=context)


def memory_delete_all(*, user, context: AuditContext) -> int:
    """Delete every memory the user has with any character (seed 004's "delete all my memories"): memories only —
    messages, summaries and layers stay (context_delete_all erases those too). One transaction, one audit row
    with the count."""
    with transaction.atomic():
        for slug in sorted(set(MemoryItem.objects.filter(user=user).values_list("character_id", flat=True))):
            lock_scope(user_id=user.pk, character_slug=slug)
        count, _ = MemoryItem.objects.filter(user=user).delete()
        audit_record(context=context, action="deleted", object_type="memory_items", object_id=user.pk,
                     target_user_id=user.pk, target_user_ref=user.get_username(), details={"memories_deleted": count})
    return count


def memory_delete_scope(*, user, character) -> int:
    """Delete every memory of one scope and return the count; the caller audits the scope."""
    count, _ = memory_scope(user=user, character=character).delete()
    return count


# Fields recomputed from others, never compared or set by an edit.
_DERIVED_FIELDS = {"id", "content_hash", "lexical_keys", "embedding", "embedding_model", "created_at", "updated_at"}
EDITABLE_FIELDS = ("content", "importance", "category")  # what PATCH /api/context/{c}/memory/{id} may change


def memory_update(*, item: MemoryItem, changes: dict, context: AuditContext) -> MemoryItem:
    """The one edit path of a memory (PATCH, the operator's form): apply `changes` (or what the caller already set
    on `item`), mask the text, re-derive the hash, search keys and embedding of new content, and audit the fields
    that changed with importance and confidence before and after (numbers, never content). New content equal to
    another live memory of the scope is refused (409 MEMORY_DUPLICATE); empty content is refused (400)."""
    for name, value in changes.items():
        setattr(item, name, value)
    masked = MemoryInput(content=item.content, subject_key=item.subject_key, subject_value=item.subject_value,
                         emotion=item.emotion).masked()
    item.content, item.subject_key, item.subject_value, item.emotion = (
        masked.content, masked.subject_key, masked.subject_value, masked.emotion)
    if not item.content:
        raise ApplicationError("Memory content is empty.", code="VALIDATION_ERROR", fields={"content": ["empty"]})
    with transaction.atomic():
        lock_scope(user_id=item.user_id, character_slug=item.character_id)
        stored = MemoryItem.objects.select_for_update().get(pk=item.pk)
        fields = [f.attname for f in MemoryItem._meta.concrete_fields if f.attname not in _DERIVED_FIELDS]
        changed = [name for name in fields if getattr(item, name) != getattr(stored, name)]
        if not changed:
            return item
        if "content" in changed or "subject_value" in changed:
            item.lexical_keys = lexical_keys(f"{item.content} {item.subject_value}")
        if "content" in changed:
            item.content_hash = content_hash(item.content)
            if item.is_active and memory_scope(user=item.user_id, character=item.character_id).filter(
                    is_active=True, content_hash=item.content_hash).exclude(pk=item.pk).exists():
                raise ConflictError("Another memory of this scope says exactly that.", code="MEMORY_DUPLICATE")
            embedder = get_embedder()  # a remote embedder that is down: stored without one, backfilled later
            item.embedding, item.embedding_model = embed_in_request([item.content], embedder=embedder)[0], embedder.model_name
        item.save()
        audit_memory_change(context, "updated", item, fields=changed, details={
            "importance_from": stored.importance, "importance_to": item.importance,
            "confidence_from": stored.confidence, "confidence_to": item.confidence})
    return item


# What a user may change of their settings (GET/PUT /api/context/settings, the settings page).
SETTINGS_FIELDS = ("enabled", "auto_extraction", "allowed_categories", "retention_days", "paused_characters")


def memory_settings_update(*, user, changes: dict, context: AuditContext) -> MemorySettings:
    """Change some of a user's memory settings (keys of SETTINGS_FIELDS; the others keep their value) and audit
    which changed. Takes effect at once: memory off (or paused for a character) empties the memory layer of every
    read, stops extraction of what is pending, and keeps no new message (conversations.ingestion)."""
    unknown = set(changes) - set(SETTINGS_FIELDS)
    if unknown:
        raise ValueError(f"not a settings field: {sorted(unknown)}")
    changes = dict(changes)
    for name in ("allowed_categories", "paused_characters"):  # sets, kept sorted
        if name in changes:
            changes[name] = sorted(set(changes[name]))
    missing = characters_unknown(slugs=changes.get("paused_characters", ()))
    if missing:
        raise NotFoundError("pausedCharacters names characters that do not exist.", code="CHARACTER_NOT_FOUND",
                            fields={"pausedCharacters": [f"unknown: {missing}"]})
    with transaction.atomic():
        settings, _ = MemorySettings.objects.select_for_update().get_or_create(user=user)
        changed = [name for name in SETTINGS_FIELDS if name in changes and getattr(settings, name) != changes[name]]
        for name in changed:
            setattr(settings, name, changes[name])
        if changed:
            memory_settings_save(settings=settings, changed_fields=changed, context=context)
    return settings


def memory_consent_set(*, user, agreed: bool, context: AuditContext) -> MemorySettings:
    """The user answers the consent notice of their memory pages: agreeing records when and turns memory on;
    declining turns it off (nothing more is remembered, and what is kept stays out of every prompt)."""
    with transaction.atomic():
        settings, _ = MemorySettings.objects.select_for_update().get_or_create(user=user)
        changed = []
        if agreed and settings.consented_at is None:
            settings.consented_at = timezone.now()
            changed.append("consented_at")
        if settings.enabled != agreed:
            settings.enabled = agreed
            changed.append("enabled")
        if changed:
            memory_settings_save(settings=settings, changed_fields=changed, context=context)
    return settings


def memory_settings_save(*, settings, changed_fields: list[str], context: AuditContext) -> None:
    """Save a user's memory settings and audit which fields changed."""
    with transaction.atomic():
        settings.save()
        audit_record(context=context, action="updated", object_type="memory_settings", object_id=settings.pk,
                     target_user_id=settings.user_id, target_user_ref=settings.user.get_username(),
                     changed_fields=changed_fields)


def memory_mark_used(*, memory_ids: list[int]) -> int:
    """Count one use of each memory put into a prompt (seed 004 `touch`); no audit row: not a change of content."""
    return MemoryItem.objects.filter(pk__in=memory_ids).update(
        usage_count=F("usage_count") + 1, last_used_at=timezone.now())


STORED_PII_CONTEXT = AuditContext(actor_label="command:mask_stored_pii", trigger="command")


def _batches(rows, size: int):
    """The rows of a queryset in primary-key order, `size` at a time (rows may change as we go)."""
    last = None
    while True:
        page = list((rows.filter(pk__gt=last) if last is not None else rows).order_by("pk")[:size])
        if not page:
            return
        yield page
        last = page[-1].pk


def _memory_remask(item: MemoryItem, *, dry_run: bool) -> bool:
    """Mask one stored memory; recompute what derives from its text; fold it into an equal active memory."""
    masked = MemoryInput(content=item.content, subject_key=item.subject_key, subject_value=item.subject_value,
                         emotion=item.emotion).masked()
    texts = ("content", "subject_key", "subject_value", "emotion")
    if all(getattr(masked, name) == getattr(item, name) for name in texts):
        return False
    if dry_run:
        return True
    with transaction.atomic():
        lock_scope(user_id=item.user_id, character_slug=item.character_id)
        for name in texts:
            setattr(item, name, getattr(masked, name))
        item.content_hash = content_hash(item.content)
        item.lexical_keys = lexical_keys(f"{item.content} {item.subject_value}")
        fields = [*texts, "content_hash", "lexical_keys"]
        equal = memory_scope(user=item.user_id, character=item.character_id).filter(
            is_active=True, content_hash=item.content_hash).exclude(pk=item.pk).first() if item.is_active else None
        if equal is not None:  # "내 번호 010-1111-2222" and "내 번호 010-3333-4444" are one memory once masked
            item.is_active, item.superseded_by = False, equal
            fields += ["is_active", "superseded_by"]
        item.save(update_fields=[*fields, "updated_at"])
        audit_memory_change(STORED_PII_CONTEXT, "updated", item, fields=fields, details={"reason": "pii_masked"})
    return True


def stored_pii_mask(*, dry_run: bool = False, batch: int = 500) -> dict[str, int]:
    """Mask personal data stored before every write was masked; return the values changed per column.

    Every column declared with a masker is read back and rewritten where masking changes it. A memory's
    content hash and lexical keys are recomputed with its text, and a memory that becomes equal to another
    active memory of its scope is deactivated as superseded by it. (Its embedding is kept: a vector of the
    sentence, not its digits.) Each memory changed is audited; other columns get one audit row with counts.
    """
    changed = {"memories.MemoryItem": sum(
        _memory_remask(item, dry_run=dry_run)
        for page in _batches(MemoryItem.objects.defer("embedding"), batch) for item in page)}
    for model in apps.get_models():
        if model is MemoryItem:
            continue
        for field in model._meta.concrete_fields:
            if getattr(field, "masker", None) is None:
                continue
            count = 0
            for page in _batches(model._base_manager.only("pk", field.attname), batch):
                for obj in page:
                    value = getattr(obj, field.attname)
                    masked = field.masker(value)
                    if masked != value:
                        count += 1
                        if not dry_run:
                            model._base_manager.filter(pk=obj.pk).update(**{field.attname: masked})
            changed[f"{model._meta.label}.{field.name}"] = count
            if count and not dry_run:
                with transaction.atomic():
                    audit_record(context=STORED_PII_CONTEXT, action="updated", object_type=model._meta.label_lower,
                                 changed_fields=[field.name], details={"values": count, "reason": "pii_masked"})
    return changed
