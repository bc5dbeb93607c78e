"""Suppositions and jokes (extraction.guards): no fact about the user, kept below the confidence the prompt injects.

Sentences written for these tests; the recall corpus is not used.
"""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from context_pack.retrieval import MIN_INJECTED_CONFIDENCE
from memories.extraction.base import UNREAL_CONFIDENCE, ChatTurn
from memories.extraction.guards import is_hypothetical, is_joke, is_unreal
from memories.extraction.local import LocalExtractor
from memories.models import MemoryItem

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


def extract(text: str):
    return LocalExtractor().extract(turns=[ChatTurn("u1", "user", text, NOW)], existing=[])


@pytest.mark.parametrize("text", [
    "만약 의대 갔으면 지금쯤 의사 됐겠지",
    "로또 1등 되면 바로 하와이 가서 살 거야",
    "if i won the lottery i'd buy a farm in montana",
    "what if i moved to tokyo next year",
    "if i moved to lisbon i'd learn to surf",  # any past form after "if i"
    "if we quit our jobs we could travel for a year",
])
def test_suppositions(text):
    assert is_hypothetical(text) and is_unreal(text)


@pytest.mark.parametrize("text,joke", [
    ("나 사실 재벌 3세임 ㅋㅋ 농담이고", True),
    ("i'm a secret agent jk", True),
    ("농담 아니고 나 진짜 재벌 3세야", False),
    ("not kidding, i was a professional skater", False),
    ("오늘 회사에서 농담 따먹기 하다 혼남", False),
    ("ㄴㄴ 그거 구라임 ㅋㅋ", True),
    # a joke word inside a word is none: a name before 라고 ("민구라고 불러"), a name before 이야
    ("앞으로 민구라고 불러줘", False),
    ("우리 강아지 이름은 똘뻥이야", False),
])
def test_jokes_taken_back_and_insisted_on(text, joke):
    assert is_joke(text) is joke


def test_a_supposition_gives_no_fact_and_its_episode_is_kept_below_the_injected_confidence():
    result = extract("나 만약 의대 갔으면 지금쯤 의사 됐겠지 ㅋㅋ 아쉽다")

    assert not [fact for fact in result.facts if fact.subject == "occupation"]
    episodes = [fact for fact in result.facts if fact.kind != "semantic"]
    assert episodes and all(fact.confidence == UNREAL_CONFIDENCE < MIN_INJECTED_CONFIDENCE for fact in episodes)


def test_a_real_fact_beside_a_supposition_is_kept():
    result = extract("나 간호사야. 만약 의대 갔으면 의사 됐겠지")

    assert any("간호사" in fact.value for fact in result.facts if fact.subject == "occupation")
    assert not any("의사" in fact.value for fact in result.facts if fact.subject)


def test_a_plain_statement_keeps_the_writers_confidence():
    result = extract("나 요즘 매일 아침 수영 다녀")

    assert result.facts and all(fact.confidence is None for fact in result.facts)


def test_the_prompt_never_states_a_joke_but_the_user_can_still_see_it(system_client, post_turns, chunsim, alice):
    post_turns("c1", ("t1u", "나 바리스타야 카페에서 일해"), ("t2u", "사실 나 전직 국정원 요원임 ㅋㅋ 농담이고"))

    response = system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "나 무슨 일 한다고 했지?"},
                                  format="json")

    assert response.status_code == 200
    block = response.json()["text"]
    assert "바리스타" in block and "국정원" not in block
    joke = [item for item in MemoryItem.objects.filter(user=alice, character=chunsim) if "국정원" in item.content]
    assert joke and joke[0].is_active and joke[0].confidence < MIN_INJECTED_CONFIDENCE


@pytest.mark.parametrize("text", ["우리 언니 서른이야", "서른 즈음에 노래 좋아해", "마흔 넘으면 힘들대"])
def test_a_bare_age_word_about_someone_else_or_in_passing_is_not_the_users_age(text):
    assert not [fact for fact in extract(text).facts if fact.subject == "age"]


def test_weighing_a_change_states_no_fact_but_the_message_is_kept_and_injected():
    result = extract("병원일 너무 빡세서 필라테스 강사로 이직할까 고민중")

    assert not [fact for fact in result.facts if fact.subject == "occupation"]
    episodes = [fact for fact in result.facts if fact.kind != "semantic"]
    assert episodes and all(fact.confidence is None for fact in episodes)


def test_a_wish_in_one_clause_leaves_the_fact_of_another():
    result = extract("나 물리치료사야. 필라테스 강사로 이직할까 고민중")

    assert [fact.value for fact in result.facts if fact.subject == "occupation"] == ["물리치료사"]


@pytest.mark.parametrize("text", [
    "anyway i'm secretly a werewolf lol havent slept since tuesday",
    "i'm basically a professional chef now lmao",
    "나 사실 중딩때 아역배우였음 ㅋㅋㅋ ㄴㄴ 구라임",
])
def test_hyperbole_and_a_claim_taken_back_are_jokes(text):
    assert is_joke(text)


@pytest.mark.parametrize("text", ["i'm literally a nurse lol what do u expect", "i'm officially a homeowner lol",
                                  "구라 아니고 진짜 합격함"])
def test_emphasis_and_insisting_are_no_jokes(text):
    assert not is_joke(text)


def test_a_message_ending_on_joke_is_a_joke():
    from memories.extraction.guards import is_joke

    assert is_joke("아 나 사실 인턴 아니고 회장임 ㅋㅋ 농담")
    assert not is_joke("농담 아니고 진짜 회장임")
    assert not is_joke("그건 농담 같은데 진짜야")
