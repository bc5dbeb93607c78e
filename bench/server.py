"""Start a throw-away gieok server for benchmarks: migrate, demo data, gunicorn (+ django-q2 cluster)."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local", "DJANGO_DEBUG": "false",
       "OPENBLAS_NUM_THREADS": "1"}
# gunicorn and the cluster run as the app role only, as under `make run` (migrate uses the owner URL).
SERVICE_ENV = {key: value for key, value in ENV.items() if key != "DATABASE_OWNER_URL"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def manage(*args: str) -> str:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=ENV, check=True,
                          capture_output=True, text=True).stdout


@contextmanager
def running_server(*, workers: int = 2, cluster: bool = False):
    """Yield (base_url, system_token); stop everything on exit."""
    manage("migrate", "--noinput", "-v", "0")
    token = re.search(r"system token : (\S+)", manage("load_demo")).group(1)
    port = free_port()
    children = [subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--preload",
         "--workers", str(workers), "--log-level", "warning"], cwd=ROOT, env=SERVICE_ENV)]
    if cluster:
        children.append(subprocess.Popen([sys.executable, "manage.py", "qcluster"], cwd=ROOT, env=SERVICE_ENV,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        deadline = time.monotonic() + 120  # --preload loads the models first: slow on a busy machine
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", token
    finally:
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def maintenance_cursor():
    """A cursor for VACUUM and ANALYZE, which need the tables' owner: the owner role when DATABASE_OWNER_URL is
    set (make bench), else the one connection there is."""
    from django.db import connection, connections

    return (connections["owner"] if "owner" in connections.settings else connection).cursor()


def percentile(sorted_values: list[float], pct: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(pct / 100 * len(sorted_values)) - 1))
    return sorted_values[index]


def server_phases(header: str) -> dict[str, float]:
    """`app;dur=12.40, auth;dur=0.31, …` (the Server-Timing header, core.timing) → {"app": 12.4, "auth": 0.31, …}."""
    phases = {}
    for entry in header.split(","):
        name, _, duration = entry.strip().partition(";dur=")
        if name and duration:
            phases[name] = float(duration)
    return phases
