"""A day of the month without its month ("the 15th", "24일에"): the next such day, or the last one in the past."""
from datetime import date, datetime, timezone

import pytest

from memories.extraction.dates import event_date

NOW = datetime(2026, 1, 8, 21, 0, tzinfo=timezone.utc)  # a Thursday


@pytest.mark.parametrize("text,expected", [
    ("interview is thursday the 15th", date(2026, 1, 15)),  # the day says which Thursday
    ("we fly out on the 3rd", date(2026, 2, 3)),  # already past this month: next month's
    ("it was on the 3rd, so long ago", date(2026, 1, 3)),  # past tense: this month's
    ("the 15th of march works", date(2026, 3, 15)),
    ("20일에 이사 가", date(2026, 1, 20)),
    ("5일에 시험 봤어", date(2026, 1, 5)),
])
def test_a_day_of_the_month_resolves_against_the_message(text, expected):
    assert event_date(text, NOW) == expected


@pytest.mark.parametrize("text", ["this is the 5th time i told you", "she lives on the 3rd floor", "3일 동안 아팠어"])
def test_other_ordinals_and_durations_are_no_date(text):
    assert event_date(text, NOW) is None
