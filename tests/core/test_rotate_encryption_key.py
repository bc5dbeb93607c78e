"""`rotate_encryption_key` moves every encrypted value onto the active key, and reports what is left."""
from __future__ import annotations

import base64
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from audit.services import AuditContext
from context_layers.models import UserContext
from context_layers.services import layer_put
from core.crypto import DecryptionError
from memories.models import MemoryItem
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")

K1 = base64.b64encode(b"1" * 32).decode("ascii")
K2 = base64.b64encode(b"2" * 32).decode("ascii")
ONLY_K1 = {"FIELD_ENCRYPTION_KEYS": f"k1:{K1}", "FIELD_ENCRYPTION_ACTIVE_KEY": "k1"}
K1_AND_K2 = {"FIELD_ENCRYPTION_KEYS": f"k1:{K1},k2:{K2}", "FIELD_ENCRYPTION_ACTIVE_KEY": "k2"}
ONLY_K2 = {"FIELD_ENCRYPTION_KEYS": f"k2:{K2}", "FIELD_ENCRYPTION_ACTIVE_KEY": "k2"}

# Every encrypted column in the project, as (table, column).
ENCRYPTED_COLUMNS = [
    ("memories_memoryitem", "content"),
    ("memories_memoryitem", "subject_value"),
    ("memories_memoryitem", "topics"),
    ("context_layers_usercontext", "heartbeat"),
    ("context_layers_usercontext", "identity"),
    ("context_layers_usercontext", "soul"),
    ("context_layers_usercontext", "tools"),
]

IDENTITY = {"nickname": "떡볶이공주", "honorific": "반말"}
TOOLS = {"avoidTopics": ["전남친 이야기"], "specialDates": [{"date": "03-15", "description": "생일"}]}


def raw_values() -> list[str]:
    values = []
    with connection.cursor() as cursor:
        for table, column in ENCRYPTED_COLUMNS:
            cursor.execute(f'SELECT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL ORDER BY id')
            values += [row[0] for row in cursor.fetchall()]
    return values


@pytest.fixture
def data_on_k1(alice, bob, chunsim, sora):
    """Two memories and two layer rows, all encrypted with key k1 only."""
    with override_settings(**ONLY_K1):
        first, _ = memory_create(user=alice, character=chunsim, context=CONTEXT,
                                 data=MemoryInput(content="떡볶이를 제일 좋아함", subject_key="favorite_food",
                                                  subject_value="떡볶이"))
        second, _ = memory_create(user=bob, character=sora, context=CONTEXT,
                                  data=MemoryInput(content="요즘 취업 준비로 스트레스를 받음"))
        layer_put(user=alice, character=chunsim, layer="identity", document=IDENTITY, context=CONTEXT)
        layer_put(user=bob, character=sora, layer="tools", document=TOOLS, context=CONTEXT)
    values = raw_values()
    assert len(values) == 2 * 3 + 2 * 4
    assert all(value.startswith("gk1:k1:") for value in values)
    contexts = [UserContext.objects.values_list("pk", flat=True).get(user=user) for user in (alice, bob)]
    return {"memories": [first.pk, second.pk], "contexts": contexts}


def test_rotation_moves_every_value_to_the_active_key(data_on_k1):
    out = StringIO()
    with override_settings(**K1_AND_K2):
        call_command("rotate_encryption_key", stdout=out)

    output = out.getvalue()
    assert "Active key 'k2'; 14 values on other keys." in output
    assert output.rstrip().endswith("Left on other keys: 0")
    values = raw_values()
    assert len(values) == 14
    assert all(value.startswith("gk1:k2:") for value in values), values


def test_rotated_values_decrypt_without_the_old_key(data_on_k1):
    with override_settings(**K1_AND_K2):
        call_command("rotate_encryption_key", stdout=StringIO())

    # Only k2 left in the ring: every value must now be readable with it alone.
    with override_settings(**ONLY_K2):
        first, second = (MemoryItem.objects.get(pk=pk) for pk in data_on_k1["memories"])
        alice_ctx, bob_ctx = (UserContext.objects.get(pk=pk) for pk in data_on_k1["contexts"])

    assert (first.content, first.subject_value) == ("떡볶이를 제일 좋아함", "떡볶이")
    assert (second.content, second.subject_value) == ("요즘 취업 준비로 스트레스를 받음", "")
    assert alice_ctx.identity == {"userSet": IDENTITY}
    assert (alice_ctx.soul, alice_ctx.tools, alice_ctx.heartbeat) == ({}, {}, {})
    assert bob_ctx.tools == TOOLS
    assert bob_ctx.identity == {}


def test_rotation_twice_is_a_no_op(data_on_k1):
    with override_settings(**K1_AND_K2):
        call_command("rotate_encryption_key", stdout=StringIO())
        after_first = raw_values()
        out = StringIO()
        call_command("rotate_encryption_key", stdout=out)

    assert "Active key 'k2'; 0 values on other keys." in out.getvalue()
    assert raw_values() == after_first


def test_dry_run_changes_nothing_and_reports_what_is_left(data_on_k1):
    before = raw_values()
    out = StringIO()
    with override_settings(**K1_AND_K2):
        call_command("rotate_encryption_key", "--dry-run", stdout=out)

    output = out.getvalue()
    assert raw_values() == before
    assert "Active key 'k2'; 14 values on other keys." in output
    assert "memories.MemoryItem.content: 2 left on other keys" in output
    assert "context_layers.UserContext.identity: 2 left on other keys" in output
    assert output.rstrip().endswith("Left on other keys: 14")


def test_old_values_without_their_key_stop_the_rotation(data_on_k1):
    """Dropping k1 before rotating must fail loudly, never overwrite values it cannot read."""
    before = raw_values()
    with override_settings(**ONLY_K2):
        with pytest.raises(DecryptionError, match="no key with id 'k1'"):
            call_command("rotate_encryption_key", stdout=StringIO())

    assert raw_values() == before


def test_rotation_writes_one_audit_row_with_counts_only(data_on_k1):
    from audit.models import AuditLog

    before = AuditLog.objects.filter(action="key_rotated").count()
    with override_settings(**K1_AND_K2):
        call_command("rotate_encryption_key", stdout=StringIO())
    row = AuditLog.objects.filter(action="key_rotated").latest("id")
    assert AuditLog.objects.filter(action="key_rotated").count() == before + 1
    assert row.object_id == "k2"
    assert row.details == {"reencrypted": 14, "left": 0}
