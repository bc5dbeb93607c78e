"""Writing audit rows. Call inside the transaction of the change being audited."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .models import AuditLog


@dataclass(frozen=True)
class AuditContext:
    """Who did something and through which request; built once per request or job."""

    actor_id: int | None = None
    actor_label: str = ""
    trigger: str = "system"
    request_id: str = ""
    ip_address: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


SYSTEM_CONTEXT = AuditContext(actor_label="system", trigger="system")

_ALLOWED_DETAIL_TYPES = (int, float, bool, type(None))


def _safe_details(details: dict[str, Any] | None) -> dict[str, Any]:
    """Keep only numbers, booleans and short codes: audit rows must never carry user content."""
    safe: dict[str, Any] = {}
    for key, value in (details or {}).items():
        if isinstance(value, _ALLOWED_DETAIL_TYPES):
            safe[key] = value
        # isascii: str.isalnum() accepts Hangul, so a Korean word of user content would pass as a "code".
        elif (isinstance(value, str) and len(value) <= 64 and value.isascii()
              and value.replace("_", "").replace("-", "").isalnum()):
            safe[key] = value
        else:
            raise ValueError(f"audit detail {key!r} must be a number, boolean or short code")
    return safe


def audit_record(
    *,
    context: AuditContext,
    action: str,
    object_type: str,
    object_id: str | int = "",
    target_user_id: int | None = None,
    target_user_ref: str = "",
    character_slug: str = "",
    changed_fields: Iterable[str] = (),
    details: dict[str, Any] | None = None,
) -> AuditLog:
    """Append one audit row."""
    row = _audit_row(context=context, action=action, object_type=object_type, object_id=object_id,
                     target_user_id=target_user_id, target_user_ref=target_user_ref, character_slug=character_slug,
                     changed_fields=changed_fields, details=details)
    row.save(force_insert=True)
    return row


def audit_record_many(*, context: AuditContext, entries: Iterable[dict[str, Any]]) -> list[AuditLog]:
    """Append several rows in one statement; each entry holds audit_record's keyword arguments but `context`."""
    return AuditLog.objects.bulk_create([_audit_row(context=context, **entry) for entry in entries])


def _audit_row(
    *,
    context: AuditContext,
    action: str,
    object_type: str,
    object_id: str | int = "",
    target_user_id: int | None = None,
    target_user_ref: str = "",
    character_slug: str = "",
    changed_fields: Iterable[str] = (),
    details: dict[str, Any] | None = None,
) -> AuditLog:
    return AuditLog(
        actor_id=context.actor_id,
        actor_label=context.actor_label[:200],
        action=action,
        trigger=context.trigger,
        target_user_id=target_user_id,
        target_user_ref=target_user_ref[:200],
        character_slug=character_slug,
        object_type=object_type,
        object_id=str(object_id),
        changed_fields=sorted(set(changed_fields)),
        details=_safe_details(details),
        request_id=context.request_id,
        ip_address=context.ip_address,
    )
