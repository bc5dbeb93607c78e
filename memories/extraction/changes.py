"""A value that changed without the message naming the old one (issue 8 §3: changes by implication).

"TRPG 모임이 이제 금요일 밤으로 바뀌었어요", "겜닉 밤샘여우로 바꿈", "울 고양이 개명함 ㅋㅋ 이제 짜장이임", "Kasia is
moving too! Got a job at an animal hospital in Perth": the message says that something it names (the anchor: "TRPG
모임", "겜닉", "고양이", "Kasia") now has a new value of some kind (a weekday, a time, a name, a place) and never says
the old one. The old one is in an older memory that names the same anchor: there, the values of the same kind are
what no longer holds ("매주 토요일 밤마다" → 토요일; "겜닉은 쿠키몬스터임" → 쿠키몬스터; "고양이 나비가" → 나비; "she's a
vet in Melbourne" → Melbourne). memories.fact_writing hands them to the same clause removal as any correction.

Like `corrections.moved_event` (an event moved to a new date), of which this is the same idea for other kinds of
value. One engine, tables as data:
- `CHANGED`: the words that say something changed;
- `KINDS`: how a value of each kind is written (the new one in the changing message, the old ones in older ones);
- `IMPLIED_ANCHORS`: change words that name what changed themselves ("염색함" is about hair);
- `NOT_ANCHOR_*`: words naming no thing whose value could change;
- `OWN_KINDS`: things the user has one of at a time, from closed lists (the game they main, their phone, their tier
  in a ranked game, the drink they live on). A message saying one is theirs now ("요새 발로만 함", "I HIT PLAT",
  "갤럭시 Z플립7 질렀어") ends the others of its kind that the user named before, wherever they are: no anchor.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .corrections import EN_NOT_VALUE, KO_NOT_VALUE, NUMERAL_KO, mentions, numeral_value
from .guards import is_unreal, is_wish
from .korean_text import person_named
from .lexicon import (CITIES_EN, CITIES_KO, COUNTRIES_EN, COUNTRIES_KO, DRINKS, GAMES, HAIR_COLOURS, HAIR_CONTEXT,
                      OTHER_PERSON_KO, PHONE_BRANDS, PHONE_MODEL, RANK_CONTEXT, RANK_TIERS)
from .morphology import analyse, content_nouns
from .whose import ANSWERED_MARK, only_about_others

# Words that say the value of something changed (a rename, a move, a switch), not that something happened.
CHANGED_KO = (r"바꿨|바꿈|바꿔(?:서|요|써|버렸)|바꾸었|바뀌었|바뀜|바뀌어서|바꼈|변경(?:됐|되었|했|함|됨)|개명|옮겼|옮김"
              r"|옮겨(?:요|서|짐|졌)|갈아탔|갈아탐|이사(?:함|했|감|갔|가요|간대|갔대|한대)|염색(?:함|했|해써)|탈색(?:함|했|해써)")
CHANGED_EN = (r"\b(?:changed|switched|renamed|swapped|dyed|bleached)\b|\bmov(?:ed|ing)\s+(?:to|too|out)\b"
              r"|\bis\s+moving\b")
# A change word that names what changed itself ("염색함ㅠ 다시 검정됨", "dyed it pink"): the anchors it implies.
IMPLIED_ANCHORS = ((re.compile(r"염색|탈색"), ("머리", "염색", "탈색")),
                   (re.compile(r"\bdyed\b|\bbleached\b", re.I), ("hair", "dyed", "bleached")))
CHANGED = f"{CHANGED_KO}|{CHANGED_EN}"
_CHANGED = re.compile(CHANGED, re.I)

WEEKDAY_KO = r"[월화수목금토일](?:요일|욜)"
_WEEKDAY_EN_WORD = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
WEEKDAY_EN = rf"\b{_WEEKDAY_EN_WORD}\b"
TIME_KO = r"(?:오전|오후|저녁|아침|밤)?\s*\d{1,2}\s*시(?![간작험즌])(?:\s*반|\s*\d{1,2}\s*분)?"
TIME_EN = r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b"
# Colours: a closed class, like weekdays ("머리 핑크로 염색함", "dyed my hair blue", "차 빨간색으로 바꿈").
COLOUR_KO = (r"(?:빨강|빨간|노랑|노란|파랑|파란|초록|검정|검은|까만|하얀|흰|갈색|브라운|금발|은발|흑발|핑크|분홍|보라|민트|애쉬"
             r"|회색|주황|와인|레드|블루|그린|블랙|화이트|오렌지|베이지|카키|네이비)(?:색)?")
COLOUR_EN = (r"\b(?:red|blue|green|black|white|pink|purple|blonde?|brown|silver|gr[ae]y|orange|teal|lilac|platinum"
             r"|auburn|ginger|navy|beige)\b")
# A part of the day ("이제 저녁에 먹으래요", "switched to evenings"), after a clock time.
DAYPART_KO = r"(?<![가-힣])(?:아침|점심|저녁|새벽)(?!\s*(?:밥|식사|메뉴|약속))|(?<![가-힣])밤(?=에|마다|으로|엔)"
DAYPART_EN = r"\b(?:mornings?|evenings?|nights?|afternoons?|bedtime)\b"
KINDS = {
    "weekday": re.compile(f"{WEEKDAY_KO}|{WEEKDAY_EN}", re.I),
    "time": re.compile(f"{TIME_KO}|{TIME_EN}", re.I),
    "colour": re.compile(f"{COLOUR_KO}|{COLOUR_EN}", re.I),
    "daypart": re.compile(f"{DAYPART_KO}|{DAYPART_EN}", re.I),
}
_DAYPART_KEYS = {"아침": "am", "morning": "am", "점심": "noon", "afternoon": "noon", "저녁": "pm", "evening": "pm",
                 "밤": "night", "night": "night", "bedtime": "night", "새벽": "dawn"}
_WEEKDAY_KEYS = {"월": "mon", "화": "tue", "수": "wed", "목": "thu", "금": "fri", "토": "sat", "일": "sun",
                 "mon": "mon", "tue": "tue", "wed": "wed", "thu": "thu", "fri": "fri", "sat": "sat", "sun": "sun"}

# The new name or place of the anchor: "밤샘여우로 바꿈", "부산으로 이사감", "이제 짜장이임", "changed it to Bori",
# "in Perth". (A place in English is a capitalised word after "to" or "in".)
_NEW_NAME_KO = re.compile(rf"(?<![가-힣])([가-힣A-Za-z][가-힣A-Za-z0-9]{{1,11}}?)(?:으로|로)\s*(?:[가-힣]+\s+)?(?={CHANGED_KO})")
_NOW_NAME_KO = re.compile(r"(?:이제|지금은|now)\s*([가-힣A-Za-z]{2,10}?)(?:이)?(?:임|야|예요|이에요|입니다|래|이래)(?![가-힣])")
_NEW_NAME_EN = re.compile(r"\b(?:to|in|named|called)\s+((?:(?:Ms|Mr|Mrs|Dr)\.?\s+)?[A-Z][\w'-]+)")
# Old names and places in an older memory, right after the anchor ("고양이 나비가", "겜닉은 쿠키몬스터임", "tutor Ms. Jung")
# or, in English, after "in"/"to"/"from" in a clause naming it ("she's a vet in Melbourne").
_KO_AFTER_ANCHOR = r"(?:\s*(?:이름은|이름이|이름|닉은|은|는|이|가|도)\s*|\s+)([가-힣A-Za-z][가-힣A-Za-z0-9]{1,11})"
_EN_AFTER_ANCHOR = r"(?:'s\s+name\s+is|\s+is|\s+was|\s+named|\s+called|,)?\s+((?:(?:Ms|Mr|Mrs|Dr)\.?\s+)?[A-Z][\w'-]+)"
_EN_PLACE = re.compile(r"\b(?:in|to|from)\s+([A-Z][a-z][\w'-]+)")
# A particle or copula right after a name ("나비가", "쿠키몬스터임"): what tells a name from a noun that only
# follows the anchor ("강아지 산책 가자고"), unless the word is a proper noun ("누나 광주 살아").
# A count said to be the one now ("테이블 네 개 더 들였어요. 이제 열여섯 개예요", "직원 이제 두 명이에요"): a number with
# its counter after "이제"/"지금은". Its kind is "count:<counter>"; the older values are that counter's other numbers.
COUNTERS_KO = r"개|명|마리|살|권|대|채|곳|층|평|벌|그루|군데"
_NOW_COUNT_KO = re.compile(rf"(?:이제|지금은|이젠)\s*(?:[가-힣]+\s+)?"
                           rf"(?P<value>(?P<number>{NUMERAL_KO})\s?(?P<unit>{COUNTERS_KO}))(?!\s*(?:씩|더|째))")
_COUNT_KO = re.compile(rf"(?<![가-힣\d])(?P<number>{NUMERAL_KO})\s?(?P<unit>{COUNTERS_KO})(?![가-힣]?(?:씩|째))")
COUNT = "count:"
_KO_NAME_ENDING = re.compile(r"(?:가|는|은|도|랑|야|임|이야|이에요|예요|입니다)$")
_CLAUSE = re.compile(r"[.!?\n…;~]+|ㅋ{2,}|ㅎ{2,}|[ㅠㅜ]{2,}")

# Words that name no thing whose value changes (markers, times, fillers): never an anchor.
NOT_ANCHOR_KO = frozenset("개명 이사 변경 이름 지금 이제 요즘 다음 이번 오늘 어제 내일 멤버 명 주말 근무 새로 다시 색".split())
NOT_ANCHOR_EN = frozenset("""also too now just got get new job jobs moving moved changed switched renamed swapped name
today tomorrow yesterday week month year yeah okay lol haha guess actually she he they we you him them
""".split()) | EN_NOT_VALUE
_CALENDAR_EN = re.compile(r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
                          rf"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|{_WEEKDAY_EN_WORD}", re.I)
_VOCATIVE_EN = re.compile(r"[A-Z][a-z]+\s*,")
_WORD_EN = re.compile(r"[A-Za-z][\w'-]+")
_HANGUL = re.compile(r"[가-힣]")


@dataclass(frozen=True)
class Change:
    anchors: tuple[str, ...]  # what the message names as having changed ("TRPG", "모임")
    kind: str  # "weekday", "time", "name", "place"
    new: str  # the new value as written
    said_old: tuple[str, ...] = ()  # old values the message itself names as old ("Biscuit has a new name")
    key: str = ""  # an own kind's value, as its list knows it ("발로" → valorant)
    message: str = field(default="", compare=False, repr=False)  # the changing message (a name it says beside)


# What says a value of an own kind is the user's now. A kind takes its value when `cue` holds in the value's
# clause or a neighbouring one: `switch` alone, or `now` together with the kind's own word of devotion or arrival.
_NOW = r"요즘|요새|이제|이젠|지금은|드디어|\bnow\b|\brn\b|these\s+days|lately|finally|anymore|instead"
_SWITCH = r"갈아탔|갈아탐|갈아타|바꿨|바꿈|바꿔|바꾸었|\bswitched\b|\bswapped\b|\bchanged\b"
_OWN_NOT = re.compile(r"\bnot\b|n't\b|\bnever\b|\bquit\b|\bstopped\b|\buninstall"
                      r"|(?<![가-힣])(?:안|못)\s*(?:해|하|함|마셔|마심|써|씀|쓰)|끊|접었|접음|그만|싫", re.I)
# A value named as the one left, before the new one ("롤 접고", "메이플에서", "from valorant", "instead of coffee").
_LEFT_AFTER = re.compile(r"\s*(?:을|를|은|는|이|가)?\s*(?:접고|접음|접었|말고|대신|에서|끊고|끊었|그만두고|관두고)")
_LEFT_BEFORE = re.compile(r"\b(?:from|quit|quitting|instead\s+of|not|no\s+more|over)\s+$", re.I)
# One more, not another ("롤도 시작함", "i play apex too"): "도"/"까지" right after the value, or an English "too".
_ADDED_AFTER = re.compile(r"\s*(?:도|까지)(?:\s|$)")
_ADDED = re.compile(r"\btoo\b|\bas\s+well\b|\balso\s+(?:play|started|got|drink)", re.I)


@dataclass(frozen=True)
class OwnKind:
    values: dict[str, str]  # key → how it is written
    devotion: str  # with a `_NOW` word (alone when `alone`), says the value is the user's now
    needs: str = ""  # a value counts only in a clause with this (a tier is a rank beside a rank word, or a number)
    alone: bool = False

    def pattern(self) -> re.Pattern:
        return re.compile("|".join(f"(?P<{key}>{written})" for key, written in self.values.items()), re.I)


OWN_KINDS = {
    "game": OwnKind(GAMES, r"\bmain(?:ing)?\b|my\s+(?:whole\s+)?life|obsessed|addicted|hooked|grinding|시작|입문|빠졌|빠짐|중독"
                           r"|만\s*(?:함|해|하|했)"),
    "phone": OwnKind({key: rf"(?:{brand}){PHONE_MODEL}" for key, brand in PHONE_BRANDS.items()},
                     r"샀|삼(?![가-힣])|질렀|지름|구매|장만|\bbought\b|\bgot\s+(?:a|the|my)\s+new\b|new\s+phone|새\s*폰"
                     r"|\bupgraded\b|쓰는\s*중|\busing\b", alone=True),
    "rank": OwnKind(RANK_TIERS, r"\bhit\b|\breached\b|made\s+it\s+to|got\s+to|ranked\s+up|찍|달성|승급|올라|올림|됐|됨",
                    needs=rf"{RANK_CONTEXT}|찍음|찍었|찍어|\bhit\b|\breached\b", alone=True),
    "hair": OwnKind(HAIR_COLOURS, r"염색|탈색|새로|했|\bdyed?\b|\bbleach|\bwent\b|\bgot\b", needs=HAIR_CONTEXT, alone=True),
    "drink": OwnKind(DRINKS, r"없으면|최애|빠졌|빠짐|꽂혔|꽂힘|중독|맨날|매일|만\s*마|addicted|obsessed|every\s*day|hooked"
                             r"|only\s+drink"),
}
_OWN_PATTERNS = {kind: own.pattern() for kind, own in OWN_KINDS.items()}
# Cheap tests first (most messages name no value of an own kind, or say nothing is theirs now).
_ANY_OWN_VALUE = re.compile("|".join(f"(?:{written})" for own in OWN_KINDS.values() for written in own.values.values()),
                            re.I)
_ANY_OWN_CUE = re.compile("|".join([_NOW, _SWITCH, _LEFT_AFTER.pattern, _LEFT_BEFORE.pattern.removesuffix("$")]
                                   + [own.devotion for own in OWN_KINDS.values()]), re.I)
_NOW_RE = re.compile(_NOW, re.I)
_SWITCH_RE = re.compile(_SWITCH, re.I)
_DEVOTION = {kind: re.compile(own.devotion, re.I) for kind, own in OWN_KINDS.items()}
_NEEDS = {kind: re.compile(own.needs, re.I) for kind, own in OWN_KINDS.items() if own.needs}
# Whose a value is, when a person other than the speaker is the subject right before it ("marcus is diamond 3").
_SOMEONE_ELSES = re.compile(r"(?<!\bmy\s)(?<!\bour\s)\b(?!(?:i|im|i'm|me|my|mine|it|its|this|that|rank|tier|main|hair"
                            r"|phone|game|drink|color|colour)\b)[a-z]+\s+(?:is|was|'s|got|hit|reached|plays|mains)\s+"
                            r"(?:(?:like|literally|already|now|still)\s+)?$", re.I)
_KO_SUBJECT_BEFORE = re.compile(r"([가-힣]{1,4}?)(?:이)?(?:은|는|이|가|도)\s+(?:[가-힣]+\s+)?$")
_OWN_CLAUSE = re.compile(r"[.!?\n…;~]+|,\s|ㅋ{2,}|ㅎ{2,}|[ㅠㅜ]{2,}|\s+(?:but|so)\s+")


def _own_values(kind: str, clause: str) -> list[tuple[str, str]]:
    """(key, as written) of each value of the own kind `kind` in `clause`."""
    found = []
    for m in _OWN_PATTERNS[kind].finditer(clause):
        key = m.lastgroup
        written = m.group(0).strip()
        if kind in _NEEDS and not _NEEDS[kind].search(clause) \
                and not (kind == "rank" and re.match(r"\s?\d", clause[m.end():m.end() + 2])):
            continue  # "gold 2", "hardstuck gold"; not "gold necklace"
        if re.match(r"[A-Za-z]", written) and re.match(r"[A-Za-z]", clause[m.end():m.end() + 1]):
            continue
        if kind == "phone":
            key = f"{key}:" + re.sub(r"[^0-9a-z가-힣+]", "", _brand_and_model(key, written)[1].casefold())
        found.append((key, written))
    return found


def _brand_and_model(family: str, written: str) -> tuple[str, str]:
    """A phone as written, split into its brand and the rest ("아이폰 13 미니" → "아이폰", "13 미니")."""
    brand = re.match(PHONE_BRANDS[family], written, re.I).group(0)
    return brand, written[len(brand):].strip()


def own_change(text: str) -> Change | None:
    """The value of an own kind `text` says is the user's now, with no anchor (the kind is the thing), or None."""
    own = text.split(ANSWERED_MARK, 1)[0]
    if not own or not _ANY_OWN_CUE.search(own) or not _ANY_OWN_VALUE.search(own) or is_unreal(own) or is_wish(own):
        return None
    clauses = [c for c in _OWN_CLAUSE.split(own) if c.strip()]
    # the value in the clause that says it is theirs now first, then one beside such a clause ("i switched to matcha.
    # the oat latte was making me jittery": matcha)
    for near_only in (False, True):
        for kind in OWN_KINDS:
            change = _own_change_of(kind, clauses, near_only)
            if change is not None:
                return change
    return None


