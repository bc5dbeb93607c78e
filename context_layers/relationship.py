"""Relationship axes (seed 003 §2-1): small nudges per processed message, score and level recomputed.

score = affection·0.35 + trust·0.25 + familiarity·0.25 + respect·0.15 − rivalry·0.1
level: >=80 intimate, >=60 close_friend, >=40 friend, >=20 acquaintance, else stranger
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .models import IntimacyLevel, Relationship

_SECRET = re.compile(r"(비밀|아무(한테|도)\s*(모르|말\s*안|말하지)|처음\s*말하|너한테만|secret|never told|don'?t tell)",
                     re.IGNORECASE)
_THANKS = re.compile(r"(고마워|고맙|감사|최고야|대단하|멋있|천재|thank|you'?re the best|amazing)", re.IGNORECASE)
_CONFLICT = re.compile(r"(짜증|싫어|꺼져|실망|화나|닥쳐|hate you|shut up|annoying|disappointed)", re.IGNORECASE)
_POSITIVE_EMOTIONS = {"기쁨", "행복", "설렘", "흥분", "joy", "happy", "excited"}
_NEGATIVE_EMOTIONS = {"분노", "짜증", "anger"}


@dataclass(frozen=True)
class RelationshipSignals:
    user_messages: list[str]
    emotions: list[str]


def _clamp(value: float) -> float:
    return max(0.0, min(100.0, value))


def intimacy(relationship: Relationship) -> tuple[float, str]:
    score = _clamp(relationship.affection * 0.35 + relationship.trust * 0.25 + relationship.familiarity * 0.25
                   + relationship.respect * 0.15 - relationship.rivalry * 0.1)
    for threshold, level in ((80, IntimacyLevel.INTIMATE), (60, IntimacyLevel.CLOSE_FRIEND),
                             (40, IntimacyLevel.FRIEND), (20, IntimacyLevel.ACQUAINTANCE)):
        if score >= threshold:
            return score, level
    return score, IntimacyLevel.STRANGER


def relationship_apply(*, user, character, signals: RelationshipSignals) -> Relationship:
    """Nudge the axes by what the new messages show; call inside the scope's transaction."""
    relationship, _ = Relationship.objects.select_for_update().get_or_create(user=user, character=character)
    for text in signals.user_messages:
        relationship.familiarity = _clamp(relationship.familiarity + 0.4)
        if _SECRET.search(text):
            relationship.trust = _clamp(relationship.trust + 3)
        if _THANKS.search(text):
            relationship.respect = _clamp(relationship.respect + 1)
            relationship.affection = _clamp(relationship.affection + 1)
        if _CONFLICT.search(text):
            relationship.rivalry = _clamp(relationship.rivalry + 2)
            relationship.affection = _clamp(relationship.affection - 1)
    for emotion in signals.emotions:
        if emotion in _POSITIVE_EMOTIONS:
            relationship.affection = _clamp(relationship.affection + 0.5)
        elif emotion in _NEGATIVE_EMOTIONS:
            relationship.rivalry = _clamp(relationship.rivalry + 0.5)
    relationship.intimacy_score, relationship.intimacy_level = intimacy(relationship)
    relationship.save()
    return relationship
