"""Writes for accounts: end users by external id, API tokens, plan changes."""
from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from audit.services import AuditContext, audit_record
from core.errors import ApplicationError

from .models import (
    CONTEXT_ADMIN_GROUP,
    SERVICE_USERNAME_PREFIX,
    ApiToken,
    Plan,
    PortalLink,
    TokenFailureWindow,
    TokenKind,
    UserPlan,
)
from .tokens import hash_token, new_plain_token

EXTERNAL_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@:+-]{0,149}$")


def validate_external_user_id(external_id: str) -> str:
    if not isinstance(external_id, str) or not EXTERNAL_ID_PATTERN.fullmatch(external_id):
        raise ApplicationError(
            "The user id must be 1-150 characters of letters, digits and . _ @ : + - (not starting with a symbol).",
            code="INVALID_USER_ID",
            fields={"user": ["invalid external user id"]},
        )
    return external_id


def end_user_get_or_create(*, external_id: str) -> AbstractBaseUser:
    """Return the end user with this external id, creating it on first sight with DEFAULT_PLAN."""
    validate_external_user_id(external_id)
    User = get_user_model()
    user = User.objects.filter(username=external_id).first()
    if user is not None:
        return user
    try:
        with transaction.atomic():
            user = User.objects.create(username=external_id)
            user.set_unusable_password()
            user.save(update_fields=["password"])
            UserPlan.objects.create(user=user, plan=settings.DEFAULT_PLAN)
    except IntegrityError:  # created concurrently by another request
        user = User.objects.get(username=external_id)
    return user


def api_token_create(*, name: str, kind: str, user=None) -> tuple[ApiToken, str]:
    """Create a token and return it with its plain value (shown once, never stored)."""
    if kind == TokenKind.SERVICE:
        User = get_user_model()
        user, created = User.objects.get_or_create(username=f"{SERVICE_USERNAME_PREFIX}{name}"[:150])
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
    elif user is None:
        raise ValueError("a user token needs a user")
    plain = new_plain_token()
    token = ApiToken.objects.create(
        name=name, kind=kind, user=user, key_prefix=plain[:10], key_hash=hash_token(plain)
    )
    return token, plain


def user_token_issue(*, user, name: str, context: AuditContext) -> tuple[ApiToken, str]:
    """A chat backend mints a token for its own client to act as `user` (role self): returned once, revocable,
    listed in the admin; audited without the secret."""
    with transaction.atomic():
        token, plain = api_token_create(name=name, kind=TokenKind.USER, user=user)
        audit_record(context=context, action="created", object_type="api_token", object_id=token.pk,
                     target_user_id=user.pk, target_user_ref=user.get_username(), details={"kind": TokenKind.USER})
    return token, plain


def api_token_revoke(*, token: ApiToken, context: AuditContext) -> bool:
    """Revoke a token (API and admin alike); False when it was revoked already."""
    with transaction.atomic():
        revoked = ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
        if revoked:
            audit_record(context=context, action="deactivated", object_type="api_token", object_id=token.pk,
                         target_user_id=token.user_id if token.kind == TokenKind.USER else None,
                         target_user_ref=token.user.get_username() if token.kind == TokenKind.USER else "",
                         changed_fields=["revoked_at"])
    return bool(revoked)


PORTAL_LANGUAGES = ("ko", "en")


def url_origin(url: str) -> str | None:
    """`scheme://host[:port]` of an absolute http(s) URL, lowercased; None for anything else."""
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError on a malformed port
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or parts.username or parts.password:
        return None
    host = parts.hostname.lower()
    return f"{parts.scheme.lower()}://{host}" + (f":{port}" if port is not None else "")


