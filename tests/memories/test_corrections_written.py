"""A correction through the API: older memories lose the old value, and the block never shows it (issue 8 §3).

Messages are posted and processed as a chat backend would; the prompt then must state the new value and show no
memory (the user's or the character's, raw or structured) that carries the replaced one — not even the
correcting message, which repeats it.
"""
from __future__ import annotations

import pytest

from audit.models import AuditLog
from conversations.processing import process_scope
from memories.models import MemoryItem

PROMPT = "/api/context/chunsim/prompt?user=alice"


def prompt(client, message) -> str:
    response = client.post(PROMPT, {"message": message}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["text"]


def test_the_block_states_the_new_value_and_nothing_carries_the_old_one(system_client, post_turns, chunsim, alice):
    post_turns("c1",
               ("t1u", "나 요즘 매일 팔굽혀펴기 오십 개씩 해. 그리고 우리 밴드 이름은 새벽다방이야, 나는 드럼 쳐"),
               ("t1a", "오십 개면 대단하다! 드럼 치는 거 멋있어"),
               start="2026-03-01T21:00:00+09:00")
    post_turns("c1",
               ("t2u", "나 이제 드럼 안 해 ㅋㅋ 손목 때문에 베이스로 바꿨어"),
               ("t2a", "헉 손목 괜찮아? 베이스도 멋있지"),
               ("t3u", "팔굽혀펴기도 오십 개 말고 이제 서른 개로 줄였어"),
               start="2026-03-05T21:00:00+09:00")

    block = prompt(system_client, "나 밴드에서 뭐 친다고 했지? 팔굽혀펴기는 몇 개 하기로 했더라")

    assert "베이스" in block and "서른 개" in block
    assert "드럼" not in block and "오십" not in block and "50개" not in block
    assert "새벽다방" in block  # the rest of the older message still holds


def test_older_memories_are_rewritten_or_deactivated_and_each_change_is_audited(chunsim, alice, post_turns):
    post_turns("c1", ("t1u", "나 신림동 살아 원룸이야"), ("t1a", "신림동 원룸이구나!"))
    post_turns("c1", ("t2u", "나 이제 신림동 안 살아 ㅋㅋ 봉천으로 이사 왔어"), start="2026-03-09T21:00:00+09:00")
    process_scope(user_id=alice.pk, character_slug="chunsim")

    live = MemoryItem.objects.filter(user=alice, character=chunsim, is_active=True)
    assert live.exists()
    assert not any("신림" in f"{item.content} {item.subject_value}" for item in live)
    corrected = MemoryItem.objects.filter(user=alice, character=chunsim, is_active=False)
    assert corrected.exists() and all(item.superseded_by_id for item in corrected)
    reasons = [row.details.get("reason") for row in AuditLog.objects.filter(object_type="memory_item")]
    assert "corrected" in reasons or "superseded" in reasons


def test_what_the_correcting_message_states_is_kept(chunsim, alice, post_turns):
    post_turns("c1", ("t1u", "나 연애 중이야 ㅎㅎ"), ("t2u", "이제 연애 안 해 헤어졌어"))
    process_scope(user_id=alice.pk, character_slug="chunsim")

    values = [item.subject_value for item in MemoryItem.objects.filter(user=alice, character=chunsim, is_active=True,
                                                                          subject_key="dating_status")]
    assert values and all("안" in value or "헤어" in value or "솔로" in value for value in values), values


def test_an_event_moved_to_a_new_date_takes_its_old_date_out_of_older_memories(system_client, post_turns, chunsim,
                                                                                  alice):
    """Written for this test: the old date was never a fact of its own, only part of an older message."""
    post_turns("c1", ("t1u", "딸 지현이는 스물여섯인데 올해 가을에 시집 가요!! 10월17일 토요일"),
               ("t1a", "와 축하드려요!"), start="2026-03-01T21:00:00+09:00")
    post_turns("c1", ("t2u", "아 그리고 지현이 결혼식 날짜가 바꼈어요 ㅠㅠ 식장 공사 때문에 11월7일로 미뤘어요"),
               ("t2a", "아이고 그래도 다행이에요"), start="2026-03-09T21:00:00+09:00")

    block = prompt(system_client, "지현이 결혼식 언제였더라? 달력에 적게")

    assert "11월7일" in block.replace(" ", "")
    assert "10월17일" not in block.replace(" ", "")
    assert "스물여섯" in block or "시집" in block  # the rest of the older message still holds


@pytest.mark.parametrize("first, change, question, old, new, rest", [
    ("다음 달 12월 3일에 건강검진 예약해놨어요. 이번엔 위내시경도 같이 하려고요.",
     "아 그리고 건강검진 날짜도 바꿨어요. 12월 3일 아니고 12월 10일로요. 그날 가게 단체 예약이 잡혀서요.",
     "건강검진 날짜 언제였죠?", "12-03", "12월 10일", "위내시경"),
    ("my dentist appointment is on Dec 3rd. they're doing the wisdom tooth then too",
     "dentist called, not Dec 3rd anymore, it's Dec 10 now",
     "when's my dentist thing again?", "12-03", "dec 10", "wisdom tooth"),
])
def test_a_memory_that_keeps_its_other_words_after_a_date_changed_is_not_dated_on_the_old_day(
        system_client, post_turns, chunsim, alice, first, change, question, old, new, rest):
    """Written for this test: the older message was dated on the day it named; once that day is replaced, what else
    it said stays, without the old day as its date (truth.date_still_holds)."""
    post_turns("c1", ("t1u", first), ("t1a", "알겠어요"), start="2026-11-02T21:00:00+09:00")
    post_turns("c1", ("t2u", change), ("t2a", "알겠어요"), start="2026-11-20T21:00:00+09:00")

    block = prompt(system_client, question)

    assert new in block.lower() and rest in block.lower()
    assert old not in block


def test_a_date_of_another_event_stays_when_one_event_moves(system_client, post_turns, chunsim, alice):
    post_turns("c1", ("t1u", "내 생일 10월 17일이야 기억해줘"), ("t1a", "10월 17일! 기억할게"),
               start="2026-03-01T21:00:00+09:00")
    post_turns("c1", ("t2u", "동생 결혼식 날짜가 바꼈어 11월 7일로 미뤘대"), ("t2a", "그렇구나"),
               start="2026-03-09T21:00:00+09:00")
    assert "10월 17일" in prompt(system_client, "내 생일 언제게?")


def test_an_event_moved_by_a_message_that_also_corrects_takes_both_old_dates_out(system_client, post_turns, chunsim,
                                                                                 alice):
    """Written for this test: the moving message also says, in its own words, which date no longer holds."""
    post_turns("c1", ("t1u", "booked it!! lisbon trip nov 12 to 18, flights done"), ("t1a", "yay!!"),
               start="2026-03-01T21:00:00+09:00")
    post_turns("c1", ("t2u", "we moved the lisbon trip. we're not going in november anymore. march 3 to 9 instead"),
               ("t2a", "march it is"), start="2026-03-09T21:00:00+09:00")

    block = prompt(system_client, "when's lisbon again?").lower()

    assert "march 3" in block
    assert "nov 12" not in block and "november" not in block


def test_a_change_that_never_names_the_old_value_takes_it_out_where_the_same_thing_was_named(system_client, post_turns,
                                                                                               chunsim, alice):
    post_turns("c1",
               ("t1u", "우리 강아지 보리가 오늘 산책하다 넘어짐 ㅠ"),
               ("t1a", "보리 괜찮아?? 조심해야겠다"),
               ("t2u", "나 요즘 보드게임 동호회 나가. 매주 월요일 저녁마다 모여"),
               ("t2a", "월요일마다 보드게임이라니 재밌겠다!"),
               ("t3u", "그리고 월요일에 치과 예약 있어"),
               start="2026-03-01T21:00:00+09:00")
    post_turns("c1",
               ("t4u", "보드게임 동호회가 이제 수요일 저녁으로 바뀌었어"),
               ("t5u", "아 그리고 우리 강아지 개명함 ㅋㅋ 이제 두부임"),
               start="2026-03-08T21:00:00+09:00")
    process_scope(user_id=alice.pk, character_slug="chunsim")

    live = [f"{item.content} {item.subject_value}"
            for item in MemoryItem.objects.filter(user=alice, character=chunsim, is_active=True)]
    # the club's old weekday goes from where the club was named, never from the dentist's appointment
    assert not any("보드게임" in text and "월요일" in text for text in live), live
    assert any("치과" in text and "월요일" in text for text in live), live
    # a name is the dog's wherever it is said: the character's reply loses it too
    assert not any("보리" in text for text in live), live
    block = prompt(system_client, "보드게임 동호회 무슨 요일이었지? 우리 강아지 이름 기억나?")
    assert "수요일" in block and "두부" in block and "보리" not in block


def _told(post_turns, alice, *messages: str) -> None:
    """The user tells `messages` to chunsim, each in a conversation of its own a week after the one before."""
    for index, text in enumerate(messages):
        post_turns(f"c{index + 1}", (f"t{index + 1}u", text), start=f"2026-03-{1 + 7 * index:02d}T21:00:00+09:00")
    process_scope(user_id=alice.pk, character_slug="chunsim")


def _live(alice, chunsim, subject):
    return [item.subject_value for item in MemoryItem.objects.filter(user=alice, character=chunsim, is_active=True,
                                                                      subject_key=subject)]


def test_news_of_a_move_ends_the_stored_home_though_no_rule_reads_the_new_one(system_client, post_turns, chunsim,
                                                                             alice):
    post_turns("c1", ("t1u", "나 상도동 살아 ㅋㅋ 역에서 좀 멀어"), ("t1a", "상도동이구나!"))
    post_turns("c2", ("t2u", "이사 완료!! 허리 나갈뻔"), ("t2a", "고생했어!!"), start="2026-03-20T21:00:00+09:00")
    process_scope(user_id=alice.pk, character_slug="chunsim")

    assert _live(alice, chunsim, "residence") == []
    ended = MemoryItem.objects.get(user=alice, character=chunsim, subject_key="residence")
    assert ended.superseded_by is not None and "이사 완료" in ended.superseded_by.content
    block = prompt(system_client, "나 요즘 어디 산다고 했지?")
    assert "상도" not in block and "이사 완료" in block


def test_a_home_told_after_earlier_news_of_the_move_is_the_new_one(post_turns, chunsim, alice):
    _told(post_turns, alice, "나 상도동 살아 ㅋㅋ 역에서 좀 멀어", "집 계약했어!! 다음주에 이사 ㄱㄱ", "이제 망원동 살아 ㅎㅎ",
          "이사 완료!! 허리 나갈뻔")

    assert _live(alice, chunsim, "residence") == ["망원동"]


def test_news_of_a_new_job_ends_the_workplace_and_keeps_the_trade(post_turns, chunsim, alice):
    _told(post_turns, alice, "나 간호사야. 세브란스병원에서 일해", "새 직장 첫 출근했어요 ㅎㅎ 떨렸음")

    assert _live(alice, chunsim, "occupation") == ["간호사"]
    assert _live(alice, chunsim, "workplace") == []


def test_someone_elses_move_ends_nothing(post_turns, chunsim, alice):
    _told(post_turns, alice, "나 상도동 살아 ㅋㅋ 역에서 좀 멀어", "우리 언니 이사했대 ㅋㅋ 부럽")

    assert _live(alice, chunsim, "residence") == ["상도동"]


def test_a_home_told_with_its_own_news_is_ended_by_the_next(post_turns, chunsim, alice):
    _told(post_turns, alice, "I moved to Toronto for uni and just... stayed lol",
          "Got the keys today!! everything smells like new paint")

    ended = MemoryItem.objects.get(user=alice, character=chunsim, subject_key="residence")
    assert ended.subject_value == "Toronto" and not ended.is_active and "keys" in ended.superseded_by.content


def test_a_first_day_keeps_the_job_its_announcement_named(post_turns, chunsim, alice):
    _told(post_turns, alice, "I got the job!! i work at Acme Labs now", "first day at the new office today!! so nervous")

    assert _live(alice, chunsim, "workplace") == ["Acme Labs"]
