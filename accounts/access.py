"""Who is calling and on whose data: the three roles of the context API.

- self:   an end user (session or user token) acting on their own data;
- system: a chat backend (service token) acting for the end user named by `?user=<external id>`;
- admin:  staff in the context-admin group acting on the user named by `?user=`; reads are audited.

The API serves active end users only: a deactivated subject is 403 `USER_INACTIVE` for every role.
Reading never creates anything: a system client naming a user this service has never seen gets
`subject=None`, and the endpoint answers with its empty form. An endpoint that stores something gets
its user from `subject_for_write`, which creates them on first sight inside the write's transaction,
so a refused write leaves no user behind either.
"""
from __future__ import annotations

import ipaddress
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from drf_spectacular.utils import OpenApiParameter

from audit.services import AuditContext
from core.errors import ApplicationError, ForbiddenError, NotFoundError
from core.timing import phase

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
    # The end user whose data the request reads or writes; None for a system client naming a user this
    # service has never seen (nothing to show; a write creates them with `subject_for_write`).
    subject: object | None
    subject_ref: str  # the subject's external id (also for an unknown subject)
    audit: AuditContext


def client_ip(request) -> str | None:
    """The client's address: REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT reverse proxies the address the
    outermost of them saw (that many entries from the right of X-Forwarded-For; the rest is client-made).

    Audit rows, the token throttle and the login lockout (django-axes) all key on this.
    """
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if len(forwarded) >= proxies:
            try:
                return str(ipaddress.ip_address(forwarded[-proxies]))
            except ValueError:
                pass  # a proxy that forwards garbage: fall back to the peer address
    return request.META.get("REMOTE_ADDR") or None


def _audit_context(request, principal, role: Role) -> AuditContext:
    return AuditContext(
        actor_id=principal.pk,
        actor_label=f"{role.value}:{principal.get_username()}",
        trigger="api",
        request_id=getattr(request, "request_id", ""),
        ip_address=client_ip(request),
    )


def is_end_user(user) -> bool:
    """An account of the chat product's users: not staff, not a superuser, not a service account."""
    return not (user.is_staff or user.is_superuser or user.get_username().startswith(SERVICE_USERNAME_PREFIX))


def resolve_caller(request, *, allowed: set[Role]) -> Caller:
    """Return the caller's role and subject, or raise 400/403/404 errors with stable codes. Writes nothing.
    Its time (the token, the subject) is the request's "auth" phase (core.timing)."""
    with phase("auth"):
        return _resolve_caller(request, allowed=allowed)


def _resolve_caller(request, *, allowed: set[Role]) -> Caller:
    principal = request.user
    token = request.auth if isinstance(request.auth, ApiToken) else None
    requested = request.query_params.get("user")

    if token is not None and token.kind == TokenKind.SERVICE:
        role = Role.SYSTEM
        if not requested:
            raise ApplicationError("System clients must name the end user with ?user=<external id>.",
                                   code="USER_REQUIRED", fields={"user": ["required for system clients"]})
        validate_external_user_id(requested)
        subject = get_user_model().objects.filter(username=requested).first()
        if subject is not None and not is_end_user(subject):
            raise ForbiddenError("That account is not an end user.", code="NOT_AN_END_USER")
    elif token is None and is_context_admin(principal):
        role = Role.ADMIN
        if not requested:
            raise ApplicationError("Admins must name the end user with ?user=<external id>.",
                                   code="USER_REQUIRED", fields={"user": ["required for admins"]})
        validate_external_user_id(requested)
        subject = get_user_model().objects.filter(username=requested).first()
        if subject is None or not is_end_user(subject):
            raise NotFoundError("No such end user.", code="USER_NOT_FOUND")
    else:
        role = Role.SELF
        subject = principal
        if requested and requested != principal.get_username():
            raise ForbiddenError("You can only access your own context.", code="NOT_YOUR_DATA")
        requested = principal.get_username()
        if not is_end_user(principal):
            raise ForbiddenError("This account has no context of its own.", code="NOT_AN_END_USER")

    if role not in allowed:
        raise ForbiddenError(f"This endpoint is not available to the {role.value} role.", code="ROLE_NOT_ALLOWED")
    if subject is not None and not subject.is_active:
        raise ForbiddenError("This user is deactivated.", code="USER_INACTIVE")
    return Caller(principal=principal, role=role, subject=subject, subject_ref=requested,
                  audit=_audit_context(request, principal, role))


@contextmanager
def subject_for_write(caller: Caller):
    """Yield the user a write stores data for, created on first sight (with DEFAULT_PLAN).

    Enter it after validating what the API can, and write inside it. For a new user it is one
    transaction, so a write refused inside it (by its service's own validation, say) takes the new
    user with it; a known user's write keeps its service's own transactions unchanged.
    """
    if caller.subject is not None:
        yield caller.subject
        return
    with transaction.atomic():
        yield end_user_get_or_create(external_id=caller.subject_ref)
