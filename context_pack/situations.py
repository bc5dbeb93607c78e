"""The conversation situation of seed 000 §12.2, detected unless the caller gives one."""
from __future__ import annotations

import re
from datetime import date, timedelta

FIRST_IN_A_WHILE = "first_in_a_while"
DEEP_TALK = "deep_talk"
DAILY = "daily"
SPECIAL_DAY = "special_day"
SITUATIONS = (FIRST_IN_A_WHILE, DEEP_TALK, DAILY, SPECIAL_DAY)

AWHILE = timedelta(days=3)
SPECIAL_DAY_WINDOW = 3  # days ahead (and today) in which a special date counts
_DEEP_WORDS = re.compile(
    r"(고민|걱정|힘들|힘드|우울|불안|외로|외롭|슬프|슬퍼|속상|무서|두려|지쳐|지친|괴로|눈물|울고|상담|죽고|포기|"
    r"worr|anxious|anxiety|depress|lonely|sad|stress|scared|afraid|hurt|cry|give up|advice)",
    re.IGNORECASE,
)


def days_until(month_day: str, today: date) -> int | None:
    """Days from today to the next occurrence of "MM-DD" (or the date of "YYYY-MM-DD"); None if invalid."""
    try:
        parts = [int(part) for part in month_day.split("-")]
        if len(parts) == 3:
            return (date(parts[0], parts[1], parts[2]) - today).days
        month, day = parts
        target = date(today.year, month, day)
        if target < today:
            target = date(today.year + 1, month, day)
        return (target - today).days
    except (ValueError, TypeError):
        return None


def upcoming_special_dates(special_dates: list[dict], today: date) -> list[tuple[dict, int]]:
    found = []
    for entry in special_dates or []:
        days = days_until(str(entry.get("date", "")), today)
        if days is not None and 0 <= days <= SPECIAL_DAY_WINDOW:
            found.append((entry, days))
    return sorted(found, key=lambda pair: pair[1])


def detect_situation(*, message: str, gap: timedelta | None, special_dates: list[dict], today: date) -> str:
    if upcoming_special_dates(special_dates, today):
        return SPECIAL_DAY
    if gap is not None and gap >= AWHILE:
        return FIRST_IN_A_WHILE
    if _DEEP_WORDS.search(message or ""):
        return DEEP_TALK
    return DAILY
