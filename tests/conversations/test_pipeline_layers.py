"""What processing a batch does to the other layers: heartbeat, rules, identity, relationship, soul."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from accounts.models import Plan, UserPlan
from context_layers.models import Relationship, UserContext
from context_layers.relationship import intimacy
from conversations.models import Conversation
from conversations.summaries import conversation_summarize
from conversations.tasks import end_idle_conversations_task, process_pending_task

URL = "/api/context/chunsim/messages?user=alice"


@pytest.fixture
def say(system_client, django_capture_on_commit_callbacks):
    def _say(conversation, at, *texts, process=True):
        start = datetime.fromisoformat(at)
        messages = [{"id": f"{conversation}-{start:%d%H%M}-{i}", "role": "user" if i % 2 == 0 else "assistant",
                     "content": text, "createdAt": (start + timedelta(seconds=i)).isoformat()}
                    for i, text in enumerate(texts)]
        with django_capture_on_commit_callbacks(execute=process):
            response = system_client.post(URL, {"conversationId": conversation, "messages": messages}, format="json")
        assert response.status_code == 202, response.content
    return _say


def context(alice, chunsim) -> UserContext:
    return UserContext.objects.get(user=alice, character=chunsim)


def test_heartbeat_follows_the_message_timeline(say, alice, chunsim):
    UserPlan.objects.filter(user=alice).update(plan=Plan.PREMIUM)
    say("c1", "2026-03-01T21:00:00+09:00", "오늘 너무 피곤하다", "푹 쉬어")
    say("c2", "2026-03-02T21:00:00+09:00", "오늘도 피곤해 스트레스 받아", "힘내")
    say("c3", "2026-03-03T21:00:00+09:00", "안녕", "안녕!")
    heartbeat = context(alice, chunsim).heartbeat
    assert heartbeat["lastSeenAt"].startswith("2026-03-03T12:00:0")
    assert heartbeat["streakDays"] == 3 and heartbeat["recentDaysCount"] == 3
    assert heartbeat["totalConversations"] == 3
    assert heartbeat.get("lastEmotionKeywords")


def test_free_plan_heartbeat_keeps_last_seen_only(say, alice, chunsim):
    say("c1", "2026-03-01T21:00:00+09:00", "오늘 너무 피곤하다", "푹 쉬어")
    assert set(context(alice, chunsim).heartbeat) == {"lastSeenAt"}


def test_rules_and_inferred_identity_from_chat(say, alice, chunsim):
    say("c1", "2026-03-07T14:06:00+09:00", "앞으로 내 전 여친 얘기는 꺼내지 마. 생각하기 싫어", "알겠어",
        "내 생일은 11월 2일이야 기억해줘", "꼭 기억할게", "대장이라고 불러줘", "알겠어 대장!")
    ctx = context(alice, chunsim)
    assert any("전 여친" in topic for topic in ctx.tools["avoidTopics"])
    assert {"date": "11-02", "description": "생일"} in ctx.tools["specialDates"] or any(
        d["date"] == "11-02" for d in ctx.tools["specialDates"])
    assert ctx.identity["inferred"].get("nickname") == "대장"


def test_relationship_axes_move_with_the_conversation(say, alice, chunsim):
    say("c1", "2026-03-05T23:40:00+09:00", "이건 아무도 모르는데 비밀 하나 말해줄게", "응 말해봐",
        "고마워 진짜 너 최고야", "헤헤")
    relationship = Relationship.objects.get(user=alice, character=chunsim)
    assert relationship.trust > 10 and relationship.familiarity > 0 and relationship.respect > 10
    score, level = intimacy(relationship)
    assert relationship.intimacy_score == pytest.approx(score) and relationship.intimacy_level == level


def test_intimacy_formula_and_levels():
    relationship = Relationship(affection=100, trust=100, familiarity=100, respect=100, rivalry=0)
    assert intimacy(relationship) == (100.0, "intimate")
    relationship = Relationship(affection=50, trust=50, familiarity=50, respect=50, rivalry=50)
    score, level = intimacy(relationship)
    assert score == pytest.approx(45.0) and level == "friend"


def test_summaries_refresh_the_soul_for_premium(say, alice, chunsim, system_client):
    UserPlan.objects.filter(user=alice).update(plan=Plan.PREMIUM)
    say("c1", "2026-03-02T22:28:00+09:00", "내 꿈은 게임 개발자야. 스팀에 게임 올리는 게 목표", "멋지다!")
    conversation_summarize(conversation_id=Conversation.objects.get(external_id="c1").pk)
    soul = context(alice, chunsim).soul
    assert soul.get("summary")
    assert any("게임" in dream for dream in soul.get("dreams", []))


def test_no_soul_refresh_on_free(say, alice, chunsim):
    say("c1", "2026-03-02T22:28:00+09:00", "내 꿈은 게임 개발자야", "멋지다!")
    conversation_summarize(conversation_id=Conversation.objects.get(external_id="c1").pk)
    assert context(alice, chunsim).soul == {}


def test_twenty_messages_trigger_a_summary(say, alice, chunsim):
    texts = [f"오늘 있었던 일 {i}번째 얘기야" if i % 2 == 0 else "그랬구나" for i in range(20)]
    say("c1", "2026-03-02T22:00:00+09:00", *texts)
    conversation = Conversation.objects.get(external_id="c1")
    assert conversation.summaries.count() == 1 and conversation.summarized_count == 20


def test_save_request_ends_and_summarises(say, alice, chunsim):
    say("c1", "2026-03-02T22:00:00+09:00", "오늘 면접 봤어", "어땠어?", "이 대화 저장해줘", "저장할게")
    conversation = Conversation.objects.get(external_id="c1")
    assert conversation.status == "ended" and conversation.end_reason == "save_request"
    assert conversation.summaries.count() == 1


def test_idle_sweep_ends_and_summarises(say, alice, chunsim, settings):
    say("c1", "2026-03-02T22:00:00+09:00", "오늘 면접 봤어", "어땠어?")
    Conversation.objects.update(last_received_at=datetime.fromisoformat("2026-01-01T00:00:00+00:00"))
    settings.CONVERSATION_IDLE_MINUTES = 30
    assert end_idle_conversations_task() == {"ended": 1, "failed": 0, "skipped": 0}
    conversation = Conversation.objects.get(external_id="c1")
    assert conversation.status == "ended" and conversation.end_reason == "idle"
    assert conversation.summaries.count() == 1


def test_pending_sweep_processes_messages_whose_job_was_lost(say, alice, chunsim):
    from conversations.models import Message

    say("c1", "2026-03-01T21:00:00+09:00", "나 고향은 부산이야", "부산!", process=False)
    assert Message.objects.filter(processed_at__isnull=True).count() == 2
    Message.objects.update(received_at=datetime.fromisoformat("2026-01-01T00:00:00+00:00"))
    assert process_pending_task() == {"scopes": 1, "failed_scopes": 0, "skipped_scopes": 0}
    assert Message.objects.filter(processed_at__isnull=True).count() == 0


def test_conversation_gap_is_the_pause_before_the_latest_conversation(say, alice, chunsim):
    from conversations.selectors import conversation_gap

    assert conversation_gap(user=alice, character=chunsim) == (None, None)
    say("c1", "2026-03-01T21:00:00+09:00", "안녕", "안녕!", process=False)
    latest, gap = conversation_gap(user=alice, character=chunsim)
    assert gap is None and latest.isoformat() == "2026-03-01T12:00:01+00:00"
    say("c2", "2026-03-11T21:00:00+09:00", "오랜만", "반가워", process=False)
    latest, gap = conversation_gap(user=alice, character=chunsim)
    assert gap == timedelta(days=10, seconds=-1)


def test_a_corrected_birthday_moves_the_special_date_and_other_dates_stay(say, alice, chunsim):
    say("c1", "2026-03-07T14:06:00+09:00", "내 생일은 12월 4일이야", "기억할게!",
        "우리 결혼기념일은 5월 20일이야", "축하해")
    say("c2", "2026-03-09T14:06:00+09:00", "아 나 생일 잘못 말함 ㅋㅋ 12월 4일 아니고 12월 14일이야", "헐 고칠게!")
    dates = {(d["date"], d["description"]) for d in context(alice, chunsim).tools["specialDates"]}

    assert ("12-14", "생일") in dates and ("12-04", "생일") not in dates
    assert any(date == "05-20" for date, _ in dates)
