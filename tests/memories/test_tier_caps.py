"""Plan caps per (user, character) scope, the downgrade rule, tier-gated layers and memory settings."""
from __future__ import annotations

import pytest

from accounts.models import Plan, TierPolicy, UserPlan
from accounts.services import user_plan_set
from audit.models import AuditLog
from audit.services import AuditContext
from context_layers.services import layer_put
from memories.models import MemoryItem, MemorySettings
from memories.services import MemoryInput, memory_create

SETUP = AuditContext(actor_label="test:setup", trigger="command")
MEMORY_URL = "/api/context/{character}/memory?user={user}"


def _post(client, content: str, *, character: str = "chunsim", user: str = "alice", **fields):
    return client.post(MEMORY_URL.format(character=character, user=user), {"content": content, **fields},
                       format="json")


def _fill(user, character, count: int, *, prefix: str = "기억") -> list[MemoryItem]:
    return [memory_create(user=user, character=character, context=SETUP,
                          data=MemoryInput(content=f"{prefix} {n}", importance=5))[0] for n in range(count)]


def _live(user, character):
    return MemoryItem.objects.filter(user=user, character=character, is_active=True, archived_at__isnull=True)


def _set_plan(user, plan: str) -> None:
    user_plan_set(user=user, plan=plan, context=SETUP)


# Creation order and importance of the 20 memories that fill a FREE scope. The two importance-2 items are the
# weakest; of those, the older ("weak, older") must be archived first, even though "oldest, strong" is older still.
FILL = [("oldest, strong", 5), ("second", 7), ("weak, older", 2)] + [(f"filler {n}", 6) for n in range(3, 7)] \
    + [("weak, newer", 2)] + [(f"filler {n}", 8) for n in range(8, 20)]


@pytest.fixture
def full_free_scope(alice, chunsim, system_client) -> dict[str, MemoryItem]:
    """Fill alice's FREE chunsim scope through the API; return the items by content."""
    for content, importance in FILL:
        response = _post(system_client, content, importance=importance)
        assert response.status_code == 201, response.content
    assert _live(alice, chunsim).count() == 20
    return {item.content: item for item in MemoryItem.objects.filter(user=alice, character=chunsim)}


def test_free_scope_keeps_20_and_archives_the_weakest_oldest(full_free_scope, alice, chunsim, system_client):
    response = _post(system_client, "21번째 기억", importance=5)

    assert response.status_code == 201, response.content
    assert response.json()["created"] is True
    assert _live(alice, chunsim).count() == 20
    archived = MemoryItem.objects.filter(user=alice, character=chunsim, archived_at__isnull=False)
    assert [item.content for item in archived] == ["weak, older"]
    assert MemoryItem.objects.get(pk=full_free_scope["weak, newer"].pk).archived_at is None
    assert MemoryItem.objects.get(pk=full_free_scope["oldest, strong"].pk).archived_at is None


def test_cap_archiving_is_audited_with_trigger_tier_policy(full_free_scope, alice, system_client):
    _post(system_client, "21번째 기억")

    weakest = full_free_scope["weak, older"]
    row = AuditLog.objects.get(action="archived", object_type="memory_item", object_id=str(weakest.pk))
    assert row.trigger == "tier_policy"
    assert row.target_user_id == alice.pk
    assert row.character_slug == "chunsim"
    assert row.details == {"cap": 20}
    assert AuditLog.objects.filter(action="archived").count() == 1


def test_archived_memories_are_listed_only_with_include_archived(full_free_scope, system_client):
    _post(system_client, "21번째 기억")
    weakest = full_free_scope["weak, older"]

    default = system_client.get(MEMORY_URL.format(character="chunsim", user="alice")).json()
    with_archived = system_client.get(MEMORY_URL.format(character="chunsim", user="alice")
                                      + "&includeArchived=true").json()

    assert default["total"] == 20
    assert weakest.pk not in [item["id"] for item in default["memories"]]
    assert with_archived["total"] == 21
    listed = {item["id"]: item for item in with_archived["memories"]}
    assert listed[weakest.pk]["archivedAt"] is not None


