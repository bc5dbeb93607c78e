"""Every operator read of user data in the admin is audited; edits go through audited services."""
from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin

from audit.models import AuditLog
from audit.services import AuditContext, audit_record
from context_layers.models import UserContext
from context_layers.services import layer_put
from memories.models import MemoryItem, MemorySettings
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")


@pytest.fixture
def memory(alice, chunsim):
    item, _ = memory_create(user=alice, character=chunsim, context=CONTEXT,
                            data=MemoryInput(content="떡볶이를 제일 좋아함", subject_key="favorite_food",
                                             subject_value="떡볶이", importance=6))
    return item


@pytest.fixture
def user_context(alice, chunsim):
    layer_put(user=alice, character=chunsim, layer="identity", context=CONTEXT,
              document={"nickname": "떡볶이공주", "honorific": "반말"})
    return UserContext.objects.get(user=alice, character=chunsim)


@pytest.fixture
def memory_settings(alice):
    return MemorySettings.objects.create(user=alice, retention_days=30)


def new_audit_rows(since: int):
    return AuditLog.objects.filter(pk__gt=since).order_by("id")


def last_audit_id() -> int:
    return AuditLog.objects.order_by("-id").values_list("id", flat=True).first() or 0


def assert_operator_row(row: AuditLog, charlie, *, action: str) -> None:
    assert row.action == action
    assert row.trigger == "admin"
    assert row.actor_label == "admin:charlie"
    assert row.actor_id == charlie.pk


@pytest.mark.parametrize("url, object_type", [
    ("/admin/memories/memoryitem/", "memory_item_list"),
    ("/admin/context_layers/usercontext/", "user_context_list"),
    ("/admin/memories/memorysettings/", "memory_settings_list"),
])
def test_changelist_view_writes_a_viewed_row_naming_the_owner(operator, charlie, alice, memory, user_context,
                                                              memory_settings, url, object_type):
    since = last_audit_id()

    response = operator.get(url)

    assert response.status_code == 200
    rows = list(new_audit_rows(since))
    assert len(rows) == 1
    assert_operator_row(rows[0], charlie, action="viewed")
    assert rows[0].object_type == object_type
    assert (rows[0].target_user_id, rows[0].target_user_ref) == (alice.pk, "alice")
    assert rows[0].details == {"count": 1}


def test_memory_change_page_writes_a_viewed_row_naming_the_owner(operator, charlie, memory):
    since = last_audit_id()

    response = operator.get(f"/admin/memories/memoryitem/{memory.pk}/change/")

    assert response.status_code == 200
    assert "떡볶이를 제일 좋아함" in response.content.decode()  # the operator does see the decrypted text
    [row] = new_audit_rows(since)
    assert_operator_row(row, charlie, action="viewed")
    assert (row.object_type, row.object_id) == ("memory_item", str(memory.pk))
    assert (row.target_user_ref, row.target_user_id, row.character_slug) == ("alice", memory.user_id, "chunsim")


def test_user_context_change_page_writes_a_viewed_row_naming_the_owner(operator, charlie, alice, user_context):
    since = last_audit_id()

    response = operator.get(f"/admin/context_layers/usercontext/{user_context.pk}/change/")

    assert response.status_code == 200
    [row] = new_audit_rows(since)
    assert_operator_row(row, charlie, action="viewed")
    assert (row.object_type, row.object_id) == ("user_context", str(user_context.pk))
    assert (row.target_user_ref, row.target_user_id, row.character_slug) == ("alice", alice.pk, "chunsim")


def test_memory_settings_change_page_writes_a_viewed_row_naming_the_owner(operator, charlie, alice, memory_settings):
    since = last_audit_id()

    response = operator.get(f"/admin/memories/memorysettings/{memory_settings.pk}/change/")

    assert response.status_code == 200
    [row] = new_audit_rows(since)
    assert_operator_row(row, charlie, action="viewed")
    assert (row.object_type, row.object_id) == ("memory_settings", str(memory_settings.pk))
    assert (row.target_user_ref, row.target_user_id) == ("alice", alice.pk)


def test_missing_object_change_page_writes_no_viewed_row(operator, memory):
    since = last_audit_id()

    response = operator.get("/admin/memories/memoryitem/999999/change/")

    # The admin redirects to its index with a "does not exist" message.
    assert response.status_code == 302
    assert not new_audit_rows(since).exists()


def test_audit_log_admin_is_read_only(operator, alice):
    row = audit_record(context=CONTEXT, action="created", object_type="memory_item", object_id=1,
                       target_user_id=alice.pk, target_user_ref="alice")
    change_url = f"/admin/audit/auditlog/{row.pk}/change/"

    listing = operator.get("/admin/audit/auditlog/")
    assert listing.status_code == 200
    assert "/admin/audit/auditlog/add/" not in listing.content.decode()
    assert operator.get("/admin/audit/auditlog/add/").status_code == 403

    page = operator.get(change_url)
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert page.context["has_change_permission"] is False

    edit = operator.post(change_url, {"actor_label": "forged", "action": "deleted", "trigger": "admin",
                                      "object_type": "memory_item"})
    assert edit.status_code == 403
    assert operator.post(f"/admin/audit/auditlog/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = operator.post("/admin/audit/auditlog/", {"action": "delete_selected", "_selected_action": [row.pk],
                                                    "post": "yes"})
    assert bulk.status_code in (200, 302)  # the admin offers no delete action here, so nothing happens
    assert AuditLog.objects.get(pk=row.pk).actor_label == "test"


