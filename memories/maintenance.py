"""Background upkeep of memories (seed 003 §5-§6, seed 004 §2.2): decay, consolidation, promotion,
pruning and expiry. One service per job, each working on one (user, character) scope.

Every job may run twice, or on two workers at once, without doing its work twice:
- decay is time-based: an item remembers up to when it has decayed (`strength_decayed_at`,
  `confidence_decayed_at`), so a second run in the same period finds nothing due;
- row jobs claim their rows with `select_for_update(skip_locked=True)` and filter on the state they
  change (an item promoted to semantic is no longer episodic), so a row is handled once;
- jobs that look at the scope as a whole (consolidation, the scope cap) also take the scope's
  advisory lock, the one the write path holds, and re-read the scope under it.

Nothing is deleted: merged, expired and pruned items are deactivated or archived, so what the user
said stays recoverable until they delete it. Audit rows carry ids, field names and counts only.
"""
from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta
from typing import Callable, Iterator

import numpy as np
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from audit.models import AuditTrigger
from audit.services import AuditContext, audit_record
from core.jobs import JobRun, scope_key

from .categories import MemoryKind, MemorySource
from .hashing import content_hash, normalise_content
from .masking import mask_text
from .models import MemoryItem, MemorySettings
from .selectors import memory_live, memory_scope
from .services import audit_memory_change, lock_scope
from .subjects import IDENTITY_SUBJECTS

logger = logging.getLogger(__name__)

DECAY_CONTEXT = AuditContext(actor_label="system:maintenance", trigger=AuditTrigger.DECAY)
SYSTEM_CONTEXT = AuditContext(actor_label="system:maintenance", trigger=AuditTrigger.SYSTEM)

# Strength decay (seed 003 §5): per-day factor by kind, raised by emotion and importance.
STRENGTH_BASE_FACTOR = {MemoryKind.EPISODIC: 0.95, MemoryKind.EMOTIONAL: 0.97, MemoryKind.SEMANTIC: 0.98}
STRENGTH_MAX_FACTOR = 0.995
STRENGTH_DECAY_ABOVE = 0.1  # weaker items are left alone (and are pruning candidates)
PROTECTED_STRENGTH_FLOOR = 0.5  # identity facts and explicit memories

# Confidence decay (seed 004 §2.2): inferred items lose 5% per 30 days unused, never below 0.1.
CONFIDENCE_PERIOD = timedelta(days=30)
CONFIDENCE_FACTOR = 0.95
CONFIDENCE_FLOOR = 0.1

# Consolidation, promotion and pruning (seed 003 §6).
CONSOLIDATION_SIMILARITY = 0.80
CONSOLIDATION_WINDOW = 200
CONSOLIDATION_SEPARATOR = " / "
PROMOTION_MENTIONS = 3
PROMOTED_IMPORTANCE = 8
PRUNE_STRENGTH_BELOW = 0.15

Counts = dict[str, int]
ScopeService = Callable[..., Counts]

_ITEM_STATE_FIELDS = (
    "id", "user_id", "character_id", "kind", "subject_key", "source", "importance", "strength", "confidence",
    "emotion_intensity", "mentioned_count", "usage_count", "last_used_at", "created_at",
    "strength_decayed_at", "confidence_decayed_at", "is_active", "archived_at", "expires_at",
)


# --- scopes -----------------------------------------------------------------------------------------

def maintenance_scope_batches(*, batch_size: int = 500) -> Iterator[list[tuple[int, str]]]:
    """Yield the (user_id, character_id) scopes holding active items, in keyset-paginated batches."""
    scopes = (
        MemoryItem.objects.filter(is_active=True).order_by("user_id", "character_id")
        .values_list("user_id", "character_id").distinct()
    )
    last: tuple[int, str] | None = None
    while True:
        page = scopes if last is None else scopes.filter(
            Q(user_id__gt=last[0]) | Q(user_id=last[0], character_id__gt=last[1]))
        batch = list(page[:batch_size])
        if not batch:
            return
        yield batch
        last = batch[-1]


