"""POST messages: idempotent, PII-masked, encrypted, all-or-nothing; session memory; ending."""
from __future__ import annotations

import pytest
from django.db import connection

from conversations.models import Conversation, Message
from memories.models import MemoryItem

URL = "/api/context/chunsim/messages?user=alice"


def batch(conversation="c1", *messages):
    return {"conversationId": conversation, "messages": list(messages)}


def msg(mid, content, role="user", at="2026-03-01T21:00:00+09:00"):
    return {"id": mid, "role": role, "content": content, "createdAt": at}


@pytest.fixture
def post(system_client, django_capture_on_commit_callbacks):
    """POST and run what the view enqueues on commit (the test transaction never commits)."""
    def _post(url, body, client=None):
        with django_capture_on_commit_callbacks(execute=True):
            return (client or system_client).post(url, body, format="json")
    return _post


@pytest.fixture
def posted(post, chunsim, alice):
    response = post(URL, batch("c1",
        msg("m1", "안녕 나는 한지우라고 해", at="2026-03-01T21:00:00+09:00"),
        msg("m2", "반가워 지우야! 몇 살이야?", role="assistant", at="2026-03-01T21:00:01+09:00"),
        msg("m3", "24살이야. 내 번호는 010-4821-7753 이야", at="2026-03-01T21:01:00+09:00"),
    ))
    return response


def test_post_messages_is_accepted_and_counted(posted):
    assert posted.status_code == 202, posted.content
    assert posted.json() == {"conversationId": "c1", "accepted": 3, "duplicates": 0, "kept": True}
    assert Message.objects.count() == 3


def test_same_message_ids_are_duplicates_not_stored_twice(posted, system_client):
    again = system_client.post(URL, batch("c1", msg("m3", "24살이야. 내 번호는 010-4821-7753 이야",
                                                    at="2026-03-01T21:01:00+09:00"),
                                          msg("m4", "고향은 부산", at="2026-03-01T21:02:00+09:00")), format="json")
    assert again.status_code == 202
    assert again.json()["accepted"] == 1 and again.json()["duplicates"] == 1
    assert Message.objects.filter(external_id="m3").count() == 1
    assert Conversation.objects.get(external_id="c1").message_count == 4


def test_pii_is_masked_before_storage_and_encrypted(posted):
    stored = Message.objects.get(external_id="m3")
    assert "4821" not in stored.content and "7753" not in stored.content
    assert "phone" in stored.pii_kinds
    with connection.cursor() as cursor:
        cursor.execute("SELECT content FROM conversations_message")
        raw = [row[0] for row in cursor.fetchall()]
    assert all(value.startswith("gk1:") for value in raw)
    assert not any("지우" in value or "부산" in value for value in raw)
    assert not any("4821" in m.content for m in MemoryItem.objects.all())


def test_extraction_runs_and_writes_memories_without_gemini(posted, alice, chunsim):
    contents = " ".join(MemoryItem.objects.filter(user=alice, character=chunsim, is_active=True)
                        .values_list("content", flat=True))
    assert "지우" in contents
    assert "24" in contents
    assert Message.objects.filter(processed_at__isnull=True).count() == 0


def test_session_memory_returns_last_ten_messages(system_client, chunsim, alice):
    messages = [msg(f"s{i}", f"메시지 {i}", at=f"2026-03-01T21:{i:02d}:00+09:00") for i in range(12)]
    assert system_client.post(URL, batch("c9", *messages), format="json").status_code == 202
    response = system_client.get("/api/context/chunsim/conversations/c9?user=alice")
    assert response.status_code == 200
    body = response.json()
    assert [m["id"] for m in body["messages"]] == [f"s{i}" for i in range(2, 12)]
    assert body["messageCount"] == 12


