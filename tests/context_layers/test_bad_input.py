"""Bad input gets a 4xx JSON error with a stable code, and leaves the database exactly as it was."""
from __future__ import annotations

import json
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model

from audit.models import AuditLog
from audit.services import AuditContext
from context_layers.models import UserContext
from context_layers.services import IDENTITY_INFERRED, IDENTITY_USER_SET, layer_put
from memories.models import MemoryItem
from memories.services import MemoryInput, memory_create

SETUP = AuditContext(actor_label="test:setup", trigger="command")
ALICE = "/api/context/chunsim{suffix}?user=alice"
CONTEXT_ENDPOINTS = [
    ("get", ""), ("delete", "?confirm=true"), ("put", "/heartbeat"), ("put", "/identity"), ("put", "/soul"),
    ("put", "/tools"), ("get", "/memory"), ("post", "/memory"), ("delete", "/memory/1"), ("post", "/export"),
]


def _url(suffix: str = "", **extra) -> str:
    url = ALICE.format(suffix=suffix)
    return url + "".join(f"&{key}={value}" for key, value in extra.items())


@pytest.fixture
def stored(alice, bob, chunsim):
    """Alice has every layer and two memories with chunsim; bob has one memory there."""
    layer_put(user=alice, character=chunsim, layer="identity", document={"nickname": "민수", "honorific": "반말"},
              identity_slot=IDENTITY_USER_SET, context=SETUP)
    layer_put(user=alice, character=chunsim, layer="identity", document={"inferredTraits": ["내향적"]},
              identity_slot=IDENTITY_INFERRED, context=SETUP)
    layer_put(user=alice, character=chunsim, layer="heartbeat",
              document={"lastSeenAt": "2025-03-01T09:00:00Z", "recentDaysCount": 3}, context=SETUP)
    layer_put(user=alice, character=chunsim, layer="tools",
              document={"avoidTopics": ["정치"], "specialDates": [{"date": "03-15", "description": "생일"}]},
              context=SETUP)
    alice_memories = [
        memory_create(user=alice, character=chunsim, context=SETUP, data=MemoryInput(content=text))[0]
        for text in ("떡볶이를 제일 좋아함", "고양이 '나비'를 키움")
    ]
    bob_memory, _ = memory_create(user=bob, character=chunsim, context=SETUP,
                                  data=MemoryInput(content="bob의 비밀 기억"))
    return {"alice_memories": alice_memories, "bob_memory": bob_memory}


def _snapshot() -> dict:
    return {
        "users": sorted(get_user_model().objects.values_list("username", flat=True)),
        "layers": [(c.user_id, c.character_id, c.heartbeat, c.identity, c.soul, c.tools, c.last_seen_at)
                   for c in UserContext.objects.order_by("pk")],
        "memories": list(MemoryItem.objects.order_by("pk").values_list(
            "pk", "user_id", "character_id", "content_hash", "importance", "archived_at", "is_active")),
        "audit_rows": AuditLog.objects.count(),
    }


@contextmanager
def db_unchanged():
    before = _snapshot()
    yield
    assert _snapshot() == before


def assert_error(response, status: int, code: str, field: str | None = None) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    error = json.loads(response.content)["error"]
    assert set(error) >= {"code", "message", "fields"}
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    if field is not None:
        assert field in error["fields"], error
    return error


def _send(client, method: str, url: str, body, content_type: str = "application/json"):
    if body is None:
        return getattr(client, method)(url)
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return getattr(client, method)(url, data=data, content_type=content_type)


# --- request bodies ------------------------------------------------------------------------------

MALFORMED = ['{"nickname": "민수"', "not json at all", "{'nickname': 'single quotes'}", '{"a": NaN}', "[" * 100_000]


@pytest.mark.parametrize("body", MALFORMED, ids=["truncated", "text", "single-quotes", "nan", "nested-too-deep"])
@pytest.mark.parametrize("method,suffix", [("put", "/identity"), ("put", "/tools"), ("post", "/memory")])
def test_malformed_json_is_400_malformed_json(stored, system_client, method, suffix, body):
    with db_unchanged():
        assert_error(_send(system_client, method, _url(suffix), body), 400, "MALFORMED_JSON")


