"""A message id names one message of a (user, character) scope.

The same id with the same content is an idempotent duplicate; with other content it is 409
MESSAGE_ID_CONFLICT; in another conversation it is 409 DUPLICATE_MESSAGE_ID, also when two requests
race (never a 500 from the unique constraint).
"""
from __future__ import annotations

import hashlib
import threading
import time
from datetime import datetime

import pytest
from django.db import connection, connections, transaction
from rest_framework.test import APIClient

from accounts.models import TokenKind
from accounts.services import api_token_create
from conversations.ingestion import IncomingMessage, message_digest, messages_ingest
from conversations.models import Conversation, Message

URL = "/api/context/chunsim/messages?user=alice"


def msg(mid, content="오늘 떡볶이 먹었어", role="user", at="2026-03-01T21:00:00+09:00"):
    return {"id": mid, "role": role, "content": content, "createdAt": at}


def batch(conversation, *messages):
    return {"conversationId": conversation, "messages": list(messages)}


# --- sequential ------------------------------------------------------------------------------------

@pytest.fixture
def stored(system_client, alice, chunsim):
    response = system_client.post(URL, batch("c1", msg("m1", "내 번호는 010-4821-7753 이야")), format="json")
    assert response.status_code == 202
    return Message.objects.get(external_id="m1")


def test_same_id_same_content_is_an_idempotent_duplicate(stored, system_client):
    response = system_client.post(URL, batch("c1", msg("m1", "내 번호는 010-4821-7753 이야")), format="json")

    assert response.status_code == 202
    assert response.json() == {"conversationId": "c1", "accepted": 0, "duplicates": 1, "kept": True}
    assert Message.objects.count() == 1


@pytest.mark.parametrize("changed", [
    {"content": "내 번호는 010-4821-7753 이야!"},
    {"content": "완전히 다른 말"},
    {"role": "assistant"},
    {"at": "2026-03-01T21:00:05+09:00"},
    {"at": "2026-03-01T12:00:00Z"},  # the same instant with another offset: another calendar day for the user
], ids=["one-more-character", "other-text", "other-role", "other-time", "other-offset"])
def test_same_id_with_different_content_is_409_message_id_conflict(stored, system_client, changed):
    fields = {"content": "내 번호는 010-4821-7753 이야", **changed}

    response = system_client.post(URL, batch("c1", msg("m1", **fields), msg("m2", "새 메시지",
                                                                              at="2026-03-01T21:10:00+09:00")),
                                  format="json")

    assert response.status_code == 409, response.content
    error = response.json()["error"]
    assert error["code"] == "MESSAGE_ID_CONFLICT"
    assert "m1" in str(error["fields"]) and "010" not in str(error)
    assert list(Message.objects.values_list("external_id", flat=True)) == ["m1"]  # m2 not stored either


def test_same_id_in_another_conversation_is_409_duplicate_message_id(stored, system_client):
    response = system_client.post(URL, batch("c2", msg("m1", "내 번호는 010-4821-7753 이야")), format="json")

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "DUPLICATE_MESSAGE_ID"
    assert Message.objects.count() == 1
    assert not Conversation.objects.filter(external_id="c2").exists()


def test_a_difference_only_inside_masked_pii_is_not_seen(stored, system_client):
    """Nothing derived from the unmasked text is kept (a keyed hash of it would let anyone holding the
    key brute-force a phone number), so two texts that mask alike are the same message."""
    response = system_client.post(URL, batch("c1", msg("m1", "내 번호는 010-9999-0000 이야")), format="json")

    assert response.status_code == 202 and response.json()["duplicates"] == 1


def test_messages_stored_before_digests_compare_by_their_masked_text(stored, system_client):
    Message.objects.filter(pk=stored.pk).update(content_digest="")

    same = system_client.post(URL, batch("c1", msg("m1", "내 번호는 010-4821-7753 이야")), format="json")
    other = system_client.post(URL, batch("c1", msg("m1", "다른 말")), format="json")

    assert same.status_code == 202 and same.json()["duplicates"] == 1
    assert other.status_code == 409 and other.json()["error"]["code"] == "MESSAGE_ID_CONFLICT"


