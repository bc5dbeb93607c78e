"""GET/PUT /api/context/settings (issue 9 §2): memory on/off, automatic extraction, allowed categories, retention
and per-character pause, for the end user (self) and the chat backend (system, ?user=).

Memory off — or paused for a character — takes effect at once: the next prompt has no memory layer, what is
pending is not extracted, and nothing posted afterwards is kept. Memories and messages stored before stay
where they are, hidden from every reader, until memory is on again or the user erases them.
"""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from audit.models import AuditLog
from audit.services import AuditContext
from conversations.models import Message
from memories.models import MemoryItem, MemorySettings
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")
SETTINGS = "/api/context/settings"


def remember(user, character, content):
    return memory_create(user=user, character=character, context=CONTEXT, data=MemoryInput(content=content))[0]


def put(client, body, user="alice"):
    return client.put(f"{SETTINGS}?user={user}", body, format="json")


def post_messages(client, character, conversation, *pairs, user="alice", start="2026-03-01T21:00:00+09:00"):
    at = datetime.fromisoformat(start)
    messages = [{"id": mid, "role": "assistant" if mid.endswith("a") else "user", "content": text,
                 "createdAt": (at + timedelta(seconds=index)).isoformat()} for index, (mid, text) in enumerate(pairs)]
    response = client.post(f"/api/context/{character}/messages?user={user}",
                           {"conversationId": conversation, "messages": messages}, format="json")
    assert response.status_code == 202, response.content
    return response.json()


def memory_text(client, character, message="나 뭐 좋아한다고 했지?"):
    response = client.post(f"/api/context/{character}/prompt?user=alice", {"message": message}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    return body["text"], body["layers"]["memory"]["lines"]


def test_defaults_for_a_user_never_seen_and_nothing_is_created(system_client, characters):
    response = system_client.get(f"{SETTINGS}?user=nobody-yet")
    assert response.status_code == 200
    assert response.json() == {"enabled": True, "autoExtraction": True, "allowedCategories": [], "retentionDays": None,
                               "pausedCharacters": [], "updatedAt": None}
    assert not MemorySettings.objects.exists()


def test_put_changes_only_the_fields_given_and_audits_their_names(system_client, alice, characters):
    response = put(system_client, {"retentionDays": 30, "allowedCategories": ["preference", "person", "preference"]})
    assert response.status_code == 200, response.content
    assert response.json()["retentionDays"] == 30
    assert response.json()["allowedCategories"] == ["person", "preference"]
    response = put(system_client, {"autoExtraction": False})
    assert response.json()["retentionDays"] == 30  # left out: kept
    assert response.json()["autoExtraction"] is False
    settings = MemorySettings.objects.get(user=alice)
    assert (settings.retention_days, settings.auto_extraction) == (30, False)
    rows = AuditLog.objects.filter(object_type="memory_settings", target_user_id=alice.pk).order_by("id")
    assert [row.changed_fields for row in rows] == [["allowed_categories", "retention_days"], ["auto_extraction"]]
    assert all(row.target_user_ref == "alice" and row.details == {} for row in rows)
    put(system_client, {"autoExtraction": False})  # no change, no row
    assert rows.count() == 2


def test_the_end_user_reads_and_changes_their_own_settings_only(alice_client, bob_client, alice, bob, characters):
    assert put(alice_client, {"enabled": False}, user="alice").status_code == 200
    assert alice_client.get(SETTINGS).json()["enabled"] is False
    assert bob_client.get(SETTINGS).json()["enabled"] is True
    refused = bob_client.put(f"{SETTINGS}?user=alice", {"enabled": True}, format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "NOT_YOUR_DATA"
    assert MemorySettings.objects.get(user=alice).enabled is False


@pytest.mark.parametrize("body, field", [
    ({"enabled": "no"}, "enabled"),
    ({"allowedCategories": ["not-a-category"]}, "allowedCategories"),
    ({"retentionDays": 0}, "retentionDays"),
    ({"retentionDays": 10 ** 9}, "retentionDays"),
    ({"pausedCharacters": "chunsim"}, "pausedCharacters"),
    ({"maxMemories": 5}, "maxMemories"),
])
def test_bad_settings_are_a_400_and_change_nothing(system_client, alice, characters, body, field):
    response = put(system_client, body)
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"]
    assert not MemorySettings.objects.filter(user=alice).exists()


def test_pausing_an_unknown_character_is_a_404(system_client, alice, characters):
    response = put(system_client, {"pausedCharacters": ["chunsim", "no-such-character"]})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "CHARACTER_NOT_FOUND"
    assert not MemorySettings.objects.filter(user=alice).exists()


def test_memory_off_empties_the_memory_layer_at_once_and_on_brings_it_back(system_client, alice, chunsim):
    remember(alice, chunsim, "떡볶이를 제일 좋아함")
    assert "떡볶이" in memory_text(system_client, "chunsim")[0]
    put(system_client, {"enabled": False})
    text, lines = memory_text(system_client, "chunsim")
    assert "떡볶이" not in text and lines == 0
    assert MemoryItem.objects.filter(user=alice, is_active=True).count() == 1  # kept, hidden
    put(system_client, {"enabled": True})
    assert "떡볶이" in memory_text(system_client, "chunsim")[0]


def test_memory_off_keeps_no_new_message_and_extracts_nothing_pending(system_client, alice, chunsim,
                                                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):  # pending: not processed yet
        assert post_messages(system_client, "chunsim", "c1", ("t1u", "나 고향은 부산이야"))["kept"] is True
    put(system_client, {"enabled": False})
    body = post_messages(system_client, "chunsim", "c1", ("t2u", "내 번호는 010-1234-5678이고 민트초코 좋아해"),
                         start="2026-03-01T22:00:00+09:00")
    assert (body["accepted"], body["kept"]) == (0, False)
    assert list(Message.objects.filter(user=alice).values_list("external_id", flat=True)) == ["t1u"]
    memory_text(system_client, "chunsim", "내 고향 어디라고 했지?")  # the prompt processes what is pending
    assert Message.objects.get(user=alice, external_id="t1u").processed_at is not None
    assert not MemoryItem.objects.filter(user=alice).exists()  # processed without extraction
    put(system_client, {"enabled": True})
    assert "부산" not in memory_text(system_client, "chunsim", "내 고향 어디라고 했지?")[0]


def test_pause_is_per_character(system_client, alice, chunsim, sora, django_capture_on_commit_callbacks):
    remember(alice, chunsim, "떡볶이를 제일 좋아함")
    remember(alice, sora, "떡볶이를 제일 좋아함")
    response = put(system_client, {"pausedCharacters": ["chunsim"]})
    assert response.json()["pausedCharacters"] == ["chunsim"]
    assert "떡볶이" not in memory_text(system_client, "chunsim")[0]
    assert "떡볶이" in memory_text(system_client, "sora")[0]
    assert post_messages(system_client, "chunsim", "c1", ("t1u", "나 고향은 부산이야"))["kept"] is False
    assert post_messages(system_client, "sora", "s1", ("s1u", "나 고향은 부산이야"))["kept"] is True
    assert not Message.objects.filter(user=alice, character=chunsim).exists()
    listed = system_client.get("/api/context/chunsim/memory?user=alice").json()
    assert listed["total"] == 0
    created = system_client.post("/api/context/chunsim/memory?user=alice", {"content": "민트초코 좋아함"},
                                 format="json")
    assert created.status_code == 409 and created.json()["error"]["code"] == "MEMORY_DISABLED"
    put(system_client, {"pausedCharacters": []})
    assert "떡볶이" in memory_text(system_client, "chunsim")[0]
