"""Issue 10 §1: seed 001's /api/v1/memory/ family — thin views over the same services, its own envelope."""
from __future__ import annotations

from accounts.models import Plan, UserPlan
from audit.models import AuditLog
from memories.models import MemoryItem

from tests.portal.helpers import remember

V1 = "/api/v1/memory"
MESSAGES = [{"role": "user", "content": "어제 새로 나온 영화 봤는데 진짜 재밌었어! 다음 주에 또 보러 갈 거야"},
            {"role": "assistant", "content": "우와 재밌었구나! 또 보러 가는 거 좋다"}]


def test_summarize_stores_one_memory_with_topics_and_emotion(alice_client, alice, chunsim):
    response = alice_client.post(f"{V1}/summarize", {"personaId": "chunsim", "sessionId": "s1",
                                                     "messages": MESSAGES}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["success"] is True and body["created"] is True and body["archived"] == []
    memory = body["memory"]
    assert memory["personaId"] == "chunsim" and "영화" in memory["summary"] and isinstance(memory["topics"], list)
    stored = MemoryItem.objects.get(pk=memory["id"])
    assert stored.source_conversation_id == "s1" and stored.kind == "episodic"
    loaded = alice_client.get(f"{V1}/load?personaId=chunsim").json()["memories"]
    assert {"topics", "emotion"} <= set(loaded[0])


def test_summaries_never_see_raw_pii(alice_client, alice, chunsim):
    messages = [{"role": "user", "content": "내 번호 010-1234-5678 이고 영화 보러 갔어"}]
    memory = alice_client.post(f"{V1}/summarize", {"personaId": "chunsim", "messages": messages},
                               format="json").json()["memory"]
    assert "1234-5678" not in memory["summary"] and "1234-5678" not in str(memory["topics"])


def test_create_takes_a_manual_summary(alice_client, alice, chunsim):
    body = alice_client.post(f"{V1}/create", {"personaId": "chunsim", "manualSummary": "다음 주 금요일에 면접 있음"},
                             format="json").json()
    assert body["memory"]["summary"] == "다음 주 금요일에 면접 있음" and body["memory"]["importance"] == 7
    assert MemoryItem.objects.get(pk=body["memory"]["id"]).source == "explicit"
    again = alice_client.post(f"{V1}/create", {"personaId": "chunsim", "manualSummary": "다음 주 금요일에 면접 있음"},
                              format="json")
    assert again.status_code == 200 and again.json()["created"] is False


def test_the_cap_says_which_memory_it_archived(alice_client, alice, chunsim):
    UserPlan.objects.filter(user=alice).update(plan=Plan.FREE)  # cap 20
    first = remember(alice, chunsim, "제일 오래된 기억", importance=1)
    for number in range(19):
        remember(alice, chunsim, f"기억 {number}", importance=5)
    body = alice_client.post(f"{V1}/create", {"personaId": "chunsim", "manualSummary": "새 기억"}, format="json").json()
    assert body["archived"] == [first.pk]
    first.refresh_from_db()
    assert first.archived_at is not None


def test_list_spans_characters_filters_and_pages(alice_client, alice, chunsim, sora):
    remember(alice, chunsim, "민트초코를 좋아함")
    remember(alice, sora, "민트 향 치약을 싫어함")
    remember(alice, sora, "고양이 보리를 키움")
    body = alice_client.get(f"{V1}/list?limit=2").json()
    assert body["success"] and body["total"] == 3 and len(body["memories"]) == 2 and body["hasMore"] is True
    assert alice_client.get(f"{V1}/list?personaId=sora").json()["total"] == 2
    found = alice_client.get(f"{V1}/list?q=민트").json()
    assert {m["summary"] for m in found["memories"]} == {"민트초코를 좋아함", "민트 향 치약을 싫어함"}
    assert alice_client.get(f"{V1}/list?q=민트초코 를").json()["total"] == 1  # spacing ignored


def test_patch_delete_archive_unarchive(alice_client, system_client, alice, chunsim):
    item = remember(alice, chunsim, "민트초코를 좋아함")
    patched = alice_client.patch(f"{V1}/{item.pk}", {"summary": "딸기를 좋아함", "importance": 9}, format="json").json()
    assert patched["memory"]["summary"] == "딸기를 좋아함" and patched["memory"]["importance"] == 9
    archived = alice_client.post(f"{V1}/{item.pk}/archive").json()
    assert archived["success"] and archived["archivedAt"].endswith("Z")
    assert alice_client.get(f"{V1}/list").json()["total"] == 0
    assert alice_client.get(f"{V1}/list?includeArchived=true").json()["total"] == 1
    assert "딸기" not in system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "나 뭐 좋아해?"},
                                           format="json").json()["text"]
    assert alice_client.post(f"{V1}/{item.pk}/unarchive").json() == {"success": True, "archivedAt": None}
    assert alice_client.delete(f"{V1}/{item.pk}").json() == {"success": True}
    assert not MemoryItem.objects.filter(pk=item.pk).exists()
    assert {row.action for row in AuditLog.objects.filter(object_id=str(item.pk), object_type="memory_item")} >= {
        "created", "updated", "archived", "reactivated", "deleted"}


def test_errors_use_seed_001s_envelope(alice_client, bob_client, alice, chunsim):
    item = remember(alice, chunsim, "민트초코를 좋아함")
    missing = bob_client.patch(f"{V1}/{item.pk}", {"importance": 9}, format="json")
    assert missing.status_code == 404
    assert missing.json()["success"] is False and missing.json()["error"] == "MEMORY_NOT_FOUND"
    bad = alice_client.post(f"{V1}/create", {"personaId": "chunsim", "importance": 3}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "VALIDATION_ERROR" and "importance" in bad.json()["fields"]
    empty = alice_client.post(f"{V1}/create", {"personaId": "chunsim"}, format="json")
    assert empty.status_code == 400 and empty.json()["error"] == "VALIDATION_ERROR"
    assert alice_client.post(f"{V1}/summarize", {"personaId": "nobody", "messages": MESSAGES},
                             format="json").json()["error"] == "CHARACTER_NOT_FOUND"


def test_memory_off_refuses_new_ones(alice_client, system_client, alice, chunsim):
    system_client.put("/api/context/settings?user=alice", {"enabled": False}, format="json")
    refused = alice_client.post(f"{V1}/create", {"personaId": "chunsim", "manualSummary": "새 기억"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "MEMORY_DISABLED"
    assert not MemoryItem.objects.filter(user=alice).exists()
