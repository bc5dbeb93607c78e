"""Write rules for extracted facts (seed 003 §3, §4, §16; seed 004 §3).

In order: the user's settings; exact duplicates (keyed content hash) reinforce; structured facts are
corrected by subject key (a single-valued subject keeps one current value, the old one is
deactivated and linked to its successor); episodes pass the embedding "surprise" filter; then the
plan's cap applies. Every change writes an audit row without content.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from enum import Enum

from django.conf import settings as django_settings
from pgvector.django import CosineDistance

from audit.services import AuditContext
from core.errors import ApplicationError

from .categories import MemorySource
from .extraction.base import ExtractedFact
from .extraction.changes import (CONTRAST, OWN_KINDS, RENAME, changed_value, old_values, without_contrasted,
                                 without_left)
from .extraction.corrections import (mentions, moved_event, moved_event_old_dates, substance, without_terms,
                                     without_words)
from .extraction.news import ended_by, ended_values, news_subjects, takes_effect
from .extraction.plausible import implausible
from .hashing import content_hash, normalise_content
from .lexical import lexical_keys
from .masking import mask_text
from .models import MemoryItem, MemorySettings
from .services import MemoryInput, audit_memory_change, memory_deactivate, memory_insert
from .truth import MIN_KEPT_CHARS, corrected_text, date_still_holds

logger = logging.getLogger(__name__)

SURPRISE_NEIGHBOURS = 50
# The character's words are hashed apart from the user's: the scope's unique (content_hash) constraint must not
# fold "나 제주도 살아" said by the character into the same words said by the user.
CHARACTER_HASH_PREFIX = "character\x00"


def _digest(content: str, *, character_said: bool) -> str:
    """The scope-unique hash of a memory's content, the character's words apart from the user's."""
    return content_hash(f"{CHARACTER_HASH_PREFIX}{content}" if character_said else content)


class WriteOutcome(str, Enum):
    CREATED = "created"
    REINFORCED = "reinforced"
    SUPERSEDED = "superseded"  # created, and an older value of the subject was deactivated
    SKIPPED = "skipped"
    REFUSED = "refused"


@dataclass(frozen=True)
class SurpriseThresholds:
    reinforce: float  # at or above: the same episode again — reinforce it, store nothing
    store: float  # at or above (below reinforce): predictable — store damped if important, else skip
    boost_below: float  # below: surprising — store with an importance boost

    @classmethod
    def from_settings(cls) -> "SurpriseThresholds":
        return cls(reinforce=django_settings.MEMORY_SURPRISE_REINFORCE, store=django_settings.MEMORY_SURPRISE_STORE,
                   boost_below=django_settings.MEMORY_SURPRISE_BOOST_BELOW)


def _reinforce(item: MemoryItem, context: AuditContext, *, reason: str) -> WriteOutcome:
    item.strength = min(1.0, item.strength + 0.2)
    item.mentioned_count += 1
    item.save(update_fields=["strength", "mentioned_count", "updated_at"])
    audit_memory_change(context, "updated", item, fields=["strength", "mentioned_count"], details={"reason": reason})
    return WriteOutcome.REINFORCED


def _nearest(live, embedding, embedding_model: str) -> tuple[MemoryItem | None, float]:
    """The most similar of the scope's recent live items (same embedding model), and its cosine similarity."""
    candidates = live.filter(embedding_model=embedding_model).exclude(embedding__isnull=True) \
        .order_by("-created_at")[:SURPRISE_NEIGHBOURS]
    nearest = (
        MemoryItem.objects.filter(pk__in=candidates.values("pk"))
        .annotate(distance=CosineDistance("embedding", embedding))
        .order_by("distance")
        .first()
    )
    return (nearest, 1.0 - nearest.distance) if nearest is not None else (None, 0.0)


