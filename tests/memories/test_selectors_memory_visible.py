"""memory_visible: the one definition of which memories a reader may show, checked row by row."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memories.hashing import content_hash
from memories.models import MemoryItem, MemorySettings
from memories.selectors import memory_list, memory_visible


def _item(user, character, name, category="event", **fields):
    return MemoryItem.objects.create(user=user, character=character, content=name, content_hash=content_hash(name),
                                     category=category, **fields).content


@pytest.fixture
def scope(alice, bob, chunsim, sora):
    now = timezone.now()
    _item(alice, chunsim, "live event")
    _item(alice, chunsim, "live worry", category="worry")
    _item(alice, chunsim, "expires tomorrow", expires_at=now + timedelta(days=1))
    _item(alice, chunsim, "expired", expires_at=now - timedelta(days=1))
    _item(alice, chunsim, "archived", archived_at=now)
    _item(alice, chunsim, "archived worry", category="worry", archived_at=now)
    _item(alice, chunsim, "superseded", is_active=False)
    _item(alice, sora, "other character")
    _item(bob, chunsim, "other user")
    return alice, chunsim


LIVE = {"live event", "live worry", "expires tomorrow"}
# the list's includeArchived is the user's history: archived, expired and replaced items (issue 10 §3)
WITH_ARCHIVED = LIVE | {"expired", "archived", "archived worry", "superseded"}


@pytest.mark.parametrize(("settings", "include_archived", "category", "expected"), [
    ({}, False, None, LIVE),
    ({}, True, None, WITH_ARCHIVED),
    ({}, False, "worry", {"live worry"}),
    ({"allowed_categories": ["worry"]}, False, None, {"live worry"}),
    ({"allowed_categories": ["worry"]}, True, None, {"live worry", "archived worry"}),
    ({"allowed_categories": ["worry"]}, False, "event", set()),
    ({"allowed_categories": ["event", "worry"]}, False, None, LIVE),
    ({"enabled": False}, False, None, set()),
    ({"enabled": False}, True, None, set()),
])
def test_memory_visible_selects_exactly_what_a_reader_may_show(scope, settings, include_archived, category,
                                                               expected):
    user, character = scope
    MemorySettings.objects.create(user=user, **settings)

    visible = memory_visible(user=user, character=character, include_archived=include_archived, category=category)

    assert set(visible.values_list("content", flat=True)) == expected
    assert visible.count() == len(expected)
    listed = memory_list(user=user, character=character, include_archived=include_archived, category=category)
    assert {item.content for item in listed} == expected


def test_unsaved_default_settings_show_every_live_memory(scope):
    user, character = scope
    visible = memory_visible(user=user, character=character, memory_settings=MemorySettings(user=user))
    assert set(visible.values_list("content", flat=True)) == LIVE