def _own_change_of(kind: str, clauses: list[str], near_only: bool) -> Change | None:
    """The value of `kind` a clause says is the user's now: by its own words, or (`near_only`) by a clause beside it."""
    for index, clause in enumerate(clauses):
        values = _own_values(kind, clause)
        if not values:
            continue
        # "롤 접고 오버워치만 함", "switched from valorant to rivals": the one left is named, the other is new
        left = [(key, written) for key, written in values
                if _LEFT_AFTER.match(clause, clause.find(written) + len(written))
                or _LEFT_BEFORE.search(clause[:clause.find(written)])]
        new = [(key, written) for key, written in values if key not in {k for k, _ in left}]
        rest = clause[max((clause.find(w) + len(w) for _, w in left), default=0):]
        if len({key for key, _ in new}) != 1 or _OWN_NOT.search(_LEFT_AFTER.sub("", rest, count=1)) \
                or _ADDED.search(rest) \
                or any(_ADDED_AFTER.match(clause, clause.find(w) + len(w)) for _, w in new):
            continue
        near = " ".join(clauses[max(0, index - 1):index + 2]) if near_only else clause
        if left or _SWITCH_RE.search(near) or (_NOW_RE.search(near) and _DEVOTION[kind].search(near)) \
                or (OWN_KINDS[kind].alone and _DEVOTION[kind].search(near)):
            return Change((), kind, new[0][1], tuple(written for _, written in left), new[0][0])
    return None


