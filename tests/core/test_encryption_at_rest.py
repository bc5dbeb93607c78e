"""Memory text and layer documents are AES-256-GCM ciphertext in the database, never plaintext."""
from __future__ import annotations

import base64

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from audit.services import AuditContext
from context_layers.models import UserContext
from context_layers.services import layer_put
from core.crypto import DecryptionError, EncryptionConfigError, current_key_ring, key_id_of, parse_key_ring
from memories.models import MemoryItem
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")

DIARY = "내 비밀 일기: 떡볶이를 사랑해 (secret diary: tteokbokki forever)"
DIARY_WORDS = ["비밀", "일기", "떡볶이를", "사랑해", "secret", "diary", "tteokbokki", "forever"]
SUBJECT_VALUE = "엽기떡볶이 extra-spicy"

IDENTITY = {"nickname": "떡볶이공주", "honorific": "반말", "relationshipType": "친구",
            "inferredTraits": ["수줍음", "bookworm"]}
SOUL = {"dreams": ["제주도에서 카페 열기", "open-a-cafe"], "fears": ["혼자 남겨지는 것"], "summary": "따뜻한 사람 warmhearted"}
TOOLS = {"avoidTopics": ["전남친 이야기", "ex-boyfriend"],
         "specialDates": [{"date": "03-15", "description": "생일 birthday-party"}]}
HEARTBEAT = {"emotionTrend": "설렘 excited", "lastEmotionKeywords": ["두근두근"], "totalConversations": 42}
LAYER_WORDS = ["떡볶이공주", "수줍음", "bookworm", "제주도", "카페", "open-a-cafe", "혼자", "warmhearted",
               "전남친", "ex-boyfriend", "생일", "birthday-party", "설렘", "excited", "두근두근"]

ENCRYPTED_MEMORY_COLUMNS = ["content", "subject_value"]
ENCRYPTED_CONTEXT_COLUMNS = ["identity", "soul", "tools", "heartbeat"]

OTHER_KEY = base64.b64encode(bytes(range(32))).decode("ascii")


def raw_columns(table: str, columns: list[str], pk: int) -> dict[str, str]:
    """Read columns exactly as stored, bypassing the model fields' decryption."""
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT {", ".join(columns)} FROM "{table}" WHERE id = %s', [pk])
        return dict(zip(columns, cursor.fetchone()))


