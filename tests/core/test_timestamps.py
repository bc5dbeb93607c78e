"""One timestamp form out of the API, and only instants PostgreSQL and psycopg can round-trip in.

Out: every timestamp is UTC with milliseconds and Z (`2026-03-01T12:00:00.000Z`). In: ISO 8601 with
an explicit offset of at most ±14:00, for an instant between 1970-01-01 and 2100-01-01 UTC; anything
else is 400 VALIDATION_ERROR and stores nothing. Choice errors list the valid values.
"""
from __future__ import annotations

import importlib
import json
import re
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.apps import apps
from django.conf import settings
from django.utils.dateparse import parse_datetime
from rest_framework import serializers

from accounts.models import Plan, UserPlan
from context_layers.models import UserContext
from conversations.models import Conversation, Message
from core import serializers as core_serializers
from core.timestamps import format_instant
from memories.models import MemoryItem

API_FORM = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
MESSAGES = "/api/context/chunsim/messages?user=alice"


def _message_batch(at: str, message_id: str = "m1", conversation: str = "c1") -> dict:
    return {"conversationId": conversation,
            "messages": [{"id": message_id, "role": "user", "content": "오늘 떡볶이 먹었어", "createdAt": at}]}


# The three timestamps the API accepts: (method, url, body for a given timestamp).
TIMESTAMP_INPUTS = {
    "messages.createdAt": ("post", MESSAGES, _message_batch),
    "heartbeat.lastSeenAt": ("put", "/api/context/chunsim/heartbeat?user=alice", lambda at: {"lastSeenAt": at}),
    "memory.expiresAt": ("post", "/api/context/chunsim/memory?user=alice",
                         lambda at: {"content": "떡볶이를 좋아함", "expiresAt": at}),
}

REFUSED = [
    ("9999-12-31T23:59:59-14:00", "year 10000 in UTC: psycopg cannot read it back"),
    ("2026-03-01T21:00:00+23:59", "offset PostgreSQL refuses (was a 500)"),
    ("2026-03-01T21:00:00+14:01", "offset beyond +14:00"),
    ("2026-03-01T21:00:00-14:01", "offset beyond -14:00"),
    ("2026-03-01T21:00:00+09:00:30", "offset with seconds"),
    ("1969-12-31T23:59:59Z", "before 1970"),
    ("2100-01-01T00:00:01Z", "after 2100"),
    ("0001-01-01T00:00:00+14:00", "year 0 in UTC"),
    ("2026-03-01T21:00:00", "no offset: would silently be UTC"),
    ("2026-03-01 21:00:00", "no offset, space separator"),
    ("2026-03-01", "a date, not a datetime"),
]
ACCEPTED = [
    ("2026-03-01T21:00:00+14:00", "2026-03-01T07:00:00.000Z"),
    ("2026-03-01T21:00:00-14:00", "2026-03-02T11:00:00.000Z"),
    ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z"),
    ("2099-12-31T23:59:59.123456+00:00", "2099-12-31T23:59:59.123Z"),
    ("2026-03-01T21:00:00.5+09:00", "2026-03-01T12:00:00.500Z"),
]


@pytest.fixture
def scope_ready(alice, chunsim):
    UserPlan.objects.filter(user=alice).update(plan=Plan.ULTIMATE)  # every heartbeat field, incl. the report
    return alice


def _snapshot():
    return (list(Message.objects.values_list("pk", flat=True)), list(Conversation.objects.values_list("pk", flat=True)),
            list(MemoryItem.objects.values_list("pk", flat=True)),
            [(c.heartbeat, c.last_seen_at) for c in UserContext.objects.order_by("pk")])


@pytest.mark.parametrize("value, why", REFUSED, ids=[why for _, why in REFUSED])
@pytest.mark.parametrize("field", sorted(TIMESTAMP_INPUTS))
def test_unstorable_or_offsetless_timestamps_are_400_and_store_nothing(scope_ready, system_client, field, value, why):
    system_client.raise_request_exception = False
    method, url, body = TIMESTAMP_INPUTS[field]
    before = _snapshot()

    response = getattr(system_client, method)(url, body(value), format="json")

    assert response.status_code == 400, (response.status_code, response.content)
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert field.split(".")[1] in json.dumps(error["fields"])
    assert _snapshot() == before


@pytest.mark.parametrize("value, shown", ACCEPTED, ids=[value for value, _ in ACCEPTED])
@pytest.mark.parametrize("field", sorted(TIMESTAMP_INPUTS))
def test_edge_instants_and_offsets_are_accepted_and_shown_in_utc(scope_ready, system_client, field, value, shown):
    method, url, body = TIMESTAMP_INPUTS[field]

    response = getattr(system_client, method)(url, body(value), format="json")

    assert response.status_code in (200, 201, 202), response.content
    if field == "messages.createdAt":
        got = system_client.get("/api/context/chunsim/conversations/c1?user=alice").json()["messages"][0]["createdAt"]
    elif field == "heartbeat.lastSeenAt":
        got = response.json()["lastSeenAt"]
    else:
        got = response.json()["memory"]["expiresAt"]
    assert got == shown