def _someone_elses(before: str) -> bool:
    """Whether a person other than the speaker is the subject right before a value ("marcus is", "언니는 핑크 …")."""
    if _SOMEONE_ELSES.search(before):
        return True
    subject = _KO_SUBJECT_BEFORE.search(before)
    return subject is not None and (subject.group(1) in OTHER_PERSON_KO or person_named(subject.group(1)))


def without_left(text: str, change: Change) -> str:
    """`text` without the old values its change names as left, and the words that leave them ("메이플 접고 발로란트만 함"
    → "발로란트만 함", "switched from valorant to rivals" → "switched to rivals")."""
    for word in change.said_old:
        text = re.sub(re.escape(word) + _LEFT_AFTER.pattern + r"\s*", "", text)
        text = re.sub(r"\b(?:from|instead\s+of|over)\s+" + re.escape(word) + r"\b\s*", "", text, flags=re.I)
    return " ".join(text.split())


def _own_old_values(change: Change, older_text: str) -> list[str]:
    """The values of `change`'s own kind that `older_text` gave as the user's, other than the new one."""
    found: list[str] = []
    for clause in _OWN_CLAUSE.split(older_text.split(ANSWERED_MARK, 1)[0]):
        if not clause.strip():
            continue
        for key, written in _own_values(change.kind, clause):
            if key == change.key or _someone_elses(clause[:clause.find(written)]):
                continue
            found.append(written)
            if change.kind == "phone":  # "아이폰 13 미니": the brand and the model are each said alone too
                family = key.split(":")[0]
                brand, model = _brand_and_model(family, written)
                if change.key.split(":")[0] != family:
                    found.append(brand)
                if re.search(r"\d", model):
                    found.append(model)
    return found