WRONG_VALUES = [
    # (method, suffix, body, field) — wrong types
    ("put", "/identity", {"nickname": ["민수"]}, "nickname"),
    ("put", "/identity", {"nickname": "민" * 51}, "nickname"),
    ("put", "/heartbeat", {"recentDaysCount": "five"}, "recentDaysCount"),
    ("put", "/heartbeat", {"recentDaysCount": 8}, "recentDaysCount"),
    ("put", "/heartbeat", {"lastSeenAt": "어제 저녁"}, "lastSeenAt"),
    ("put", "/heartbeat", {"lastSeenAt": "2025-02-30T10:00:00Z"}, "lastSeenAt"),
    ("put", "/heartbeat", {"avgSessionDuration": -1}, "avgSessionDuration"),
    ("put", "/tools", {"avoidTopics": "정치"}, "avoidTopics"),
    ("put", "/tools", {"specialDates": [{"date": "13-45", "description": "생일"}]}, "specialDates"),
    ("put", "/tools", {"specialDates": [{"date": "2025-02-31x", "description": "생일"}]}, "specialDates"),
    ("put", "/tools", {"specialDates": "03-15"}, "specialDates"),
    ("put", "/tools", {"customRules": [{"condition": "밤 늦게"}]}, "customRules"),
    ("post", "/memory", {"content": "떡볶이", "importance": "high"}, "importance"),
    ("post", "/memory", {"content": "떡볶이", "importance": 11}, "importance"),
    ("post", "/memory", {"content": "떡볶이", "confidence": "very"}, "confidence"),
    ("post", "/memory", {"content": "떡볶이", "expiresAt": "next week"}, "expiresAt"),
    ("post", "/memory", {"content": "   "}, "content"),
    ("post", "/memory", {"content": "x" * 2001}, "content"),
    ("post", "/memory", {"content": "nul \u0000 byte"}, "content"),
    ("post", "/memory", {"importance": 5}, "content"),
    # unknown enum values
    ("put", "/identity", {"honorific": "격식체"}, "honorific"),
    ("put", "/identity", {"relationshipType": "적"}, "relationshipType"),
    ("post", "/memory", {"content": "떡볶이", "category": "secrets"}, "category"),
    ("post", "/memory", {"content": "떡볶이", "kind": "x"}, "kind"),
    ("post", "/memory", {"content": "떡볶이", "source": "x"}, "source"),
]


@pytest.mark.parametrize("method,suffix,body,field", WRONG_VALUES)
def test_wrong_type_or_value_is_400_naming_the_field(stored, system_client, method, suffix, body, field):
    with db_unchanged():
        assert_error(_send(system_client, method, _url(suffix), body), 400, "VALIDATION_ERROR", field)


@pytest.mark.parametrize("method,suffix,body", [
    ("put", "/identity", {"nickname": "민수", "favouriteColour": "blue"}),
    ("put", "/heartbeat", {"lastSeenAt": "2025-03-02T09:00:00Z", "favouriteColour": "blue"}),
    ("put", "/tools", {"avoidTopics": [], "favouriteColour": "blue"}),
    ("post", "/memory", {"content": "떡볶이", "favouriteColour": "blue"}),
])
def test_unknown_key_is_400_unknown_field(stored, system_client, method, suffix, body):
    with db_unchanged():
        error = assert_error(_send(system_client, method, _url(suffix), body), 400, "VALIDATION_ERROR",
                             "favouriteColour")
    assert error["fields"]["favouriteColour"] == ["Unknown field."]


def test_unknown_key_inside_a_special_date_is_400(stored, system_client):
    body = {"specialDates": [{"date": "03-15", "description": "생일", "favouriteColour": "blue"}]}
    with db_unchanged():
        error = assert_error(_send(system_client, "put", _url("/tools"), body), 400, "VALIDATION_ERROR",
                             "specialDates")
    assert error["fields"]["specialDates"]["0"]["favouriteColour"] == ["Unknown field."]


@pytest.mark.parametrize("body", ["[]", '[{"nickname": "민수"}]', '"민수"', "42", "null"],
                         ids=["empty-array", "array", "string", "number", "null"])
@pytest.mark.parametrize("method,suffix", [("put", "/identity"), ("put", "/heartbeat"), ("post", "/memory")])
def test_body_that_is_not_an_object_is_400(stored, system_client, method, suffix, body):
    with db_unchanged():
        assert_error(_send(system_client, method, _url(suffix), body), 400, "VALIDATION_ERROR")


@pytest.mark.parametrize("method,suffix,body", [
    ("put", "/tools", {"avoidTopics": ["정치" * 50] * 1000}),
    ("post", "/memory", {"content": "x" * (256 * 1024)}),
])
def test_body_over_256_kb_is_413(stored, system_client, method, suffix, body):
    with db_unchanged():
        assert_error(_send(system_client, method, _url(suffix), body), 413, "PAYLOAD_TOO_LARGE")


