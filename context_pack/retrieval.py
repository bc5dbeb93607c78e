"""Hybrid retrieval of one scope's memories for a message (seed 003 §3 and §11, tuned).

score = 0.40·vector similarity + 0.30·lexical overlap + 0.12·importance + 0.05·strength
        + 0.08·recency + 0.15 for a structured (subject) fact
Seed 003 used sim·0.7 + importance·0.2 + strength·0.1; lexical overlap (keyed hashes of content
words) is what finds "178" for "키 몇이라 그랬지?" when the embedding alone would not, and structured
facts get a lift over raw episodes because they are the distilled form of what the user said.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, F, FloatField, Q, Value, When
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast, Greatest
from django.utils import timezone
from pgvector.django import CosineDistance

from memories.categories import STATE_CATEGORIES
from memories.lexical import lexical_keys
from memories.models import MemoryItem
from memories.subjects import IDENTITY_SUBJECTS

WEIGHTS = {"vector": 0.40, "lexical": 0.30, "importance": 0.12, "strength": 0.05, "recency": 0.08, "structured": 0.15}
RANKED_LIMIT = 60
IDENTITY_LIMIT = 80
STATE_LIMIT = 40


@dataclass
class ScoredMemory:
    item: MemoryItem
    score: float


@dataclass
class RetrievedMemories:
    identity: list[ScoredMemory]
    state: list[ScoredMemory]
    ranked: list[ScoredMemory]
    outdated_values: set[str]  # superseded values of corrected facts, no longer true


def _live(user, character, allowed_categories: list[str]):
    now = timezone.now()
    items = MemoryItem.objects.filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=now),
        user=user, character=character, is_active=True, archived_at__isnull=True,
    )
    if allowed_categories:
        items = items.filter(category__in=allowed_categories)
    return items.defer("embedding", "lexical_keys")


def _scored(queryset, *, query_vector, query_keys: list[str]):
    lexical = RawSQL(
        "cardinality(ARRAY(SELECT unnest(lexical_keys) INTERSECT SELECT unnest(%s::varchar[])))::float",
        (query_keys,), output_field=FloatField(),
    )
    vector = (Value(1.0) - CosineDistance("embedding", query_vector)) if query_vector is not None else Value(0.0)
    age_days = RawSQL("GREATEST(EXTRACT(EPOCH FROM (now() - memories_memoryitem.created_at)) / 86400.0, 0)", (),
                      output_field=FloatField())
    queryset = queryset.annotate(
        vec=Greatest(Cast(vector, FloatField()), Value(0.0)),
        lex=lexical,
        recency=Value(1.0) / (Value(1.0) + age_days / Value(30.0)),
    )
    lexical_norm = F("lex") / Value(float(max(1, min(len(query_keys), 4))))
    structured = Case(When(subject_key="", then=Value(0.0)), default=Value(WEIGHTS["structured"]),
                      output_field=FloatField())
    return queryset.annotate(score=(
        structured
        + Value(WEIGHTS["vector"]) * F("vec")
        + Value(WEIGHTS["lexical"]) * lexical_norm
        + Value(WEIGHTS["importance"]) * Cast(F("importance"), FloatField()) / Value(10.0)
        + Value(WEIGHTS["strength"]) * F("strength")
        + Value(WEIGHTS["recency"]) * F("recency")
    ))


def outdated_values(*, user, character) -> set[str]:
    """Values a correction replaced ("노원" after "이제 신촌 살아"), unless still current for some fact."""
    scope = MemoryItem.objects.filter(user=user, character=character).exclude(subject_key="")
    old = {value.strip() for value in scope.filter(is_active=False, superseded_by__isnull=False)
           .values_list("subject_value", flat=True)}
    current = {value.strip() for value in scope.filter(is_active=True).values_list("subject_value", flat=True)}
    return {value for value in old - current if len(value) >= 2}


def retrieve(*, user, character, message: str, query_vector, allowed_categories: list[str]) -> RetrievedMemories:
    live = _live(user, character, allowed_categories)
    keys = lexical_keys(message) if message else []
    scored = _scored(live, query_vector=query_vector, query_keys=keys)
    identity = scored.filter(subject_key__in=IDENTITY_SUBJECTS).order_by("-importance", "-score")[:IDENTITY_LIMIT]
    state = scored.filter(category__in=STATE_CATEGORIES).exclude(subject_key="") \
        .exclude(subject_key__in=IDENTITY_SUBJECTS).order_by("-score")[:STATE_LIMIT]
    others = scored.exclude(subject_key__in=IDENTITY_SUBJECTS).exclude(
        Q(category__in=STATE_CATEGORIES) & ~Q(subject_key=""))
    return RetrievedMemories(
        outdated_values=outdated_values(user=user, character=character),
        identity=[ScoredMemory(item, item.score) for item in identity],
        state=[ScoredMemory(item, item.score) for item in state],
        ranked=[ScoredMemory(item, item.score) for item in others.order_by("-score")[:RANKED_LIMIT]],
    )
