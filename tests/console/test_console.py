"""Issue 9 §5: the operator console by external user id — overview, redaction, deletion requests, access."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import CONTEXT_ADMIN_GROUP
from audit.models import AuditLog
from context_layers.services import layer_put
from conversations.models import ConversationSummary, Message
from conversations.redaction import REDACTED, RedactionTargets, scope_redact
from conversations.summaries import conversation_end, conversation_summarize
from conversations.models import Conversation
from memories.models import MemoryItem

from tests.portal.helpers import CONTEXT, prompt_text, remember


@pytest.fixture
def alice_home(alice, chunsim, post_turns):
    """alice told 춘심 where she lives: a message, a fact memory from it, a summary, and an identity layer."""
    post_turns("c1", ("t1u", "나 요즘 망원동 살아. 망원동 시장 좋아"), ("t1a", "망원동 좋지!"))
    fact = remember(alice, chunsim, "사는 곳: 망원동", category="location", subject_key="residence",
                    subject_value="망원동", source_conversation_id="c1", source_message_id="t1u")
    conversation = Conversation.objects.get(user=alice, external_id="c1")
    conversation_end(conversation=conversation)
    conversation_summarize(conversation_id=conversation.pk)
    layer_put(user=alice, character=chunsim, layer="identity", document={"nickname": "망원동 앨리"}, context=CONTEXT)
    return fact


def _everything_of(alice) -> str:
    texts = [m.content for m in Message.objects.filter(user=alice)]
    texts += [f"{m.content} {m.subject_value}" for m in MemoryItem.objects.filter(user=alice)]
    texts += [f"{s.summary} {s.topics}" for s in ConversationSummary.objects.filter(conversation__user=alice)]
    from context_layers.models import UserContext

    texts += [f"{c.heartbeat} {c.identity} {c.soul} {c.tools}" for c in UserContext.objects.filter(user=alice)]
    return "\n".join(texts)


def test_redacting_a_fact_removes_its_value_everywhere(system_client, alice, chunsim, alice_home, charlie):
    assert "망원동" in _everything_of(alice)
    counts = scope_redact(user=alice, character=chunsim, targets=RedactionTargets(memory_ids=[alice_home.pk]),
                          reason="sensitive", context=CONTEXT)
    everything = _everything_of(alice)
    assert "망원동" not in everything and REDACTED in everything
    assert counts["memories"] >= 1 and counts["messages"] >= 2 and counts["layers"] == 1
    assert "망원동" not in prompt_text(system_client, "나 어디 살지?")
    export = system_client.post("/api/context/chunsim/export?user=alice").json()["markdown"]
    assert "망원동" not in export
    alice_home.refresh_from_db()
    assert alice_home.is_active is False
    rows = AuditLog.objects.filter(action="redacted", object_type="memory_item", object_id=str(alice_home.pk))
    assert rows.count() == 1 and rows.get().details["reason"] == "sensitive"
    assert "망원동" not in str(list(AuditLog.objects.values()))


def test_redacting_needs_a_reason_code(alice, chunsim, alice_home):
    from core.errors import ApplicationError

    with pytest.raises(ApplicationError):
        scope_redact(user=alice, character=chunsim, targets=RedactionTargets(memory_ids=[alice_home.pk]),
                     reason="because I said 망원동", context=CONTEXT)
    assert "망원동" in _everything_of(alice)


def test_redaction_touches_only_that_users_scope(system_client, alice, bob, chunsim, alice_home):
    bobs = remember(bob, chunsim, "망원동 맛집을 좋아함")
    scope_redact(user=alice, character=chunsim, targets=RedactionTargets(memory_ids=[alice_home.pk]),
                 reason="sensitive", context=CONTEXT)
    bobs.refresh_from_db()
    assert "망원동" in bobs.content


def test_someone_elses_memory_cannot_be_redacted_through_another_scope(alice, bob, chunsim, sora, alice_home):
    from core.errors import ApplicationError

    with pytest.raises(ApplicationError):
        scope_redact(user=bob, character=chunsim, targets=RedactionTargets(memory_ids=[alice_home.pk]),
                     reason="sensitive", context=CONTEXT)
    alice_home.refresh_from_db()
    assert alice_home.content == "사는 곳: 망원동"


def test_the_overview_is_found_by_external_id_and_audited(operator, alice, chunsim, alice_home, charlie):
    search = operator.get("/admin/users/?q=alice")
    assert search.status_code == 302 and search["Location"] == "/admin/users/alice/"
    assert operator.get("/admin/users/?q=ali").status_code == 200  # exact ids only: no partial match
    page = operator.get("/admin/users/alice/").content.decode()
    assert "춘심" in page and "망원동" not in page  # counts and dates, no content
    rows = AuditLog.objects.filter(action="viewed", object_type="user_overview", target_user_ref="alice")
    assert rows.count() == 1 and rows.get().actor_id == charlie.pk


def test_the_scope_page_shows_content_and_is_audited(operator, alice, chunsim, alice_home):
    page = operator.get("/admin/users/alice/c/chunsim/").content.decode()
    assert "망원동" in page
    assert AuditLog.objects.filter(action="viewed", object_type="user_scope", target_user_ref="alice",
                                   character_slug="chunsim").count() == 1


def test_redaction_from_the_console_confirms_first(operator, system_client, alice, chunsim, alice_home):
    confirm = operator.post("/admin/users/alice/c/chunsim/", {"memory": [alice_home.pk], "reason": "user_request"})
    assert confirm.status_code == 200 and "cannot be undone" in confirm.content.decode()
    assert "망원동" in _everything_of(alice)
    done = operator.post("/admin/users/alice/c/chunsim/", {"memory": [alice_home.pk], "reason": "user_request",
                                                           "confirmed": "yes"})
    assert done.status_code == 200
    assert "망원동" not in _everything_of(alice)


def test_redaction_without_reason_is_refused(operator, alice, chunsim, alice_home):
    response = operator.post("/admin/users/alice/c/chunsim/", {"memory": [alice_home.pk], "confirmed": "yes"})
    assert response.status_code == 400
    assert "망원동" in _everything_of(alice)


@pytest.mark.parametrize("kind, query", [("memory", "?character=chunsim&memory={id}"), ("character", "?character=chunsim"),
                                         ("everything", ""), ("account", "")])
def test_deletion_requests_confirm_then_go_through_the_services(operator, alice, chunsim, alice_home, kind, query):
    url = f"/admin/users/alice/delete/{kind}/" + query.format(id=alice_home.pk)
    confirm = operator.get(url)
    assert confirm.status_code == 200 and "복구할 수 없습니다" in confirm.content.decode()
    assert MemoryItem.objects.filter(pk=alice_home.pk).exists()
    data = {"character": "chunsim", "memory": alice_home.pk} if kind in ("memory", "character") else {}
    assert operator.post(f"/admin/users/alice/delete/{kind}/", data).status_code == 200
    assert not MemoryItem.objects.filter(pk=alice_home.pk).exists()
    user_exists = get_user_model().objects.filter(username="alice").exists()
    assert user_exists is (kind != "account")
    assert AuditLog.objects.filter(action="deleted", target_user_ref="alice", trigger="admin").exists()


@pytest.fixture
def plain_staff(db):
    user = get_user_model().objects.create_user("dana", password="x", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(user)
    return client


def test_staff_outside_the_group_see_no_user_data(plain_staff, alice, chunsim, alice_home):
    """Even a superuser outside context-admin: no user pages, no user-data models, no audit trail."""
    assert plain_staff.get("/admin/users/alice/").status_code == 403
    assert plain_staff.get("/admin/users/alice/c/chunsim/").status_code == 403
    assert plain_staff.post("/admin/users/alice/delete/account/").status_code == 403
    for url in ("/admin/memories/memoryitem/", "/admin/conversations/message/", "/admin/audit/auditlog/",
                "/admin/context_layers/usercontext/", f"/admin/memories/memoryitem/{alice_home.pk}/change/",
                "/admin/accounts/apitoken/"):
        assert plain_staff.get(url).status_code == 403, url
    index = plain_staff.get("/admin/").content.decode()
    assert "Memory items" not in index and "Messages" not in index
    assert get_user_model().objects.filter(username="alice").exists()


def test_the_job_monitor_is_for_superusers(operator, charlie, alice):
    assert operator.get("/admin/django_q/success/").status_code == 200  # charlie is a superuser
    charlie.is_superuser = False
    charlie.save()
    from accounts.services import operator_permissions

    group = Group.objects.get(name=CONTEXT_ADMIN_GROUP)
    group.permissions.add(*operator_permissions())
    assert operator.get("/admin/django_q/success/").status_code == 403
    assert operator.get("/admin/memories/memoryitem/").status_code == 200


def test_no_select_lists_every_memory(operator, alice, chunsim, alice_home):
    page = operator.get(f"/admin/memories/memoryitem/{alice_home.pk}/change/").content.decode()
    assert 'name="superseded_by"' not in page


def test_titles_name_the_user_and_character(operator, alice, chunsim, alice_home):
    page = operator.get(f"/admin/memories/memoryitem/{alice_home.pk}/change/").content.decode()
    assert "of alice with 춘심" in page


def test_the_audit_log_filters_by_user_actor_action_and_date(operator, alice, bob, chunsim, alice_home):
    from audit.services import audit_record

    audit_record(context=CONTEXT, action="viewed", object_type="memory_item", target_user_ref="bob")
    page = operator.get("/admin/audit/auditlog/?user=alice&action=created")
    assert page.status_code == 200
    shown = list(page.context["cl"].result_list)
    assert shown and all(row.target_user_ref == "alice" and row.action == "created" for row in shown)
    by_actor = operator.get("/admin/audit/auditlog/?actor=test").context["cl"].result_list
    assert by_actor and all(row.actor_label == "test" for row in by_actor)
    assert operator.get("/admin/audit/auditlog/?created_at__year=2026").status_code == 200
    assert 'name="user"' in page.content.decode() and 'name="actor"' in page.content.decode()


def test_the_admin_index_links_operators_to_the_user_pages(operator, plain_staff):
    assert "/admin/users/" in operator.get("/admin/").content.decode()
    assert "/admin/users/" not in plain_staff.get("/admin/").content.decode()


@pytest.mark.parametrize("url", ["/admin/conversations/message/", "/admin/conversations/conversation/",
                                 "/admin/conversations/conversationsummary/", "/admin/memories/memorysettings/",
                                 "/admin/context_layers/relationship/", "/admin/context_layers/useractivity/",
                                 "/admin/accounts/userplan/", "/admin/accounts/apitoken/", "/admin/accounts/portallink/"])
def test_user_data_is_never_deleted_behind_the_services_back(operator, alice, chunsim, alice_home, url):
    """Only admins whose deletes go through an audited erasure service offer delete; the rest have none."""
    model_admin = operator.get(url).context["cl"].model_admin
    request = operator.get(url).wsgi_request
    assert not model_admin.has_delete_permission(request)


def test_memory_and_context_deletes_in_the_admin_go_through_the_services(operator, alice, chunsim, alice_home):
    response = operator.post(f"/admin/memories/memoryitem/{alice_home.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not MemoryItem.objects.filter(pk=alice_home.pk).exists()
    assert AuditLog.objects.filter(action="deleted", object_type="memory_item", object_id=str(alice_home.pk)).exists()
