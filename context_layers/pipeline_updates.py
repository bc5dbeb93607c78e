"""Layer updates driven by the chat pipeline: heartbeat, extracted rules and identity, soul refresh.

Called by the conversations app inside its scope-locked transaction.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from rest_framework.exceptions import ValidationError

from accounts.models import HeartbeatDetail
from accounts.selectors import tier_policy_for_user
from audit.services import AuditContext
from core.timestamps import format_instant
from memories.masking import mask_document, mask_text

from .documents import validate_layer_document
from .models import UserContext
from .services import audit_scope_change, user_activity_touch

MAX_RULES = 50
MAX_KEYWORDS = 5


@dataclass(frozen=True)
class HeartbeatStats:
    last_seen_at: datetime
    recent_days_count: int  # distinct days with messages in the 7 days up to last_seen_at
    total_conversations: int
    streak_days: int  # consecutive days with messages ending on last_seen_at's day
    avg_session_minutes: float | None
    emotion_keywords: list[str]  # newest last


def _context_for(user, character) -> UserContext:
    ctx, _ = UserContext.objects.select_for_update().get_or_create(user=user, character=character)
    return ctx


def heartbeat_record(*, user, character, stats: HeartbeatStats, context: AuditContext) -> dict:
    """Refresh the heartbeat document from message statistics; FREE keeps last_seen only."""
    detail = tier_policy_for_user(user).heartbeat_detail
    ctx = _context_for(user, character)
    previous = dict(ctx.heartbeat or {})
    doc = {"lastSeenAt": format_instant(stats.last_seen_at)}
    if detail != HeartbeatDetail.LAST_SEEN:
        doc.update({"recentDaysCount": min(7, stats.recent_days_count), "totalConversations": stats.total_conversations,
                    "streakDays": stats.streak_days})
        if stats.avg_session_minutes is not None:
            doc["avgSessionDuration"] = round(stats.avg_session_minutes, 1)
    if detail in (HeartbeatDetail.DETAILED, HeartbeatDetail.REPORT):
        keywords = list(dict.fromkeys(reversed(list(previous.get("lastEmotionKeywords", [])) + stats.emotion_keywords)))
        keywords = list(reversed(keywords[:MAX_KEYWORDS]))
        if keywords:
            doc["lastEmotionKeywords"] = keywords
            common, count = Counter(stats.emotion_keywords or keywords).most_common(1)[0]
            doc["emotionTrend"] = f"요즘 '{common}' 감정을 자주 표현함" if count > 1 else f"최근 '{common}' 감정을 표현함"
    ctx.heartbeat = doc
    ctx.last_seen_at = stats.last_seen_at
    ctx.save(update_fields=["heartbeat", "last_seen_at", "updated_at"])
    user_activity_touch(user=user, seen_at=stats.last_seen_at)
    changed = sorted(key for key in doc if doc.get(key) != previous.get(key))
    if changed:
        audit_scope_change(context, "updated", user=user, character=character, object_type="layer:heartbeat",
                           object_id=ctx.pk, fields=changed)
    return doc


def _valid_identity(identity: dict) -> dict:
    """Keep only the inferred identity fields that pass the identity document's validation."""
    valid = {}
    for key, value in (identity or {}).items():
        try:
            valid.update(validate_layer_document("identity", {key: value}))
        except ValidationError:
            continue
    return valid


_YEARLY = re.compile(r"\d{2}-\d{2}")


def _same_description(a: str, b: str) -> bool:
    return "".join(str(a).split()).casefold() == "".join(str(b).split()).casefold()


def rules_merge(*, user, character, avoid_topics: list[str], special_dates: list[dict], identity: dict,
                context: AuditContext) -> list[str]:
    """Add extracted behaviour rules, special dates and inferred identity; return changed fields."""
    if not (avoid_topics or special_dates or identity):
        return []
    avoid_topics, special_dates, identity = (mask_document(avoid_topics), mask_document(special_dates),
                                             mask_document(identity))
    ctx = _context_for(user, character)
    tools = dict(ctx.tools or {})
    changed: list[str] = []
    topics = list(tools.get("avoidTopics", []))
    for topic in avoid_topics:
        topic = topic.strip()[:200]
        if topic and topic not in topics:
            topics.append(topic)
            changed.append("tools.avoidTopics")
    dates = list(tools.get("specialDates", []))
    for entry in special_dates:
        item = {"date": entry["date"], "description": entry["description"][:200]}
        if item not in dates:
            if _YEARLY.fullmatch(item["date"]):
                # one yearly date per description: "my birthday's the 14th, not the 4th" moves the birthday
                dates = [d for d in dates if not (_YEARLY.fullmatch(str(d.get("date", "")))
                                                  and _same_description(d.get("description", ""), item["description"]))]
            dates.append(item)
            changed.append("tools.specialDates")
    if topics:
        tools["avoidTopics"] = topics[-MAX_RULES:]
    if dates:
        tools["specialDates"] = dates[-MAX_RULES:]
    ctx.tools = tools
    identity_doc = dict(ctx.identity or {})
    inferred = dict(identity_doc.get("inferred") or {})
    for key, value in _valid_identity(identity).items():
        if inferred.get(key) != value:
            inferred[key] = value
            changed.append(f"inferred.{key}")
    identity_doc["inferred"] = inferred
    ctx.identity = identity_doc
    if changed:
        ctx.save(update_fields=["tools", "identity", "updated_at"])
        audit_scope_change(context, "updated", user=user, character=character, object_type="layer:tools+identity",
                           object_id=ctx.pk, fields=changed)
    return changed


SOUL_LIST_MAX = 10
SOUL_DREAM_SUBJECTS = ("dream_job", "goal", "goal_score")
SOUL_PHASE_SUBJECTS = ("occupation", "school_year", "major")
WORRY_EMOTIONS = {"스트레스", "슬픔"}


def soul_refresh(*, user, character, dreams: list[str], life_phase: str, worry_topics: list[str], summary: str,
                 context: AuditContext) -> list[str]:
    """Refresh the soul layer from conversation summaries and goal facts (PREMIUM and up)."""
    if not tier_policy_for_user(user).soul_enabled:
        return []
    dreams, worry_topics = mask_document(dreams), mask_document(worry_topics)
    life_phase, summary = mask_text(life_phase), mask_text(summary)
    ctx = _context_for(user, character)
    soul = dict(ctx.soul or {})
    changed = []
    for key, new_values in (("dreams", dreams), ("recurringWorries", worry_topics)):
        values = list(soul.get(key, []))
        for value in new_values:
            value = value.strip()[:200]
            if value and value not in values:
                values.append(value)
                changed.append(key)
        if values:
            soul[key] = values[-SOUL_LIST_MAX:]
    if life_phase and soul.get("lifePhase") != life_phase[:50]:
        soul["lifePhase"] = life_phase[:50]
        changed.append("lifePhase")
    if summary and soul.get("summary") != summary[:2000]:
        soul["summary"] = summary[:2000]
        changed.append("summary")
    if changed:
        ctx.soul = validate_layer_document("soul", soul)
        ctx.save(update_fields=["soul", "updated_at"])
        audit_scope_change(context, "updated", user=user, character=character, object_type="layer:soul",
                           object_id=ctx.pk, fields=sorted(set(changed)))
    return changed
