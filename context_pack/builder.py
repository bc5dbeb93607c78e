"""Assemble the token-budgeted context block of one turn (seed 000 §6, §12; seed 002 §3-4; seed 003 §3)."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from accounts.selectors import tier_policy_for_user
from context_layers.selectors import effective_identity, heartbeat_for_tier, user_context_for
from context_layers.models import UserActivity
from memories.selectors import memory_settings_for

from . import rendering
from .budgets import LAYER_PRIORITY, allocate
from .retrieval import RetrievedMemories, ScoredMemory, retrieve
from .situations import detect_situation
from .tokens import estimate_tokens


@dataclass
class LayerText:
    lines: list[str] = field(default_factory=list)
    tokens: int = 0
    items: list[ScoredMemory] = field(default_factory=list)


def _line_tokens(line: str) -> int:
    return estimate_tokens(line) + 1  # the newline


def _fill(layer: LayerText, candidates: list[tuple[str, ScoredMemory | None]], budget: int) -> int:
    """Append candidate lines while they fit; return the budget left."""
    for line, item in candidates:
        cost = _line_tokens(line)
        if cost > budget:
            continue  # a shorter line further down may still fit
        layer.lines.append(line)
        layer.tokens += cost
        budget -= cost
        if item is not None:
            layer.items.append(item)
    return budget


def _still_true(retrieved: RetrievedMemories):
    """Drop memories that repeat a corrected value: the block states only the current canon."""
    outdated = [value.casefold() for value in retrieved.outdated_values]

    def keep(scored: ScoredMemory) -> bool:
        text = f"{scored.item.content} {scored.item.subject_value}".casefold()
        return not any(value in text for value in outdated)
    return keep


def _memory_candidates(retrieved: RetrievedMemories) -> list[tuple[str, ScoredMemory | None]]:
    keep = _still_true(retrieved)
    retrieved = RetrievedMemories(
        identity=[m for m in retrieved.identity if keep(m)], state=[m for m in retrieved.state if keep(m)],
        ranked=[m for m in retrieved.ranked if keep(m)], outdated_values=retrieved.outdated_values)
    candidates: list[tuple[str, ScoredMemory | None]] = []
    if retrieved.identity:
        candidates.append(("[핵심 정보]", None))
        candidates += [(rendering.memory_line(m, bold=True), m) for m in retrieved.identity]
    state_lines, used = [], 0
    for scored in retrieved.state:
        line = rendering.state_line(scored)
        if used + len(line) > rendering.STATE_BLOCK_CHARS:
            break
        state_lines.append((line, scored))
        used += len(line)
    if state_lines:
        candidates.append(("[현재 상태(캐논)]", None))
        candidates += state_lines
    if retrieved.ranked:
        candidates.append(("[관련 기억]", None))
        candidates += [(rendering.memory_line(m), m) for m in retrieved.ranked]
    return candidates


def _drop_empty_headings(layer: LayerText) -> None:
    """Remove a heading whose section got no lines (e.g. no room was left)."""
    kept = []
    for index, line in enumerate(layer.lines):
        is_heading = line.startswith("[")
        next_is_item = index + 1 < len(layer.lines) and not layer.lines[index + 1].startswith("[")
        if is_heading and not next_is_item:
            layer.tokens -= _line_tokens(line)
            continue
        kept.append(line)
    layer.lines = kept


def build_context_pack(*, user, character, message: str, budget: int, situation: str | None,
                       query_vector=None, gap=None) -> dict:
    """Return the prompt block and its per-layer breakdown; `tokens` never exceeds `budget`."""
    now = timezone.now()
    today = timezone.localdate(now)
    policy = tier_policy_for_user(user)
    context = user_context_for(user=user, character=character)
    tools = context.tools or {}
    chosen = situation or detect_situation(message=message, gap=gap, special_dates=tools.get("specialDates", []),
                                           today=today)
    header = rendering.header(character.display_name)
    header_tokens = _line_tokens(header)
    budgets = allocate(max(0, budget - header_tokens), chosen, soul_enabled=policy.soul_enabled)

    memory_settings = memory_settings_for(user)
    layers = {name: LayerText() for name in LAYER_PRIORITY}
    if memory_settings.enabled:
        retrieved = retrieve(user=user, character=character, message=message, query_vector=query_vector,
                             allowed_categories=list(memory_settings.allowed_categories))
        memory_candidates = _memory_candidates(retrieved)
    else:
        memory_candidates = []
    identity, _ = effective_identity(context.identity or {})
    activity = UserActivity.objects.filter(user=user).first()
    heartbeat = heartbeat_for_tier(context.heartbeat or {}, detail=policy.heartbeat_detail, activity=activity)
    gap_days = gap.days if gap is not None else None
    sources = {
        "memory": memory_candidates,
        "heartbeat": [(line, None) for line in rendering.heartbeat_lines(heartbeat, gap_days=gap_days)],
        "identity": [(line, None) for line in rendering.identity_lines(identity)],
        "soul": [(line, None) for line in rendering.soul_lines(context.soul or {})] if policy.soul_enabled else [],
        "tools": [(line, None) for line in rendering.tools_lines(tools, today=today)],
    }
    carry = 0
    for name in LAYER_PRIORITY:  # what a layer leaves unused flows to the next by priority
        carry = _fill(layers[name], sources[name], budgets[name] + carry)
    if carry and memory_candidates:  # and what is still left gives memory a second pass
        remaining = [candidate for candidate in memory_candidates if candidate[0] not in set(layers["memory"].lines)]
        _fill(layers["memory"], remaining, carry)
    _drop_empty_headings(layers["memory"])

    order = ("identity", "memory", "heartbeat", "soul", "tools")
    text = "\n".join([header] + [line for name in order for line in layers[name].lines])
    tokens = header_tokens + sum(layer.tokens for layer in layers.values())
    while tokens > budget and layers["memory"].lines:  # belt and braces: never exceed the budget
        tokens -= _line_tokens(layers["memory"].lines.pop())
        text = "\n".join([header] + [line for name in order for line in layers[name].lines])
    if tokens > budget:
        text, tokens = "", 0
    return {
        "text": text, "tokens": tokens, "budget": budget, "situation": chosen,
        "layers": {name: _layer_payload(name, layers[name]) for name in LAYER_PRIORITY},
    }


def _layer_payload(name: str, layer: LayerText) -> dict:
    payload = {"tokens": layer.tokens, "lines": len([line for line in layer.lines if not line.startswith("[")])}
    if name == "memory":
        payload["items"] = [
            {"id": scored.item.pk, "content": scored.item.content, "category": scored.item.category,
             "sourceMessageId": scored.item.source_message_id, "score": round(float(scored.score), 4)}
            for scored in layer.items
        ]
    return payload
