"""Every audited admin list page names whose data it showed (issue 7, item 11).

A list page writes one `viewed` row per (user, character) with rows on the page, with how many; an
auditor asking "who looked at alice's data" finds every page that showed any of it. An empty page writes
nothing, and no `viewed` row is ever without a target user.
"""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

import pytest
from django.contrib import admin

from accounts.services import portal_link_issue
from audit.admin_mixins import AuditedReadAdminMixin
from audit.models import AuditLog
from audit.services import SYSTEM_CONTEXT
from context_layers.services import layer_put
from conversations.models import Conversation
from conversations.summaries import conversation_end, conversation_summarize
from memories.models import MemoryItem, MemorySettings

# Every admin list that shows end users' data: found from the registry, so a new one is covered too.
AUDITED = sorted(
    (model._meta.label, f"/admin/{model._meta.app_label}/{model._meta.model_name}/", model_admin.audit_object_type)
    for model, model_admin in admin.site._registry.items() if isinstance(model_admin, AuditedReadAdminMixin)
)


def say(client, user: str, character: str, conversation: str, *texts: str):
    start = datetime.fromisoformat("2026-03-02T22:00:00+09:00")
    messages = [{"id": f"{conversation}-{i}", "role": "user" if i % 2 == 0 else "assistant", "content": text,
                 "createdAt": (start + timedelta(seconds=i)).isoformat()} for i, text in enumerate(texts)]
    response = client.post(f"/api/context/{character}/messages?user={user}",
                           {"conversationId": conversation, "messages": messages}, format="json")
    assert response.status_code == 202, response.content


@pytest.fixture
def two_users_data(system_client, alice, bob, chunsim, sora, django_capture_on_commit_callbacks):
    """alice with chunsim and sora, bob with chunsim: rows in every audited model."""
    with django_capture_on_commit_callbacks(execute=True):
        say(system_client, "alice", "chunsim", "a1", "나 고양이 나비 키워", "귀엽다", "너한테만 말하는 비밀인데 고마워")
        say(system_client, "alice", "sora", "a2", "나 서울 살아", "그렇구나")
        say(system_client, "bob", "chunsim", "b1", "나 떡볶이 좋아해", "나도")
    for user, character in ((alice, chunsim), (alice, sora), (bob, chunsim)):
        layer_put(user=user, character=character, layer="heartbeat", document={"recentDaysCount": 1},
                  context=SYSTEM_CONTEXT)
    for conversation in Conversation.objects.all():
        conversation_end(conversation=conversation)
        conversation_summarize(conversation_id=conversation.pk)
    MemorySettings.objects.create(user=alice)
    MemorySettings.objects.create(user=bob)
    for user, character in ((alice, "chunsim"), (alice, ""), (bob, "sora")):
        portal_link_issue(user=user, issued_by=None, character_slug=character, context=SYSTEM_CONTEXT)


def test_every_user_data_admin_is_audited():
    labels = {label for label, _, _ in AUDITED}
    assert {"memories.MemoryItem", "memories.MemorySettings", "context_layers.UserContext",
            "context_layers.UserActivity", "context_layers.Relationship", "conversations.Conversation",
            "conversations.Message", "conversations.ConversationSummary", "accounts.UserPlan"} <= labels


@pytest.mark.parametrize("label, url, object_type", AUDITED, ids=[label for label, _, _ in AUDITED])
def test_a_list_page_writes_one_row_per_user_and_character_shown(operator, charlie, two_users_data,
                                                                 label, url, object_type):
    since = AuditLog.objects.order_by("-id").values_list("id", flat=True).first()

    response = operator.get(url)

    assert response.status_code == 200
    shown = Counter()
    model_admin = response.context["cl"].model_admin
    for obj in response.context["cl"].result_list:
        target = model_admin.audit_target(obj)
        shown[(target["target_user_ref"], target["character_slug"])] += 1
    assert shown, f"{label}: the fixture should put rows on this page"
    rows = AuditLog.objects.filter(pk__gt=since)
    assert all(row.action == "viewed" and row.trigger == "admin" and row.actor_id == charlie.pk for row in rows)
    assert all(row.object_type == f"{object_type}_list" for row in rows)
    assert all(row.target_user_id is not None and row.target_user_ref for row in rows)
    assert {(row.target_user_ref, row.character_slug): row.details["count"] for row in rows} == dict(shown)
    assert {row.target_user_ref for row in rows} == {"alice", "bob"}


def test_a_list_filtered_to_one_user_names_only_that_user(operator, two_users_data, alice):
    since = AuditLog.objects.order_by("-id").values_list("id", flat=True).first()

    response = operator.get("/admin/memories/memoryitem/?q=bob")

    assert response.status_code == 200
    rows = list(AuditLog.objects.filter(pk__gt=since))
    assert rows and {row.target_user_ref for row in rows} == {"bob"}
    assert sum(row.details["count"] for row in rows) == MemoryItem.objects.filter(user__username="bob").count()


def test_an_empty_list_page_writes_no_row(operator, two_users_data):
    since = AuditLog.objects.order_by("-id").values_list("id", flat=True).first()

    response = operator.get("/admin/memories/memoryitem/?q=nobody-at-all")

    assert response.status_code == 200
    assert not AuditLog.objects.filter(pk__gt=since).exists()


def test_no_viewed_row_is_ever_without_a_target_user(operator, two_users_data):
    for _, url, _ in AUDITED:
        assert operator.get(url).status_code == 200

    assert AuditLog.objects.filter(action="viewed").exists()
    assert not AuditLog.objects.filter(action="viewed", target_user_id__isnull=True).exists()
    assert not AuditLog.objects.filter(action="viewed", target_user_ref="").exists()
