"""Reads for accounts: plans and tier policies."""
from __future__ import annotations

from .models import CONTEXT_ADMIN_GROUP, Plan, TierPolicy, UserPlan


def plan_for_user(user) -> str:
    return UserPlan.objects.filter(user=user).values_list("plan", flat=True).first() or Plan.FREE


def tier_policy_for_user(user) -> TierPolicy:
    return TierPolicy.objects.get(plan=plan_for_user(user))


def is_context_admin(user) -> bool:
    return bool(user.is_active and user.is_staff and user.groups.filter(name=CONTEXT_ADMIN_GROUP).exists())