def set_raw_column(table: str, column: str, value: str, pk: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{table}" SET "{column}" = %s WHERE id = %s', [value, pk])


def sealed_bytes(stored: str) -> bytes:
    """The nonce and ciphertext of a stored value, base64-decoded."""
    return base64.urlsafe_b64decode(stored.split(":", 2)[2])


def assert_no_plaintext(stored: str, words: list[str]) -> None:
    assert stored.startswith("gk1:"), stored
    decoded = sealed_bytes(stored)
    for word in words:
        assert word not in stored
        # Not merely base64 of the plaintext either.
        assert word.encode("utf-8") not in decoded


@pytest.fixture
def diary(alice, chunsim):
    item, created = memory_create(
        user=alice, character=chunsim, context=CONTEXT,
        data=MemoryInput(content=DIARY, subject_key="favorite_food", subject_value=SUBJECT_VALUE),
    )
    assert created
    return item


@pytest.fixture
def layers(premium, chunsim):
    """Store all four layers of alice (premium, so the soul layer is allowed) with chunsim."""
    layer_put(user=premium, character=chunsim, layer="identity", document=IDENTITY, context=CONTEXT)
    layer_put(user=premium, character=chunsim, layer="soul", document=SOUL, context=CONTEXT)
    layer_put(user=premium, character=chunsim, layer="tools", document=TOOLS, context=CONTEXT)
    layer_put(user=premium, character=chunsim, layer="heartbeat", document=HEARTBEAT, context=CONTEXT)
    return UserContext.objects.get(user=premium, character=chunsim)


def test_memory_columns_hold_ciphertext_not_plaintext(diary):
    raw = raw_columns("memories_memoryitem", ENCRYPTED_MEMORY_COLUMNS, diary.pk)

    assert_no_plaintext(raw["content"], DIARY_WORDS)
    assert_no_plaintext(raw["subject_value"], ["엽기떡볶이", "extra-spicy"])
    assert key_id_of(raw["content"]) == settings.FIELD_ENCRYPTION_ACTIVE_KEY


def test_memory_decrypts_to_the_original_text(diary):
    reloaded = MemoryItem.objects.get(pk=diary.pk)

    assert reloaded.content == DIARY
    assert reloaded.subject_value == SUBJECT_VALUE


def test_layer_columns_hold_ciphertext_not_plaintext(layers):
    raw = raw_columns("context_layers_usercontext", ENCRYPTED_CONTEXT_COLUMNS, layers.pk)

    for column in ENCRYPTED_CONTEXT_COLUMNS:
        assert_no_plaintext(raw[column], LAYER_WORDS)


def test_layers_decrypt_to_the_stored_documents(layers):
    reloaded = UserContext.objects.get(pk=layers.pk)

    assert reloaded.identity == {"userSet": IDENTITY}
    assert reloaded.soul == SOUL
    assert reloaded.tools == TOOLS
    assert reloaded.heartbeat == HEARTBEAT


def test_same_plaintext_encrypts_to_different_ciphertexts(alice, bob, chunsim):
    first, _ = memory_create(user=alice, character=chunsim, data=MemoryInput(content=DIARY), context=CONTEXT)
    second, _ = memory_create(user=bob, character=chunsim, data=MemoryInput(content=DIARY), context=CONTEXT)

    first_raw = raw_columns("memories_memoryitem", ["content"], first.pk)["content"]
    second_raw = raw_columns("memories_memoryitem", ["content"], second.pk)["content"]

    assert first_raw != second_raw
    # Fresh nonces, not just different keys: the ring seals the same bytes differently each time.
    ring = current_key_ring()
    assert ring.encrypt(b"same", b"ad") != ring.encrypt(b"same", b"ad")


def test_json_types_survive_a_round_trip(alice, chunsim):
    document = {
        "count": 7, "ratio": 0.25, "zero": 0, "flag": True, "off": False, "nothing": None,
        "list": [1, "둘", 3.5, False, None, ["중첩", {"깊이": 2}]],
        "nested": {"이름": "춘심", "tags": ["다정함", "밝음"], "inner": {"level": 3, "ok": True}},
    }
    ctx = UserContext.objects.create(user=alice, character=chunsim, tools=document, soul=[1, 2, 3], heartbeat={})

    reloaded = UserContext.objects.get(pk=ctx.pk)

    assert reloaded.tools == document
    assert type(reloaded.tools["count"]) is int
    assert type(reloaded.tools["ratio"]) is float
    assert reloaded.tools["flag"] is True and reloaded.tools["off"] is False
    assert reloaded.tools["nothing"] is None
    assert reloaded.soul == [1, 2, 3]
    assert reloaded.heartbeat == {}
    assert reloaded.identity == {}


def test_wrong_key_raises_decryption_error_on_load(diary, layers):
    # Same key id, different key material: the GCM tag check fails.
    with override_settings(FIELD_ENCRYPTION_KEYS=f"{settings.FIELD_ENCRYPTION_ACTIVE_KEY}:{OTHER_KEY}"):
        with pytest.raises(DecryptionError):
            MemoryItem.objects.get(pk=diary.pk)
        with pytest.raises(DecryptionError):
            UserContext.objects.get(pk=layers.pk)


def test_key_id_missing_from_the_ring_raises_decryption_error(diary):
    with override_settings(FIELD_ENCRYPTION_KEYS=f"other:{OTHER_KEY}", FIELD_ENCRYPTION_ACTIVE_KEY="other"):
        with pytest.raises(DecryptionError, match="no key with id"):
            MemoryItem.objects.get(pk=diary.pk)


def test_tampered_ciphertext_raises_decryption_error(diary):
    stored = raw_columns("memories_memoryitem", ["content"], diary.pk)["content"]
    prefix, key_id, token = stored.split(":", 2)
    middle = len(token) // 2
    flipped = "A" if token[middle] != "A" else "B"
    set_raw_column("memories_memoryitem", "content",
                   f"{prefix}:{key_id}:{token[:middle]}{flipped}{token[middle + 1:]}", diary.pk)

    with pytest.raises(DecryptionError):
        MemoryItem.objects.get(pk=diary.pk)


def test_ciphertext_copied_into_another_column_fails(diary, layers):
    stored = raw_columns("memories_memoryitem", ["content"], diary.pk)["content"]
    set_raw_column("memories_memoryitem", "subject_value", stored, diary.pk)

    with pytest.raises(DecryptionError):
        MemoryItem.objects.get(pk=diary.pk)

    identity = raw_columns("context_layers_usercontext", ["identity"], layers.pk)["identity"]
    set_raw_column("context_layers_usercontext", "soul", identity, layers.pk)

    with pytest.raises(DecryptionError):
        UserContext.objects.get(pk=layers.pk)


def test_plaintext_in_an_encrypted_column_is_refused(diary):
    set_raw_column("memories_memoryitem", "content", DIARY, diary.pk)

    with pytest.raises(DecryptionError, match="not in the encrypted format"):
        MemoryItem.objects.get(pk=diary.pk)


@pytest.mark.parametrize("spec, active, message", [
    (f"k1:{base64.b64encode(b'x' * 16).decode()}", "k1", "must be 32 bytes"),
    (f"k1:{base64.b64encode(b'x' * 31).decode()}", "k1", "must be 32 bytes"),
    (f"k1:{OTHER_KEY}", "k2", "not in FIELD_ENCRYPTION_KEYS"),
    (f"k1:{OTHER_KEY}", "", "not in FIELD_ENCRYPTION_KEYS"),
    ("", "k1", "empty"),
    ("k1:not base64!", "k1", "not valid base64"),
    (OTHER_KEY, "k1", "id:base64key"),
])
def test_parse_key_ring_rejects_bad_configuration(spec, active, message):
    with pytest.raises(EncryptionConfigError, match=message):
        parse_key_ring(spec, active)


def test_parse_key_ring_accepts_several_32_byte_keys():
    second = base64.b64encode(b"k" * 32).decode()

    ring = parse_key_ring(f"k1:{OTHER_KEY}, k2:{second}", "k2")

    assert ring.active_id == "k2"
    assert set(ring.keys) == {"k1", "k2"}
    assert all(len(key) == 32 for key in ring.keys.values())


def test_key_and_plaintext_never_appear_in_sql(alice, chunsim):
    key_b64 = settings.FIELD_ENCRYPTION_KEYS.split(":", 1)[1]
    key_raw_hex = base64.b64decode(key_b64).hex()

    with CaptureQueriesContext(connection) as queries:
        item, _ = memory_create(user=alice, character=chunsim, context=CONTEXT,
                                data=MemoryInput(content=DIARY, subject_value=SUBJECT_VALUE))
        layer_put(user=alice, character=chunsim, layer="identity", document=IDENTITY, context=CONTEXT)
        MemoryItem.objects.get(pk=item.pk)

    statements = [query["sql"] for query in queries.captured_queries]
    assert any("INSERT INTO \"memories_memoryitem\"" in sql for sql in statements)
    assert any("context_layers_usercontext" in sql for sql in statements)
    # Parameters are interpolated into the captured SQL, so a plaintext value would show.
    assert any(item.content_hash in sql for sql in statements)
    for sql in statements:
        assert key_b64 not in sql
        assert key_raw_hex not in sql
        assert "떡볶이" not in sql
        assert "tteokbokki" not in sql
