"""What a new fact about the user cannot be, given what is known of them (issue 8: whose fact it is).

Talk of children and grandchildren is full of their ages and school years ("시현이가 열세살인데 … 달빛중학교 1학년",
"지아는 새솔초등학교 다니고요"), and Korean drops the subject, so a rule cannot always tell whose they are. What the
user told of themselves can: a 67-year-old is in no school year below university and does not turn 13. A stored age
rules out
- a younger age (ages only go up; a stated correction, which names the old value, is not judged here);
- a school, or a school year, below university, from the age of `SCHOOL_AGE_LIMIT`.
No Django: memories.fact_writing hands in the stored values.
"""
from __future__ import annotations

import re

from .corrections import numeral_value
from .lexicon import english_number

SCHOOL_AGE_LIMIT = 26
AGE_SLACK = 1  # "I'm 30" after "29" is a birthday; a year less may be a rounding
_AGE_WORD = re.compile(r"\s*(?:살|세|years?\s*old|yrs?\s*old|y/?o)\s*$", re.I)
# A school or school year below university ("새솔초등학교", "중학교 1학년", "2학년", "3rd grade", "high school").
_BELOW_UNIVERSITY = re.compile(r"초등|중학|고등|유치원|어린이집|(?<![가-힣])[초중고](?:\s*\d|등)|^\s*\d\s*학년\s*$"
                               r"|elementary|middle\s+school|high\s+school|\bhs\b|kindergarten|preschool|daycare"
                               r"|\b(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth)\s+grade\b|\bgrade\s+\d",
                               re.I)


def age_years(value: str) -> int | None:
    """The years an age value says ("예순일곱", "열세살", "17", "seventeen"), or None."""
    word = _AGE_WORD.sub("", value.strip())
    number = numeral_value(word) if word else None
    if number is None and re.fullmatch(r"[A-Za-z -]+", word or ""):
        number = english_number(word) or None
    return number if number is not None and 0 < number < 120 else None


def implausible(subject: str, value: str, known_age: str) -> bool:
    """Whether the user, whose stored age is `known_age` ('' when none), cannot have `value` as `subject`."""
    years = age_years(known_age) if known_age else None
    if years is None:
        return False
    if subject == "age":
        new = age_years(value)
        return new is not None and new < years - AGE_SLACK
    if subject in ("school", "school_year"):
        return years >= SCHOOL_AGE_LIMIT and _BELOW_UNIVERSITY.search(value) is not None
    return False
