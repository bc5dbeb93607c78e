"""django-q2 entry points for memory maintenance. Each runs one job of memories.maintenance over every
scope and returns its counts; each is safe to run twice or on several workers at once.

Schedule them with django_q's Schedule, e.g. `Schedule(func="memories.tasks.decay_strength_task",
schedule_type=Schedule.DAILY)`: decay counts whole days (confidence whole 30-day periods), so running
more often than daily only finds nothing due.
"""
from __future__ import annotations

from .deadline import remote_deadline
from .embedding_backfill import memory_backfill_embeddings
from .maintenance import (
    Counts,
    maintenance_run,
    memory_consolidate,
    memory_decay_confidence,
    memory_decay_strength,
    memory_expire,
    memory_promote,
    memory_prune,
)

# A hanging embedding service holds a worker at most this long per backfill run (the cluster's timeout is 120 s).
BACKFILL_REMOTE_DEADLINE_MS = 20_000


def decay_strength_task() -> Counts:
    return maintenance_run(memory_decay_strength)


def decay_confidence_task() -> Counts:
    return maintenance_run(memory_decay_confidence)


def consolidate_task() -> Counts:
    return maintenance_run(memory_consolidate)


def promote_task() -> Counts:
    return maintenance_run(memory_promote)


def prune_task() -> Counts:
    return maintenance_run(memory_prune)


def expire_task() -> Counts:
    return maintenance_run(memory_expire)


def backfill_embeddings_task() -> dict:
    """Embed the memories stored without an embedding while the embedding service was down."""
    with remote_deadline(BACKFILL_REMOTE_DEADLINE_MS):
        return memory_backfill_embeddings()
