"""Numbers and types about the user, in Korean: age, birthday, height, weight, blood type, MBTI."""
from __future__ import annotations

import re

from .candidates import Candidate
from .dates import find_holidays, find_month_days, format_month_day
from .korean_text import about_someone_else, negated_after, person_named
from .morphology import noun_phrase_before


_AGE = re.compile(
    r"(?<![\d.])(\d{1,2})\s*(?:살|세)(?!\s*(?:때|에|부터|까지|차이|짜리|터울|연상|연하|어린|많|위|아래|이상|이하|미만|넘|쯤에|된|되던|"
    r"였|이었|이던|적|인데도|이나|이(?=[\s,])|들))")  # "열세살이 벌써 시험걱정": an age as the subject is someone's
_AGE_NATIVE = re.compile(
    r"(?:(?<=\s)|^)((?:열|스물|서른|마흔|쉰|예순)\s*(?:한|하나|두|둘|세|셋|네|넷|다섯|여섯|일곱|여덟|아홉)?\s*살)"
    r"(?!\s*(?:때|에|부터|까지|차이|짜리|였|이었|이(?=[\s,])|들))")
# An adult age in native words with no 살, said as a clause of its own ("윤태호, 마흔하나", "저 서른하나에요").
_AGE_NATIVE_BARE = re.compile(
    r"(?:^|(?<=[\s,]))((?:스물|서른|마흔|쉰|예순)(?:하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉)?)"
    r"(?:(?:이야|이에요|이예요|예요|에요|임|이고(?:요)?|이구(?:요)?|입니다|이요|요|이다|이거든(?:요)?|이라서)(?=[\s,.!?~]|$)"
    r"|\s*$)")
_AGE_TOPIC = re.compile(r"(?:내|제)?\s*나이(?:는|가)\s*(?:올해\s*)?(?:만\s*)?(\d{1,2})(?!\s*\d)")
_BIRTH_YEAR = re.compile(r"(?<!\d)(\d{2})\s*년생")


# Whose age is said right before it when it is not the user's: family by role, pets, a child by birth order.
OTHERS_BEFORE_AGE = r"(?:동생|형|누나|언니|오빠|엄마|아빠|딸|아들|손녀|손자|조카|큰애|작은애|막내|첫째|둘째|셋째|고양이|강아지)\S*\s*$"
_OTHERS_BEFORE_AGE = re.compile(OTHERS_BEFORE_AGE)
_FIRST_PERSON = re.compile(r"(?<![가-힣])(?:나|난|내가|저|전|제가|저는|나는)(?![가-힣])")
_LAST_WORD = re.compile(r"([가-힣]{2,4}?)(?:은|는|이는|이가|가|도|이도)?\s*$")


def _someone_named_before(clause: str, start: int) -> bool:
    """Whether a person's name stands right before an age ("헷갈렸네요, 준호 열두 살이에요", "지아는 여덟 살"), where the
    user does not speak of themself ("저는 한동수 마흔셋이에요", "김민지 스물다섯 직장인이야" are the user)."""
    word = _LAST_WORD.search(clause[:start])
    segment = re.split(r"[,.!?~]", clause[:start])[-1]
    if word is None or _FIRST_PERSON.search(segment):
        return False
    if not clause[:word.start(1)].strip() and not word.group(0).rstrip().endswith(("은", "는", "가", "도")):
        return False  # a bare name opening the message is an introduction ("김민지 스물다섯 직장인이야")
    return person_named(word.group(1))


def age_facts(clause: str) -> list[Candidate]:
    """Return the user's age ("24살이고", "나이는 19", "스물다섯 살", "97년생")."""
    found = []
    for match in _AGE_TOPIC.finditer(clause):
        if not about_someone_else(clause, match.start()):
            found.append(Candidate("age", f"{match.group(1)}살"))
    for pattern in (_AGE, _AGE_NATIVE):
        for match in pattern.finditer(clause):
            if pattern is _AGE and not 5 <= int(match.group(1)) <= 99:
                continue
            if about_someone_else(clause, match.start()) or _OTHERS_BEFORE_AGE.search(clause[:match.start()]) \
                    or _someone_named_before(clause, match.start()):
                continue
            found.append(Candidate("age", re.sub(r"\s+", " ", match.group(0)).strip()))
    for match in _AGE_NATIVE_BARE.finditer(clause):
        if not found and not about_someone_else(clause, match.start()) \
                and not _OTHERS_BEFORE_AGE.search(clause[:match.start()]) \
                and not _someone_named_before(clause, match.start()):
            found.append(Candidate("age", match.group(1)))  # "마흔하나", as said
    for match in _BIRTH_YEAR.finditer(clause):
        if not about_someone_else(clause, match.start()):
            found.append(Candidate("age", match.group(0).replace(" ", "")))
    return found[:1]


_BIRTH_VERB = re.compile(r"태어났|태어남|태어난|태어났어|생이야|생이에요|생입니다|생임|생이고|일생")


def birthday_facts(clause: str) -> list[Candidate]:
    """Return the user's birthday ("내 생일은 11월 2일", "3월 15일에 태어났어"), not a friend's."""
    mentions = find_month_days(clause, numeric=True)
    if not mentions:
        return _holiday_birthday(clause)
    for keyword in re.finditer(r"생일|생신", clause):
        owner = noun_phrase_before(clause, keyword.start(), max_words=2)
        if owner and owner not in {"내", "제"}:
            continue  # "현우 생일", "엄마 생신"
        if about_someone_else(clause, keyword.start()):
            continue
        return [Candidate("birthday", clause[m.start:m.end]) for m in mentions[:1]]
    if _BIRTH_VERB.search(clause) and not about_someone_else(clause, mentions[0].start):
        month_day = find_month_days(clause)  # "3/15에 태어났어" is too loose without the word 생일
        if month_day:
            return [Candidate("birthday", clause[month_day[0].start:month_day[0].end])]
    return []