def test_duplicate_post_at_the_cap_returns_the_existing_memory_and_archives_nothing(full_free_scope, alice, chunsim,
                                                                                     system_client):
    original = full_free_scope["second"]
    audit_rows = AuditLog.objects.count()

    response = _post(system_client, "  SECOND \n ", importance=9)

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["created"] is False
    assert body["memory"]["id"] == original.pk
    assert body["memory"]["importance"] == 7
    assert MemoryItem.objects.filter(user=alice, character=chunsim).count() == 20
    assert not MemoryItem.objects.filter(archived_at__isnull=False).exists()
    assert AuditLog.objects.count() == audit_rows


def test_ultimate_has_no_cap(alice, chunsim):
    _set_plan(alice, Plan.ULTIMATE)

    _fill(alice, chunsim, 60)

    assert _live(alice, chunsim).count() == 60
    assert not AuditLog.objects.filter(action="archived").exists()


def test_caps_are_per_character_scope(alice, chunsim, sora, system_client):
    _fill(alice, chunsim, 20)

    response = _post(system_client, "소라에게 한 첫 이야기", character="sora")

    assert response.status_code == 201, response.content
    assert _live(alice, chunsim).count() == 20
    assert _live(alice, sora).count() == 1
    assert not MemoryItem.objects.filter(archived_at__isnull=False).exists()


def test_caps_are_per_user(alice, bob, chunsim, system_client):
    _fill(alice, chunsim, 20)

    response = _post(system_client, "bob의 첫 기억", user="bob")

    assert response.status_code == 201, response.content
    assert _live(alice, chunsim).count() == 20
    assert not MemoryItem.objects.filter(archived_at__isnull=False).exists()


@pytest.fixture
def downgraded(alice, chunsim):
    """Alice kept 30 memories on PREMIUM, then moved to FREE (cap 20)."""
    _set_plan(alice, Plan.PREMIUM)
    _fill(alice, chunsim, 30)
    _set_plan(alice, Plan.FREE)
    return alice


def test_downgrade_keeps_every_memory_readable(downgraded, system_client, alice_client):
    for client in (system_client, alice_client):
        body = client.get(MEMORY_URL.format(character="chunsim", user="alice")).json()
        assert body["total"] == 30
        assert len(body["memories"]) == 30
    assert system_client.get("/api/context/chunsim?user=alice").json()["memoryCount"] == 30


def test_after_downgrade_new_memory_is_409_and_nothing_changes(downgraded, chunsim, system_client):
    audit_rows = AuditLog.objects.count()

    response = _post(system_client, "새로운 기억")

    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert error["code"] == "MEMORY_LIMIT_REACHED"
    assert (error["limit"], error["count"]) == (20, 30)
    assert MemoryItem.objects.filter(user=downgraded, character=chunsim).count() == 30
    assert not MemoryItem.objects.filter(archived_at__isnull=False).exists()
    assert AuditLog.objects.count() == audit_rows


def test_plan_change_is_audited(alice):
    _set_plan(alice, Plan.PREMIUM)
    _set_plan(alice, Plan.FREE)
    _set_plan(alice, Plan.FREE)  # no change, no row

    rows = AuditLog.objects.filter(object_type="user_plan", target_user_id=alice.pk).order_by("created_at", "id")
    assert [(row.action, row.details) for row in rows] == [
        ("updated", {"from_plan": "FREE", "to_plan": "PREMIUM"}),
        ("updated", {"from_plan": "PREMIUM", "to_plan": "FREE"}),
    ]
    assert all(row.changed_fields == ["plan"] for row in rows)
    assert UserPlan.objects.get(user=alice).plan == Plan.FREE