def test_a_refused_timestamp_leaves_the_scope_working(scope_ready, system_client):
    system_client.raise_request_exception = False
    assert system_client.post(MESSAGES, _message_batch("9999-12-31T23:59:59-14:00"), format="json").status_code == 400

    assert system_client.post(MESSAGES, _message_batch("2026-03-01T21:00:00+09:00"), format="json").status_code == 202
    assert system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "뭐 먹었지?"},
                              format="json").status_code == 200
    assert system_client.get("/api/context/chunsim/conversations/c1?user=alice").status_code == 200


def test_messages_keep_the_senders_offset_internally(scope_ready, system_client):
    response = system_client.post(MESSAGES, _message_batch("2026-03-01T23:30:00+09:00"), format="json")

    assert response.status_code == 202
    stored = Message.objects.get(external_id="m1")
    assert stored.utc_offset_minutes == 540
    assert stored.local_created_at.date().isoformat() == "2026-03-01"  # the user's calendar day, not UTC's 03-01
    assert stored.created_at == datetime(2026, 3, 1, 14, 30, tzinfo=dt_timezone.utc)


# --- one output form -----------------------------------------------------------------------------

def _strings(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, str):
        yield value


def _timestamps(payload) -> list[str]:
    """Every string in a JSON payload that reads as a datetime (dates alone excluded)."""
    found = []
    for text in _strings(payload):
        try:
            parsed = parse_datetime(text)
        except ValueError:
            continue
        if parsed is not None and "T" in text:
            found.append(text)
    return found


def test_every_timestamp_leaving_the_api_has_one_form(scope_ready, system_client, django_capture_on_commit_callbacks):
    client = system_client
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(MESSAGES, {"conversationId": "c1", "messages": [
            {"id": "m1", "role": "user", "content": "내 생일은 11월 2일이야", "createdAt": "2026-03-01T21:00:00+09:00"},
            {"id": "m2", "role": "assistant", "content": "기억할게!", "createdAt": "2026-03-01T21:00:01.043021+09:00"},
        ]}, format="json").status_code == 202
        assert client.post("/api/context/chunsim/conversations/c1/end?user=alice").status_code == 202
    # A heartbeat stored before the one form (offset +00:00, microseconds) is shown in the API form too.
    UserContext.objects.filter(user=scope_ready).update(
        heartbeat={"lastSeenAt": "2026-03-01T12:00:01.043021+00:00", "recentDaysCount": 1})
    payloads = {
        "memory_create": client.post("/api/context/chunsim/memory?user=alice",
                                     {"content": "고양이를 키움", "expiresAt": "2027-01-01T09:00:00+09:00"},
                                     format="json"),
        "memory_list": client.get("/api/context/chunsim/memory?user=alice"),
        "conversation": client.get("/api/context/chunsim/conversations/c1?user=alice"),
        "context": client.get("/api/context/chunsim?user=alice"),
        "export": client.post("/api/context/chunsim/export?user=alice"),
        "memory_load": client.get("/api/v1/memory/load?personaId=chunsim&user=alice"),
        "heartbeat_put": client.put("/api/context/chunsim/heartbeat?user=alice",
                                    {"lastSeenAt": "2026-03-02T09:00:00+09:00"}, format="json"),
    }
    bodies = {}
    for name, response in payloads.items():
        assert response.status_code in (200, 201), (name, response.content)
        bodies[name] = response.json()

    every = {name: _timestamps(body) for name, body in bodies.items()}
    assert all(every.values()), every  # each endpoint does return timestamps
    wrong = {name: [text for text in found if not API_FORM.match(text)] for name, found in every.items()}
    assert wrong == {name: [] for name in every}

    conversation = bodies["conversation"]
    assert [m["createdAt"] for m in conversation["messages"]] == ["2026-03-01T12:00:00.000Z",
                                                                 "2026-03-01T12:00:01.043Z"]
    assert conversation["startedAt"] == "2026-03-01T12:00:00.000Z"
    assert API_FORM.match(conversation["endedAt"]) and API_FORM.match(conversation["summaries"][0]["createdAt"])
    assert bodies["memory_create"]["memory"]["expiresAt"] == "2027-01-01T00:00:00.000Z"
    assert bodies["context"]["heartbeat"]["lastSeenAt"] == "2026-03-01T12:00:01.043Z"
    assert API_FORM.match(bodies["context"]["heartbeat"]["report"]["firstSeenAt"])
    assert API_FORM.match(bodies["export"]["exportedAt"])
    assert "lastSeenAt**: 2026-03-01T12:00:01.043Z" in bodies["export"]["documents"]["heartbeat.md"]
    assert bodies["heartbeat_put"] == {"lastSeenAt": "2026-03-02T00:00:00.000Z"}
    assert UserContext.objects.get(user=scope_ready).heartbeat["lastSeenAt"] == "2026-03-02T00:00:00.000Z"