def memory_form_data(item: MemoryItem, **changes) -> dict:
    """The memory change form as the admin renders it, with some fields changed."""
    data = {
        "user": item.user_id, "character": item.character_id, "content": item.content,
        "category": item.category, "kind": item.kind, "subject_key": item.subject_key,
        "subject_value": item.subject_value, "importance": item.importance, "confidence": item.confidence,
        "strength": item.strength, "emotion": item.emotion, "emotion_intensity": item.emotion_intensity,
        "source": item.source, "source_conversation_id": item.source_conversation_id,
        "source_message_id": item.source_message_id,
        "expires_at_0": "", "expires_at_1": "", "archived_at_0": "", "archived_at_1": "",
        "is_active": "on" if item.is_active else "",
        "_save": "Save",
    }
    data.update(changes)
    return data


def test_admin_edit_of_a_memory_writes_an_updated_row(operator, charlie, memory):
    since = last_audit_id()

    response = operator.post(f"/admin/memories/memoryitem/{memory.pk}/change/",
                             memory_form_data(memory, importance=9))

    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else response
    reloaded = MemoryItem.objects.get(pk=memory.pk)
    assert reloaded.importance == 9
    assert reloaded.content == "떡볶이를 제일 좋아함"
    [row] = new_audit_rows(since)
    assert_operator_row(row, charlie, action="updated")
    assert (row.object_type, row.object_id, row.target_user_ref) == ("memory_item", str(memory.pk), "alice")
    assert row.changed_fields == ["importance"]


def test_admin_redaction_of_memory_content_is_audited_without_the_text(operator, memory):
    since = last_audit_id()

    response = operator.post(f"/admin/memories/memoryitem/{memory.pk}/change/",
                             memory_form_data(memory, content="[삭제됨]  redacted "))

    assert response.status_code == 302
    reloaded = MemoryItem.objects.get(pk=memory.pk)
    assert reloaded.content == "[삭제됨] redacted"
    assert reloaded.content_hash != memory.content_hash
    [row] = new_audit_rows(since)
    assert row.changed_fields == ["content"]
    assert "삭제됨" not in str(row.details) and "redacted" not in str(row.details)


def test_admin_delete_of_a_memory_writes_a_deleted_row(operator, charlie, memory):
    since = last_audit_id()

    response = operator.post(f"/admin/memories/memoryitem/{memory.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not MemoryItem.objects.filter(pk=memory.pk).exists()
    [row] = new_audit_rows(since)
    assert_operator_row(row, charlie, action="deleted")
    assert (row.object_type, row.object_id, row.target_user_ref) == ("memory_item", str(memory.pk), "alice")


def test_admin_bulk_delete_of_memories_writes_one_deleted_row_each(operator, bob, chunsim, memory):
    other, _ = memory_create(user=bob, character=chunsim, data=MemoryInput(content="고양이 '나비'를 키움"),
                             context=CONTEXT)
    since = last_audit_id()

    response = operator.post("/admin/memories/memoryitem/", {
        "action": "delete_selected", "_selected_action": [memory.pk, other.pk], "post": "yes",
    })

    assert response.status_code == 302
    assert not MemoryItem.objects.filter(pk__in=[memory.pk, other.pk]).exists()
    deleted = new_audit_rows(since).filter(action="deleted")
    assert {(row.object_id, row.target_user_ref) for row in deleted} == {(str(memory.pk), "alice"),
                                                                         (str(other.pk), "bob")}
    assert all(row.trigger == "admin" and row.actor_label == "admin:charlie" for row in deleted)


def test_admin_delete_of_a_user_context_erases_the_scope_through_the_service(operator, charlie, memory, user_context):
    """Issue 9 §5: the console's delete of a scope took its messages but left its memories, unaudited."""
    since = last_audit_id()

    response = operator.post(f"/admin/context_layers/usercontext/{user_context.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not UserContext.objects.filter(pk=user_context.pk).exists()
    assert not MemoryItem.objects.filter(pk=memory.pk).exists()
    [row] = new_audit_rows(since).filter(action="deleted")
    assert_operator_row(row, charlie, action="deleted")
    assert (row.object_type, row.target_user_ref, row.character_slug) == ("context_scope", "alice", "chunsim")
    assert row.details["memories_deleted"] == 1


def test_admin_bulk_delete_of_user_contexts_erases_each_scope(operator, memory, user_context):
    response = operator.post("/admin/context_layers/usercontext/", {
        "action": "delete_selected", "_selected_action": [user_context.pk], "post": "yes"})
    assert response.status_code == 302
    assert not MemoryItem.objects.filter(pk=memory.pk).exists()
    assert AuditLog.objects.filter(action="deleted", object_type="context_scope", trigger="admin").count() == 1


@pytest.mark.parametrize("app_label", ["audit", "accounts", "characters", "memories", "context_layers"])
def test_every_model_is_registered_in_the_admin(app_label):
    models = list(apps.get_app_config(app_label).get_models())

    assert models
    missing = [model._meta.label for model in models if model not in admin.site._registry]
    assert missing == []