def test_tier_policy_table_sets_the_cap(alice, chunsim, system_client):
    TierPolicy.objects.filter(plan=Plan.FREE).update(memory_cap=5)
    for n, importance in enumerate([6, 3, 9, 3, 7]):
        assert _post(system_client, f"기억 {n}", importance=importance).status_code == 201

    response = _post(system_client, "여섯 번째 기억", importance=4)

    assert response.status_code == 201, response.content
    assert _live(alice, chunsim).count() == 5
    archived = MemoryItem.objects.get(user=alice, character=chunsim, archived_at__isnull=False)
    assert archived.content == "기억 1"


# --- tier-gated layers ---------------------------------------------------------------------------

HEARTBEAT = {"lastSeenAt": "2025-03-01T09:00:00Z", "recentDaysCount": 4, "totalConversations": 12,
             "emotionTrend": "요즘 지쳐 보임", "lastEmotionKeywords": ["피곤", "설렘"]}


def test_put_soul_for_free_user_is_403_and_stores_nothing(alice, chunsim, system_client):
    audit_rows = AuditLog.objects.count()

    response = system_client.put("/api/context/chunsim/soul?user=alice", {"values": ["가족"]}, format="json")

    assert response.status_code == 403, response.content
    assert response.json()["error"]["code"] == "TIER_FEATURE_UNAVAILABLE"
    assert not alice.contexts.exists()
    assert AuditLog.objects.count() == audit_rows


def test_free_context_hides_soul_and_all_heartbeat_but_last_seen(alice, chunsim, system_client):
    _set_plan(alice, Plan.PREMIUM)
    layer_put(user=alice, character=chunsim, layer="soul", document={"values": ["가족"]}, context=SETUP)
    layer_put(user=alice, character=chunsim, layer="heartbeat", document=HEARTBEAT, context=SETUP)
    _set_plan(alice, Plan.FREE)

    body = system_client.get("/api/context/chunsim?user=alice").json()

    assert body["plan"] == "FREE"
    assert body["soul"] is None
    assert body["heartbeat"] == {"lastSeenAt": "2025-03-01T09:00:00.000Z"}
    assert alice.contexts.get().soul == {"values": ["가족"]}  # still stored, only hidden


def test_premium_context_shows_soul_and_emotion_trend(premium, chunsim, system_client):
    layer_put(user=premium, character=chunsim, layer="soul", document={"values": ["가족"]}, context=SETUP)
    layer_put(user=premium, character=chunsim, layer="heartbeat", document=HEARTBEAT, context=SETUP)

    body = system_client.get("/api/context/chunsim?user=alice").json()

    assert body["plan"] == "PREMIUM"
    assert body["soul"] == {"values": ["가족"]}
    assert body["heartbeat"]["emotionTrend"] == "요즘 지쳐 보임"
    assert body["heartbeat"]["lastEmotionKeywords"] == ["피곤", "설렘"]
    assert "report" not in body["heartbeat"]


def test_premium_user_can_put_soul(premium, chunsim, system_client):
    response = system_client.put("/api/context/chunsim/soul?user=alice", {"dreams": ["해외여행"]}, format="json")

    assert response.status_code == 200, response.content
    assert premium.contexts.get(character=chunsim).soul == {"dreams": ["해외여행"]}


# --- memory settings -----------------------------------------------------------------------------

def test_memory_disabled_is_409_and_creates_nothing(alice, chunsim, system_client):
    MemorySettings.objects.create(user=alice, enabled=False)

    response = _post(system_client, "떡볶이를 좋아함")

    assert response.status_code == 409, response.content
    assert response.json()["error"]["code"] == "MEMORY_DISABLED"
    assert not MemoryItem.objects.exists()


def test_category_outside_allowed_categories_is_409(alice, chunsim, system_client):
    MemorySettings.objects.create(user=alice, allowed_categories=["preference"])

    refused = _post(system_client, "취업 걱정", category="worry")
    allowed = _post(system_client, "떡볶이를 좋아함", category="preference")

    assert refused.status_code == 409, refused.content
    assert refused.json()["error"]["code"] == "CATEGORY_NOT_ALLOWED"
    assert allowed.status_code == 201, allowed.content
    assert list(MemoryItem.objects.values_list("category", flat=True)) == ["preference"]
