"""Writes of the worker heartbeat (no audit rows: no user data, only process ids and times)."""
from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from .models import WorkerHeartbeat

FORGET_AFTER = timedelta(hours=1)  # rows of processes gone this long are deleted when a worker starts


def worker_heartbeat_record(*, host: str, pid: int, warmed_at: datetime) -> None:
    """Say that this worker process is warm and alive now."""
    WorkerHeartbeat.objects.update_or_create(host=host[:255], pid=pid,
                                             defaults={"warmed_at": warmed_at, "seen_at": timezone.now()})


def worker_heartbeat_forget_stale() -> int:
    """Delete the rows of worker processes not seen for FORGET_AFTER; return how many."""
    count, _ = WorkerHeartbeat.objects.filter(seen_at__lt=timezone.now() - FORGET_AFTER).delete()
    return count
