"""Issue 9 §7: an operator in a real browser — views a user's memories (audited), redacts one (gone from the
database, the block and the export), and staff outside the context-admin group are refused."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from accounts.models import CONTEXT_ADMIN_GROUP, TokenKind
from accounts.services import api_token_create, end_user_get_or_create, operator_permissions
from audit.models import AuditLog
from audit.services import AuditContext
from characters.models import Character
from context_layers.demo import load_characters
from conversations.models import Message
from memories.models import MemoryItem
from memories.services import MemoryInput, memory_create

from .conftest import api

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

CONTEXT = AuditContext(actor_label="test", trigger="system")


@pytest.fixture
def world(seeded, live_server):
    load_characters()
    alice = end_user_get_or_create(external_id="alice")
    chunsim = Character.objects.get(slug="chunsim")
    _, token = api_token_create(name="chat-backend", kind=TokenKind.SERVICE)
    status, _ = api(live_server.url, "POST", "/api/context/chunsim/messages?user=alice", token, {
        "conversationId": "c1", "messages": [
            {"id": "t1u", "role": "user", "content": "나 요즘 망원동 살아", "createdAt": "2026-03-01T21:00:00+09:00"}]})
    assert status == 202
    fact, _ = memory_create(user=alice, character=chunsim, context=CONTEXT, data=MemoryInput(
        content="사는 곳: 망원동", category="location", subject_key="residence", subject_value="망원동",
        source_conversation_id="c1", source_message_id="t1u"))
    other, _ = memory_create(user=alice, character=chunsim, context=CONTEXT,
                             data=MemoryInput(content="민트초코를 제일 좋아함", category="preference"))
    User = get_user_model()
    operator = User.objects.create_user("olivia", password="olivia-pass-1", is_staff=True)
    group = Group.objects.get_or_create(name=CONTEXT_ADMIN_GROUP)[0]
    group.permissions.add(*operator_permissions())
    operator.groups.add(group)
    User.objects.create_user("sam", password="sam-pass-1", is_staff=True, is_superuser=True)  # not in the group
    return {"url": live_server.url, "token": token, "alice": alice, "fact": fact, "other": other,
            "operator": operator}


def sign_in(page: Page, world, username: str, password: str) -> None:
    page.goto(f"{world['url']}/admin/login/?next=/admin/users/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_operator_views_and_redacts_a_memory(page: Page, world, shoot):
    sign_in(page, world, "olivia", "olivia-pass-1")
    shoot(page, "console-search")
    page.get_by_label("External user id").fill("alice")
    page.get_by_role("button", name="Open").click()
    expect(page.locator("#characters")).to_contain_text("춘심")
    expect(page.locator("#user-tools")).to_contain_text("olivia", ignore_case=True)  # the operator, not the user
    shoot(page, "console-user")
    views = AuditLog.objects.filter(action="viewed", object_type="user_overview", target_user_ref="alice",
                                    actor_id=world["operator"].pk)
    assert views.count() == 1
    page.get_by_role("link", name="춘심").click()
    expect(page.locator("#memories")).to_contain_text("사는 곳: 망원동")
    expect(page.locator("#content-main, #content")).not_to_contain_text("Message t1u")
    shoot(page, "console-scope")
    page.get_by_label(f"redact memory {world['fact'].pk}").check()
    page.get_by_label("Reason").select_option("sensitive")
    page.get_by_role("button", name="Redact selected…").click()
    expect(page.get_by_text("This cannot be undone.")).to_be_visible()
    shoot(page, "console-confirm-redact")
    page.get_by_role("button", name="Yes, redact").click()
    expect(page.locator("#done")).to_contain_text("Redacted")
    assert not any("망원동" in m.content for m in Message.objects.filter(user=world["alice"]))
    assert not any("망원동" in f"{m.content} {m.subject_value}" for m in MemoryItem.objects.filter(user=world["alice"]))
    status, block = api(world["url"], "POST", "/api/context/chunsim/prompt?user=alice", world["token"],
                        {"message": "나 어디 살지?"})
    assert status == 200 and "망원동" not in block["text"] and "민트초코" in api(
        world["url"], "POST", "/api/context/chunsim/prompt?user=alice", world["token"], {"message": "나 뭐 좋아해?"})[1]["text"]
    status, exported = api(world["url"], "POST", "/api/context/chunsim/export?user=alice", world["token"])
    assert status == 200 and "망원동" not in exported["markdown"]
    row = AuditLog.objects.get(action="redacted", object_id=str(world["fact"].pk))
    assert row.actor_id == world["operator"].pk and row.details["reason"] == "sensitive"
    page.goto(f"{world['url']}/admin/users/alice/delete/account/")
    expect(page.locator("#irreversible")).to_contain_text("삭제된 데이터는 복구할 수 없습니다")
    shoot(page, "console-confirm-delete")
    page.get_by_role("link", name="Cancel").click()
    assert get_user_model().objects.filter(username="alice").exists()


def test_staff_outside_the_group_are_refused(page: Page, world, shoot):
    sign_in(page, world, "sam", "sam-pass-1")
    expect(page.locator("#refused")).to_be_visible()
    shoot(page, "console-refused")
    response = page.goto(f"{world['url']}/admin/memories/memoryitem/")
    assert response.status == 403
    page.goto(f"{world['url']}/admin/")
    expect(page.get_by_text("Memory items")).to_have_count(0)
    assert not AuditLog.objects.filter(action="viewed", target_user_ref="alice").exists()
