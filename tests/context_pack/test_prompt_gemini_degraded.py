"""POST prompt with Gemini on and Gemini failing: never a 500, never a wait past the deadline (issue 7 item 12).

The real google-genai client talks to tests/stub.py; the embedding endpoint or generateContent
answers 503 or hangs. The prompt then ranks by words, or — when the pending messages cannot be
processed within PROMPT_REMOTE_DEADLINE_MS — answers with what is stored plus their masked text and
`fresh: false`, leaving them to the cluster.
"""
from __future__ import annotations

import time

import pytest
from django.test import override_settings

from audit.services import AuditContext
from conversations.models import Message
from conversations.tasks import process_scope_task
from memories.services import MemoryInput, memory_create
from memories.warmup import warm_up_models
from tests.gemini_stub import running_stub

CONTEXT = AuditContext(actor_label="test", trigger="system")
PROMPT = "/api/context/chunsim/prompt?user=alice"
MESSAGES = "/api/context/chunsim/messages?user=alice"
DEADLINE_S = 0.3  # PROMPT_REMOTE_DEADLINE_MS's default
MARGIN_S = 0.7  # the rest of the request: retrieval, budgets, a loaded machine


@pytest.fixture
def stub():
    with running_stub() as gemini:
        yield gemini


@pytest.fixture(autouse=True)
def models():
    warm_up_models()  # as the server does at start: model loading is not part of any timed request


def remember(user, character, content, **kwargs):
    item, _ = memory_create(user=user, character=character, context=CONTEXT,
                            data=MemoryInput(content=content, **kwargs))
    return item


def unrelated_memories(user, character, count=70):
    """Important memories that share no word with the question, more than the budget can hold."""
    for i in range(count):
        remember(user, character, f"일화 {i}: 주말마다 공원에서 자전거를 타고 강아지와 산책했다", importance=9)


def timed_prompt(client, message):
    started = time.monotonic()
    response = client.post(PROMPT, {"message": message}, format="json")
    return response, time.monotonic() - started


def post_pending(client, *messages):
    """Store messages without running their processing job (as if the cluster had not got to them)."""
    body = {"conversationId": "c1", "messages": [
        {"id": mid, "role": role, "content": text, "createdAt": f"2026-03-01T21:00:0{i}+09:00"}
        for i, (mid, role, text) in enumerate(messages)]}
    response = client.post(MESSAGES, body, format="json")
    assert response.status_code == 202, response.content


def test_embedding_service_down_the_prompt_ranks_by_words(stub, system_client, chunsim, alice):
    unrelated_memories(alice, chunsim)
    stub.embed = "down"
    wanted = remember(alice, chunsim, "제일 좋아하는 음식은 떡볶이", importance=3)
    assert wanted.embedding is None  # stored anyway (see tests/memories/test_embedding_backfill.py)
    embeds_before = stub.count("embed")

    response, _ = timed_prompt(system_client, "내가 제일 좋아하는 음식 뭐였지?")

    assert response.status_code == 200, response.content
    block = response.json()
    assert stub.count("embed") > embeds_before  # the message's embedding was tried, and failed
    assert "떡볶이" in block["text"]
    assert wanted.pk in [entry["id"] for entry in block["layers"]["memory"]["items"]]
    assert block["fresh"] is True


def test_embedding_service_hanging_the_prompt_answers_within_the_deadline(stub, system_client, chunsim, alice):
    unrelated_memories(alice, chunsim)
    remember(alice, chunsim, "제일 좋아하는 음식은 떡볶이", importance=3)  # embedded: the endpoint is fine
    stub.embed = "hang"

    response, elapsed = timed_prompt(system_client, "내가 제일 좋아하는 음식 뭐였지?")

    assert response.status_code == 200, response.content
    assert elapsed < DEADLINE_S + MARGIN_S, elapsed
    assert stub.count("embed") >= 1
    assert "떡볶이" in response.json()["text"]


def test_slow_generate_content_gives_stored_memories_and_the_pending_masked_text(stub, system_client, chunsim, alice):
    remember(alice, chunsim, "강아지 이름은 초코", subject_key="pet_name", subject_value="초코", importance=7)
    stub.generate = "hang"
    post_pending(system_client, ("m1", "assistant", "요즘 어디 살아?"),
                 ("m2", "user", "나 이제 신촌 살아. 번호 바뀌었어 010-4821-7753"))

    response, elapsed = timed_prompt(system_client, "나 요즘 어디 산다고 했지?")

    assert response.status_code == 200, response.content
    assert elapsed < DEADLINE_S + MARGIN_S, elapsed
    block = response.json()
    assert block["fresh"] is False
    text = block["text"]
    assert "신촌" in text  # the pending message, as stored: masked
    assert "4821" not in text and "7753" not in text
    assert "초코" in text  # and what was stored before
    assert "요즘 어디 살아?" not in text  # only what the user said
    # Nothing half-done: the message is still pending for the cluster, whose job then processes it.
    assert Message.objects.get(external_id="m2").processed_at is None
    stub.generate = "ok"
    process_scope_task(alice.pk, chunsim.pk)
    assert Message.objects.filter(processed_at__isnull=True).count() == 0


def test_gemini_outage_the_prompt_does_not_sleep_through_retry_backoff(stub, system_client, chunsim, alice):
    stub.generate = stub.embed = "down"
    remember(alice, chunsim, "제일 좋아하는 음식은 떡볶이", importance=3)
    post_pending(system_client, ("m1", "user", "나 고향은 부산이야"))

    with override_settings(GEMINI_RETRY_BASE_DELAY=1.0):  # production's backoff: 1 s, then 2 s
        response, elapsed = timed_prompt(system_client, "좋아하는 음식 기억나?")

    assert response.status_code == 200, response.content
    assert elapsed < DEADLINE_S + MARGIN_S, elapsed
    block = response.json()
    assert block["fresh"] is False
    assert "부산" in block["text"] and "떡볶이" in block["text"]
    assert Message.objects.get(external_id="m1").processed_at is None


def test_without_a_key_the_prompt_is_unchanged(system_client, chunsim, alice):
    post_pending(system_client, ("m1", "user", "나 고향은 부산이야"))
    response, _ = timed_prompt(system_client, "내 고향 어디라고 했지?")
    block = response.json()
    assert block["fresh"] is True
    assert "부산" in block["text"]
    assert "아직 기억으로 정리 전" not in block["text"]
    assert Message.objects.get(external_id="m1").processed_at is not None