def memory_write_fact(
    *, user, character, fact: ExtractedFact, embedding: list[float] | None, embedding_model: str,
    memory_settings: MemorySettings, context: AuditContext, thresholds: SurpriseThresholds,
    conversation_id: str = "", explicit_only: bool = False,
) -> WriteOutcome:
    """Apply the write rules to one extracted fact. Call inside the scope's locked transaction."""
    if explicit_only and not fact.explicit:
        return WriteOutcome.SKIPPED
    if not memory_settings.allows(fact.category):
        return WriteOutcome.SKIPPED
    # Facts come from masked messages, but an LLM may rephrase: compare, hash and store the masked form.
    fact = replace(fact, content=mask_text(normalise_content(fact.content)), value=mask_text(fact.value),
                   emotion=mask_text(fact.emotion), replaces=tuple(mask_text(term) for term in fact.replaces))
    content = fact.content
    if not content:
        return WriteOutcome.SKIPPED
    scope = MemoryItem.objects.filter(user=user, character=character).select_related("user")
    character_said = fact.speaker == "character"
    if character_said:
        # The character's own words: never a subject (nothing about the user is corrected by them), compared
        # only with what the character said before — the same words from the user stay a separate memory.
        fact = replace(fact, subject="", value="")
        scope = scope.filter(source=MemorySource.CHARACTER)
    else:
        scope = scope.exclude(source=MemorySource.CHARACTER)
    live = scope.filter(is_active=True, archived_at__isnull=True)
    targets: dict[int, tuple[str, ...]] = {}  # older memories that lose a changed weekday or time (extraction.changes)
    if not character_said and fact.kind != "semantic":
        # "결혼식 날짜가 바꼈어요 … 11월7일로 미뤘어요": the event's older dates are replaced like any corrected value,
        # beside what the message itself says no longer holds ("not tmrw the 21st anymore, now it's wed 2 sept")
        moved = moved_event(content)
        if moved is not None:
            fact = replace(fact, replaces=tuple(dict.fromkeys(fact.replaces + _moved_event_terms(live, moved))))
        else:  # "TRPG 모임이 이제 금요일 밤으로 바뀌었어요", "겜닉 밤샘여우로 바꿈": the older values of what changed
            changed = changed_value(content)
            if changed is not None:  # found in the user's memories and the character's ("월요일마다 보드게임이라니!")
                # an own kind's older values are the user's own (the character's words lose them too, below)
                everyone = live if changed.kind in OWN_KINDS else MemoryItem.objects.filter(
                    user=user, character=character, is_active=True, archived_at__isnull=True)
                # the values of the kind that changed that older memories naming the same thing gave it
                targets = _older_terms(everyone, lambda text: old_values(changed, text))
                kept = content  # the changing message says the old value too: it keeps its other words, as a
                # correction does
                if changed.kind in SCOPE_WIDE_CHANGES:  # a name or place is that thing's wherever it is said
                    old_terms = tuple(dict.fromkeys(term for terms in targets.values() for term in terms))
                    fact = replace(fact, replaces=tuple(dict.fromkeys(fact.replaces + old_terms)))
                    targets = {}
                    if old_terms:  # "Biscuit has a new name … she's Pierogi now"
                        kept = without_terms(without_left(content, changed), old_terms, keep=changed.new)
                    if changed.kind in ("name", RENAME):  # the clause giving the new name may say the old one too
                        kept = without_words(kept, old_terms)
                elif changed.kind == CONTRAST and targets:  # "지현이 부산 아니고 울산으로 간대"
                    kept = without_contrasted(content, changed)
                if kept != content and substance(kept) >= MIN_KEPT_CHARS:
                    content = kept
                    fact = replace(fact, content=kept)
        # "first day at fernwood today!!!", "이사 완료!!": the stored workplace or home no longer holds, whatever the
        # new one is (extraction.news)
        ended = _ended_by_news(live, content, fact.source_message_id)
        if ended:
            fact = replace(fact, replaces=tuple(dict.fromkeys(fact.replaces + ended)))
    digest = _digest(content, character_said=character_said)
    importance = max(1, min(10, int(fact.importance) + (2 if fact.explicit else 0)))

    same_text = scope.filter(is_active=True, content_hash=digest).first()
    if same_text is not None:
        if same_text.archived_at is not None:  # told again: bring it back
            same_text.archived_at = None
            same_text.save(update_fields=["archived_at", "updated_at"])
            audit_memory_change(context, "reactivated", same_text, fields=["archived_at"])
        return _reinforce(same_text, context, reason="same_text")

    if fact.subject in PLAUSIBILITY_SUBJECTS and not fact.replaces:
        # a grandchild's age or school year said without whose it is: the user's own stored age rules it out
        known_age = live.filter(subject_key="age").order_by("-created_at") \
            .values_list("subject_value", flat=True).first()
        if implausible(fact.subject, fact.value, known_age or ""):
            return WriteOutcome.SKIPPED
    replaced_values: list[MemoryItem] = []  # the older values of a subject this fact will supersede
    if fact.subject:
        value_key = normalise_content(fact.value).casefold()
        for existing in live.filter(subject_key=fact.subject):
            if value_key and normalise_content(existing.subject_value).casefold() == value_key:
                return _reinforce(existing, context, reason="same_value")
            replaced_values.append(existing)
    elif embedding is not None and not fact.replaces and not targets:  # a change is news however close to the old
        nearest, similarity = _nearest(live, embedding, embedding_model)
        if nearest is not None and similarity >= thresholds.reinforce:
            return _reinforce(nearest, context, reason="similar")
        if nearest is not None and similarity >= thresholds.store:
            if importance < 5 and not fact.explicit:
                return WriteOutcome.SKIPPED  # predictable and unimportant: seed 003 §4 "skip"
            importance = max(1, round(importance * 0.7))  # stored damped
        elif similarity < thresholds.boost_below:
            # surprising: seed 003 adds surprise*0.3 on a 0-1 scale, i.e. up to +3 on our 1-10 scale
            importance = min(10, importance + round((1.0 - similarity) * 3))

    data = MemoryInput(
        content=content, category=fact.category, kind=fact.kind, subject_key=fact.subject, subject_value=fact.value,
        importance=importance,
        confidence=fact.confidence if fact.confidence is not None else 1.0 if fact.explicit else 0.9,
        emotion=fact.emotion, emotion_intensity=fact.emotion_intensity,
        source=MemorySource.CHARACTER if character_said else
        MemorySource.EXPLICIT if fact.explicit else MemorySource.INFERRED,
        source_conversation_id=conversation_id, source_message_id=fact.source_message_id,
    )
    try:
        item, superseded = memory_insert(user=user, character=character, data=data, content_hash=digest,
                                         context=context, embedding=embedding, embedding_model=embedding_model,
                                         event_date=fact.event_date)
    except ApplicationError as refusal:  # a downgraded plan above its cap: keep what exists, add nothing
        logger.info("memory write refused for scope user=%s character=%s: %s", user.pk, character.pk, refusal.code)
        return WriteOutcome.REFUSED
    corrected = _correct_older(item, fact.replaces, context) if fact.replaces and not character_said else 0
    for pk, terms in targets.items():  # a weekday or time: only where the same thing was named
        corrected += _correct_older(item, terms, context, only=pk)
    if not character_said and superseded and fact.subject == "workplace":
        corrected += _jobs_of_ended_workplaces(item, context)
    if not character_said and superseded and fact.subject in TOLD_WITH_ITS_MESSAGE:
        corrected += _old_value_out_of_its_message(item, replaced_values, context)
    return WriteOutcome.SUPERSEDED if superseded or corrected else WriteOutcome.CREATED


