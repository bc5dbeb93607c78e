"""Heartbeats of django-q2 worker processes that have loaded their models (for GET /readyz)."""
from django.db import models


class WorkerHeartbeat(models.Model):
    host = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    warmed_at = models.DateTimeField(help_text="When the process finished loading its models.")
    seen_at = models.DateTimeField(help_text="Refreshed every few seconds while the process lives.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["host", "pid"], name="worker_heartbeat_one_per_process")]
        indexes = [models.Index(fields=["seen_at"], name="worker_heartbeat_seen_idx")]

    def __str__(self) -> str:
        return f"worker {self.host}:{self.pid}"
