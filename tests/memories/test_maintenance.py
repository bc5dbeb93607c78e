"""Memory maintenance jobs (seed 003 §5-§6, seed 004 §2.2): decay, consolidation, promotion, pruning, expiry."""
from __future__ import annotations

import json
import logging
import math
import threading
from datetime import date, timedelta

import numpy as np
import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone
from django_q.tasks import async_task, result

from audit.models import AuditLog
from memories import tasks
from memories.categories import MemoryKind, MemorySource
from memories.hashing import content_hash
from memories.maintenance import (
    maintenance_run,
    maintenance_scope_batches,
    memory_consolidate,
    memory_decay_confidence,
    memory_decay_strength,
    memory_expire,
    memory_promote,
    memory_prune,
    strength_decay_factor,
)
from memories.models import MemoryItem, MemorySettings

ALL_JOBS = [memory_decay_strength, memory_decay_confidence, memory_consolidate, memory_promote, memory_prune,
            memory_expire]


def _item(user, character, content: str, **fields) -> MemoryItem:
    fields.setdefault("kind", MemoryKind.EPISODIC)
    return MemoryItem.objects.create(user=user, character=character, content=content,
                                     content_hash=content_hash(content), **fields)


def _set(item: MemoryItem, **fields) -> MemoryItem:
    """Write fields behind auto_now_add (created_at in the past) and reload."""
    MemoryItem.objects.filter(pk=item.pk).update(**fields)
    item.refresh_from_db()
    return item


def _run(job, user, character, **kwargs):
    return job(user_id=user.pk, character_id=character.pk, **kwargs)


def _unit_basis(count: int, seed: int = 7) -> np.ndarray:
    """count orthonormal 512-d vectors, so cosine similarities of their combinations are exact."""
    basis, _ = np.linalg.qr(np.random.default_rng(seed).normal(size=(512, count)))
    return basis.T


def _with_cosine(anchor: np.ndarray, orthogonal: np.ndarray, cosine: float) -> np.ndarray:
    return cosine * anchor + math.sqrt(1 - cosine ** 2) * orthogonal


def _assert_audit_has_no_content(*contents: str) -> None:
    dump = json.dumps(list(AuditLog.objects.values()), default=str, ensure_ascii=False)
    for content in contents:
        assert content not in dump


# --- 1. strength decay ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, emotion_intensity, importance, expected", [
    (MemoryKind.EPISODIC, 0.0, 5, 0.95 + 0.05 * 0.15),
    (MemoryKind.EMOTIONAL, 0.0, 5, 0.97 + 0.03 * 0.15),
    (MemoryKind.SEMANTIC, 0.0, 5, 0.98 + 0.02 * 0.15),
    (MemoryKind.EPISODIC, 0.5, 10, 0.95 + 0.05 * (0.2 + 0.3)),
    (MemoryKind.SEMANTIC, 1.0, 10, 0.98 + 0.02 * 0.7),
])
def test_strength_decays_by_kind_emotion_and_importance_for_each_elapsed_day(
        alice, chunsim, kind, emotion_intensity, importance, expected):
    now = timezone.now()
    item = _item(alice, chunsim, "어제 친구랑 떡볶이 먹었어", kind=kind, emotion_intensity=emotion_intensity,
                 importance=importance)
    created = now - timedelta(days=10, hours=5)
    _set(item, created_at=created)

    counts = _run(memory_decay_strength, alice, chunsim, now=now)

    item.refresh_from_db()
    assert strength_decay_factor(kind=kind, emotion_intensity=emotion_intensity, importance=importance) \
        == pytest.approx(expected)
    assert item.strength == pytest.approx(expected ** 10)
    # Only whole days are spent: the 5 hours left count towards the next day.
    assert item.strength_decayed_at == created + timedelta(days=10)
    assert counts == {"items": 1, "decayed": 1, "floored": 0}


