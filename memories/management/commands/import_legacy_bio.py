"""`manage.py import_legacy_bio FILE.jsonl [--dry-run] [--no-backup]`: move legacy User.bio memory in (seed 000 §9).

Each line `{"userId": "...", "characterId": "..." (optional: LEGACY_BIO_DEFAULT_CHARACTER), "bio": "<JSON string>"}`
is validated whole and imported in one transaction (memories.legacy); a bad line is reported with its number and
skipped. Re-running changes nothing. Without --dry-run it needs a backup younger than an hour (`make backup`)
or --no-backup. Ends with a verification report; exit status 1 when any line failed.
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from audit.services import AuditContext
from core.backups import backup_is_recent
from core.errors import ApplicationError
from memories.legacy import LegacyLineError, legacy_line_import, legacy_line_parse

CONTEXT = AuditContext(actor_label="command:import_legacy_bio", trigger="command")


class Command(BaseCommand):
    help = "Import legacy User.bio memory from a JSONL file (validated per line, idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--dry-run", action="store_true", help="Validate and count; write nothing.")
        parser.add_argument("--no-backup", action="store_true", help="Run without a recent backup (not advised).")

    def handle(self, *args, file, dry_run, no_backup, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No such file: {file}")
        if not dry_run and not no_backup and not backup_is_recent():
            raise CommandError("No backup younger than an hour: run `make backup` (or `manage.py backup_database`) "
                               "first, or pass --no-backup.")
        lines = path.read_text(encoding="utf-8").splitlines()
        report = {"lines": 0, "users": set(), "created": 0, "existing": 0, "would_import": 0, "skipped": 0}
        errors: list[str] = []
        for number, raw in enumerate(tqdm(lines, unit="line", disable=None), start=1):
            if not raw.strip():
                continue
            report["lines"] += 1
            try:
                line = legacy_line_parse(raw)
                counts = legacy_line_import(line, context=CONTEXT, dry_run=dry_run)
            except LegacyLineError as exc:
                errors.append(f"line {number}: {exc}")
                report["skipped"] += 1
                continue
            except ApplicationError as exc:  # the user turned memory off, a plan refuses more, ...
                errors.append(f"line {number}: {exc.code}")
                report["skipped"] += 1
                continue
            report["users"].add(line.user_id)
            for key, value in counts.items():
                report[key] += value
        self.stdout.write(("dry run: nothing written\n" if dry_run else "")
                          + f"lines {report['lines']}, users {len(report['users'])}, memories created "
                          f"{report['created']}, already there {report['existing']}"
                          + (f", would import {report['would_import']}" if dry_run else "")
                          + f", skipped lines {report['skipped']}")
        for error in errors:
            self.stdout.write(f"  error {error}")
        if errors:
            raise CommandError(f"{len(errors)} line(s) failed; the others were imported.", returncode=1)
