"""Who is calling and on whose data: the three roles of the context API.

- self:   an end user (session or user token) acting on their own data;
- system: a chat backend (service token) acting for the end user named by `?user=<external id>`;
- admin:  staff in the context-admin group acting on the user named by `?user=`; reads are audited.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiParameter

from audit.services import AuditContext
from core.errors import ApplicationError, ForbiddenError, NotFoundError

from .models import SERVICE_USERNAME_PREFIX, ApiToken, TokenKind
from .selectors import is_context_admin
from .services import EXTERNAL_ID_PATTERN, end_user_get_or_create, validate_external_user_id


# Documented as required: system clients and admins must send it. End users may omit it or give their
# own id; a schema cannot say "required for some callers", and the stricter contract is the safe one.
USER_PARAM = OpenApiParameter(
    "user", str, required=True, pattern=EXTERNAL_ID_PATTERN.pattern,
    description="External user id (the chat product's own id for the end user). Required for system clients "
    "and admins; end users may omit it or give their own.",
)


class Role(str, Enum):
    SELF = "self"
    SYSTEM = "system"
    ADMIN = "admin"


@dataclass(frozen=True)
class Caller:
    principal: object  # the authenticated Django user (a service account for system tokens)
    role: Role
    subject: object  # the end user whose data the request reads or writes
    audit: AuditContext

    @property
    def subject_ref(self) -> str:
        return self.subject.get_username()


def client_ip(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _audit_context(request, principal, role: Role) -> AuditContext:
    return AuditContext(
        actor_id=principal.pk,
        actor_label=f"{role.value}:{principal.get_username()}",
        trigger="api",
        request_id=getattr(request, "request_id", ""),
        ip_address=client_ip(request),
    )


def _is_end_user(user) -> bool:
    return not (user.is_staff or user.is_superuser or user.get_username().startswith(SERVICE_USERNAME_PREFIX))


def resolve_caller(request, *, allowed: set[Role]) -> Caller:
    """Return the caller's role and subject, or raise 400/403/404 errors with stable codes."""
    principal = request.user
    token = request.auth if isinstance(request.auth, ApiToken) else None
    requested = request.query_params.get("user")

    if token is not None and token.kind == TokenKind.SERVICE:
        role = Role.SYSTEM
        if not requested:
            raise ApplicationError("System clients must name the end user with ?user=<external id>.",
                                   code="USER_REQUIRED", fields={"user": ["required for system clients"]})
        subject = end_user_get_or_create(external_id=requested)
        if not _is_end_user(subject):
            raise ForbiddenError("That account is not an end user.", code="NOT_AN_END_USER")
    elif token is None and is_context_admin(principal):
        role = Role.ADMIN
        if not requested:
            raise ApplicationError("Admins must name the end user with ?user=<external id>.",
                                   code="USER_REQUIRED", fields={"user": ["required for admins"]})
        validate_external_user_id(requested)
        subject = get_user_model().objects.filter(username=requested).first()
        if subject is None or not _is_end_user(subject):
            raise NotFoundError("No such end user.", code="USER_NOT_FOUND")
    else:
        role = Role.SELF
        subject = principal
        if requested and requested != principal.get_username():
            raise ForbiddenError("You can only access your own context.", code="NOT_YOUR_DATA")
        if not _is_end_user(principal):
            raise ForbiddenError("This account has no context of its own.", code="NOT_AN_END_USER")

    if role not in allowed:
        raise ForbiddenError(f"This endpoint is not available to the {role.value} role.", code="ROLE_NOT_ALLOWED")
    return Caller(principal=principal, role=role, subject=subject, audit=_audit_context(request, principal, role))
