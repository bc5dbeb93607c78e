"""Reads for accounts: plans, tier policies and user tokens."""
from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .models import CONTEXT_ADMIN_GROUP, ApiToken, Plan, TierPolicy, TokenFailureWindow, TokenKind, UserPlan


def plan_for_user(user) -> str:
    """The user's plan; `None` (an end user never seen) has the plan they would be created with."""
    if user is None:
        return settings.DEFAULT_PLAN
    return UserPlan.objects.filter(user=user).values_list("plan", flat=True).first() or Plan.FREE


def user_tokens(*, user):
    """The user tokens of `user` (none for a user never seen), newest first."""
    if user is None:
        return ApiToken.objects.none()
    return ApiToken.objects.filter(user=user, kind=TokenKind.USER).order_by("-created_at", "-id")


def tier_policy_for_user(user) -> TierPolicy:
    return TierPolicy.objects.get(plan=plan_for_user(user))


def is_context_admin(user) -> bool:
    return bool(user.is_active and user.is_staff and user.groups.filter(name=CONTEXT_ADMIN_GROUP).exists())


def token_lockout_seconds(*, client_address: str | None) -> int | None:
    """Seconds until this address may authenticate with a token again, or None if it is not locked out.

    Locked out: TOKEN_AUTH_FAILURE_LIMIT failures within the window that began at its first failure.
    """
    if not client_address:
        return None
    window = timedelta(seconds=settings.TOKEN_AUTH_FAILURE_WINDOW_SECONDS)
    now = timezone.now()
    started = TokenFailureWindow.objects.filter(
        client_address=client_address[:64], failures__gte=settings.TOKEN_AUTH_FAILURE_LIMIT,
        window_started_at__gt=now - window,
    ).values_list("window_started_at", flat=True).first()
    if started is None:
        return None
    return max(1, math.ceil((started + window - now).total_seconds()))