def test_emotional_weight_slows_decay(alice, chunsim):
    now = timezone.now()
    calm = _item(alice, chunsim, "편의점에서 우유 샀어", importance=5)
    moving = _item(alice, chunsim, "합격 소식 듣고 울었어", importance=5, emotion_intensity=0.9)
    MemoryItem.objects.filter(pk__in=[calm.pk, moving.pk]).update(created_at=now - timedelta(days=20))

    _run(memory_decay_strength, alice, chunsim, now=now)

    calm.refresh_from_db()
    moving.refresh_from_db()
    assert calm.strength == pytest.approx((0.95 + 0.05 * 0.15) ** 20)
    assert moving.strength == pytest.approx((0.95 + 0.05 * (0.36 + 0.15)) ** 20)
    assert moving.strength > calm.strength


def test_identity_facts_and_explicit_memories_never_decay_below_half(alice, chunsim):
    now = timezone.now()
    identity = _item(alice, chunsim, "생일은 3월 2일", kind=MemoryKind.SEMANTIC, subject_key="birthday")
    explicit = _item(alice, chunsim, "금요일 시험 꼭 기억해줘", source=MemorySource.EXPLICIT)
    hobby = _item(alice, chunsim, "취미는 뜨개질", kind=MemoryKind.SEMANTIC, subject_key="hobby")
    already_low = _item(alice, chunsim, "이름은 지우", kind=MemoryKind.SEMANTIC, subject_key="name", strength=0.3)
    MemoryItem.objects.filter(user=alice).update(created_at=now - timedelta(days=300))

    counts = _run(memory_decay_strength, alice, chunsim, now=now)

    for item in (identity, explicit, hobby, already_low):
        item.refresh_from_db()
    assert identity.strength == 0.5
    assert explicit.strength == 0.5
    assert hobby.strength == pytest.approx((0.98 + 0.02 * 0.15) ** 300)  # not an identity subject
    assert already_low.strength == 0.3  # held, never raised
    assert counts == {"items": 4, "decayed": 3, "floored": 3}


def test_running_strength_decay_twice_the_same_day_changes_nothing(alice, chunsim):
    now = timezone.now()
    item = _set(_item(alice, chunsim, "강아지 산책시켰어"), created_at=now - timedelta(days=3, hours=20))

    first = _run(memory_decay_strength, alice, chunsim, now=now)
    item.refresh_from_db()
    after_first = (item.strength, item.strength_decayed_at)
    second = _run(memory_decay_strength, alice, chunsim, now=now + timedelta(hours=3))
    item.refresh_from_db()

    assert first["decayed"] == 1
    assert second == {"items": 0, "decayed": 0, "floored": 0}
    assert (item.strength, item.strength_decayed_at) == after_first
    assert AuditLog.objects.filter(object_type="memory_maintenance").count() == 1

    # The 20 hours left over from the first run complete a day 4 hours later: one more day, not four.
    third = _run(memory_decay_strength, alice, chunsim, now=now + timedelta(hours=5))
    item.refresh_from_db()
    assert third["decayed"] == 1
    assert item.strength == pytest.approx((0.95 + 0.05 * 0.15) ** 4)


def test_strength_at_or_below_one_tenth_is_left_alone(alice, chunsim):
    now = timezone.now()
    faint = _set(_item(alice, chunsim, "지나가던 고양이", strength=0.1), created_at=now - timedelta(days=30))

    counts = _run(memory_decay_strength, alice, chunsim, now=now)

    faint.refresh_from_db()
    assert counts["items"] == 0
    assert faint.strength == 0.1
    assert faint.strength_decayed_at is None


def test_strength_decay_writes_one_summary_audit_row_per_scope_without_content(alice, chunsim):
    now = timezone.now()
    contents = [f"비밀 일기 {n}번째" for n in range(5)]
    for content in contents:
        _item(alice, chunsim, content)
    MemoryItem.objects.filter(user=alice).update(created_at=now - timedelta(days=2))

    _run(memory_decay_strength, alice, chunsim, now=now)

    row = AuditLog.objects.get()
    assert (row.action, row.trigger, row.actor_label) == ("updated", "decay", "system:maintenance")
    assert (row.object_type, row.object_id) == ("memory_maintenance", "strength_decay")
    assert (row.target_user_id, row.character_slug) == (alice.pk, "chunsim")
    assert row.changed_fields == ["strength", "strength_decayed_at"]
    assert row.details == {"items": 5, "decayed": 5, "floored": 0}
    _assert_audit_has_no_content(*contents)


