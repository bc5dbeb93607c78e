"""What kind of value a question asks for, the values of that kind a text gives, and whether a text tells its value
as a change (issue 8 §3: corrections told without naming the old value).

"what days am i working again?" asks for weekdays; "러닝 몇 시에 하기로 했더라?" for a clock time. When an older memory
of the user's answers such a question with one value and a newer one on the same topic tells another as a change ("i
work at chipotle tuesdays and thursdays" … weeks later "they put me on weekends at gamestop. saturdays and sundays only
now"), the older value no longer holds (memories.truth.answered_since). This module is the language side only, as
tables:
- `ASKED`: the words of a question that ask for each kind;
- the value patterns of each kind, read by `values` into a normal form with the words that wrote it ("화요일" and
  "Tuesdays" → tue; "6시반" and "6:30am" → 06:30), so the old words can be cut from the older memory;
- `_CHANGE_CUE`: the words by which the newer memory says its value is a change ("now", "instead", "이제", "말고").
A new kind is a row of ASKED, its patterns and a branch of `values`.
"""
from __future__ import annotations

import re

from .changes import _NOW, _WEEKDAY_KEYS, CHANGED, TIME_EN, TIME_KO, WEEKDAY_EN, WEEKDAY_KO

WEEKDAY, TIME = "weekday", "time"

ASKED = {
    WEEKDAY: re.compile(r"무슨\s*요일|몇\s*요일|어느\s*요일|요일(?:이|에|은|엔)|\bwhat\s+days?\b(?!\s+(?:is|was)\s+(?:it|the))"
                        r"|\bwhich\s+days?\b|\bday\s+of\s+the\s+week\b", re.I),
    TIME: re.compile(r"몇\s*시(?![간작즌험])|\bwhat\s+time\b|\bhow\s+early\b|\bwhen\s+do\s+i\s+(?:start|finish|leave)\b",
                     re.I),
}
# Only a schedule's values are asked here. Tried on the tuning sets and left out (notes of 2026-11-28): dates
# (different events' dates are told in like words, "lease starts Jan 2" … "start date is Jan 5": two temporal probes
# lost) and places, ages and counts (a hometown or a child's age is no schedule: a later message naming another place
# or number on a close topic took the right answer out of the block).

_TIME = re.compile(f"{TIME_KO}|{TIME_EN}", re.I)
_WEEKDAY = re.compile(f"{WEEKDAY_KO}|{WEEKDAY_EN}|(?<![가-힣])[월화수목금토일]{{2,3}}(?=\\s|마다|에|$)", re.I)
_WEEKEND = re.compile(r"\bweekends?\b|주말", re.I)

# The words by which a newer answer says it is a change ("saturdays and sundays only now", "월수금 아침 말고 화목토")
_CHANGE_CUE = re.compile(rf"{_NOW}|{CHANGED}|말고|대신|아니고|아니라|앞당|미뤘|미뤄|미룸|\bfrom\s+now\s+on\b|\bno\s+longer\b"
                         rf"|\bstarting\b|\bpostponed\b|\bpushed\s+(?:back|to)\b|\bnot\b[^.!?]*\banymore\b", re.I)


def tells_change(text: str) -> bool:
    """Whether `text` says its value is a change ("only now", "instead", "이제", "말고", "moved to")."""
    return _CHANGE_CUE.search(text or "") is not None


def asked_kinds(question: str) -> tuple[str, ...]:
    """The kinds of value `question` asks for, in ASKED's order (none for most messages)."""
    return tuple(kind for kind, pattern in ASKED.items() if pattern.search(question or ""))


def _time_key(written: str) -> str:
    digits = re.findall(r"\d{1,2}", written)
    hour = int(digits[0]) if digits else 0
    minute = int(digits[1]) if len(digits) > 1 else 30 if "반" in written else 0
    if re.search(r"pm|p\.m\.|오후|저녁|밤", written, re.I) and hour < 12:
        hour += 12
    return f"{hour % 24:02d}:{minute:02d}"


def _weekday_keys(written: str) -> list[str]:
    written = written.casefold()
    if re.fullmatch(r"[월화수목금토일]{2,3}", written):  # "월수금", "화목"
        return [_WEEKDAY_KEYS[char] for char in written]
    return [_WEEKDAY_KEYS.get(written[:3], _WEEKDAY_KEYS.get(written[:1], written))]


def values(kind: str, text: str) -> dict[str, set[str]]:
    """The values of `kind` that `text` gives: each normal form ("tue") with the words that wrote it ("Tuesday")."""
    found: dict[str, set[str]] = {}

    def add(key: str, written: str) -> None:
        found.setdefault(key, set()).add(written.strip())
    if kind == WEEKDAY:
        for match in _WEEKDAY.finditer(text):
            for key in _weekday_keys(match.group(0)):
                add(key, match.group(0))
        for match in _WEEKEND.finditer(text):
            add("sat", match.group(0))
            add("sun", match.group(0))
    elif kind == TIME:
        for match in _TIME.finditer(text):
            add(_time_key(match.group(0)), match.group(0))
    return found


# A name the question asks about ("What time is Lily's party?"): the memories answering it name that one too.
_NAME_EN = re.compile(r"(?<=[a-z,]\s)([A-Z][a-z]{2,})\b")
_NOT_NAME_EN = frozenset("im i'm ok okay lol".split())


def names_asked(question: str) -> tuple[str, ...]:
    """Capitalised words inside an English question, other than its first ("What time is Lily's party" → lily)."""
    return tuple(dict.fromkeys(match.group(1).casefold() for match in _NAME_EN.finditer(question or "")
                               if match.group(1).casefold() not in _NOT_NAME_EN))
