"""Erasure across characters and account withdrawal (issue 9 §3; seed 000 §7.1).

DELETE /api/context?confirm=true deletes what every character holds of the user; DELETE /api/accounts/me?confirm=true
deletes the account and everything it has here. Each is one transaction with one content-free audit row, and the
audit trail written before stays.
"""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from accounts.models import ApiToken, UserPlan
from audit.models import AuditLog
from context_layers import services
from context_layers.models import Relationship, UserActivity, UserContext
from conversations.models import Conversation, ConversationSummary, Message
from conversations.tasks import process_scope_task
from memories.models import MemoryItem, MemorySettings

SECRET = "고양이 나비"


def say(client, character: str, conversation: str, *texts: str, user="alice"):
    start = datetime.fromisoformat("2026-03-02T22:00:00+09:00")
    messages = [{"id": f"{user}-{conversation}-{i}", "role": "user" if i % 2 == 0 else "assistant", "content": text,
                 "createdAt": (start + timedelta(seconds=i)).isoformat()} for i, text in enumerate(texts)]
    response = client.post(f"/api/context/{character}/messages?user={user}",
                           {"conversationId": conversation, "messages": messages}, format="json")
    assert response.status_code == 202, response.content


@pytest.fixture
def chatted(system_client, alice, bob, chunsim, sora, django_capture_on_commit_callbacks):
    """alice and bob have talked with chunsim and sora: memories, messages, a summary, relationships, settings."""
    with django_capture_on_commit_callbacks(execute=True):
        for user in ("alice", "bob"):
            say(system_client, "chunsim", "c1", f"나 {SECRET} 키워", "귀엽다", user=user)
            say(system_client, "sora", "s1", "나 서울 살아", "그렇구나", user=user)
    conversation = Conversation.objects.get(user=alice, character=chunsim)
    ConversationSummary.objects.create(conversation=conversation, summary="고양이 얘기", covers_until=2, importance=5,
                                       summarizer="test")
    system_client.put("/api/context/settings?user=alice", {"retentionDays": 90}, format="json")
    for user in (alice, bob):
        assert MemoryItem.objects.filter(user=user, character=chunsim).exists()
        assert MemoryItem.objects.filter(user=user, character=sora).exists()
        assert Relationship.objects.filter(user=user).count() == 2


def _holds_nothing_of(user) -> None:
    assert not MemoryItem.objects.filter(user=user).exists()
    assert not Message.objects.filter(user=user).exists()
    assert not Conversation.objects.filter(user=user).exists()
    assert not ConversationSummary.objects.filter(conversation__user=user).exists()
    assert not UserContext.objects.filter(user=user).exists()
    assert not Relationship.objects.filter(user=user).exists()
    assert not UserActivity.objects.filter(user=user).exists()


def _bob_untouched(bob) -> None:
    assert MemoryItem.objects.filter(user=bob).count() >= 2
    assert Message.objects.filter(user=bob).count() == 4
    assert Relationship.objects.filter(user=bob).count() == 2


def test_delete_all_characters_needs_confirmation_and_deletes_nothing_without(system_client, alice, chatted):
    before = MemoryItem.objects.filter(user=alice).count()
    response = system_client.delete("/api/context?user=alice")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "CONFIRMATION_REQUIRED"
    assert MemoryItem.objects.filter(user=alice).count() == before


