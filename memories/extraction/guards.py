"""Shared guards: what makes a sentence not a statement of fact about the speaker, for every rule set.

A supposition ("만약 체대 갔으면 체육 선생님 됐겠지", "if i won the lottery i'd move to lisbon") or a joke the
speaker takes back ("나 사실 조폭이었음 ㄷㄷ 농담이고", "jk") says nothing true about them. The user's facts
(extraction.local), the character's own statements (extraction.character_side) and corrections
(extraction.corrections) all use these tables, so a new wording is added once, here.
"""
from __future__ import annotations

import re

HYPOTHETICAL = (
    r"만약|만일|(?:였|했|이었|었|았|됐|갔|왔|살았|됐었)\s*으면|(?:였|했|었|았|이었|된|한|산)다면|로또\s*(?:1등|당첨|되면|맞으면)",
    r"\bif\s+(?:i|you|we)\s+(?:were|was|had|won|could|lived|became|went|got|did|didn't|hadn't|quit|left|took|[a-z]+ed)\b",
    r"\bif\s+i'd\b|\bwhat\s+if\b|\bimagine\b|\bpretend\b|\bin\s+another\s+life\b|\bin\s+an?\s+alternate\b",
)
JOKE = (
    r"(?<![가-힣])(?:농담(?:이고|이야|이에요|이에여|임|ㅋ|입니다|이구요|이요|이지|인\s*거\s*알지|(?=\s*[.!~]*\s*$))"
    r"|장난(?:이고|이야|이에요|임|ㅋ)|뻥(?:이고|이야|임|ㅋ))",
    r"\bjk\b|\bj/k\b|\bjust\s+kidding\b|\bkidding\b|\bjoking\b|\b(?:i'm|im)\s+messing\s+with\s+you\b",
    # taken back ("ㄴㄴ 구라임", "거짓말이지롱"), or a self-label meant as hyperbole ("i'm basically an olympic swimmer
    # now lol", "i'm secretly a vampire lol")
    # (at a word's start: "짱구라고 불러줘" is a name)
    r"(?<![가-힣])(?:구라(?:임|야|고|ㅋ|였|지롱|인\s*거)|거짓말(?:임|이지롱|ㅋ)|뻥이지롱|농담이지롱|훼이크(?:임|야)|페이크(?:임|야))",
    r"\b(?:i'?m|im|i\s+am)\s+(?:basically|secretly|practically)\s+(?:a|an|the)\s+[a-z][\w\s-]{1,30}?"
    r"(?:\s+now)?\s*(?:lol|lmao|haha|lmfao|😂|🤣|💀)",
)
# Weighing a change, not making it ("필라테스 강사로 이직할까 고민중", "thinking about becoming a nurse"): the
# clause states no fact, though the message is real and kept.
WISH = (
    r"(?:할까|갈까|될까|볼까|옮길까|바꿀까|그만둘까|배울까|살까)\s*(?:고민|생각|싶|하는\s*중|봐)",
    r"\b(?:thinking\s+(?:about|of)|considering)\s+(?:\w+ing|becoming|moving|switching|getting|quitting)\b",
)
# "농담 아니고", "not kidding": the speaker insists it is true.
NOT_JOKE = r"농담\s*아니|장난\s*아니|뻥\s*아니|진심|\bnot\s+(?:kidding|joking)\b|\bno\s+joke\b|\bfor\s+real\b"

_HYPOTHETICAL = re.compile("|".join(HYPOTHETICAL), re.I)
_JOKE = re.compile("|".join(JOKE), re.I)
_NOT_JOKE = re.compile(NOT_JOKE, re.I)
_WISH = re.compile("|".join(WISH), re.I)


def is_hypothetical(text: str) -> bool:
    return _HYPOTHETICAL.search(text) is not None


def is_joke(text: str) -> bool:
    return _JOKE.search(text) is not None and _NOT_JOKE.search(text) is None


def is_unreal(text: str) -> bool:
    """Whether `text` supposes or jokes rather than states (its claims are not facts about the speaker)."""
    return is_hypothetical(text) or is_joke(text)


def is_wish(text: str) -> bool:
    """Whether `text` weighs a change rather than states one (its values are no facts; the message is real)."""
    return _WISH.search(text) is not None
