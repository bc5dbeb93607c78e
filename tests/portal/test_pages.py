"""Issue 9 §4: what an end user does on their memory pages, each through the services the API uses."""
from __future__ import annotations

import pytest

from audit.models import AuditLog
from context_layers.models import UserContext
from conversations.models import Message
from memories.models import MemoryItem, MemorySettings
from memories.selectors import memory_settings_for

from .helpers import csrf_post, prompt_text, remember, signed_in


@pytest.fixture
def me(system_client, alice, characters):
    MemorySettings.objects.update_or_create(user=alice, defaults={"consented_at": "2026-11-01T00:00:00Z"})
    client, _ = signed_in(system_client)
    return client


def page(me, path) -> str:
    response = me.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def test_first_visit_shows_the_consent_notice(system_client, alice, characters):
    client, _ = signed_in(system_client)
    response = client.get("/me/c/chunsim")
    assert response.status_code == 302 and response["Location"] == "/me/consent?next=/me/c/chunsim"
    notice = page(client, "/me/consent?next=/me/c/chunsim")
    assert "기억 기능 안내" in notice and "암호화" in notice
    answered = csrf_post(client, "/me/consent", {"answer": "agree", "next": "/me/c/chunsim"})
    assert answered["Location"] == "/me/c/chunsim"  # back to the page asked for
    settings = memory_settings_for(alice)
    assert settings.enabled and settings.consented_at is not None
    assert page(client, "/me/").count("기억하기 켜짐") == 1


def test_declining_consent_turns_memory_off(system_client, alice, chunsim, characters):
    remember(alice, chunsim, "민트초코를 제일 좋아함")
    client, _ = signed_in(system_client)
    csrf_post(client, "/me/consent", {"answer": "decline"})
    assert memory_settings_for(alice).enabled is False
    assert "민트초코" not in prompt_text(system_client)
    assert "민트초코" in page(client, "/me/c/chunsim")  # no notice again: the pages work with memory off


@pytest.mark.parametrize("next_path", ["https://evil.example.net/", "//evil.example.net/", "/me/enter/gk_x",
                                       "/admin/", "/me/\\evil.example.net"])
def test_consent_never_redirects_off_the_pages(system_client, alice, characters, next_path):
    client, _ = signed_in(system_client)
    answered = csrf_post(client, "/me/consent", {"answer": "agree", "next": next_path})
    assert answered["Location"] == "/me/"


def test_turning_memory_on_asks_for_consent_first(system_client, alice, characters):
    MemorySettings.objects.create(user=alice, enabled=False)
    client, _ = signed_in(system_client)
    response = csrf_post(client, "/me/settings", {"enabled": "on", "auto_extraction": "on"})
    assert response.status_code == 302 and response["Location"] == "/me/consent"
    assert memory_settings_for(alice).enabled is False


def test_memory_off_on_the_settings_page_empties_the_next_prompt(me, system_client, alice, chunsim):
    remember(alice, chunsim, "민트초코를 제일 좋아함")
    assert "민트초코" in prompt_text(system_client, "나 뭐 좋아하게?")
    response = csrf_post(me, "/me/settings", {"auto_extraction": "on"})
    assert response.status_code == 302
    assert memory_settings_for(alice).enabled is False
    assert "민트초코" not in prompt_text(system_client, "나 뭐 좋아하게?")
    assert "기억하기가 꺼져 있어요" in page(me, "/me/")
    assert AuditLog.objects.filter(object_type="memory_settings", trigger="portal",
                                   changed_fields__contains=["enabled"]).exists()


def test_settings_page_saves_categories_retention_and_pauses(me, alice, chunsim, sora):
    remember(alice, chunsim, "민트초코를 제일 좋아함")
    remember(alice, sora, "민트초코를 제일 좋아함")
    csrf_post(me, "/me/settings", {"enabled": "on", "allowed_categories": ["preference", "event"],
                                        "retention_days": "30", "paused_characters": ["sora"]})
    settings = memory_settings_for(alice)
    assert settings.allowed_categories == ["event", "preference"] and settings.retention_days == 30
    assert settings.paused_characters == ["sora"] and settings.auto_extraction is False
    html = page(me, "/me/settings")
    assert html.count("checked") == 4  # memory on, two categories, one paused character