def test_delete_all_characters_deletes_every_scope_and_keeps_the_account(system_client, alice, bob, chatted):
    memories = MemoryItem.objects.filter(user=alice).count()
    messages = Message.objects.filter(user=alice).count()

    response = system_client.delete("/api/context?user=alice&confirm=true")

    assert response.status_code == 200, response.content
    assert response.json()["deleted"] == {"memories": memories, "layers": 2, "messages": messages, "summaries": 1,
                                          "relationships": 2, "characters": 2}
    _holds_nothing_of(alice)
    _bob_untouched(bob)
    assert MemorySettings.objects.get(user=alice).retention_days == 90  # the account and its settings stay
    assert UserPlan.objects.filter(user=alice).exists()
    row = AuditLog.objects.get(action="deleted", object_type="user_contexts")
    assert (row.target_user_id, row.target_user_ref) == (alice.pk, "alice")
    assert row.details["memories_deleted"] == memories
    assert SECRET not in str(row.details) and "서울" not in str(row.details)
    # and the user starts afresh
    assert system_client.get("/api/context/chunsim?user=alice").json()["memoryCount"] == 0


def test_the_end_user_deletes_all_of_their_own_characters(alice_client, alice, bob, chatted):
    response = alice_client.delete("/api/context?confirm=true")
    assert response.status_code == 200, response.content
    _holds_nothing_of(alice)
    _bob_untouched(bob)


def test_account_withdrawal_deletes_everything_and_the_token_stops_working(alice_client, alice, bob, chatted):
    trail_before = list(AuditLog.objects.filter(target_user_id=alice.pk).values_list("id", flat=True))
    assert trail_before

    response = alice_client.delete("/api/accounts/me?confirm=true")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["user"] == "alice"
    assert body["deleted"]["characters"] == 2 and body["deleted"]["tokens"] == 1 and body["deleted"]["settings"] == 1
    _holds_nothing_of(alice)
    _bob_untouched(bob)
    assert not type(alice).objects.filter(pk=alice.pk).exists()
    assert not ApiToken.objects.filter(user_id=alice.pk).exists()
    assert not MemorySettings.objects.filter(user_id=alice.pk).exists()
    # the trail keeps its rows and gains one, without content
    assert set(trail_before) <= set(AuditLog.objects.filter(target_user_id=alice.pk).values_list("id", flat=True))
    row = AuditLog.objects.get(action="deleted", object_type="account")
    assert (row.target_user_ref, row.details["memories_deleted"] > 0) == ("alice", True)
    assert SECRET not in str(row.details)
    assert alice_client.get("/api/context/settings").status_code == 401


def test_the_system_client_withdraws_a_named_user(system_client, alice, bob, chatted):
    assert system_client.delete("/api/accounts/me?user=alice").status_code == 400  # no confirmation
    assert type(alice).objects.filter(pk=alice.pk).exists()
    response = system_client.delete("/api/accounts/me?user=alice&confirm=true")
    assert response.status_code == 200
    assert not type(alice).objects.filter(pk=alice.pk).exists()
    _bob_untouched(bob)
    # a user never seen has nothing to delete, and nothing is created
    unknown = system_client.delete("/api/accounts/me?user=never-seen&confirm=true")
    assert unknown.status_code == 200 and set(unknown.json()["deleted"].values()) == {0}
    assert not type(alice).objects.filter(username="never-seen").exists()


def test_withdrawal_is_one_transaction(system_client, alice, chatted, monkeypatch):
    """A failure at the last step (the audit row) leaves everything as it was."""
    def fail(**kwargs):
        raise RuntimeError("audit down")
    monkeypatch.setattr(services, "audit_record", fail)
    alice_id, memories = alice.pk, MemoryItem.objects.filter(user=alice).count()
    with pytest.raises(RuntimeError):
        services.account_withdraw(user=alice, context=services.AuditContext(actor_label="test", trigger="system"))
    assert type(alice).objects.filter(pk=alice_id).exists()
    assert MemoryItem.objects.filter(user_id=alice_id).count() == memories
    assert Message.objects.filter(user_id=alice_id).count() == 4


def test_a_job_enqueued_before_the_withdrawal_finds_nothing_to_do(system_client, alice, chunsim, chatted):
    user_id = alice.pk
    system_client.delete("/api/accounts/me?user=alice&confirm=true")
    assert process_scope_task(user_id, chunsim.slug) == {"processed": 0, "failed": 0}
