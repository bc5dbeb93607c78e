"""A question asking for a schedule's value, and the newer memory that tells another value as a change
(extraction.answers, memories.truth.answered_since): no database."""
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from memories.categories import MemorySource
from memories.extraction.answers import TIME, WEEKDAY, asked_kinds, names_asked, tells_change, values
from memories.truth import ANSWER_SIMILARITY, SAME_TOPIC, answered_since


@pytest.mark.parametrize("question, kinds", [
    ("what days am i working again? trying to plan stuff", (WEEKDAY,)),
    ("Which day is my swim again? I keep forgetting.", (WEEKDAY,)),
    ("나 수학학원 무슨 요일 가더라", (WEEKDAY,)),
    ("유나야 우리 러닝 몇 시에 하기로 했더라?", (TIME,)),
    ("what time is my shift tomorrow", (TIME,)),
    ("오늘 너무 피곤하다", ()),
    ("what did you promise me?", ()),
    ("몇 시간 잤는지 기억 안 나", ()),  # 몇 시간 is a duration
    ("where do i live again?", ()),  # places, ages, counts and dates are no schedule (answers.ASKED)
    ("when is race day again?", ()),
])
def test_the_kind_of_value_a_question_asks_for(question, kinds):
    assert asked_kinds(question) == kinds


@pytest.mark.parametrize("kind, text, found", [
    (WEEKDAY, "i work at chipotle tuesdays and thursdays after school", {"tue", "thu"}),
    (WEEKDAY, "they put me on weekends at gamestop. saturdays and sundays only now", {"sat", "sun"}),
    (WEEKDAY, "월수금 아침 말고 화목토 오후 4시 어때?", {"mon", "wed", "fri", "tue", "thu", "sat"}),
    (WEEKDAY, "수요일 러닝 완 2키로 안쉬고 뜀!!", {"wed"}),
    (TIME, "밤 10시 퇴근이라 아침 6시반 러닝 너무 힘들어", {"22:00", "06:30"}),
    (TIME, "yeah i'm a 5:30am guy", {"05:30"}),
    (TIME, "오후 4시 어때", {"16:00"}),
    (WEEKDAY, "오늘 너무 피곤하다", set()),
    (TIME, "3시간 잤어", set()),
])
def test_the_values_a_text_gives(kind, text, found):
    assert values(kind, text).keys() == found


def test_a_value_keeps_the_words_that_wrote_it_and_a_question_its_names():
    assert values(WEEKDAY, "Tuesday mornings, and the odd weekend") == {
        "tue": {"Tuesday"}, "sat": {"weekend"}, "sun": {"weekend"}}
    assert values(TIME, "아침 6시반 러닝") == {"06:30": {"아침 6시반"}}
    assert names_asked("What time is Lily's party? Ask Max too") == ("lily", "max")
    assert names_asked("Which day is my swim again? I keep forgetting.") == ()


@pytest.mark.parametrize("text, change", [
    ("they put me on weekends at gamestop. saturdays and sundays only now", True),
    ("월수금 아침 말고 화목토 오후 4시 어때?", True),
    ("swim moved to thursdays", True),
    ("TRPG 모임이 이제 금요일 밤으로 바뀌었어요", True),
    ("And I found the pool. Aqua aerobics Thursdays at ten", False),
    ("flying to Orlando Saturday, back Dec 26", False),
])
def test_a_newer_value_told_as_a_change(text, change):
    assert tells_change(text) is change


START = datetime(2026, 12, 1, tzinfo=timezone.utc)


def _memory(pk, content, *, days, similarity, source=MemorySource.EXPLICIT, subject_key=""):
    return SimpleNamespace(pk=pk, content=content, subject_value="", subject_key=subject_key, source=source,
                           similarity=similarity, created_at=START + timedelta(days=days))


def _vectors(topics):
    """Unit vectors: memories of the same topic number are identical, of different ones orthogonal."""
    def embeddings(ids):
        return {pk: [1.0 if axis == topics[pk] else 0.0 for axis in range(8)] for pk in ids if pk in topics}
    return embeddings