def _holiday_birthday(clause: str) -> list[Candidate]:
    """"내 생일은 한글날이야", "생일이 크리스마스라서": a birthday on a fixed-date holiday."""
    holidays = find_holidays(clause)
    if not holidays:
        return []
    for keyword in re.finditer(r"생일", clause):
        owner = noun_phrase_before(clause, keyword.start(), max_words=2)
        if (owner and owner not in {"내", "제"}) or about_someone_else(clause, keyword.start()):
            continue
        when, name = holidays[0]
        return [Candidate("birthday", f"{format_month_day(when.month, when.day, True)} ({name})")]
    return []


_HEIGHT = re.compile(r"키(?:는|가)?\s*(?:한\s*)?(\d{3}(?:\.\d)?)\s*(cm|센치|센티|센티미터|쯤|정도)?")
_HEIGHT_UNIT = re.compile(r"(?<![\d.])(1\d{2}|2[0-2]\d)(?:\.\d)?\s*(cm|센치|센티|센티미터)")
_WEIGHT = re.compile(r"(?:몸무게(?:는|가)?\s*(\d{2,3})\s*(kg|키로|킬로)?)|(?<![\d.])(\d{2,3})\s*(kg|키로|킬로)(?:그램)?(?:\s*(?:나가|"
                     r"이야|야|임|쯤))")
_BLOOD = re.compile(r"(?:혈액형(?:은|이)?\s*)?(?<![A-Za-z])(AB|A|B|O|ab|a|b|o)\s*형(?!님|이랑|한테|아|이\s*(?:랑|가\s*(?:나|날)))")
_BLOOD_TOPIC = re.compile(r"혈액형(?:은|이)?\s*(?:RH\s*[+-]\s*)?(AB|A|B|O)(?![A-Za-z])", re.I)
_BLOOD_HANGUL = re.compile(r"(?<![가-힣])(에이비|에이|비|오)형(?=이야|이에요|입니다|임|이고|이라|$|[\s!.,~])")
_HANGUL_LETTERS = {"에이비": "AB", "에이": "A", "비": "B", "오": "O"}
_MBTI = re.compile(r"(?<![A-Za-z])([EIei][NSns][TFtf][JPjp])(?:-?([ATat]))?(?![A-Za-z])")


_HEIGHT_WORD = re.compile(r"(?<![가-힣])키(?:가|는|도|\s)")
# A number near the word 키 is the height unless a unit says otherwise ("162거든" yes, "150만원" no).
_HEIGHT_NUMBER = re.compile(r"(?<![\d.])(1[3-9]\d|2[0-2]\d)(?:\.\d)?\s*(cm|센치|센티)?"
                            r"(?!\s*(?:\d|원|만|천|명|개|번|층|킬로|키로|kg|분|시|일|년|살|세|%|위|등|점|km|미터|평|호|동"
                            r"|회|배|장|권|마리|잔|병|그릇|달러|페이지|쪽|g|mm|m\b))")


def height_in_message(text: str) -> list[Candidate]:
    """"키가 작아서 고민이에요. 158밖에 안 돼요": the number may sit in another clause than the word 키."""
    word = _HEIGHT_WORD.search(text)
    if not word or about_someone_else(text, word.start()):
        return []
    match = _HEIGHT_NUMBER.search(text, word.start())
    return [Candidate("height", match.group(0).replace(" ", ""))] if match else []


def body_facts(clause: str) -> list[Candidate]:
    """Return height, weight, blood type and MBTI stated in one clause."""
    found = []
    for match in list(_HEIGHT.finditer(clause)) + list(_HEIGHT_UNIT.finditer(clause)):
        number = float(match.group(1))
        if 120 <= number <= 230 and not about_someone_else(clause, match.start()):
            unit = match.group(2) if match.group(2) in {"cm", "센치", "센티", "센티미터"} else ""
            found.append(Candidate("height", f"{match.group(1)}{unit}"))
            break
    for match in _WEIGHT.finditer(clause):
        number = match.group(1) or match.group(3)
        unit = match.group(2) or match.group(4) or ""
        if 25 <= int(number) <= 250 and not about_someone_else(clause, match.start()):
            found.append(Candidate("weight", f"{number}{unit}"))
            break
    blood = list(_BLOOD_TOPIC.finditer(clause)) or list(_BLOOD.finditer(clause)) or list(_BLOOD_HANGUL.finditer(clause))
    for match in blood:
        if not about_someone_else(clause, match.start()) and not negated_after(clause, match.end()):
            letters = _HANGUL_LETTERS.get(match.group(1), match.group(1).upper())
            found.append(Candidate("blood_type", f"{letters}형"))
            break
    for match in _MBTI.finditer(clause):
        if about_someone_else(clause, match.start()):
            continue
        after = clause[match.end():match.end() + 6]
        mentioned = re.search(r"mbti|엠비티아이|엠bti", clause, re.I)
        first_person = re.search(r"(?:^|\s)(?:나|난|나는|저|저는|전|내|제)\s", f" {clause[:match.start()]}")
        copula = re.match(r"^\s*(?:이야|야|이에요|예요|에요|입니다|임|이고|고|인데|이라|라|이지|$|[!.,~])", after)
        if (mentioned or first_person or copula) and not negated_after(clause, match.end()):
            value = match.group(1).upper() + (f"-{match.group(2).upper()}" if match.group(2) else "")
            found.append(Candidate("mbti", value))
            break
    return found
