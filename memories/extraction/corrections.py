"""Corrections: a message that says an earlier value no longer holds, and which words carried that value.

"나 이제 유성 안 살아 ㅋㅋ 세종으로 이사왔어", "만 보 말고 칠천 보로 목표 줄이자", "it's not wednesday anymore,
it's saturday", "나 학원 그만뒀어 lol": each names an old value (유성, 만 보, wednesday, 학원) that was true and is
not any more, whatever subject it belongs to — a residence, a goal, a class day, a job. `find_correction` returns
those old terms and the message with every clause that repeats them taken out (what the block may show in the
message's place); the writer then treats any older memory mentioning an old term as no longer true
(`mentions`, the one test used by writing and by the prompt block).

The rules are data: cue tables per language, each cue either *ending* what stopped (CESSATION_*, "X 안 살아",
"X 그만뒀어", "not X anymore") or *contrasting* it with what replaced it (CONTRAST_*, "X 말고 Y", "X 아니고 Y"; a
contrast counts only in a message that also says something changed, CHANGE_MARKERS, so "치킨 말고 피자 먹을래"
corrects nothing). Typed values (counts with a unit, clock hours, ages) are paired: in a correcting message the
value right after "이제"/"now", or after the cue, is new, other values of the same unit are old ("여섯 시 기상도
포기.. 이제 일곱 시에 일어나" → 여섯 시). Shared guards: questions about a value, hypotheticals and reported
speech ("친구가 회사 그만뒀대") correct nothing; an old term the rest of the message still uses as current
("병원 그만두고 다른 병원 가") is dropped.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .dates import MonthDay, find_month_days, format_month_day
from .guards import is_unreal
from .registry import label_for
from .lexicon import ANIMALS_KO

# --- data ---------------------------------------------------------------------------------------------------

# Korean cues that end what was true: the old value is the phrase right before the cue. These say so alone.
CESSATION_KO = (
    r"안\s*살(?:아|고|아요|거든|음)?", r"그만\s*(?:뒀|두고|둠|둬|두었)", r"관(?:뒀|두고|둠)", r"때려치", r"퇴사",
    r"접었|접고|접음", r"팔(?:고|았|아\s*버)", r"끊었|끊음|끊고",
    r"(?<!로)(?<!로\s)떠나(?:서|고|왔|온|게|요)|(?<!로)(?<!로\s)떠났",  # "광교 떠나서 성수동으로" (not "제주도로 떠나")
    r"이름\s*(?:을|를|도)?\s*(?:바꿈|바꿨|바꿔|바꾸었|바뀜|바뀌었|바꼈|변경|개명)",  # "보리 이름 바꿈 ㅋㅋ 이제 누룽지임"
    r"(?:이랑|랑|와|과|하고)\s*헤어(?:졌|짐|지었)",
    r"(?<=[가-힣A-Za-z])(?:이|가)\s*아니(?:래|라네|라더라|었대|랍니다)",  # "디스크가 아니래요. 그냥 근육 염좌래요" (a diagnosis)  # "소희랑 헤어짐" (a role before it is no value: PERSON_NOUNS)
)
# These only in a message that also says something changed ("오늘은 운동 안 해" stops nothing).
WEAK_CESSATION_KO = (
    r"안\s*(?:해|하고|함|해요|하거든|한다)", r"안\s*다녀|안\s*다니", r"안\s*먹어|안\s*먹고", r"안\s*타(?:요|고)?\b",
    r"포기", r"정리(?:했|하고|함|해)", r"탈퇴", r"하차",
)
# Leaving a place or a group ("농구 동아리 나옴 … 밴드 들어감", "기숙사 나와서 망원동 원룸"): only where the message also
# says plainly that something changed (STRONG_CHANGE_MARKERS) — "학원 나와서 피곤" is an evening, not a change.
LEAVING_KO = (r"(?:에서\s*)?나(?:왔|옴|와서|오고)(?![가-힣])",)
# A message that moves a value "from X to Y" ("최애 바뀜. 카리나에서 해린으로"): X is old, but only where the message
# also says plainly that something changed (STRONG_CHANGE_MARKERS; "요즘 회사에서 집으로 바로 감" changes nothing).
FROM_TO_KO = r"에서\s+(?:[^\s.,!?]+\s+)?[^\s.,!?]+?(?:으로|로)(?=[\s.!?,~ㅋㅎㅠㅜ]|$)"
STRONG_CHANGE_MARKERS = ("바꿨", "바꿈", "바꿔", "바뀜", "바뀌었", "바꼈", "옮겼", "옮김", "이사", "이직", "갈아탔", "갈아탐",
                         "전과", "전학", "변경", "switched", "changed", "moved")
# Joining a new group says so too ("밴드 동아리 들어감"; not "집에 들어감").
JOINED_KO = r"(?:동아리|부|팀|회사|학원|모임|밴드|동호회|클럽)\s*(?:에|를|을)?\s*(?:들어감|들어갔|가입)"
# Head nouns that are no value alone: before them is what changed ("편의점 알바 관뒀어" → 편의점, not every 알바).
GENERIC_HEADS = frozenset("동아리 부 팀 모임 학원 알바 아르바이트 스터디 클럽 동호회".split())
# People named by role: whom one parted from is their name, never "친구" ("친구랑 헤어졌어 방금" ends nothing).
PERSON_NOUNS = frozenset("""친구 동생 언니 오빠 누나 형 엄마 아빠 남친 여친 남자친구 여자친구 애인 걔 사람 사람들 선배 후배
동기 애들 우리""".split())
# Korean cues that contrast the old value with the new one ("X 말고 Y"): only in a message that says it changed.
CONTRAST_KO = (r"말고", r"아니고", r"아니라", r"대신(?:에)?", r"에서\s+\S+\s*(?:으로|로)\s*(?:바꿨|바꿈|옮겼|옮김|이사|이직|갈아)",
               r"(?<=[가-힣]\s)아이고(?=\s+[가-힣A-Za-z])")  # 경상도 "아이고" for 아니고 between two words ("연산동 아이고 정관")
# Words by which a message says something changed (a contrast cue alone may be a passing preference).
CHANGE_MARKERS = (
    "이제", "인자 ", "인제 ", "요즘은", "지금은", "바꿨", "바꿈", "바꿔", "바꾸", "줄였", "줄이", "줄임", "줄여", "낮췄", "낮추", "낮춤", "낮춰",
    "올렸", "올리", "올려", "늘렸", "늘리", "늘려", "변경", "정정", "옮겼", "옮김", "옮기", "이사", "이직", "갈아탔", "맡았", "맡게", "됐어", "됐다", "되었",
    "헷갈", "잘못 말", "틀렸", "now", "anymore", "any more", "no longer", "switched", "changed", "moved",
    "actually", "correction", "더 이상", "더이상", "이젠", "요새는", "요샌", "no more", "used to", "these days",
    "바꼈", "바뀌었", "바뀜", "바뀌어", "미뤘", "미뤄", "미룸", "연기됐", "연기되", "당겼", "당겨", "발령", "취소", "잘못",
    "아니래", "instead", "change of plan", "messed up", "rescheduled", "postponed", "pushed", "moved me", "canceled",
    "cancelled", "i meant", "typo", "wrong", "didn't i?", "didnt i?", "it's not", "its not", "it is not", "요즘", "요새", "결정", "정했",
    "전과", "전학",
)
# English cues; the group `old` holds the words between the negation and "anymore", or after the verb.
# "X였는데 이제 Y", "강남 살았는데 요즘은 판교": what was so before "이제" is old. The group `old` holds it.
PAST_THEN_NOW_KO = (
    r"(?P<old>[가-힣A-Za-z0-9]{2,}?)(?:이었|였)(?:었)?(?:는데|지만)\s*,?\s*(?:이제|지금은|요즘은|이젠|요샌|요새는)",
    r"(?P<old>[가-힣A-Za-z0-9]{2,}?)(?:에서|에)?\s+(?:살았|다녔|일했|근무했|했었|탔|키웠|배웠|썼|피웠|마셨|먹었)(?:었)?"
    r"(?:는데|지만)\s*,?\s*(?:이제|지금은|요즘은|이젠|요샌|요새는)",
)
_NUMBER_WORDS_EN = (r"\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
                    r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety")
CESSATION_EN = (
    r"\bused\s+to\s+(?P<old>(?:[\w가-힣'-]+\s+){0,3}?[\w가-힣'-]+)\s*,?\s+(?:but|and)\s+(?:now|these\s+days|nowadays)\b",
    r"\bno\s+more\s+(?P<old>[\w가-힣'-]+(?:\s+[\w가-힣'-]+)?)\b(?=\s*(?:[,.;!?]|$|\bfor\s+me\b))",
    r"\b(?:now|anymore),?\s+not\s+(?P<old>[\w가-힣'-]+)\b",
    r"(?:\bnot|n't|\bnever)\s+(?!my\s+(?:fav|fave|favou?rite|number\s+one|main)\b)"
    r"(?P<old>(?:[\w가-힣'-]+\s+){0,4}?[\w가-힣'-]+)\s+(?:anymore|any\s+more)\b",
    r"\bno\s+longer\s+(?P<old>(?:[\w가-힣'-]+\s+){0,3}?[\w가-힣'-]+)\b(?=\s*(?:[,.;!?]|$|\b(?:but|so|and|since)\b))",
    r"\b(?:quit|sold|ditched)\s+(?:my\s+|the\s+|our\s+)?(?:old\s+)?(?P<old>[\w가-힣'-]+(?:\s+job)?)\b",
    r"\b(?:gave|handed\s+in|put\s+in)\s+(?:my\s+)?(?:two\s+weeks'?\s+)?notice\s+(?:at|to)\s+(?:the\s+|my\s+)?"
    r"(?P<old>[\w가-힣'-]+)\b",
    r"\b(?:scrapp(?:ing|ed)|scrap|cancel(?:l?ing|l?ed)?|call(?:ing|ed)\s+off)\s+(?:my\s+|the\s+|our\s+)?(?:plan\s+(?:for|of)\s+)?"
    r"(?P<old>[\w가-힣'-]+(?:\s+[\w가-힣'-]+)?)\b(?=\s*(?:[,.;!?]|$|\b(?:and|but|so|because|since|cuz|bc)\b))",
    r"\b(?:moved|switched|changed|transferred|transfer|switch|upgraded|went)\b[^.!?\n]{0,30}?\b(?:from|out\s+of)\s+"
    r"(?P<old>[\w가-힣'-]+(?:\s+[\w가-힣'-]+)?)\s+to\b",
    r"\b(?P<old>[\w가-힣'-]+)\s+(?:has\s+been|have\s+been|got|was|is|are)\s+(?:officially\s+|finally\s+)?dethroned\b",
    # "I told you twenty-seven but … I'm actually twenty-six", "i said june 3 but it's actually june 13"
    r"\bi\s+(?:\w+\s+)?(?:told\s+(?:you|u)|said)\s+(?:it\s+was\s+|it's\s+|its\s+|i\s+was\s+|i'm\s+|im\s+)?(?P<old>[\w'-]+(?:[\s-][\w'-]+)?)"
    r"\s*,?\s+but\b(?=[^.!?\n]*?\bactually\b|[^\n]*?\.\s*(?:i'?m|it'?s|its)\s+actually\b)",
    r"\bthe\s+(?P<old>[\w가-힣'-]+)\s+era\s+is\s+(?:officially\s+)?over\b",
    # "Saoirse is ten, not nine", "it's 3, not 4": a number said, and the one it is not
    rf"\b(?:is|am|are|was|it'?s|she'?s|he'?s|i'?m|turned|turning)\s+(?:actually\s+|really\s+)?(?P<keep>{_NUMBER_WORDS_EN})\s*,?\s+"
    rf"not\s+(?P<old>{_NUMBER_WORDS_EN})\b",
    # "i'm deferring the great north run to next year", "pulled out of the marathon"
    r"\b(?:deferr?(?:ing|ed|s)?|withdr(?:ew|awing|awn)\s+from|pull(?:ing|ed)\s+out\s+of|dropp(?:ing|ed)\s+out\s+of)\s+"
    r"(?:my\s+|the\s+|our\s+)?(?P<old>[\w'-]+(?:\s+[\w'-]+){0,2}?)(?=\s+(?:to|until|till|for|this|next)\b|\s*[,.;!?]|$)",
    # "spirited away isn't my favorite anymore", "valorant is not my main game now"
    r"\b(?P<old>(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+(?:is\s+not|isn'?t|is\s+no\s+longer|are\s+not|aren'?t)\s+my\s+"
    r"(?:fav(?:ou?rite)?|fave|number\s+one|#1|go-to|main)\b",
)
# Words of an English old phrase that are not the value ("not *a* 망원동 *person* anymore", "don't *play* X").
EN_NOT_VALUE = frozenset("""
a an the my our your his her their in on at into to of for with from by as about around near that this these
those it its them him her me us there here so very really officially even just still much more doing being
play playing do go going live living work working eat eating drink drinking use using take taking have having
like love want need see talk talking feel care think watch listen read smoke drive ride attend attending teach
teaching person people guy girl fan one thing kind sort part member anymore job be been was were am get got
today tonight tomorrow yesterday now then again lol haha
boyfriend girlfriend partner bf gf husband wife fiance fiancee friend ex him them we i me up officially finally
favorite favourite fav fave
""".split())
# Korean words that never make an old value on their own.
KO_NOT_VALUE = frozenset("""
나 난 내 내가 나는 저 전 제 제가 저는 우리 이제 요즘 요즘은 지금 지금은 그냥 진짜 완전 좀 이거 그거 저거 것 거 게 이 그 저
원래 예전 예전엔 전에 아예 다 또 더 이상 더이상 일단 암튼 아무튼 근데 그리고 그래서 이번 이번엔 오늘 어제 내일
""".split())
KO_PARTICLES = ("이랑", "에서", "으로", "하고", "까지", "부터", "은", "는", "이", "가", "을", "를", "도", "에", "로", "랑", "의", "만")
NATIVE_KO = r"(?:열|스물|서른|마흔|쉰|예순)?(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉)|열|스무|스물|서른|마흔|쉰|예순"
NUMERAL_KO = rf"\d[\d,.]*|(?:[이삼사오육칠팔구]?[십백천만])+[일이삼사오육칠팔구]?|{NATIVE_KO}|반"
# Units of typed values, and the unit an age word without a counter has ("이제 서른둘이에요").
UNITS_KO = r"시(?![간작험즌])|보|권|살|갑|번|개|잔|병|킬로|키로|km|kg|시간|분|층|평|일|회"
AGE_WORD_KO = r"(?<![가-힣])(?:(?:스물|서른|마흔|쉰|예순)(?:하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉)?|열(?:하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉))"
# What keeps a message from correcting anything: reported speech, a condition of the speaker's (and the shared
# guards of extraction.guards).
GUARDS = (
    r"(?:그만뒀|관뒀|접었|팔았|포기했|이사했|이사갔|옮겼|안\s*산)\s*(?:대|다더라|다던데|다네|단다)"
    r"|\b(?:he|she|they)\s+(?:quit|sold|moved)\b(?!\s+(?:me|us|it|the|my|our|her|his|their)\b)",  # "they moved me to
    # franklin high" is the user, "she moved it to monday" an appointment
    r"\bif\s+i\b",  # any condition of the speaker's ("if i quit my job …"), beyond guards.HYPOTHETICAL
)
# What right after a cessation cue says it did not (or not yet) happen: "포기 못해", "그만둘까", "퇴사하고 싶다".
NOT_DONE_AFTER = r"\s*(?:못|안\s|않|할까|하려|할래|하고\s*싶|할\s*거|할지|해야|하면|할\s*수|하긴)"
NOT_DONE_BEFORE = r"(?:못|안)\s*$"
MIN_TERM_CHARS = 2

# --- engine -------------------------------------------------------------------------------------------------

_CESSATION_KO = re.compile("|".join(f"(?:{cue})" for cue in CESSATION_KO))
_WEAK_CESSATION_KO = re.compile("|".join(f"(?:{cue})" for cue in WEAK_CESSATION_KO))
_CUE_ENDING_KO = re.compile(r"(?:었어요|었어|어요|어|다|요|음)")
_NOT_DONE_AFTER = re.compile(NOT_DONE_AFTER)
_NOT_DONE_BEFORE = re.compile(NOT_DONE_BEFORE)
_CONTRAST_KO = re.compile("|".join(f"(?:{cue})" for cue in CONTRAST_KO))
_FROM_TO_KO = re.compile(FROM_TO_KO)
_PARTED_FROM = re.compile(r"(?:이랑|랑|와|과|하고)(?=\s*헤어)")
_JOINED_KO = re.compile(JOINED_KO)
_LEAVING_KO = re.compile("|".join(f"(?:{cue})" for cue in LEAVING_KO))
_CESSATION_EN = [re.compile(rule, re.I) for rule in CESSATION_EN]
_PAST_THEN_NOW_KO = [re.compile(rule) for rule in PAST_THEN_NOW_KO]
_GUARDS = [re.compile(rule, re.I) for rule in GUARDS]
_NUMERAL = re.compile(f"^(?:{NUMERAL_KO})$")
_TYPED = re.compile(rf"(?P<value>(?:{NUMERAL_KO})\s?(?P<unit>{UNITS_KO})|(?P<age>{AGE_WORD_KO})(?![가-힣]{{0,1}}(?:살|세)))")
# A typed value followed by "(으)로" and a verb of change is the new one ("칠천보로 낮춰도 될까요").
_NEW_AFTER = re.compile(r"^\s*(?:으로|로)\s*(?:\S+\s+)?(?:바꾸|바꿨|바꿈|바꿔|줄이|줄였|줄여|줄임|낮추|낮췄|낮춰|낮춤|올리|올렸|"
                        r"올려|늘리|늘렸|늘려|변경|옮기|옮겼|정했|하기로|할게|해도|갈게)")
_NOW_BEFORE = re.compile(r"(?:이제|지금은|요즘은|now|정정(?:할게|하자|해)?(?:요)?)\s*\S*\s*$", re.I)
_CLAUSE_BREAK = re.compile(r"[!?\n…;]+|:(?!\d)|[.,]+(?!\d)|ㅋ{2,}|ㅎ{2,}|[ㅠㅜ]{2,}|[ㅠㅜ](?=\s)|~+|[\U0001F000-\U0001FAFF\u2600-\u27BF]+|\s+(?:but|so|and)\s+")
_HANGUL = re.compile(r"[가-힣]")
_VOCATIVE = re.compile(r"^[가-힣]{1,4}(?:야|아|씨|님)$")
_FILLER_EN = frozenset("i i'm im i've ive i'd also and but so ok okay lol haha yeah well um oh officially it it's its "
                       "is was do does did".split())


def _only_filler(clause: str) -> bool:
    """Whether a clause a cue was cut out of has nothing left but a vocative and fillers ("유나야 나 이제")."""
    words = [word.strip(".,!?~") for word in clause.split()]
    return all(not word or word in KO_NOT_VALUE or _strip_particle(word) in KO_NOT_VALUE
               or word.casefold() in _FILLER_EN or (index == 0 and _VOCATIVE.match(word))
               or not re.search(r"[\w가-힣]", word) or re.fullmatch(r"[ㄱ-ㅎㅏ-ㅣ]+", word)
               for index, word in enumerate(words))


@dataclass(frozen=True)
class Correction:
    old_terms: tuple[str, ...]  # the words that carried the old value, as the user wrote them
    cleaned: str  # the message without the clauses that repeat an old term


def _strip_particle(word: str) -> str:
    for particle in KO_PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= 2 and _HANGUL.search(word):
            return word[:-len(particle)]
    return word


def _compact(text: str) -> str:
    return "".join(text.split()).casefold()


def _korean_old_phrase(before: str) -> str:
    """The old value right before a Korean cue: its last word, with a numeral before a counter ("만 보")."""
    words = before.split()
    while words and words[-1] in ("이제", "더", "이상", "더이상", "아예", "이젠", "요즘은", "원래"):
        words.pop()  # "유성 이제 안 살아": the adverb between value and cue
    if not words:
        return ""
    last = _strip_particle(words[-1])
    if last in GENERIC_HEADS and len(words) >= 2 and re.fullmatch(r"[가-힣A-Za-z0-9]{2,}", words[-2]) \
            and not re.search(r"(?:던|는|은|할|한)$", words[-2]):
        last = words[-2]  # "편의점 알바 관뒀어": the shop, not every 알바 (a verb's "다니던 알바" keeps 알바)
    if not re.search(r"[\w가-힣]", last) or re.search(r"[ㄱ-ㅎㅏ-ㅣ]|요$", last) or last in KO_NOT_VALUE \
            or last in PERSON_NOUNS:
        return ""  # laughter, a verb ("아파서요"), a filler or a role ("친구랑 헤어졌어") is not a value
    phrase = [last]
    if len(words) >= 2 and _NUMERAL.match(words[-2]):
        phrase.insert(0, words[-2])  # "만 보", "두 권", "여섯 시"
    return " ".join(phrase)


_DAY_OR_WEEKDAY_EN = re.compile(r"\d{1,2}(?:st|nd|rd|th)|(?:mon|tues|wednes|thurs|fri|satur|sun)day", re.I)


def _english_old_terms(phrase: str) -> list[str]:
    words = [w.strip("'") for w in phrase.split()]
    kept = [w for w in words if w.casefold() not in EN_NOT_VALUE and not w.casefold().endswith("n't")]
    if len(kept) > 1 and any(_DAY_OR_WEEKDAY_EN.fullmatch(w) for w in kept):
        return kept  # "not wednesday the 14th anymore": each is written apart ("wednesday the 21st" keeps wednesday)
    return [" ".join(kept)] if kept else []


_NATIVE_UNITS = {"한": 1, "하나": 1, "두": 2, "둘": 2, "세": 3, "셋": 3, "네": 4, "넷": 4, "다섯": 5, "여섯": 6, "일곱": 7,
                 "여덟": 8, "아홉": 9}
_NATIVE_TENS = {"열": 10, "스무": 20, "스물": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60}
_SINO_DIGITS = dict(zip("일이삼사오육칠팔구", range(1, 10)))
_SINO_POWERS = {"십": 10, "백": 100, "천": 1000}


def numeral_value(word: str) -> int | None:
    """The number a numeral word writes: "7,000" → 7000, "칠천" → 7000, "만" → 10000, "열다섯" → 15."""
    word = word.replace(" ", "")
    if re.fullmatch(r"\d[\d,]*", word):
        return int(word.replace(",", ""))
    for tens, tens_value in _NATIVE_TENS.items():
        if word.startswith(tens):
            rest = word[len(tens):]
            if not rest:
                return tens_value
            if rest in _NATIVE_UNITS:
                return tens_value + _NATIVE_UNITS[rest]
    if word in _NATIVE_UNITS:
        return _NATIVE_UNITS[word]
    if not re.fullmatch(r"[일이삼사오육칠팔구십백천만]+", word):
        return None
    total, section, digit = 0, 0, None
    for char in word:
        if char in _SINO_DIGITS:
            digit = _SINO_DIGITS[char]
        elif char == "만":
            total += (section + (digit or 0) or 1) * 10000
            section, digit = 0, None
        else:
            section += (digit or 1) * _SINO_POWERS[char]
            digit = None
    return total + section + (digit or 0)


def _spellings(term: str) -> list[str]:
    """A typed value in the other ways it is written: "만 보" → "10000보", "10,000보", "1만보"."""
    match = _TYPED.fullmatch(term.strip())
    if not match or not match.group("unit"):
        return []
    number = numeral_value(term[:match.start("unit")].strip())
    if number is None:
        return []
    unit = match.group("unit")
    forms = [f"{number}{unit}", f"{number:,}{unit}"]
    if number >= 10000 and number % 10000 == 0:
        forms.append(f"{number // 10000}만{unit}")
    if number >= 1000 and number % 1000 == 0 and number < 10000:
        forms.append(f"{number // 1000}천{unit}")
    return [form for form in forms if _compact(form) != _compact(term)]


# A typed value in a clause that says it used to be so ("하루 반 갑씩 피던 내가"): the old one.
_USED_TO_AFTER = re.compile(r"^\S{0,3}\s?\S{0,4}?던")


# A typed value the user asks whether they said, then gives another of the same unit: "내가 여덟살이라고 했지요?
# 아홉살이래요", "아들 열한 살이라고 했었죠? 제가 헷갈렸네요, 준호 열두 살이에요" — the asked one is old. ("했잖아", a
# reminder, is no such question.)
_SAID_ASKED_AFTER = re.compile(r"^\s*(?:이)?라(?:고)?\s*(?:했|말했|그랬|적었|썼)(?:었)?(?:지|죠|나|던가|던가요|지요|나요)\s*\?")


_DELTA_AFTER = re.compile(r"\s*더(?![가-힣])")


def _by_unit(text: str) -> dict[str, list[re.Match]]:
    by_unit: dict[str, list[re.Match]] = {}
    for match in _TYPED.finditer(text):
        if _DELTA_AFTER.match(text, match.end()):
            continue  # "테이블 네 개 더 들였어요. 이제 열여섯 개": what was added, not what it was
        unit = "age" if match.group("age") else match.group("unit")
        by_unit.setdefault(unit, []).append(match)
    return by_unit


def said_then_other(text: str, by_unit: dict[str, list[re.Match]] | None = None) -> list[str]:
    """Typed values asked as said before, with a different value of the same unit after them: old ones
    (`by_unit`: the text's typed values by unit, when the caller has them)."""
    old = []
    for matches in (by_unit if by_unit is not None else _by_unit(text)).values():
        for index, match in enumerate(matches):
            if _SAID_ASKED_AFTER.match(text[match.end():]) and any(
                    _compact(later.group(0)) != _compact(match.group(0)) for later in matches[index + 1:]):
                old.append(match.group(0))
    return old


def _typed_old_terms(text: str) -> list[str]:
    """Old typed values: of two different values of one unit, the one not right after "이제"/the cue is old."""
    by_unit = _by_unit(text)
    old: list[str] = [m.group(0) for ms in by_unit.values() for m in ms if _USED_TO_AFTER.match(text[m.end():])]
    old += said_then_other(text, by_unit)
    for matches in by_unit.values():
        if len({_compact(m.group(0)) for m in matches}) < 2:
            continue
        new = [m for m in matches if _NOW_BEFORE.search(text[:m.start()][-12:]) or _NEW_AFTER.match(text[m.end():])]
        if not new:
            continue
        new_values = {_compact(m.group(0)) for m in new}
        old += [m.group(0) for m in matches if _compact(m.group(0)) not in new_values]
    return old


# A date the message says was wrong or is no longer the one: right before "이라고 했"/"이 아니고"/"is canceled", or
# after "not". Of two dates in a correcting message with neither marked, the earlier one is the old one.
_DATE_WAS_AFTER = re.compile(r"^\s*(?:이?라(?:고)?\s*(?:했|말했|한\s*거)(?:지|잖아요|잖아|던가|는데|었는데|죠)?\??|(?:이|가)?\s*아니(?:고|라|야|래|었)|(?:test\s+|exam\s+)?"
                             r"(?:is|was|got|has\s+been)\s+(?:canceled|cancelled|called\s+off|moved|postponed))", re.I)
_DATE_WAS_BEFORE = re.compile(r"(?:\bnot|\bisn'?t|\bwasn'?t|\binstead\s+of)\s*(?:the\s+|on\s+)?$", re.I)


def _date_forms(text: str, mention: MonthDay) -> list[str]:
    """A date as `text` writes it and in both languages' forms ("6월 3일", "June 3"): what an old date is matched by."""
    english = format_month_day(mention.month, mention.day, False)  # "July 19"
    month, day = english.split()
    suffix = "th" if 10 <= mention.day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(mention.day % 10, "th")
    short = month[:3]  # "Dec 5th weekend", "5 Dec"
    return [text[mention.start:mention.end], format_month_day(mention.month, mention.day, True), english,
            f"{month} {day}{suffix}", f"{day} {month}", f"{day}{suffix} {month}", f"{day}{suffix} of {month}",
            f"{short} {day}", f"{short} {day}{suffix}", f"{day} {short}"]


# A day said alone after a full date ("my birthday's the 19th of july? it's not, it's the 17th", "7월 19일 아니고 17일"):
# the same month's day.
_DAY_ALONE = re.compile(r"(?<![\w/.-])(?:the\s+)?(?P<en>\d{1,2})(?:st|nd|rd|th)\b"
                        r"(?!\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
                        r"|(?<![\d월./-])(?<!월\s)(?P<ko>\d{1,2})\s*일(?![가-힣]{0,1}(?:동안|간|째|만에))", re.I)


def _same_month_days(text: str, full: MonthDay) -> list[MonthDay]:
    """The first day said alone after the full date, and any said before it as the wrong one ("it's not the 19th
    anymore, we leave sunday dec 20")."""
    found, before = [], []
    for match in _DAY_ALONE.finditer(text):
        day = int(match.group("en") or match.group("ko"))
        if not 1 <= day <= 31 or day == full.day:
            continue
        if match.start() >= full.end:
            found.append(MonthDay(full.month, day, match.start(), match.end()))
        elif match.end() <= full.start and (_DATE_WAS_BEFORE.search(text[:match.start()])
                                            or _DATE_WAS_AFTER.match(text[match.end():])):
            before.append(MonthDay(full.month, day, match.start(), match.end()))
    return before + found[:1]


def _date_old_terms(text: str) -> list[tuple[int, int, list[str], bool]]:
    """Old dates in a correcting message, each with the span to cut and how else it is written: "생일 6월 3일이라고
    했지? 잘못말함 6월 13일임" → (6월 3일이라고 했, [6월 3일, June 3]); "its june 21 not june 12" → (not june 12, ...).
    A day said alone is taken to be in the new date's month, unless the message moves an event ("ENT on the 8th is
    cancelled … new date is Jan 19": the 8th was the event's old date, in whatever month older memories give it)."""
    mentions_ = find_month_days(text)
    guessed: list[MonthDay] = []
    if len({m.key for m in mentions_}) == 1:
        guessed = _same_month_days(text, mentions_[-1])
        mentions_ = mentions_ + guessed
    if len({m.key for m in mentions_}) < 2:
        return []
    after = {id(m): _DATE_WAS_AFTER.match(text[m.end:]) for m in mentions_}
    before = {id(m): _DATE_WAS_BEFORE.search(text[:m.start]) for m in mentions_}
    moved = bool(guessed) and moved_event(text) is not None
    if moved:  # an event moved: an unmarked day alone was its old date, which older memories give a month
        mentions_ = [m for m in mentions_ if not any(m is g for g in guessed) or after[id(m)] or before[id(m)]]
        if len({m.key for m in mentions_}) < 2:
            return []
    marked = [m for m in mentions_ if after[id(m)] or before[id(m)]]
    if len(marked) == len(mentions_):
        return []  # every date marked: nothing says which one holds
    old = marked or [m for m in mentions_ if m.key != mentions_[-1].key]
    found = []
    for m in old:
        start = m.start - len(before[id(m)].group(0)) if before[id(m)] else m.start
        end = m.end + len(after[id(m)].group(0)) if after[id(m)] else m.end
        forms = _date_forms(text, m)
        if moved and any(m is g for g in guessed):  # "ENT on the 8th is cancelled … new date is Jan 19": Dec 8 too
            earlier = MonthDay(12 if m.month == 1 else m.month - 1, m.day, m.start, m.end)
            forms += [form for form in _date_forms(text, earlier) if form not in forms]
        found.append((start, end, forms, bool(marked)))
    return found


def _clauses(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for match in _CLAUSE_BREAK.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return [(s, e) for s, e in spans if text[s:e].strip()]


def _latin_pattern(term: str) -> str:
    """Whole words, and whole numbers ("june 1" is not in "june 12")."""
    return r"(?<![A-Za-z\d])" + r"\s*".join(re.escape(part) for part in term.split()) + r"(?![A-Za-z\d])"


def mentions(text: str, term: str) -> bool:
    """Whether `text` uses `term`: spacing and case ignored, whole words for Latin terms ("van" is not "advantage")."""
    if not term:
        return False
    if re.search(r"[A-Za-z]", term):
        return re.search(_latin_pattern(term), text, re.I) is not None
    if term[:1].isdigit():  # "4일" is not in "14일"
        return _whole_number_in(_compact(text), _compact(term))
    return _compact(term) in _compact(text)


def _whole_number_in(folded: str, term: str) -> bool:
    """Whether `term` (starting with a digit) is in `folded` with no digit right before it."""
    start = folded.find(term)
    while start != -1:
        if start == 0 or not folded[start - 1].isdigit():
            return True
        start = folded.find(term, start + 1)
    return False


# A value that states the old one ended ("연애 안 함" beside "이제 연애 안 해") is the new value, not the old one.
NEGATED_VALUE = re.compile(r"안\s*함|안\s*해|않|끊|금연|금주|없음|\bno\b|\bnot\b|\bquit\b|\bnon-?\b|\bex-", re.I)


def is_old_value(value: str, terms) -> bool:
    """Whether a fact's `value` is one of the old values `terms` (and not the statement that it ended)."""
    return any(mentions(value, term) for term in terms) and not NEGATED_VALUE.search(value)


def mentions_any(terms) -> Callable[[str], bool]:
    """`mentions` for many terms at once, prepared once: the test for each of many texts (the prompt block)."""
    terms = [term for term in terms if term]
    compact = [_compact(term) for term in terms if not re.search(r"[A-Za-z]", term) and not term[:1].isdigit()]
    numbered = [_compact(term) for term in terms if not re.search(r"[A-Za-z]", term) and term[:1].isdigit()]
    latin = [term for term in terms if re.search(r"[A-Za-z]", term)]
    pattern = re.compile("|".join(_latin_pattern(term) for term in latin), re.I) if latin else None

    def test(text: str) -> bool:
        if compact or numbered:
            folded = _compact(text)
            if any(term in folded for term in compact):
                return True
            if any(_whole_number_in(folded, term) for term in numbered):
                return True
        return pattern is not None and pattern.search(text) is not None
    return test


def _is_species(phrase: str) -> bool:
    """Whether `phrase` ends in a kind of animal, not a name ("우리 고양이", "고양" as the analyser cuts "고양이")."""
    last = phrase.split()[-1]
    return last in ANIMALS_KO or f"{last}이" in ANIMALS_KO


def _cue_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, old phrase) of every cue in `text` with the old value it names."""
    found: list[tuple[int, int, str]] = []
    changed = any(marker in text.casefold() for marker in CHANGE_MARKERS)
    plainly_changed = any(marker in text.casefold() for marker in STRONG_CHANGE_MARKERS) \
        or _JOINED_KO.search(text) is not None
    for pattern, needs_change, contrast in ((_CESSATION_KO, False, False), (_WEAK_CESSATION_KO, True, False),
                                            (_CONTRAST_KO, True, True), (_FROM_TO_KO, "plainly", True),
                                            (_LEAVING_KO, "plainly", False)):
        if not plainly_changed if needs_change == "plainly" else (needs_change and not changed):
            continue
        for match in pattern.finditer(text):
            if not contrast and (_NOT_DONE_AFTER.match(text, match.end())
                                     or _NOT_DONE_BEFORE.search(text[max(0, match.start() - 3):match.start()])):
                continue
            clause_start = max([0] + [m.end() for m in _CLAUSE_BREAK.finditer(text[:match.start()])])
            before = text[clause_start:match.start()]  # for "X에서 Y로 옮겼" that ends with X
            phrase = _korean_old_phrase(before)
            if phrase and match.group(0).startswith("이름") and _is_species(phrase):
                phrase = ""  # "고양이 이름 바꿨어": what is renamed, not its old name
            if phrase:
                start = clause_start + before.rfind(phrase.split()[0])
                parted = _PARTED_FROM.match(match.group(0))
                ending = _CUE_ENDING_KO.match(text, match.end()) if not contrast and not parted else None
                # "카리나에서 해린으로": only "카리나에서" goes, the new value stays; "소희랑 헤어짐": only "소희랑", the
                # breakup (and its date) stays
                end = match.start() + len("에서") if pattern is _FROM_TO_KO \
                    else match.start() + len(parted.group(0)) if parted else match.end()
                found.append((start, ending.end() if ending else end, phrase))
    for pattern in _PAST_THEN_NOW_KO:
        for match in pattern.finditer(text):
            old = _strip_particle(match.group("old"))
            if old not in KO_NOT_VALUE and not _VOCATIVE.match(old):
                found.append((match.start("old"), match.end(), old))
    if any(marker in text.casefold() for marker in CHANGE_MARKERS if marker != "instead"):
        # "change of plans. I signed up for the half marathon instead of the 10K" (not "tea instead of coffee today")
        for match in _INSTEAD_OF.finditer(text):
            for term in _english_old_terms(match.group("old")):
                found.append((match.start(), match.end(), term))
    for pattern in _CESSATION_EN:
        for match in pattern.finditer(text):
            start = text.rfind(" ", 0, match.start()) + 1 if match.group(0).startswith("n't") else match.start()
            if "keep" in pattern.groupindex:  # "is ten, not nine": the new value stays
                start = match.end("keep")
            end = match.end()
            if "from" in pattern.pattern and re.search(r"\b(?:from|out\s+of)\s+$", text[:match.start("old")]):
                # "changed my major from biology to nursing": only "from biology " goes
                start = text.rfind("from", 0, match.start("old")) if "from" in text[:match.start("old")] else start
                end = match.end("old")
            for term in _english_old_terms(match.group("old")):
                found.append((start, end, term))  # "don't play X anymore" from its first word
    return found


_INSTEAD_OF = re.compile(r"\binstead\s+of\s+(?:the\s+|my\s+|a\s+|an\s+)?(?P<old>[\w'-]+(?:\s+(?!and\b|but\b|so\b|now\b)[\w'-]+)?)",
                         re.I)
_RENAMED = re.compile(r"이름|renam|name")
# A message that renames something ("필명 바꿨어. 새벽고래 말고 이제 '밤고래'야 … 새벽고래는 이미 쓰는 작가가 있더라"): every old
# name it contrasts stays old, however often the rest repeats it.
_RENAMES = re.compile(r"(?:이름|필명|닉네임|닉|별명|아이디|예명|작가명|활동명)\s*(?:을|를|도|은|는)?\s*(?:바꿈|바꿨|바꿔|바꾸었|바꾸기로|"
                      r"바뀜|바뀌었|바꼈|변경|개명)|\brenam|\bchanged?\s+(?:\w+\s+){0,2}name|\bname\s+change|\bnew\s+name\b",
                      re.I)


def find_correction(text: str) -> Correction | None:
    """The old terms `text` says no longer hold, and the text without them; None when it corrects nothing."""
    if not text or is_unreal(text) or any(guard.search(text) for guard in _GUARDS):
        return None
    spans = _cue_spans(text)
    dates = _date_old_terms(text)
    changed = any(marker in text.casefold() for marker in CHANGE_MARKERS)
    if not spans and not changed and not any(marked for *_, marked in dates) and not said_then_other(text):
        return None  # a date marked as the wrong one ("march 30 not march 13") is a correction by itself, and so is
        # a value asked as said before, then another one ("여덟살이라고 했지요? 아홉살이래요")
    dates = [date for date in dates if changed or date[3]]
    terms = [phrase for _, _, phrase in spans]
    cue_terms = set(terms)
    terms += _typed_old_terms(text) + [term for _, _, written, _ in dates for term in written]
    spans += [(start, end, written[0]) for start, end, written, _ in dates]
    # An old term the message goes on to use as current is not old ("병원 그만두고 다른 병원 가") — except an old name,
    # which the rest of a rename may well repeat ("Mochi 이름 바꿨어 이제 Bori야. 엄마가 Mochi는 발음 어렵대").
    last_cue_end = max((end for _, end, _ in spans), default=0)
    rest = text[last_cue_end:]
    renames = _RENAMES.search(text) is not None
    renamed = {phrase for start, end, phrase in spans if renames or _RENAMED.search(text[start:end])}
    # "월수금 아니고 이제 화목 반. 월수금 반 선생이 …": a value contrasted with its successor is old however the rest
    # goes on about it (unlike "병원 그만두고 다른 병원 가", where the cue only ends a stint).
    renamed |= {phrase for start, end, phrase in spans if _CONTRAST_KO.search(text[start:end])
                and re.search(r"[가-힣A-Za-z0-9]", text[end:end + 12])}
    if any(_CONTRAST_KO.search(text[start:end]) for start, end, _ in spans):
        # "몬스테라 이름 바꿈 … 몬순이 말고 이제 몬식이": the contrast names the old name; before "이름" is whose it is
        named = {phrase for start, end, phrase in spans if _RENAMED.search(text[start:end])
                 and not _CONTRAST_KO.search(text[start:end])}
        spans = [span for span in spans if span[2] not in named or _CONTRAST_KO.search(text[span[0]:span[1]])]
        terms = [term for term in terms if term not in named]
    kept: list[str] = []
    for term in terms:
        if len(_compact(term)) < MIN_TERM_CHARS or term.casefold() in KO_NOT_VALUE or re.fullmatch(r"[\d\s,.]+", term):
            continue  # a bare number ("July 12 아니고" → "12") would be every "12" anywhere
        if term in cue_terms and term not in renamed and mentions(rest, term):
            continue
        if all(_compact(term) != _compact(k) for k in kept):
            kept.append(term)
    if not kept:
        return None
    # A neighbourhood is named with and without its suffix ("망원동", "망원"), a count in words or digits.
    for variant in [term[:-1] for term in kept if re.fullmatch(r"[가-힣]{2,}[동구읍면리역]", term)] \
            + [form for term in kept for form in _spellings(term)]:
        if all(_compact(variant) != _compact(k) for k in kept):
            kept.append(variant)
    return Correction(tuple(kept), _without(text, spans, kept))


def _without(text: str, spans: list[tuple[int, int, str]], terms: list[str]) -> str:
    """`text` with each cue span cut out of its clause, then without the clauses that still use an old term."""
    return without_terms(text, terms, cuts=sorted((start, end) for start, end, phrase in spans if phrase in terms))


def without_terms(text: str, terms, cuts: list[tuple[int, int]] = (), keep: str = "") -> str:
    """`text` without its clauses that use one of `terms` (and without a clause a cut left with almost nothing:
    "유나야 나 이제"), except one that says `keep`; '' when nothing is left. Kept clauses keep their punctuation."""
    bounds = _clauses(text)
    out = []
    for index, (start, end) in enumerate(bounds):
        separator = text[end:bounds[index + 1][0]] if index + 1 < len(bounds) else text[end:]
        pieces, position, cut = [], start, False
        for cut_start, cut_end in cuts:
            if start <= cut_start < end and cut_start >= position:
                pieces.append(text[position:cut_start])
                position, cut = min(cut_end, end), True
        pieces.append(text[position:end])
        clause = " ".join(" ".join(pieces).split())
        if not clause or any(mentions(clause, term) for term in terms) and not (keep and mentions(clause, keep)):
            continue
        if cut and _only_filler(clause):
            continue
        out.append(clause + separator.rstrip())
    return " ".join(out).strip(" ,;:")


def without_words(text: str, words) -> str:
    """`text` without the words `words` where they stand alone (with a particle after a Korean one): what is left of
    a renaming clause that says the old name beside the new ("Pepper 안 어울려서 이제 호두야" → "안 어울려서 이제 호두야")."""
    for word in words:
        text = re.sub(rf"(?<![\w가-힣]){re.escape(word)}(?:이|가|은|는|을|를|도|랑|이랑)?(?![\w가-힣])\s*", "", text,
                      flags=re.I)
    return " ".join(text.split())


def substance(text: str) -> int:
    """How many letters and digits `text` has beyond a vocative or filler (what a stripped memory must keep)."""
    return len(re.sub(r"[^\w가-힣]|[ㄱ-ㅎㅏ-ㅣ]", "", text))


def corrected_facts(facts: list, user_texts: dict[str, str]) -> list:
    """The facts of any extractor with the corrections of the user's messages applied (`user_texts`: message
    id → masked text). For a message the extractor took facts from, that corrects something and has no fact
    carrying `replaces` yet (the local extractor sets it itself): its facts lose the clauses that repeat an old
    word (a fact whose value is the old one goes), and its first fact left carries `replaces` — or, if none is
    left, an episode with the message's words without the old ones does. A message the extractor took nothing
    from (role-play, chatter) stays so. Other facts are returned as they are, in order."""
    from dataclasses import replace

    from .base import ExtractedFact

    carried = {fact.source_message_id for fact in facts if fact.replaces}
    out = list(facts)
    for message_id, text in user_texts.items():
        if message_id in carried:
            continue
        own = any(fact.source_message_id == message_id and fact.speaker == "user" for fact in out)
        correction = find_correction(text) if own else None
        if correction is None:
            continue
        terms = correction.old_terms
        kept, carrier = [], None
        for fact in out:
            if fact.source_message_id != message_id or fact.speaker != "user":
                kept.append(fact)
                continue
            if fact.value and is_old_value(fact.value, terms):
                continue  # the old value itself
            content = without_terms(fact.content, terms) if any(mentions(fact.content, t) for t in terms) \
                else fact.content
            if not content and fact.subject and fact.value:  # "유성에서 세종으로 이사함" → "사는 곳: 세종"
                content = f"{label_for(fact.subject, bool(_HANGUL.search(fact.value + text)))}: {fact.value}"
            if not content:
                continue
            fact = replace(fact, content=content)
            if carrier is None:
                fact = carrier = replace(fact, replaces=terms)
            kept.append(fact)
        if carrier is None and correction.cleaned:
            kept.append(ExtractedFact(content=correction.cleaned, kind="episodic", importance=7,
                                      source_message_id=message_id, replaces=terms))
        out = kept
    return out


# --- an event moved to a new date ---------------------------------------------------------------------------------

# "소연이 결혼식 날짜가 바꼈어요 … 11월7일로 미뤘어요", "my dentist appointment got moved to june 9": one new date for an
# event named in the message; the event's older dates (in older memories) no longer hold.
MOVED_MARKERS = (r"바꼈|바뀌었|바뀜|바꿨|변경|미뤘|미뤄|미룸|연기(?:됐|되었|했|됨)|당겼|당겨졌|옮겼|앞당|\bmoved\b|\bpostponed\b"
                 r"|\brescheduled\b|\bpushed\b|\bnew\s+date\b|새\s*날짜|다시\s*(?:잡|예약)|새로\s*잡")
_MOVED = re.compile(MOVED_MARKERS, re.I)
_EVENT_KO = re.compile(r"([가-힣]{2,8}?)(?:이|가|의)?\s*(?:날짜|일정|날|예약|예정일)(?=[이가을를은는도\s]|$)")
_EVENT_MOVED_KO = re.compile(r"([가-힣]{2,8}?)(?:을|를|도)?\s*(?:\d{1,2}\s*월\s*\d{1,2}\s*일\s*(?:로|으로)\s*)?(?:미뤘|미뤄|당겼|옮겼|연기)")
_EVENT_EN = re.compile(r"\b(?:my|the|our|her|his)\s+(?:[a-z]+\s+)?([a-z]{3,})\s+(?:got|was|is|has\s+been|have\s+been)\s+"
                       r"(?:moved|postponed|rescheduled|pushed)", re.I)
# "isla's ENT on the 8th is cancelled … new date is Jan 19": an event called off, then given its new date
_EVENT_OFF_EN = re.compile(r"\b([A-Za-z]{3,})\s+(?:on\s+the\s+\d{1,2}(?:st|nd|rd|th)?\s+|appointment\s+)?"
                           r"(?:is|was|got|has\s+been)\s+(?:cancell?ed|called\s+off|moved|postponed|rescheduled)", re.I)
# "we moved the seoul trip", "the dentist moved me again": the same, said actively
_EVENT_EN_ACTIVE = re.compile(r"\b(?:we|i|they)\s+(?:moved|pushed|postponed|rescheduled|bumped)\s+(?:the|my|our)\s+"
                              r"(?:([a-z]{3,})\s+)?([a-z]{3,})\b"
                              r"|\b(?:the|my|our)\s+()([a-z]{3,})\s+(?:moved|pushed|rescheduled|postponed|bumped)\s+(?:me|us|it)\b",
                              re.I)
_VERB_ENDING = re.compile(r"(?:서|고|데|면|니|요|다|게|지|라)$")
# Ways of naming the same event (data): a moved one replaces the dates of all of them.
EVENT_SYNONYMS = (
    ("결혼식", "예식", "시집", "장가", "결혼", "wedding", "getting married"),  # "결혼" never in 결혼기념일 (_ANOTHER_DAY)
    ("수술", "surgery", "operation", "replacement", "procedure"),  # "knee replacement", "hip replacement"
    ("시험", "exam", "test", "수능", "모의고사", "필기", "실기"),
    ("면접", "interview"),
    ("내시경", "검사", "검진", "colonoscopy", "checkup"),
    ("진료", "예약", "appointment", "gp", "doctor's"),
    ("치과", "dentist", "dental"),
    ("이사", "move", "moving"),
    ("여행", "trip", "travel"),
    ("마감", "데드라인", "deadline", "due date"),
    ("학회", "컨퍼런스", "conference"),
    ("디펜스", "심사", "defense", "defence"),
    ("출국", "비행기", "항공편", "flight", "departure"),
    ("콘서트", "공연", "concert", "gig"),
)
_NOT_EVENT_WORDS = frozenset({"그거", "그게", "이거", "오늘", "내일", "어제", "다음", "이번", "저번", "그날", "원래", "갑자기",
                              "일로", "날로", "으로"})


# A day said alone as the new date ("moved me to monday the 24th", "27일로 미뤄짐"): key "??-DD".
_DAY_ONLY = re.compile(r"\bthe\s+(?P<en>\d{1,2})(?:st|nd|rd|th)\b|(?<![\d월./-])(?<!월\s)(?P<ko>\d{1,2})\s*일(?=\s*(?:로|으로|에|이야|이에요|"
                       r"임|이래|이라|[\s!.,~ㅋㅠ]|$))(?!\s*(?:동안|간|째))", re.I)


def days_alone(text: str) -> list[int]:
    """The days of the month `text` says without a month ("It's the 25th!", "25일이야")."""
    return [day for day, _ in _days_alone(text)]


def _days_alone(text: str) -> list[tuple[int, re.Match]]:
    return [(int(m.group("en") or m.group("ko")), m) for m in _DAY_ONLY.finditer(text)
            if 1 <= int(m.group("en") or m.group("ko")) <= 31]


_MOVED_TO = re.compile(r"\s*(?:으로|로)(?![가-힣])")  # "23일로": right after the date it moves to


def moved_event(text: str) -> tuple[tuple[str, ...], str] | None:
    """(the words naming the event, the new date's key "MM-DD", or "??-DD" for a day said alone) when `text` moves
    one event to one new date."""
    month_days = find_month_days(text)
    keys = {m.key for m in month_days}
    # the one a date moves to, when the message says both ("16일 예약이 23일로 바뀌었대요", "from the 5th to the 12th")
    targets = {m.key for m in month_days if _MOVED_TO.match(text, m.end)} | {
        f"??-{day:02d}" for day, m in ([] if month_days else _days_alone(text)) if _MOVED_TO.match(text, m.end())}
    if not keys:
        keys = {f"??-{day:02d}" for day, _ in _days_alone(text)}
    if len(keys) == 2 and len(targets) == 1:
        keys = targets
    if len(keys) != 1 or not _MOVED.search(text) or is_unreal(text):
        return None
    words = [m.group(1) for pattern in (_EVENT_KO, _EVENT_MOVED_KO) for m in pattern.finditer(text)]
    words += [m.group(1) for pattern in (_EVENT_EN, _EVENT_OFF_EN) for m in pattern.finditer(text)]
    words += [word for m in _EVENT_EN_ACTIVE.finditer(text) for word in m.groups() if word]
    # an event the synonyms table knows, named anywhere in the moving message ("gp just cancelled tmrw … moved me to
    # monday the 24th", "디펜스 날짜 27일로 미뤄짐")
    words += [word for group in EVENT_SYNONYMS for word in group if mentions(text, word)]
    words = [w for w in dict.fromkeys(words) if w not in _NOT_EVENT_WORDS and w.casefold() not in EN_NOT_VALUE
             and not _VERB_ENDING.search(w)]
    for group in EVENT_SYNONYMS:  # "결혼식" moved: the older "시집 가요 10월17일" was the same event
        if any(w.casefold() in group for w in words):
            words += [w for w in group if w not in words]
    return (tuple(words), keys.pop()) if words else None


# An event word inside the name of another day ("결혼" in "결혼기념일"): that memory is not about the event.
_ANOTHER_DAY = {"결혼": "결혼기념"}


def moved_event_old_dates(event: tuple[tuple[str, ...], str], older_text: str) -> list[str]:
    """The dates of `older_text` that were the event's before it moved (how they are written there, and in both
    languages' forms), or [] when it does not name the event."""
    words, new_key = event
    if not any(mentions(older_text, word) for word in words if not _ANOTHER_DAY.get(word, "\0") in older_text):
        return []
    terms: list[str] = []
    spans = _clauses(older_text)
    for start, end in spans:
        # the dates of the clauses that name the event, or of the whole text when it names it in no clause of its own
        # ("dentist next thurs the 13th, gp on tue the 18th": only the 18th was the gp's)
        clause = older_text[start:end]
        if len(spans) > 1 and not any(mentions(clause, word) for word in words):
            continue
        terms += _old_dates_in(clause, new_key)
    if not terms and len(spans) > 1:
        terms = _old_dates_in(older_text, new_key)
    return list(dict.fromkeys(terms))


def _old_dates_in(text: str, new_key: str) -> list[str]:
    if new_key.startswith("??-"):
        new_day = int(new_key[3:])
        return [form for m in find_month_days(text) if m.day != new_day for form in _date_forms(text, m)] \
            + [match.group(0) for day, match in _days_alone(text) if day != new_day]
    return [form for m in find_month_days(text) if m.key != new_key for form in _date_forms(text, m)]
