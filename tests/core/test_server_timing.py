"""Every response reports the time spent in Django as `Server-Timing: app;dur=<ms>` (bench/prompt_latency.py)."""
from __future__ import annotations

import re

import pytest
from django.conf import settings

from core.middleware import RequestTimingMiddleware

SERVER_TIMING = re.compile(r"^app;dur=(\d+\.\d{2})$")


def _duration(response) -> float:
    match = SERVER_TIMING.match(response["Server-Timing"])
    assert match, response["Server-Timing"]
    return float(match.group(1))


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