def api_token_return_origins_set(*, token: ApiToken, origins: list[str], context: AuditContext) -> list[str]:
    """Set the origins a service token's portal sessions may send users back to (each `scheme://host[:port]`),
    normalised and deduplicated; audited by field name."""
    normalised = []
    for origin in origins:
        parsed = url_origin(origin.strip())
        if parsed is None or parsed != origin.strip().rstrip("/").lower():
            raise ApplicationError(f"Not an origin (scheme://host[:port]): {origin!r}.", code="VALIDATION_ERROR",
                                   fields={"returnOrigins": ["scheme://host[:port], nothing more"]})
        if parsed not in normalised:
            normalised.append(parsed)
    if token.kind != TokenKind.SERVICE and normalised:
        raise ApplicationError("Only service tokens open portal sessions.", code="VALIDATION_ERROR",
                               fields={"returnOrigins": ["service tokens only"]})
    with transaction.atomic():
        ApiToken.objects.filter(pk=token.pk).update(return_origins=normalised)
        token.return_origins = normalised
        audit_record(context=context, action="updated", object_type="api_token", object_id=token.pk,
                     changed_fields=["return_origins"], details={"origins": len(normalised)})
    return normalised


def portal_link_issue(*, user, issued_by: ApiToken | None, character_slug: str = "", return_url: str = "",
                      language: str = "", context: AuditContext) -> tuple[PortalLink, str]:
    """A chat backend opens the user's memory pages: a one-time link, valid PORTAL_LINK_SECONDS, that signs
    the user in (optionally landing on one character; optionally with a way back to `return_url`, whose origin
    must be on the issuing token's allow-list). Audited without the secret; returns the link and its secret."""
    if return_url:
        origin = url_origin(return_url)
        allowed = {o.rstrip("/").lower() for o in (issued_by.return_origins if issued_by else [])}
        if origin is None or origin not in allowed:
            raise ApplicationError("The return URL's origin is not on this service token's allow-list.",
                                   code="RETURN_URL_NOT_ALLOWED", fields={"returnUrl": ["origin not allowed"]})
    if language and language not in PORTAL_LANGUAGES:
        raise ApplicationError("Unknown language.", code="VALIDATION_ERROR", fields={"language": ["ko or en"]})
    plain = new_plain_token()
    with transaction.atomic():
        link = PortalLink.objects.create(
            key_hash=hash_token(plain), user=user, issued_by=issued_by, character_slug=character_slug,
            return_url=return_url, language=language,
            expires_at=timezone.now() + timedelta(seconds=settings.PORTAL_LINK_SECONDS))
        PortalLink.objects.filter(expires_at__lt=timezone.now() - timedelta(days=1)).delete()
        audit_record(context=context, action="created", object_type="portal_link", object_id=link.pk,
                     target_user_id=user.pk, target_user_ref=user.get_username(), character_slug=character_slug)
    return link, plain


def portal_link_redeem(*, plain: str, context: AuditContext) -> PortalLink | None:
    """Spend a portal link: the link when it is unused, unexpired and its user active; else None (and nothing
    changes). A link works once, even for two requests racing with it."""
    if not isinstance(plain, str) or not plain.isascii() or len(plain) > 100:
        return None
    with transaction.atomic():
        link = (PortalLink.objects.select_for_update().select_related("user")
                .filter(key_hash=hash_token(plain), used_at__isnull=True, expires_at__gt=timezone.now()).first())
        if link is None or not link.user.is_active:
            return None
        link.used_at = timezone.now()
        link.save(update_fields=["used_at"])
        audit_record(context=context, action="signed_in", object_type="portal_link", object_id=link.pk,
                     target_user_id=link.user_id, target_user_ref=link.user.get_username(),
                     character_slug=link.character_slug)
    return link


def user_plan_set(*, user, plan: str, context: AuditContext) -> UserPlan:
    """Change a user's plan. Items over a lower cap stay readable; new ones are refused."""
    if plan not in Plan.values:
        raise ApplicationError(f"Unknown plan {plan!r}.", code="INVALID_PLAN", fields={"plan": ["unknown plan"]})
    with transaction.atomic():
        user_plan, _ = UserPlan.objects.select_for_update().get_or_create(user=user)
        previous = user_plan.plan
        if previous != plan:
            user_plan.plan = plan
            user_plan.save(update_fields=["plan", "changed_at"])
            audit_record(
                context=context, action="updated", object_type="user_plan", object_id=user_plan.pk,
                target_user_id=user.pk, target_user_ref=user.get_username(), changed_fields=["plan"],
                details={"from_plan": previous, "to_plan": plan},
            )
    return user_plan


