"""Text of each layer of the prompt block, as lists of lines in priority order (most needed first)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.utils import timezone

from context_layers.models import IntimacyLevel
from memories.extraction.behaviour import topic_for_prompt
from memories.extraction.josa import josa

from .retrieval import ScoredMemory
from .situations import upcoming_special_dates

HEADER = ("[기억 컨텍스트] {name_subject} 이 유저에 대해 알고 있는 내용. 기억·기록·메모의 존재를 언급하지 말고 "
          "자연스럽게 대화에 반영할 것. 유저가 새 사실을 말하거나 모순되면 새 내용을 따를 것.")
STATE_BLOCK_CHARS = 1500  # seed 002 §4.1
HONORIFIC_HINT = {"반말": "반말로", "존댓말": "존댓말로", "혼합": "반말과 존댓말을 섞어"}


def header(character_name: str) -> str:
    return HEADER.format(name_subject=josa(character_name, "이/가"))  # "춘심이", "소라가"


@dataclass(frozen=True)
class IntimacyStep:
    step: int
    label: str
    manner: str  # how to speak at this step; the register (반말/존댓말) stays the persona's and the user's


# seed 003 §2-1: stranger → acquaintance → friend → close_friend → intimate (speechStyle formal → casual → intimate).
# Short on purpose: in a full block every token of this line is taken from the last memory line.
INTIMACY_STEPS = {
    IntimacyLevel.STRANGER: IntimacyStep(1, "처음 만난 사이", "정중하고 조심스럽게"),
    IntimacyLevel.ACQUAINTANCE: IntimacyStep(2, "아는 사이", "예의 있게, 조금 편하게"),
    IntimacyLevel.FRIEND: IntimacyStep(3, "친구", "편하게, 가벼운 농담 가능"),
    IntimacyLevel.CLOSE_FRIEND: IntimacyStep(4, "절친", "허물없이, 장난과 속 얘기 가능"),
    IntimacyLevel.INTIMATE: IntimacyStep(5, "각별한 사이", "다정하게, 애정 표현 가능"),
}


def relationship_lines(intimacy_level: str | None) -> list[str]:
    """The intimacy step and how to speak at it; nothing when the scope has no relationship yet."""
    step = INTIMACY_STEPS.get(intimacy_level)
    return [f"[관계] 친밀도 {step.step}단계({step.label}): {step.manner}"] if step else []


def identity_lines(identity: dict, *, intimacy_level: str | None = None) -> list[str]:
    """How to address the user, the intimacy step (when the scope has a relationship), then inferred traits."""
    parts = []
    if identity.get("nickname"):
        parts.append(f"부를 이름: {identity['nickname']}")
    if identity.get("customTitle"):
        parts.append(f"호칭: {identity['customTitle']}")
    if identity.get("honorific"):
        parts.append(f"말투: {HONORIFIC_HINT.get(identity['honorific'], identity['honorific'])}")
    if identity.get("relationshipType"):
        parts.append(f"관계: {identity['relationshipType']}")
    lines = [f"[호칭/관계] {' · '.join(parts)}"] if parts else []
    lines += relationship_lines(intimacy_level)
    traits = identity.get("inferredTraits") or []
    if traits:
        lines.append(f"[성향] {', '.join(traits[:5])}")
    return lines


def memory_line(scored: ScoredMemory, *, bold: bool = False) -> str:
    item = scored.item
    when = item.event_date
    text = f"**{item.content}**" if bold else item.content
    return f"- ({day_label(when)}) {text}" if when else f"- {text}"


def day_label(when: date) -> str:
    """A memory's date as the block shows it: month/day within this year ("11/9", as people write it in Korean and
    English alike), the whole date otherwise ("2025-11-09"). The year and the zeros cost about 6 of each line's ~13
    date tokens (the estimator counts digits one by one) for nothing the reader needs: the budget holds a few more
    memories instead."""
    return f"{when.month}/{when.day}" if when.year == timezone.localdate().year else when.isoformat()


PENDING_HEADING = "[방금 한 말(아직 기억으로 정리 전)]"
# The character's own words (source = character), never among the user's lines.
CHARACTER_PROMISE_HEADING = "[캐릭터가 한 약속]"
CHARACTER_SAID_HEADING = "[캐릭터가 한 말]"
PENDING_LINE_CHARS = 500


def pending_line(text: str) -> str:
    """A message the user just sent that is not processed yet (masked text, on one line)."""
    flat = " ".join(text.split())
    return f"- {flat[:PENDING_LINE_CHARS]}{'…' if len(flat) > PENDING_LINE_CHARS else ''}"


def state_line(scored: ScoredMemory) -> str:
    item = scored.item
    value = item.subject_value or item.content
    return f"- ({item.category}) {item.subject_key}: {value}"


def heartbeat_lines(heartbeat: dict, *, gap_days: int | None) -> list[str]:
    parts = []
    if gap_days is not None:
        parts.append("오늘 처음 대화" if gap_days == 0 else f"지난 대화로부터 {gap_days}일 만")
    elif heartbeat.get("lastSeenAt"):
        parts.append(f"마지막 대화: {str(heartbeat['lastSeenAt'])[:10]}")
    if heartbeat.get("recentDaysCount") is not None:
        parts.append(f"최근 7일 중 {heartbeat['recentDaysCount']}일 대화")
    if heartbeat.get("streakDays"):
        parts.append(f"연속 {heartbeat['streakDays']}일")
    if heartbeat.get("emotionTrend"):
        parts.append(str(heartbeat["emotionTrend"]))
    return [f"[관계 리듬] {' · '.join(parts)}"] if parts else []


def soul_lines(soul: dict) -> list[str]:
    labels = (("values", "소중히 여기는 것"), ("dreams", "꿈·목표"), ("fears", "두려움"),
              ("recurringWorries", "반복되는 고민"), ("lifePhase", "지금의 시기"))
    lines = []
    for key, label in labels:
        value = soul.get(key)
        if value:
            lines.append(f"- {label}: {', '.join(value[:3]) if isinstance(value, list) else value}")
    if soul.get("summary"):
        lines.append(f"- 요약: {soul['summary']}")
    return (["[가치관과 마음]"] + lines) if lines else []


AVOID_TOPICS_PER_LINE = 10


def tools_lines(tools: dict, *, today: date) -> list[str]:
    lines = []
    if tools.get("avoidTopics"):
        topics = list(dict.fromkeys(topic_for_prompt(str(topic)) for topic in tools["avoidTopics"]))
        # Short lines, so a budget too small for every topic still carries the first ones.
        for start in range(0, len(topics), AVOID_TOPICS_PER_LINE):
            label = "피할 주제 (유저가 먼저 꺼내지 않으면 언급 금지)" if start == 0 else "피할 주제 (이어서)"
            lines.append(f"- {label}: {', '.join(topics[start:start + AVOID_TOPICS_PER_LINE])}")
    for entry, days in upcoming_special_dates(tools.get("specialDates") or [], today):
        when = "오늘" if days == 0 else f"{days}일 뒤"
        lines.append(f"- 다가오는 날: {entry['date']} {entry['description']} ({when})")
    if tools.get("enabledFeatures"):
        lines.append(f"- 사용할 기능: {', '.join(tools['enabledFeatures'])}")
    if tools.get("disabledFeatures"):
        lines.append(f"- 쓰지 말 기능: {', '.join(tools['disabledFeatures'])}")
    for rule in tools.get("customRules") or []:
        lines.append(f"- {rule['condition']} → {rule['action']}")
    return (["[행동 규칙]"] + lines) if lines else []
