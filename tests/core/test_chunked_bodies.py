"""`Transfer-Encoding: chunked` request bodies reach the API through gunicorn, within the body size limit.

gunicorn hands chunked bodies over without CONTENT_LENGTH, and Django alone reads nothing then, so
this is tested against a real gunicorn process on a loopback port, serving the test database.
"""
from __future__ import annotations

import http.client
import json
import os
from urllib.parse import urlsplit, urlunsplit

import environ
import pytest
from django.conf import settings
from django.db import connection

from accounts.models import TokenKind
from accounts.services import api_token_create
from conversations.models import Message
from tests.support.servers import running_gunicorn

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

PATH = "/api/context/chunsim/messages?user=alice"


def _test_database_url() -> str:
    """DATABASE_URL of this process, pointed at the test database pytest-django created."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    head = parts.path.rsplit("/", 1)[0]
    url = urlunsplit(parts._replace(path=f"{head}/{connection.settings_dict['NAME']}"))
    parsed = environ.Env.db_url_config(url)
    for key in ("NAME", "HOST", "PORT"):  # the user differs: the suite runs as the owner, the service as the app role
        assert str(parsed.get(key) or "") == str(connection.settings_dict.get(key) or ""), key
    return url


@pytest.fixture(scope="module")
def gunicorn(django_db_setup, django_db_blocker, tmp_path_factory):
    """A gunicorn on a free loopback port serving the test database (module-wide: it starts in seconds)."""
    with django_db_blocker.unblock():
        database_url = _test_database_url()
    # The local settings queue the processing job (no cluster runs here) instead of running it inside the
    # request as the test settings do: the test is about the request body, and stays fast.
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "config.settings.local",
           "DJANGO_DEBUG": "false", "GIEOK_WARM_UP": "0", "OPENBLAS_NUM_THREADS": "1"}
    with running_gunicorn(env=env, log=tmp_path_factory.mktemp("chunked") / "gunicorn.log", start_within=60,
                          stop_within=15,
                          args=("--timeout", "60", "--graceful-timeout", "5", "--log-level", "warning")) as port:
        yield port


@pytest.fixture
def gunicorn_port(gunicorn, db, characters):
    return gunicorn


def _post_chunked(port: int, token: str, body: bytes, chunk: int = 1000) -> tuple[int, dict, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", PATH, body=(body[i:i + chunk] for i in range(0, len(body), chunk)),
                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                     encode_chunked=True)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), json.loads(response.read() or b"{}")
    finally:
        conn.close()


@pytest.fixture
def token(db, alice):
    return api_token_create(name="chat-backend", kind=TokenKind.SERVICE)[1]


def test_a_chunked_body_is_read_and_accepted(gunicorn_port, token):
    body = json.dumps({"conversationId": "c1", "messages": [
        {"id": "m1", "role": "user", "content": "청크로 보낸 메시지야 " * 50, "createdAt": "2026-03-01T21:00:00+09:00"},
    ]}, ensure_ascii=False).encode()
    assert len(body) > 1000  # really sent in several chunks

    status, _, payload = _post_chunked(gunicorn_port, token, body)

    assert status == 202, payload
    assert payload == {"conversationId": "c1", "accepted": 1, "duplicates": 0, "kept": True}
    assert Message.objects.get(external_id="m1").content.startswith("청크로 보낸 메시지야")


def test_a_chunked_body_over_the_limit_is_413(gunicorn_port, token):
    filler = "가" * (settings.MAX_REQUEST_BODY_BYTES // 3 + 1000)  # 3 bytes each in UTF-8: just over the limit
    body = json.dumps({"conversationId": "c1", "messages": [
        {"id": "m1", "role": "user", "content": filler, "createdAt": "2026-03-01T21:00:00+09:00"}]},
        ensure_ascii=False).encode()
    assert len(body) > settings.MAX_REQUEST_BODY_BYTES

    status, headers, payload = _post_chunked(gunicorn_port, token, body, chunk=16384)

    assert status == 413
    assert headers["Content-Type"] == "application/json"
    assert payload["error"]["code"] == "PAYLOAD_TOO_LARGE"
    assert not Message.objects.exists()