# --- 2. confidence decay ----------------------------------------------------------------------------

def test_inferred_confidence_decays_once_per_unused_30_days(alice, chunsim):
    now = timezone.now()
    stale = _set(_item(alice, chunsim, "아마 고양이를 좋아하는 듯", confidence=0.9),
                 created_at=now - timedelta(days=65))
    used_lately = _set(_item(alice, chunsim, "아마 밤에 공부하는 편", confidence=0.9),
                       created_at=now - timedelta(days=65), last_used_at=now - timedelta(days=10))
    used_long_ago = _set(_item(alice, chunsim, "아마 커피를 자주 마심", confidence=0.9),
                         created_at=now - timedelta(days=100), last_used_at=now - timedelta(days=40))
    explicit = _set(_item(alice, chunsim, "나 서울 살아", confidence=0.9, source=MemorySource.EXPLICIT),
                    created_at=now - timedelta(days=365))
    near_floor = _set(_item(alice, chunsim, "아마 운동을 싫어함", confidence=0.104),
                      created_at=now - timedelta(days=100))

    counts = _run(memory_decay_confidence, alice, chunsim, now=now)

    for item in (stale, used_lately, used_long_ago, explicit, near_floor):
        item.refresh_from_db()
    assert stale.confidence == pytest.approx(0.9 * 0.95 ** 2)
    assert stale.confidence_decayed_at == stale.created_at + timedelta(days=60)
    assert used_lately.confidence == 0.9 and used_lately.confidence_decayed_at is None
    # The clock restarted at the last use: one period since, not three since creation.
    assert used_long_ago.confidence == pytest.approx(0.9 * 0.95)
    assert used_long_ago.confidence_decayed_at == used_long_ago.last_used_at + timedelta(days=30)
    assert explicit.confidence == 0.9
    assert near_floor.confidence == pytest.approx(0.1)
    assert counts == {"items": 3, "decayed": 3}
    row = AuditLog.objects.get(object_type="memory_maintenance")
    assert (row.object_id, row.trigger, row.details) == ("confidence_decay", "decay", {"items": 3, "decayed": 3})


def test_running_confidence_decay_twice_changes_nothing(alice, chunsim):
    now = timezone.now()
    item = _set(_item(alice, chunsim, "아마 고양이를 좋아하는 듯", confidence=0.9),
                created_at=now - timedelta(days=45))

    _run(memory_decay_confidence, alice, chunsim, now=now)
    second = _run(memory_decay_confidence, alice, chunsim, now=now + timedelta(days=1))

    item.refresh_from_db()
    assert second == {"items": 0, "decayed": 0}
    assert item.confidence == pytest.approx(0.9 * 0.95)


# --- 3. consolidation -------------------------------------------------------------------------------

@pytest.fixture
def similar_pair(alice, chunsim):
    """Two episodes at cosine 0.9 (older, newer) and one at cosine 0.5 to the first."""
    e0, e1, e2 = _unit_basis(3)
    now = timezone.now()
    older = _set(_item(alice, chunsim, "카페에서 라떼 마셨어", embedding=e0.tolist(), importance=4, strength=0.6,
                       mentioned_count=1, event_date=date(2024, 5, 1)), created_at=now - timedelta(days=3))
    newer = _set(_item(alice, chunsim, "오늘도 카페 가서 라떼", embedding=_with_cosine(e0, e1, 0.9).tolist(),
                       importance=7, strength=0.4, mentioned_count=2, event_date=date(2024, 5, 3)),
                 created_at=now - timedelta(days=1))
    other = _item(alice, chunsim, "시험 공부 힘들어", embedding=_with_cosine(e0, e2, 0.5).tolist())
    return older, newer, other


