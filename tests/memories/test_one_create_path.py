"""One create path (issue 8 §5): a memory a chat backend POSTs follows the same rules as one extraction writes —
a new value of a single-valued subject supersedes the old one, and the prompt states only the current one."""
from __future__ import annotations

from audit.models import AuditLog
from memories.models import MemoryItem

MEMORY = "/api/context/chunsim/memory?user=alice"


def post_memory(client, **body):
    response = client.post(MEMORY, body, format="json")
    assert response.status_code == 201, response.content
    return response.json()["memory"]


def test_a_posted_value_supersedes_the_old_value_of_its_subject(system_client, chunsim, alice):
    old = post_memory(system_client, content="사는 곳: 노원", category="location", subjectKey="residence",
                      subjectValue="노원")
    new = post_memory(system_client, content="사는 곳: 신촌", category="location", subjectKey="residence",
                      subjectValue="신촌")

    replaced = MemoryItem.objects.get(pk=old["id"])
    assert not replaced.is_active and replaced.superseded_by_id == new["id"]
    assert AuditLog.objects.filter(object_type="memory_item", object_id=str(old["id"]), action="deactivated").exists()
    block = system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "나 어디 살더라?"},
                               format="json").json()["text"]
    assert "신촌" in block and "노원" not in block


def test_a_multi_valued_subject_keeps_both(system_client, chunsim, alice):
    first = post_memory(system_client, content="취미: 등산", category="preference", subjectKey="hobby",
                        subjectValue="등산")
    post_memory(system_client, content="취미: 뜨개질", category="preference", subjectKey="hobby", subjectValue="뜨개질")

    assert MemoryItem.objects.get(pk=first["id"]).is_active
