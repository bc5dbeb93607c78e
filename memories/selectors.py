"""Reads for memories."""
from __future__ import annotations

import numpy as np
from django.db.models import BooleanField, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from audit.models import AuditLog

from .models import MemoryItem, MemorySettings


def memory_scope(*, user, character) -> QuerySet[MemoryItem]:
    return MemoryItem.objects.filter(user=user, character=character)


def memory_characters(*, user) -> list[str]:
    """The slugs of the characters the user has memories with."""
    return list(MemoryItem.objects.filter(user=user).order_by().values_list("character_id", flat=True).distinct())


def memory_live(*, user, character) -> QuerySet[MemoryItem]:
    """Active, unarchived, unexpired items of one (user, character) scope."""
    now = timezone.now()
    return memory_scope(user=user, character=character).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=now), is_active=True, archived_at__isnull=True
    )


_ITEM = '"memories_memoryitem".'


def memory_visible_where(*, user, character, memory_settings: MemorySettings, include_archived: bool = False,
                         category: str | None = None) -> tuple[str, list] | None:
    """Which of a scope's memories a reader may show or use, as a SQL condition on memories_memoryitem
    (None: nothing, memory is off). The one definition every read of a user's memories applies:

    - memory turned off, or paused for this character → nothing (`character=None`: every character the user has
      not paused memory for);
    - categories the user does not allow → left out (an empty allow-list allows all);
    - only active, unarchived and unexpired items — unless `include_archived` (the list's option, for the user's
      own history): then archived, expired and replaced (superseded, merged) items too.

    It is SQL so that the prompt's single retrieval statement can embed it as is: building and compiling
    the equivalent queryset on every prompt request cost more than preparing the rest of the statement.
    memory_visible() wraps it in a queryset for every other reader.
    """
    if character is None:  # every character of the user (seed 004's /users/me/memories): the paused ones left out
        if not memory_settings.enabled:
            return None
        conditions = [f'{_ITEM}"user_id" = %s', f'NOT ({_ITEM}"character_id" = ANY(%s))']
        params: list = [getattr(user, "pk", user), list(memory_settings.paused_characters)]
    elif not memory_settings.remembers(character):
        return None
    else:
        conditions = [f'{_ITEM}"user_id" = %s', f'{_ITEM}"character_id" = %s']
        params = [getattr(user, "pk", user), getattr(character, "pk", character)]
    if not include_archived:
        conditions += [f'{_ITEM}"is_active"', f'{_ITEM}"archived_at" IS NULL', f'({_ITEM}"expires_at" IS NULL OR {_ITEM}"expires_at" > %s)']
        params.append(timezone.now())
    if memory_settings.allowed_categories:
        conditions.append(f'{_ITEM}"category" = ANY(%s)')
        params.append(list(memory_settings.allowed_categories))
    if category:
        conditions.append(f'{_ITEM}"category" = %s')
        params.append(category)
    return " AND ".join(conditions), params


def memory_visible(*, user, character, memory_settings: MemorySettings | None = None,
                   include_archived: bool = False, category: str | None = None) -> QuerySet[MemoryItem]:
    """The scope's memories a reader may show or use (memory_visible_where), as a queryset: the memory
    list, the context overview's count, the export and the memory load endpoint read through it.
    Pass `memory_settings` when the caller has already read them, to save a query.
    """
    where = memory_visible_where(
        user=user, character=character, include_archived=include_archived, category=category,
        memory_settings=memory_settings if memory_settings is not None else memory_settings_for(user))
    if where is None:
        return MemoryItem.objects.none()
    return MemoryItem.objects.filter(RawSQL(*where, output_field=BooleanField()))


def memory_list(*, user, character, include_archived: bool = False, category: str | None = None) -> QuerySet[MemoryItem]:
    """The visible memories of a scope, most important and newest first."""
    return memory_visible(user=user, character=character, include_archived=include_archived, category=category) \
        .order_by("-importance", "-created_at", "-id")


