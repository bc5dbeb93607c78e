"""Reads never create anything; a deactivated end user is served to nobody (issue 7, item 7).

A system client naming a user this service has never seen reads exactly what a known user with nothing
stored reads, and afterwards no row of any model exists that was not there before. Only the endpoints
that store something create the user. A deactivated user gets 403 USER_INACTIVE from every endpoint.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.support.errors import error_code
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import override_settings

from accounts.models import Plan, UserPlan
from accounts.services import end_user_get_or_create
from audit.services import SYSTEM_CONTEXT
from context_layers.models import UserContext
from context_layers.services import layer_put
from memories.models import MemoryItem
from memories.services import MemoryInput, memory_create

PROMPT = {"message": "오늘 저녁에 뭐 먹었는지 기억나?", "budgetTokens": 1100}


@dataclass(frozen=True)
class Call:
    method: str
    path: str  # {user} is filled in
    body: dict | None = None


# Every endpoint a system client can call that stores nothing.
READS = {
    "get_context": Call("GET", "/api/context/chunsim?user={user}"),
    "get_memory": Call("GET", "/api/context/chunsim/memory?user={user}"),
    "get_memory_archived": Call("GET", "/api/context/chunsim/memory?user={user}&includeArchived=true&category=person"),
    "get_conversation": Call("GET", "/api/context/chunsim/conversations/c1?user={user}"),
    "end_conversation": Call("POST", "/api/context/chunsim/conversations/c1/end?user={user}"),
    "post_prompt": Call("POST", "/api/context/chunsim/prompt?user={user}", PROMPT),
    "post_prompt_situation": Call("POST", "/api/context/chunsim/prompt?user={user}",
                                  {**PROMPT, "situation": "deep_talk"}),
    "get_memory_load": Call("GET", "/api/v1/memory/load?personaId=chunsim&limit=5&user={user}"),
    "get_plan": Call("GET", "/api/accounts/plan?user={user}"),
    "post_export": Call("POST", "/api/context/chunsim/export?user={user}"),
    "delete_context": Call("DELETE", "/api/context/chunsim?user={user}&confirm=true"),
    "delete_memory": Call("DELETE", "/api/context/chunsim/memory/1?user={user}"),
}

# Every endpoint that stores something: these create the user on first sight.
WRITES = {
    "post_messages": Call("POST", "/api/context/chunsim/messages?user={user}", {
        "conversationId": "c1",
        "messages": [{"id": "m1", "role": "user", "content": "나 떡볶이 좋아해",
                      "createdAt": "2026-03-02T22:00:00+09:00"}]}),
    "put_heartbeat": Call("PUT", "/api/context/chunsim/heartbeat?user={user}", {"recentDaysCount": 1}),
    "put_identity": Call("PUT", "/api/context/chunsim/identity?user={user}", {"nickname": "떡볶이"}),
    "put_soul": Call("PUT", "/api/context/chunsim/soul?user={user}", {"values": ["가족"]}),
    "put_tools": Call("PUT", "/api/context/chunsim/tools?user={user}", {"avoidTopics": ["시험"]}),
    "post_memory": Call("POST", "/api/context/chunsim/memory?user={user}",
                        {"content": "떡볶이를 좋아함", "category": "preference", "importance": 6}),
    "put_plan": Call("PUT", "/api/accounts/plan?user={user}", {"plan": "PREMIUM"}),
}


def send(client, call: Call, user: str):
    return getattr(client, call.method.lower())(call.path.format(user=user), call.body, format="json")


def row_counts() -> dict[str, int]:
    """How many rows every model of every installed app has (users, plans, layers, settings, audit, queue ...)."""
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def comparable(response, user: str):
    """The response with what legitimately differs between two users taken out (their id, the clock)."""
    body = response.json() if response.content else None
    if isinstance(body, dict):
        body.pop("exportedAt", None)
        if body.get("user") == user:
            body["user"] = "<user>"
    return response.status_code, body


@pytest.fixture
def empty_known_user(db):
    """bob, known to the service (created by an earlier write) but with nothing stored."""
    return end_user_get_or_create(external_id="bob")


@pytest.mark.parametrize("name", READS)
def test_a_read_for_an_unknown_user_creates_no_row(system_client, chunsim, name):
    before = row_counts()

    response = send(system_client, READS[name], "newcomer")

    assert response.status_code in (200, 404), response.content
    assert row_counts() == before
    assert not get_user_model().objects.filter(username="newcomer").exists()


@pytest.mark.parametrize("name", READS)
def test_an_unknown_user_reads_like_a_known_user_with_nothing_stored(system_client, chunsim, empty_known_user,
                                                                    name):
    unknown = comparable(send(system_client, READS[name], "newcomer"), "newcomer")
    known = comparable(send(system_client, READS[name], "bob"), "bob")

    assert unknown == known


def test_the_empty_forms_of_an_unknown_user(system_client, chunsim):
    def read(name):
        return send(system_client, READS[name], "newcomer")

    context = read("get_context")
    assert context.status_code == 200
    assert context.json() == {"characterId": "chunsim", "plan": Plan.FREE, "heartbeat": {}, "identity": {},
                              "identitySources": {}, "soul": None, "tools": {}, "memoryCount": 0,
                              "relationship": None}
    assert read("get_memory").json() == {"characterId": "chunsim", "memories": [], "total": 0, "hasMore": False}
    assert read("get_memory_load").json() == {"success": True, "memories": []}
    assert read("get_conversation").json()["error"]["code"] == "CONVERSATION_NOT_FOUND"
    assert read("end_conversation").json()["error"]["code"] == "CONVERSATION_NOT_FOUND"
    assert read("delete_memory").json()["error"]["code"] == "MEMORY_NOT_FOUND"
    assert read("delete_context").json() == {
        "characterId": "chunsim", "deleted": {"memories": 0, "layers": 0, "messages": 0, "summaries": 0, "relationships": 0}}
    prompt = read("post_prompt").json()
    assert prompt["fresh"] is True
    assert prompt["layers"]["memory"]["items"] == []
    assert prompt["text"].count("\n") == 0  # the header line alone: nothing about the user
    assert read("post_export").json()["documents"]


@override_settings(DEFAULT_PLAN="PREMIUM")
def test_an_unknown_user_reads_the_default_plan_without_it_being_created(system_client, chunsim):
    assert system_client.get("/api/accounts/plan?user=newcomer").json() == {"user": "newcomer", "plan": "PREMIUM"}
    context = system_client.get("/api/context/chunsim?user=newcomer").json()
    assert (context["plan"], context["soul"]) == ("PREMIUM", {})  # PREMIUM shows the (empty) soul layer
    assert not UserPlan.objects.exists()


def test_a_read_does_not_touch_a_known_users_rows_either(system_client, alice, chunsim):
    memory_create(user=alice, character=chunsim, context=SYSTEM_CONTEXT,
                  data=MemoryInput(content="고양이 '나비'를 키움", importance=7))
    before = row_counts()

    for name in ("get_context", "get_memory", "get_memory_load", "get_plan"):
        assert send(system_client, READS[name], "alice").status_code == 200
    assert send(system_client, READS["post_prompt"], "alice").status_code == 200

    after = row_counts()
    assert after.pop("django_q.OrmQ", 0) >= before.pop("django_q.OrmQ", 0)  # the usage counter task, queued
    assert after == before


@override_settings(DEFAULT_PLAN="PREMIUM")  # so that the soul layer may be written too
@pytest.mark.parametrize("name", WRITES)
def test_a_write_creates_an_unknown_user_on_first_sight(system_client, chunsim, name):
    response = send(system_client, WRITES[name], "newcomer")

    assert response.status_code in (200, 201, 202), response.content
    user = get_user_model().objects.get(username="newcomer")
    assert user.is_active and not user.has_usable_password()
    assert UserPlan.objects.filter(user=user).exists()


@pytest.mark.parametrize("path, body", [
    ("/api/context/chunsim/tools?user=newcomer", {"avoidTopics": "시험"}),  # refused by the service
    ("/api/context/chunsim/soul?user=newcomer", {"values": ["가족"]}),  # FREE has no soul: refused by the service
    ("/api/context/chunsim/memory?user=newcomer", {"content": "", "category": "preference"}),
    ("/api/context/chunsim/messages?user=newcomer", {"conversationId": "c1", "messages": []}),
    ("/api/context/nobody/tools?user=newcomer", {"avoidTopics": ["시험"]}),  # unknown character
])
def test_a_refused_write_leaves_no_user_behind(system_client, chunsim, path, body):
    before = row_counts()

    response = (system_client.post if "memory" in path or "messages" in path else system_client.put)(
        path, body, format="json")

    assert 400 <= response.status_code < 500, response.content
    assert row_counts() == before


# --- deactivated users -------------------------------------------------------------------------------------

@pytest.fixture
def deactivated(alice, chunsim):
    """alice with a memory and a tools layer, then deactivated by an operator."""
    memory_create(user=alice, character=chunsim, context=SYSTEM_CONTEXT,
                  data=MemoryInput(content="고양이 '나비'를 키움", importance=7))
    layer_put(user=alice, character=chunsim, layer="tools", document={"avoidTopics": ["시험"]},
              context=SYSTEM_CONTEXT)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    return alice


def data_of(user) -> dict:
    context = UserContext.objects.filter(user=user).first()
    return {
        "memories": list(MemoryItem.objects.filter(user=user).values_list("pk", "content", "is_active")),
        "tools": context.tools if context else None,
        "identity": context.identity if context else None,
        "plan": UserPlan.objects.get(user=user).plan,
        "rows": row_counts(),
    }


@pytest.mark.parametrize("name", [*READS, *WRITES])
def test_system_client_gets_403_user_inactive_for_a_deactivated_user(system_client, deactivated, name):
    calls = {**READS, **WRITES}
    before = data_of(deactivated)

    response = send(system_client, calls[name], "alice")

    assert response.status_code == 403, response.content
    assert error_code(response) == "USER_INACTIVE"
    assert data_of(deactivated) == before


@pytest.mark.parametrize("path", [
    "/api/context/chunsim?user=alice",
    "/api/context/chunsim/memory?user=alice",
    "/api/v1/memory/load?personaId=chunsim&user=alice",
    "/api/accounts/plan?user=alice",
])
def test_admin_gets_403_user_inactive_for_a_deactivated_user(admin_client_api, deactivated, path):
    before = data_of(deactivated)

    response = admin_client_api.get(path)

    assert response.status_code == 403
    assert error_code(response) == "USER_INACTIVE"
    assert data_of(deactivated) == before  # no audit row either: nothing was shown


def test_a_deactivated_users_own_token_is_refused(alice_client, deactivated):
    response = alice_client.get("/api/context/chunsim")

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "AUTHENTICATION_FAILED"


def test_a_reactivated_user_is_served_again(system_client, deactivated):
    deactivated.is_active = True
    deactivated.save(update_fields=["is_active"])

    response = system_client.get("/api/context/chunsim?user=alice")

    assert response.status_code == 200
    assert response.json()["memoryCount"] == 1