def test_bad_settings_are_shown_not_stored(me, alice):
    response = csrf_post(me, "/me/settings", {"enabled": "on", "retention_days": "-3"})
    assert response.status_code == 400
    assert memory_settings_for(alice).retention_days is None


def test_the_character_page_groups_memories_with_dates(me, alice, chunsim):
    remember(alice, chunsim, "민트초코를 제일 좋아함", category="preference")
    remember(alice, chunsim, "다음 주에 부산 여행 감", category="event")
    html = page(me, "/me/c/chunsim")
    assert "춘심이 기억하는 것" in html
    assert html.index("좋아하는 것·싫어하는 것") < html.index("민트초코") < html.index("있었던 일") < html.index("부산 여행")
    assert html.count("틀렸어요") == 2


def test_memories_are_shown_in_english_when_asked(me, alice, chunsim):
    remember(alice, chunsim, "민트초코를 제일 좋아함", category="preference")
    html = page(me, "/me/c/chunsim?lang=en")
    assert "Likes and dislikes" in html and 'lang="en"' in html
    assert "Memory settings" in page(me, "/me/settings")  # the choice lasts the session


def test_deleting_one_memory_confirms_and_removes_it_from_the_next_prompt(me, system_client, alice, chunsim):
    item = remember(alice, chunsim, "민트초코를 제일 좋아함")
    keep = remember(alice, chunsim, "고양이 보리를 키움")
    confirm = page(me, f"/me/c/chunsim/m/{item.pk}/delete")
    assert "삭제된 데이터는 복구할 수 없습니다" in confirm
    assert MemoryItem.objects.filter(pk=item.pk).exists()  # a GET deletes nothing
    response = csrf_post(me, f"/me/c/chunsim/m/{item.pk}/delete")
    assert response.status_code == 302
    assert not MemoryItem.objects.filter(pk=item.pk).exists()
    assert MemoryItem.objects.filter(pk=keep.pk).exists()
    assert "민트초코" not in prompt_text(system_client, "나 뭐 좋아하게?")
    assert AuditLog.objects.filter(action="deleted", object_type="memory_item", object_id=str(item.pk),
                                   trigger="portal").exists()


def test_someone_elses_memory_is_not_found(me, bob, chunsim):
    theirs = remember(bob, chunsim, "bob의 비밀 기억")
    assert me.get(f"/me/c/chunsim/m/{theirs.pk}/delete").status_code == 404
    assert csrf_post(me, f"/me/c/chunsim/m/{theirs.pk}/delete").status_code == 404
    assert csrf_post(me, f"/me/c/chunsim/m/{theirs.pk}/correct", {"content": "x"}).status_code == 404
    assert MemoryItem.objects.filter(pk=theirs.pk, is_active=True).exists()
    assert "bob의 비밀" not in page(me, "/me/c/chunsim")


def test_this_is_wrong_supersedes_the_memory_with_the_users_words(me, system_client, alice, chunsim):
    wrong = remember(alice, chunsim, "사는 곳: 부산", category="location", subject_key="residence", subject_value="부산")
    response = csrf_post(me, f"/me/c/chunsim/m/{wrong.pk}/correct", {"content": "서울 마포구에 살아"})
    assert response.status_code == 302
    wrong.refresh_from_db()
    assert wrong.is_active is False and wrong.superseded_by is not None
    successor = wrong.superseded_by
    assert successor.content == "서울 마포구에 살아" and successor.source == "explicit"
    assert successor.subject_key == "residence" and successor.category == "location"
    block = prompt_text(system_client, "나 어디 살지?")
    assert "마포구" in block and "부산" not in block
    assert "부산" not in page(me, "/me/c/chunsim")


