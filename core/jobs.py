"""Periodic jobs that loop over many items (scopes, conversations, rows): one bad item never stops the rest.

`JobRun(job).run(key, fn)` calls `fn()`; when it raises, the failure is logged with the item's key
and the error's class name only (messages may quote row values), recorded durably in `JobFailure`,
and the run goes on with the next item. An item that failed JOB_MAX_ATTEMPTS runs in a row is
quarantined: skipped until JOB_QUARANTINE_RETRY_HOURS after its last failure, then tried again.
A success clears its record. Database connectivity errors are not the item's fault: they are logged
and not counted.
"""
from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from .models import JobFailure

logger = logging.getLogger(__name__)

# Lost connections, lock and statement timeouts: the item is not at fault, the next run retries it.
TRANSIENT_ERRORS = (OperationalError, InterfaceError)


def error_code(error: BaseException) -> str:
    """The error's class name: a stable, content-free code for logs and failure records."""
    return type(error).__name__[:64]


def job_failure_record(*, job: str, key: str, code: str, user_id: int | None = None,
                       character_slug: str = "") -> int:
    """Count one more consecutive failure of `key` in `job`; return the attempts so far."""
    now = timezone.now()
    with transaction.atomic():
        failure, created = JobFailure.objects.select_for_update().get_or_create(
            job=job, key=key, defaults={"user_id": user_id, "character_slug": character_slug, "attempts": 1,
                                        "last_error_code": code, "first_failed_at": now, "last_failed_at": now})
        if not created:
            JobFailure.objects.filter(pk=failure.pk).update(attempts=F("attempts") + 1, last_error_code=code,
                                                            last_failed_at=now)
            failure.attempts += 1
    return failure.attempts


def job_failure_clear(*, job: str, key: str) -> None:
    JobFailure.objects.filter(job=job, key=key).delete()


class JobRun:
    """One run of `job` over many items; counts `failed` and `skipped` (quarantined) items.

    `log` is the caller's logger, so failures are reported under the job's own module.
    """

    def __init__(self, job: str, *, log: logging.Logger = logger):
        self.job = job
        self.log = log
        self.failed = 0
        self.skipped = 0
        retry_after = timezone.now() - timedelta(hours=settings.JOB_QUARANTINE_RETRY_HOURS)
        self._failing: dict[str, bool] = {
            key: attempts >= settings.JOB_MAX_ATTEMPTS and last_failed_at > retry_after
            for key, attempts, last_failed_at in
            JobFailure.objects.filter(job=job).values_list("key", "attempts", "last_failed_at")
        }

    def quarantined(self, key: str) -> bool:
        return self._failing.get(key, False)

    def run(self, key: str, fn: Callable[[], Any], *, user_id: int | None = None,
            character_slug: str = "") -> tuple[bool, Any]:
        """Return (True, fn()) or, when fn raised or the item is quarantined, (False, None)."""
        if self.quarantined(key):
            self.skipped += 1
            return False, None
        try:
            value = fn()
        except TRANSIENT_ERRORS as error:
            self.failed += 1
            self.log.warning("job %s: %s on %s (database; not counted against the item)", self.job,
                           error_code(error), key)
            return False, None
        except Exception as error:  # noqa: BLE001 - one bad item must not stop the rest
            self.failed += 1
            attempts = job_failure_record(job=self.job, key=key, code=error_code(error), user_id=user_id,
                                          character_slug=character_slug)
            self.log.error("job %s failed on %s: %s (attempt %d%s)", self.job, key, error_code(error), attempts,
                         ", quarantined" if attempts >= settings.JOB_MAX_ATTEMPTS else "")
            return False, None
        if key in self._failing:
            job_failure_clear(job=self.job, key=key)
            del self._failing[key]
        return True, value


def scope_key(user_id: int, character_slug: str) -> str:
    return f"scope:{user_id}:{character_slug}"