def test_consolidation_merges_a_similar_pair_into_one_semantic_item(alice, chunsim, similar_pair):
    older, newer, other = similar_pair

    counts = _run(memory_consolidate, alice, chunsim)

    assert counts == {"groups": 1, "merged": 2}
    merged = MemoryItem.objects.get(user=alice, character=chunsim, is_active=True, kind=MemoryKind.SEMANTIC)
    assert merged.content == "카페에서 라떼 마셨어 / 오늘도 카페 가서 라떼"
    assert merged.content_hash == content_hash(merged.content)
    assert (merged.importance, merged.mentioned_count, merged.strength) == (7, 3, 0.6)
    assert merged.event_date == date(2024, 5, 3)
    expected = np.asarray(older.embedding) + np.asarray(newer.embedding)
    assert np.allclose(merged.embedding, expected / np.linalg.norm(expected), atol=1e-6)
    for original in (older, newer):
        original.refresh_from_db()
        assert original.is_active is False
        assert original.superseded_by_id == merged.pk
    other.refresh_from_db()
    assert (other.is_active, other.kind, other.superseded_by_id) == (True, MemoryKind.EPISODIC, None)


def test_consolidation_is_audited_as_merged_and_deactivated_without_content(alice, chunsim, similar_pair):
    older, newer, _ = similar_pair

    _run(memory_consolidate, alice, chunsim)

    merged = MemoryItem.objects.get(user=alice, is_active=True, kind=MemoryKind.SEMANTIC)
    merged_row = AuditLog.objects.get(action="merged")
    assert (merged_row.object_type, merged_row.object_id) == ("memory_item", str(merged.pk))
    assert (merged_row.trigger, merged_row.details) == ("system", {"count": 2})
    deactivated = AuditLog.objects.filter(action="deactivated").order_by("object_id")
    assert sorted(row.object_id for row in deactivated) == sorted([str(older.pk), str(newer.pk)])
    assert all(row.details == {"reason": "merged", "superseded_by": merged.pk} for row in deactivated)
    assert all(row.target_user_id == alice.pk for row in AuditLog.objects.all())
    _assert_audit_has_no_content("라떼", "카페")


def test_consolidation_leaves_structured_facts_and_non_episodes_alone(alice, chunsim):
    e0, e1 = _unit_basis(2)
    near = _with_cosine(e0, e1, 0.95).tolist()
    episode = _item(alice, chunsim, "주말에 등산 갔어", embedding=e0.tolist())
    fact = _item(alice, chunsim, "취미는 등산", embedding=near, subject_key="hobby")
    semantic = _item(alice, chunsim, "등산을 좋아함", embedding=near, kind=MemoryKind.SEMANTIC)
    no_embedding = _item(alice, chunsim, "등산화 샀어")

    counts = _run(memory_consolidate, alice, chunsim)

    assert counts == {"groups": 0, "merged": 0}
    assert MemoryItem.objects.filter(pk__in=[episode.pk, fact.pk, semantic.pk, no_embedding.pk],
                                     is_active=True).count() == 4


def test_a_second_consolidation_run_does_nothing(alice, chunsim, similar_pair):
    first = _run(memory_consolidate, alice, chunsim)
    second = _run(memory_consolidate, alice, chunsim)

    assert first["groups"] == 1
    assert second == {"groups": 0, "merged": 0}
    assert MemoryItem.objects.filter(user=alice, kind=MemoryKind.SEMANTIC).count() == 1
    assert AuditLog.objects.filter(action="merged").count() == 1


def test_merging_the_same_texts_again_folds_into_the_earlier_merge(alice, chunsim, similar_pair):
    older, newer, _ = similar_pair
    _run(memory_consolidate, alice, chunsim)
    merged = MemoryItem.objects.get(user=alice, is_active=True, kind=MemoryKind.SEMANTIC)
    # The user says both things again: new episodes with the same texts.
    again = [_item(alice, chunsim, item.content, embedding=np.asarray(item.embedding).tolist())
             for item in (older, newer)]

    counts = _run(memory_consolidate, alice, chunsim)

    assert counts == {"groups": 1, "merged": 2}
    assert MemoryItem.objects.filter(user=alice, is_active=True, kind=MemoryKind.SEMANTIC).count() == 1
    merged.refresh_from_db()
    assert merged.mentioned_count == 5
    assert all(MemoryItem.objects.get(pk=item.pk).superseded_by_id == merged.pk for item in again)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_concurrent_consolidation_runs_merge_once(alice, chunsim, similar_pair):
    barrier = threading.Barrier(2)
    results, errors = [], []

    def run():
        try:
            barrier.wait(timeout=10)
            results.append(_run(memory_consolidate, alice, chunsim))
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    workers = [threading.Thread(target=run) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=30)

    assert errors == []
    assert sorted(r["groups"] for r in results) == [0, 1]
    assert MemoryItem.objects.filter(user=alice, kind=MemoryKind.SEMANTIC).count() == 1
    assert AuditLog.objects.filter(action="merged").count() == 1
    assert AuditLog.objects.filter(action="deactivated").count() == 2


