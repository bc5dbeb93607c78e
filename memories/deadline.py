"""A deadline for waiting on remote models (Gemini), shared by every call made inside it.

A request that must answer quickly opens one: the prompt's read-your-writes work runs inside
`remote_deadline(PROMPT_REMOTE_DEADLINE_MS)`, so its extraction and embedding calls share 300 ms in
all. Inside a deadline each HTTP request times out at what is left of it, and no retry starts or sleeps
past it (`DeadlineExceeded` instead). Outside one (cluster workers, jobs) calls keep their own
timeouts and retries. Local models never look at it.
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

MIN_REQUEST_MS = 5  # below this, a request cannot even connect: give up instead of sending it

_deadline: ContextVar[float | None] = ContextVar("remote_model_deadline", default=None)


class DeadlineExceeded(Exception):
    """A remote model call could not finish before the deadline. Holds no content."""

    def __init__(self, operation: str):
        super().__init__(f"{operation}: deadline reached")
        self.operation = operation


@contextmanager
def remote_deadline(ms: float | None) -> Iterator[None]:
    """Bound remote model calls in this block to `ms` milliseconds in all (None: no bound).

    Nested deadlines keep the earlier end: an inner block never extends an outer budget.
    """
    if ms is None:
        yield
        return
    end = time.monotonic() + max(0.0, ms) / 1000.0
    current = _deadline.get()
    token = _deadline.set(end if current is None else min(current, end))
    try:
        yield
    finally:
        _deadline.reset(token)


def remaining_ms() -> float | None:
    """Milliseconds left before the current deadline (0 when passed), or None outside a deadline."""
    end = _deadline.get()
    return None if end is None else max(0.0, (end - time.monotonic()) * 1000.0)


def request_timeout_ms(operation: str) -> int | None:
    """The timeout for the next remote request: what is left of the deadline, or None outside one.

    Raise DeadlineExceeded when too little is left to send a request at all.
    """
    left = remaining_ms()
    if left is None:
        return None
    if left < MIN_REQUEST_MS:
        raise DeadlineExceeded(operation)
    return int(left)