# A pet or thing renamed, in English ("the kitten is Noodle now. we renamed her", "Biscuit has a new name … she's
# Pierogi now"): the new name, and the old one — what the message says has a new name, or a word of the message that
# an older memory gave as a name ("i named her pixel"). Kind "rename"; old names go wherever they are said.
_RENAME_EN = re.compile(r"\brenamed?\b|\bnew\s+name\b|\bname\s+change\b|\bchanged\s+(?:her|his|its|their|the)\s+name"
                        r"|\b(?:called|named)\s+[A-Z][\w'-]+\s+now\b", re.I)
_RENAMED_TO_EN = re.compile(
    r"\b(?:is|she'?s|he'?s|it'?s|shes|hes|its)\s+(?:officially\s+|actually\s+)?(?:called\s+|named\s+)?"
    r"(?P<a>[A-Za-z][\w'-]+)\s+now\b"
    r"|\bnow\s+(?:she'?s|he'?s|it'?s|shes|hes|its|called|named)\s+(?:called\s+)?(?P<b>[A-Za-z][\w'-]+)"
    r"|\bnew\s+name\s+is\s+(?P<c>[A-Za-z][\w'-]+)"
    r"|\brenamed\s+(?:her|him|it|them|(?:the|my|our)\s+[a-z]+)\s+(?:to\s+)?(?P<d>[A-Za-z][\w'-]+)", re.I)
