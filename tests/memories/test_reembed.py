"""`manage.py reembed`: rows of another (or no) embedding model get the current embedder's vectors."""
from __future__ import annotations

from io import StringIO

import numpy as np
import pytest
from django.core.management import call_command
from django.test import override_settings

from audit.services import AuditContext
from memories.embeddings import LocalEmbedder, cosine
from memories.models import MemoryItem
from memories.services import MemoryInput, memory_create

SETUP = AuditContext(actor_label="test:setup", trigger="command")
LOCAL_MODEL = LocalEmbedder.model_name
CONTENTS = ["노원에 살아", "고양이를 키운다", "Has a cat named Mochi"]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_gemini_key")]


@pytest.fixture
def no_gemini_key():
    with override_settings(GEMINI_API_KEY=""):
        yield


@pytest.fixture
def memories(alice, bob, chunsim):
    items = [memory_create(user=alice, character=chunsim, data=MemoryInput(content=text), context=SETUP)[0]
             for text in CONTENTS]
    items.append(memory_create(user=bob, character=chunsim, data=MemoryInput(content="떡볶이 좋아해"),
                               context=SETUP)[0])
    # Start from "never embedded", whatever memory_create may do itself.
    MemoryItem.objects.update(embedding=None, embedding_model="")
    return items


def _reembed(*args) -> str:
    out = StringIO()
    call_command("reembed", *args, stdout=out)
    return out.getvalue()


def test_every_memory_without_the_current_model_is_embedded(memories):
    output = _reembed()

    assert "Re-embedded 4 of 4" in output
    expected = LocalEmbedder().embed([item.content for item in memories])
    for item, vector in zip(memories, expected):
        item.refresh_from_db()
        assert item.embedding_model == LOCAL_MODEL
        assert len(item.embedding) == 512
        assert cosine(item.embedding, vector) > 0.9999


def test_a_second_run_embeds_nothing(memories):
    _reembed()
    before = {i.pk: np.array(i.embedding) for i in MemoryItem.objects.all()}
    output = _reembed()

    assert "Re-embedded 0 of 4" in output and "4 already current" in output
    assert all(np.array_equal(i.embedding, before[i.pk]) for i in MemoryItem.objects.all())


def test_only_rows_of_another_model_are_redone(memories):
    _reembed()
    stale = memories[1]
    MemoryItem.objects.filter(pk=stale.pk).update(embedding=[1.0] + [0.0] * 511, embedding_model="old-model/512")
    output = _reembed()

    assert "Re-embedded 1 of 4" in output
    stale.refresh_from_db()
    assert stale.embedding_model == LOCAL_MODEL and stale.embedding[0] != 1.0


def test_all_flag_redoes_current_rows_too(memories):
    _reembed()
    output = _reembed("--all")

    assert "Re-embedded 4 of 4" in output


def test_reembedding_does_not_touch_content_or_updated_at(memories):
    before = {i.pk: (i.content, i.updated_at) for i in MemoryItem.objects.all()}
    _reembed("--batch-size", "3")

    assert {i.pk: (i.content, i.updated_at) for i in MemoryItem.objects.all()} == before