def _jobs_of_ended_workplaces(item: MemoryItem, context: AuditContext) -> int:
    """The occupation told in the same message as the workplace the new workplace `item` has just replaced with a
    place of another kind ("성수 카페에서 바리스타 함", then "브랜딩 디자인 스튜디오 어시로 들어감"): the job went with the
    place. A nurse who moves from one 병원 to another stays a nurse, and news of a new job that names no place keeps
    the trade (extraction.news). A new occupation, if the message tells one, is written as its own fact."""
    scope = MemoryItem.objects.filter(user_id=item.user_id, character_id=item.character_id)
    head = _head_word(item.subject_value)
    ended = [mid for mid, value in scope.filter(superseded_by=item, subject_key="workplace", is_active=False)
             .values_list("source_message_id", "subject_value")
             if mid and mid != item.source_message_id and _head_word(value) != head]
    if not ended:
        return 0
    jobs = list(scope.filter(is_active=True, subject_key="occupation", source_message_id__in=ended,
                             created_at__lt=item.created_at).select_related("user"))
    for job in jobs:
        memory_deactivate(job, item, context, reason="superseded")
    return len(jobs)


def _head_word(value: str) -> str:
    """The kind of place a workplace value names: its last word, or the ending of a Korean compound ("성수 카페" →
    카페, "세브란스병원" → 병원)."""
    last = (value.split() or [""])[-1].casefold()
    return last[-2:] if re.fullmatch(r"[가-힣]{3,}", last) else last


