"""Mask personal data stored before every write path masked it (rows written by an older version).

Run once after upgrading; safe to run again (already masked text stays as it is). `--dry-run` only counts.
"""
from django.core.management.base import BaseCommand

from memories.services import stored_pii_mask


class Command(BaseCommand):
    help = "Mask personal data in every stored text column (memories, layers, messages, summaries)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Only count the values that would change.")

    def handle(self, *args, dry_run=False, **options):
        changed = stored_pii_mask(dry_run=dry_run)
        verb = "would change" if dry_run else "changed"
        for label, count in changed.items():
            self.stdout.write(f"  {label}: {count} {verb}")
        self.stdout.write(f"Values with personal data {verb}: {sum(changed.values())}")