def maintenance_run(service: ScopeService, *, now: datetime | None = None, batch_size: int = 500) -> Counts:
    """Run one job over every scope and return the summed counts.

    A scope that fails is logged (ids and error class only: messages may quote row values),
    counted and recorded durably (core.JobFailure, job `maintenance:<service>`); the others still
    run, and the next run retries it since every job is idempotent. A scope failing
    JOB_MAX_ATTEMPTS runs in a row is skipped until JOB_QUARANTINE_RETRY_HOURS have passed.
    """
    now = now or timezone.now()
    totals: Counter[str] = Counter(scopes=0, failed_scopes=0, skipped_scopes=0)
    run = JobRun(f"maintenance:{service.__name__}", log=logger)
    for batch in maintenance_scope_batches(batch_size=batch_size):
        for user_id, character_id in batch:
            totals["scopes"] += 1
            done, counts = run.run(
                scope_key(user_id, character_id),
                lambda user_id=user_id, character_id=character_id: service(user_id=user_id, character_id=character_id,
                                                                           now=now),
                user_id=user_id, character_slug=character_id)
            if done:
                totals.update(counts)
    totals["failed_scopes"], totals["skipped_scopes"] = run.failed, run.skipped
    return dict(totals)


# --- helpers ----------------------------------------------------------------------------------------

def _live(user_id: int, character_id: str) -> QuerySet[MemoryItem]:
    return memory_live(user=user_id, character=character_id)


def _user_ref(user_id: int) -> str:
    return get_user_model().objects.get(pk=user_id).get_username()


def _is_protected(item: MemoryItem) -> bool:
    """Identity facts and what the user asked us to remember keep a floor and are never pruned."""
    return item.source == MemorySource.EXPLICIT or item.subject_key in IDENTITY_SUBJECTS


def _audit_summary(job: str, *, user_id: int, character_id: str, fields, counts: Counts) -> None:
    """One row per scope and run for the decay jobs, which touch too many rows to audit each."""
    audit_record(context=DECAY_CONTEXT, action="updated", object_type="memory_maintenance", object_id=job,
                 target_user_id=user_id, target_user_ref=_user_ref(user_id), character_slug=character_id,
                 changed_fields=fields, details=counts)


# --- 1. strength decay ------------------------------------------------------------------------------

def strength_decay_factor(*, kind: str, emotion_intensity: float, importance: int) -> float:
    """Return the per-day strength factor of seed 003 §5 (importance scaled from 1-10 to 0.1-1)."""
    base = STRENGTH_BASE_FACTOR.get(kind, STRENGTH_BASE_FACTOR[MemoryKind.SEMANTIC])
    weight = emotion_intensity * 0.4 + (importance / 10) * 0.3
    return min(STRENGTH_MAX_FACTOR, base + (1 - base) * weight)


def memory_decay_strength(*, user_id: int, character_id: str, now: datetime | None = None) -> Counts:
    """Apply the whole days of strength decay due since each item last decayed."""
    now = now or timezone.now()
    decayed = floored = 0
    with transaction.atomic():
        due = list(
            _live(user_id, character_id)
            .filter(strength__gt=STRENGTH_DECAY_ABOVE)
            .annotate(decay_anchor=Coalesce("strength_decayed_at", "created_at"))
            .filter(decay_anchor__lte=now - timedelta(days=1))
            .only(*_ITEM_STATE_FIELDS)
            .select_for_update(skip_locked=True)
        )
        for item in due:
            anchor = item.strength_decayed_at or item.created_at
            days = (now - anchor).days
            factor = strength_decay_factor(kind=item.kind, emotion_intensity=item.emotion_intensity,
                                           importance=item.importance)
            strength = item.strength * factor ** days
            if _is_protected(item) and strength < PROTECTED_STRENGTH_FLOOR:
                strength = min(item.strength, PROTECTED_STRENGTH_FLOOR)  # never raised, only held
                floored += 1
            if strength < item.strength:
                decayed += 1
            item.strength = strength
            item.strength_decayed_at = anchor + timedelta(days=days)  # the part-day left counts next time
            item.updated_at = now
        MemoryItem.objects.bulk_update(due, ["strength", "strength_decayed_at", "updated_at"], batch_size=500)
        counts = {"items": len(due), "decayed": decayed, "floored": floored}
        if due:
            _audit_summary("strength_decay", user_id=user_id, character_id=character_id,
                           fields=["strength", "strength_decayed_at"], counts=counts)
    return counts


