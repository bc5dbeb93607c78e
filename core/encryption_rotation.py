"""Re-encrypt every encrypted column with the active key (used by `rotate_encryption_key`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from django.apps import apps
from django.db import connection, transaction

from .crypto import PREFIX, current_key_ring
from .encrypted_fields import EncryptedJSONField, EncryptedTextField

BATCH = 500


@dataclass(frozen=True)
class EncryptedColumn:
    model: type
    field_name: str
    column: str

    @property
    def label(self) -> str:
        return f"{self.model._meta.label}.{self.field_name}"


def encrypted_columns() -> list[EncryptedColumn]:
    columns = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, (EncryptedTextField, EncryptedJSONField)):
                columns.append(EncryptedColumn(model=model, field_name=field.name, column=field.column))
    return columns


def _stale_filter_sql(column: EncryptedColumn) -> tuple[str, list]:
    active_prefix = f"{PREFIX}:{current_key_ring().active_id}:"
    return f'"{column.column}" IS NOT NULL AND left("{column.column}", %s) <> %s', [len(active_prefix), active_prefix]


def stale_count(column: EncryptedColumn) -> int:
    """How many values of the column are not encrypted with the active key."""
    where, params = _stale_filter_sql(column)
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT count(*) FROM "{column.model._meta.db_table}" WHERE {where}', params)
        return cursor.fetchone()[0]


def _stale_ids(column: EncryptedColumn) -> Iterator[list]:
    where, params = _stale_filter_sql(column)
    table, pk = column.model._meta.db_table, column.model._meta.pk.column
    last = None
    while True:
        clause = f' AND "{pk}" > %s' if last is not None else ""
        with connection.cursor() as cursor:
            cursor.execute(f'SELECT "{pk}" FROM "{table}" WHERE {where}{clause} ORDER BY "{pk}" LIMIT {BATCH}',
                           params + ([last] if last is not None else []))
            ids = [row[0] for row in cursor.fetchall()]
        if not ids:
            return
        yield ids
        last = ids[-1]


def rotate_column(column: EncryptedColumn, *, on_progress: Callable[[int], None] = lambda n: None) -> int:
    """Decrypt each stale value (with whichever key it names) and write it back under the active key."""
    done = 0
    manager = column.model._base_manager
    for ids in _stale_ids(column):
        with transaction.atomic():
            for obj in manager.select_for_update().filter(pk__in=ids).only("pk", column.field_name):
                manager.filter(pk=obj.pk).update(**{column.field_name: getattr(obj, column.field_name)})
        done += len(ids)
        on_progress(len(ids))
    return done
