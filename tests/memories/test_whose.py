"""extraction.whose without a database: the user asking about their own subject, and what was said only of others.

Sentences written for these tests (no recall corpus).
"""
import pytest

from memories.extraction.whose import only_about_others, own_subject_asked


@pytest.mark.parametrize("message,subject", [
    ("나 요즘 어디 산다고 했지?", "residence"),
    ("오빠 나 어디 산다고 했었지?", "residence"),  # a vocative before the asker
    ("미나야 내 직업 뭐라고 했었는지 기억나?", "occupation"),
    ("where am i living now? forgot what i told you lol", "residence"),
    ("what's my job these days? my aunt keeps asking", "occupation"),
])
def test_the_users_question_about_their_own_subject(message, subject):
    assert own_subject_asked(message) == subject


@pytest.mark.parametrize("message", [
    "우리 형 어디 산다고 했지?", "where does my cousin live again?", "누나 직업이 뭐였지?", "내 동생 이름 뭐였지?",
    "오늘 날씨 좋다", "what should we watch tonight?", "when's theo's birthday again?",
    "what does my wife do for a living again?",
    "내 남친 이름 기억나?", "do i have any pets? the vet form asks",  # answered by what is said of others
])
def test_a_question_about_someone_else_or_no_subject_is_not_the_users_own(message):
    assert own_subject_asked(message) == ""


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
    "8월 2일! 한참 남음 (← 근데 언니 생일은 언제야?)",  # the character's question it answers addresses the user
])
def test_statements_about_the_speaker_too_or_about_no_one(text):
    assert not only_about_others(text)
