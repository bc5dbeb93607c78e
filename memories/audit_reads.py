"""Audit rows for operator reads of memory data."""
from django.db import transaction

from audit.services import audit_record


def audit_operator_read(*, caller, character, object_type: str, count: int | None = None) -> None:
    with transaction.atomic():
        audit_record(context=caller.audit, action="viewed", object_type=object_type,
                     target_user_id=caller.subject.pk, target_user_ref=caller.subject_ref,
                     character_slug=character.slug if character is not None else "", details={"count": count} if count is not None else None)
