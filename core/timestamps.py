"""The API's one timestamp form, and the instants it accepts.

Out: UTC with milliseconds and `Z` (`2026-03-01T12:00:00.000Z`, what JavaScript's
`Date.toISOString()` gives), from every serializer, export and hand-built response.
In: ISO 8601 with an explicit UTC offset of at most ±14:00 in whole minutes, for an instant between
1970-01-01 and 2100-01-01 UTC. PostgreSQL would store far more (offsets to ±15:59, years to
294276) but psycopg cannot read back a UTC year of 10000 or later, so one such row would break
every read of its scope.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from django.utils.dateparse import parse_datetime

EARLIEST_INSTANT = datetime(1970, 1, 1, tzinfo=dt_timezone.utc)
LATEST_INSTANT = datetime(2100, 1, 1, tzinfo=dt_timezone.utc)
MAX_UTC_OFFSET = timedelta(hours=14)


class InstantError(ValueError):
    """Why an aware datetime is not acceptable; `code` names the rule it breaks."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def check_instant(moment: datetime) -> datetime:
    """Return `moment` unchanged if the API accepts it, else raise InstantError.

    Codes: `offset_required` (naive), `offset_range` (beyond ±14:00 or not whole minutes),
    `out_of_range` (before 1970-01-01 or after 2100-01-01 UTC).
    """
    offset = moment.utcoffset()
    if offset is None:
        raise InstantError("offset_required")
    if abs(offset) > MAX_UTC_OFFSET or offset % timedelta(minutes=1):
        raise InstantError("offset_range")
    try:  # naive arithmetic: year 9999 at -14:00 overflows Python's datetime, not a comparison
        utc = (moment.replace(tzinfo=None) - offset).replace(tzinfo=dt_timezone.utc)
    except OverflowError:
        raise InstantError("out_of_range") from None
    if not EARLIEST_INSTANT <= utc <= LATEST_INSTANT:
        raise InstantError("out_of_range")
    return moment


def format_instant(moment: datetime | None) -> str | None:
    """Return `moment` as `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC (None stays None; naive counts as UTC)."""
    if moment is None:
        return None
    if moment.utcoffset() is None:
        moment = moment.replace(tzinfo=dt_timezone.utc)
    utc = moment.astimezone(dt_timezone.utc)
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z"


def format_stored_instant(value):
    """The API form of a timestamp kept as text in a JSON document (older rows hold other ISO forms).

    Text that is not a timestamp is returned unchanged.
    """
    if not isinstance(value, str):
        return value
    try:
        parsed = parse_datetime(value)
    except ValueError:
        return value
    return format_instant(parsed) if parsed is not None else value