@pytest.mark.parametrize("method,suffix", [("put", "/identity"), ("put", "/tools"), ("post", "/memory")])
def test_text_plain_body_is_415(stored, system_client, method, suffix):
    with db_unchanged():
        response = _send(system_client, method, _url(suffix), '{"content": "떡볶이"}', content_type="text/plain")
        assert_error(response, 415, "UNSUPPORTED_MEDIA_TYPE")


# --- characters, memories, confirmation -----------------------------------------------------------

@pytest.mark.parametrize("slug", ["nobody", "CHUNSIM", "춘심", "😀", "%00", "x" * 300])
@pytest.mark.parametrize("method,suffix", CONTEXT_ENDPOINTS)
def test_unknown_character_is_404_on_every_endpoint(stored, system_client, method, suffix, slug):
    url = f"/api/context/{slug}{suffix}" + ("&" if "?" in suffix else "?") + "user=alice"
    with db_unchanged():
        assert_error(_send(system_client, method, url, {} if method in ("put", "post") else None),
                     404, "CHARACTER_NOT_FOUND")


def test_inactive_character_is_404(stored, system_client, characters):
    characters["yuna"].is_active = False
    characters["yuna"].save()
    with db_unchanged():
        assert_error(system_client.get("/api/context/yuna?user=alice"), 404, "CHARACTER_NOT_FOUND")


@pytest.mark.parametrize("memory_id", ["unknown", "abc", "-1", "0", "1.5", "9" * 30, "9" * 18, "²", "١٢", "😀"])
def test_unknown_memory_id_is_404_memory_not_found(stored, system_client, memory_id):
    if memory_id == "unknown":
        memory_id = str(MemoryItem.objects.order_by("-pk").first().pk + 1000)
    with db_unchanged():
        assert_error(system_client.delete(_url(f"/memory/{memory_id}")), 404, "MEMORY_NOT_FOUND")


def test_deleting_bobs_memory_as_alice_is_404_and_keeps_it(stored, alice_client, system_client):
    bob_memory = stored["bob_memory"]
    with db_unchanged():
        assert_error(alice_client.delete(f"/api/context/chunsim/memory/{bob_memory.pk}"), 404, "MEMORY_NOT_FOUND")
        assert_error(system_client.delete(_url(f"/memory/{bob_memory.pk}")), 404, "MEMORY_NOT_FOUND")
    assert MemoryItem.objects.filter(pk=bob_memory.pk, user__username="bob").exists()


def test_deleting_bobs_memory_through_another_character_is_404(stored, system_client, sora):
    bob_memory = stored["bob_memory"]
    with db_unchanged():
        response = system_client.delete(f"/api/context/sora/memory/{bob_memory.pk}?user=bob")
        assert_error(response, 404, "MEMORY_NOT_FOUND")


@pytest.mark.parametrize("query", ["", "&confirm=false", "&confirm=1", "&confirm=TRUE", "&confirm=yes"])
def test_delete_context_without_confirm_true_is_400_and_deletes_nothing(stored, system_client, alice_client,
                                                                        query):
    with db_unchanged():
        assert_error(system_client.delete(_url() + query), 400, "CONFIRMATION_REQUIRED", "confirm")
        assert_error(alice_client.delete("/api/context/chunsim?" + query.lstrip("&")), 400,
                     "CONFIRMATION_REQUIRED", "confirm")
    assert MemoryItem.objects.filter(user__username="alice").count() == 2


# --- query parameters ------------------------------------------------------------------------------

@pytest.mark.parametrize("user", ["a%20b", "__service__x", "x" * 300, "-alice", ".alice", "alice%0A", "al%00ice",
                                  "%EB%AF%BC%EC%88%98", "alice/../bob"])
@pytest.mark.parametrize("method,suffix,body", [("get", "", None), ("put", "/identity", {"nickname": "민수"}),
                                                ("post", "/memory", {"content": "떡볶이"})])
def test_invalid_user_id_for_system_is_400_and_creates_no_user(stored, system_client, user, method, suffix, body):
    url = f"/api/context/chunsim{suffix}?user={user}"
    with db_unchanged():
        error = assert_error(_send(system_client, method, url, body), 400, "INVALID_USER_ID", "user")
    assert error["fields"]["user"]


def test_missing_user_for_system_is_400_user_required(stored, system_client):
    with db_unchanged():
        assert_error(system_client.get("/api/context/chunsim"), 400, "USER_REQUIRED", "user")
        assert_error(system_client.get("/api/context/chunsim?user="), 400, "USER_REQUIRED", "user")