def test_the_digest_is_a_keyed_hash_of_the_masked_text(stored, settings):
    assert "4821" not in stored.content  # what is stored and hashed is the masked text
    assert stored.content_digest == message_digest(stored.content)
    assert stored.content_digest != hashlib.sha256(stored.content.encode()).hexdigest()
    settings.MEMORY_HASH_KEY = "another key"
    assert stored.content_digest != message_digest(stored.content)


# --- concurrent (real transactions, two connections) -------------------------------------------------

def _client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    client.raise_request_exception = False
    return client


@pytest.fixture
def token(db, alice, chunsim):
    return api_token_create(name="chat-backend", kind=TokenKind.SERVICE)[1]


def _in_thread(target, results, key):
    def run():
        try:
            results[key] = target()
        finally:
            connections.close_all()  # this thread's connection, so the test database can be flushed

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_same_id_posted_at_once_into_two_conversations_gives_one_202_and_one_409(token):
    for round_ in range(3):
        message_id = f"race{round_}"
        barrier = threading.Barrier(2, timeout=10)
        results: dict = {}

        def post(conversation, message_id=message_id, barrier=barrier):
            client = _client(token)
            body = batch(conversation, msg(message_id, at=f"2026-03-01T21:0{round_}:00+09:00"))
            barrier.wait()
            return client.post(URL, body, format="json")

        threads = [_in_thread(lambda c=c: post(c), results, c) for c in (f"a{round_}", f"b{round_}")]
        for thread in threads:
            thread.join(timeout=60)

        statuses = sorted(response.status_code for response in results.values())
        assert statuses == [202, 409], [(r.status_code, r.content) for r in results.values()]
        loser = next(response for response in results.values() if response.status_code == 409)
        assert loser.json()["error"]["code"] == "DUPLICATE_MESSAGE_ID"
        assert Message.objects.filter(external_id=message_id).count() == 1


def _lock_waiters() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_loser_of_the_unique_index_race_gets_409_not_500(token, alice, chunsim):
    """Force the interleaving the barrier test can only hope for: the second request's insert waits on
    the first one's uncommitted row, and fails on the unique constraint when that commits."""
    client = _client(token)
    for conversation in ("c1", "c2"):  # both conversations and the scope row exist beforehand
        assert client.post(URL, batch(conversation, msg(f"{conversation}-first", at="2026-03-01T20:00:00+09:00")),
                           format="json").status_code == 202
    inserted, release = threading.Event(), threading.Event()
    results: dict = {}

    def first_writer():
        with transaction.atomic():
            messages_ingest(user=alice, character=chunsim, conversation_id="c1", messages=[IncomingMessage(
                external_id="m1", role="user", content="오늘 떡볶이 먹었어",
                created_at=datetime.fromisoformat("2026-03-01T21:00:00+09:00"))])
            inserted.set()
            assert release.wait(timeout=30)
        return "committed"

    first = _in_thread(first_writer, results, "first")
    assert inserted.wait(timeout=30)
    second = _in_thread(lambda: client.post(URL, batch("c2", msg("m1")), format="json"), results, "second")
    deadline = time.monotonic() + 20
    while _lock_waiters() == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _lock_waiters() == 1  # the second request is blocked on the first one's row
    release.set()
    first.join(timeout=30)
    second.join(timeout=60)

    assert results["first"] == "committed"
    response = results["second"]
    assert response.status_code == 409, response.content
    assert response.json()["error"]["code"] == "DUPLICATE_MESSAGE_ID"
    assert Message.objects.filter(external_id="m1").count() == 1
    assert Conversation.objects.get(external_id="c2").message_count == 1  # nothing half-written
