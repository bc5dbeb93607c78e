"""Korean morphology on one cached kiwipiepy analyser: the noun phrase next to a position, content nouns.

Patterns find where a fact is ("... 알레르기", "고향은 ..."); the analyser decides where its value
starts and ends, so particles and endings ("부산인데", "두부고", "PC방에서") never leak into a value.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_NOUN_TAGS = frozenset({"NNG", "NNP", "NR", "SL", "SN", "SH", "XPN", "XSN", "NNB"})
# Morphemes that end a noun phrase even in the middle of a word ("부산|인데", "농구|함", "PC방|에서").
_SUFFIX_BREAKS = ("J", "E", "VCP", "VCN", "XSV", "XSA")
_MEANINGFUL_DETERMINERS = frozenset({"전", "옛", "첫", "새", "구", "현", "전전", "한", "두", "세", "네", "몇"})
_PUNCT = re.compile(r"[\s.,!?~…·:;\"'()\[\]{}]")


@dataclass(frozen=True)
class Morph:
    form: str
    tag: str  # kiwipiepy tag without the irregular-conjugation suffix ("VA-I" → "VA")
    start: int
    end: int
    lemma: str


@lru_cache(maxsize=1)
def _kiwi():
    from kiwipiepy import Kiwi

    return Kiwi(num_workers=0)  # analyse in the calling thread: no pool to stop (gunicorn --preload)


def warm_up() -> None:
    """Load the model and run one analysis (the first call costs about a second)."""
    analyse("모델을 불러온다")


def is_loaded() -> bool:
    """Whether this process has loaded the kiwipiepy model."""
    return _kiwi.cache_info().currsize > 0


@lru_cache(maxsize=4096)
def analyse(text: str) -> tuple[Morph, ...]:
    return tuple(
        Morph(t.form, t.tag.split("-")[0], t.start, t.start + t.len, t.lemma) for t in _kiwi().tokenize(text)
    )


def _starts_word(text: str, index: int) -> bool:
    return index == 0 or bool(_PUNCT.match(text[index - 1]))


def _nounish(morph: Morph, previous: Morph | None) -> bool:
    if morph.tag == "NNB":
        return previous is not None and previous.tag in {"SN", "NR", "MM", "NNG", "NNP", "SL"}
    if morph.tag == "MM":
        return morph.form in _MEANINGFUL_DETERMINERS
    return morph.tag in _NOUN_TAGS


def _trim_name_suffix(morphs: list[Morph]) -> list[Morph]:
    # "도윤이" → "도윤": the friendly -이 after a name is not part of it.
    if len(morphs) >= 2 and morphs[-1].tag == "XSN" and morphs[-1].form == "이" and morphs[-2].tag == "NNP":
        return morphs[:-1]
    return morphs


def _limit_words(text: str, max_words: int, keep_end: bool) -> str:
    words = text.split()
    return " ".join(words[-max_words:] if keep_end else words[:max_words])


def _word_has_noun_after(text: str, morphs: list[Morph], index: int) -> bool:
    """Return True when the word that starts at morphs[index] holds a noun before any ending."""
    for morph in morphs[index + 1:]:
        if _starts_word(text, morph.start) or morph.tag.startswith(_SUFFIX_BREAKS):
            return False
        if morph.tag in {"NNG", "NNP"}:
            return True
    return False


def _word_ending_at(word: str) -> int:
    """Return where an ending starts inside `word` analysed alone ("두부고" → 2), or -1."""
    morphs = analyse(word)
    if morphs and morphs[-1].tag == "ETM":
        return -1  # an adnominal word ("매운", "불편한") modifies the next word: it does not end the phrase
    for morph in morphs:
        if morph.start > 0 and morph.tag.startswith(_SUFFIX_BREAKS):
            return morph.start
    return -1


def _cut_at_inner_ending(phrase: str, keep_end: bool) -> str:
    # In context the analyser may glue an ending to a noun ("두부고 러시안블루" as one noun phrase);
    # each word analysed alone tells where the phrase really stops.
    words = phrase.split()
    if len(words) < 2:
        return phrase
    if keep_end:
        for index in range(len(words) - 2, -1, -1):
            if _word_ending_at(words[index]) > 0:
                return " ".join(words[index + 1:])
        return phrase
    for index, word in enumerate(words[:-1]):
        cut = _word_ending_at(word)
        if cut > 0:
            return " ".join(words[:index] + [word[:cut]])
    return phrase


_COPULA_WORD = re.compile(r"([가-힣A-Za-z0-9]{2,12}?)(?:이에요|예요|에요|입니다|이야|야|임|이고|인데|이라서|라서)[!.,~?]*")


def _unknown_word_before_copula(rest: str) -> str:
    # A name the analyser does not know ("젤다야" → 젤 + 다 + 야) still ends in a copula.
    words = rest.split()
    match = _COPULA_WORD.fullmatch(words[0]) if words else None
    return match.group(1) if match else ""


def noun_phrase_after(text: str, start: int, max_words: int = 3) -> str:
    """Return the noun phrase that begins at `start` ("게임 개발자야. ..." → "게임 개발자")."""
    while start < len(text) and text[start].isspace():
        start += 1
    morphs = []
    for m in analyse(text):
        if m.start >= start:
            morphs.append(m)
        elif m.start < start < m.end and m.tag in _NOUN_TAGS and text[start:m.end].strip():
            morphs.append(Morph(text[start:m.end], m.tag, start, m.end, text[start:m.end]))  # "견과류 알레르기" as one token
    taken: list[Morph] = []
    i = 0
    # A leading modifier ("높은 곳", "매운 음식") belongs to the phrase.
    if len(morphs) >= 3 and morphs[0].tag in {"VA", "VV"} and morphs[1].tag == "ETM" and _nounish(morphs[2], None):
        taken.extend(morphs[:2])
        i = 2
    while i < len(morphs):
        morph = morphs[i]
        previous = taken[-1] if taken else None
        at_word_start = _starts_word(text, morph.start)
        if morph.tag == "VCP" and taken and morph.end - morph.start == 1 and i + 1 < len(morphs) \
                and morphs[i + 1].form.startswith("예") and morphs[i + 1].start == morph.end:
            taken.append(morph)  # "오이예요": the 이 ends the noun, 예요 is the copula
            break
        if morph.tag.startswith(_SUFFIX_BREAKS) or morph.tag in {"SF", "SP", "SS", "SE", "SO", "SW", "SWK"}:
            break
        if not _nounish(morph, previous):
            # The analyser split an unknown word ("아이유" → 아 + 이유): keep it whole.
            if at_word_start and not _word_has_noun_after(text, morphs, i):
                break
        if taken and at_word_start and text[taken[-1].end:morph.start].strip():
            break
        taken.append(morph)
        i += 1
    taken = _trim_name_suffix(taken)
    if not taken:
        return _unknown_word_before_copula(text[start:])
    phrase = _limit_words(text[taken[0].start:taken[-1].end].strip(), max_words, keep_end=False)
    return _cut_at_inner_ending(phrase, keep_end=False)


def noun_phrase_before(text: str, end: int, max_words: int = 3) -> str:
    """Return the noun phrase that ends just before `end`, skipping a particle ("편의점에서 |알바" → "편의점")."""
    morphs = []
    for m in analyse(text):
        if m.end <= end and m.start < end:
            morphs.append(m)
        elif m.start < end < m.end and m.tag in _NOUN_TAGS and text[m.start:end].strip():
            clipped = text[m.start:end].rstrip()
            morphs.append(Morph(clipped, m.tag, m.start, m.start + len(clipped), clipped))
    while morphs and morphs[-1].tag.startswith("J"):
        morphs.pop()
    taken: list[Morph] = []
    for index in range(len(morphs) - 1, -1, -1):
        morph = morphs[index]
        previous = morphs[index - 1] if index else None
        if taken and text[morph.end:taken[-1].start].strip():
            break  # punctuation between the words
        inside_word = not _starts_word(text, taken[-1].start) if taken else False
        if _nounish(morph, previous) or (inside_word and not morph.tag.startswith(_SUFFIX_BREAKS)
                                          and morph.tag not in {"SF", "SP", "SS", "SE", "SO", "SW"}):
            taken.append(morph)
            continue
        break
    taken.reverse()
    taken = _trim_name_suffix(taken)
    if not taken:
        return ""
    start = taken[0].start
    # A phrase is made of whole words: "잔나비" analysed as 자 + ㄴ + 나비 is still 잔나비.
    while start > 0 and not _PUNCT.match(text[start - 1]):
        start -= 1
    # An adjective in front belongs to it: "불편한 편의점", "매운 음식", "높은 곳".
    first = next((i for i, m in enumerate(morphs) if m.start >= start), None)
    if first is not None and first >= 2 and morphs[first - 1].tag == "ETM" and morphs[first - 2].tag in {"VA", "XSA"} \
            and text[morphs[first - 1].end:start].isspace():
        start = morphs[first - 2].start
        while start > 0 and not _PUNCT.match(text[start - 1]):
            start -= 1
    phrase = _limit_words(text[start:taken[-1].end].strip(), max_words, keep_end=True)
    return _cut_at_inner_ending(phrase, keep_end=True)


def predicates(text: str, lemmas: tuple[str, ...]) -> list[Morph]:
    """Return the verb/adjective morphemes of `text` whose lemma is one of `lemmas` ("살다", "키우다")."""
    return [m for m in analyse(text) if m.tag in {"VV", "VA", "VX"} and m.lemma in lemmas]


def is_negated_at(text: str, morph: Morph) -> bool:
    """Return True when the predicate is negated ("안 살아", "살지 않아", "못 먹어")."""
    before = text[:morph.start].rstrip()
    after = text[morph.end:morph.end + 6]
    return bool(re.search(r"(?:^|\s)(?:안|못)$", before) or re.match(r"\S*지\s*(?:않|마|못)", after))


def is_past_at(text: str, morph: Morph) -> bool:
    """Return True when the predicate carries a past ending ("살았어", "했었어")."""
    following = [m for m in analyse(text) if m.start >= morph.end][:2]
    return any(m.tag == "EP" and m.form in {"었", "았", "였", "었었", "았었"} for m in following)


_TOPIC_STOP = frozenset({
    "거", "것", "게", "때", "오늘", "내일", "어제", "진짜", "사람", "생각", "얘기", "이야기", "이거", "그거",
    "저거", "요즘", "근데", "우리", "정도", "하나", "번", "좀", "뭐", "말", "나", "너", "중", "수", "쪽", "데",
    "분", "일", "시간", "다음", "이번", "지난", "처음", "맨날", "완전", "제일", "엄청", "대박", "개", "ㅋㅋ",
    "내", "네", "저", "제", "걔", "얘", "거기", "여기", "마음", "기분", "감", "줄", "듯", "만큼", "뿐", "앞",
    "뒤", "안", "밖", "위", "아래", "날", "주", "달", "년", "적", "척", "김", "편", "쯤", "등",
    "작년", "올해", "내년", "주말", "평일", "아침", "저녁", "낮", "새벽", "점심", "안녕", "처음", "대신", "인생", "요일",
    "월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일", "지금", "이제", "나중", "가끔", "매일", "반",
})


def content_nouns(text: str) -> list[str]:
    """Return the content nouns of `text` in order, without vocatives ("춘심아") or filler nouns."""
    morphs = analyse(text)
    nouns = []
    for index, morph in enumerate(morphs):
        if morph.tag not in {"NNG", "NNP", "SL"}:
            continue
        following = morphs[index + 1] if index + 1 < len(morphs) else None
        if following is not None and following.tag == "JKV":
            continue
        if following is not None and following.tag == "XSN" and index + 2 < len(morphs) \
                and morphs[index + 2].tag == "JKV":
            continue
        form = morph.form
        if morph.tag == "SL" and len(form) < 2:
            continue
        if form in _TOPIC_STOP or (morph.tag != "SL" and len(form) < 2 and form not in {"꿈", "키", "책", "차", "술"}):
            continue
        nouns.append(form)
    return nouns