# --- 4. promotion -----------------------------------------------------------------------------------

def test_episodes_mentioned_three_times_are_promoted_to_semantic(alice, chunsim):
    thrice = _item(alice, chunsim, "또 야근했어", mentioned_count=3, importance=4)
    important = _item(alice, chunsim, "엄마랑 통화했어", mentioned_count=5, importance=9)
    twice = _item(alice, chunsim, "비 왔어", mentioned_count=2, importance=4)
    emotional = _item(alice, chunsim, "너무 외로워", kind=MemoryKind.EMOTIONAL, mentioned_count=4, importance=4)

    counts = _run(memory_promote, alice, chunsim)

    for item in (thrice, important, twice, emotional):
        item.refresh_from_db()
    assert (thrice.kind, thrice.importance) == (MemoryKind.SEMANTIC, 8)
    assert (important.kind, important.importance) == (MemoryKind.SEMANTIC, 9)
    assert (twice.kind, twice.importance) == (MemoryKind.EPISODIC, 4)
    assert (emotional.kind, emotional.importance) == (MemoryKind.EMOTIONAL, 4)
    assert counts == {"promoted": 2}
    rows = AuditLog.objects.filter(action="updated", object_type="memory_item")
    assert sorted(row.object_id for row in rows) == sorted([str(thrice.pk), str(important.pk)])
    assert all(row.changed_fields == ["importance", "kind"] and row.trigger == "system" for row in rows)
    by_id = {row.object_id: row.details for row in rows}
    assert (by_id[str(thrice.pk)]["importance_from"], by_id[str(thrice.pk)]["importance_to"]) == (4, 8)
    assert (by_id[str(important.pk)]["importance_from"], by_id[str(important.pk)]["importance_to"]) == (9, 9)
    assert _run(memory_promote, alice, chunsim) == {"promoted": 0}


# --- 5. pruning -------------------------------------------------------------------------------------

def test_weak_unused_items_are_archived_except_identity_and_explicit(alice, chunsim):
    weak = _item(alice, chunsim, "지나가던 버스", strength=0.1)
    identity = _item(alice, chunsim, "혈액형 A형", subject_key="blood_type", strength=0.1)
    explicit = _item(alice, chunsim, "꼭 기억해줘", source=MemorySource.EXPLICIT, strength=0.1)
    used = _item(alice, chunsim, "좋아하는 노래", strength=0.1, usage_count=1)
    repeated = _item(alice, chunsim, "자주 하는 말", strength=0.1, mentioned_count=2)
    not_weak = _item(alice, chunsim, "점심 메뉴", strength=0.2)

    counts = _run(memory_prune, alice, chunsim)

    assert counts == {"archived_weak": 1, "archived_over_cap": 0}
    weak.refresh_from_db()
    assert weak.archived_at is not None and weak.is_active is True  # archived, not deleted
    for kept in (identity, explicit, used, repeated, not_weak):
        kept.refresh_from_db()
        assert kept.archived_at is None
    row = AuditLog.objects.get(action="archived")
    assert (row.object_id, row.trigger, row.details) == (str(weak.pk), "decay", {"reason": "weak"})
    assert _run(memory_prune, alice, chunsim) == {"archived_weak": 0, "archived_over_cap": 0}


