"""Guessing is throttled: operator sign-ins lock out, failed bearer tokens get 429 (issue 7, item 8).

Sign-ins (django-axes): LOGIN_FAILURE_LIMIT failures for one username from one address lock that pair
out for LOGIN_LOCKOUT_MINUTES, the right password included. Bearer tokens: TOKEN_AUTH_FAILURE_LIMIT
failures from one address within the window give 429 THROTTLED with Retry-After to every token from
that address, a valid one included, until the window ends. Both count in the database, so every
worker and host sees the same counts.
"""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import TokenFailureWindow
from accounts.services import token_failure_record

ATTACKER = "203.0.113.7"
NEIGHBOUR = "198.51.100.20"
CONTEXT_URL = "/api/context/chunsim?user=alice"


# --- operator sign-in ----------------------------------------------------------------------------------

def sign_in(client: Client, password: str, address: str = ATTACKER):
    return client.post("/admin/login/?next=/admin/", {"username": "charlie", "password": password},
                       REMOTE_ADDR=address)


def signed_in(client: Client, address: str = ATTACKER) -> bool:
    return client.get("/admin/", REMOTE_ADDR=address).status_code == 200


def test_thirty_wrong_passwords_then_the_right_one_is_refused(charlie):
    client = Client()
    statuses = [sign_in(client, f"guess-{i}").status_code for i in range(30)]

    response = sign_in(client, "charlie-pass")

    limit = settings.AXES_FAILURE_LIMIT
    assert statuses[: limit - 1] == [200] * (limit - 1)  # the login form again, with an error
    assert set(statuses[limit - 1:]) == {429}
    assert response.status_code == 429
    assert not signed_in(client)
    assert int(response["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    page = response.content.decode()
    assert "Too many failed sign-in attempts" in page and "Try again in 15 minutes" in page
    assert "charlie-pass" not in page and "guess-" not in page


def test_the_lockout_is_for_that_username_from_that_address_only(charlie):
    for i in range(settings.AXES_FAILURE_LIMIT):
        sign_in(Client(), f"guess-{i}")

    elsewhere = Client()
    assert sign_in(elsewhere, "charlie-pass", address=NEIGHBOUR).status_code == 302
    assert signed_in(elsewhere, address=NEIGHBOUR)


def test_the_lockout_ends_after_the_cool_off(charlie):
    client = Client()
    for i in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, f"guess-{i}")
    assert sign_in(client, "charlie-pass").status_code == 429

    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))

    assert sign_in(client, "charlie-pass").status_code == 302
    assert signed_in(client)


def test_a_success_resets_the_count(charlie):
    client = Client()
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        sign_in(client, f"guess-{i}")
    assert sign_in(client, "charlie-pass").status_code == 302
    client.logout()

    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        sign_in(client, f"again-{i}")
    assert sign_in(client, "charlie-pass").status_code == 302


# --- bearer tokens -------------------------------------------------------------------------------------

def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def guess(i: int, address: str = ATTACKER):
    return bearer(f"guessed-token-{i:04d}").get(CONTEXT_URL, REMOTE_ADDR=address)


@pytest.fixture
def valid_token(system_client):
    return system_client._credentials["HTTP_AUTHORIZATION"].split()[1]


def test_two_hundred_guessed_tokens_get_429_with_retry_after(alice, chunsim):
    responses = [guess(i) for i in range(200)]

    limit = settings.TOKEN_AUTH_FAILURE_LIMIT
    assert [r.status_code for r in responses[:limit]] == [401] * limit
    throttled = responses[limit:]
    assert {r.status_code for r in throttled} == {429}
    for response in throttled:
        assert response.json()["error"]["code"] == "THROTTLED"
        assert 0 < int(response["Retry-After"]) <= settings.TOKEN_AUTH_FAILURE_WINDOW_SECONDS
    assert TokenFailureWindow.objects.get(client_address=ATTACKER).failures == limit  # refused ones are not checked


def test_a_locked_out_address_is_refused_even_with_a_valid_token(alice, chunsim, valid_token):
    for i in range(settings.TOKEN_AUTH_FAILURE_LIMIT):
        guess(i)

    response = bearer(valid_token).get(CONTEXT_URL, REMOTE_ADDR=ATTACKER)

    # A guesser must not learn that a guess was right while it is locked out.
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "THROTTLED"