def test_format_instant_is_utc_milliseconds_z():
    seoul = dt_timezone(timedelta(hours=9))
    assert format_instant(datetime(2026, 3, 1, 21, 0, 0, 43021, tzinfo=seoul)) == "2026-03-01T12:00:00.043Z"
    assert format_instant(datetime(2026, 3, 1, 12, 0, tzinfo=dt_timezone.utc)) == "2026-03-01T12:00:00.000Z"
    assert format_instant(None) is None


def _project_serializers() -> list[type[serializers.Serializer]]:
    """Every serializer class defined in the project's apps (their serializer and API modules)."""
    found = []
    for config in apps.get_app_configs():
        if not config.path.startswith(str(settings.BASE_DIR)) or "site-packages" in config.path:
            continue
        for suffix in ("serializers", "apis", "documents"):
            try:
                module = importlib.import_module(f"{config.name}.{suffix}")
            except ModuleNotFoundError:
                continue
            found += [value for value in vars(module).values()
                      if isinstance(value, type) and issubclass(value, serializers.Serializer)
                      and value.__module__ == module.__name__]
    return found


def test_every_project_serializer_uses_the_shared_timestamp_and_choice_fields():
    classes = _project_serializers()
    assert len(classes) > 10
    offenders = []
    for cls in classes:
        for name, field in cls().fields.items():
            if isinstance(field, serializers.DateTimeField) and not isinstance(field, core_serializers.DateTimeField):
                offenders.append(f"{cls.__module__}.{cls.__name__}.{name}")
            if (isinstance(field, serializers.ChoiceField) and not field.read_only
                    and not isinstance(field, core_serializers.ChoiceField)):
                offenders.append(f"{cls.__module__}.{cls.__name__}.{name}")
    assert offenders == []


# --- choice errors list the valid values ------------------------------------------------------------

CHOICE_ERRORS = [
    ("post", MESSAGES, {"conversationId": "c1", "messages": [
        {"id": "m1", "role": "narrator", "content": "hi", "createdAt": "2026-03-01T21:00:00+09:00"}]},
     ["user", "assistant"]),
    ("post", "/api/context/chunsim/memory?user=alice", {"content": "떡볶이", "category": "food"},
     ["preference", "personal_info", "other"]),
    ("post", "/api/context/chunsim/memory?user=alice", {"content": "떡볶이", "kind": "dream"},
     ["semantic", "episodic"]),
    ("post", "/api/context/chunsim/memory?user=alice", {"content": "떡볶이", "source": "rumour"},
     ["explicit", "inferred"]),
    ("put", "/api/context/chunsim/identity?user=alice", {"honorific": "하오체"}, ["반말", "존댓말", "혼합"]),
    ("put", "/api/context/chunsim/identity?user=alice", {"relationshipType": "원수"}, ["팬", "친구", "연인"]),
    ("put", "/api/accounts/plan?user=alice", {"plan": "GOLD"}, ["FREE", "BASIC", "PREMIUM", "ULTIMATE"]),
    ("post", "/api/context/chunsim/prompt?user=alice", {"message": "hi", "situation": "party"}, ["daily", "deep_talk"]),
    ("get", "/api/context/chunsim/memory?user=alice&category=food", None, ["preference", "other"]),
]


@pytest.mark.parametrize("method, url, body, listed", CHOICE_ERRORS,
                         ids=["role", "category", "kind", "source", "honorific", "relationshipType", "plan",
                              "situation", "list-category"])
def test_a_choice_error_lists_the_valid_values(scope_ready, system_client, method, url, body, listed):
    response = getattr(system_client, method)(url, body, format="json") if body is not None \
        else system_client.get(url)

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    text = json.dumps(error["fields"], ensure_ascii=False)
    assert "is not a valid choice. Valid values: " in text
    assert all(value in text for value in listed), text


# --- the schema keeps describing them as date-time ------------------------------------------------------

def test_openapi_still_marks_every_timestamp_as_date_time(db, anon_client):
    schema = json.loads(anon_client.get("/api/schema/?format=json").content)
    components = schema["components"]["schemas"]
    expected = {
        "IncomingMessageInputRequest": ["createdAt"],
        "MessageOutput": ["createdAt"],
        "ConversationOutput": ["startedAt", "lastMessageAt", "endedAt"],
        "SummaryOutput": ["createdAt"],
        "MemoryOutput": ["lastUsedAt", "expiresAt", "archivedAt", "createdAt", "updatedAt"],
        "MemoryCreateInputRequest": ["expiresAt"],
        "HeartbeatDocumentRequest": ["lastSeenAt"],
        "ContextExport": ["exportedAt"],
    }
    for component, fields in expected.items():
        assert component in components, sorted(components)
        for field in fields:
            assert components[component]["properties"][field]["format"] == "date-time", (component, field)
