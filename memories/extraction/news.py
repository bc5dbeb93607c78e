"""News of a subject whose new value no rule reads (issue 8 §3: moves and job changes where the old value is implied).

"first day at fernwood today!!!", "Got the keys to my 원룸 in 망원동 today", "춘심아 나 이사 완료!!", "알바 바꿨어!",
"새 회사 첫 출근했어": the message says the user's value of a single-valued subject is new — they moved, started a job —
and the rules may not read what the new value is. Whatever it is, the value stored before is no longer current:
memories.fact_writing gives the message's episode the older value as a word that no longer holds (the same clause
removal as any correction), so the old neighbourhood or company leaves the block and the message telling the news
stays, for the prompt's search and for the LLM reading it. A value told after earlier news of the same subject (and
after the value before it) is the new one ("집 계약했어" → "이제 망원동 살아" → "이사 완료!!"): fact_writing passes only
the others.

Data: each subject's `news` patterns are in its registry row (registry.Subject.news); `ENDS` says which other
subject's values the news ends too (a job ends being a job seeker, not being a dental technician). The guards are the
shared ones: a clause that supposes, jokes, weighs a change, asks, or speaks only of someone else says no news of
the user ("언니 이사했대", "if i moved to lisbon", "should i quit my job?").
"""
from __future__ import annotations

import re
from functools import lru_cache

from .corrections import mentions
from .guards import is_unreal, is_wish
from .korean_text import clauses
from .questions import question_sentences
from .registry import SUBJECTS
from .whose import ANSWERED_MARK, only_about_others, speaks_of_self

# What news of a subject ends: that subject's value, and another subject's value when it is one of the words given
# (None: any value). A new job ends "취준" or "unemployed" as the occupation, never the trade ("새 직장 적응 중" keeps
# 치과기공사).
NOT_WORKING = ("취준", "취업준비", "취업 준비", "구직", "백수", "무직", "job seeker", "job hunting", "job-hunting",
               "unemployed", "between jobs", "looking for work", "looking for a job", "out of work")
ENDS = {"workplace": (("workplace", None), ("occupation", NOT_WORKING))}

# A message about a part-time job tells no news of a job ("편의점 첫출근함 ㅋㅋ 야간 알바").
_PART_TIME = re.compile(r"알바|아르바이트|part[- ]?time|\bshifts?\b", re.I)
# A clause without a subject of its own after one about someone named ("Kasia is moving too! Got a job in Perth").
_NAMED_OTHER_EN = re.compile(r"^\W*(?:(?i:also|and|oh|but|so|plus|btw)\s+)?[A-Z][a-z]+(?:'s)?\s+"
                             r"(?:is|was|has|had|got|just|also|too)\b")


# News that a change already announced takes effect ("first day at …", "이사 완료!!"): a value told with the
# announcement ("i got the job at Acme") is the one taking effect, not an old one (fact_writing).
_TAKES_EFFECT = re.compile(r"첫\s*출근|첫\s*날|1\s*일\s*차|이사\s*(?:완료|끝)|\bfirst\s+day\b"
                           r"|\bstart(?:ed|ing)\s+(?:my\s+|the\s+)?new\b|\bmoved\s+in\b", re.I)


def takes_effect(text: str) -> bool:
    """Whether `text` tells that an announced change takes effect rather than announcing one ("첫 출근했어")."""
    return _TAKES_EFFECT.search(text) is not None


@lru_cache(maxsize=1)
def _news_patterns() -> tuple[tuple[str, re.Pattern], ...]:
    return tuple((row.key, re.compile("|".join(row.news), re.I)) for row in SUBJECTS if row.news)


@lru_cache(maxsize=1)
def _any_news() -> re.Pattern:
    """Every subject's news at once: the cheap test before the clauses and guards (every episode write runs it). A
    clause may start anywhere in the message, so a pattern's clause start ("^\\W*") matches anywhere here."""
    return re.compile("|".join(pattern.pattern.replace(r"^\W*", "") for _, pattern in _news_patterns()), re.I)


def news_subjects(text: str) -> tuple[str, ...]:
    """The subjects `text` tells news of for the speaker (a new home, a new job), in registry order, or ()."""
    text = text.split(ANSWERED_MARK, 1)[0]  # the user's words, not the character's question an episode carries
    if not _any_news().search(text):
        return ()
    found: list[str] = []
    before = ""
    part_time = _PART_TIME.search(text) is not None
    asked = question_sentences(text)
    for clause in clauses(text):
        about_other = only_about_others(clause) or (not speaks_of_self(clause) and bool(before) and (
            only_about_others(before) or _NAMED_OTHER_EN.match(before) is not None))
        before = clause
        if about_other or any(clause in question for question in asked) or is_unreal(clause) or is_wish(clause):
            continue
        for subject, pattern in _news_patterns():
            if subject not in found and pattern.search(clause) \
                    and not (subject != "part_time_job" and part_time):
                found.append(subject)
    return tuple(found)


# Words of a value that do not name it ("the", "new"): "first day at the zoo" names "columbus zoo", "new job" no job.
_NOT_NAMING = frozenset("the a an my our new old job work place home house 새 회사 집".split())


def _names(text: str, value: str) -> bool:
    """Whether `text` names `value` or a word of it ("first day at the zoo DONE" names "columbus zoo")."""
    return mentions(text, value) or any(
        mentions(text, word) for word in value.split()
        if word.casefold() not in _NOT_NAMING and len(word) >= (2 if re.search(r"[가-힣]", word) else 3))


def _ends(told: str) -> tuple[tuple[str, tuple[str, ...] | None], ...]:
    """What news of `told` ends (ENDS), by default that subject's own values."""
    return ENDS.get(told, ((told, None),))


def ended_by(news: tuple[str, ...]) -> dict[str, str]:
    """The subjects whose values the news of `news` (subjects) may end, each with the news subject that ends it."""
    return {subject: told for told in news for subject, _ in _ends(told)}


def ended_values(text: str, news: tuple[str, ...], current: dict[str, list[str]]) -> tuple[str, ...]:
    """Of the stored values (`current`: subject → its values from before any earlier news of it), those the news
    `news` in `text` says no longer hold; never a value the message names, or names a word of ("new job, still
    at the clinic though" keeps "the clinic"; "first day at the zoo DONE" keeps "columbus zoo")."""
    ended: list[str] = []
    for told in news:
        for subject, which in _ends(told):
            for value in current.get(subject, ()):
                if value and value not in ended and not _names(text, value) \
                        and (which is None or any(mentions(value, word) for word in which)):
                    ended.append(value)
    return tuple(ended)
