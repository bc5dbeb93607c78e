"""Start a real gunicorn on a free loopback port for tests that need the served app (bounded, always stopped)."""
from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(port: int) -> bool:
    probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        probe.request("GET", "/healthz")
        return probe.getresponse().status == 200
    except OSError:
        return False
    finally:
        probe.close()


@contextmanager
def running_gunicorn(*, env: dict, log: Path, start_within: float, stop_within: float,
                     args: tuple[str, ...] = ()) -> Iterator[int]:
    """Serve config.wsgi with one worker and `env`; yield the port once /healthz answers 200.

    Fails the test with the end of the log if gunicorn exits or is not healthy within `start_within` seconds.
    """
    port = free_port()
    with log.open("wb") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", "1", *args],
            cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + start_within
        while not _healthy(port):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"gunicorn did not start: {log.read_text(errors='replace')[-2000:]!r}")
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=stop_within)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=stop_within)