def test_a_correction_is_masked_like_everything_else(me, alice, chunsim):
    wrong = remember(alice, chunsim, "연락처를 알려줌")
    csrf_post(me, f"/me/c/chunsim/m/{wrong.pk}/correct", {"content": "내 번호는 010-1234-5678 이야"})
    stored = MemoryItem.objects.get(user=alice, is_active=True)
    assert "1234-5678" not in stored.content and "010" not in stored.content


def test_an_empty_correction_is_refused(me, alice, chunsim):
    wrong = remember(alice, chunsim, "민트초코를 제일 좋아함")
    response = csrf_post(me, f"/me/c/chunsim/m/{wrong.pk}/correct", {"content": "   "})
    assert response.status_code == 400
    wrong.refresh_from_db()
    assert wrong.is_active


def test_identity_is_editable(me, system_client, alice, chunsim):
    response = csrf_post(me, "/me/c/chunsim/identity",
                         {"nickname": "앨리", "honorific": "반말", "relationship_type": "친구", "custom_title": ""})
    assert response.status_code == 302
    context = system_client.get("/api/context/chunsim?user=alice").json()
    assert context["identity"]["nickname"] == "앨리" and context["identity"]["honorific"] == "반말"
    assert context["identitySources"]["nickname"] == "user"
    assert 'value="앨리"' in page(me, "/me/c/chunsim")


def test_a_bad_identity_is_shown_not_stored(me, alice, chunsim):
    response = csrf_post(me, "/me/c/chunsim/identity", {"honorific": "존대"})
    assert response.status_code == 400
    assert all("userSet" not in (row.identity or {}) for row in UserContext.objects.filter(user=alice))


def test_rules_are_editable_and_keep_the_other_tools(me, system_client, alice, chunsim):
    system_client.put("/api/context/chunsim/tools?user=alice", {"enabledFeatures": ["weather"]}, format="json")
    remember(alice, chunsim, "전 여친이랑 헤어져서 많이 힘들었음")
    response = csrf_post(me, "/me/c/chunsim/rules",
                         {"avoid_topics": "전 여친\n\n전 여친\n회사", "special_dates": "03-15 내 생일\n2026-12-24 첫 데이트"})
    assert response.status_code == 302
    tools = system_client.get("/api/context/chunsim?user=alice").json()["tools"]
    assert tools["avoidTopics"] == ["전 여친", "회사"]
    assert tools["specialDates"] == [{"date": "03-15", "description": "내 생일"},
                                     {"date": "2026-12-24", "description": "첫 데이트"}]
    assert tools["enabledFeatures"] == ["weather"]
    assert "헤어져서" not in prompt_text(system_client, "요즘 좀 힘들어")


def test_a_bad_special_date_is_shown_not_stored(me, alice, chunsim):
    response = csrf_post(me, "/me/c/chunsim/rules", {"special_dates": "내 생일은 언젠가"})
    assert response.status_code == 400
    assert all("specialDates" not in (row.tools or {}) for row in UserContext.objects.filter(user=alice))


def test_pause_and_resume_one_character(me, system_client, alice, chunsim):
    remember(alice, chunsim, "민트초코를 제일 좋아함")
    csrf_post(me, "/me/c/chunsim/pause", {"pause": "1"})
    assert memory_settings_for(alice).paused_characters == ["chunsim"]
    assert "민트초코" not in prompt_text(system_client, "나 뭐 좋아하게?")
    assert "민트초코" in page(me, "/me/c/chunsim")  # still listed for its owner, who may delete it
    csrf_post(me, "/me/c/chunsim/pause", {"pause": "0"})
    assert "민트초코" in prompt_text(system_client, "나 뭐 좋아하게?")


