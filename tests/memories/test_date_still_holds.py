"""Whether a memory's date holds once a correction replaced some words (memories.truth.date_still_holds), and the
days those words name (extraction.dates.days_named). No database."""
from datetime import date

import pytest

from memories.extraction.dates import days_named
from memories.truth import date_still_holds


@pytest.mark.parametrize("terms, days", [
    (["12월 3일"], {(12, 3)}), (["Dec 3rd"], {(12, 3)}), (["12/3"], {(12, 3)}), (["3 December"], {(12, 3)}),
    (["the 24th"], {(None, 24)}), (["28일"], {(None, 28)}), (["24th"], {(None, 24)}),
    (["24"], set()), (["유성"], set()), (["3 weeks"], set()), (["2:15pm"], set()),
])
def test_the_days_replaced_words_name(terms, days):
    assert days_named(terms) == days


@pytest.mark.parametrize("when, terms, holds", [
    (date(2026, 12, 3), ["12월 3일"], False),
    (date(2026, 12, 3), ["the 3rd"], False),  # a day of the month alone: any month
    (date(2026, 12, 4), ["12월 3일"], True),
    (date(2026, 11, 3), ["12/3"], True),  # another month's 3rd
    (date(2026, 12, 3), ["월수금"], True),
    (None, ["12월 3일"], True),
])
def test_a_date_holds_unless_the_correction_replaced_that_day(when, terms, holds):
    assert date_still_holds(when, terms) is holds
