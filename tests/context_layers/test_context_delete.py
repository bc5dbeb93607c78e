"""Deleting a character context deletes all of it, the relationship included (issue 7, item 11)."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from audit.models import AuditLog
from context_layers.models import Relationship, UserActivity, UserContext
from conversations.models import Message
from memories.models import MemoryItem


def say(client, character: str, conversation: str, *texts: str):
    start = datetime.fromisoformat("2026-03-02T22:00:00+09:00")
    messages = [{"id": f"{conversation}-{i}", "role": "user" if i % 2 == 0 else "assistant", "content": text,
                 "createdAt": (start + timedelta(seconds=i)).isoformat()} for i, text in enumerate(texts)]
    response = client.post(f"/api/context/{character}/messages?user=alice",
                           {"conversationId": conversation, "messages": messages}, format="json")
    assert response.status_code == 202, response.content


@pytest.fixture
def chatted(system_client, alice, chunsim, sora, django_capture_on_commit_callbacks):
    """alice has talked with chunsim and sora: memories, messages and a relationship with each."""
    with django_capture_on_commit_callbacks(execute=True):
        say(system_client, "chunsim", "c1", "나 고양이 나비 키워", "귀엽다", "너한테만 말하는 비밀인데 고마워")
        say(system_client, "sora", "s1", "나 서울 살아", "그렇구나")
    assert Relationship.objects.filter(user=alice, character=chunsim).exists()
    assert Relationship.objects.filter(user=alice, character=sora).exists()


def test_deleting_a_character_context_deletes_its_relationship(system_client, alice, chunsim, sora, chatted):
    memories = MemoryItem.objects.filter(user=alice, character=chunsim).count()
    messages = Message.objects.filter(user=alice, character=chunsim).count()

    response = system_client.delete("/api/context/chunsim?user=alice&confirm=true")

    assert response.status_code == 200, response.content
    assert response.json()["deleted"] == {"memories": memories, "layers": 1, "messages": messages, "summaries": 0,
                                          "relationships": 1}
    assert not Relationship.objects.filter(user=alice, character=chunsim).exists()
    assert not UserContext.objects.filter(user=alice, character=chunsim).exists()
    assert not MemoryItem.objects.filter(user=alice, character=chunsim).exists()
    # Another character's scope and the user-level activity stay.
    assert Relationship.objects.filter(user=alice, character=sora).exists()
    assert UserContext.objects.filter(user=alice, character=sora).exists()
    assert UserActivity.objects.filter(user=alice).exists()


def test_the_context_reads_as_new_after_the_delete(system_client, alice, chunsim, chatted):
    assert system_client.get("/api/context/chunsim?user=alice").json()["relationship"] is not None

    system_client.delete("/api/context/chunsim?user=alice&confirm=true")

    context = system_client.get("/api/context/chunsim?user=alice").json()
    assert (context["relationship"], context["memoryCount"]) == (None, 0)


def test_the_delete_audit_row_counts_the_relationship(system_client, alice, chunsim, chatted):
    system_client.delete("/api/context/chunsim?user=alice&confirm=true")

    row = AuditLog.objects.get(action="deleted", object_type="context_scope")
    assert (row.target_user_ref, row.character_slug) == ("alice", "chunsim")
    assert row.details["relationships_deleted"] == 1
    assert set(row.details) == {"memories_deleted", "layers_deleted", "messages_deleted", "summaries_deleted",
                                "relationships_deleted"}


def test_a_scope_without_a_relationship_counts_zero(system_client, alice, chunsim):
    system_client.put("/api/context/chunsim/tools?user=alice", {"avoidTopics": ["시험"]}, format="json")

    response = system_client.delete("/api/context/chunsim?user=alice&confirm=true")

    assert response.json()["deleted"]["relationships"] == 0
    assert AuditLog.objects.get(action="deleted", object_type="context_scope").details["relationships_deleted"] == 0


def test_the_end_user_can_delete_their_own_relationship_too(alice_client, alice, chunsim, chatted):
    response = alice_client.delete("/api/context/chunsim?confirm=true")

    assert response.status_code == 200
    assert not Relationship.objects.filter(user=alice, character=chunsim).exists()