_RENAMED_FROM_EN = re.compile(r"\b(?P<old>[A-Za-z][\w'-]+)\s+(?:has|got)\s+a\s+new\s+name"
                              r"|\brenamed\s+(?P<old2>[A-Z][\w'-]+)|\b(?P<old3>[A-Za-z][\w'-]+)'s\s+new\s+name"
                              r"|\b(?P<old4>[A-Z][\w'-]+)\s+is\s+(?:officially\s+|actually\s+)?(?:called\s+|named\s+)?"
                              r"[A-Z][\w'-]+\s+now\b")
_GIVEN_NAME_EN = r"\b(?:named|called|name\s+is|name's)\s+(?:(?:her|him|it|them)\s+)?"
RENAME = "rename"


def _rename_en(text: str) -> Change | None:
    """The rename `text` tells in English, its anchors the message's words an older memory may have given as the old
    name, or None."""
    if not _RENAME_EN.search(text):
        return None
    new_match = _RENAMED_TO_EN.search(text)
    if new_match is None:
        return None
    new = next(group for group in new_match.groups() if group)
    if new.casefold() in EN_NOT_VALUE or new.casefold() in NOT_ANCHOR_EN:
        return None
    said_old = [group for m in _RENAMED_FROM_EN.finditer(text) for group in m.groups() if group]
    words = [w for w in dict.fromkeys(_WORD_EN.findall(text))
             if len(w) >= 3 and w.casefold() != new.casefold() and w.casefold() not in EN_NOT_VALUE
             and w.casefold() not in NOT_ANCHOR_EN]
    return Change(tuple(words), RENAME, new, tuple(said_old)) if words or said_old else None


# A name given to someone or something, not the speaker's ("the shelter called him Biscuit", "her name was Mochi").
_THIRD_NAME_EN = re.compile(r"\b(?:named|called)\s+(?:him|her|it)\s+(?P<a>[A-Z][\w'-]+)"
                            r"|\b(?:his|her|its)\s+name\s+(?:is|was)\s+(?P<b>[A-Z][\w'-]+)")


def _renamed_old(change: Change, older_text: str) -> list[str]:
    """The words of the renaming message that `older_text` gives as a name ("i named her pixel"), or a name
    `older_text` gave someone where it shares a longer word with the message ("The shelter called him Biscuit" before
    "I've renamed him Pickles. He never answered to the shelter name")."""
    found = [word for word in change.anchors if re.search(rf"{_GIVEN_NAME_EN}{re.escape(word)}\b", older_text, re.I)]
    if not found and any(len(word) >= 5 and mentions(older_text, word) for word in change.anchors):
        found = [m.group("a") or m.group("b") for m in _THIRD_NAME_EN.finditer(older_text)]
    return [word for word in found if word.casefold() != change.new.casefold()]


# A name given in Korean ("거기서 지어준 이름이 Pepper래", "앵무새 키움 이름 망고"): the word after 이름.
_NAME_GIVEN_KO = re.compile(r"이름\s*(?:은|는|이|이가)?\s*([가-힣]{2,6}|[A-Za-z][\w'-]{1,15})")


def _named_ko(change: Change, older_text: str) -> list[str]:
    """The names `older_text` gives after 이름 that are not the new one, where it names the anchor or the changing
    message names that word too (`said`: "Pepper 안 어울려서 이제 호두야")."""
    found = []
    for match in _NAME_GIVEN_KO.finditer(older_text):
        word = _KO_NAME_ENDING.sub("", re.sub(r"(?:래요|래|였|이었|이래|이라|라고|라는|인데)$", "", match.group(1)))
        if len(word) >= 2 and word != change.new and word not in KO_NOT_VALUE:
            found.append(word)
    return found


def _clauses(text: str) -> list[str]:
    return [clause for clause in _CLAUSE.split(text) if clause.strip()]


