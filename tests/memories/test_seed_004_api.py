"""Issue 10 §2: seed 004 §6's /api/v1/users/me/... endpoints, thin views over the same services and selectors."""
from __future__ import annotations

from audit.models import AuditLog
from conversations.models import Message
from memories.models import MemoryItem
from memories.selectors import memory_settings_for

from tests.portal.helpers import remember

BASE = "/api/v1/users/me"


def test_list_spans_every_character_in_seed_004_shape(alice_client, alice, bob, chunsim, sora):
    remember(alice, chunsim, "부산 살아", category="location")
    remember(alice, sora, "아침마다 달리기 함", category="habit")
    remember(alice, sora, "이거 꼭 기억해줘: 내 생일 3월 15일", category="personal_info", source="explicit")
    remember(bob, chunsim, "bob의 기억")
    body = alice_client.get(f"{BASE}/memories").json()
    assert body["total"] == 3
    by_content = {m["content"]: m for m in body["memories"]}
    assert by_content["부산 살아"]["category"] == "location" and by_content["부산 살아"]["character_id"] == "chunsim"
    assert by_content["아침마다 달리기 함"]["category"] == "behavior"
    assert by_content["이거 꼭 기억해줘: 내 생일 3월 15일"]["category"] == "feedback"
    assert set(by_content["부산 살아"]) == {"id", "content", "category", "character_id", "confidence", "created_at",
                                         "last_used_at", "usage_count"}


def test_paused_characters_and_memory_off_apply(alice_client, system_client, alice, chunsim, sora):
    remember(alice, chunsim, "부산 살아", category="location")
    remember(alice, sora, "아침마다 달리기 함", category="habit")
    system_client.put("/api/context/settings?user=alice", {"pausedCharacters": ["sora"]}, format="json")
    assert [m["content"] for m in alice_client.get(f"{BASE}/memories").json()["memories"]] == ["부산 살아"]
    alice_client.patch(f"{BASE}/memory-settings", {"is_enabled": False}, format="json")
    assert alice_client.get(f"{BASE}/memories").json() == {"memories": [], "total": 0}


def test_delete_all_deletes_memories_only(alice_client, alice, chunsim, sora, post_turns):
    post_turns("c1", ("t1u", "나 고양이 보리 키워"))
    remember(alice, chunsim, "부산 살아")
    remember(alice, sora, "아침마다 달리기 함")
    assert alice_client.delete(f"{BASE}/memories").status_code == 204
    assert not MemoryItem.objects.filter(user=alice).exists()
    assert Message.objects.filter(user=alice).exists()  # seed 004 deletes memories, not the chat
    row = AuditLog.objects.get(object_type="memory_items", action="deleted")
    assert row.details["memories_deleted"] >= 2 and row.target_user_ref == "alice"


def test_delete_one_is_the_users_own_only(alice_client, bob_client, alice, chunsim):
    item = remember(alice, chunsim, "부산 살아")
    assert bob_client.delete(f"{BASE}/memories/{item.pk}").status_code == 404
    assert alice_client.delete(f"{BASE}/memories/{item.pk}").status_code == 204
    assert not MemoryItem.objects.filter(pk=item.pk).exists()
    assert alice_client.delete(f"{BASE}/memories/{item.pk}").status_code == 404


def test_settings_speak_seed_004_and_map_to_ours(alice_client, alice):
    assert alice_client.get(f"{BASE}/memory-settings").json() == {
        "is_enabled": True, "auto_extraction": True,
        "allowed_categories": ["location", "preference", "behavior", "context", "feedback"], "max_memories": 20}
    body = alice_client.patch(f"{BASE}/memory-settings", {"allowed_categories": ["location", "preference"],
                                                          "auto_extraction": False}, format="json").json()
    assert body["allowed_categories"] == ["location", "preference"] and body["auto_extraction"] is False
    assert memory_settings_for(alice).allowed_categories == ["location", "preference"]
    behavior = alice_client.patch(f"{BASE}/memory-settings", {"allowed_categories": ["behavior"]}, format="json")
    assert memory_settings_for(alice).allowed_categories == ["habit"] and behavior.json()["allowed_categories"] == ["behavior"]
    feedback = alice_client.patch(f"{BASE}/memory-settings", {"allowed_categories": ["feedback"]}, format="json")
    assert memory_settings_for(alice).allowed_categories == ["other"] and feedback.json()["allowed_categories"] == ["feedback"]


def test_bad_settings_are_400_and_change_nothing(alice_client, alice):
    for body in ({"allowed_categories": ["food"]}, {"is_enabled": "maybe"},
                 {"enabled": True}):
        response = alice_client.patch(f"{BASE}/memory-settings", body, format="json")
        assert response.status_code == 400, (body, response.content)
    settings = memory_settings_for(alice)
    assert settings.enabled and settings.allowed_categories == []


def test_a_system_client_names_the_user(system_client, alice, chunsim):
    remember(alice, chunsim, "부산 살아")
    assert system_client.get(f"{BASE}/memories?user=alice").json()["total"] == 1
    assert system_client.get(f"{BASE}/memories?user=nobody-yet").json() == {"memories": [], "total": 0}
    assert system_client.get(f"{BASE}/memories").status_code == 400


def test_an_operator_read_is_audited(admin_client_api, alice, chunsim):
    remember(alice, chunsim, "부산 살아")
    assert admin_client_api.get(f"{BASE}/memories?user=alice").json()["total"] == 1
    assert AuditLog.objects.filter(action="viewed", object_type="memory_list", target_user_ref="alice").exists()
