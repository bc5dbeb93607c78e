"""Dated events in a user message: "오늘 인턴 면접 보고 왔다" → 인턴 면접 on the message's date,
"다음 주 목요일이 현우 생일" → 현우 생일 on that Thursday (and a yearly special date).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from .dates import find_holidays, find_month_days, month_day_date, relative_dates
from .korean_text import clauses
from .morphology import analyse, noun_phrase_before

_KO_EVENT_NOUNS = (
    "면접", "시험", "토익", "토플", "오픽", "텝스", "수능", "모의고사", "중간고사", "기말고사", "중간", "기말", "자격증",
    "발표", "졸업식", "입학식", "결혼식", "장례식", "돌잔치", "콘서트", "공연", "뮤지컬", "전시회", "여행", "소개팅",
    "데이트", "수술", "건강검진", "검진", "진료", "면허 시험", "운전면허", "이사", "출장", "워크숍", "회식", "MT", "엠티",
    "축제", "생일파티", "생일 파티", "대회", "경기", "시합", "오디션", "입사", "퇴사", "첫 출근", "첫출근", "졸업", "입학",
    "개강", "종강", "휴가", "캠핑", "동창회", "생일", "생신", "기념일", "결혼기념일", "결혼 기념일", "결혼", "프로포즈", "고백", "팬미팅", "팬싸",
    "시사회", "상견례", "세미나", "학회", "입원", "퇴원", "중간고사", "기말고사", "공모전", "해커톤", "전역", "입대",
    "국가고시", "고시", "임용", "편입", "결과 발표", "발표회", "학예회", "운동회", "장례", "출산", "돌", "백일",
)
_PERSON_SUBJECT = re.compile(r"(?P<who>(?:우리\s*)?(?:언니|누나|형|오빠|동생|남동생|여동생|엄마|아빠|부모님|할머니|할아버지|친구|"
                             r"남친|여친|남자친구|여자친구|베프|[가-힣]{2,3}이))(?:가|이|는|은)\s")
_TIME_WORDS = re.compile(r"^(?:(?:오늘|어제|내일|그저께|그제|모레|아까|방금|지난주|저번\s*주|다음\s*주|이번\s*주|주말|이번|다음|지난)\s+)+")
_KO_DONE = re.compile(r"^\S{0,2}\s*(?:을|를|도|은|는)?\s*(?:\S+\s+)?(?:보고\s*왔|보고\s*옴|다녀왔|다녀옴|갔다\s*왔|갔다\s*옴|"
                      r"하고\s*왔|하고\s*옴|끝났|끝남|끝내고|마쳤|마침|쳤|치고\s*왔|봤|망했|망함|잘\s*봤|잘\s*끝)|"
                      r"^\s*(?:을|를|도)?\s*(?:했|하고\s*왔|함(?=[\s.!?~ㅋ]|$)|잘\s*했)")
_KO_EARLIER = re.compile(r"(?:^|\s)(?:그|저번|지난번|예전|그때)\s+\S*$|다행|덕분")
_KO_RESULT = re.compile(r"(?P<what>\S+)\s*(?P<verb>붙었|붙음|합격했|합격함|합격이|떨어졌|떨어짐|불합격|탈락)")
_EN_EVENT = re.compile(
    r"\b(?P<v>(?:[A-Za-z'-]+\s+){0,2}?(?:interview|exam|test|toeic|toefl|sat|gre|finals|midterms?|presentation|"
    r"graduation|"
    r"wedding|funeral|concert|show|trip|vacation|date|blind date|surgery|check-?up|appointment|driving test|move|"
    r"business trip|party|birthday|anniversary|game|match|tournament|audition|first day|deadline|recital|recital|"
    r"flight|meeting|class|lecture|orientation|ceremony))\b", re.I)
# A look back at an event already told: "that driving test", "good thing i passed", "remember when".
_EN_EARLIER = re.compile(r"\b(?:that|those|the same|said)\s+(?:[a-z'-]+\s+){0,2}?(?:interview|exam|test|toeic|toefl|sat|gre|"
                         r"finals|midterms?|presentation|graduation|wedding|funeral|concert|show|trip|vacation|date|"
                         r"surgery|appointment|move|party|game|match|audition|job|offer|internship|position|scholarship)\b|"
                         r"\b(?:good thing|glad|thank god|thankfully|remember when|back when|still can'?t believe|"
                         r"still thinking about|ever since)\b", re.I)
_EN_DONE = re.compile(r"\b(?:had|took|did|finished|passed|failed|went to|got back from|just got back|attended|aced|"
                      r"bombed|nailed)\b", re.I)
_EN_RESULT = re.compile(r"\b(?:i\s+)?(?:got|passed|failed|was accepted|got accepted|got rejected|"
                        r"got the)\s+(?P<what>(?:[a-z]+\s+){0,2}"
                        r"(?:job|offer|internship|interview|exam|test|position|scholarship))\b", re.I)


@dataclass(frozen=True)
class Event:
    what: str  # "인턴 면접", "현우 생일", "job interview"
    on: date
    birthday_of_someone: bool = False
    anniversary: bool = False  # "우리 결혼기념일은 5월 20일", "our anniversary is june 3": yearly, like a birthday

    @property
    def yearly(self) -> bool:
        return self.birthday_of_someone or self.anniversary


def _ko_noun_pattern() -> re.Pattern:
    alternatives = "|".join(sorted((re.escape(n) for n in _KO_EVENT_NOUNS), key=len, reverse=True))
    return re.compile(rf"(?:{alternatives})")


_KO_EVENT = _ko_noun_pattern()


# "6/3에 면접", "interview on 6/3": a numeric date only where it reads as a date, not a score ("3/5점").
_SLASH_DATE = re.compile(r"(?:(?<=\bon\s)|(?<=\bby\s)|(?<=\buntil\s)|(?<![\d/.]))(\d{1,2})/(\d{1,2})"
                         r"(?=\s*(?:에|까지|부터|일|날|쯤|\)|$|[\s.,!?]))(?!\s*(?:점|개|명|잔|병|%|시))")


def _slash_date(clause: str, now: datetime) -> date | None:
    for match in _SLASH_DATE.finditer(clause):
        before = clause[:match.start()]
        if not (re.search(r"\b(?:on|by|until|before|after)\s+$", before, re.I)
                or re.match(r"\s*(?:에|까지|부터|날|쯤)", clause[match.end():])):
            continue
        when = month_day_date(int(match.group(1)), int(match.group(2)), now, clause, match.start())
        if when is not None:
            return when
    return None


def _clause_date(clause: str, message: str, now: datetime, skip: set[tuple[int, int]]) -> date | None:
    mentions = relative_dates(clause, now)
    if mentions:
        return mentions[0].date
    slash = _slash_date(clause, now)
    if slash and (slash.month, slash.day) not in skip:
        return slash
    for mention in find_month_days(clause):
        if (mention.month, mention.day) not in skip:
            return month_day_date(mention.month, mention.day, now, clause, mention.start)
    return None


def korean_events(text: str, now: datetime, skip_month_days: set[tuple[int, int]]) -> list[Event]:
    events: list[Event] = []
    message_dates = relative_dates(text, now)
    fallback = message_dates[0].date if message_dates else now.date()
    for clause in clauses(text):
        if clause.rstrip().endswith("?") and not re.search(r"(?:보고\s*왔|다녀왔|했|봤)", clause):
            continue
        for match in _KO_EVENT.finditer(clause):
            morphs = analyse(clause)
            if not (any(m.end == match.end() and m.tag[0] in "NS" for m in morphs)
                    and any(m.start == match.start() for m in morphs)):
                continue  # part of a longer word ("면접관")
            what = noun_phrase_before(clause, match.end(), max_words=4) or match.group(0)
            if not what.endswith(match.group(0)):
                what = match.group(0)
            what = _TIME_WORDS.sub("", what) or match.group(0)
            person = _PERSON_SUBJECT.search(clause[:match.start()])
            if person and person.group("who") not in what and match.group(0) not in {"생일", "생신"}:
                who = re.sub(r"^우리\s*", "", person.group("who"))
                what = f"{who} {what}"
            when = _clause_date(clause, text, now, skip_month_days)
            if when is None and _KO_DONE.search(clause[match.end():]):
                when = message_dates[0].date if message_dates else now.date()
            if when is None:
                continue
            is_birthday = match.group(0) in {"생일", "생신"}
            owner_named = is_birthday and bool(re.sub(r"\s*(?:생일|생신)$", "", what).strip())
            if is_birthday and not owner_named:
                continue  # the user's own birthday is a fact, not an event
            events.append(Event(what, when, birthday_of_someone=is_birthday, anniversary="기념일" in what
                                and not re.search(r"\d+\s*일", what)))  # "100일 기념일" comes once
            break
        for match in _KO_RESULT.finditer(clause):
            what = noun_phrase_before(clause, match.start() + len(match.group("what")), max_words=3)
            if not what:
                continue
            passed = match.group("verb").startswith(("붙", "합격"))
            when = _clause_date(clause, text, now, skip_month_days)
            if when is None and _KO_EARLIER.search(clause[:match.start() + len(match.group("what"))]):
                continue  # "그 면접 붙어서 다행" looks back at an event already told
            when = when or fallback
            label = f"{what} {'합격' if passed else '불합격'}"
            if not any(e.what == label for e in events):
                events.append(Event(label, when))
    return events


def english_events(text: str, now: datetime, skip_month_days: set[tuple[int, int]]) -> list[Event]:
    events: list[Event] = []
    message_dates = relative_dates(text, now)
    fallback = message_dates[0].date if message_dates else now.date()
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        for match in _EN_EVENT.finditer(sentence):
            what = re.sub(r"^(?:my|the|a|an|our|his|her|their)\s+", "", match.group("v"), flags=re.I).strip()
            when = _clause_date(sentence, text, now, skip_month_days)
            if when is None and _EN_DONE.search(sentence) and not _EN_EARLIER.search(sentence):
                when = message_dates[0].date if message_dates else now.date()
            if when is None:
                continue
            is_birthday = what.lower().endswith("birthday")
            owner = re.search(r"\b([A-Z][a-z]+)'s\s+birthday", sentence)
            if is_birthday and not owner:
                continue
            events.append(Event(f"{owner.group(1)}'s birthday" if is_birthday else what, when,
                                birthday_of_someone=is_birthday, anniversary="anniversary" in what.lower()))
            break
        for match in _EN_RESULT.finditer(sentence):
            when = _clause_date(sentence, text, now, skip_month_days)
            if when is None and _EN_EARLIER.search(sentence):
                break  # "good thing i passed that driving test" looks back at an event already told
            when = when or fallback
            label = re.sub(r"^i\s+", "", match.group(0).strip(), flags=re.I)
            if not any(label.lower() in e.what.lower() or e.what.lower() in label.lower() for e in events):
                events.append(Event(label, when))
            break
    return events


_ABOUT_BIRTHDAY = re.compile(r"^\S*\s*(?:을|를|이|가|은|는)?\s*(?:물어|묻|얘기|말해|말했|알려|까먹|잊|기억|모르|몰라|궁금|언제)")
_EN_OWN_BIRTHDAY = re.compile(r"\b(?:today|tomorrow|yesterday)\s+(?:is|was)\s+my\s+(?:birthday|bday|b-day)\b|"
                              r"\bit'?s\s+my\s+(?:birthday|bday|b-day)\b|"
                              r"\bmy\s+(?:birthday|bday|b-day)\s+(?:is|was)\s+(?:today|tomorrow|yesterday)\b", re.I)


def own_birthday_on(text: str, now: datetime, korean: bool) -> date | None:
    """Return the date of "오늘 내 생일이야" / "tomorrow is my birthday" (a relative day, no month-day)."""
    if find_month_days(text) or find_holidays(text):
        return None
    if korean:
        for clause in clauses(text):
            keyword = re.search(r"생일", clause)
            if not keyword:
                continue
            owner = noun_phrase_before(clause, keyword.start(), max_words=2)
            if owner not in {"", "내", "제"} and not relative_dates(owner, now):
                continue  # "엄마 생신", "현우 생일": someone else's
            if _ABOUT_BIRTHDAY.search(clause[keyword.end():]):
                continue  # "오늘 친구가 내 생일 물어보길래": today is when it was asked, not the birthday
            if re.search(r"생일\s*(?:이야|이에요|이다|임|이거든|이라|인데|이네|이었|였|이었어|!|$)", clause) or \
                    re.search(r"(?:내|제)\s*생일", clause):
                mentions = relative_dates(clause, now)
                if mentions:
                    return mentions[0].date
        return None
    if _EN_OWN_BIRTHDAY.search(text):
        mentions = relative_dates(text, now)
        return mentions[0].date if mentions else now.date()
    return None


def events_in(text: str, now: datetime, korean: bool, skip_month_days: set[tuple[int, int]]) -> list[Event]:
    """Return the dated events of one message. `skip_month_days` are dates already used as the birthday."""
    return korean_events(text, now, skip_month_days) if korean else english_events(text, now, skip_month_days)
