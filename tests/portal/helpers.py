"""Shared steps of the portal tests: a chat backend opens a portal session and the user follows the link."""
from __future__ import annotations

from urllib.parse import urlsplit

from django.test import Client

from audit.services import AuditContext
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")


def remember(user, character, content, **kwargs):
    item, _ = memory_create(user=user, character=character, context=CONTEXT, data=MemoryInput(content=content, **kwargs))
    return item


def open_portal(system_client, user="alice", **body):
    """POST /api/accounts/portal-sessions as the chat backend; return the response JSON."""
    response = system_client.post(f"/api/accounts/portal-sessions?user={user}", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def signed_in(system_client, user="alice", **body) -> tuple[Client, object]:
    """A browser that followed a fresh portal link (CSRF enforced like a real browser); return it and the
    landing response."""
    client = Client(enforce_csrf_checks=True)
    landing = client.get(urlsplit(open_portal(system_client, user, **body)["url"]).path)
    return client, landing


def csrf_post(client: Client, path: str, data=None):
    """POST a form the way the page does: with the CSRF token of the signed-in session."""
    if "csrftoken" not in client.cookies:
        client.get("/me/settings")  # any page with a form sets the cookie
    return client.post(path, {**(data or {}), "csrfmiddlewaretoken": client.cookies["csrftoken"].value})


def prompt_text(system_client, message="나에 대해 뭐 기억해?", character="chunsim", user="alice") -> str:
    response = system_client.post(f"/api/context/{character}/prompt?user={user}", {"message": message}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["text"]
