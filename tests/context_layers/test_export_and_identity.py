"""Markdown export of the five layers, and identity that keeps user-set and inferred values apart."""
from __future__ import annotations

import pytest

from audit.models import AuditLog
from audit.services import AuditContext
from context_layers.models import UserContext
from context_layers.services import layer_put
from memories.services import MemoryInput, memory_create

SETUP = AuditContext(actor_label="test:setup", trigger="command")
DOCUMENTS = {"memory.md", "heartbeat.md", "identity.md", "soul.md", "tools.md"}


@pytest.fixture
def stored_scope(premium, chunsim):
    """A PREMIUM alice with every layer and two memories with chunsim."""
    layer_put(user=premium, character=chunsim, layer="identity", context=SETUP,
              document={"nickname": "민수", "honorific": "반말", "relationshipType": "친구"})
    layer_put(user=premium, character=chunsim, layer="heartbeat", context=SETUP,
              document={"lastSeenAt": "2025-03-01T09:00:00Z", "emotionTrend": "요즘 지쳐 보임"})
    layer_put(user=premium, character=chunsim, layer="soul", context=SETUP,
              document={"values": ["가족", "성장"], "dreams": ["해외여행"]})
    layer_put(user=premium, character=chunsim, layer="tools", context=SETUP,
              document={"avoidTopics": ["정치"], "specialDates": [{"date": "03-15", "description": "생일"}]})
    for content, importance in [("떡볶이를 제일 좋아함", 6), ("고양이 '나비'를 키움", 8)]:
        memory_create(user=premium, character=chunsim, context=SETUP,
                      data=MemoryInput(content=content, category="preference", importance=importance))
    return premium


def test_export_renders_every_layer_as_markdown_with_stored_values(stored_scope, alice_client):
    response = alice_client.post("/api/context/chunsim/export")

    assert response.status_code == 200, response.content
    body = response.json()
    documents = body["documents"]
    assert set(documents) == DOCUMENTS
    assert documents["memory.md"].startswith("# memory — 춘심")
    assert "[preference] 떡볶이를 제일 좋아함 (importance 6" in documents["memory.md"]
    assert "고양이 '나비'를 키움" in documents["memory.md"]
    assert "- **emotionTrend**: 요즘 지쳐 보임" in documents["heartbeat.md"]
    assert "- **nickname**: 민수" in documents["identity.md"]
    assert "- **relationshipType**: 친구" in documents["identity.md"]
    assert "- **values**: 가족, 성장" in documents["soul.md"]
    assert "- **dreams**: 해외여행" in documents["soul.md"]
    assert "- **avoidTopics**: 정치" in documents["tools.md"]
    assert "date: 03-15 / description: 생일" in documents["tools.md"]
    assert body["markdown"] == "\n".join(documents.values())
    assert body["characterId"] == "chunsim"


def test_export_writes_an_exported_audit_row_without_content(stored_scope, alice_client):
    alice_client.post("/api/context/chunsim/export")

    row = AuditLog.objects.get(action="exported")
    assert row.object_type == "context_scope"
    assert row.target_user_id == stored_scope.pk
    assert row.character_slug == "chunsim"
    assert row.trigger == "api"
    assert row.details == {"memories": 2}
    assert "떡볶이" not in str(row.details) + str(row.changed_fields)


def test_export_follows_the_plan(alice, chunsim, system_client):
    layer_put(user=alice, character=chunsim, layer="heartbeat", context=SETUP,
              document={"lastSeenAt": "2025-03-01T09:00:00Z", "emotionTrend": "요즘 지쳐 보임"})

    documents = system_client.post("/api/context/chunsim/export?user=alice").json()["documents"]

    assert "(not in this plan)" in documents["soul.md"]
    assert "요즘 지쳐 보임" not in documents["heartbeat.md"]
    assert "- (none)" in documents["memory.md"]


# --- identity ------------------------------------------------------------------------------------

def _put_identity(client, document, query=""):
    return client.put(f"/api/context/chunsim/identity{query}", document, format="json")


@pytest.fixture
def both_identities(alice, chunsim, system_client, alice_client):
    inferred = _put_identity(system_client, {"nickname": "민수씨", "honorific": "존댓말",
                                             "inferredTraits": ["내향적", "고양이 좋아함"]}, "?user=alice")
    user_set = _put_identity(alice_client, {"nickname": "민수", "relationshipType": "친구"})
    assert inferred.status_code == 200, inferred.content
    assert user_set.status_code == 200, user_set.content
    return alice


def test_system_writes_inferred_and_user_writes_user_set(both_identities, chunsim):
    assert UserContext.objects.get(user=both_identities, character=chunsim).identity == {
        "inferred": {"nickname": "민수씨", "honorific": "존댓말", "inferredTraits": ["내향적", "고양이 좋아함"]},
        "userSet": {"nickname": "민수", "relationshipType": "친구"},
    }


def test_get_merges_identity_with_user_set_winning_and_tells_the_sources(both_identities, system_client,
                                                                       alice_client):
    for response in (system_client.get("/api/context/chunsim?user=alice"), alice_client.get("/api/context/chunsim")):
        body = response.json()
        assert body["identity"] == {"nickname": "민수", "honorific": "존댓말", "relationshipType": "친구",
                                    "inferredTraits": ["내향적", "고양이 좋아함"]}
        assert body["identitySources"] == {"nickname": "user", "honorific": "inferred",
                                           "relationshipType": "user", "inferredTraits": "inferred"}


def test_later_system_put_does_not_overwrite_the_users_nickname(both_identities, chunsim, system_client):
    response = _put_identity(system_client, {"nickname": "수수", "honorific": "반말"}, "?user=alice")

    assert response.status_code == 200, response.content
    assert response.json() == {"nickname": "수수", "honorific": "반말"}
    body = system_client.get("/api/context/chunsim?user=alice").json()
    assert body["identity"]["nickname"] == "민수"
    assert body["identitySources"]["nickname"] == "user"
    assert body["identity"]["honorific"] == "반말"
    stored = UserContext.objects.get(user=both_identities, character=chunsim).identity
    assert stored["userSet"] == {"nickname": "민수", "relationshipType": "친구"}
    assert stored["inferred"] == {"nickname": "수수", "honorific": "반말"}


def test_identity_puts_are_audited_per_slot(both_identities):
    rows = AuditLog.objects.filter(object_type="layer:identity", trigger="api").order_by("created_at", "id")
    assert [(row.actor_label.split(":")[0], row.changed_fields) for row in rows] == [
        ("system", ["inferred.honorific", "inferred.inferredTraits", "inferred.nickname"]),
        ("self", ["userSet.nickname", "userSet.relationshipType"]),
    ]