@override_settings(MEMORY_PRUNE_SCOPE_CAP=3)
def test_scope_cap_archives_the_lowest_beyond_the_cap_but_never_identity(alice, chunsim):
    now = timezone.now()
    identity = _item(alice, chunsim, "이름은 지우", subject_key="name", importance=1)
    low_strong = _item(alice, chunsim, "편의점 갔어", importance=2, strength=0.9)
    low_weak = _item(alice, chunsim, "버스 탔어", importance=2, strength=0.8)
    low_strong_newer = _set(_item(alice, chunsim, "우산 샀어", importance=2, strength=0.9),
                            created_at=now + timedelta(seconds=1))
    high = _item(alice, chunsim, "대학 합격했어", importance=9)

    counts = _run(memory_prune, alice, chunsim)

    assert counts == {"archived_weak": 0, "archived_over_cap": 2}
    archived = set(MemoryItem.objects.filter(user=alice, archived_at__isnull=False).values_list("pk", flat=True))
    # Lowest importance, then lowest strength, then oldest.
    assert archived == {low_weak.pk, low_strong.pk}
    live = set(MemoryItem.objects.filter(user=alice, archived_at__isnull=True).values_list("pk", flat=True))
    assert live == {identity.pk, low_strong_newer.pk, high.pk}
    rows = AuditLog.objects.filter(action="archived")
    assert {row.object_id for row in rows} == {str(low_weak.pk), str(low_strong.pk)}
    assert all(row.details == {"reason": "scope_cap", "cap": 3} and row.trigger == "system" for row in rows)
    assert _run(memory_prune, alice, chunsim) == {"archived_weak": 0, "archived_over_cap": 0}


@override_settings(MEMORY_PRUNE_SCOPE_CAP=1)
def test_scope_cap_keeps_identity_facts_even_above_the_cap(alice, chunsim):
    facts = [_item(alice, chunsim, f"사실 {key}", subject_key=key, importance=1) for key in ("name", "age", "mbti")]

    counts = _run(memory_prune, alice, chunsim)

    assert counts["archived_over_cap"] == 0
    assert MemoryItem.objects.filter(pk__in=[f.pk for f in facts], archived_at__isnull=True).count() == 3


# --- 6. expiry --------------------------------------------------------------------------------------

def test_items_past_expires_at_are_deactivated_and_audited_as_expired(alice, chunsim):
    now = timezone.now()
    due = _item(alice, chunsim, "오늘 저녁 약속", expires_at=now - timedelta(minutes=1))
    later = _item(alice, chunsim, "다음 주 약속", expires_at=now + timedelta(days=1))

    counts = _run(memory_expire, alice, chunsim, now=now)

    due.refresh_from_db()
    later.refresh_from_db()
    assert counts == {"expired": 1, "expired_retention": 0}
    assert due.is_active is False
    assert later.is_active is True
    row = AuditLog.objects.get(action="expired")
    assert (row.object_id, row.trigger, row.details) == (str(due.pk), "system", {"reason": "expires_at"})
    assert _run(memory_expire, alice, chunsim, now=now) == {"expired": 0, "expired_retention": 0}


def test_retention_days_expire_older_items_of_that_user_only(alice, bob, chunsim):
    now = timezone.now()
    MemorySettings.objects.create(user=alice, retention_days=30)
    old = _set(_item(alice, chunsim, "두 달 전 이야기"), created_at=now - timedelta(days=40))
    recent = _set(_item(alice, chunsim, "열흘 전 이야기"), created_at=now - timedelta(days=10))
    bobs_old = _set(_item(bob, chunsim, "1년 전 이야기"), created_at=now - timedelta(days=400))

    counts = tasks.expire_task()

    for item in (old, recent, bobs_old):
        item.refresh_from_db()
    assert old.is_active is False
    assert recent.is_active is True
    assert bobs_old.is_active is True  # bob keeps memories forever
    assert counts["expired_retention"] == 1
    row = AuditLog.objects.get(action="expired")
    assert (row.object_id, row.details) == (str(old.pk), {"reason": "retention", "retention_days": 30})
    _assert_audit_has_no_content("두 달 전 이야기")


# --- isolation, tasks, scopes -----------------------------------------------------------------------