QUESTION = "what days am i working again? trying to plan stuff"
OLD_JOB = _memory(1, "school then work. i work at chipotle tuesdays and thursdays after school.", days=0,
                  similarity=0.38)
NEW_JOB = _memory(2, "also they put me on weekends at gamestop. saturdays and sundays only now so my weekdays r free",
                  days=30, similarity=0.2)
EXAM = _memory(3, "ok but chem final monday. im scared", days=10, similarity=0.34)


def test_a_newer_value_told_as_a_change_on_the_same_topic_replaces_the_older_whatever_words_told_it():
    assert answered_since(QUESTION, [OLD_JOB, NEW_JOB, EXAM], _vectors({1: 0, 2: 0, 3: 1})) == {
        1: "school then work."}  # the clause giving the old days is gone, the rest stays


def test_an_older_memory_with_nothing_else_to_say_leaves_the_block():
    only_days = _memory(1, "tuesdays and thursdays at chipotle", days=0, similarity=0.4)
    assert answered_since(QUESTION, [only_days, NEW_JOB], _vectors({1: 0, 2: 0})) == {1: None}


def test_another_topic_a_value_not_told_as_a_change_or_the_same_value_replace_nothing():
    assert answered_since(QUESTION, [EXAM, NEW_JOB], _vectors({3: 1, 2: 0})) == {}  # another topic
    pool = _memory(2, "And I found the pool. Aqua aerobics Thursdays at ten.", days=40, similarity=0.34)
    swim = _memory(1, "I already swim! Tuesday mornings at the leisure centre.", days=0, similarity=0.47)
    assert answered_since("Which day is my swim again?", [swim, pool], _vectors({1: 0, 2: 0})) == {}  # no change cue
    again = _memory(2, "still tuesdays and thursdays at chipotle now", days=40, similarity=0.4)
    assert answered_since(QUESTION, [OLD_JOB, again], _vectors({1: 0, 2: 0})) == {}
    assert answered_since("how was your day?", [OLD_JOB, NEW_JOB], _vectors({1: 0, 2: 0})) == {}


def test_the_newer_memory_must_answer_the_question_and_a_structured_fact_is_never_corrected():
    far = _memory(2, "saturdays and sundays only now", days=40, similarity=ANSWER_SIMILARITY - 0.01)
    assert answered_since(QUESTION, [OLD_JOB, far], _vectors({1: 0, 2: 0})) == {}
    fact = _memory(1, "Work days: tuesdays and thursdays", days=0, similarity=0.6, subject_key="work_days")
    assert answered_since(QUESTION, [fact, NEW_JOB], _vectors({1: 0, 2: 0})) == {}


def test_a_question_naming_someone_reads_the_sentences_about_them():
    parties = _memory(1, "Lily's party is at 3pm on Saturday. Max's is at 5pm.", days=0, similarity=0.4)
    moved = _memory(2, "Lily's party moved to 4pm now, the venue double-booked.", days=5, similarity=0.4)
    topics = _vectors({1: 0, 2: 0})
    assert answered_since("What time is Lily's party again?", [parties, moved], topics) == {1: "Max's is at 5pm."}
    assert answered_since("What time is Max's party again?", [parties, moved], topics) == {}


def test_the_characters_words_are_neither_replaced_nor_replacing():
    said = _memory(2, "Let's make it weekends only now!", days=40, similarity=0.5, source=MemorySource.CHARACTER)
    assert answered_since(QUESTION, [OLD_JOB, said], _vectors({1: 0, 2: 0})) == {}


def test_same_topic_is_a_threshold_on_the_two_memories_embeddings():
    def near(cosine):
        return lambda ids: {1: [1.0, 0.0], 2: [cosine, (1 - cosine ** 2) ** 0.5]}
    assert answered_since(QUESTION, [OLD_JOB, NEW_JOB], near(SAME_TOPIC + 0.01)) == {1: "school then work."}
    assert answered_since(QUESTION, [OLD_JOB, NEW_JOB], near(SAME_TOPIC - 0.01)) == {}