def _older_terms(memories, find) -> dict[int, tuple[str, ...]]:
    """What `find` reads in each of `memories` (its content and value) as no longer holding, by memory."""
    found: dict[int, tuple[str, ...]] = {}
    for old in memories.select_related(None).only("id", "content", "subject_value"):
        terms = find(f"{old.content} {old.subject_value}")
        if terms:
            found[old.pk] = tuple(terms)
    return found


def _ended_by_news(live, content: str, message_id: str) -> tuple[str, ...]:
    """The user's stored values that the news in `content` ends (extraction.news): of each subject it may end, the
    live values stated by another message — except a value that answers earlier news, told after it and after the
    value before it ("집 계약했어!!" → "이제 망원동 살아" → "이사 완료!!" keeps 망원동; `_answers_news`)."""
    news = news_subjects(content)
    if not news:
        return ()
    ends = ended_by(news)
    facts = live.filter(subject_key__in=list(ends))
    if message_id:  # the same message's facts are the new values
        facts = facts.exclude(source_message_id=message_id)
    current: dict[str, list[str]] = {}
    with_its_own = takes_effect(content)
    for fact in facts.select_related(None).only("id", "user_id", "character_id", "subject_key", "subject_value",
                                                "created_at", "source_message_id"):
        if not _answers_news(fact, ends[fact.subject_key], with_its_own=with_its_own):
            current.setdefault(fact.subject_key, []).append(fact.subject_value)
    return ended_values(content, news, current)


NEWS_LOOKBACK = 200


def _answers_news(fact: MemoryItem, told: str, *, with_its_own: bool) -> bool:
    """Whether the user told news of `told` (a subject) after the value `fact` replaced and before `fact`, or — when
    `with_its_own` (the news now only says an announced change takes effect: "first day today!!") — with `fact`: "I
    got the job at Acme" is what takes effect, while "I moved to Toronto for uni" is ended by the next move."""
    scope = MemoryItem.objects.filter(user_id=fact.user_id, character_id=fact.character_id) \
        .exclude(source=MemorySource.CHARACTER)
    before = scope.filter(subject_key=fact.subject_key, created_at__lt=fact.created_at) \
        .order_by("-created_at").values_list("created_at", flat=True).first()
    episodes = scope.filter(subject_key="", created_at__lt=fact.created_at)
    if before is not None:
        episodes = episodes.filter(created_at__gt=before)
    if fact.source_message_id:
        episodes = episodes.exclude(source_message_id=fact.source_message_id)
    # the latest NEWS_LOOKBACK only: news further back than that is no announcement this value answers (and a big
    # scope is not read whole for one message)
    texts = list(episodes.order_by("-created_at").values_list("content", flat=True)[:NEWS_LOOKBACK])
    if with_its_own and fact.source_message_id:
        own = scope.filter(subject_key="", source_message_id=fact.source_message_id)
        texts += own.values_list("content", flat=True)
    return any(told in news_subjects(text) for text in texts)


