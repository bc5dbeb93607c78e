"""The audit trail is append-only in the database and never carries user content."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction

from audit.models import AuditLog
from audit.services import AuditContext, audit_record
from context_layers.services import layer_put
from memories.services import MemoryInput, memory_create, memory_delete, memory_update

SECRET = "아무도 모르는 첫사랑 민지에게 쓴 편지"
SECRET_FRAGMENTS = ["첫사랑", "민지", "편지", "아무도 모르는"]
SECRET_SUBJECT = "민지네 강아지 초코"


@pytest.fixture
def audit_row(alice):
    return audit_record(context=AuditContext(actor_id=alice.pk, actor_label="user:alice", trigger="api"),
                        action="created", object_type="memory_item", object_id=1,
                        target_user_id=alice.pk, target_user_ref="alice", changed_fields=["content"])


def assert_unchanged(row: AuditLog) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT actor_label, action FROM audit_auditlog WHERE id = %s", [row.pk])
        assert cursor.fetchone() == (row.actor_label, row.action)


def test_raw_sql_update_is_rejected_by_the_database(audit_row):
    with pytest.raises(DatabaseError, match="append-only: UPDATE"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE audit_auditlog SET actor_label = 'forged' WHERE id = %s", [audit_row.pk])

    assert_unchanged(audit_row)


def test_raw_sql_delete_is_rejected_by_the_database(audit_row):
    with pytest.raises(DatabaseError, match="append-only: DELETE"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM audit_auditlog WHERE id = %s", [audit_row.pk])

    assert AuditLog.objects.filter(pk=audit_row.pk).exists()


def test_orm_update_and_save_are_rejected(audit_row):
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic():
            AuditLog.objects.filter(pk=audit_row.pk).update(actor_label="forged")

    audit_row.action = "deleted"
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic():
            audit_row.save()

    assert_unchanged(AuditLog.objects.get(pk=audit_row.pk))


def test_orm_delete_is_rejected(audit_row):
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic():
            AuditLog.objects.filter(pk=audit_row.pk).delete()

    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic():
            AuditLog.objects.get(pk=audit_row.pk).delete()

    assert AuditLog.objects.filter(pk=audit_row.pk).exists()


def test_inserting_still_works_after_a_rejected_change(audit_row):
    count = AuditLog.objects.count()
    with pytest.raises(DatabaseError):
        with transaction.atomic():
            AuditLog.objects.all().delete()

    audit_record(context=AuditContext(actor_label="system"), action="viewed", object_type="memory_item_list")

    assert AuditLog.objects.count() == count + 1


def test_audit_rows_never_contain_memory_or_layer_content(alice, charlie, chunsim):
    context = AuditContext(actor_id=alice.pk, actor_label="user:alice", trigger="api")
    before = set(AuditLog.objects.values_list("pk", flat=True))

    item, _ = memory_create(user=alice, character=chunsim, context=context,
                            data=MemoryInput(content=SECRET, subject_key="pet", subject_value=SECRET_SUBJECT))
    item.content = f"{SECRET} (수정됨)"
    memory_update(item=item, changes={},
                  context=AuditContext(actor_id=charlie.pk, actor_label="admin:charlie", trigger="admin"))
    layer_put(user=alice, character=chunsim, layer="identity", context=context,
              document={"nickname": "민지", "inferredTraits": ["첫사랑을 못 잊음"]})
    memory_delete(item=item, context=context)

    rows = AuditLog.objects.exclude(pk__in=before)
    assert {row.action for row in rows} == {"created", "updated", "deleted"}
    for row in rows:
        everything = " ".join([
            *(str(getattr(row, field.attname)) for field in AuditLog._meta.concrete_fields),
            json.dumps(row.details, ensure_ascii=False),
            json.dumps(row.changed_fields, ensure_ascii=False),
            str(row),
        ])
        for fragment in [*SECRET_FRAGMENTS, "초코", "강아지", "못 잊음"]:
            assert fragment not in everything, (fragment, everything)

    # The same, as stored: every column of every row, straight from the table.
    with connection.cursor() as cursor:
        cursor.execute("SELECT row_to_json(a)::text FROM audit_auditlog a")
        stored = " ".join(row[0] for row in cursor.fetchall())
    for fragment in [*SECRET_FRAGMENTS, "초코", "강아지", "못 잊음"]:
        assert fragment not in stored


@pytest.mark.parametrize("details", [
    {"note": "x" * 65},
    {"note": "the user said she loves tteokbokki"},
    {"note": "아무도 모르는 첫사랑"},
    {"note": "첫사랑민지에게쓴편지"},  # one Korean "word": no spaces, still content
    {"nickname": "민지"},
    {"items": ["a", "b"]},
    {"nested": {"count": 1}},
])
def test_audit_record_refuses_free_text_details(db, details):
    with pytest.raises(ValueError, match="number, boolean or short code"):
        audit_record(context=AuditContext(actor_label="system"), action="viewed", object_type="memory_item",
                     details=details)

    assert not AuditLog.objects.filter(object_type="memory_item", action="viewed").exists()


def test_audit_record_keeps_numbers_booleans_and_short_codes(db):
    row = audit_record(context=AuditContext(actor_label="system"), action="viewed", object_type="memory_item",
                       details={"count": 3, "ratio": 0.5, "ok": True, "none": None, "code": "MEMORY_LIMIT_REACHED",
                                "plan": "PREMIUM", "source": "llm-extraction"})

    assert AuditLog.objects.get(pk=row.pk).details == {
        "count": 3, "ratio": 0.5, "ok": True, "none": None, "code": "MEMORY_LIMIT_REACHED",
        "plan": "PREMIUM", "source": "llm-extraction",
    }


def test_deleting_an_audited_user_keeps_the_trail(alice, charlie, chunsim):
    alice_pk, charlie_pk = alice.pk, charlie.pk
    item, _ = memory_create(user=alice, character=chunsim, data=MemoryInput(content=SECRET),
                            context=AuditContext(actor_id=alice.pk, actor_label="user:alice", trigger="api"))
    memory_delete(item=item, context=AuditContext(actor_id=charlie.pk, actor_label="admin:charlie", trigger="admin"))
    trail = list(AuditLog.objects.filter(target_user_id=alice_pk).order_by("id").values())
    assert [row["action"] for row in trail] == ["created", "deleted"]

    alice.delete()
    charlie.delete()

    User = get_user_model()
    assert not User.objects.filter(pk__in=[alice_pk, charlie_pk]).exists()
    assert list(AuditLog.objects.filter(target_user_id=alice_pk).order_by("id").values()) == trail
    assert AuditLog.objects.filter(actor_id=charlie_pk, action="deleted", target_user_ref="alice").exists()
