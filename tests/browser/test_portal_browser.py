"""Issue 9 §7: an end user on their memory pages in a real browser (chromium), from the chat backend's portal
link to withdrawal; every page is saved at phone and desktop width under tests/screenshots/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import TokenKind
from accounts.services import api_token_create, end_user_get_or_create
from audit.services import AuditContext
from characters.models import Character
from context_layers.demo import load_characters
from memories.models import MemoryItem
from memories.services import MemoryInput, memory_create

from .conftest import api

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

CONTEXT = AuditContext(actor_label="test", trigger="system")


@pytest.fixture
def world(seeded, live_server):
    """Characters, alice with two memories for 춘심 and one for 소라, and a chat backend's token."""
    load_characters()
    alice = end_user_get_or_create(external_id="alice")
    chunsim, sora = Character.objects.get(slug="chunsim"), Character.objects.get(slug="sora")
    mint, _ = memory_create(user=alice, character=chunsim, context=CONTEXT,
                            data=MemoryInput(content="민트초코를 제일 좋아함", category="preference"))
    home, _ = memory_create(user=alice, character=chunsim, context=CONTEXT, data=MemoryInput(
        content="사는 곳: 부산", category="location", subject_key="residence", subject_value="부산"))
    cat, _ = memory_create(user=alice, character=sora, context=CONTEXT,
                           data=MemoryInput(content="고양이 보리를 키움", category="personal_info"))
    _, token = api_token_create(name="chat-backend", kind=TokenKind.SERVICE)
    return {"url": live_server.url, "token": token, "alice": alice, "mint": mint, "home": home, "cat": cat}


def prompt(world, message: str, character: str = "chunsim") -> dict:
    status, body = api(world["url"], "POST", f"/api/context/{character}/prompt?user=alice", world["token"],
                       {"message": message})
    assert status == 200, body
    return body


def enter(page: Page, world, **body) -> None:
    """The chat backend asks for a portal link; the user's browser opens it."""
    status, opened = api(world["url"], "POST", "/api/accounts/portal-sessions?user=alice", world["token"], body)
    assert status == 201, opened
    page.goto(opened["url"])


def agree(page: Page, shoot) -> None:
    expect(page.get_by_role("heading", name="기억 기능 안내")).to_be_visible()
    shoot(page, "consent")
    page.get_by_role("button", name="동의하고 켜기").click()
    expect(page.get_by_role("heading", name="기억 기능 안내")).to_have_count(0)


def test_backend_opens_a_session_and_the_user_turns_memory_off(page: Page, world, shoot):
    enter(page, world)
    agree(page, shoot)
    expect(page.get_by_role("heading", name="기억하기 켜짐")).to_be_visible()
    expect(page.get_by_role("link", name="춘심")).to_be_visible()
    shoot(page, "home")
    assert prompt(world, "나 뭐 좋아하게?")["layers"]["memory"]["tokens"] > 0
    page.get_by_role("link", name="기억 설정").click()
    shoot(page, "settings")
    page.get_by_label("기억하기", exact=True).uncheck()
    page.get_by_role("button", name="저장").click()
    expect(page.get_by_text("저장했어요.")).to_be_visible()
    after = prompt(world, "나 뭐 좋아하게?")
    assert after["layers"]["memory"]["tokens"] == 0 and "민트초코" not in after["text"]
    page.get_by_role("link", name="기억 관리").click()
    expect(page.get_by_text("기억하기가 꺼져 있어요.", exact=False)).to_be_visible()
    page.get_by_role("link", name="English").click()
    expect(page.get_by_role("heading", name="Memory is off")).to_be_visible()
    shoot(page, "home-en")


def test_user_deletes_one_memory_and_it_is_gone_from_the_next_prompt(page: Page, world, shoot):
    enter(page, world, character="chunsim")
    agree(page, shoot)  # the link was for 춘심: the notice, then 춘심's page
    expect(page.get_by_role("heading", name="춘심이 기억하는 것")).to_be_visible()
    shoot(page, "character")
    assert "민트초코" in prompt(world, "나 뭐 좋아하게?")["text"]
    page.locator(f'li[data-memory="{world["mint"].pk}"]').get_by_role("link", name="삭제").click()
    expect(page.get_by_text("삭제된 데이터는 복구할 수 없습니다")).to_be_visible()
    shoot(page, "confirm-memory")
    page.get_by_role("button", name="삭제하기").click()
    expect(page.get_by_text("삭제했어요.")).to_be_visible()
    expect(page.get_by_text("민트초코를 제일 좋아함")).to_have_count(0)
    assert not MemoryItem.objects.filter(pk=world["mint"].pk).exists()
    assert "민트초코" not in prompt(world, "나 뭐 좋아하게?")["text"]


