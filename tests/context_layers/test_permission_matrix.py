"""Who may call which context endpoint: the role matrix of accounts.access, end to end.

Callers: nobody (anonymous), alice on her own data (self), bob asking for alice (another user),
the chat backend with ?user=alice (system) and charlie the operator with ?user=alice (admin).
Allowed calls must succeed *and* take effect; denied calls must fail with a stable code and
leave alice's scope exactly as it was.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone as django_timezone

from accounts.models import ApiToken, Plan, TokenKind
from accounts.services import api_token_create
from audit.models import AuditLog
from audit.services import SYSTEM_CONTEXT
from context_layers.models import UserActivity, UserContext
from context_layers.services import layer_put
from memories.categories import MemoryCategory
from memories.models import MemoryItem
from memories.services import MemoryInput, memory_create

EXISTING_MEMORY = "고양이 '나비'를 키움"
STORED_TOOLS = {"avoidTopics": ["시험"]}

HEARTBEAT = {"lastSeenAt": "2026-02-05T10:30:00Z", "recentDaysCount": 3}
HEARTBEAT_STORED = {"lastSeenAt": "2026-02-05T10:30:00.000Z", "recentDaysCount": 3}  # the API's one time form
IDENTITY = {"nickname": "앨리스", "honorific": "반말"}
SOUL = {"values": ["가족"]}
TOOLS = {"avoidTopics": ["정치"]}
NEW_MEMORY = {"content": "떡볶이를 좋아함", "category": "preference", "importance": 6}


@dataclass(frozen=True)
class Scope:
    user: object
    character: object
    memory: MemoryItem


@pytest.fixture
def scope(premium, chunsim) -> Scope:
    """Alice on PREMIUM (so soul writes can succeed) with one memory and a stored tools layer."""
    memory, _ = memory_create(user=premium, character=chunsim, context=SYSTEM_CONTEXT,
                              data=MemoryInput(content=EXISTING_MEMORY, category=MemoryCategory.PERSON, importance=7))
    layer_put(user=premium, character=chunsim, layer="tools", document=STORED_TOOLS, context=SYSTEM_CONTEXT)
    return Scope(user=premium, character=chunsim, memory=memory)


def stored_context(scope: Scope) -> UserContext | None:
    return UserContext.objects.filter(user=scope.user, character=scope.character).first()


def scope_state(scope: Scope) -> dict:
    """Return everything a request could change: memories, layer documents, activity, audit rows."""
    ctx = stored_context(scope)
    return {
        "memories": [
            (item.pk, item.content, item.category, item.importance, item.is_active, item.archived_at)
            for item in MemoryItem.objects.filter(user=scope.user, character=scope.character).order_by("pk")
        ],
        "layers": None if ctx is None else {
            "heartbeat": ctx.heartbeat, "identity": ctx.identity, "soul": ctx.soul, "tools": ctx.tools,
            "last_seen_at": ctx.last_seen_at,
        },
        "activity": UserActivity.objects.filter(user=scope.user).exists(),
        "audit_rows": AuditLog.objects.count(),
    }


# --- what a successful call must have done -------------------------------------------------------------

def _context_was_read(response, caller: str, scope: Scope) -> None:
    body = response.json()
    assert body["characterId"] == "chunsim"
    assert body["plan"] == Plan.PREMIUM
    assert body["memoryCount"] == 1
    assert body["tools"] == STORED_TOOLS


def _context_was_deleted(response, caller: str, scope: Scope) -> None:
    assert response.json() == {"characterId": "chunsim",
                               "deleted": {"memories": 1, "layers": 1, "messages": 0, "summaries": 0,
                                           "relationships": 0}}
    assert not MemoryItem.objects.filter(user=scope.user, character=scope.character).exists()
    assert stored_context(scope) is None


def _heartbeat_was_stored(response, caller: str, scope: Scope) -> None:
    ctx = stored_context(scope)
    assert ctx.heartbeat == HEARTBEAT_STORED
    assert ctx.last_seen_at == datetime(2026, 2, 5, 10, 30, tzinfo=timezone.utc)
    assert response.json() == HEARTBEAT_STORED


def _identity_was_stored(response, caller: str, scope: Scope) -> None:
    # An end user's own values and the system's inferred values are kept apart.
    slot = "inferred" if caller == "system" else "userSet"
    assert stored_context(scope).identity == {slot: IDENTITY}
    assert response.json() == IDENTITY


def _soul_was_stored(response, caller: str, scope: Scope) -> None:
    assert stored_context(scope).soul == SOUL
    assert response.json() == SOUL


def _tools_were_stored(response, caller: str, scope: Scope) -> None:
    assert stored_context(scope).tools == TOOLS
    assert response.json() == TOOLS


def _memories_were_listed(response, caller: str, scope: Scope) -> None:
    body = response.json()
    assert body["total"] == 1
    assert [(item["id"], item["content"]) for item in body["memories"]] == [(scope.memory.pk, EXISTING_MEMORY)]


def _memory_was_created(response, caller: str, scope: Scope) -> None:
    assert response.json()["created"] is True
    created = MemoryItem.objects.get(pk=response.json()["memory"]["id"])
    assert (created.user_id, created.character_id) == (scope.user.pk, scope.character.pk)
    assert (created.content, created.category, created.importance) == ("떡볶이를 좋아함", "preference", 6)
    assert MemoryItem.objects.filter(user=scope.user, character=scope.character).count() == 2


def _memory_was_deleted(response, caller: str, scope: Scope) -> None:
    assert not MemoryItem.objects.filter(pk=scope.memory.pk).exists()


def _scope_was_exported(response, caller: str, scope: Scope) -> None:
    body = response.json()
    assert body["characterId"] == "chunsim"
    assert EXISTING_MEMORY in body["documents"]["memory.md"]
    assert AuditLog.objects.filter(action="exported", target_user_ref="alice", character_slug="chunsim").count() == 1


# --- the matrix ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str  # after /api/context/chunsim; {memory_id} is alice's existing memory
    allowed: frozenset[str]
    success_status: int
    assert_effect: Callable
    body: dict | None = None
    query: dict = field(default_factory=dict)


ENDPOINTS = {
    "get_context": Endpoint("GET", "", frozenset({"self", "system", "admin"}), 200, _context_was_read),
    "delete_context": Endpoint("DELETE", "", frozenset({"self", "system"}), 200, _context_was_deleted,
                               query={"confirm": "true"}),
    "put_heartbeat": Endpoint("PUT", "/heartbeat", frozenset({"system"}), 200, _heartbeat_was_stored, HEARTBEAT),
    "put_identity": Endpoint("PUT", "/identity", frozenset({"self", "system"}), 200, _identity_was_stored, IDENTITY),
    "put_soul": Endpoint("PUT", "/soul", frozenset({"system"}), 200, _soul_was_stored, SOUL),
    "put_tools": Endpoint("PUT", "/tools", frozenset({"self", "system", "admin"}), 200, _tools_were_stored, TOOLS),
    "get_memory": Endpoint("GET", "/memory", frozenset({"self", "system", "admin"}), 200, _memories_were_listed),
    "post_memory": Endpoint("POST", "/memory", frozenset({"system"}), 201, _memory_was_created, NEW_MEMORY),
    "delete_memory": Endpoint("DELETE", "/memory/{memory_id}", frozenset({"self", "system", "admin"}), 204,
                              _memory_was_deleted),
    "post_export": Endpoint("POST", "/export", frozenset({"self", "system", "admin"}), 200, _scope_was_exported),
}

# caller -> (client fixture, query naming the subject)
CALLERS = {
    "anonymous": ("anon_client", {"user": "alice"}),
    "self": ("alice_client", {}),
    "other_user": ("bob_client", {"user": "alice"}),
    "system": ("system_client", {"user": "alice"}),
    "admin": ("admin_client_api", {"user": "alice"}),
}

# Why a caller outside an endpoint's `allowed` set is turned away.
DENIALS = {
    "anonymous": (401, "NOT_AUTHENTICATED"),
    "other_user": (403, "NOT_YOUR_DATA"),
    "self": (403, "ROLE_NOT_ALLOWED"),
    "admin": (403, "ROLE_NOT_ALLOWED"),
}

ALLOWED_CELLS = [(e, c) for e in ENDPOINTS for c in CALLERS if c in ENDPOINTS[e].allowed]
DENIED_CELLS = [(e, c) for e in ENDPOINTS for c in CALLERS if c not in ENDPOINTS[e].allowed]


def send(client, endpoint: Endpoint, scope: Scope, query: dict):
    path = f"/api/context/chunsim{endpoint.path.format(memory_id=scope.memory.pk)}"
    params = {**endpoint.query, **query}
    if params:
        path = f"{path}?{urlencode(params)}"
    return getattr(client, endpoint.method.lower())(path, endpoint.body, format="json")


def assert_error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code


def test_matrix_covers_every_endpoint_and_caller():
    assert len(ALLOWED_CELLS) + len(DENIED_CELLS) == len(ENDPOINTS) * len(CALLERS) == 50
    assert all(caller != "system" for _, caller in DENIED_CELLS)
    assert all(caller not in ("anonymous", "other_user") for _, caller in ALLOWED_CELLS)


@pytest.mark.parametrize(("endpoint_name", "caller"), ALLOWED_CELLS, ids=[f"{e}-{c}" for e, c in ALLOWED_CELLS])
def test_allowed_caller_succeeds_and_the_change_happens(request, scope, endpoint_name, caller):
    endpoint = ENDPOINTS[endpoint_name]
    client_fixture, query = CALLERS[caller]
    response = send(request.getfixturevalue(client_fixture), endpoint, scope, query)
    assert response.status_code == endpoint.success_status, response.content
    endpoint.assert_effect(response, caller, scope)


@pytest.mark.parametrize(("endpoint_name", "caller"), DENIED_CELLS, ids=[f"{e}-{c}" for e, c in DENIED_CELLS])
def test_denied_caller_gets_a_coded_error_and_nothing_changes(request, scope, endpoint_name, caller):
    endpoint = ENDPOINTS[endpoint_name]
    client_fixture, query = CALLERS[caller]
    client = request.getfixturevalue(client_fixture)
    before = scope_state(scope)
    response = send(client, endpoint, scope, query)
    assert_error(response, *DENIALS[caller])
    assert scope_state(scope) == before


# --- the edges of each role ----------------------------------------------------------------------------

@pytest.mark.parametrize("endpoint_name", ENDPOINTS)
def test_system_without_user_param_is_400_user_required(system_client, scope, endpoint_name):
    before = scope_state(scope)
    response = send(system_client, ENDPOINTS[endpoint_name], scope, {})
    assert_error(response, 400, "USER_REQUIRED")
    assert "user" in response.json()["error"]["fields"]
    assert scope_state(scope) == before


@pytest.mark.parametrize("endpoint_name", ENDPOINTS)
def test_system_naming_a_staff_account_is_403(system_client, charlie, scope, endpoint_name):
    before = scope_state(scope)
    response = send(system_client, ENDPOINTS[endpoint_name], scope, {"user": "charlie"})
    assert_error(response, 403, "NOT_AN_END_USER")
    assert scope_state(scope) == before
    assert not UserContext.objects.filter(user=charlie).exists()
    assert not MemoryItem.objects.filter(user=charlie).exists()


@pytest.mark.parametrize("endpoint_name", [e for e in ENDPOINTS if "self" in ENDPOINTS[e].allowed])
def test_end_user_naming_their_own_id_is_served(alice_client, scope, endpoint_name):
    endpoint = ENDPOINTS[endpoint_name]
    response = send(alice_client, endpoint, scope, {"user": "alice"})
    assert response.status_code == endpoint.success_status, response.content
    endpoint.assert_effect(response, "self", scope)


@pytest.mark.parametrize("kind", [TokenKind.USER, TokenKind.SERVICE])
def test_revoked_token_is_401(anon_client, scope, kind):
    token, plain = api_token_create(name=f"revoked-{kind}", kind=kind, user=scope.user if kind == TokenKind.USER else None)
    anon_client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    assert anon_client.get("/api/context/chunsim?user=alice").status_code == 200

    ApiToken.objects.filter(pk=token.pk).update(revoked_at=django_timezone.now())
    response = anon_client.get("/api/context/chunsim?user=alice")
    assert_error(response, 401, "AUTHENTICATION_FAILED")


@pytest.mark.parametrize(("endpoint_name", "action", "object_type"), [
    ("get_context", "viewed", "context_scope"),
    ("get_memory", "viewed", "memory_list"),
    ("post_export", "exported", "context_scope"),
])
def test_admin_reads_are_audited(admin_client_api, charlie, scope, endpoint_name, action, object_type):
    already = set(AuditLog.objects.values_list("pk", flat=True))
    response = send(admin_client_api, ENDPOINTS[endpoint_name], scope, {"user": "alice"})
    assert response.status_code == 200, response.content
    new_rows = list(AuditLog.objects.exclude(pk__in=already))
    assert len(new_rows) == 1
    row = new_rows[0]
    assert (row.action, row.object_type, row.target_user_ref, row.character_slug) == (
        action, object_type, "alice", "chunsim")
    assert row.actor_label.startswith("admin:")
    assert row.actor_id == charlie.pk


@pytest.mark.parametrize("endpoint_name", ["get_context", "get_memory"])
def test_self_reads_write_no_audit_row(alice_client, scope, endpoint_name):
    before = AuditLog.objects.count()
    response = send(alice_client, ENDPOINTS[endpoint_name], scope, {})
    assert response.status_code == 200, response.content
    assert AuditLog.objects.count() == before


@pytest.fixture
def staff_outside_admin_group(db):
    """Staff (even superuser) without the context-admin group: not an operator of user data."""
    dave = get_user_model().objects.create_user("dave", password="dave-pass", is_staff=True, is_superuser=True)
    return dave


@pytest.mark.parametrize("endpoint_name", ENDPOINTS)
def test_staff_outside_context_admin_group_is_not_an_end_user(anon_client, staff_outside_admin_group, scope,
                                                             endpoint_name):
    anon_client.force_login(staff_outside_admin_group)
    before = scope_state(scope)
    response = send(anon_client, ENDPOINTS[endpoint_name], scope, {})
    assert_error(response, 403, "NOT_AN_END_USER")
    assert scope_state(scope) == before


def test_staff_outside_context_admin_group_cannot_name_another_user(anon_client, staff_outside_admin_group, scope):
    anon_client.force_login(staff_outside_admin_group)
    before = scope_state(scope)
    response = anon_client.get("/api/context/chunsim?user=alice")
    assert_error(response, 403, "NOT_YOUR_DATA")
    assert scope_state(scope) == before
