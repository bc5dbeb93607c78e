"""Writes with the embedding service down store the item without a vector; a job embeds it later (issue 7 item 12).

The real google-genai client talks to tests/stub.py (503 or hanging batchEmbedContents).
"""
from __future__ import annotations

import io
import time

import numpy as np
import pytest
from django.core.management import call_command
from django.test import override_settings
from django_q.models import Schedule

from memories.embeddings import GeminiEmbedder
from memories.models import MemoryItem
from memories.tasks import backfill_embeddings_task
from tests.gemini_stub import running_stub, vector_for

MEMORY = "/api/context/chunsim/memory?user=alice"
MESSAGES = "/api/context/chunsim/messages?user=alice"
FOOD = "제일 좋아하는 음식은 떡볶이"


@pytest.fixture
def stub():
    with running_stub() as gemini:
        yield gemini


def post_memory(client, content=FOOD, **extra):
    return client.post(MEMORY, {"content": content, "category": "preference", **extra}, format="json")


def assert_embedded_by_the_stub(item: MemoryItem):
    item.refresh_from_db()
    assert item.embedding_model == GeminiEmbedder.model_name
    assert np.allclose(np.asarray(item.embedding, dtype=float), vector_for(item.content), atol=1e-5)


def test_post_memory_with_embeddings_down_stores_it_and_the_job_embeds_it_later(stub, system_client, chunsim, alice):
    stub.embed = "down"

    response = post_memory(system_client)

    assert response.status_code == 201, response.content
    item = MemoryItem.objects.get(pk=response.json()["memory"]["id"])
    assert (item.content, item.embedding, item.embedding_model) == (FOOD, None, "")
    assert item.lexical_keys  # found by its words meanwhile
    # Posting it again is still the same memory (200), not a second row.
    again = post_memory(system_client)
    assert again.status_code == 200 and again.json()["memory"]["id"] == item.pk

    # While the service is down, the job changes nothing and says so.
    assert backfill_embeddings_task() == {"filled": 0, "missing": 1, "failed": True}
    item.refresh_from_db()
    assert item.embedding is None

    stub.embed = "ok"
    assert backfill_embeddings_task() == {"filled": 1, "missing": 0, "failed": False}
    assert_embedded_by_the_stub(item)
    assert backfill_embeddings_task() == {"filled": 0, "missing": 0, "failed": False}  # idempotent


def test_post_memory_does_not_wait_on_a_hanging_embedding_service(stub, system_client, chunsim, alice):
    assert post_memory(system_client, "강아지 이름은 초코").status_code == 201  # a running server: client built
    stub.embed = "hang"

    with override_settings(WRITE_EMBEDDING_DEADLINE_MS=300):
        started = time.monotonic()
        response = post_memory(system_client)
        elapsed = time.monotonic() - started

    assert response.status_code == 201, response.content
    assert elapsed < 0.3 + 0.7, elapsed
    assert MemoryItem.objects.get(pk=response.json()["memory"]["id"]).embedding is None


def test_extracted_facts_are_stored_without_vectors_and_backfilled(stub, system_client, chunsim, alice,
        django_capture_on_commit_callbacks):
    stub.extraction = {
        "facts": [{"content": "고향은 부산", "subject": "hometown", "value": "부산", "category": "location",
                   "kind": "semantic", "importance": 7, "explicit": False, "source_message_id": "m1"}],
        "avoid_topics": [], "special_dates": [],
        "identity": {"nickname": "", "honorific": "", "relationship_type": "", "custom_title": ""}}
    stub.embed = "down"
    body = {"conversationId": "c1",
            "messages": [{"id": "m1", "role": "user", "content": "나 고향은 부산이야",
                          "createdAt": "2026-03-01T21:00:00+09:00"}]}

    with django_capture_on_commit_callbacks(execute=True):  # the processing job runs (sync cluster)
        assert system_client.post(MESSAGES, body, format="json").status_code == 202

    fact = MemoryItem.objects.get(user=alice, subject_key="hometown")
    assert (fact.subject_value, fact.embedding) == ("부산", None)
    stub.embed = "ok"
    assert backfill_embeddings_task()["filled"] == 1
    assert_embedded_by_the_stub(fact)


def test_a_memory_the_service_refuses_does_not_block_the_others(stub, system_client, chunsim, alice):
    stub.embed = "down"
    refused = post_memory(system_client, "이 문장은 영영 거절당한다").json()["memory"]["id"]
    fine = post_memory(system_client).json()["memory"]["id"]
    stub.embed = "ok"
    stub.refused_texts = {"이 문장은 영영 거절당한다"}

    assert backfill_embeddings_task() == {"filled": 1, "missing": 1, "failed": False}
    assert_embedded_by_the_stub(MemoryItem.objects.get(pk=fine))
    assert MemoryItem.objects.get(pk=refused).embedding is None


@pytest.mark.django_db
def test_setup_schedules_runs_the_backfill_every_minute():
    call_command("setup_schedules", stdout=io.StringIO())
    schedule = Schedule.objects.get(func="memories.tasks.backfill_embeddings_task")
    assert (schedule.schedule_type, schedule.minutes, schedule.repeats) == (Schedule.MINUTES, 1, -1)