def test_ending_a_conversation_summarises_it(posted, system_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = system_client.post("/api/context/chunsim/conversations/c1/end?user=alice")
    assert response.status_code == 202
    conversation = Conversation.objects.get(external_id="c1")
    assert conversation.status == "ended" and conversation.end_reason == "explicit"
    summary = conversation.summaries.get()
    assert summary.summary and summary.covers_until == 3
    body = system_client.get("/api/context/chunsim/conversations/c1?user=alice").json()
    assert body["status"] == "ended" and len(body["summaries"]) == 1


def test_unknown_conversation_is_404(system_client, chunsim):
    response = system_client.get("/api/context/chunsim/conversations/nope?user=alice")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "CONVERSATION_NOT_FOUND"
    response = system_client.post("/api/context/chunsim/conversations/nope/end?user=alice")
    assert response.status_code == 404


@pytest.mark.parametrize("body, code", [
    (batch("c1", msg("x1", "hi", role="narrator")), "VALIDATION_ERROR"),
    (batch("c1", msg("x1", "   ")), "VALIDATION_ERROR"),
    (batch("c1", msg("x1", "a" * 100_000)), "VALIDATION_ERROR"),
    (batch("c1", msg("x1", "a"), msg("x1", "b", at="2026-03-01T21:05:00+09:00")), "DUPLICATE_MESSAGE_ID"),
    (batch("c1", msg("x1", "a", at="2026-03-01T21:05:00+09:00"), msg("x2", "b", at="2026-03-01T21:00:00+09:00")),
     "MESSAGES_OUT_OF_ORDER"),
    (batch("c1"), "VALIDATION_ERROR"),
    ({"messages": [msg("x1", "a")]}, "VALIDATION_ERROR"),
    (batch("c1", {"id": "x1", "role": "user", "content": "a"}), "VALIDATION_ERROR"),
    (batch("c1", {**msg("x1", "a"), "createdAt": "yesterday"}), "VALIDATION_ERROR"),
    (batch("c1", {**msg("x1", "a"), "extra": 1}), "VALIDATION_ERROR"),
    (batch("bad id!", msg("x1", "a")), "VALIDATION_ERROR"),
])
def test_bad_batches_are_rejected_whole(system_client, chunsim, alice, body, code):
    response = system_client.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == code
    assert Message.objects.count() == 0 and Conversation.objects.count() == 0


def test_messages_older_than_the_conversation_are_rejected(posted, system_client):
    response = system_client.post(URL, batch("c1", msg("late", "예전 얘기", at="2026-02-01T00:00:00+09:00")),
                                  format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "MESSAGES_OUT_OF_ORDER"
    assert not Message.objects.filter(external_id="late").exists()


def test_invalid_json_is_400(system_client, chunsim):
    response = system_client.generic("POST", URL, "{nope", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "MALFORMED_JSON"


def test_other_users_and_anonymous_cannot_post(alice_client, bob_client, anon_client, chunsim):
    body = batch("c1", msg("m1", "hi"))
    assert anon_client.post("/api/context/chunsim/messages", body, format="json").status_code == 401
    assert bob_client.post(URL, body, format="json").status_code == 403
    assert alice_client.post("/api/context/chunsim/messages", body, format="json").status_code == 202


def test_memory_off_keeps_no_message_and_extracts_nothing(post, chunsim, alice):
    """Issue 9 §2: with memory off raw messages are no longer kept either (tests/memories/test_settings_api.py)."""
    from memories.models import MemorySettings

    MemorySettings.objects.create(user=alice, enabled=False)
    response = post(URL, batch("c1", msg("m1", "내 생일은 11월 2일이야 기억해줘")))
    assert response.status_code == 202
    assert (response.json()["accepted"], response.json()["kept"]) == (0, False)
    assert Message.objects.count() == 0
    assert MemoryItem.objects.count() == 0


def test_deleting_the_scope_deletes_its_messages(posted, system_client):
    response = system_client.delete("/api/context/chunsim?user=alice&confirm=true")
    assert response.status_code == 200
    assert response.json()["deleted"]["messages"] == 3
    assert Message.objects.count() == 0 and Conversation.objects.count() == 0


def test_message_times_keep_the_senders_offset(post, system_client, chunsim, alice):
    late_evening = "2026-04-17T22:40:00-06:00"  # already 04-18 in UTC
    assert post(URL, batch("tz", msg("z1", "오늘 공황이 왔었어", at=late_evening))).status_code == 202
    body = system_client.get("/api/context/chunsim/conversations/tz?user=alice").json()
    assert body["messages"][0]["createdAt"] == "2026-04-18T04:40:00.000Z"  # the API's one form: UTC
    assert Message.objects.get(external_id="z1").utc_offset_minutes == -360
    episodes = [m for m in MemoryItem.objects.filter(user=alice, kind="episodic") if m.event_date]
    assert episodes and all(str(m.event_date) == "2026-04-17" for m in episodes)
