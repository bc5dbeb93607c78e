"""`manage.py mask_stored_pii`: rows stored raw by an older version are masked, memories stay consistent."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from audit.models import AuditLog
from audit.services import AuditContext
from context_layers.models import UserContext
from context_layers.services import layer_put
from core.crypto import current_key_ring
from memories.hashing import content_hash
from memories.lexical import lexical_keys
from memories.models import MemoryItem
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")


def store_raw(obj, field_name: str, plaintext: str) -> None:
    """Write `plaintext` encrypted but unmasked, as an older version did (straight SQL: the field masks)."""
    field = obj._meta.get_field(field_name)
    sealed = current_key_ring().encrypt(plaintext.encode(), field.associated_data())
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{obj._meta.db_table}" SET "{field.column}" = %s WHERE id = %s', [sealed, obj.pk])


def remember(user, character, content, **fields):
    return memory_create(user=user, character=character, context=CONTEXT, data=MemoryInput(content=content,
                                                                                           **fields))[0]


@pytest.fixture
def legacy(alice, chunsim):
    phone_a = remember(alice, chunsim, "내 번호 기억해", subject_key="phone", subject_value="비밀")
    store_raw(phone_a, "content", "내 번호 010-1111-2222")
    store_raw(phone_a, "subject_value", "010-1111-2222")
    MemoryItem.objects.filter(pk=phone_a.pk).update(content_hash=content_hash("내 번호 010-1111-2222"),
                                                    lexical_keys=lexical_keys("내 번호 010-1111-2222"))
    phone_b = remember(alice, chunsim, "옛날 번호 기억해")
    store_raw(phone_b, "content", "내 번호 010-3333-4444")
    layer_put(user=alice, character=chunsim, layer="tools", context=CONTEXT, document={"avoidTopics": ["정치"]})
    context = UserContext.objects.get(user=alice, character=chunsim)
    store_raw(context, "tools", '{"avoidTopics": ["SIN 527 813 646"]}')
    return phone_a, phone_b, context


def run(*args) -> str:
    out = StringIO()
    call_command("mask_stored_pii", *args, stdout=out)
    return out.getvalue()


def test_dry_run_counts_and_changes_nothing(legacy):
    phone_a, _, context = legacy

    output = run("--dry-run")

    assert "memories.MemoryItem: 2 would change" in output
    assert "context_layers.UserContext.tools: 1 would change" in output
    assert MemoryItem.objects.get(pk=phone_a.pk).content == "내 번호 010-1111-2222"
    assert UserContext.objects.get(pk=context.pk).tools == {"avoidTopics": ["SIN 527 813 646"]}


def test_masks_every_column_and_keeps_memories_consistent(legacy):
    phone_a, phone_b, context = legacy
    since = AuditLog.objects.order_by("-id").values_list("id", flat=True).first()

    output = run()

    assert "Values with personal data changed: 3" in output
    a, b = MemoryItem.objects.get(pk=phone_a.pk), MemoryItem.objects.get(pk=phone_b.pk)
    assert (a.content, a.subject_value) == ("내 번호 ***-****-****", "***-****-****")
    assert a.content_hash == content_hash("내 번호 ***-****-****")
    assert a.lexical_keys == lexical_keys("내 번호 ***-****-**** ***-****-****")
    # once masked, the second memory says the same as the first: one stays active, linked from the other
    assert b.content == a.content and not b.is_active and b.superseded_by_id == a.pk and a.is_active
    assert UserContext.objects.get(pk=context.pk).tools == {"avoidTopics": ["SIN *** *** ***"]}
    rows = AuditLog.objects.filter(pk__gt=since)
    assert rows.filter(object_type="memory_item", action="updated").count() == 2
    assert rows.get(object_type="context_layers.usercontext").changed_fields == ["tools"]

    assert "Values with personal data changed: 0" in run()  # a second run finds nothing left
