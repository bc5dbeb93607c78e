"""django-q2 entry points for memory maintenance. Each runs one job of memories.maintenance over every
scope and returns its counts; each is safe to run twice or on several workers at once.

Schedule them with django_q's Schedule, e.g. `Schedule(func="memories.tasks.decay_strength_task",
schedule_type=Schedule.DAILY)`: decay counts whole days (confidence whole 30-day periods), so running
more often than daily only finds nothing due.
"""
from __future__ import annotations

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