_TOKEN_FAILURE_SQL = """
INSERT INTO {table} AS w (client_address, window_started_at, failures) VALUES (%(address)s, %(now)s, 1)
ON CONFLICT (client_address) DO UPDATE SET
    failures = CASE WHEN w.window_started_at > %(expired)s THEN w.failures + 1 ELSE 1 END,
    window_started_at = CASE WHEN w.window_started_at > %(expired)s THEN w.window_started_at ELSE %(now)s END
"""


def token_failure_record(*, client_address: str | None) -> None:
    """Count one failed bearer-token authentication from this address (one atomic statement, so
    concurrent workers never lose a count); a window starts at its first failure. Expired windows go."""
    if not client_address:
        return
    now = timezone.now()
    expired = now - timedelta(seconds=settings.TOKEN_AUTH_FAILURE_WINDOW_SECONDS)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_TOKEN_FAILURE_SQL.format(table=TokenFailureWindow._meta.db_table),
                       {"address": client_address[:64], "now": now, "expired": expired})
        TokenFailureWindow.objects.filter(window_started_at__lte=expired).delete()


def token_lockout_clear(*, client_addresses: list[str], context: AuditContext) -> int:
    """Forget the failed-token counts of these addresses (an operator unlocking a chat backend)."""
    with transaction.atomic():
        deleted, _ = TokenFailureWindow.objects.filter(client_address__in=client_addresses).delete()
        audit_record(context=context, action="deleted", object_type="token_failure_window",
                     details={"addresses": deleted})
    return deleted


# The apps an operator works in through the admin (every admin write goes through the services, which audit).
OPERATOR_APPS = ("accounts", "characters", "memories", "context_layers", "conversations", "core")


def operator_permissions():
    """Model permissions of the context-admin group: the project's models, and the audit trail read-only."""
    from django.contrib.auth.models import Permission
    from django.db.models import Q

    return Permission.objects.filter(Q(content_type__app_label__in=OPERATOR_APPS)
                                     | Q(content_type__app_label="audit", codename__startswith="view_"))


def operator_create(*, username: str, superuser: bool = False, context: AuditContext) -> tuple[AbstractBaseUser, str]:
    """Create (or reset) an operator: staff in the context-admin group. Return the user and a new password.

    An operator signs in to the admin console; only the context-admin group sees user data there. A
    superuser also reaches the django-q2 monitor and the permission settings. Audited, without the password.
    """
    from django.contrib.auth.models import Group

    validate_external_user_id(username)
    if username.startswith(SERVICE_USERNAME_PREFIX):
        raise ApplicationError("That name is reserved for service accounts.", code="INVALID_USER_ID",
                               fields={"username": ["reserved prefix"]})
    User = get_user_model()
    password = new_plain_token()[3:27]
    with transaction.atomic():
        user, created = User.objects.select_for_update().get_or_create(username=username)
        if not created and not user.is_staff:
            raise ApplicationError("An end user of that name exists; pick another operator name.",
                                   code="NOT_AN_OPERATOR", fields={"username": ["is an end user"]})
        user.is_staff, user.is_active = True, True
        user.is_superuser = user.is_superuser or superuser
        user.set_password(password)
        user.save()
        group = Group.objects.get_or_create(name=CONTEXT_ADMIN_GROUP)[0]
        group.permissions.add(*operator_permissions())
        user.groups.add(group)
        audit_record(context=context, action="created" if created else "updated", object_type="operator",
                     object_id=user.pk, changed_fields=["password", "groups"] + (["is_superuser"] if superuser else []))
    return user, password
