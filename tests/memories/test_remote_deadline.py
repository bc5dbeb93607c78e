"""memories.deadline: calls made inside a deadline share it, and nothing waits past it.

The Gemini side goes through the real google-genai client and a fake transport (test_gemini_extractor).
"""
from __future__ import annotations

import time

import pytest

from memories.deadline import DeadlineExceeded, remaining_ms, remote_deadline
from memories.embeddings import GeminiEmbedder
from memories.extraction.gemini import GeminiExtractor, GeminiUnavailable, call_with_retries, gemini_pii_check

from .test_gemini_extractor import EXISTING, MODEL, TURNS, FakeGemini, RecordingFallback, error_reply


def test_no_deadline_outside_a_block_and_nested_blocks_keep_the_earlier_end():
    assert remaining_ms() is None
    with remote_deadline(300):
        assert 250 < remaining_ms() <= 300
        with remote_deadline(10_000):  # an inner block never extends the outer budget
            assert remaining_ms() <= 300
        with remote_deadline(50):
            assert remaining_ms() <= 50
        assert remaining_ms() > 50
    assert remaining_ms() is None
    with remote_deadline(None):
        assert remaining_ms() is None


def test_retry_backoff_that_would_pass_the_deadline_is_not_slept():
    calls = []

    def failing():
        calls.append(1)
        raise _server_error()

    started = time.monotonic()
    with remote_deadline(300), pytest.raises(DeadlineExceeded):
        call_with_retries(failing, name="op", retries=3, base_delay=1.0)
    assert time.monotonic() - started < 0.2
    assert len(calls) == 1


def test_outside_a_deadline_retries_and_gives_up_as_before():
    with pytest.raises(GeminiUnavailable):
        call_with_retries(lambda: (_ for _ in ()).throw(_server_error()), name="op", retries=3, base_delay=0)


def test_each_request_times_out_at_what_is_left_of_the_deadline():
    fake = FakeGemini(error_reply(503))
    embedder = GeminiEmbedder(client=fake.client, base_delay=0)
    with remote_deadline(300), pytest.raises(GeminiUnavailable):
        embedder.embed(["하나"])
    timeouts = [request.extensions["timeout"]["read"] for request in fake.requests]
    assert len(timeouts) == 3 and all(0 < t <= 0.3 for t in timeouts)
    assert timeouts == sorted(timeouts, reverse=True)  # one shrinking budget


def test_a_passed_deadline_sends_nothing():
    fake = FakeGemini(error_reply(503))
    with remote_deadline(0), pytest.raises(DeadlineExceeded):
        GeminiEmbedder(client=fake.client, base_delay=0).embed(["하나"])
    assert fake.calls == 0


def test_inside_a_deadline_extraction_and_pii_check_do_not_fall_back():
    """Inline, giving up beats a degraded result: the worker retries with the full backoff later."""
    fallback = RecordingFallback()
    fake = FakeGemini(error_reply(503))
    with remote_deadline(300), pytest.raises(DeadlineExceeded):
        GeminiExtractor(client=fake.client, model=MODEL, base_delay=1.0, fallback=fallback).extract(
            turns=TURNS, existing=EXISTING)
    assert fallback.calls == []
    with remote_deadline(300), pytest.raises(DeadlineExceeded):
        gemini_pii_check(FakeGemini(error_reply(503)).client, "서울시 마포구 123", base_delay=1.0)


def _server_error():
    from google.genai import errors

    return errors.ServerError(503, {"error": {"code": 503, "message": "x", "status": "UNAVAILABLE"}})
