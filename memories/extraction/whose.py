"""Whose life a message is about: the user asking about their own subject, and what was said only of others.

"나 어디 산다고 했지?" asks for the user's own residence; "누나는 밴쿠버 살아서 시차가 안 맞아" and "my roommate lucas is
vegan" are about someone else. When the user asks about their own subject, the prompt block leaves out what was
said only of other people — their city, job or pets are not the answer, and a character reading "밴쿠버" beside
"where do I live?" mixes the two up (issue 8: facts about friends and family are not the user's).

The question cues are the registry's (`registry.QUESTION_CUES`, written for the character asking the user):
the user's own question reads like them once its first person is turned into the second ("where am i living
now?" → "where are you living now?"). Data: the pronouns below.
"""
from __future__ import annotations

import re

from .korean_text import person_named
from .lexicon import OTHER_PERSON_KO
from .questions import question_about_someone_else, question_sentences
from .registry import QUESTION_CUES

# The user's first person turned into the second, so the character's cues read the user's own question.
FIRST_TO_SECOND_EN = (
    (r"\bam\s+i\b", "are you"), (r"\bi\s+am\b", "you are"), (r"\bi'?m\b", "you're"), (r"\bi'?ve\b", "you've"),
    (r"\bi\b", "you"), (r"\bmy\b", "your"), (r"\bme\b", "you"), (r"\bmine\b", "yours"),
)
# Who a statement is about: the speaker as its subject (not "내"/"my": "내 동생은 신촌 살아" is the sibling's) ...
SPEAKER_KO = r"(?<![가-힣])(?:나|난|나는|내가|나도|저|전|저는|제가|저도|나만|저만)(?![가-힣])"
SPEAKER_EN = r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|myself)\b"
# ... and someone else: a person word as a topic or subject, or a third-person pronoun.
OTHERS_EN = (r"\b(?:he|she|they|he's|she's|they're|his|her|their)\b|\b(?:my|your)\s+(?:\w+\s+)?(?:friend|brother|sister|mom|mum|"
             r"mother|dad|father|girlfriend|boyfriend|wife|husband|roommate|flatmate|housemate|boss|cousin|son|"
             r"daughter|partner|coworker|colleague|neighbou?r|aunt|uncle|grandma|grandpa|niece|nephew)s?\b")
# (not the one addressed, a pet or 아이, which may be the user's own)
_OTHER_WORDS_KO = sorted((w for w in OTHER_PERSON_KO if w not in ("너", "넌", "니", "너는", "니가", "네가", "강아지", "고양이",
                                                                  "아이")), key=len, reverse=True)
OTHERS_KO = r"(?<![가-힣])(?:" + "|".join(re.escape(w) for w in _OTHER_WORDS_KO) + r")(?:이는|이가|이도|은|는|이|가|도|네)?(?![가-힣])"

# Subjects whose answer is another person or animal ("내 여친 이름 기억나?" is answered by "여친이 전화온다 소희"): what
# is said of others is the user's own answer there, never left out.
ANSWERED_BY_OTHERS = frozenset({"dating_status", "relationship_status", "family", "sibling", "pet", "best_friend",
                                "friend", "family_news"})
# How an episode carries the character's question it answers ("5월 17일! (← 근데 오빠 생일은 언제야?)", local.py):
# the 오빠 there is the user, addressed.
ANSWERED_MARK = " (← "

_FIRST_TO_SECOND = [(re.compile(pattern, re.I), second) for pattern, second in FIRST_TO_SECOND_EN]
_SPEAKER = re.compile(f"{SPEAKER_KO}|{SPEAKER_EN}", re.I)
_OTHERS = re.compile(f"{OTHERS_KO}|{OTHERS_EN}", re.I)
_HANGUL = re.compile(r"[가-힣]")
# The asker in a question, possessive included ("내 직업", "your job" once turned): whose subject is asked.
_ASKER = re.compile(r"(?<![가-힣])(?:나|난|내|내가|나는|저|전|제|제가|저는)(?![가-힣])|\b(?:you|your|you're|you've)\b", re.I)


# Questions written without '?' ("how old am i again, i honestly lose track", "내 고향 어디게~", "나 몇 살이라고 했더라
# ㅋㅋ"): an English sentence opening on a question word or an inverted auxiliary, after fillers; a Korean sentence with
# a question word and a question or recall ending.
UNMARKED_QUESTION_EN = (r"^\W*(?:(?:ok|okay|so|wait|hey|hi|lol|lmao|omg|random|but|and|um|uh|quick\s+one"
                        r"|testing\s+u)\W*\s+)*"
                        r"(?:what(?!\s+an?\b)|what's|whats|where|where's|when|when's|whens|who|who's|which|how|how's"
                        r"|do\s+(?:you|u|i)|did\s+(?:i|you|u)|am\s+i|are\s+(?:you|u)|is\s+my|can\s+(?:you|u)"
                        r"|remind\s+me)\b")
