"""Every response reports the time spent in Django as `Server-Timing: app;dur=<ms>` (bench/prompt_latency.py),
then the phases the code marked (core.timing; issue 11 §1)."""
from __future__ import annotations

import re

import pytest
from django.conf import settings

from core.middleware import RequestTimingMiddleware

SERVER_TIMING = re.compile(r"^app;dur=(\d+\.\d{2})(?:, [a-z]+;dur=\d+\.\d{2})*$")
PHASE = re.compile(r"([a-z]+);dur=(\d+\.\d{2})")


def _duration(response) -> float:
    match = SERVER_TIMING.match(response["Server-Timing"])
    assert match, response["Server-Timing"]
    return float(match.group(1))


def _phases(response) -> dict[str, float]:
    return {name: float(ms) for name, ms in PHASE.findall(response["Server-Timing"])}


def test_timing_middleware_is_first():
    assert settings.MIDDLEWARE[0] == "core.middleware.RequestTimingMiddleware"


@pytest.mark.django_db
def test_success_reports_server_time(system_client, chunsim):
    response = system_client.get("/api/context/chunsim?user=alice")
    assert response.status_code == 200
    assert _duration(response) >= 0.0
    assert response["X-Request-ID"]  # the other middleware still runs


@pytest.mark.django_db
def test_prompt_reports_server_time(system_client, chunsim):
    response = system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "안녕"}, format="json")
    assert response.status_code == 200
    assert _duration(response) > 0.0


@pytest.mark.django_db
def test_errors_report_server_time_too(anon_client, system_client, chunsim):
    assert _duration(anon_client.get("/api/context/chunsim")) >= 0.0  # 401
    assert _duration(system_client.get("/api/context/no-such-character?user=alice")) >= 0.0  # 404
    too_big = "x" * (settings.MAX_REQUEST_BODY_BYTES + 1)
    response = system_client.post("/api/context/chunsim/prompt?user=alice", {"message": too_big}, format="json")
    assert response.status_code == 413
    assert _duration(response) >= 0.0


def test_duration_covers_the_inner_handler(rf):
    import time

    from django.http import HttpResponse

    def slow(_request):
        time.sleep(0.02)
        return HttpResponse("ok")

    response = RequestTimingMiddleware(slow)(rf.get("/"))
    assert 20.0 <= _duration(response) < 1000.0


@pytest.mark.django_db
def test_the_prompt_reports_its_phases_and_they_add_up_to_at_most_the_whole(system_client, post_turns, chunsim, alice):
    post_turns("c1", ("t1u", "나 요즘 망원동 살아"), ("t1a", "오 망원동!"))
    response = system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "나 어디 살지?"}, format="json")
    assert response.status_code == 200
    phases = _phases(response)
    app = phases.pop("app")
    assert {"auth", "scope", "fresh", "embedding", "render", "sql", "decrypt"} <= set(phases), phases
    assert sum(phases.values()) <= app + 0.05 * len(phases)  # exclusive phases (rounding to 0.01 ms each)


def test_nested_phases_are_exclusive_and_nothing_is_collected_outside_a_request():
    import time

    from core import timing

    with timing.phase("outside"):  # no request: runs, records nothing
        pass
    token = timing.begin()
    with timing.phase("outer"):
        time.sleep(0.02)
        with timing.phase("inner"):
            time.sleep(0.03)
    phases = timing.end(token)
    assert list(phases) == ["inner", "outer"]
    assert phases["inner"] >= 30.0 and 20.0 <= phases["outer"] < 45.0  # counted once: outer alone would be >= 50
    assert timing.server_timing(12.345, phases).startswith("app;dur=12.35, inner;dur=")


@pytest.mark.django_db
def test_posting_into_a_conversation_in_progress_reports_its_phases_in_few_statements(
        system_client, chunsim, alice, django_assert_max_num_queries):
    """Issue 11 §2: the chat backend waits for this on every turn. An existing conversation is found with one
    locking SELECT (no layers lookup, no savepoints of a get-or-create); 11 statements in all in a test, where the
    outer transaction adds a savepoint pair: token window, token, subject, character, memory settings, conversation,
    known ids, insert, update."""
    def body(tag):
        return {"conversationId": "c1", "messages": [
            {"id": f"{tag}1", "role": "user", "content": "나 요즘 망원동 살아", "createdAt": f"2026-03-01T2{tag}:00:00+09:00"},
            {"id": f"{tag}2", "role": "assistant", "content": "오 망원동!", "createdAt": f"2026-03-01T2{tag}:00:01+09:00"}]}

    assert system_client.post("/api/context/chunsim/messages?user=alice", body("1"), format="json").status_code == 202
    with django_assert_max_num_queries(11):
        response = system_client.post("/api/context/chunsim/messages?user=alice", body("2"), format="json")
    assert response.status_code == 202 and response.json()["accepted"] == 2
    assert {"auth", "scope", "mask", "store"} <= set(_phases(response)), response["Server-Timing"]
