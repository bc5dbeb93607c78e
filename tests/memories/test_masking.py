"""The masking service (memories.masking) and the storage door that enforces it.

mask_text / mask_document are what every write service calls; every encrypted column holding user text
is declared with one of them as its masker, so even a write that bypasses the services (a new import,
a management command, a bare ORM call) stores masked text.
"""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from django.apps import apps

from context_layers.models import UserContext
from context_layers.services import user_context_get_or_create
from conversations.models import Conversation, ConversationSummary, Message
from core.encrypted_fields import EncryptedJSONField, EncryptedTextField
from memories.hashing import content_hash
from memories.masking import mask_document, mask_text, mask_with_kinds
from memories.models import MemoryItem

PHONE = "010-4821-7753"
SIN = "527 813 646"


def test_mask_text_masks_and_leaves_other_values_alone():
    assert mask_text(f"내 번호 {PHONE}") == "내 번호 ***-****-****"
    assert mask_text("") == ""
    assert mask_text(None) is None


def test_mask_with_kinds_reports_kinds_once_and_nothing_for_an_already_masked_text():
    first = mask_with_kinds(f"my SIN's {SIN}, call {PHONE}")
    assert first.text == "my SIN's *** *** ***, call ***-****-****"
    assert first.kinds == ("sin", "phone")
    assert mask_with_kinds(first.text).kinds == ()


def test_mask_document_masks_every_string_at_any_depth_keys_included():
    document = {
        "nickname": f"SIN {SIN}",
        "specialDates": [{"date": "03-15", "description": f"전화 {PHONE}"}],
        "nested": {"deeper": [["card 4111 1111 1111 1111"]]},
        f"{PHONE}": "a key",
        "count": 4111111111111111,  # numbers are numbers, not text a user wrote
        "flag": True,
        "nothing": None,
    }
    assert mask_document(document) == {
        "nickname": "SIN *** *** ***",
        "specialDates": [{"date": "03-15", "description": "전화 ***-****-****"}],
        "nested": {"deeper": [["card **** **** **** ****"]]},
        "***-****-****": "a key",
        "count": 4111111111111111,
        "flag": True,
        "nothing": None,
    }


@pytest.mark.parametrize("value", ["2026-03-08T12:00:00+09:00", "2026-03-08T03:00:00Z",
                                   "2026-03-08T12:00:00.123456+09:00", "03-15", "2026-03-15"])
def test_timestamps_and_dates_in_documents_are_not_mistaken_for_secrets(value):
    assert mask_document({"lastSeenAt": value}) == {"lastSeenAt": value}


def test_every_encrypted_column_masks_what_is_written_to_it():
    """A new encrypted column must choose its masker; user text never reaches the database unmasked."""
    expected = {EncryptedTextField: mask_text, EncryptedJSONField: mask_document}
    columns = [(f"{model._meta.label}.{field.name}", field) for model in apps.get_models()
               for field in model._meta.concrete_fields if type(field) in expected]
    assert len(columns) >= 9  # memory content and subject value, four layers, message, summary and topics
    unmasked = [name for name, field in columns if field.masker is not expected[type(field)]]
    assert unmasked == []


# --------------------------------------------------------------------------- writes that skip the services

@pytest.fixture
def conversation(alice, chunsim):
    at = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
    return Conversation.objects.create(scope=user_context_get_or_create(user=alice, character=chunsim), user=alice,
                                       character=chunsim, external_id="c1", started_at=at, last_message_at=at)


def test_a_bare_orm_create_stores_masked_text_and_the_instance_shows_it(alice, chunsim):
    item = MemoryItem.objects.create(user=alice, character=chunsim, content=f"call {PHONE}", content_hash="x",
                                     subject_value=f"SIN {SIN}")
    assert (item.content, item.subject_value) == ("call ***-****-****", "SIN *** *** ***")
    stored = MemoryItem.objects.get(pk=item.pk)
    assert (stored.content, stored.subject_value) == ("call ***-****-****", "SIN *** *** ***")


def test_save_with_update_fields_masks_the_fields_it_writes(alice, chunsim):
    context = user_context_get_or_create(user=alice, character=chunsim)
    context.tools = {"avoidTopics": [f"전화 {PHONE}"]}
    context.save(update_fields=["tools"])
    assert UserContext.objects.get(pk=context.pk).tools == {"avoidTopics": ["전화 ***-****-****"]}


def test_bulk_create_masks(alice, chunsim, conversation):
    at = conversation.started_at
    Message.objects.bulk_create([
        Message(conversation=conversation, user=alice, character=chunsim, external_id=f"m{n}", role="user",
                content=f"{n}: my SIN's {SIN}", created_at=at) for n in range(3)])
    assert sorted(Message.objects.values_list("content", flat=True)) == [f"{n}: my SIN's *** *** ***"
                                                                        for n in range(3)]


def test_queryset_update_masks(alice, chunsim, conversation):
    summary = ConversationSummary.objects.create(conversation=conversation, summary="요약", topics=[], emotion="",
                                                 importance=5, covers_until=1, summarizer="test")
    ConversationSummary.objects.filter(pk=summary.pk).update(summary=f"전화 {PHONE}", topics=["SSN 078-05-1120"])
    stored = ConversationSummary.objects.get(pk=summary.pk)
    assert (stored.summary, stored.topics) == ("전화 ***-****-****", ["SSN ***-**-****"])


def test_services_hash_the_masked_text_so_equal_masked_memories_are_one(alice, chunsim):
    from audit.services import AuditContext
    from memories.services import MemoryInput, memory_create

    context = AuditContext(actor_label="test", trigger="system")
    first, created = memory_create(user=alice, character=chunsim, context=context,
                                   data=MemoryInput(content="내 번호 010-1111-2222"))
    again, created_again = memory_create(user=alice, character=chunsim, context=context,
                                         data=MemoryInput(content="내 번호 010-3333-4444"))
    assert created and not created_again and again.pk == first.pk
    assert first.content == "내 번호 ***-****-****"
    assert first.content_hash == content_hash("내 번호 ***-****-****")