def test_another_address_is_not_affected(alice, chunsim, valid_token):
    for i in range(settings.TOKEN_AUTH_FAILURE_LIMIT + 5):
        guess(i)

    assert bearer(valid_token).get(CONTEXT_URL, REMOTE_ADDR=NEIGHBOUR).status_code == 200
    wrong = guess(999, address=NEIGHBOUR)
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "AUTHENTICATION_FAILED"


def test_the_address_may_try_again_when_the_window_has_passed(alice, chunsim, valid_token):
    for i in range(settings.TOKEN_AUTH_FAILURE_LIMIT):
        guess(i)
    assert bearer(valid_token).get(CONTEXT_URL, REMOTE_ADDR=ATTACKER).status_code == 429

    window = timedelta(seconds=settings.TOKEN_AUTH_FAILURE_WINDOW_SECONDS)
    TokenFailureWindow.objects.update(window_started_at=timezone.now() - window - timedelta(seconds=1))

    assert bearer(valid_token).get(CONTEXT_URL, REMOTE_ADDR=ATTACKER).status_code == 200
    assert guess(1).status_code == 401  # a fresh window: counted from 1 again
    assert TokenFailureWindow.objects.get(client_address=ATTACKER).failures == 1


def test_failures_below_the_limit_do_not_lock_out(alice, chunsim, valid_token):
    for i in range(settings.TOKEN_AUTH_FAILURE_LIMIT - 1):
        guess(i)

    assert bearer(valid_token).get(CONTEXT_URL, REMOTE_ADDR=ATTACKER).status_code == 200


def test_malformed_authorization_headers_count_as_failures(alice, chunsim):
    client = APIClient()
    for i in range(settings.TOKEN_AUTH_FAILURE_LIMIT):
        client.credentials(HTTP_AUTHORIZATION=f"Bearer two parts{i}")
        assert client.get(CONTEXT_URL, REMOTE_ADDR=ATTACKER).status_code == 401

    assert guess(1).status_code == 429


def test_behind_a_trusted_proxy_the_forwarded_address_is_throttled(alice, chunsim, valid_token, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.1"
    for i in range(settings.TOKEN_AUTH_FAILURE_LIMIT):
        bearer(f"guess-{i}").get(CONTEXT_URL, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=f"1.2.3.4, {ATTACKER}")

    # The attacker's forwarded address is locked out; another client behind the same proxy is not, and a
    # client-made X-Forwarded-For entry (left of what the proxy appended) changes nothing.
    assert bearer(valid_token).get(CONTEXT_URL, REMOTE_ADDR=proxy,
                                   HTTP_X_FORWARDED_FOR=f"{NEIGHBOUR}, {ATTACKER}").status_code == 429
    assert bearer(valid_token).get(CONTEXT_URL, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=NEIGHBOUR).status_code == 200


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_concurrent_failures_are_all_counted():
    """Workers on other processes or hosts share the count: one atomic statement per failure, none lost."""
    def fail_ten_times():
        try:
            for _ in range(10):
                token_failure_record(client_address=ATTACKER)
        finally:
            connection.close()

    threads = [threading.Thread(target=fail_ten_times) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert TokenFailureWindow.objects.get(client_address=ATTACKER).failures == 40


# --- no-store ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("method, path, body", [
    ("get", "/api/context/chunsim?user=alice", None),
    ("get", "/api/context/chunsim/memory?user=alice", None),
    ("post", "/api/context/chunsim/prompt?user=alice", {"message": "안녕", "budgetTokens": 500}),
    ("post", "/api/context/chunsim/export?user=alice", None),
    ("get", "/api/v1/memory/load?personaId=chunsim&user=alice", None),
    ("get", "/api/accounts/plan?user=alice", None),
    ("get", "/api/context/nobody?user=alice", None),  # errors too
])
def test_api_responses_are_never_stored_by_caches(system_client, alice, chunsim, method, path, body):
    response = getattr(system_client, method)(path, body, format="json")

    assert response.status_code in (200, 404)
    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"no-store", "private"} <= directives


def test_throttled_and_unauthenticated_responses_are_not_stored_either(alice, chunsim):
    response = guess(1)

    assert response.status_code == 401
    assert "no-store" in response["Cache-Control"]


def test_admin_pages_are_not_stored(charlie):
    client = Client()
    client.force_login(charlie)

    response = client.get("/admin/memories/memoryitem/")

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