def test_user_marks_a_memory_wrong_and_types_the_correction(page: Page, world, shoot):
    enter(page, world, character="chunsim")
    agree(page, shoot)
    page.goto(f"{world['url']}/me/c/chunsim")
    page.locator(f'li[data-memory="{world["home"].pk}"]').get_by_role("link", name="틀렸어요").click()
    expect(page.locator("#wrong-memory")).to_have_text("사는 곳: 부산")
    page.get_by_label("맞는 내용을 적어 주세요", exact=False).fill("서울 마포구로 이사했어")
    shoot(page, "correct")
    page.get_by_role("button", name="바로잡기").click()
    expect(page.get_by_text("바로잡았어요.")).to_be_visible()
    expect(page.get_by_text("서울 마포구로 이사했어")).to_be_visible()
    expect(page.get_by_text("사는 곳: 부산")).to_have_count(0)
    block = prompt(world, "나 어디 산다고 했지?")["text"]
    assert "마포구" in block and "부산" not in block


def test_user_edits_identity_and_rules(page: Page, world, shoot):
    enter(page, world, character="chunsim")
    agree(page, shoot)
    page.goto(f"{world['url']}/me/c/chunsim")
    page.get_by_label("애칭").fill("앨리")
    page.get_by_label("말투").select_option("반말")
    page.locator("#identity-form").get_by_role("button", name="저장").click()
    expect(page.get_by_text("저장했어요.")).to_be_visible()
    page.get_by_label("피할 주제", exact=False).fill("민트초코")
    page.get_by_label("특별한 날", exact=False).fill("03-15 내 생일")
    page.locator("#rules-form").get_by_role("button", name="저장").click()
    expect(page.get_by_text("저장했어요.")).to_be_visible()
    shoot(page, "character-edited")
    block = prompt(world, "오늘 뭐 먹을까?")["text"]
    assert "앨리" in block and "민트초코를 제일" not in block


def test_user_deletes_everything_for_a_character_after_confirming(page: Page, world, shoot):
    enter(page, world, character="chunsim")
    agree(page, shoot)
    page.goto(f"{world['url']}/me/c/chunsim")
    page.get_by_role("link", name="이 캐릭터의 기억 모두 삭제").click()
    expect(page.get_by_text("삭제된 데이터는 복구할 수 없습니다")).to_be_visible()
    shoot(page, "confirm-character")
    page.get_by_role("link", name="취소").click()
    assert MemoryItem.objects.filter(user=world["alice"], character_id="chunsim").count() == 2
    page.get_by_role("link", name="이 캐릭터의 기억 모두 삭제").click()
    page.get_by_role("button", name="삭제하기").click()
    expect(page.get_by_text(re.compile(r"삭제했어요. \(기억 2개"))).to_be_visible()
    assert not MemoryItem.objects.filter(user=world["alice"], character_id="chunsim").exists()
    assert MemoryItem.objects.filter(pk=world["cat"].pk).exists()
    assert prompt(world, "나 뭐 좋아하게?")["layers"]["memory"]["tokens"] == 0


def test_user_withdraws_the_account(page: Page, world, shoot):
    from django.contrib.auth import get_user_model

    enter(page, world)
    agree(page, shoot)
    page.get_by_role("link", name="탈퇴 (모든 데이터 삭제)").click()
    expect(page.get_by_text("삭제된 데이터는 복구할 수 없습니다")).to_be_visible()
    shoot(page, "confirm-withdraw")
    page.get_by_role("button", name="삭제하기").click()
    expect(page.get_by_text("탈퇴했어요.", exact=False)).to_be_visible()
    shoot(page, "withdrawn")
    assert not get_user_model().objects.filter(username="alice").exists()
    assert not MemoryItem.objects.filter(pk__in=[world["mint"].pk, world["cat"].pk]).exists()
    page.goto(f"{world['url']}/me/")
    expect(page.get_by_text("로그인이 필요해요", exact=False)).to_be_visible()


def test_a_spent_link_shows_why(page: Page, world, shoot):
    status, opened = api(world["url"], "POST", "/api/accounts/portal-sessions?user=alice", world["token"], {})
    page.goto(opened["url"])
    page.context.clear_cookies()
    response = page.goto(opened["url"])
    assert response.status == 410
    expect(page.get_by_text("링크가 만료됐거나 이미 사용됐어요", exact=False)).to_be_visible()
    shoot(page, "link-expired")