def test_delete_all_for_a_character_after_confirming(me, system_client, alice, chunsim, sora, post_turns):
    post_turns("c1", ("t1u", "나 고양이 보리 키워"), ("t1a", "보리 귀엽겠다"))
    remember(alice, chunsim, "민트초코를 제일 좋아함")
    remember(alice, sora, "민트초코를 제일 좋아함")
    confirm = page(me, "/me/c/chunsim/delete")
    assert "삭제된 데이터는 복구할 수 없습니다" in confirm and "춘심과의" in confirm
    response = csrf_post(me, "/me/c/chunsim/delete")
    assert response.status_code == 302
    assert not MemoryItem.objects.filter(user=alice, character=chunsim).exists()
    assert not Message.objects.filter(user=alice, character=chunsim).exists()
    assert MemoryItem.objects.filter(user=alice, character=sora).exists()
    assert "삭제했어요" in page(me, "/me/")


def test_delete_everything_keeps_the_account(me, alice, chunsim, sora):
    remember(alice, chunsim, "민트초코를 제일 좋아함")
    remember(alice, sora, "고양이 보리를 키움")
    assert "삭제된 데이터는 복구할 수 없습니다" in page(me, "/me/delete")
    csrf_post(me, "/me/delete")
    assert not MemoryItem.objects.filter(user=alice).exists()
    assert page(me, "/me/").count("아직 기억하고 있는 캐릭터가 없어요") == 1


def test_withdrawal_deletes_the_account_and_signs_out(me, alice, chunsim):
    from django.contrib.auth import get_user_model

    remember(alice, chunsim, "민트초코를 제일 좋아함")
    assert "삭제된 데이터는 복구할 수 없습니다" in page(me, "/me/withdraw")
    response = csrf_post(me, "/me/withdraw")
    assert response.status_code == 200 and "탈퇴했어요" in response.content.decode()
    assert not get_user_model().objects.filter(username="alice").exists()
    assert me.get("/me/").status_code == 401
    assert AuditLog.objects.filter(object_type="account", action="deleted", target_user_ref="alice").exists()


def test_export_downloads_markdown(me, alice, chunsim):
    remember(alice, chunsim, "민트초코를 제일 좋아함")
    response = me.get("/me/c/chunsim/export")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert "민트초코" in response.content.decode()
    assert AuditLog.objects.filter(action="exported", target_user_ref="alice", trigger="portal").exists()


def test_the_home_page_lists_only_the_users_characters(me, alice, bob, chunsim, sora):
    remember(alice, chunsim, "민트초코를 제일 좋아함")
    remember(bob, sora, "bob 기억")
    html = page(me, "/me/")
    assert "/me/c/chunsim" in html and "/me/c/sora" not in html


def test_rules_are_never_dropped_for_budget(system_client, alice, chunsim):
    """Issue 9 §6: 50 avoid topics (the most a tools document holds) all reach the block at the default budget,
    ahead of memories; at a budget too small for them all, the first ones still do, never an empty heading."""
    topics = [f"주제{number:02d}" for number in range(50)]
    for number in range(40):
        remember(alice, chunsim, f"기억 {number}번: 오늘은 평범한 하루였고 산책을 오래 했음")
    system_client.put("/api/context/chunsim/tools?user=alice", {"avoidTopics": topics}, format="json")
    block = system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "오늘 뭐 했어?"},
                               format="json").json()
    assert all(topic in block["text"] for topic in topics)
    assert block["layers"]["memory"]["tokens"] > 0 and block["tokens"] <= 1100
    small = system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "오늘 뭐 했어?",
                                                                          "budgetTokens": 200}, format="json").json()
    assert "주제00" in small["text"] and small["tokens"] <= 200
    assert "[행동 규칙]\n" in small["text"] + "\n" and not small["text"].rstrip().endswith("[행동 규칙]")


def test_what_the_character_said_cannot_be_reworded_by_the_user(me, alice, chunsim):
    said = remember(alice, chunsim, "춘심: 내일 아침에 깨워준다고 약속함", source="character", category="promise")
    assert me.get(f"/me/c/chunsim/m/{said.pk}/correct").status_code == 404
    assert csrf_post(me, f"/me/c/chunsim/m/{said.pk}/correct", {"content": "x"}).status_code == 404
    said.refresh_from_db()
    assert said.is_active