def _anchors(clause: str, new: str) -> list[str]:
    """The things `clause` names besides the new value: Korean content nouns, English proper names and the noun
    after "my"."""
    found: list[str] = []
    if _HANGUL.search(clause):
        found += [noun for noun in content_nouns(clause)
                  if noun not in NOT_ANCHOR_KO and not re.fullmatch(r"[A-Za-z]", noun)]
    marker = _CHANGED.search(clause)
    for index, match in enumerate(_WORD_EN.finditer(clause)):
        word = match.group(0)
        if _VOCATIVE_EN.match(clause[match.start():]) and not clause[:match.start()].strip():
            continue  # "Sora, the airline changed our flight": the one spoken to
        if word.casefold() in NOT_ANCHOR_EN or len(word) < 3 or _CALENDAR_EN.fullmatch(word):
            continue
        after_my = re.search(r"\b(?:my|our|his|her)\s+$", clause[:match.start()], re.I) is not None
        # a proper name, the noun after "my", or what comes before the change ("lessons switched to wednesday")
        subject = marker is not None and match.end() <= marker.start() and len(word) >= 4
        if (word[0].isupper() and index > 0) or after_my or word.isupper() or subject:
            found.append(word)
    new_parts = {part.casefold() for part in new.split()}
    return [a for a in dict.fromkeys(found) if a.casefold() not in new_parts and not mentions(new, a)]


def _count_change(text: str) -> Change | None:
    """A count said to be the one now, with what it counts: the clause's own words or, when it names nothing
    ("이제 열여섯 개예요"), the clause before it."""
    now = _NOW_COUNT_KO.search(text)
    if now is None or numeral_value(now.group("number")) is None:
        return None
    clauses = _clauses(text)
    index = next((n for n, clause in enumerate(clauses) if now.group("value") in clause), None)
    if index is None:
        return None
    value_words = set(now.group("value").split()) | {now.group("number"), now.group("unit")}
    for clause in (clauses[index], clauses[index - 1] if index else ""):
        anchors = [a for a in _anchors(clause, now.group("value")) if a not in value_words
                   and not re.fullmatch(NUMERAL_KO, a) and not _COUNT_KO.fullmatch(a)]
        if anchors:
            return Change(tuple(anchors), COUNT + now.group("unit"), now.group("value"))
    return None


# An English count said to be the one now ("so that's six grandchildren now", "down to three runs a week"): what
# it counts is its noun; units of time or measure count nothing that is kept.
_NUMBERS_EN = {word: n for n, word in enumerate("one two three four five six seven eight nine ten eleven twelve thirteen "
                                                "fourteen fifteen".split(), start=1)} | {"twenty": 20, "thirty": 30}
_NUMBER_EN = r"\d{1,3}|" + "|".join(_NUMBERS_EN)
_NOT_COUNTED_EN = frozenset("day days week weeks month months year years hour hours minute minutes second seconds time "
                            "times percent pounds pound kg kilos miles mile km k am pm more less of".split())
_NOW_COUNT_EN = re.compile(rf"(?:\b(?:that'?s|it'?s|we'?re\s+at|i'?m\s+at)\s+(?P<a>{_NUMBER_EN})\s+(?P<ua>[a-z]+?)s?\s+now\b"
                           rf"|\bnow\s+(?:i\s+have|we\s+have|have|it'?s|that'?s)\s+(?P<b>{_NUMBER_EN})\s+(?P<ub>[a-z]+?)s?\b"
                           rf"|\b(?:down|up)\s+to\s+(?P<c>{_NUMBER_EN})\s+(?P<uc>[a-z]+?)s?\b)", re.I)
COUNT_EN = "count_en:"


def _count_en(word: str) -> int | None:
    word = word.casefold()
    return int(word) if word.isdigit() else _NUMBERS_EN.get(word)


def _count_change_en(text: str) -> Change | None:
    """A count the message says is the one now, and its noun as the unit ("six grandchildren"), or None."""
    match = _NOW_COUNT_EN.search(text)
    if match is None:
        return None
    number = match.group("a") or match.group("b") or match.group("c")
    unit = (match.group("ua") or match.group("ub") or match.group("uc")).casefold()
    if unit in _NOT_COUNTED_EN or len(unit) < 3 or _count_en(number) is None:
        return None
    return Change((), COUNT_EN + unit, f"{number} {unit}")


def _counts_en(change: Change, older_text: str) -> list[str]:
    """The counts of the change's noun in `older_text` other than the new one ("four grandchildren", "5 runs")."""
    unit = change.kind[len(COUNT_EN):]
    new = _count_en(change.new.split()[0])
    return [m.group(0) for m in re.finditer(rf"\b(?:{_NUMBER_EN})\s+{re.escape(unit)}s?\b", older_text, re.I)
            if _count_en(m.group(0).split()[0]) != new]


def changed_value(text: str) -> Change | None:
    """The change `text` states without naming the old value, or None."""
    if text and (owned := own_change(text)) is not None:
        return owned
    if text and (renamed := _rename_en(text.split(ANSWERED_MARK, 1)[0])) is not None and not is_unreal(text):
        return renamed
    if text and "이" in text and (counted := _count_change(text)) is not None and not is_unreal(text):
        return counted
    if text and "아니" in text and (contrasted := _someones_place_contrast(text)) is not None:
        return contrasted
    if text and (counted := _count_change_en(text.split(ANSWERED_MARK, 1)[0])) is not None and not is_unreal(text):
        return counted
    marker = _CHANGED.search(text) if text else None
    if marker is None or is_unreal(text):  # the cheap test first: most messages change nothing
        return None
    clause = next((c for c in _clauses(text) if _CHANGED.search(c)), text)
    implied = next((anchors for pattern, anchors in IMPLIED_ANCHORS if pattern.search(clause)), ())
    found, change = _kind_change(clause, text[marker.start():], implied, CLOCK_KINDS)
    if found:
        return change
    change = _place_switch(text) or _name_change(text, clause, marker)
    if change is not None:
        return change
    # a part of the day, with the change or in a clause that says what holds now ("의사선생님이 이제 저녁에
    # 먹으래요. 약도 바꿨어요")
    for said in [clause] + [c for c in _clauses(text) if c != clause and _NOW_RE.search(c)]:
        found, change = _kind_change(said, "", (), ("daypart",) if said == clause else tuple(KINDS))
        if found:
            return change
    return None


