"""Korean particles (조사) chosen by how the preceding word ends: "춘심이", "소라가", "하늘로", "지훈으로".

One function, `josa(word, pair)`, for every Korean template that puts a name or a value before a
particle. Standard library only, so the extraction rules and the prompt block can both use it.

How the word ends (its last letter that is read):
- Hangul syllable: a final consonant (받침) when (code - 0xAC00) % 28 != 0; index 8 is ㄹ, which takes
  로 rather than 으로.
- digits: by their Korean reading — the last digit (일 칠 팔 end in ㄹ; 영 삼 육 in other consonants;
  이 사 오 구 in a vowel), or, when the number ends in zeros, the unit they name (십 백 천 만 억 조 ...).
- Latin letters: an acronym or a single letter is spelled out (엘 알 → ㄹ, 엠 엔 → consonant, the other
  letters end in a vowel); a word follows a small table of English endings ("Bill" → 빌, "Tom" → 톰,
  "Jack" → 잭, "Alex" → 알렉스, "Mina" → 미나).
- anything else (한자, emoji, other scripts): unknown, and the particle is written in its neutral form
  ("이(가)", "(으)로"), as Korean UIs do when they cannot tell.
A trailing parenthesised part, spaces and closing quotes are skipped: "춘심(春心)" reads as "춘심".
"""
from __future__ import annotations

import re
from dataclasses import dataclass

VOWEL, CONSONANT, RIEUL, UNKNOWN = "vowel", "consonant", "rieul", "unknown"


@dataclass(frozen=True)
class Particle:
    after_consonant: str
    after_vowel: str
    after_rieul: str  # 로 after ㄹ ("하늘로"); for every other particle ㄹ is just a consonant
    neutral: str  # when the ending cannot be told


def _pair(after_consonant: str, after_vowel: str, *, rieul_as_vowel: bool = False, neutral: str = "") -> Particle:
    return Particle(after_consonant, after_vowel, after_vowel if rieul_as_vowel else after_consonant,
                    neutral or f"{after_consonant}({after_vowel})")


PARTICLES: dict[str, Particle] = {
    "이/가": _pair("이", "가"),
    "은/는": _pair("은", "는"),
    "을/를": _pair("을", "를"),
    "과/와": _pair("과", "와"),
    "으로/로": _pair("으로", "로", rieul_as_vowel=True, neutral="(으)로"),
    "으로서/로서": _pair("으로서", "로서", rieul_as_vowel=True, neutral="(으)로서"),
    "이에요/예요": _pair("이에요", "예요"),
    "이랑/랑": _pair("이랑", "랑", neutral="(이)랑"),
    "이나/나": _pair("이나", "나", neutral="(이)나"),
    "이라고/라고": _pair("이라고", "라고", neutral="(이)라고"),
    "이야/야": _pair("이야", "야", neutral="(이)야"),
    "아/야": _pair("아", "야"),
}
# either order is accepted: "가/이" is "이/가"
PARTICLES.update({"/".join(reversed(key.split("/"))): value for key, value in list(PARTICLES.items())})

_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL_INDEX = 8
# compatibility jamo as written alone ("ㅋ", "ㅎ"): consonants are read by their names (기역, 리을, ...)
_CONSONANT_JAMO = "ㄱㄲㄳㄴㄵㄶㄷㄸㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅃㅄㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_VOWEL_JAMO = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
# 영 일 이 삼 사 오 육 칠 팔 구
_DIGIT_ENDING = (CONSONANT, RIEUL, VOWEL, CONSONANT, VOWEL, VOWEL, CONSONANT, RIEUL, RIEUL, VOWEL)
# a number ending in n zeros ends with the unit read last: 십 백 천 만, then 십만 백만 천만 억, ... 조, ... 경
_MYRIAD_ENDING = {4: CONSONANT, 8: CONSONANT, 12: VOWEL, 16: CONSONANT}  # 만 억 조 경; 십 백 천 are consonants
# letters spelled out: 엘 알 end in ㄹ, 엠 엔 in another consonant; 에이 비 씨 ... 제트 in a vowel
_LETTER_ENDING = {"l": RIEUL, "r": RIEUL, "m": CONSONANT, "n": CONSONANT}
# English word endings, first match wins (lower case)
_ENGLISH_ENDINGS: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(pattern), result) for pattern, result in (
    (r"(?:l|le)$", RIEUL),                           # Bill 빌, Paul 폴, Michelle 미셸, Kyle 카일
    (r"(?:m|n|ng|me|ne)$", CONSONANT),               # Tom 톰, John 존, Kang 강, Jane 제인, Anne 앤
    (r"(?:^|[^aeiou])[aeiou](?:ck|k|p|pp|b|t|tt)$", CONSONANT),  # Jack 잭, Bob 밥, Pat 팻, Matt 맷, Nick 닉
))
_SKIPPED_TAIL = re.compile(r"(?:\s*\([^()]*\)|[\s'\"’”」』>)\].,!?~…])+$")


def ending(word: str) -> str:
    """Return how `word` ends when read aloud: VOWEL, CONSONANT, RIEUL or UNKNOWN."""
    word = _SKIPPED_TAIL.sub("", word)
    if not word:
        return UNKNOWN
    last = word[-1]
    code = ord(last)
    if _HANGUL_FIRST <= code <= _HANGUL_LAST:
        final = (code - _HANGUL_FIRST) % 28
        return VOWEL if final == 0 else RIEUL if final == _RIEUL_INDEX else CONSONANT
    if last in _CONSONANT_JAMO:
        return RIEUL if last == "ㄹ" else CONSONANT
    if last in _VOWEL_JAMO:
        return VOWEL
    if last.isascii() and last.isdigit():
        return _number_ending(re.search(r"\d+$", word).group(0))
    if last.isascii() and last.isalpha():
        letters = re.search(r"[A-Za-z]+$", word).group(0)
        if len(letters) == 1 or letters.isupper():  # "A", "API", "HTML": read letter by letter
            return _LETTER_ENDING.get(letters[-1].lower(), VOWEL)
        lowered = letters.lower()
        return next((result for pattern, result in _ENGLISH_ENDINGS if pattern.search(lowered)), VOWEL)
    return UNKNOWN


def _number_ending(digits: str) -> str:
    stripped = digits.rstrip("0")
    if not stripped:
        return CONSONANT  # 영
    zeros = len(digits) - len(stripped)
    if zeros == 0:
        return _DIGIT_ENDING[int(stripped[-1])]
    if zeros % 4 == 0:
        return _MYRIAD_ENDING.get(zeros, CONSONANT)
    return CONSONANT  # 십 백 천 (십만, 백억, ...)


def particle(word: str, pair: str) -> str:
    """Return the form of `pair` ("이/가", "은/는", "을/를", "과/와", "으로/로", ...) that follows `word`."""
    forms = PARTICLES[pair]
    return {VOWEL: forms.after_vowel, CONSONANT: forms.after_consonant, RIEUL: forms.after_rieul,
            UNKNOWN: forms.neutral}[ending(word)]


def josa(word: str, pair: str) -> str:
    """Return `word` followed by the right form of `pair`: josa("춘심", "이/가") == "춘심이"."""
    return f"{word}{particle(word, pair)}"
