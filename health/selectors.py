"""Reads for readiness."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from .models import WorkerHeartbeat


def warm_workers_seen(*, within_seconds: float) -> int:
    """How many warm worker processes reported in the last `within_seconds`."""
    return WorkerHeartbeat.objects.filter(seen_at__gte=timezone.now() - timedelta(seconds=within_seconds)).count()
