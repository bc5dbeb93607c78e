"""Durable record of periodic-job failures (see core.jobs)."""
from django.db import models


class JobFailure(models.Model):
    """A periodic job kept failing on one item (a scope, a conversation): ids and an error class only.

    The row is removed when the item succeeds again; after JOB_MAX_ATTEMPTS consecutive failures the
    item is skipped until JOB_QUARANTINE_RETRY_HOURS have passed since its last failure.
    """

    job = models.CharField(max_length=64)
    key = models.CharField(max_length=128, help_text="The item, e.g. `scope:<user id>:<character>`.")
    user_id = models.BigIntegerField(null=True, blank=True, help_text="Whose data (no foreign key, like the audit).")
    character_slug = models.CharField(max_length=64, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error_code = models.CharField(max_length=64)
    first_failed_at = models.DateTimeField()
    last_failed_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "key"], name="job_failure_unique_item")]

    def __str__(self) -> str:
        return f"{self.job} {self.key}: {self.attempts}x {self.last_error_code}"
