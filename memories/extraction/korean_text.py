"""Shared helpers of the Korean fact rules: clauses, whose clause it is, and what counts as a value."""
from __future__ import annotations

import re

from .lexicon import (NAME_SYLLABLES_KO, NEIGHBOURHOODS_KO, OTHER_PERSON_KO, OTHER_PERSON_PREFIXES_KO, STOP_VALUES_KO,
                      is_city)
from .morphology import analyse

_CLAUSE_BREAK = re.compile(r"[.!?\n…;]+|[ㄱ-ㅎ]{2,}|[ㅠㅜ]+|~+|[\U0001F000-\U0001FAFF\u2600-\u27BF]+")
_FIRST_PERSON = re.compile(r"^(?:나|난|내|내가|나는|저|전|제|제가|저는|나도|저도|나의|저의)$")
_TOPIC_WORD = re.compile(r"^(?P<stem>.+?)(?:이는|이가|이도|이랑|은|는|이|가|도|랑|이랑|의)$")
_OTHERS = frozenset(OTHER_PERSON_KO)


def _other_person(word: str) -> bool:
    """"딸", "큰딸", "막내동생", "사촌언니", "딸네": a person other than the user (or their household)."""
    if word in _OTHERS or (word.endswith("네") and word[:-1] in _OTHERS):
        return True
    for prefix in OTHER_PERSON_PREFIXES_KO:
        if word.startswith(prefix) and word[len(prefix):].strip() in _OTHERS:
            return True
    return False


# Endings of proper nouns that name places and institutions, not people ("평촌", "대구", "새솔초", "관악산").
PLACE_ENDINGS_KO = ("시", "도", "군", "구", "동", "읍", "면", "리", "역", "산", "강", "섬", "천", "촌", "초", "중", "고", "대",
                    "교", "원", "관", "점", "항", "포", "진", "길", "로")


def person_named(word: str) -> bool:
    """Whether `word` is a person's given name ("지아", "준호", "서연"): one proper noun of 2-3 syllables, each one
    names are made of, that no place ending or place list claims ("마라탕", "유튜브", "평촌" are no one)."""
    if not re.fullmatch(r"[가-힣]{2,3}", word) or word.endswith(PLACE_ENDINGS_KO) or is_city(word) \
            or word in NEIGHBOURHOODS_KO or not all(syllable in NAME_SYLLABLES_KO for syllable in word):
        return False
    morphs = analyse(word)
    return len(morphs) == 1 and morphs[0].tag == "NNP"


_BATCHIM_HANGUL = re.compile(r"[가-힣]")

# "A 아니고 B" / "A 말고 B" / "A가 아니라 B": A is a negated (old) value.
NEGATION_AFTER = re.compile(
    r"^\s*(?:이|가|은|는|을|를|에서|에)?\s*(?:아니|아냐|아녜|말고|그만|관두|관뒀|관둠|때려치|잘렸|끊었|끊음|끊은|"
    r"안\s*(?:해|함|하|살|다녀|다님|키워)|못\s|없어졌|이었|였)")
WISH_AFTER = re.compile(r"^[^.!?]{0,12}?(?:싶|싶어|싶다|싶음|볼까|해볼까|할까|하려고|할\s*거|할래|예정)")


def clauses(text: str) -> list[str]:
    """Split a message into clauses at sentence punctuation, laughter and emoji."""
    return [part.strip() for part in _CLAUSE_BREAK.split(text) if part and part.strip()]


def has_batchim(syllable: str) -> bool:
    return bool(_BATCHIM_HANGUL.match(syllable)) and (ord(syllable) - 0xAC00) % 28 != 0


def strip_name_suffix(word: str) -> str:
    """"도윤이" → "도윤", "지우" → "지우": drop the friendly -이 after a consonant-final name."""
    if len(word) >= 3 and word.endswith("이") and has_batchim(word[-2]):
        return word[:-1]
    return word


def strip_quote(word: str) -> str:
    quoted = re.fullmatch(r"\s*['\"‘“「『<](.+?)['\"’”」』>](?:이|으)?\s*", word)  # "'대장'이라고": the quoted word
    return quoted.group(1) if quoted else word.strip(" '\"‘’“”「」『』<>()[]")


def valid_value(value: str, max_len: int = 30) -> bool:
    value = value.strip()
    if not value or len(value) > max_len:
        return False
    if value in STOP_VALUES_KO or all(word in STOP_VALUES_KO for word in value.split()):
        return False
    return bool(re.search(r"[가-힣A-Za-z0-9]", value))


def about_someone_else(clause: str, position: int) -> bool:
    """Return True when the words before `position` make the clause about another person.

    "걔는 ESTP라" and "동생 키는 180" are about someone else; "나는 INFP야" and "MBTI는 INFP" are not.
    The nearest marked word (topic/subject particle) or the word right before decides.
    """
    words = clause[:position].split()
    if not words:
        return False
    last = words[-1]
    if _other_person(last) or _other_person(last.rstrip("의")):
        return True
    if len(words) >= 1 and re.fullmatch(r"[가-힣A-Za-z]{1,6}(?:이)?라고", last) and not any(_FIRST_PERSON.match(w) for w in words):
        return True  # "서윤이라고 열두 살인데": the one just named
    for word in reversed(words):
        if _FIRST_PERSON.match(word):
            return False
        match = _TOPIC_WORD.match(word)
        stem = match.group("stem") if match else word
        if _other_person(stem) or word in {"걔", "얘", "쟤", "걔네", "얘네"}:
            return True
        if match and not _FIRST_PERSON.match(stem):
            # another marked word ("나이는", "취미가") — keep looking further back only past topic words
            continue
    return False


def negated_after(clause: str, end: int) -> bool:
    return bool(NEGATION_AFTER.match(clause[end:end + 14]))


def wished_after(clause: str, end: int) -> bool:
    """Return True when the verb after `end` is a wish or a plan, not a fact ("타투 하고 싶어")."""
    return bool(WISH_AFTER.match(clause[end:end + 20]))


_NAME_WORD = re.compile(
    r"^([가-힣]{1,5}?|[A-Za-z][A-Za-z'-]{0,19})(?:이에요|예요|에요|이예요|입니다|이야|야|이고|고|이라고|라고|인데|이라서|라서|"
    r"이라|라|임|이지|이는|이가|이랑|랑|은|는|이|가|도)?[!.,~?]*$")


def name_at(text: str, start: int) -> str:
    """Return the person or pet name that begins at `start` ("도윤이. ..." → "도윤", "하은이고" → "하은")."""
    from .morphology import noun_phrase_after

    rest = text[start:].lstrip()
    if not rest:
        return ""
    word = strip_quote(rest.split()[0])
    value = noun_phrase_after(word, 0, max_words=1)
    if value and re.fullmatch(r"[가-힣]{2,5}|[A-Za-z][A-Za-z'-]{1,19}", value):
        return strip_name_suffix(value)
    match = _NAME_WORD.match(word)
    if not match:
        return ""
    name = match.group(1)
    return strip_name_suffix(name) if re.match(r"[가-힣]", name) else name