@pytest.mark.parametrize("query,field", [
    ("limit=0", "limit"), ("limit=abc", "limit"), ("limit=201", "limit"), ("limit=", "limit"),
    ("offset=-1", "offset"), ("offset=99999999999999999999", "offset"), ("category=secrets", "category"),
    ("includeArchived=maybe", "includeArchived"), ("colour=red", "colour"),
])
def test_bad_memory_list_query_is_400(stored, system_client, query, field):
    with db_unchanged():
        assert_error(system_client.get(_url("/memory") + "&" + query), 400, "VALIDATION_ERROR", field)


# --- no 500 for odd input -------------------------------------------------------------------------

ODD_REQUESTS = [
    ("put", "/identity", {"nickname": "😀" * 50}),
    ("put", "/identity", {"nickname": "😀" * 51}),
    ("put", "/identity", {"nickname": "민수", "inferredTraits": ["다정함 💕"] * 51}),
    ("put", "/identity", {"별명": "민수"}),
    ("put", "/identity", '{"\\ud800": 1}'),
    ("put", "/identity", '{"honorific": "\\ud800"}'),
    ("put", "/identity", '{"nickname": "\\ud83d"}'),
    ("put", "/identity", b'{"nickname": "\xff\xfe"}'),
    ("put", "/identity", "null"),
    ("put", "/identity", ""),
    ("put", "/identity", '{"a":' * 20_000 + "1" + "}" * 20_000),
    ("put", "/tools", {"avoidTopics": [["정치"] * 51] * 51}),
    ("put", "/tools", {"specialDates": [[]] * 51}),
    ("put", "/tools", {"specialDates": [{"date": "😀", "description": "🎂"}]}),
    ("put", "/tools", {"specialDates": ["03-15", 1, None]}),
    ("put", "/tools", {"customRules": [{"condition": {"a": 1}, "action": ["b"]}]}),
    ("put", "/tools", {"enabledFeatures": [None], "disabledFeatures": [True]}),
    ("put", "/heartbeat", {"avgSessionDuration": 1e400}),
    ("put", "/heartbeat", '{"totalConversations": ' + "9" * 5000 + "}"),
    ("put", "/heartbeat", {"lastSeenAt": "0001-01-01T00:00:00+14:00"}),
    ("put", "/heartbeat", {"lastSeenAt": "9999-12-31T23:59:59-14:00"}),
    ("put", "/heartbeat", {"lastSeenAt": 1700000000}),
    ("put", "/heartbeat", {"lastEmotionKeywords": "😢"}),
    ("put", "/soul", {"values": ["가족"]}),
    ("post", "/memory", {"content": "😀 떡볶이를 좋아함 🌶️"}),
    ("post", "/memory", {"content": "😀" * 2000}),
    ("post", "/memory", {"content": {"text": "떡볶이"}}),
    ("post", "/memory", {"content": "떡볶이", "importance": True}),
    ("post", "/memory", {"content": "떡볶이", "importance": 5.5}),
    ("post", "/memory", {"content": "떡볶이", "expiresAt": "0001-01-01T00:00:00+14:00"}),
    ("post", "/memory", [{"content": "떡볶이"}] * 51),
    ("post", "/memory", "null"),
    ("get", "/memory&offset=9223372036854775807", None),
    ("get", "/memory&limit=%F0%9F%98%80", None),
    ("get", "/memory&category=%EA%B1%B1%EC%A0%95", None),
    ("get", "/memory&includeArchived=%00", None),
    ("delete", "/memory/%C2%B2", None),
    ("delete", "/memory/%F0%9F%98%80", None),
    ("delete", "/memory/%EA%B8%B0%EC%96%B5", None),
    ("delete", "&confirm=%F0%9F%98%80", None),
    ("post", "/export", "[" * 1000),
]


@pytest.mark.parametrize("method,suffix,body", ODD_REQUESTS)
def test_odd_input_never_gives_a_500(stored, system_client, method, suffix, body):
    system_client.raise_request_exception = False
    path, _, extra = suffix.partition("&")
    url = _url(path) + (f"&{extra}" if extra else "")
    response = _send(system_client, method, url, body)
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        assert set(json.loads(response.content)["error"]) >= {"code", "message", "fields"}


@pytest.mark.parametrize("path", ["/api/context/%00", "/api/context/%F0%9F%98%80/memory",
                                  "/api/context/%EC%B6%98%EC%8B%AC/memory/1", "/api/context/chunsim/%F0%9F%98%80"])
def test_odd_paths_never_give_a_500(stored, system_client, path):
    system_client.raise_request_exception = False
    for method in ("get", "put", "post", "delete"):
        response = getattr(system_client, method)(f"{path}?user=alice")
        assert 400 <= response.status_code < 500, (method, response.content)
        assert set(json.loads(response.content)["error"]) >= {"code", "message", "fields"}
