"""Read-your-writes: a message accepted before a prompt request is reflected in that prompt.

Before building a block, the scope's pending messages are processed inline (the LocalExtractor
takes milliseconds). If a cluster worker is processing the same scope right now, we wait for its
lock for at most FRESHNESS_WAIT_MS, then process what is still pending; if the wait times out the
block is built from what is stored and the response says `fresh: false`.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.db import OperationalError

from conversations.models import Message
from conversations.processing import process_scope

logger = logging.getLogger(__name__)


def ensure_processed(*, user, character) -> bool:
    """Process the scope's pending messages; return False if it could not be done in time."""
    pending = Message.objects.filter(user=user, character=character, processed_at__isnull=True)
    rounds = 0
    while pending.exists():
        rounds += 1
        if rounds > 20:
            return False
        try:
            process_scope(user_id=user.pk, character_slug=character.pk, lock_timeout_ms=settings.FRESHNESS_WAIT_MS)
        except OperationalError:
            logger.warning("read-your-writes wait timed out for scope user=%s character=%s", user.pk, character.pk)
            return False
    return True
