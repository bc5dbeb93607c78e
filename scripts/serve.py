"""Foreground launcher for `make run`: migrate, load demo data, start gunicorn and a django-q2 cluster.

Runs under scripts/devdb.py, which provides DATABASE_URL (the app role) and DATABASE_OWNER_URL (the owner,
used for migrate only). Ctrl-C or SIGTERM stops both children (and then devdb stops the embedded PostgreSQL).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BIND = os.environ.get("GIEOK_BIND", "127.0.0.1:8000")


def manage(*args: str) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, check=True)


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # Never DEBUG behind gunicorn: debug pages echo request bodies and settings, and DEBUG keeps every SQL query.
    os.environ["DJANGO_DEBUG"] = "false"
    manage("migrate", "--noinput", "-v", "0")  # as the owner role (DATABASE_OWNER_URL)
    # Everything else, gunicorn and the cluster included, runs as the app role (DATABASE_URL) only.
    os.environ.pop("DATABASE_OWNER_URL", None)
    manage("collectstatic", "--noinput", "-v", "0")
    manage("load_demo")
    manage("setup_schedules")

    children = [
        subprocess.Popen([PYTHON, "-m", "gunicorn", "config.wsgi:application", "--bind", BIND, "--preload",
                          "--workers", os.environ.get("WEB_CONCURRENCY", "2"), "--access-logfile", "-"], cwd=ROOT),
        subprocess.Popen([PYTHON, "manage.py", "qcluster"], cwd=ROOT),
    ]
    print(f"[serve] gieok on http://{BIND}/  (API docs /api/docs/, admin /admin/); Ctrl-C stops", flush=True)

    stopping = False

    def stop(signum, _frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping and all(child.poll() is None for child in children):
        time.sleep(0.3)
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.time() + 15
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            child.kill()
    print("[serve] stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