CLOCK_KINDS = ("weekday", "time", "colour")


def _kind_change(said: str, after_marker: str, implied: tuple[str, ...], kinds) -> tuple[bool, Change | None]:
    """Whether `said` gives one value of one of `kinds`, and the change (None without an anchor)."""
    for kind in kinds:  # a weekday, time, colour or part of the day
        pattern = KINDS[kind]
        # (a change word that names its thing may give the value in the next words: "염색함ㅠ 다시 검정됨")
        where = after_marker if implied and kind == "colour" and not pattern.search(said) else said
        values = {_key(kind, m.group(0)) for m in pattern.finditer(where)}
        if len(values) == 1:
            new = pattern.search(where).group(0).strip()
            anchors = list(dict.fromkeys(list(implied) + _anchors(said, new)))
            return True, Change(tuple(anchors), kind, new) if anchors else None
    return False, None


# A change between two places of a closed list in one message ("교환학생 나라 바꿈. 네덜란드는 경쟁률 넘 세서 덴마크로
# 지원하려고", "switched my exchange from spain to italy"): the one gone to (로/으로, "to") is new, the other old.
_PLACE_WORDS_KO = sorted(set(COUNTRIES_KO) | set(CITIES_KO), key=len, reverse=True)
_PLACE_WORDS_EN = sorted(set(COUNTRIES_EN) | set(CITIES_EN), key=len, reverse=True)
_PLACE_KO = re.compile(r"(?<![가-힣])(" + "|".join(map(re.escape, _PLACE_WORDS_KO)) + r")(?P<to>\s*(?:으로|로))?(?![가-힣]{2})")
_PLACE_EN = re.compile(r"(?P<to>\bto\s+)?\b(" + "|".join(map(re.escape, _PLACE_WORDS_EN)) + r")\b", re.I)


def _place_switch(text: str) -> Change | None:
    """The place a changing message goes to, and the other place of the same list it names, or None."""
    own = text.split(ANSWERED_MARK, 1)[0]
    if only_about_others(own):
        return None  # "엄마가 대구에서 서울로 이사했어": her places, not the user's
    found = [(m.group(1), bool(m.group("to"))) for m in _PLACE_KO.finditer(own)] \
        + [(m.group(2), bool(m.group("to"))) for m in _PLACE_EN.finditer(own)]
    new = {place.casefold() for place, to in found if to}
    old = {place.casefold(): place for place, to in found if not to and place.casefold() not in new}
    if len(new) != 1 or not old:
        return None
    written = next(place for place, to in found if to)
    return Change((), "place", written, tuple(old.values()))


# "지현이 부산 아니고 울산으로 간대": someone's place said as not the one told before, the new one right after.
_NOT_THIS_KO = r"(?:이|가)?\s*(?:아니고|아니라|아니래|아니야|아냐|말고)\s*,?\s*"  # "부산 아니고", "부산이 아니라"
_PLACE_CONTRAST_KO = re.compile(r"(?<![가-힣])(?P<old>" + "|".join(map(re.escape, _PLACE_WORDS_KO)) + r")" + _NOT_THIS_KO
                                + r"(?P<new>"
                                + "|".join(map(re.escape, _PLACE_WORDS_KO)) + r")(?:으로|로|에|이래|래|이야|야)?(?![가-힣]{2})")
CONTRAST = "contrast"


def _someones_place_contrast(text: str) -> Change | None:
    """A place someone named has that is not the one told before ("지현이 부산 아니고 울산으로 간대"): the old place is
    old only where that person is named (the user's own places change by the other rules)."""
    own = text.split(ANSWERED_MARK, 1)[0]
    for clause in _clauses(own):
        match = _PLACE_CONTRAST_KO.search(clause)
        if match is None or match.group("old") == match.group("new") or is_unreal(clause):
            continue
        people = []
        for word in re.findall(r"[가-힣]{2,3}", clause[:match.start()]):
            bare = re.sub(r"(?:이|가|는|은)$", "", word) if len(word) == 3 else word  # "지현이" → 지현
            if person_named(bare):
                people.append(word if person_named(word) else bare)
        if people:
            return Change(tuple(people), CONTRAST, match.group("new"), (match.group("old"),))
    return None


def without_contrasted(text: str, change: Change) -> str:
    """`text` without the old place it contrasts with the new one ("지현이 부산 아니고 울산으로 간대" → "지현이 울산으로
    간대")."""
    for old in change.said_old:
        text = re.sub(rf"(?<![가-힣]){re.escape(old)}{_NOT_THIS_KO}", "", text)
    return text


