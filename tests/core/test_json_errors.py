"""Under /api/ every error is the JSON envelope, with DEBUG on or off; a lost database is 503 everywhere."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
RESIDENT_NUMBER = "900101-1234567"

debug_on_and_off = pytest.mark.parametrize("debug", [True, False], ids=["debug", "no-debug"])


def _error(response) -> dict:
    assert response["Content-Type"] == "application/json", response.content[:200]
    return response.json()["error"]


def test_make_run_settings_are_not_debug():
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_DEBUG"}
    result = subprocess.run([sys.executable, "-c", "from config.settings import local; print(local.DEBUG)"],
                            cwd=ROOT, env=env, capture_output=True, text=True, check=True)

    assert result.stdout.strip() == "False"


@debug_on_and_off
def test_unknown_api_path_is_json_404_without_url_listing(settings, db, debug):
    settings.DEBUG = debug

    response = Client().get("/api/nope")

    assert response.status_code == 404
    assert _error(response)["code"] == "NOT_FOUND"
    assert b"URLconf" not in response.content and b"api/context" not in response.content


@debug_on_and_off
def test_wrong_method_is_json_405_with_allow(settings, system_client, debug):
    settings.DEBUG = debug

    response = system_client.delete("/api/accounts/plan?user=alice")

    assert response.status_code == 405
    assert _error(response)["code"] == "METHOD_NOT_ALLOWED"
    assert "PUT" in response["Allow"]


@pytest.mark.urls("tests.core.error_urls")
@debug_on_and_off
def test_wrong_method_of_a_plain_view_is_json_405(settings, debug):
    settings.DEBUG = debug

    response = Client().get("/api/test/post-only")

    assert response.status_code == 405
    assert _error(response)["code"] == "METHOD_NOT_ALLOWED"
    assert response["Allow"] == "POST"


@pytest.mark.urls("tests.core.error_urls")
@debug_on_and_off
def test_unhandled_error_is_json_500_that_echoes_nothing(settings, caplog, debug):
    settings.DEBUG = debug
    caplog.set_level(logging.INFO)

    response = Client(raise_request_exception=False).post("/api/test/boom", {"note": RESIDENT_NUMBER},
                                                          content_type="application/json")

    assert response.status_code == 500
    assert _error(response)["code"] == "INTERNAL_ERROR"
    assert RESIDENT_NUMBER.encode() not in response.content
    assert "RuntimeError" in caplog.text and RESIDENT_NUMBER not in caplog.text


@pytest.mark.urls("tests.core.error_urls")
@debug_on_and_off
@pytest.mark.parametrize("path", ["/api/test/database-gone", "/admin-test/database-gone"])
def test_database_error_is_503_database_unavailable_with_retry_after(settings, debug, path):
    settings.DEBUG = debug

    response = Client(raise_request_exception=False).post(path, {"note": RESIDENT_NUMBER},
                                                          content_type="application/json")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert _error(response)["code"] == "DATABASE_UNAVAILABLE"
    assert RESIDENT_NUMBER.encode() not in response.content
