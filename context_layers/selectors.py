"""Reads for the context layers, shaped as the API of seed 000 §11.2."""
from __future__ import annotations

from accounts.models import HeartbeatDetail
from accounts.selectors import tier_policy_for_user
from core.timestamps import format_instant, format_stored_instant
from characters.models import Character
from memories.selectors import memory_characters, memory_visible

from .models import Relationship, UserActivity, UserContext

_HEARTBEAT_FIELDS_BY_DETAIL = {
    HeartbeatDetail.LAST_SEEN: ("lastSeenAt",),
    HeartbeatDetail.BASIC: ("lastSeenAt", "recentDaysCount", "totalConversations", "avgSessionDuration", "streakDays"),
    HeartbeatDetail.DETAILED: ("lastSeenAt", "recentDaysCount", "totalConversations", "avgSessionDuration",
                               "streakDays", "emotionTrend", "lastEmotionKeywords"),
}
_HEARTBEAT_FIELDS_BY_DETAIL[HeartbeatDetail.REPORT] = _HEARTBEAT_FIELDS_BY_DETAIL[HeartbeatDetail.DETAILED]


def user_context_for(*, user, character) -> UserContext:
    """The stored context of the scope, or an empty unsaved one."""
    return UserContext.objects.filter(user=user, character=character).first() or UserContext(
        user=user, character=character
    )


def effective_identity(identity_doc: dict) -> tuple[dict, dict]:
    """Merge inferred and user-set identity (user-set wins); return (values, source of each key)."""
    inferred = identity_doc.get("inferred") or {}
    user_set = identity_doc.get("userSet") or {}
    values = {**inferred, **user_set}
    sources = {key: ("user" if key in user_set else "inferred") for key in values}
    return values, sources


def heartbeat_for_tier(heartbeat_doc: dict, *, detail: str, activity: UserActivity | None) -> dict:
    allowed = _HEARTBEAT_FIELDS_BY_DETAIL[detail]
    shaped = {key: heartbeat_doc[key] for key in allowed if key in heartbeat_doc}
    if "lastSeenAt" in shaped:  # documents stored before the one time form hold other ISO forms
        shaped["lastSeenAt"] = format_stored_instant(shaped["lastSeenAt"])
    if detail == HeartbeatDetail.REPORT and activity is not None:
        shaped["report"] = {
            "totalActiveDays": activity.total_active_days,
            "firstSeenAt": format_instant(activity.first_seen_at),
        }
    return shaped


def context_overview(*, user, character) -> dict:
    """The five layers of one scope as returned by GET /api/context/{characterId}.

    `user=None` (an end user never seen) gives the empty scope on the plan they would start with.
    """
    if user is None:
        context, activity, memory_count, relationship = UserContext(character=character), None, 0, None
    else:
        context = user_context_for(user=user, character=character)
        activity = UserActivity.objects.filter(user=user).first()
        memory_count = memory_visible(user=user, character=character).count()
        relationship = relationship_overview(user=user, character=character)
    policy = tier_policy_for_user(user)
    identity, identity_sources = effective_identity(context.identity or {})
    return {
        "characterId": character.slug,
        "plan": policy.plan,
        "heartbeat": heartbeat_for_tier(context.heartbeat or {}, detail=policy.heartbeat_detail, activity=activity),
        "identity": identity,
        "identitySources": identity_sources,
        "soul": (context.soul or {}) if policy.soul_enabled else None,
        "tools": context.tools or {},
        "memoryCount": memory_count,
        "relationship": relationship,
    }


def user_characters(*, user) -> list:
    """The characters `user` has anything kept with (a context row or memories), by name."""
    slugs = set(UserContext.objects.filter(user=user).values_list("character_id", flat=True))
    slugs.update(memory_characters(user=user))
    return list(Character.objects.filter(slug__in=slugs).order_by("display_name", "slug"))


def relationship_overview(*, user, character) -> dict | None:
    relationship = Relationship.objects.filter(user=user, character=character).first()
    if relationship is None:
        return None
    return {"intimacyLevel": relationship.intimacy_level, "intimacyScore": round(relationship.intimacy_score, 1),
            **{axis: round(getattr(relationship, axis), 1)
               for axis in ("trust", "affection", "respect", "rivalry", "familiarity")}}
