"""Reads for memories."""
from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import MemoryItem, MemorySettings


def memory_scope(*, user, character) -> QuerySet[MemoryItem]:
    return MemoryItem.objects.filter(user=user, character=character)


def memory_live(*, user, character) -> QuerySet[MemoryItem]:
    """Active, unarchived, unexpired items of one (user, character) scope."""
    now = timezone.now()
    return memory_scope(user=user, character=character).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=now), is_active=True, archived_at__isnull=True
    )


def memory_list(*, user, character, include_archived: bool = False, category: str | None = None) -> QuerySet[MemoryItem]:
    items = memory_scope(user=user, character=character).filter(is_active=True) if include_archived \
        else memory_live(user=user, character=character)
    if category:
        items = items.filter(category=category)
    return items.order_by("-importance", "-created_at", "-id")


def memory_live_count(*, user, character) -> int:
    return memory_scope(user=user, character=character).filter(is_active=True, archived_at__isnull=True).count()


def memory_settings_for(user) -> MemorySettings:
    """The user's settings, or unsaved defaults when they never changed any."""
    return MemorySettings.objects.filter(user=user).first() or MemorySettings(user=user)