def _name_change(text: str, clause: str, marker: re.Match) -> Change | None:
    """A new name or place said with the change (no value of a kind in `KINDS` is)."""
    new_match = _NEW_NAME_KO.search(clause) or _NOW_NAME_KO.search(text)
    kind = "name"
    if new_match is None:
        new_match = _NEW_NAME_EN.search(clause) or _NEW_NAME_EN.search(text[marker.start():])
        kind = "place"
    if new_match is None:
        return None
    new = new_match.group(1)
    if new.casefold() in EN_NOT_VALUE or new in KO_NOT_VALUE:
        return None
    anchors = _anchors(clause, new)
    return Change(tuple(anchors), kind, new, message=text) if anchors else None


def _key(kind: str, written: str) -> str:
    folded = "".join(written.casefold().split())
    if kind == "colour":
        return folded.removesuffix("색")
    if kind == "weekday":
        return _WEEKDAY_KEYS.get(folded[:3], _WEEKDAY_KEYS.get(folded[:1], folded))
    if kind == "daypart":
        return _DAYPART_KEYS.get(folded.rstrip("s"), folded)
    return re.sub(r"[^\d:]", "", folded) + ("pm" if re.search(r"pm|p\.m|오후|저녁|밤", folded) else "")


def _is_name(word: str, *, named: bool) -> bool:
    """Whether a Korean word after an anchor is its name: a noun with a particle after it (`named`: "나비가") or a
    proper noun ("광주"), never a verb, adverb or number."""
    if word in KO_NOT_VALUE or re.fullmatch(r"[\d.,]+", word):
        return False
    morphs = analyse(word)
    if not morphs or morphs[0].form in KO_NOT_VALUE \
            or any(m.tag.startswith(("V", "XS", "M", "NR", "SN", "NNB", "E")) for m in morphs):
        return False
    return morphs[0].tag in {"NNP", "SL", "NA", "SH"} or (named and morphs[0].tag == "NNG")


def old_values(change: Change, older_text: str) -> list[str]:
    """The values of `change`'s kind that `older_text` gave its anchor before the change, or [] when it does not
    name the anchor (an own kind has none: the user's older values of it)."""
    # what the changing message itself names as old ("롤 접고", "Biscuit has a new name", "네덜란드는 …"), wherever it is
    said = [word for word in change.said_old if mentions(older_text, word)]
    if change.kind in OWN_KINDS:
        return list(dict.fromkeys(said + _own_old_values(change, older_text)))
    if change.kind == RENAME:
        return said + _renamed_old(change, older_text)
    if change.kind.startswith(COUNT_EN):
        return _counts_en(change, older_text)
    if change.kind == CONTRAST:  # where the person is named
        return said if any(mentions(older_text, person) for person in change.anchors) else []
    if not change.anchors:  # a switch between two places the message names itself
        return said
    if change.kind == "name" and change.message:  # "고양이 이름 바꿨어! Pepper 안 어울려서": a name the message says too
        said += [word for word in _named_ko(change, older_text) if mentions(change.message, word) and word not in said]
    if not any(mentions(older_text, anchor) for anchor in change.anchors):
        return said
    clauses = [c for c in _clauses(older_text) if any(mentions(c, anchor) for anchor in change.anchors)] or [older_text]
    found: list[str] = []
    if change.kind.startswith(COUNT):
        unit, new_number = change.kind[len(COUNT):], numeral_value(_COUNT_KO.match(change.new).group("number"))
        for clause in clauses:
            found += [m.group(0) for m in _COUNT_KO.finditer(clause) if m.group("unit") == unit
                      and numeral_value(m.group("number")) not in (None, new_number)]
        return list(dict.fromkeys(found))
    if change.kind in KINDS:
        new_key = _key(change.kind, change.new)
        for clause in clauses:
            found += [m.group(0).strip() for m in KINDS[change.kind].finditer(clause)
                      if _key(change.kind, m.group(0)) != new_key]
        if not found and len(clauses) < len(_clauses(older_text)):  # "TRPG 모임 다녀왔어요. 매주 토요일 밤마다 …"
            found = [m.group(0).strip() for m in KINDS[change.kind].finditer(older_text)
                     if _key(change.kind, m.group(0)) != new_key]
    else:
        for anchor in change.anchors:
            if _HANGUL.search(anchor):
                for m in re.finditer(re.escape(anchor) + _KO_AFTER_ANCHOR, older_text):
                    word = _KO_NAME_ENDING.sub("", m.group(1))
                    if len(word) >= 2 and _is_name(word, named=word != m.group(1)):
                        found.append(word)
            else:
                found += [m.group(1) for m in re.finditer(r"(?<![A-Za-z])" + re.escape(anchor) + _EN_AFTER_ANCHOR,
                                                          older_text, re.I)
                          if m.group(1)[0].isupper()]
        if change.kind == "name":  # "앵무새 키움 이름 망고": the name after 이름 in a clause naming the anchor
            found += [word for clause in clauses for word in _named_ko(change, clause)]
        if not _HANGUL.search(change.new):
            for clause in clauses:
                found += [m.group(1) for m in _EN_PLACE.finditer(clause) if not _CALENDAR_EN.fullmatch(m.group(1))]
    new_folded = "".join(change.new.casefold().split())
    return [value for value in dict.fromkeys(found)
            if "".join(value.casefold().split()) != new_folded and not mentions(change.new, value)
            and value.casefold() not in EN_NOT_VALUE and all(value.casefold() != a.casefold() for a in change.anchors)]
