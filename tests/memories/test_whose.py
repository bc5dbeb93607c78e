"""extraction.whose without a database: the user asking about their own subject, and what was said only of others.

Sentences written for these tests (no recall corpus).
"""
import pytest

from memories.extraction.character_side import users_own_subject
from memories.extraction.whose import only_about_others, own_subject_asked


@pytest.mark.parametrize("message,subject", [
    ("나 요즘 어디 산다고 했지?", "residence"),
    ("오빠 나 어디 산다고 했었지?", "residence"),  # a vocative before the asker
    ("미나야 내 직업 뭐라고 했었는지 기억나?", "occupation"),
    ("where am i living now? forgot what i told you lol", "residence"),
    ("what's my job these days? my aunt keeps asking", "occupation"),
    # no question mark: how chat users often ask
    ("how old am i again, i honestly lose track", "age"),
    ("random but where did i grow up again lol", "hometown"),
    ("내 고향 어디게~", "hometown"),
    ("나 몇 살이라고 했더라 ㅋㅋ", "age"),
])
def test_the_users_question_about_their_own_subject(message, subject):
    assert own_subject_asked(message) == subject


@pytest.mark.parametrize("message", [
    "우리 형 어디 산다고 했지?", "where does my cousin live again?", "누나 직업이 뭐였지?", "내 동생 이름 뭐였지?",
    "오늘 날씨 좋다", "what should we watch tonight?", "when's theo's birthday again?",
    "what does my wife do for a living again?",
    "what a day lol, work was insane", "주말에 뭐하고 놀지 고민이네요 ㅎㅎ",  # no question at all
    "내 남친 이름 기억나?", "do i have any pets? the vet form asks",  # answered by what is said of others
])
def test_a_question_about_someone_else_or_no_subject_is_not_the_users_own(message):
    assert own_subject_asked(message) == ""


def test_a_question_about_what_the_character_said_is_not_about_the_users_own_subject():
    assert own_subject_asked("whats the name of that book u recommended me") == "favorite_book"
    assert users_own_subject("whats the name of that book u recommended me", "소라") == ""
    assert users_own_subject("what do i do for a living again", "소라") == "occupation"


@pytest.mark.parametrize("text", [
    "형한테 전화할까 했는데 형은 시드니 살아서 시차가 안 맞아",
    "사촌 민지는 강남에서 회계사 하는데 걔는 맨날 야근이래",
    "my flatmate jonas is from hamburg and he's a chef",
    "내 동생은 대전 살아",  # "내" is whose sibling, not who lives there
])
def test_statements_only_about_others(text):
    assert only_about_others(text)


@pytest.mark.parametrize("text", [
    "형은 시드니 살고 난 인천 살아", "i told my brother i'm moving to leeds", "요즘 망원동 살아", "",
    "강남은 너무 비싸", "회사는 판교야",  # a place or a thing as the topic is nobody
    "8월 2일! 한참 남음 (← 근데 언니 생일은 언제야?)",  # the character's question it answers addresses the user
])
def test_statements_about_the_speaker_too_or_about_no_one(text):
    assert not only_about_others(text)


def test_a_bare_name_and_age_after_talk_of_a_sibling_are_the_siblings():
    from datetime import datetime, timezone

    from memories.extraction.base import ChatTurn
    from memories.extraction.local import LocalExtractor

    def facts(text):
        turn = ChatTurn("m1", "user", text, datetime(2026, 6, 1, tzinfo=timezone.utc))
        return {(f.subject, f.value) for f in LocalExtractor().extract(turns=[turn], existing=[]).facts if f.subject}

    assert not {s for s, _ in facts("우리 여동생은 중3인데 맨날 폰만 봐. 하은이. 열여섯")} & {"age", "name"}
    assert {("name", "최도윤"), ("age", "스물일곱")} <= facts("난 최도윤. 스물일곱")  # no "name" word, no greeting


@pytest.mark.parametrize("text", ["나 배고파. 스물넷", "나 심심해. 서른", "전 오늘도. 서른"])
def test_a_state_before_an_age_is_no_name(text):
    from datetime import datetime, timezone

    from memories.extraction.base import ChatTurn
    from memories.extraction.local import LocalExtractor

    turn = ChatTurn("m1", "user", text, datetime(2026, 6, 1, tzinfo=timezone.utc))
    assert not [f for f in LocalExtractor().extract(turns=[turn], existing=[]).facts if f.subject == "name"]


def test_a_word_addressing_the_character_first_is_no_other_person_when_asked():
    assert only_about_others("언니 이력서 쓰는 중인데 여기 칸 이렇게 쓰는 거 맞나")  # 언니 may be a sister
    assert not only_about_others("언니 이력서 쓰는 중인데 여기 칸 이렇게 쓰는 거 맞나", addressed_first=True)
    assert only_about_others("동생 다래는 신촌에서 대학원 다니는데 걔는 맨날 밤샘이래", addressed_first=True)
    assert only_about_others("언니는 신촌 살아", addressed_first=True)  # a topic, not a call


@pytest.mark.parametrize("question", ["집사람이 무슨 일 한다고 했었는지 기억해요?", "우리 큰애 이름이랑 나이 기억나요?",
                                      "지은이 무슨 일 하는지 얘기했었나?"])
def test_a_question_about_a_spouse_a_child_or_someone_named_is_not_about_the_user(question):
    assert own_subject_asked(question) == ""


@pytest.mark.parametrize("question,subject", [("오늘은 나 몇 살이라고 했지?", "age"), ("나 무슨 일 한다고 했지?", "occupation")])
def test_the_users_own_question_still_reads_as_theirs(question, subject):
    assert own_subject_asked(question) == subject


def test_names_others_reads_texting_forms_of_the_third_person():
    from memories.extraction.whose import names_others

    assert names_others("shes an icu nurse. works nights so we're like ships passing")
    assert names_others("my roommate lucas is vegan and i'm not")
    assert not names_others("adding it. barista, so i'll read it on my break")
