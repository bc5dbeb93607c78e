"""Every read of a user's memories applies the user's memory settings the same way (memories.selectors.
memory_visible): memory off shows none; a category the user does not allow is left out.

The read paths: the prompt block, GET /api/v1/memory/load, the memory list, GET context (its count) and
the export. On main the memory load endpoint returned every memory whatever the settings said.
"""
from __future__ import annotations

import json

import pytest

from audit.services import AuditContext
from memories.models import MemorySettings
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")
ALLOWED = "떡볶이를 제일 좋아함"  # preference
DISALLOWED = "기말고사 걱정이 많음"  # worry
ALSO_DISALLOWED = "동생 이름은 민지"  # person, a structured fact (always in the block when shown)


def _json(response) -> dict:
    assert response.status_code == 200, response.content
    return response.json()


def read_prompt(client):
    body = _json(client.post("/api/context/chunsim/prompt?user=alice", {"message": "떡볶이 시험 동생 기억나?"},
                             format="json"))
    return body["text"] + json.dumps(body["layers"], ensure_ascii=False), len(body["layers"]["memory"]["items"])


def read_memory_load(client):
    body = _json(client.get("/api/v1/memory/load?personaId=chunsim&limit=50&user=alice"))
    return json.dumps(body, ensure_ascii=False), len(body["memories"])


def read_memory_list(client):
    body = _json(client.get("/api/context/chunsim/memory?user=alice&includeArchived=true"))
    return json.dumps(body, ensure_ascii=False), body["total"]


def read_context(client):
    body = _json(client.get("/api/context/chunsim?user=alice"))
    return json.dumps(body, ensure_ascii=False), body["memoryCount"]


def read_export(client):
    body = _json(client.post("/api/context/chunsim/export?user=alice"))
    memory_md = body["documents"]["memory.md"]
    return body["markdown"], sum(1 for line in memory_md.splitlines() if line.startswith("- ["))


READ_PATHS = {"prompt": read_prompt, "memory load v1": read_memory_load, "memory list": read_memory_list,
              "context": read_context, "export": read_export}
SETTINGS = {  # what the user set, and which memories every read may then show
    "memory off": ({"enabled": False}, set()),
    "categories not allowed": ({"allowed_categories": ["preference"]}, {ALLOWED}),
    "defaults": ({}, {ALLOWED, DISALLOWED, ALSO_DISALLOWED}),
}


@pytest.fixture
def memories(alice, chunsim):
    for content, category, subject, value in ((ALLOWED, "preference", "favorite_food", "떡볶이"),
                                              (DISALLOWED, "worry", "", ""),
                                              (ALSO_DISALLOWED, "person", "sibling_name", "민지")):
        memory_create(user=alice, character=chunsim, context=CONTEXT, data=MemoryInput(
            content=content, category=category, subject_key=subject, subject_value=value, importance=9))


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("path", READ_PATHS)
def test_every_read_path_applies_the_memory_settings(system_client, alice, memories, path, setting):
    values, visible = SETTINGS[setting]
    MemorySettings.objects.create(user=alice, **values)

    text, count = READ_PATHS[path](system_client)

    assert count == len(visible)
    if path != "context":  # the context shows a count only
        shown = {content for content in (ALLOWED, DISALLOWED, ALSO_DISALLOWED) if content in text}
        assert shown == visible
