"""`make restore FILE=backups/….dump` / `manage.py restore_database FILE --yes`: replace the database's tables
with a backup's, in one transaction (it completes or changes nothing)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.backups import backup_restore


class Command(BaseCommand):
    help = "Restore a backup written by backup_database (every table is replaced). Needs --yes."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--yes", action="store_true", help="Yes, replace the current data with the backup's.")

    def handle(self, *args, file, yes, **options):
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No such backup: {file}")
        if not yes:
            raise CommandError("Restoring replaces every table with the backup's; repeat with --yes.")
        try:
            backup_restore(path=path)
        except Exception as exc:
            raise CommandError(f"restore failed, nothing changed: {getattr(exc, 'stderr', b'') or exc}") from None
        self.stdout.write(f"restored {path}")
