"""Whether a memory still holds: the one test used by writing and by the prompt block (issue 8 §3).

A memory no longer holds where it mentions a value the user has since replaced:
- a word a correction said no longer holds ("유성 안 살아, 세종으로 이사왔어" → 유성): when the correction is
  written, each older memory of the scope (the user's and the character's) loses the clauses that use the word
  (`corrected_text`); one left with nothing else to say, or a structured fact whose value it was, is deactivated
  as superseded by the correction (memories.fact_writing). The correction itself is stored without the word.
- a superseded value of a single-valued subject ("노원" once "이제 신촌 살아" is the residence): the prompt block
  leaves out any memory mentioning it, whenever it was written (`still_holds`, used by context_pack.builder with
  the values context_pack.retrieval reads) — except a city only narrowed down to a place inside it ("berlin" once
  the user lives in friedrichshain, `refined_places`);
- a raw message about a changeable subject (where the user lives, works, dates, smokes) older than the fact
  that states its current value: it may describe the old one even when that was never a fact of its own —
  unless it speaks only of someone else ("동생은 신촌에서 대학원 다니는데" is no old workplace of the user's). A message
  naming another job and nobody else is about the old occupation too ("adding it. barista, so i'll read it on my
  break" once the user is a tutor).
- a schedule's weekday or time asked for ("what days am i working again?") that a newer memory on the same topic gives
  otherwise, told as a change ("saturdays and sundays only now"): the older memory's clauses giving it leave that
  block (`answered_since`, used by context_pack.builder).
- the date of a memory dated on a day a correction replaced ("다음 달 12월 3일에 건강검진 … 이번엔 위내시경도" once the
  check-up is on 12월 10일): the memory keeps its other clauses, undated (`date_still_holds`, memories.fact_writing).
All use extraction.corrections.mentions, so "what mentions an old value" means the same thing everywhere.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Iterable

from .categories import MemorySource
from .embeddings import cosine
from .extraction.answers import asked_kinds, names_asked, tells_change, values
from .extraction.corrections import mentions_any, substance, without_terms
from .extraction.dates import days_named
from .extraction.lexicon import is_city, occupations_named
from .extraction.whose import names_others, only_about_others
from .subjects import CHANGEABLE_SUBJECT_WORDS

MIN_TERM_CHARS = 2
PLACE_SUBJECTS = frozenset({"residence", "workplace", "hometown"})
MIN_KEPT_CHARS = 8  # a corrected memory with fewer letters left ("my band.") says nothing any more


# Words before an English value's head that are not what changed ("former hygienist (leaving)" → hygienist).
_EN_MODIFIERS = frozenset("former ex old new current full-time part-time senior junior head lead assistant".split())
MIN_HEAD_CHARS = 6


@lru_cache(maxsize=4096)
def _english_head(value: str) -> str:
    """The head noun of a Latin value of several words ("dental hygienist" → "hygienist"), or ''."""
    words = [w for w in re.sub(r"\([^)]*\)", " ", value).casefold().split() if w not in _EN_MODIFIERS]
    if len(words) < 2 and value.split() == words:
        return ""
    head = words[-1].strip(".,!'\"") if words else ""
    return head if len(head) >= MIN_HEAD_CHARS and re.fullmatch(r"[a-z][a-z'-]+", head) else ""


def refined_places(replaced: Iterable[tuple[str, str]], current: Iterable[tuple[str, str]]) -> set[str]:
    """Old place values the current one only narrows down: "berlin" once the user lives "in friedrichshain now", "서울"
    once it is "망원동" — a city replaced by a place that is no city is refined, not left (memories of Berlin hold)."""
    replaced, current = list(replaced), list(current)
    cities: dict[str, int] = {}
    other_places: set[str] = set()
    for subject, value in replaced + current:
        if subject in PLACE_SUBJECTS:
            if is_city(value):
                cities[subject] = cities.get(subject, 0) + 1
            else:
                other_places.add(subject)
    # the only city the subject ever had, beside places that are no city ("WG in neukölln", "friedrichshain")
    return {value for subject, value in replaced
            if subject in other_places and cities.get(subject) == 1 and is_city(value)}


def outdated_values(replaced: Iterable[str], current: Iterable[str], refined: Iterable[str] = ()) -> set[str]:
    """What no longer holds in a scope: the values corrections replaced ("노원" after "이제 신촌 살아"), unless still
    current for some fact, and an English value's head noun too ("friday's my last day as a hygienist" no longer
    holds once "dental hygienist" is replaced) unless a current value uses it ("staff engineer" after "senior
    engineer")."""
    current = {value.strip() for value in current}
    old = {value.strip() for value in replaced} - current - {value.strip() for value in refined}
    old = {value for value in old if len(value) >= MIN_TERM_CHARS}
    current_words = {word for value in current for word in value.casefold().split()}
    heads = {_english_head(value) for value in old} - {""}
    # a neighbourhood is named with and without its suffix ("망원동" in "망원시장 사람들 찍는게 재밌어"), as in a correction
    stems = {value[:-1] for value in old if re.fullmatch(r"[가-힣]{2,}[동구역]", value)} \
        - {value[:-1] for value in current if re.fullmatch(r"[가-힣]{2,}[동구역]", value)} - current
    return old | {head for head in heads if head not in current_words} | stems


def no_longer_true(text: str, replaced: Iterable[str]) -> bool:
    """Whether `text` (a memory's content and value) mentions one of the `replaced` values."""
    return _replaced_test(replaced)(text)


def _replaced_test(replaced: Iterable[str]) -> Callable[[str], bool]:
    return mentions_any(term for term in replaced if len("".join(term.split())) >= MIN_TERM_CHARS)


def corrected_text(content: str, value: str, terms: Iterable[str]) -> str | None:
    """What a memory says once `terms` no longer hold: `content` unchanged when it does not use them, the
    content without the clauses that do, or None when nothing of it holds (a fact whose value used them, or
    too little left)."""
    terms = [term for term in terms if len("".join(term.split())) >= MIN_TERM_CHARS]
    if not no_longer_true(f"{content} {value}", terms):
        return content
    if value and no_longer_true(value, terms):
        return None
    kept = without_terms(content, terms)
    return kept if substance(kept) >= MIN_KEPT_CHARS else None


def _words(value: str) -> set[str]:
    """A value's words with their plurals, lowercased ("freelance translator" → freelance, translator, translators)."""
    words = set(value.casefold().split())
    return words | {f"{word}s" for word in words}


def date_still_holds(when, replaced: Iterable[str]) -> bool:
    """Whether a memory's date `when` (its event_date) holds once the words `replaced` no longer do: a memory of the
    old check-up ("12월 3일에 건강검진 예약해놨어요" once it moved to 12월 10일) that kept its other clauses is no longer
    dated on the replaced day."""
    if when is None:
        return True
    return not any(month in (None, when.month) and day == when.day for month, day in days_named(replaced))


def still_holds(*, outdated_values: Iterable[str], facts: Iterable) -> Callable[[object], bool]:
    """A test of whether a memory (a MemoryItem) still holds, given the scope's superseded values and `facts`,
    the memories among which the current values of changeable subjects are found."""
    mentions_replaced = _replaced_test(sorted(outdated_values))  # prepared once for every memory tested
    current = {}
    for item in facts:
        if item.subject_key in CHANGEABLE_SUBJECT_WORDS:
            known = current.get(item.subject_key)
            if known is None or item.created_at > known.created_at:
                current[item.subject_key] = item

    def mentions_current_value(text: str, fact) -> bool:
        return any(len(part) >= 2 and part in text for part in fact.subject_value.casefold().split())

    def older_than_current_fact(item) -> bool:
        text = f" {item.content.casefold()}"
        return any(
            item.created_at < fact.created_at
            and not (item.source_message_id and item.source_message_id == fact.source_message_id)
            and (any(word in text for word in CHANGEABLE_SUBJECT_WORDS[subject])
                 # another job named in a message about nobody else ("adding it. barista, so i'll read it on my
                 # break" once the user is a tutor; not "shes an icu nurse")
                 or (subject == "occupation" and bool(occupations_named(text) - _words(fact.subject_value))
                     and not names_others(item.content)))
            and not mentions_current_value(text, fact)  # "5/21에 분당으로 이사 가" still holds
            for subject, fact in current.items()
        )

    def holds(item) -> bool:
        if mentions_replaced(f"{item.content} {item.subject_value}"):
            return False
        if item.source == MemorySource.CHARACTER:
            return True  # the character's own words are not about the user's changeable subjects
        # what was said only of someone else ("동생은 신촌에서 대학원 다니는데") never described the user's old value
        return bool(item.subject_key) or not older_than_current_fact(item) \
            or only_about_others(item.content, addressed_first=True)
    return holds


# The user's memories that answer a question about a value (extraction.answers: "what days am i working?") are those
# at least ANSWER_SIMILARITY close to it by meaning; a newer one that tells its value as a change replaces an older
# one's value only when the two are at least SAME_TOPIC close to each other (the same job, the same run), so another
# answer of the same kind ("chem final monday") stays.
ANSWER_SIMILARITY = 0.15
SAME_TOPIC = 0.40


def answered_since(question: str, items: Iterable, embeddings: Callable[[list[int]], dict]) -> dict[int, str | None]:
    """What an older memory still says once a newer one answers `question` with another value, told as a change:
    among the user's memories (MemoryItem with `similarity` to `question`, from context_pack.retrieval) that answer
    it, an older one's values that a newer one on the same topic, saying it is a change, does not give no longer hold
    ("i work at chipotle tuesdays and thursdays" once "they put me on weekends at gamestop. saturdays and sundays only
    now" was said) — with no anchor or change verb the rules of extraction.changes would need. By id: the older
    memory's text without the clauses that give them (`corrected_text`), or None when nothing else is left. A question
    naming someone ("What time is Lily's party?") is answered only by memories naming them. A structured fact is
    never corrected here (its subject is superseded by its own rule), but may be the newer one. `embeddings(ids)`: the
    stored embeddings of those memories, read only when the question asks for a value."""
    kinds = asked_kinds(question)
    if not kinds:
        return {}
    names = names_asked(question)
    close = [item for item in items if item.source != MemorySource.CHARACTER
             and (getattr(item, "similarity", None) or 0.0) >= ANSWER_SIMILARITY
             and all(name in item.content.casefold() for name in names)]
    answers = {kind: [(item, found) for item in close
                      if (found := values(kind, _about(f"{item.content} {item.subject_value}", names)))]
               for kind in kinds}
    ids = sorted({item.pk for found in answers.values() if len(found) > 1 for item, _ in found})
    if not ids:
        return {}
    by_id = {item.pk: item for item in close}
    vectors = embeddings(ids)
    changing = {pk for pk in ids if pk in vectors and tells_change(by_id[pk].content)}  # may be the newer one
    stale: dict[int, set[str]] = {}
    for kind, found in answers.items():
        for older, old in found:
            if older.subject_key or older.pk not in vectors:
                continue
            for newer, new in found:
                if newer.created_at > older.created_at and newer.pk in changing \
                        and cosine(vectors[older.pk], vectors[newer.pk]) >= SAME_TOPIC:
                    stale.setdefault(older.pk, set()).update(
                        written for key in old.keys() - new.keys() for written in old[key])
    return {pk: corrected_text(by_id[pk].content, "", written) for pk, written in stale.items() if written}


def _about(text: str, names: tuple[str, ...]) -> str:
    """The sentences of `text` that name everyone in `names` (all of it when there are none): "Lily's party is at 3pm.
    Max's is at 5pm." is about Lily in its first sentence only."""
    if not names:
        return text
    return " ".join(sentence for sentence in re.split(r"(?<=[.!?\n])\s+", text)
                    if all(name in sentence.casefold() for name in names))

