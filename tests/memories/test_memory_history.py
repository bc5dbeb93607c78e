"""Issue 10 §3: history you can see — edit a memory, see its versions and events, list replaced ones."""
from __future__ import annotations

import pytest

from audit.models import AuditLog
from memories.models import MemoryItem

from tests.portal.helpers import CONTEXT, remember

URL = "/api/context/chunsim/memory"


@pytest.fixture
def corrected(alice, chunsim):
    """alice lived in 부산, then said 서울: the old fact is kept inactive, superseded by the new one."""
    old = remember(alice, chunsim, "사는 곳: 부산", category="location", subject_key="residence", subject_value="부산")
    new = remember(alice, chunsim, "사는 곳: 서울", category="location", subject_key="residence", subject_value="서울")
    old.refresh_from_db()
    assert old.superseded_by_id == new.pk
    return old, new


def test_a_corrected_memorys_history_shows_both_values_to_its_owner(alice_client, corrected):
    old, new = corrected
    for asked in (new, old):  # from either end of the chain
        body = alice_client.get(f"{URL}/{asked.pk}/history").json()
        assert [version["content"] for version in body["versions"]] == ["사는 곳: 부산", "사는 곳: 서울"]
        assert body["versions"][0]["isActive"] is False and body["versions"][0]["supersededBy"] == new.pk
        actions = [(event["memoryId"], event["action"]) for event in body["events"]]
        assert (str(old.pk), "created") in actions and (str(old.pk), "deactivated") in actions
        assert (str(new.pk), "created") in actions


def test_nobody_else_sees_the_history(bob_client, system_client, alice, corrected):
    old, new = corrected
    assert bob_client.get(f"{URL}/{new.pk}/history").status_code == 404
    assert system_client.get(f"{URL}/{new.pk}/history?user=bob").status_code == 404
    assert system_client.get(f"{URL}/{new.pk}/history?user=alice").status_code == 200


def test_an_operator_read_of_history_is_audited(admin_client_api, corrected):
    old, new = corrected
    assert admin_client_api.get(f"{URL}/{new.pk}/history?user=alice").status_code == 200
    assert AuditLog.objects.filter(action="viewed", object_type="memory_history", target_user_ref="alice").exists()


def test_the_list_with_archived_shows_replaced_memories(alice_client, corrected):
    old, new = corrected
    plain = alice_client.get(URL).json()
    assert [m["id"] for m in plain["memories"]] == [new.pk]
    everything = {m["id"]: m for m in alice_client.get(f"{URL}?includeArchived=true").json()["memories"]}
    assert everything[old.pk]["supersededBy"] == new.pk and everything[old.pk]["isActive"] is False
    assert everything[new.pk]["supersededBy"] is None


def test_patch_edits_masks_and_audits_numbers(alice_client, alice, chunsim):
    item = remember(alice, chunsim, "민트초코를 좋아함", importance=5)
    response = alice_client.patch(f"{URL}/{item.pk}", {"content": "민트초코 좋아함, 번호 010-1234-5678", "importance": 8},
                                  format="json")
    assert response.status_code == 200, response.content
    item.refresh_from_db()
    assert "1234-5678" not in item.content and "민트초코" in item.content and item.importance == 8
    row = AuditLog.objects.filter(action="updated", object_type="memory_item", object_id=str(item.pk)).get()
    assert set(row.changed_fields) == {"content", "importance"}
    assert row.details["importance_from"] == 5 and row.details["importance_to"] == 8
    assert row.details["confidence_from"] == row.details["confidence_to"] == 1.0
    assert "민트초코" not in str(row.details)


def test_patch_refuses_a_duplicate_and_bad_input(alice_client, alice, chunsim):
    first = remember(alice, chunsim, "민트초코를 좋아함")
    second = remember(alice, chunsim, "고양이 보리를 키움")
    duplicate = alice_client.patch(f"{URL}/{second.pk}", {"content": "민트초코를 좋아함"}, format="json")
    assert duplicate.status_code == 409 and duplicate.json()["error"]["code"] == "MEMORY_DUPLICATE"
    for body in ({"importance": 11}, {"category": "nope"}, {"content": "   "}, {"strength": 0.1}):
        response = alice_client.patch(f"{URL}/{second.pk}", body, format="json")
        assert response.status_code == 400, (body, response.content)
    second.refresh_from_db()
    assert second.content == "고양이 보리를 키움" and first.is_active


def test_patch_of_someone_elses_memory_is_404(bob_client, alice, chunsim):
    item = remember(alice, chunsim, "민트초코를 좋아함")
    assert bob_client.patch(f"{URL}/{item.pk}", {"importance": 9}, format="json").status_code == 404
    item.refresh_from_db()
    assert item.importance == 5


def test_an_edit_reaches_the_next_prompt(alice_client, system_client, alice, chunsim):
    item = remember(alice, chunsim, "민트초코를 좋아함")
    alice_client.patch(f"{URL}/{item.pk}", {"content": "딸기 아이스크림을 좋아함"}, format="json")
    block = system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "나 뭐 좋아하게?"},
                               format="json").json()["text"]
    assert "딸기 아이스크림" in block and "민트초코" not in block
    assert MemoryItem.objects.filter(user=alice, is_active=True).count() == 1
