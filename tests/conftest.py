"""Shared fixtures: the healthchecks trio (alice, bob, charlie the operator) and a system client."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import CONTEXT_ADMIN_GROUP, Plan, TokenKind
from accounts.services import api_token_create, end_user_get_or_create
from characters.models import Character
from context_layers.demo import load_characters


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Browser tests last (after pytest-django's own ordering). Once Playwright's sync API has run in the process,
    a transactional test's serialized rollback no longer restores the migrations' rows (plans, groups) for the
    tests after it, so no database test may follow them; tests/browser seeds those rows itself."""
    items.sort(key=lambda item: item.nodeid.startswith("tests/browser/"))


@pytest.fixture
def characters(db):
    load_characters()
    return {c.slug: c for c in Character.objects.all()}


@pytest.fixture
def chunsim(characters):
    return characters["chunsim"]


@pytest.fixture
def sora(characters):
    return characters["sora"]


def _bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def alice(db):
    return end_user_get_or_create(external_id="alice")


@pytest.fixture
def bob(db):
    return end_user_get_or_create(external_id="bob")


@pytest.fixture
def charlie(db):
    """An operator: staff in the context-admin group."""
    user = get_user_model().objects.create_user("charlie", password="charlie-pass", is_staff=True, is_superuser=True)
    user.groups.add(Group.objects.get_or_create(name=CONTEXT_ADMIN_GROUP)[0])
    return user


@pytest.fixture
def alice_client(alice):
    _, plain = api_token_create(name="alice-app", kind=TokenKind.USER, user=alice)
    return _bearer(plain)


@pytest.fixture
def bob_client(bob):
    _, plain = api_token_create(name="bob-app", kind=TokenKind.USER, user=bob)
    return _bearer(plain)


@pytest.fixture
def system_client(db):
    _, plain = api_token_create(name="chat-backend", kind=TokenKind.SERVICE)
    return _bearer(plain)


@pytest.fixture
def admin_client_api(charlie):
    client = APIClient(enforce_csrf_checks=False)
    client.force_login(charlie)
    return client


@pytest.fixture
def operator(charlie):
    """The operator's browser session for the admin and console pages (Django's test client, logged in)."""
    client = Client()
    client.force_login(charlie)
    return client


@pytest.fixture
def anon_client():
    return APIClient()


@pytest.fixture
def premium(alice):
    from accounts.models import UserPlan

    UserPlan.objects.filter(user=alice).update(plan=Plan.PREMIUM)
    return alice


@pytest.fixture
def post_turns(system_client, django_capture_on_commit_callbacks):
    """Post chat messages for alice and chunsim as a chat backend would, leaving processing to the next prompt
    request: post_turns("c1", ("t1u", "user text"), ("t1a", "character reply"), start="…+09:00").
    An id ending in "a" is the character's turn; messages are one second apart from `start`."""
    def _post(conversation, *pairs, start="2026-03-01T21:00:00+09:00"):
        at = datetime.fromisoformat(start)
        messages = [{"id": mid, "role": "assistant" if mid.endswith("a") else "user", "content": text,
                     "createdAt": (at + timedelta(seconds=index)).isoformat()} for index, (mid, text) in enumerate(pairs)]
        with django_capture_on_commit_callbacks(execute=False):
            response = system_client.post("/api/context/chunsim/messages?user=alice",
                                          {"conversationId": conversation, "messages": messages}, format="json")
        assert response.status_code == 202, response.content
    return _post
