"""Where a request's time goes, phase by phase (issue 11 §1): `Server-Timing: app;dur=12.40, auth;dur=0.31, …`.

Code marks a phase with `with phase("sql"):`; core.middleware.RequestTimingMiddleware opens a collector per request
and writes each phase after `app` (the whole request in Django). Phases are exclusive: a phase inside another
("decrypt" inside "render") pauses the outer one, so the phases add up to at most `app`. Outside a request (a
task, a management command) `phase` does nothing but run its block. The collector lives in a context variable:
one per request and thread, nothing shared between requests or hosts.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field


@dataclass
class _Collector:
    totals: dict[str, float] = field(default_factory=dict)  # phase → exclusive seconds, in first-seen order
    stack: list[list] = field(default_factory=list)  # [name, start, seconds spent in nested phases]


_current: ContextVar[_Collector | None] = ContextVar("request_phases", default=None)


def begin():
    """Start collecting phases for the current request; returns the token `end` takes."""
    return _current.set(_Collector())


def end(token) -> dict[str, float]:
    """Stop collecting; return each phase's exclusive time in milliseconds, in the order first seen."""
    collector = _current.get()
    _current.reset(token)
    return {name: seconds * 1000 for name, seconds in (collector.totals.items() if collector else ())}


@contextmanager
def phase(name: str):
    collector = _current.get()
    if collector is None:
        yield
        return
    frame = [name, time.perf_counter(), 0.0]
    collector.stack.append(frame)
    try:
        yield
    finally:
        collector.stack.pop()
        spent = time.perf_counter() - frame[1]
        collector.totals[name] = collector.totals.get(name, 0.0) + spent - frame[2]
        if collector.stack:
            collector.stack[-1][2] += spent


def server_timing(app_ms: float, phases: dict[str, float]) -> str:
    """The header value: `app` first, then each phase."""
    return ", ".join([f"app;dur={app_ms:.2f}"] + [f"{name};dur={ms:.2f}" for name, ms in phases.items()])
