"""News of a new home or job whose new value no rule reads (memories.extraction.news): the package alone, no database."""
from __future__ import annotations

import pytest

from memories.extraction.news import ended_by, ended_values, news_subjects


@pytest.mark.parametrize("text, subject", [
    ("춘심아 나 이사 완료!!!! 허리 나갈뻔", "residence"),
    ("나 드디어 이사했어 ㅋㅋ 짐 정리 지옥", "residence"),
    ("Sora!! Got the keys to my 원룸 today! Everything smells like new wallpaper", "residence"),
    ("moved in yesterday!! my legs are destroyed from carrying boxes", "residence"),
    ("ok so. moved in yesterday lol", "residence"),
    ("we finally moved out of that basement lol", "residence"),
    ("first day at fernwood today!!!", "workplace"),
    ("i got the zoo job. i start june 1", "workplace"),
    ("gave my notice at the clinic today", "workplace"),
    ("새 회사 첫출근했어!!!", "workplace"),
    ("오늘 new job 첫날이었어요. 게임 회사 UI 팀이에요", "workplace"),
    ("나 이직함 ㅋㅋ 이제 디자인 스튜디오 다님", "workplace"),
    ("넥스트플레이 최종합격!!!", "workplace"),
    ("한전 입사해서 신입 연수 중이야 ㅋㅋ", "workplace"),
    ("한전 입사해서 신입 연수 중이야 ㅋㅋ 정신없어 (← 나주 생활은 어때요?)", "workplace"),  # an episode's question
    ("나 알바 바꿨어! 서점에서 일함", "part_time_job"),
    ("할말있음 알바 그만둠", "part_time_job"),
])
def test_news_of_the_speakers_new_home_or_job(text, subject):
    assert subject in news_subjects(text)


@pytest.mark.parametrize("text", [
    "i'm moving to denver next month",  # planned, not done
    "if i moved to lisbon i'd learn to surf",  # a supposition
    "should i quit my job?",  # a question
    "이직할까 고민 중이야",  # weighing a change
    "우리 언니 이사했대",  # someone else
    "my sister got a new job in boston",
    "Also Kasia is moving too! Got a job at an animal hospital in Perth",  # the named friend's, subject left out
    "our keyboardist moved to calgary so i switched to keyboard",
    "i got a job offer 👀 the catch is it's in denver",  # an offer is not a job
    "새 집 월세 좀 비쌈 ㅠ",  # a home already told of
    "새 회사도 적응 중이고 치과도 있고",  # a job already told of
    "first day at the gym in forever lol",
    "편의점 첫출근함 ㅋㅋ 야간 알바",  # a part-time job, not the workplace
])
def test_no_news_of_the_speaker(text):
    assert news_subjects(text) in ((), ("part_time_job",))
    assert "workplace" not in news_subjects(text) and "residence" not in news_subjects(text)


def test_the_news_ends_the_stored_value_unless_the_message_names_it():
    current = {"residence": ["상도동"], "workplace": ["Ledgerly"]}
    assert ended_values("이사 완료!!", ("residence",), current) == ("상도동",)
    assert ended_values("first day at fernwood today!!!", ("workplace",), current) == ("Ledgerly",)
    # "new job, still at Ledgerly though": the value it names holds
    assert ended_values("got a new job, still at Ledgerly though", ("workplace",), current) == ()
    # a word of the value names it: the zoo job told before, its first day now
    assert ended_values("first day at the zoo DONE", ("workplace",), {"workplace": ["columbus zoo"]}) == ()


def test_a_new_job_ends_looking_for_one_but_not_the_trade():
    assert ended_by(("workplace",)) == {"workplace": "workplace", "occupation": "workplace"}
    assert ended_values("한전 최종 합격!!", ("workplace",), {"occupation": ["취준중"]}) == ("취준중",)
    assert ended_values("first day at the new place!", ("workplace",), {"occupation": ["unemployed"]}) \
        == ("unemployed",)
    assert ended_values("새 직장 첫 출근했어요", ("workplace",), {"occupation": ["치과기공사"]}) == ()


@pytest.mark.parametrize("text, effect", [
    ("first day today!!", True), ("새 회사 첫출근했어!!!", True), ("이사 완료!!!! 허리 나갈뻔", True),
    ("im starting the new job tmrw", True), ("Got the keys to my 원룸 today!", False), ("I GOT THE JOB", False),
    ("나 이사했어 ㅋㅋ", False),
])
def test_news_that_an_announced_change_takes_effect(text, effect):
    from memories.extraction.news import takes_effect
    assert takes_effect(text) is effect