def memory_stored(*, user, character) -> QuerySet[MemoryItem]:
    """Everything still kept of a scope, for its owner's memory page: active items, archived ones included, whatever
    the settings (memory off hides them from every prompt, not from the person they are about), by category and
    newest first."""
    return memory_scope(user=user, character=character).filter(is_active=True).order_by("category", "-created_at", "-id")


def memory_of_user(*, user, memory_id: str, character=None) -> MemoryItem | None:
    """The memory `memory_id` (as sent in a URL) of `user` — with `character` when given — or None: another user's
    memory, a user never seen (None), and an id that is no id all read as no such memory."""
    if user is None or not (memory_id.isascii() and memory_id.isdigit() and len(memory_id) < 19):
        return None
    items = MemoryItem.objects.filter(user=user) if character is None else memory_scope(user=user, character=character)
    return items.filter(pk=int(memory_id)).first()


def memory_topics(*, memory_ids) -> dict[int, list]:
    """The topics of these memories (decrypted), by id: fetched for the few an answer shows, not with every row
    retrieval scores."""
    return {pk: topics or [] for pk, topics in MemoryItem.objects.filter(pk__in=list(memory_ids))
            .values_list("pk", "topics")}


def memory_live_count(*, user, character) -> int:
    return memory_scope(user=user, character=character).filter(is_active=True, archived_at__isnull=True).count()


def memory_settings_for(user) -> MemorySettings:
    """The user's settings, or unsaved defaults when they never changed any."""
    return MemorySettings.objects.filter(user=user).first() or MemorySettings(user=user)


HISTORY_LIMIT = 50


def memory_history(*, item: MemoryItem) -> dict:
    """A memory's versions and what happened to each: the chain of items it replaced and that replaced it (oldest
    first; a correction keeps the old row, inactive, so the owner can see both values), and the audit trail of
    every item of the chain (actions, field names and numbers only)."""
    chain = {item.pk: item}
    newer = item
    while newer.superseded_by_id and len(chain) < HISTORY_LIMIT and newer.superseded_by_id not in chain:
        newer = MemoryItem.objects.get(pk=newer.superseded_by_id)
        chain[newer.pk] = newer
    frontier = list(chain)
    while frontier and len(chain) < HISTORY_LIMIT:
        older = list(MemoryItem.objects.filter(superseded_by_id__in=frontier).exclude(pk__in=list(chain))
                     [: HISTORY_LIMIT - len(chain)])
        chain.update((old.pk, old) for old in older)
        frontier = [old.pk for old in older]
    versions = sorted(chain.values(), key=lambda version: (version.created_at, version.pk))
    events = list(AuditLog.objects.filter(object_type="memory_item", object_id__in=[str(pk) for pk in chain])
                  .order_by("created_at", "id"))
    return {"versions": versions, "events": events}


SEARCH_SCAN_LIMIT = 5000


def memory_search(*, user, character=None, include_archived: bool = False, query: str = "") -> list[MemoryItem]:
    """The user's visible memories (one character, or every one), newest first, those whose text contains `query`
    (case and spacing ignored). The text is encrypted at rest, so the match runs here on the decrypted rows —
    never a plaintext index in the database. Scans at most SEARCH_SCAN_LIMIT memories (plans cap a scope at 200)."""
    items = memory_visible(user=user, character=character, include_archived=include_archived) \
        .order_by("-created_at", "-id")[:SEARCH_SCAN_LIMIT]
    needle = "".join((query or "").casefold().split())
    if not needle:
        return list(items)
    return [item for item in items
            if needle in "".join(f"{item.content} {item.subject_value} {' '.join(map(str, item.topics or []))}"
                                 .casefold().split())]


def memory_embeddings(memory_ids: list[int]) -> dict[int, np.ndarray]:
    """The stored embeddings of these memories (those that have one), by id: a few rows the caller already read."""
    if not memory_ids:
        return {}
    rows = MemoryItem.objects.filter(pk__in=memory_ids, embedding__isnull=False).values_list("pk", "embedding")
    return {pk: vector for pk, vector in rows}
