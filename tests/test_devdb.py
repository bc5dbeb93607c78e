"""scripts/devdb.py and `make manage`, with real processes on a throw-away embedded server.

devdb stops the server it started, stops a server a killed run left behind (after saying it reused it),
leaves a server another live run uses running (and says so), and prints "stopped" only when it is.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest

from accounts.tokens import hash_token

ROOT = Path(__file__).resolve().parents[1]
DEVDB = [sys.executable, str(ROOT / "scripts" / "devdb.py")]
SLEEPER = [sys.executable, "-c", "import time; print('command running', flush=True); time.sleep(600)"]


def _env() -> dict:
    """The environment of a developer's shell: no DATABASE_URL, so devdb uses the embedded server."""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DATABASE_OWNER_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
    return env


def _postmaster(pgdata: Path) -> int | None:
    try:
        pid = int((pgdata / "postmaster.pid").read_text().split()[0])
        return pid if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE else None
    except (OSError, ValueError, IndexError, psutil.Error):
        return None


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _wait_gone(pid: int, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not _alive(pid)


@pytest.fixture(scope="module")
def pgdata():
    base = Path(tempfile.mkdtemp(prefix="gk-devdb-", dir="/tmp"))  # short: the socket lives in it
    data = base / "pg"
    yield data
    pid = _postmaster(data)
    if pid is not None:  # a failed test must not leave a server behind
        os.kill(pid, signal.SIGINT)  # fast shutdown
        _wait_gone(pid, 30)
    shutil.rmtree(base, ignore_errors=True)


class Run:
    """devdb running a command in the background; its stderr (devdb's messages) collected line by line."""

    def __init__(self, pgdata: Path, command: list[str]):
        self.process = subprocess.Popen([*DEVDB, "--pgdata", str(pgdata), "--", *command], cwd=ROOT, env=_env(),
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []

    def wait_for(self, text: str, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            assert time.monotonic() < deadline and self.process.poll() is None, self.lines
            self.lines.append(self.process.stdout.readline())

    def finish(self, timeout: float = 60) -> str:
        rest, _ = self.process.communicate(timeout=timeout)
        self.lines.append(rest)
        return "".join(self.lines)


def _run(pgdata: Path, command: list[str]) -> str:
    result = subprocess.run([*DEVDB, "--pgdata", str(pgdata), "--", *command], cwd=ROOT, env=_env(),
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    return result.stdout + result.stderr


def test_a_server_left_by_a_killed_run_is_reused_said_so_and_stopped(pgdata):
    first = Run(pgdata, SLEEPER)
    first.wait_for("command running")
    postmaster = _postmaster(pgdata)
    command = psutil.Process(first.process.pid).children()[0].pid
    assert postmaster is not None and any("embedded PostgreSQL started" in line for line in first.lines)

    first.process.send_signal(signal.SIGKILL)  # no cleanup at all
    first.process.wait()

    assert _wait_gone(command), "the command outlived its devdb"
    assert _alive(postmaster), "precondition: an unclean stop leaves the server running"

    output = _run(pgdata, [sys.executable, "-c", "print('second command ran')"])

    assert f"reusing an already running embedded PostgreSQL (pid {postmaster}) left over" in output
    assert "second command ran" in output
    assert f"embedded PostgreSQL stopped (pid {postmaster})" in output
    assert _wait_gone(postmaster, 1) and not (pgdata / "postmaster.pid").exists()


def test_a_server_another_run_uses_is_left_running_and_said_so(pgdata):
    first = Run(pgdata, SLEEPER)
    first.wait_for("command running")
    postmaster = _postmaster(pgdata)

    output = _run(pgdata, [sys.executable, "-c", "print('second command ran')"])

    assert f"reusing an already running embedded PostgreSQL (pid {postmaster}) that devdb pid {first.process.pid}" \
           in output
    assert f"left running (pid {postmaster}): devdb pid {first.process.pid} still uses it" in output
    assert "stopped" not in output
    assert _alive(postmaster)

    first.process.send_signal(signal.SIGTERM)  # as Ctrl-C or a service manager would
    first_output = first.finish()

    assert f"embedded PostgreSQL stopped (pid {postmaster})" in first_output
    assert _wait_gone(postmaster, 1)


def test_make_manage_runs_a_command_on_the_embedded_default_and_prints_the_token(pgdata):
    result = subprocess.run(["make", "--no-print-directory", "manage", f"DEVDB_PGDATA={pgdata}",
                             "ARGS=create_service_token ci-backend"],
                            cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=400)

    assert result.returncode == 0, result.stderr[-3000:]
    token = result.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"gk_[A-Za-z0-9_-]{30,}", token), result.stdout
    assert "embedded PostgreSQL stopped" in result.stderr
    assert _postmaster(pgdata) is None

    # The token is stored (hashed) in the database `make run` serves, and names a service: read as the app role.
    check = ("import os, psycopg, sys; url = os.environ['DATABASE_URL']; "  # postgres://gieok_app@//<socket dir>/postgres
             "conn = psycopg.connect(host=url.split('@/', 1)[1].rsplit('/', 1)[0], dbname='postgres', user='gieok_app'); "
             "print(conn.execute('SELECT name, kind FROM accounts_apitoken WHERE key_hash = %s', [sys.argv[1]]).fetchall())")
    output = _run(pgdata, [sys.executable, "-c", check, hash_token(token)])
    assert "[('ci-backend', 'service')]" in output