UNMARKED_QUESTION_KO = (r"(?:뭐|뭔|무슨|어디|언제|몇|누구|어떤|어느|얼마|며칠)[^.!?\n]*?"
                        r"(?:지|더라|드라|게|니|냐|까|죠|지요|던가|냐고)\s*[ㅋㅎㅠㅜ~!.^]*$")
_UNMARKED_QUESTION = re.compile(f"{UNMARKED_QUESTION_EN}|{UNMARKED_QUESTION_KO}", re.I)


def asked_sentences(message: str) -> list[str]:
    """The question sentences of the user's message: those `questions.question_sentences` finds ('?' or a last
    sentence ending on a question word), else any sentence that reads as a question without its mark."""
    found = question_sentences(message)
    if found:
        return found
    return [s.strip() for s in re.split(r"[.!?\n…]+", message) if s.strip() and _UNMARKED_QUESTION.search(s.strip())]


def _as_asked_by_character(sentence: str) -> str:
    for pattern, second in _FIRST_TO_SECOND:
        sentence = pattern.sub(second, sentence)
    return sentence


def own_subject_asked(message: str) -> str:
    """The subject the user asks about their own life ("나 요즘 어디 산다고 했지?" → residence, "what's my job these
    days?" → occupation), or '' (no question, no subject cue, a question about someone else: "우리 언니 어디 살더라?",
    or a subject answered by others: ANSWERED_BY_OTHERS)."""
    if not message:
        return ""
    korean = bool(_HANGUL.search(message))
    for sentence in reversed(asked_sentences(message)[-2:]):
        read = sentence if korean else _as_asked_by_character(sentence)
        for subject, pattern in QUESTION_CUES["ko" if korean else "en"]:
            match = re.search(pattern, read, re.I)
            if match:
                if subject in ANSWERED_BY_OTHERS:
                    return ""
                before = read[:match.start()]
                if _asks_for_self(before):
                    return subject
                if not korean and not _ASKER.search(read):
                    return ""  # "when's zoe's birthday again?": an English question names whose it asks about
                return "" if question_about_someone_else(read, match) or _OTHERS.search(before) \
                    or (korean and _named_before(before)) else subject
    return ""


_NAMED_SUBJECT_KO = re.compile(r"(?<![가-힣])([가-힣]{2,3}?)(?:이가|이는|이도|이|가|은|는|도)(?=\s)")


def _named_before(before: str) -> bool:
    """"지은이 무슨 일 하는지 얘기했었나?": a given name as the subject asks about that person."""
    return any(person_named(m.group(1)) for m in _NAMED_SUBJECT_KO.finditer(before))


def _asks_for_self(before: str) -> bool:
    """"언니 나 어디 산다고 했지?": a first person after the last other person (here a vocative) asks for the user."""
    speaker = [m.end() for m in _ASKER.finditer(before)]
    others = [m.end() for m in _OTHERS.finditer(before)]
    return bool(speaker) and (not others or speaker[-1] > others[-1])


# How users open a message to the character they talk to ("언니 이력서 쓰는 중인데", "유나야 나 …"): with
# `addressed_first`, no other person.
_ADDRESS_OPENING = re.compile(r"^\W*(?:언니|오빠|누나|형|쌤|선배|[가-힣]{1,3}(?:아|야))(?:\s+|[,!~]\s*)")


def only_about_others(text: str, *, addressed_first: bool = False) -> bool:
    """Whether `text` speaks of someone else and never of the speaker as a subject ("동생 다래는 신촌에서 대학원
    다니는데 걔는 맨날 밤샘이래", "my roommate lucas is vegan"); "언니는 신촌 살고 난 망원" is not. `addressed_first`:
    a word opening the message that addresses the character ("언니 이력서 쓰는 중인데") is no other person."""
    own = text.split(ANSWERED_MARK, 1)[0]  # the user's words, not the character's question they answer
    if addressed_first:
        own = _ADDRESS_OPENING.sub("", own, count=1)
    return bool(own) and _OTHERS.search(own) is not None and _SPEAKER.search(own) is None


# Texting forms of the third person that OTHERS_EN leaves to the speaker ("shes an icu nurse", "hes a chef now").
_OTHERS_UNMARKED_EN = re.compile(r"\b(?:shes|hes|theyre)\b", re.I)


def names_others(text: str) -> bool:
    """Whether `text` speaks of anyone besides the speaker at all ("shes an icu nurse. works nights so we're like ships
    passing"), whether or not it speaks of the speaker too."""
    own = text.split(ANSWERED_MARK, 1)[0]
    return _OTHERS.search(own) is not None or _OTHERS_UNMARKED_EN.search(own) is not None


def speaks_of_self(text: str) -> bool:
    """Whether the speaker is a subject in `text` ("나 서진. 스물넷", "i'm 31")."""
    return _SPEAKER.search(text.split(ANSWERED_MARK, 1)[0]) is not None