# Subjects whose superseded value also leaves the message that told it ("im jay … 16, junior in hs" once "im 17 now"
# is stored): that message would otherwise keep saying the old value beside the new fact.
TOLD_WITH_ITS_MESSAGE = frozenset({"age", "residence", "workplace", "school", "school_year", "major", "part_time_job"})


def _old_value_out_of_its_message(item: MemoryItem, replaced: list[MemoryItem], context: AuditContext) -> int:
    """Take each superseded value of `item`'s subject out of the other memories of the message that told it."""
    changed = 0
    for old in replaced:
        if not old.source_message_id or not old.subject_value or mentions(item.subject_value, old.subject_value):
            continue
        told_with = MemoryItem.objects.filter(
            user_id=item.user_id, character_id=item.character_id, is_active=True,
            source_message_id=old.source_message_id).exclude(pk=old.pk).values_list("pk", flat=True)
        for pk in told_with:
            changed += _correct_older(item, (old.subject_value,), context, only=pk)
    return changed


def _moved_event_terms(live, moved) -> tuple[str, ...]:
    """The dates older live memories give the event `moved` (extraction.corrections.moved_event) moved from."""
    by_memory = _older_terms(live, lambda text: moved_event_old_dates(moved, text))
    return tuple(dict.fromkeys(term for terms in by_memory.values() for term in terms))


PLAUSIBILITY_SUBJECTS = frozenset({"age", "school", "school_year"})  # what extraction.plausible judges

# Kinds of changed value that no longer hold anywhere in the scope (a name, a place); a weekday or a time is old
# only in the memories that name what changed ("TRPG 모임 … 토요일 밤마다", not "토요일에 이사").
SCOPE_WIDE_CHANGES = frozenset({"name", "place", RENAME, *OWN_KINDS})




def _correct_older(correction: MemoryItem, terms: tuple[str, ...], context: AuditContext, *,
                   only: int | None = None) -> int:
    """Take the words `correction` replaced out of the scope's older live memories (the user's and the
    character's, memories.truth.corrected_text), or out of the one memory `only`; deactivate those with nothing
    left. Return how many changed."""
    live = MemoryItem.objects.filter(user_id=correction.user_id, character_id=correction.character_id,
                                     is_active=True, created_at__lt=correction.created_at)
    if only is not None:
        live = live.filter(pk=only)
    if correction.source_message_id:  # what the same message said ("연애 안 함" beside "이제 연애 안 해") holds
        live = live.exclude(source_message_id=correction.source_message_id)
    changed = 0
    for old in live.only("id", "user_id", "character_id", "content", "subject_value", "source", "created_at",
                         "event_date"):
        kept = corrected_text(old.content, old.subject_value, terms)
        if kept == old.content:
            continue
        changed += 1
        digest = _digest(kept, character_said=old.source == MemorySource.CHARACTER) if kept else ""
        taken = kept is not None and MemoryItem.objects.filter(
            user_id=correction.user_id, character_id=correction.character_id, is_active=True, content_hash=digest,
        ).exclude(pk=old.pk).exists()
        if kept is None or taken:
            memory_deactivate(old, correction, context, reason="corrected")  # nothing left, or left as another memory
            continue
        old.content, old.content_hash = kept, digest
        old.lexical_keys = lexical_keys(f"{kept} {old.subject_value}")
        fields = ["content"]
        if not date_still_holds(old.event_date, terms):  # dated on the day the correction replaced
            old.event_date = None
            fields.append("event_date")
        old.save(update_fields=[*fields, "content_hash", "lexical_keys", "updated_at"])
        audit_memory_change(context, "updated", old, fields=fields, details={"reason": "corrected"},
                            user_ref=correction.user.get_username())
    return changed