def _every_job_due(user, character, *, label: str) -> list[MemoryItem]:
    """Items that every maintenance job would change."""
    now = timezone.now()
    e0, e1 = _unit_basis(2, seed=11)
    items = [
        _item(user, character, f"{label} 오래된 일", confidence=0.9),
        _item(user, character, f"{label} 희미한 일", strength=0.1),
        _item(user, character, f"{label} 세 번 말한 일", mentioned_count=3),
        _item(user, character, f"{label} 지난 약속", expires_at=now - timedelta(hours=1)),
        _item(user, character, f"{label} 라떼", embedding=e0.tolist()),
        _item(user, character, f"{label} 또 라떼", embedding=_with_cosine(e0, e1, 0.9).tolist()),
    ]
    MemoryItem.objects.filter(pk=items[0].pk).update(created_at=now - timedelta(days=45))
    return items


def _snapshot(items):
    return list(MemoryItem.objects.filter(pk__in=[i.pk for i in items]).order_by("pk").values(
        "kind", "strength", "confidence", "importance", "is_active", "archived_at", "superseded_by")
    )


def test_jobs_on_one_scope_never_touch_another(alice, bob, chunsim, sora):
    bobs = _every_job_due(bob, chunsim, label="밥")
    alices_sora = _every_job_due(alice, sora, label="소라")
    _every_job_due(alice, chunsim, label="앨리스")
    before = _snapshot(bobs + alices_sora)

    for job in ALL_JOBS:
        _run(job, alice, chunsim)

    assert _snapshot(bobs + alices_sora) == before
    assert AuditLog.objects.filter(target_user_id=alice.pk, character_slug="chunsim").exists()
    assert not AuditLog.objects.filter(target_user_id=bob.pk).exists()
    assert not AuditLog.objects.filter(character_slug="sora").exists()


def test_strength_decay_task_runs_through_django_q(alice, bob, chunsim):
    for user in (alice, bob):
        item = _item(user, chunsim, "이틀 전 일")
        _set(item, created_at=timezone.now() - timedelta(days=2))

    task_id = async_task("memories.tasks.decay_strength_task", sync=True)

    assert result(task_id) == {"scopes": 2, "failed_scopes": 0, "skipped_scopes": 0, "items": 2,
                              "decayed": 2, "floored": 0}
    assert MemoryItem.objects.filter(strength__lt=1.0).count() == 2


@pytest.mark.parametrize("task, expected", [
    (tasks.decay_strength_task, {"items": 2, "decayed": 2}),
    (tasks.decay_confidence_task, {"items": 2, "decayed": 2}),
    (tasks.consolidate_task, {"groups": 2, "merged": 4}),
    (tasks.promote_task, {"promoted": 2}),
    (tasks.prune_task, {"archived_weak": 2}),
    (tasks.expire_task, {"expired": 2}),
])
def test_each_task_runs_its_job_over_every_scope(alice, bob, chunsim, task, expected):
    _every_job_due(alice, chunsim, label="앨리스")
    _every_job_due(bob, chunsim, label="밥")

    counts = task()

    assert counts["scopes"] == 2 and counts["failed_scopes"] == 0
    assert {key: counts[key] for key in expected} == expected


def test_scope_batches_page_through_every_scope(alice, bob, chunsim, sora):
    for user, character in ((alice, chunsim), (alice, sora), (bob, chunsim), (bob, sora)):
        _item(user, character, "아무 말")
    _set(_item(bob, sora, "지운 말"), is_active=False)

    batches = list(maintenance_scope_batches(batch_size=3))

    assert [len(batch) for batch in batches] == [3, 1]
    assert sorted(scope for batch in batches for scope in batch) == sorted(
        [(alice.pk, "chunsim"), (alice.pk, "sora"), (bob.pk, "chunsim"), (bob.pk, "sora")])


def test_a_failing_scope_is_counted_and_logged_without_its_message(alice, bob, chunsim, caplog):
    _item(alice, chunsim, "앨리스 이야기")
    _item(bob, chunsim, "밥 이야기")
    done = []

    def flaky_job(*, user_id, character_id, now):
        if user_id == alice.pk:
            raise ValueError("앨리스의 비밀 이야기")
        done.append(user_id)
        return {"items": 1}

    with caplog.at_level(logging.ERROR, logger="memories.maintenance"):
        counts = maintenance_run(flaky_job)

    assert counts == {"scopes": 2, "failed_scopes": 1, "skipped_scopes": 0, "items": 1}
    assert done == [bob.pk]
    assert "ValueError" in caplog.text and "비밀" not in caplog.text
