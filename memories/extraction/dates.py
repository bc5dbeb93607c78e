"""Dates in chat text: month-day mentions ("11월 2일", "March 15") and relative days resolved
against the message's own timestamp ("어제", "지난주 금요일", "next Thursday").

Weeks run Monday to Sunday. "지난주/다음 주 X요일" and "last/next X" pick the weekday of the previous/next
calendar week; "이번 주 X요일"/"this X" the one of the current week; a bare weekday follows the tense.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta


@dataclass(frozen=True)
class MonthDay:
    month: int
    day: int
    start: int
    end: int

    @property
    def key(self) -> str:
        return f"{self.month:02d}-{self.day:02d}"


@dataclass(frozen=True)
class DateMention:
    date: date
    start: int
    text: str


MONTHS_EN = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
MONTH_NAMES_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                  "October", "November", "December")
_MONTH_EN = "|".join(sorted(MONTHS_EN, key=len, reverse=True))
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

_KO_MONTH_DAY = re.compile(r"(?<!\d)(\d{1,2})\s*월\s*(\d{1,2})\s*일")
# Sino-Korean numerals written out: "팔월 십칠일", "시월 삼일".
_SINO_DIGITS = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "유": 6, "칠": 7, "팔": 8, "구": 9}
_SINO_MONTHS = {**{k: v for k, v in _SINO_DIGITS.items()}, "시": 10, "십": 10, "십일": 11, "십이": 12}
_SINO_MONTH_DAY = re.compile(r"(?<![가-힣])(십일|십이|시|십|일|이|삼|사|오|유|육|칠|팔|구)월\s*"
                             r"((?:이|삼)?십(?:일|이|삼|사|오|육|칠|팔|구)?|일|이|삼|사|오|육|칠|팔|구)일")
_NUMERIC_MONTH_DAY = re.compile(r"(?<![\d.])(\d{1,2})\s*[/.-]\s*(\d{1,2})(?![\d./-])")
# A Korean particle may follow right after ("July 21이야"): the end is no letter or digit of the Latin alphabet.
_EN_MONTH_DAY = re.compile(rf"\b({_MONTH_EN})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?![A-Za-z0-9])", re.IGNORECASE)
_EN_DAY_MONTH = re.compile(rf"(?<![A-Za-z0-9])(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_EN})(?![A-Za-z])", re.IGNORECASE)


def _sino_number(word: str) -> int:
    """"십칠" → 17, "이십일" → 21, "삼" → 3."""
    if "십" not in word:
        return _SINO_DIGITS[word]
    tens, _, units = word.partition("십")
    return (_SINO_DIGITS[tens] if tens else 1) * 10 + (_SINO_DIGITS[units] if units else 0)


def _valid(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= _DAYS_IN_MONTH[month - 1]


# Fixed-date holidays ("생일이 한글날이야", "born on christmas"); 설날/추석 follow the lunar calendar and stay unresolved.
HOLIDAYS = {
    "한글날": (10, 9), "크리스마스이브": (12, 24), "크리스마스 이브": (12, 24), "크리스마스": (12, 25), "성탄절": (12, 25),
    "어린이날": (5, 5), "광복절": (8, 15), "개천절": (10, 3), "삼일절": (3, 1), "3·1절": (3, 1), "3.1절": (3, 1),
    "빼빼로데이": (11, 11), "발렌타인데이": (2, 14), "밸런타인데이": (2, 14), "화이트데이": (3, 14), "현충일": (6, 6),
    "제헌절": (7, 17), "할로윈": (10, 31), "핼러윈": (10, 31), "새해 첫날": (1, 1), "신정": (1, 1), "만우절": (4, 1),
    "christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25), "xmas": (12, 25),
    "valentine's day": (2, 14), "valentines day": (2, 14), "valentine's": (2, 14), "halloween": (10, 31),
    "new year's day": (1, 1), "new years day": (1, 1), "new year's eve": (12, 31), "new years eve": (12, 31),
    "fourth of july": (7, 4), "4th of july": (7, 4), "independence day": (7, 4), "april fools": (4, 1),
    "april fool's day": (4, 1), "st. patrick's day": (3, 17), "st patrick's day": (3, 17), "leap day": (2, 29),
}
_HOLIDAY = re.compile(r"(?<![가-힣A-Za-z])(" + "|".join(re.escape(h).replace("\\ ", "\\s*")
                                                      for h in sorted(HOLIDAYS, key=len, reverse=True)) + r")", re.I)


def find_holidays(text: str) -> list[tuple[MonthDay, str]]:
    """Return (month-day, holiday name) for fixed-date holidays named in `text`."""
    found = []
    for match in _HOLIDAY.finditer(text):
        name = re.sub(r"\s+", " ", match.group(1)).lower()
        month, day = HOLIDAYS.get(name) or HOLIDAYS.get(name.replace(" ", ""), (0, 0))
        if month:
            found.append((MonthDay(month, day, match.start(), match.end()), match.group(1)))
    return found


def find_month_days(text: str, numeric: bool = False) -> list[MonthDay]:
    """Return the month-day mentions of `text` in order. `numeric` also accepts "3/15" and "11.2"."""
    found = []
    for match in _KO_MONTH_DAY.finditer(text):
        found.append(MonthDay(int(match.group(1)), int(match.group(2)), match.start(), match.end()))
    for match in _SINO_MONTH_DAY.finditer(text):
        found.append(MonthDay(_SINO_MONTHS[match.group(1)], _sino_number(match.group(2)), match.start(), match.end()))
    for match in _EN_MONTH_DAY.finditer(text):
        found.append(MonthDay(MONTHS_EN[match.group(1).lower()], int(match.group(2)), match.start(), match.end()))
    for match in _EN_DAY_MONTH.finditer(text):
        found.append(MonthDay(MONTHS_EN[match.group(2).lower()], int(match.group(1)), match.start(), match.end()))
    if numeric:
        for match in _NUMERIC_MONTH_DAY.finditer(text):
            found.append(MonthDay(int(match.group(1)), int(match.group(2)), match.start(), match.end()))
    found = [m for m in found if _valid(m.month, m.day)]
    found.sort(key=lambda m: m.start)
    unique: list[MonthDay] = []
    for mention in found:
        if not any(mention.start < other.end and other.start < mention.end for other in unique):
            unique.append(mention)
    return unique


_BARE_DAY = re.compile(r"^(?:the\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})\s*(?:st|nd|rd|th|일))$", re.I)


def days_named(terms) -> set[tuple[int | None, int]]:
    """The days the words `terms` name: (month, day) for "12월 3일", "Dec 3", "12/3"; (None, day) for a day of the
    month alone ("the 24th", "28일"; a bare number is no day)."""
    days: set[tuple[int | None, int]] = set()
    for term in terms:
        mentions = find_month_days(term, numeric=True)
        days |= {(m.month, m.day) for m in mentions}
        bare = _BARE_DAY.match(term.strip())
        day = int(bare.group(1) or bare.group(2)) if bare else 0
        if not mentions and 1 <= day <= 31:
            days.add((None, day))
    return days


def format_month_day(month: int, day: int, korean: bool) -> str:
    return f"{month}월 {day}일" if korean else f"{MONTH_NAMES_EN[month - 1]} {day}"


def format_date(value: date, korean: bool) -> str:
    return format_month_day(value.month, value.day, korean)


# --- relative dates -------------------------------------------------------------------------------

_KO_WEEKDAYS = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
_EN_WEEKDAYS = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
                "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
                "sunday": 6, "sun": 6}
_EN_WEEKDAY = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_KO_COUNTS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "엿새": 6, "이레": 7, "열흘": 10, "일주일": 7,
              "보름": 15}
_EN_COUNTS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
              "nine": 9, "ten": 10, "a couple of": 2, "a couple": 2, "couple of": 2}

_KO_FIXED = [
    (re.compile(r"그저께|그제|엊그제|엊그저께"), -2),
    (re.compile(r"어제|어젯밤|어저께"), -1),
    (re.compile(r"오늘|아까(?![워웠운우])|방금|이따가?|금일"), 0),
    (re.compile(r"내일|낼\s"), 1),
    (re.compile(r"모레"), 2),
    (re.compile(r"글피"), 3),
]
_KO_WEEK_PREFIX = (
    (re.compile(r"다다음\s*주|다다음주"), 2),
    (re.compile(r"지지난\s*주"), -2),
    (re.compile(r"지난\s*주|저번\s*주|지난번\s*주|전\s*주"), -1),
    (re.compile(r"이번\s*주|금주|요번\s*주"), 0),
    (re.compile(r"다음\s*주|담\s*주|오는\s*주|돌아오는\s*주"), 1),
)
_KO_WEEKDAY = re.compile(r"([월화수목금토일])\s*(?:요일|욜)")
_KO_WEEKDAY_WORD_PREFIX = re.compile(r"(지난|저번|이번|요번|다음|담|오는|돌아오는)\s*$")
_KO_OFFSET = re.compile(r"(\d{1,3}|일주일|하루|이틀|사흘|나흘|닷새|엿새|이레|열흘|보름)\s*(일|주일?|주)?\s*(전|뒤|후|있다가|지나서)")
_KO_PAST = re.compile(r"(었|았|였|했|왔|갔|봤|됐|났|졌|쳤|췄|웠|렸|셨|냈|섰)"
                      r"|(?:끝냄|끝남|마침|완료|다녀옴|갔다\s*옴|왔다\s*감|하고\s*옴|보고\s*옴|해치움|먹음|봄|함|냄|씀|샀음|삼)"
                      r"(?=$|[\s!.,~ㅋㅎㅠ])")
_KO_FUTURE = re.compile(r"(?:ㄹ|을|할|갈|올|볼|될|일)\s*(?:거|게|예정|계획|듯)|려고|하려|예정|거임|거야|할래|갈래|기로|ㄹ래|까\s*\?")

_EN_FIXED = [
    (re.compile(r"\bthe day before yesterday\b", re.I), -2),
    (re.compile(r"\bthe day after tomorrow\b", re.I), 2),
    (re.compile(r"\byesterday\b|\blast night\b", re.I), -1),
    (re.compile(r"\btoday\b|\btonight\b|\bthis (?:morning|afternoon|evening)\b|\bearlier today\b", re.I), 0),
    (re.compile(r"\btomorrow\b", re.I), 1),
]
_EN_WEEKDAY_RE = re.compile(
    rf"\b(?:(last|this past|this coming|this|next|on|coming)\s+)?({_EN_WEEKDAY})\b", re.I)
_EN_OFFSET = re.compile(r"\b(\d{1,3}|a couple of|a couple|couple of|a|one|two|three|four|five|six|seven|eight|"
                        r"nine|ten)\s+(days?|weeks?)\s+ago\b", re.I)
_EN_IN = re.compile(r"\bin\s+(\d{1,3}|a couple of|a|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
                    r"(days?|weeks?)\b", re.I)
_EN_PAST = re.compile(r"\b(?:was|were|did|had|went|got|saw|took|made|met|came|left|ate|bought|had|"
                      r"(?!need|feed|speed|seed|bleed|breed|proceed|succeed|exceed)\w{2,}ed)\b", re.I)


_EN_FUTURE = re.compile(r"\b(?:will|won'?t|gonna|going to|'ll|plan(?:ning)? to|can'?t wait|next|upcoming|coming up|"
                        r"starts?|begins?|is|are|have to|need to|hoping|hope to|scheduled)\b|\bi'?ll\b", re.I)


def _sentence_at(text: str, position: int) -> str:
    start = max(text.rfind(mark, 0, position) for mark in ".!?\n")
    ends = [i for i in (text.find(mark, position) for mark in ".!?\n") if i >= 0]
    return text[start + 1:min(ends) if ends else len(text)]


def _english_past(sentence: str) -> bool:
    """Tense of the sentence around a bare weekday: "we moved on saturday" is past, "i start wednesday" is not."""
    past = _EN_PAST.search(sentence)
    if not past:
        return False
    future = re.search(r"\b(?:will|won'?t|gonna|going to|plan(?:ning)? to|can'?t wait|'ll)\b|\bi'?ll\b", sentence, re.I)
    return not future


def _week_weekday(today: date, weeks: int, weekday: int) -> date:
    monday = today - timedelta(days=today.weekday())
    return monday + timedelta(weeks=weeks, days=weekday)


def _by_tense(today: date, weekday: int, past: bool) -> date:
    if past:
        return today - timedelta(days=(today.weekday() - weekday) % 7)
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _korean_mentions(text: str, today: date) -> list[DateMention]:
    mentions = []
    for pattern, offset in _KO_FIXED:
        for match in pattern.finditer(text):
            mentions.append(DateMention(today + timedelta(days=offset), match.start(), match.group(0)))
    for match in _KO_OFFSET.finditer(text):
        amount = match.group(1)
        count = int(amount) if amount.isdigit() else _KO_COUNTS.get(amount, 0)
        unit = match.group(2) or ("일" if amount in _KO_COUNTS else "")
        if not unit or count <= 0:
            continue
        days = count * 7 if unit.startswith("주") else count
        sign = -1 if match.group(3) == "전" else 1
        mentions.append(DateMention(today + timedelta(days=sign * days), match.start(), match.group(0)))
    for match in _KO_WEEKDAY.finditer(text):
        weekday = _KO_WEEKDAYS[match.group(1)]
        after = text[match.end():match.end() + 4]
        before = text[max(0, match.start() - 12):match.start()]
        if after.lstrip().startswith("마다") or re.search(r"매\s*주?\s*$", before):
            continue  # a habit ("목요일마다"), not a date
        week = None
        for pattern, weeks in _KO_WEEK_PREFIX:
            found = list(pattern.finditer(before))
            if found and not before[found[-1].end():].strip():
                week = weeks
                start = max(0, match.start() - 12) + found[-1].start()
                break
        if week is not None:
            mentions.append(DateMention(_week_weekday(today, week, weekday), start, text[start:match.end()]))
            continue
        word = _KO_WEEKDAY_WORD_PREFIX.search(before)
        if word:
            start = max(0, match.start() - 12) + word.start()
            if word.group(1) == "지난" or word.group(1) == "저번":
                resolved = _by_tense(today - timedelta(days=1), weekday, past=True)
            elif word.group(1) in {"이번", "요번"}:
                resolved = _week_weekday(today, 0, weekday)
            else:
                resolved = _week_weekday(today, 1, weekday)
            mentions.append(DateMention(resolved, start, text[start:match.end()]))
            continue
        after = text[match.end():]
        past = bool(_KO_PAST.search(after)) and not _KO_FUTURE.search(after)
        mentions.append(DateMention(_by_tense(today, weekday, past), match.start(), match.group(0)))
    return mentions


def _count_en(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _EN_COUNTS.get(word, 0)


def _english_mentions(text: str, today: date) -> list[DateMention]:
    mentions = []
    taken: list[tuple[int, int]] = []
    for pattern, offset in _EN_FIXED:
        for match in pattern.finditer(text):
            if any(s <= match.start() < e for s, e in taken):
                continue
            taken.append((match.start(), match.end()))
            mentions.append(DateMention(today + timedelta(days=offset), match.start(), match.group(0)))
    for match in _EN_OFFSET.finditer(text):
        days = _count_en(match.group(1)) * (7 if match.group(2).lower().startswith("week") else 1)
        mentions.append(DateMention(today - timedelta(days=days), match.start(), match.group(0)))
    for match in _EN_IN.finditer(text):
        days = _count_en(match.group(1)) * (7 if match.group(2).lower().startswith("week") else 1)
        mentions.append(DateMention(today + timedelta(days=days), match.start(), match.group(0)))
    for match in _EN_WEEKDAY_RE.finditer(text):
        qualifier = (match.group(1) or "").lower()
        weekday = _EN_WEEKDAYS[match.group(2).lower()]
        if re.match(r"s\b", text[match.end():match.end() + 2]) or re.search(r"\bevery\s+$", text[:match.start()]):
            continue  # "on Fridays", "every Friday": a habit
        if qualifier in {"last", "this past"}:
            resolved = _by_tense(today - timedelta(days=1), weekday, past=True)
        elif qualifier == "next":
            resolved = _week_weekday(today, 1, weekday)
        elif qualifier in {"this coming", "coming"}:
            resolved = _by_tense(today + timedelta(days=1), weekday, past=False)
        elif qualifier == "this":
            resolved = _by_tense(today, weekday, past=_english_past(_sentence_at(text, match.start())))
        else:
            resolved = _by_tense(today, weekday, past=_english_past(_sentence_at(text, match.start())))
        mentions.append(DateMention(resolved, match.start(), match.group(0)))
    return mentions


# A day of the month without its month ("interview is thursday the 15th", "leaving on the 24th", "24일에 출발"):
# the next such day (the last one when the sentence is in the past). Not an ordinal of something else.
_EN_DAY_OF_MONTH = re.compile(
    rf"\bthe\s+(\d{{1,2}})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:{_MONTH_EN})\b)"
    r"(?!\s+(?:time|times|floor|grade|place|one|ones|row|century|anniversary|birthday|gen|generation|edition|"
    r"season|episode|chapter|round|try|attempt|day|week|year|percentile)\b)", re.IGNORECASE)
_KO_DAY_OF_MONTH = re.compile(r"(?<![\d월])(?<!월\s)(\d{1,2})\s*일\s*(?:에|날|부터|까지|에는|엔)(?!\s*(?:동안|째|간))")


def _day_of_month_mentions(text: str, today: date) -> list[DateMention]:
    mentions = []
    for pattern, korean in ((_EN_DAY_OF_MONTH, False), (_KO_DAY_OF_MONTH, True)):
        for match in pattern.finditer(text):
            day = int(match.group(1))
            if not 1 <= day <= 31:
                continue
            after = text[match.end():]
            past = bool(_KO_PAST.search(after[:12])) and not _KO_FUTURE.search(after) if korean \
                else _english_past(_sentence_at(text, match.start()))
            year, month = today.year, today.month
            if past and day > today.day:
                year, month = (year - 1, 12) if month == 1 else (year, month - 1)
            elif not past and day < today.day:
                year, month = (year + 1, 1) if month == 12 else (year, month + 1)
            if _valid(month, day) and not (month == 2 and day == 29 and year % 4):
                mentions.append(DateMention(date(year, month, day), match.start(), match.group(0)))
    return mentions


def relative_dates(text: str, now: datetime) -> list[DateMention]:
    """Return the relative-day mentions of `text`, in order, resolved against `now` (its own offset)."""
    today = now.date()
    days = _day_of_month_mentions(text, today)
    # "thursday the 15th": the day of the month says which Thursday.
    mentions = [m for m in _korean_mentions(text, today) + _english_mentions(text, today)
                if not any(m.start < d.start <= m.start + len(m.text) + 6 for d in days)] + days
    mentions.sort(key=lambda m: m.start)
    return mentions


_RECENT_DAYS = 14  # a date said without tense this close behind today is that one, not next year's


# A date something was set for ("필기 12월 10일로 예약함", "검진 10일로 미뤄짐", "booked it for Dec 10", "pushed back to Jan 5"):
# the booking is past, the date is not.
_SET_FOR_KO = re.compile(r"[\d\s월일/.-]*?\d\s*일?\s*(?:로|으로)(?!\s*부터)(?![가-힣])")
_SET_FOR_EN = re.compile(r"\b(?:for|(?:moved|pushed|put|postponed|rescheduled|changed|brought|bumped)(?:\s+[\w']+){0,3}?"
                         r"\s+to)\s+(?:the\s+)?$", re.I)


def _set_for(text: str, start: int) -> bool:
    """Whether the date at `start` in `text` is one something was booked for or moved to."""
    return bool(_SET_FOR_KO.match(text, start) or _SET_FOR_EN.search(text[:start]))


def month_day_date(month: int, day: int, now: datetime, text: str = "", start: int = 0) -> date | None:
    """The date a month and day said without a year mean at `now`: the last one on or before today when the
    sentence around `start` in `text` is in the past, else the coming one, or one of the last two weeks ("3월 20일에
    결혼한대요" said in December is next March, not the March gone; "11월 5일 시험" said in March is this November)."""
    if not _valid(month, day):
        return None
    today = now.date()
    candidates = [date(year, month, day) for year in (today.year - 1, today.year, today.year + 1)
                  if not (month == 2 and day == 29 and year % 4)]
    if not candidates:
        return None
    after = text[start:start + 30]
    korean = re.search(r"[가-힣]", after) is not None
    past = (bool(_KO_PAST.search(after)) and not _KO_FUTURE.search(after)) if korean \
        else bool(text) and _english_past(_sentence_at(text, start))
    if past and not _set_for(text, start):
        earlier = [when for when in candidates if when <= today]
        return earlier[-1] if earlier else candidates[0]
    return next((when for when in candidates if when >= today - timedelta(days=_RECENT_DAYS)), candidates[-1])


def event_date(text: str, now: datetime, skip_month_days: set[tuple[int, int]] = frozenset()) -> date | None:
    """Return the date `text` talks about: the first relative day, else the first month-day (this year).

    `skip_month_days` are (month, day) pairs that name something else, such as the user's birthday.
    """
    mentions = relative_dates(text, now)
    if mentions:
        return mentions[0].date
    for mention in find_month_days(text):
        if (mention.month, mention.day) in skip_month_days:
            continue
        return month_day_date(mention.month, mention.day, now, text, mention.start)
    return None
