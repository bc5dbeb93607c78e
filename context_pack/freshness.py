"""Read-your-writes: a message accepted before a prompt request is reflected in that prompt.

Before building a block, the scope's pending messages are processed inline (the LocalExtractor
takes milliseconds). Who else may be working on them, and what the prompt does:

- nobody (no job yet, the job is queued, or no cluster at all): the scope's lock is free and the
  prompt processes the messages itself, at once;
- a cluster worker holds the scope's lock: it is making progress, because a worker loads its models
  before it takes any work (`health.workers` at process start, `ensure_models_loaded` before the
  lock in `process_scope`) — so a lock holder is never a cold worker loading models. The prompt waits
  for the lock at most FRESHNESS_WAIT_MS, then processes what is still pending.

With Gemini on, waiting on a remote model is bounded by PROMPT_REMOTE_DEADLINE_MS (300 ms) in all:
the extraction and embedding calls made inline and the wait for a worker that holds the scope (while
it is calling Gemini). If the work cannot be done in time, nothing is half-written: the inline
transaction rolls back, the messages stay pending for the cluster, and the block is built from what
is stored plus the pending messages' masked text, with `fresh: false`.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.conf import settings
from django.db import OperationalError

from conversations.models import Message, MessageRole
from conversations.processing import process_scope
from memories.deadline import DeadlineExceeded, remaining_ms, remote_deadline
from memories.extraction.gemini import GeminiUnavailable

logger = logging.getLogger(__name__)

PENDING_TEXT_MESSAGES = 20  # the most recent pending user messages put into a block that is not fresh


@dataclass(frozen=True)
class Freshness:
    fresh: bool
    pending_texts: list[str] = field(default_factory=list)  # masked, oldest first; only when not fresh


def _lock_wait_ms() -> int:
    """How long to wait for a worker that holds the scope (with Gemini: within the remote deadline)."""
    wait = settings.FRESHNESS_WAIT_MS
    left = remaining_ms()
    if settings.GEMINI_API_KEY and left is not None:
        wait = min(wait, int(left))
    return wait


def _process_pending(*, user, character) -> bool:
    pending = Message.objects.filter(user=user, character=character, processed_at__isnull=True)
    rounds = 0
    while pending.exists():
        rounds += 1
        if rounds > 20:
            return False
        wait_ms = _lock_wait_ms()
        if wait_ms < 1:
            return False
        try:
            process_scope(user_id=user.pk, character_slug=character.pk, lock_timeout_ms=wait_ms)
        except OperationalError:
            logger.warning("read-your-writes wait timed out for scope user=%s character=%s", user.pk, character.pk)
            return False
        except (DeadlineExceeded, GeminiUnavailable) as exc:
            logger.warning("read-your-writes left to the cluster for scope user=%s character=%s: %s",
                           user.pk, character.pk, exc)
            return False
    return True


def pending_texts(*, user, character, limit: int = PENDING_TEXT_MESSAGES) -> list[str]:
    """The masked text of the scope's most recent pending user messages, oldest first."""
    newest = (Message.objects.filter(user=user, character=character, processed_at__isnull=True,
                                     role=MessageRole.USER)
              .order_by("-created_at", "-id").only("content")[:limit])
    return [message.content for message in reversed(list(newest))]


def ensure_processed(*, user, character) -> Freshness:
    """Process the scope's pending messages; when that cannot be done in time, say so and return their text."""
    with remote_deadline(settings.PROMPT_REMOTE_DEADLINE_MS if settings.GEMINI_API_KEY else None):
        fresh = _process_pending(user=user, character=character)
    if fresh:
        return Freshness(fresh=True)
    return Freshness(fresh=False, pending_texts=pending_texts(user=user, character=character))
