"""The character's side (seed 002 §5 v2): assistant turns become the character's own memories, by rules as data.

No database: the rules, the guards, the cue of a question about the character, and both extractors' output.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memories.extraction.base import ChatTurn
from memories.extraction.character_side import (
    PROMISE,
    SAID,
    SELF,
    STORY,
    STORY_MARK,
    asks_character,
    character_fact,
    classify,
)
from memories.extraction.local import LocalExtractor

KST = timezone(timedelta(hours=9))
AT = datetime(2026, 3, 4, 21, 0, tzinfo=KST)


@pytest.mark.parametrize("text,kind", [
    # commitments
    ("좋아! 그럼 매일 밤 스트레칭 했는지 내가 체크해줄게", PROMISE),
    ("대회 전날에 식단 정리해서 알려줄게 ㅎㅎ", PROMISE),
    ("약속할게, 다음에 오면 책 세 권 골라둘게", PROMISE),
    ("검진 전날 금식 시간 챙겨드릴게요", PROMISE),
    ("I'll remind you to call your mom every Sunday.", PROMISE),
    ("I promise I'll check in after your interview!", PROMISE),
    ("let's run the Han river course together on Saturday", PROMISE),
    ("Oh and I'll remind you to call your mom next Sunday, okay? 📞", PROMISE),  # a tag question closes it
    ("내가 내일 아침 7시에 깨워줄게 알았지?", PROMISE),
    # about itself and its people
    ("우리 언니는 제주도 살아. 카페 하거든", SELF),
    ("나는 고등학교 때 육상부였어 400m 뛰었지", SELF),
    ("my brother studies architecture in Osaka, he loves it", SELF),
    ("I'm slowly reading Middlemarch these days, it's so long", SELF),
    # anything else with content, in a conversation between people
    ("오사카는 5월 14일 출발이야 벌써 설레", SAID),
    ("The barley tea at grandma's place was the best part of every summer", SAID),
])
def test_assistant_statements_are_classified(text, kind):
    statement = classify(text)
    assert statement is not None and statement.kind == kind, statement


@pytest.mark.parametrize("text", [
    "어디로 이사했어?",  # a question
    "오늘 몇 km 뛰었니?",
    "what did you eat today?",
    "만약 내가 사람이었으면 같이 뛰었을 텐데",  # a hypothetical
    "if I were you I'd take the job?",
    "ㅋㅋㅋㅋ",  # chatter
    "헐 대박",
    "",
])
def test_questions_hypotheticals_and_chatter_are_not_kept(text):
    assert classify(text) is None


def test_a_role_play_line_is_a_line_of_the_story_never_a_promise():
    story = classify("내가 검을 뽑아 들겠다. 너를 지켜줄게", role_play=True)
    assert story is not None and story.kind == STORY
    assert classify("내가 검을 뽑아 들겠다. 너를 지켜줄게").kind == PROMISE
    assert classify("*고개를 끄덕인다* 응?", role_play=True) is None  # only a question


def test_a_story_line_is_marked_as_the_role_play():
    turn = ChatTurn("a9", "assistant", "*목소리를 낮춘다* 제 스승님, 대마법사 세르빈께서 사라지셨어요.",
                    datetime(2026, 5, 20, 21, 0, tzinfo=timezone.utc))
    fact = character_fact(turn, role_play=True, prompted_by="견습 마법사가 무슨 일로 용병을 찾지?")
    assert fact is not None and fact.content.startswith(STORY_MARK) and "세르빈" in fact.content
    assert fact.category == "other" and "←" not in fact.content


def test_only_the_statement_of_a_turn_that_also_asks_decides():
    assert classify("나 다음 달에 오사카 가! 너는 여행 계획 있어?").kind == SELF
    assert classify("너는 여행 계획 있어? 어디 가고 싶어?") is None


@pytest.mark.parametrize("message,name,level", [
    ("너 매일 밤 나한테 뭐 체크해준다고 했지?", "유나", 2),
    ("대회 전날에 너가 뭐 해준다고 했었지?", "유나", 2),
    ("유나씨 오빠분 무슨 일 한다고 했죠? 저 PT 받아볼까", "유나", 2),
    ("미나 인생책 뭐라고 했지?", "미나", 2),
    ("you said you'd do something after my interview right? what was it", "sora", 2),
    ("what did you promise me?", "sora", 2),
    ("what did you tell me about your sister?", "sora", 2),
    ("where does your sister live again?", "sora", 1),
    ("소라님도 고양이 키우면 좋을텐데요 ㅎㅎ", "소라", 1),
    # the user's own words and things: not the character's
    ("유나야 나 어디 산다고 했었지?", "유나", 0),
    ("내가 뭐라고 했지?", "유나", 0),
    ("춘심씨 저 기억나요? 며칠 바빠서 못왔어요ㅠ", "춘심", 0),
    ("mina what's my name again lol", "mina", 0),
    ("what did I tell you about my job?", "sora", 0),
    ("HR lost my SIN lol can you tell me what it was", "sora", 0),
    ("오늘 너무 피곤하다", "유나", 0),
    ("세미나 끝나고 뭐 먹지", "미나", 0),  # the name inside another word
])
def test_a_question_about_the_character_is_recognised(message, name, level):
    assert asks_character(message, name) == level


def _turns(*pairs):
    return [ChatTurn(message_id=mid, role="user" if mid.endswith("u") else "assistant", content=text,
                     created_at=AT + timedelta(minutes=index)) for index, (mid, text) in enumerate(pairs)]


def test_a_character_statement_never_becomes_a_user_fact():
    result = LocalExtractor().extract(turns=_turns(
        ("1u", "너 가족 얘기 좀 해줘"),
        ("1a", "응 우리 언니는 제주도 살아! 나도 제주도에서 자랐어"),
        ("2u", "오 좋겠다"),
    ), existing=[])
    character = [f for f in result.facts if f.speaker == "character"]
    assert [(f.content, f.source_message_id, f.subject) for f in character] == [
        ("응 우리 언니는 제주도 살아! 나도 제주도에서 자랐어 (← 너 가족 얘기 좀 해줘)", "1a", "")]
    user_facts = [f for f in result.facts if f.speaker == "user"]
    assert {f.source_message_id for f in user_facts} <= {"1u", "2u"}
    assert not any(f.subject for f in user_facts)  # no residence, no sibling, no hometown of the user
    assert not any("제주" in f.content or "제주" in f.value for f in user_facts)


def test_the_users_answer_still_uses_the_characters_question_as_context():
    result = LocalExtractor().extract(turns=_turns(("1a", "키는 몇이야?"), ("1u", "178!")), existing=[])
    assert [(f.subject, f.value, f.speaker) for f in result.facts if f.subject] == [("height", "178", "user")]
    assert not [f for f in result.facts if f.speaker == "character"]  # the question itself is not kept


def test_a_promise_is_a_promise_with_its_turn():
    fact = character_fact(ChatTurn("9a", "assistant", "내일 아침에 물 마셨는지 체크해줄게!", AT))
    assert (fact.speaker, fact.category, fact.kind, fact.source_message_id) == ("character", "promise", "episodic", "9a")
    assert fact.importance > character_fact(ChatTurn("9b", "assistant", "우리 오빠는 제빵사야 빵 진짜 잘 만들어",
                                                     AT)).importance


def test_the_same_turn_twice_in_one_batch_is_kept_once():
    known: set = set()
    turn = ChatTurn("9a", "assistant", "내일 아침에 물 마셨는지 체크해줄게!", AT)
    assert character_fact(turn, known=known) is not None
    assert character_fact(turn, known=known) is None


@pytest.mark.parametrize("message,name,level", [
    # texting spellings address the character too
    ("what does ur sister do again?", "Mina", 1),
    ("where did u and ur sister end up going?", "Mina", 2),
    ("whats the book u put aside for me", "Mina", 2),
    ("what was the first book we did for our lil club", "Mina", 1),
    # a recommendation or instruction reported back: only the character gave it, named or not
    ("불안할 때 해보라고 했던 그 방법 이름이 뭐였지?", "소라", 2),
    ("허리 아플때 하라던 그 운동 이름이 뭐였죠", "소라", 2),
    ("그 책 추천해준 거 뭐였지", "춘심", 2),
    ("what was that song you recommended", "Mina", 2),
    # ... unless someone else gave it
    ("엄마가 먹으라고 했던 약 이름 뭐였지", "춘심", 0),
    ("내가 추천해준 영화 봤어?", "춘심", 0),
    ("the book my sister recommended is great", "Mina", 0),
    ("the show she recommended sucked", "Mina", 0),
    # "뭐랬지" is "뭐라고 했지"; what the character was to give; what it got the user into
    ("유나 너 최애 영화 뭐랬지?", "유나", 2),
    ("소라씨 나 이사 가기 전에 뭐 주기로 했었죠?", "소라", 2),
    ("what was that show u got me hooked on", "Mina", 2),
    ("엄마가 뭐 주기로 했더라", "춘심", 0),
    ("내가 뭐랬지?", "춘심", 0),
    # what the character gave or told the user to do, asked about as a thing ("the trick you gave me", "가라고 한 데")
    ("what was that trick you gave me for shaky hands?", "Chunsim", 2),
    ("whats the monster rule u gave me", "Yuna", 2),
    ("부산 가면 먹어보라고 한 거 뭐였지?", "춘심", 2),
    ("엄마가 가보라고 한 데 가봤어", "춘심", 0),
    ("my mom gave me her old car", "Mina", 0),
])
def test_asks_character_reads_texting_and_reported_recommendations(message, name, level):
    assert asks_character(message, name) == level


def test_the_users_short_request_goes_with_the_characters_reply():
    """Issue 8 §5: the neighbouring turn — the reply may not name what it answers."""
    turn = ChatTurn("t46a", "assistant", "Yes! I would love that. What if we both read Piranesi by Susanna Clarke? "
                    "It's strange and beautiful.", datetime(2026, 5, 20, 21, 0, tzinfo=timezone.utc))
    fact = character_fact(turn, prompted_by="lol. ok question. do u wanna do like a book club w me")
    assert fact is not None and "Piranesi" in fact.content and "book club" in fact.content


@pytest.mark.parametrize("previous", ["", "ok night!!", "today was so long and my feet hurt after a thirteen hour shift at "
                                               "the restaurant, and then the bus was late again so I walked home"])
def test_a_statement_or_a_long_message_before_the_reply_is_not_kept_with_it(previous):
    turn = ChatTurn("a1", "assistant", "My sister Yeon is a flight attendant. She's always in a different city.",
                    datetime(2026, 5, 20, 21, 0, tzinfo=timezone.utc))
    assert "←" not in character_fact(turn, prompted_by=previous).content


def test_a_correcting_request_goes_with_the_reply_without_its_old_value():
    turn = ChatTurn("a2", "assistant", "당연하죠!! 무릎이 먼저예요 목표 하루 7,000보로 변경! 꾸준한 게 최고예요!",
                    datetime(2026, 4, 13, 21, 0, tzinfo=timezone.utc))
    fact = character_fact(turn, prompted_by="만보는 좀 힘들어요 ㅠ 목표 칠천보로 낮춰도 될까요? 만보 하다가 무릎이 아파서")
    assert "칠천보" in fact.content and "만보" not in fact.content


def test_advice_keeps_what_the_user_said_it_was_for():
    said = character_fact(ChatTurn("a1", "assistant", "그럼 타이머 공부법 해봐!! 30분 집중하고 5분 쉬는 거!", datetime(2026, 3, 1, tzinfo=timezone.utc)),
                          prompted_by="근데 공부하면 집중이 안됨 폰만봄")
    assert said is not None and "(← 근데 공부하면 집중이 안됨 폰만봄)" in said.content
    chat = character_fact(ChatTurn("a2", "assistant", "그치! 나도 오늘 산책 갔어", datetime(2026, 3, 1, tzinfo=timezone.utc)), prompted_by="오늘 날씨 좋다")
    assert chat is None or "←" not in chat.content


def test_what_the_user_said_to_the_character_goes_with_its_answer():
    turn = ChatTurn("a3", "assistant", "I do. A black lab named Pudding. He steals my socks.",
                    datetime(2026, 5, 20, 21, 0, tzinfo=timezone.utc))
    fact = character_fact(turn, prompted_by="hold on you have a dog")
    assert fact is not None and "(← hold on you have a dog)" in fact.content


def test_a_suggestion_asked_back_keeps_the_end_of_a_long_message_it_answers():
    """"Have you tried …?" recommends; of a long message, its last sentences say what for."""
    turn = ChatTurn("a4", "assistant", "Have you tried The Thursday Murder Club? Cozy, funny, and nobody you love gets hurt.",
                    datetime(2026, 5, 20, 21, 0, tzinfo=timezone.utc))
    fact = character_fact(turn, prompted_by="Work was fine, the client call ran long again and I missed lunch. "
                                            "I need something light to read before bed, my brain is fried")
    assert fact is not None and "something light to read before bed" in fact.content
    assert "client call" not in fact.content


@pytest.mark.parametrize("message", [
    "우리 둘이서 자기 전에 하기로 한 거 뭐였지?",  # what the two agreed on
    "우리 같이 보기로 한 드라마 뭐였더라",
    "시험 끝나면 나한테 뭐 사준다고 했었지?",  # a promise to the user, reported back
    "소라씨가 나 한테 매일 챙겨준다고 한거 있었잖아요",
    "감기 걸렸을 때 마시라고 한 차 뭐였지?",  # told the user to do
    "what's the reading plan you set for me again?",
])
def test_a_question_about_what_the_two_agreed_or_the_character_promised_asks_the_character(message):
    assert asks_character(message, "소라") == 2


@pytest.mark.parametrize("message", ["우리 엄마랑 제주도 가기로 한 거 알지?", "우리 같이 가기로 했어 엄마랑"])
def test_the_users_own_plans_with_family_do_not_ask_the_character(message):
    assert asks_character(message, "소라") < 2
