"""`make backup` / `manage.py backup_database [--dir DIR]`: a timestamped pg_dump of the whole database."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.backups import backup_create


class Command(BaseCommand):
    help = "Dump the database to backups/gieok-YYYYmmdd-HHMMSS.dump (pg_dump custom format); prints the file."

    def add_arguments(self, parser):
        parser.add_argument("--dir", help="Default: BACKUP_DIR (backups/ in the checkout).")

    def handle(self, *args, dir=None, **options):
        try:
            path = backup_create(directory=Path(dir) if dir else None)
        except Exception as exc:  # pg_dump's own message says what failed (it never holds row data)
            raise CommandError(f"backup failed: {getattr(exc, 'stderr', b'') or exc}") from None
        self.stdout.write(str(path))
