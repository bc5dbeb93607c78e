"""One bad row never stops a periodic job: its failure is logged (ids only), recorded, and the job goes on.

The rows are planted the way the old edge let them in (a createdAt or expiresAt of
9999-12-31T23:59:59-14:00, stored by PostgreSQL as year 10000 UTC, which psycopg cannot read back),
written straight into the database since the API now refuses them.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from core.models import JobFailure
from conversations.ingestion import IncomingMessage, messages_ingest
from conversations.models import Conversation, Message
from conversations.tasks import end_idle_conversations_task, process_pending_task
from memories import tasks as memory_tasks
from memories.categories import MemoryKind
from memories.hashing import content_hash
from memories.models import MemoryItem

# Real commits (each job step commits on its own); serialized_rollback restores the migrations' rows after.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

POISON = "9999-12-31 23:59:59-14"  # year 10000 in UTC
SECRET = "앨리스의 비밀 이야기"


def _ingest(user, character, conversation: str, texts: list[str], at: str = "2026-03-01T21:00:00+09:00"):
    start = datetime.fromisoformat(at)
    messages_ingest(user=user, character=character, conversation_id=conversation, messages=[
        IncomingMessage(external_id=f"{conversation}-{index}", role="user", content=text,
                        created_at=start + timedelta(seconds=index))
        for index, text in enumerate(texts)])  # no on_commit: the messages stay pending


def _poison_conversation(user, external_id: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("UPDATE conversations_message SET created_at = %s WHERE user_id = %s", [POISON, user.pk])
        cursor.execute("UPDATE conversations_conversation SET last_message_at = %s WHERE user_id = %s "
                       "AND external_id = %s", [POISON, user.pk, external_id])


def _age_everything() -> None:
    """Past the pending sweep's 30 s grace and the idle timeout."""
    long_ago = timezone.now() - timedelta(hours=2)
    Message.objects.update(received_at=long_ago)
    Conversation.objects.update(last_received_at=long_ago)


@pytest.fixture
def alice_poisoned_bob_pending(alice, bob, chunsim):
    _ingest(alice, chunsim, "a1", [SECRET])
    _poison_conversation(alice, "a1")
    _ingest(bob, chunsim, "b1", ["나 고향은 부산이야", "요즘 떡볶이에 빠졌어"])
    _age_everything()
    return alice, bob


def _alice_message_state(alice) -> tuple:
    return Message.objects.filter(user=alice).values_list(
        "process_attempts", "last_error_code", "quarantined_at", "processed_at").get()


def test_other_users_pending_messages_are_processed_past_a_poisoned_scope(
        alice_poisoned_bob_pending, settings, caplog):
    alice, bob = alice_poisoned_bob_pending
    settings.JOB_MAX_ATTEMPTS = 3

    with caplog.at_level(logging.INFO):
        first = process_pending_task()

    assert first["scopes"] == 2
    assert not Message.objects.filter(user=bob, processed_at__isnull=True).exists()
    assert MemoryItem.objects.filter(user=bob).exists()  # bob's messages really went through the pipeline
    attempts, code, quarantined_at, processed_at = _alice_message_state(alice)
    assert (attempts, code, quarantined_at, processed_at) == (1, "DataError", None, None)
    assert f"scope user={alice.pk} character=chunsim" in caplog.text and "DataError" in caplog.text
    assert SECRET not in caplog.text and "비밀" not in caplog.text

    for _ in range(2):  # still pending: each run tries it once more
        process_pending_task()
    attempts, code, quarantined_at, processed_at = _alice_message_state(alice)
    assert attempts == 3 and code == "DataError"
    assert quarantined_at is not None and processed_at == quarantined_at  # out of the queue, kept for an operator

    assert process_pending_task()["scopes"] == 0  # never retried again
    assert _alice_message_state(alice)[0] == 3


def test_a_message_that_fails_alone_does_not_hold_back_its_scope(alice, chunsim, settings, caplog):
    """A message whose text cannot be read (a broken ciphertext) is set aside; its neighbours are processed."""
    _ingest(alice, chunsim, "a1", ["나 고향은 부산이야", "떡볶이 좋아해", "요즘 수영 배워"])
    broken = Message.objects.get(external_id="a1-1")
    with connection.cursor() as cursor:
        cursor.execute("UPDATE conversations_message SET content = 'gk1:nokey:AAAA' WHERE id = %s", [broken.pk])
    _age_everything()

    with caplog.at_level(logging.INFO):
        counts = process_pending_task()

    assert counts["failed_scopes"] == 0
    states = dict(Message.objects.values_list("external_id", "process_attempts"))
    assert states == {"a1-0": 0, "a1-1": 1, "a1-2": 0}
    assert list(Message.objects.filter(processed_at__isnull=True).values_list("external_id", flat=True)) == ["a1-1"]
    assert Message.objects.filter(external_id="a1-1").values_list("last_error_code", flat=True).get() == \
        "DecryptionError"
    assert "부산" not in caplog.text and "수영" not in caplog.text