# --- 2. confidence decay ----------------------------------------------------------------------------

def memory_decay_confidence(*, user_id: int, character_id: str, now: datetime | None = None) -> Counts:
    """Lower the confidence of inferred items once per whole 30 days unused; explicit items keep theirs."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            _live(user_id, character_id)
            .filter(source=MemorySource.INFERRED, confidence__gt=CONFIDENCE_FLOOR)
            # The clock starts at the later of the last decay step and the last use.
            .annotate(confidence_anchor=Greatest(Coalesce("confidence_decayed_at", "created_at"),
                                                 Coalesce("last_used_at", "created_at")))
            .filter(confidence_anchor__lte=now - CONFIDENCE_PERIOD)
            .only(*_ITEM_STATE_FIELDS)
            .select_for_update(skip_locked=True)
        )
        for item in due:
            anchor = max(item.confidence_decayed_at or item.created_at, item.last_used_at or item.created_at)
            periods = (now - anchor) // CONFIDENCE_PERIOD
            item.confidence = max(CONFIDENCE_FLOOR, item.confidence * CONFIDENCE_FACTOR ** periods)
            item.confidence_decayed_at = anchor + periods * CONFIDENCE_PERIOD
            item.updated_at = now
        MemoryItem.objects.bulk_update(due, ["confidence", "confidence_decayed_at", "updated_at"], batch_size=500)
        counts = {"items": len(due), "decayed": len(due)}
        if due:
            _audit_summary("confidence_decay", user_id=user_id, character_id=character_id,
                           fields=["confidence", "confidence_decayed_at"], counts=counts)
    return counts


# --- 3. consolidation -------------------------------------------------------------------------------

def similar_groups(similarity: np.ndarray, threshold: float = CONSOLIDATION_SIMILARITY) -> list[list[int]]:
    """Group row indexes whose pairwise similarity is at least threshold (every pair, not a chain).

    Greedy in index order: each ungrouped index starts a group and takes every later ungrouped
    index similar to all members so far. Groups of one are left out.
    """
    grouped: set[int] = set()
    groups: list[list[int]] = []
    for seed in range(len(similarity)):
        if seed in grouped:
            continue
        group = [seed]
        for other in range(seed + 1, len(similarity)):
            if other not in grouped and all(similarity[other, member] >= threshold for member in group):
                group.append(other)
        if len(group) > 1:
            grouped.update(group)
            groups.append(group)
    return groups


def _unit_rows(items: list[MemoryItem]) -> tuple[list[MemoryItem], np.ndarray]:
    vectors = np.array([np.asarray(item.embedding, dtype=np.float64) for item in items]).reshape(len(items), -1)
    norms = np.linalg.norm(vectors, axis=1)
    usable = norms > 0
    return [item for item, ok in zip(items, usable) if ok], vectors[usable] / norms[usable, None]


def _latest(values):
    present = [value for value in values if value is not None]
    return max(present) if present else None


def _merged_fields(items: list[MemoryItem], unit_vectors: np.ndarray) -> dict:
    """Field values of the semantic item that replaces items (first the oldest)."""
    lead = max(items, key=lambda item: (item.importance, item.created_at))
    felt = max(items, key=lambda item: item.emotion_intensity)
    sources = {item.source for item in items}
    mean = unit_vectors.mean(axis=0)
    return {
        "category": lead.category,
        "importance": max(item.importance for item in items),
        "confidence": max(item.confidence for item in items),
        "strength": max(item.strength for item in items),
        "mentioned_count": sum(item.mentioned_count for item in items),
        "usage_count": sum(item.usage_count for item in items),
        "last_used_at": _latest(item.last_used_at for item in items),
        "event_date": _latest(item.event_date for item in items),
        "emotion": felt.emotion,
        "emotion_intensity": felt.emotion_intensity,
        # What the user asked us to remember stays explicit (and keeps its protections).
        "source": MemorySource.EXPLICIT if MemorySource.EXPLICIT in sources
        else (sources.pop() if len(sources) == 1 else MemorySource.INFERRED),
        # A merged memory lasts as long as its longest-lived original.
        "expires_at": None if any(item.expires_at is None for item in items)
        else max(item.expires_at for item in items),
        "embedding": (mean / np.linalg.norm(mean)).tolist(),
        "embedding_model": next((item.embedding_model for item in items if item.embedding_model), ""),
    }


def _merge(group: list[MemoryItem], unit_vectors: np.ndarray, *, user_ref: str) -> MemoryItem:
    group = sorted(group, key=lambda item: (item.created_at, item.pk))
    contents = list(dict.fromkeys(item.content for item in group))  # distinct, oldest first
    content = mask_text(normalise_content(CONSOLIDATION_SEPARATOR.join(contents)))  # joined parts may form a number
    digest = content_hash(content)
    # An earlier merge of the same texts may still be active: fold into it (one active item per text).
    target = (memory_scope(user=group[0].user_id, character=group[0].character_id)
              .filter(is_active=True, content_hash=digest).select_for_update().first())
    if target is None:
        target = MemoryItem.objects.create(
            user_id=group[0].user_id, character_id=group[0].character_id, content=content, content_hash=digest,
            kind=MemoryKind.SEMANTIC, **_merged_fields(group, unit_vectors),
        )
    else:
        folded = [target, *group]
        folded_vectors = _unit_rows(folded)[1] if target.embedding is not None else unit_vectors
        for name, value in _merged_fields(folded, folded_vectors).items():
            setattr(target, name, value)
        target.kind = MemoryKind.SEMANTIC
        target.archived_at = None
        target.save()
    audit_memory_change(SYSTEM_CONTEXT, "merged", target, user_ref=user_ref,
                fields=["content", "kind", "importance", "mentioned_count", "strength", "event_date", "embedding"],
                details={"count": len(group)})
    for original in group:
        original.is_active = False
        original.superseded_by = target
        original.save(update_fields=["is_active", "superseded_by", "updated_at"])
        audit_memory_change(SYSTEM_CONTEXT, "deactivated", original, user_ref=user_ref,
                    fields=["is_active", "superseded_by"], details={"reason": "merged", "superseded_by": target.pk})
    return target


def memory_consolidate(*, user_id: int, character_id: str, now: datetime | None = None) -> Counts:
    """Merge groups of similar live episodes (cosine >= 0.80) into one semantic item each.

    Only the scope's CONSOLIDATION_WINDOW most recent episodes with an embedding and no subject
    key are compared (structured facts are corrected by subject on write, not merged here).
    `now` is unused; every maintenance service takes it so maintenance_run can call them alike.
    """
    with transaction.atomic():
        lock_scope(user_id=user_id, character_slug=character_id)
        episodes = list(
            _live(user_id, character_id)
            .filter(kind=MemoryKind.EPISODIC, subject_key="", embedding__isnull=False)
            .select_for_update(skip_locked=True)
            .order_by("-created_at", "-id")[:CONSOLIDATION_WINDOW]
        )
        episodes, unit_vectors = _unit_rows(episodes) if episodes else ([], np.empty((0, 0)))
        groups = similar_groups(unit_vectors @ unit_vectors.T) if len(episodes) > 1 else []
        user_ref = _user_ref(user_id) if groups else ""
        for group in groups:
            _merge([episodes[index] for index in group], unit_vectors[group], user_ref=user_ref)
    return {"groups": len(groups), "merged": sum(len(group) for group in groups)}


# --- 4. promotion -----------------------------------------------------------------------------------

def memory_promote(*, user_id: int, character_id: str, now: datetime | None = None) -> Counts:
    """Turn live episodes mentioned PROMOTION_MENTIONS times or more into important semantic items."""
    with transaction.atomic():
        items = list(
            _live(user_id, character_id)
            .filter(kind=MemoryKind.EPISODIC, mentioned_count__gte=PROMOTION_MENTIONS)
            .only(*_ITEM_STATE_FIELDS)
            .select_for_update(skip_locked=True)
        )
        user_ref = _user_ref(user_id) if items else ""
        for item in items:
            before = item.importance
            item.kind = MemoryKind.SEMANTIC
            item.importance = max(item.importance, PROMOTED_IMPORTANCE)
            item.save(update_fields=["kind", "importance", "updated_at"])
            audit_memory_change(SYSTEM_CONTEXT, "updated", item, user_ref=user_ref, fields=["kind", "importance"],
                                details={"reason": "promoted", "mentioned_count": item.mentioned_count,
                                         "importance_from": before, "importance_to": item.importance})
    return {"promoted": len(items)}


# --- 5. pruning -------------------------------------------------------------------------------------

def _archive(items: list[MemoryItem], *, context: AuditContext, user_ref: str, now: datetime, details) -> None:
    for item in items:
        item.archived_at = now
        item.save(update_fields=["archived_at", "updated_at"])
        audit_memory_change(context, "archived", item, user_ref=user_ref, fields=["archived_at"], details=details)


def memory_prune(*, user_id: int, character_id: str, now: datetime | None = None) -> Counts:
    """Archive forgotten items, then archive the weakest beyond MEMORY_PRUNE_SCOPE_CAP.

    Forgotten: weak (strength < 0.15), never used, mentioned once, neither an identity fact nor
    explicit. Over the cap: lowest (importance, strength, created_at) first, identity facts never.
    Archived items stay readable with include_archived and come back when told again.
    """
    now = now or timezone.now()
    cap = settings.MEMORY_PRUNE_SCOPE_CAP
    with transaction.atomic():
        lock_scope(user_id=user_id, character_slug=character_id)
        live = _live(user_id, character_id)
        not_identity = ~Q(subject_key__in=IDENTITY_SUBJECTS)
        forgotten = list(
            live.filter(not_identity, strength__lt=PRUNE_STRENGTH_BELOW, usage_count=0, mentioned_count__lte=1)
            .exclude(source=MemorySource.EXPLICIT)
            .only(*_ITEM_STATE_FIELDS)
            .select_for_update(skip_locked=True)
        )
        excess = live.count() - len(forgotten) - cap
        over_cap = list(
            live.filter(not_identity).exclude(pk__in=[item.pk for item in forgotten])
            .only(*_ITEM_STATE_FIELDS)
            .select_for_update(skip_locked=True)
            .order_by("importance", "strength", "created_at", "id")[:excess]
        ) if excess > 0 else []
        user_ref = _user_ref(user_id) if forgotten or over_cap else ""
        _archive(forgotten, context=DECAY_CONTEXT, user_ref=user_ref, now=now, details={"reason": "weak"})
        _archive(over_cap, context=SYSTEM_CONTEXT, user_ref=user_ref, now=now,
                 details={"reason": "scope_cap", "cap": cap})
    return {"archived_weak": len(forgotten), "archived_over_cap": len(over_cap)}


# --- 6. expiry --------------------------------------------------------------------------------------

def _retention_cutoff(user_id: int, now: datetime) -> tuple[int | None, datetime | None]:
    days = MemorySettings.objects.filter(user_id=user_id).values_list("retention_days", flat=True).first()
    return (days, now - timedelta(days=days)) if days is not None else (None, None)


def memory_expire(*, user_id: int, character_id: str, now: datetime | None = None) -> Counts:
    """Deactivate items past their expires_at, and items older than the user's retention_days."""
    now = now or timezone.now()
    retention_days, cutoff = _retention_cutoff(user_id, now)
    with transaction.atomic():
        active = memory_scope(user=user_id, character=character_id).filter(is_active=True)
        past_due = list(active.filter(expires_at__lte=now).only(*_ITEM_STATE_FIELDS)
                        .select_for_update(skip_locked=True))
        too_old = list(
            active.filter(created_at__lt=cutoff).exclude(pk__in=[item.pk for item in past_due])
            .only(*_ITEM_STATE_FIELDS).select_for_update(skip_locked=True)
        ) if cutoff is not None else []
        user_ref = _user_ref(user_id) if past_due or too_old else ""
        for items, details in ((past_due, {"reason": "expires_at"}),
                               (too_old, {"reason": "retention", "retention_days": retention_days})):
            for item in items:
                item.is_active = False
                item.save(update_fields=["is_active", "updated_at"])
                audit_memory_change(SYSTEM_CONTEXT, "expired", item, user_ref=user_ref, fields=["is_active"],
                            details=details)
    return {"expired": len(past_due), "expired_retention": len(too_old)}

