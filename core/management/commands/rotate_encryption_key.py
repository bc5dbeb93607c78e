"""Re-encrypt all encrypted fields with FIELD_ENCRYPTION_ACTIVE_KEY and report what is left.

Rotation: add the new key to FIELD_ENCRYPTION_KEYS, make it active, run this command, and only
remove the old key once it reports 0 values left on other keys.
"""
from django.core.management.base import BaseCommand
from django.db import transaction
from tqdm import tqdm

from audit.services import AuditContext, audit_record

from core.crypto import current_key_ring
from core.encryption_rotation import encrypted_columns, rotate_column, stale_count


class Command(BaseCommand):
    help = "Re-encrypt every encrypted column with the active key."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Only count values on other keys.")

    def handle(self, *args, dry_run=False, **options):
        ring = current_key_ring()
        columns = encrypted_columns()
        pending = {column.label: stale_count(column) for column in columns}
        total = sum(pending.values())
        self.stdout.write(f"Active key {ring.active_id!r}; {total} values on other keys.")
        if not dry_run and total:
            with tqdm(total=total, unit="value", desc="re-encrypting", disable=None) as bar:
                for column in columns:
                    if pending[column.label]:
                        rotate_column(column, on_progress=bar.update)
        left = {column.label: stale_count(column) for column in columns}
        if not dry_run and total:
            with transaction.atomic():
                audit_record(context=AuditContext(actor_label="command:rotate_encryption_key", trigger="command"),
                             action="key_rotated", object_type="encryption_key", object_id=ring.active_id,
                             details={"reencrypted": total - sum(left.values()), "left": sum(left.values())})
        for label, count in left.items():
            self.stdout.write(f"  {label}: {count} left on other keys")
        self.stdout.write(f"Left on other keys: {sum(left.values())}")