def test_idle_sweep_ends_the_others_and_records_the_bad_conversation(alice_poisoned_bob_pending, settings, caplog):
    alice, bob = alice_poisoned_bob_pending
    settings.JOB_MAX_ATTEMPTS = 2
    alices = Conversation.objects.filter(user=alice).values_list("pk", flat=True).get()

    with caplog.at_level(logging.INFO):
        counts = end_idle_conversations_task()

    assert counts == {"ended": 1, "failed": 1, "skipped": 0}
    bobs = Conversation.objects.filter(user=bob).get()
    assert bobs.status == "ended" and bobs.end_reason == "idle" and bobs.summaries.count() == 1
    failure = JobFailure.objects.get()
    assert (failure.job, failure.key, failure.user_id, failure.character_slug, failure.attempts,
            failure.last_error_code) == ("end_idle_conversation", f"conversation:{alices}", alice.pk, "chunsim", 1,
                                         "DataError")
    assert f"conversation:{alices}" in caplog.text and SECRET not in caplog.text

    assert end_idle_conversations_task() == {"ended": 0, "failed": 1, "skipped": 0}
    assert JobFailure.objects.get().attempts == 2
    assert end_idle_conversations_task() == {"ended": 0, "failed": 0, "skipped": 1}  # quarantined
    assert JobFailure.objects.get().attempts == 2

    JobFailure.objects.update(last_failed_at=timezone.now() - timedelta(hours=settings.JOB_QUARANTINE_RETRY_HOURS + 1))
    assert end_idle_conversations_task()["failed"] == 1  # tried again once the quarantine has run out


def test_maintenance_goes_on_past_a_poisoned_memory_and_records_the_scope(alice, bob, chunsim, settings, caplog):
    settings.JOB_MAX_ATTEMPTS = 2
    two_days_ago = timezone.now() - timedelta(days=2)
    for user, text in ((alice, SECRET), (bob, "밥의 기억")):
        item = MemoryItem.objects.create(user=user, character=chunsim, content=text, content_hash=content_hash(text),
                                         kind=MemoryKind.EPISODIC)
        MemoryItem.objects.filter(pk=item.pk).update(created_at=two_days_ago)
    with connection.cursor() as cursor:  # what `expiresAt: 9999-12-31T23:59:59-14:00` used to store
        cursor.execute("UPDATE memories_memoryitem SET expires_at = %s WHERE user_id = %s", [POISON, alice.pk])

    with caplog.at_level(logging.INFO):
        counts = memory_tasks.decay_strength_task()

    assert counts["scopes"] == 2 and counts["failed_scopes"] == 1 and counts["decayed"] == 1
    assert MemoryItem.objects.get(user=bob).strength < 1.0
    failure = JobFailure.objects.get()
    assert (failure.job, failure.key, failure.attempts, failure.last_error_code) == (
        "maintenance:memory_decay_strength", f"scope:{alice.pk}:chunsim", 1, "DataError")
    assert f"scope:{alice.pk}:chunsim" in caplog.text and SECRET not in caplog.text

    memory_tasks.decay_strength_task()
    assert memory_tasks.decay_strength_task()["skipped_scopes"] == 1
    assert JobFailure.objects.get().attempts == 2

    with connection.cursor() as cursor:  # an operator repairs the row: the next try succeeds and clears the record
        cursor.execute("UPDATE memories_memoryitem SET expires_at = NULL WHERE user_id = %s", [alice.pk])
    JobFailure.objects.update(last_failed_at=timezone.now() - timedelta(days=2))
    assert memory_tasks.decay_strength_task()["failed_scopes"] == 0
    assert not JobFailure.objects.exists()


def test_operators_see_failure_records_and_quarantined_messages(alice, chunsim, charlie, settings):
    from django.test import Client

    settings.JOB_MAX_ATTEMPTS = 1
    _ingest(alice, chunsim, "a1", ["안녕"])
    with connection.cursor() as cursor:
        cursor.execute("UPDATE conversations_message SET content = 'gk1:nokey:AAAA'")
    _age_everything()
    process_pending_task()  # quarantines the unreadable message at once (JOB_MAX_ATTEMPTS = 1)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE conversations_conversation SET last_message_at = %s", [POISON])
    end_idle_conversations_task()  # cannot read the conversation: recorded as a JobFailure
    operator = Client()
    operator.force_login(charlie)

    failures = operator.get("/admin/core/jobfailure/")
    quarantined = operator.get("/admin/conversations/message/?quarantined_at__isempty=0")

    assert failures.status_code == 200 and b"end_idle_conversation" in failures.content
    assert b"DataError" in failures.content
    assert quarantined.status_code == 200 and b"a1-0" in quarantined.content
