"""How a memory's date reads in the block: month/day within the current year ("3/7", as people write it), the whole
date otherwise — the year and the zeros cost ~6 of each line's date tokens, and the budget holds more memories
without them."""
from datetime import date

from django.utils import timezone

from context_pack.rendering import day_label, memory_line
from context_pack.retrieval import ScoredMemory
from context_pack.tokens import estimate_tokens
from memories.models import MemoryItem


def line(when: date | None) -> str:
    return memory_line(ScoredMemory(MemoryItem(content="수영 등록함", event_date=when), 1.0))


def test_a_date_of_this_year_shows_month_and_day_and_another_year_the_whole_date():
    this_year = timezone.localdate().year
    assert line(date(this_year, 3, 7)) == "- (3/7) 수영 등록함"
    assert line(date(this_year, 11, 23)) == "- (11/23) 수영 등록함"
    assert line(date(this_year - 1, 12, 30)) == f"- ({this_year - 1}-12-30) 수영 등록함"
    assert line(date(this_year + 1, 1, 2)) == f"- ({this_year + 1}-01-02) 수영 등록함"
    assert line(None) == "- 수영 등록함"


def test_the_short_date_costs_fewer_tokens():
    this_year = timezone.localdate().year
    assert estimate_tokens(f"({day_label(date(this_year, 11, 9))})") + 4 < estimate_tokens(f"({this_year}-11-09)")
