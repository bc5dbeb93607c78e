"""Assemble the token-budgeted context block of one turn (seed 000 §6, §12; seed 002 §3-4; seed 003 §3)."""
from __future__ import annotations

from copy import copy
from dataclasses import dataclass, field
from typing import Callable

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from accounts.models import Plan, TierPolicy
from accounts.selectors import tier_policy_for_user
from context_layers.models import Relationship, UserActivity, UserContext
from context_layers.selectors import effective_identity, heartbeat_for_tier, user_context_for
from memories.categories import MemoryCategory, MemorySource
from memories.extraction.behaviour import asks_to_recall, avoid_test
from memories.extraction.character_side import STORY_MARK, talks_about_story, users_own_subject
from memories.extraction.whose import only_about_others
from memories.models import MemorySettings
from memories.selectors import memory_embeddings, memory_settings_for
from memories.truth import answered_since, still_holds

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
    """The block states only the current canon: memories.truth decides what still holds."""
    candidates = [scored.item for scored in retrieved.identity + retrieved.state + retrieved.ranked]
    holds = still_holds(outdated_values=retrieved.outdated_values, facts=candidates)
    return lambda scored: holds(scored.item)


# How many of the character's own memories the block shows, by asks_character of the message (0, 1, 2); for 0
# only those scoring at least the CHARACTER_UNASKED_RANK-th of the user's ranked memories (they compete).
CHARACTER_LINES = {0: 2, 1: 3, 2: 8}
CHARACTER_UNASKED_RANK = 8


def _character_candidates(said: list[ScoredMemory]) -> list[tuple[str, ScoredMemory | None]]:
    """The character's own words under their headings: its promises first, then what it told the user."""
    candidates: list[tuple[str, ScoredMemory | None]] = []
    promises = [m for m in said if m.item.category == MemoryCategory.PROMISE]
    told = [m for m in said if m.item.category != MemoryCategory.PROMISE]
    for heading, group in ((rendering.CHARACTER_PROMISE_HEADING, promises), (rendering.CHARACTER_SAID_HEADING, told)):
        if group:
            candidates.append((heading, None))
            candidates += [(rendering.memory_line(m), m) for m in group]
    return candidates


def _avoided(avoid_topics: list[str], message: str) -> Callable[[ScoredMemory], bool]:
    """Rules are hard (issue 9 §6): a memory touching a topic to avoid never enters the block, unless the user's
    message brings the topic up itself (the rule line says "unless the user brings it up first"), by naming it or
    by asking the character to recall what they told it ("나 어디서 일한다고 했었지?")."""
    touches = avoid_test(tuple(avoid_topics)) if avoid_topics else None
    if touches is None or touches(message or "") or asks_to_recall(message):
        return lambda scored: False
    return lambda scored: touches(f"{scored.item.content} {scored.item.subject_value}")


def _others_only(own_subject: str) -> Callable[[ScoredMemory], bool]:
    """When the user asks about their own subject (`own_subject`, extraction.character_side.users_own_subject: "나 어디
    산다고 했지?"), what the user said only of other people ("누나는 밴쿠버 살아") is no answer and would be mixed up with
    it."""
    if not own_subject:
        return lambda scored: False
    return lambda scored: (scored.item.source != MemorySource.CHARACTER and not scored.item.subject_key
                           and only_about_others(scored.item.content))


def _story_lines(message: str, own_subject: str) -> int:
    """How many of the role-play's lines (extraction.character_side.STORY) the block may show: none when the user
    asks about their own life (a role's name or age is not theirs), all the character's places when the user talks
    about the story, else one."""
    if own_subject:
        return 0
    return max(CHARACTER_LINES.values()) if talks_about_story(message) else 1


def _memory_candidates(retrieved: RetrievedMemories, pending_texts: list[str] = (),
                       avoided: Callable[[ScoredMemory], bool] = lambda scored: False,
                       others_only: Callable[[ScoredMemory], bool] = lambda scored: False,
                       story_lines: int = 1, message: str = "") -> list[tuple[str, ScoredMemory | None]]:
    still_true = _still_true(retrieved)
    # a newer memory answering the message's question with another value (memories.truth.answered_since): an older
    # one keeps only what else it says
    answered = answered_since(message, [scored.item for scored in retrieved.ranked + retrieved.state],
                              memory_embeddings)

    def keep(scored: ScoredMemory) -> bool:
        return still_true(scored) and not avoided(scored) and not others_only(scored) \
            and answered.get(scored.item.pk, "") is not None

    def current(scored: ScoredMemory) -> ScoredMemory:
        if scored.item.pk not in answered:
            return scored
        item = copy(scored.item)
        item.content = answered[scored.item.pk]
        return ScoredMemory(item, scored.score)
    retrieved = RetrievedMemories(
        identity=[m for m in retrieved.identity if keep(m)], state=[current(m) for m in retrieved.state if keep(m)],
        ranked=[current(m) for m in retrieved.ranked if keep(m)], outdated_values=retrieved.outdated_values,
        asks_character=retrieved.asks_character, character=[m for m in retrieved.character if keep(m)])
    # The character's own words never join the user's lines: they get their own section, asked for or not.
    asked, said, ranked = retrieved.asks_character, retrieved.character, retrieved.ranked
    stories = [m for m in said if m.item.content.startswith(STORY_MARK)]
    said = [m for m in said if not m.item.content.startswith(STORY_MARK) or m in stories[:story_lines]]
    if not asked:
        bar = ranked[CHARACTER_UNASKED_RANK - 1].score if len(ranked) >= CHARACTER_UNASKED_RANK else float("-inf")
        said = [m for m in said if m.score >= bar]
    character_said = _character_candidates(said[:CHARACTER_LINES[asked]])
    candidates: list[tuple[str, ScoredMemory | None]] = []
    if retrieved.identity:
        candidates.append(("[핵심 정보]", None))
        candidates += [(rendering.memory_line(m, bold=True), m) for m in retrieved.identity]
    if pending_texts:  # not fresh: what the user just said, before anything older that it may correct
        candidates.append((rendering.PENDING_HEADING, None))
        candidates += [(rendering.pending_line(text), None) for text in pending_texts]
    if asked == 2:  # asked what it said: before the user's state and episodes, which may fill the budget
        candidates += character_said
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
    if asked < 2:
        candidates += character_said
    if ranked:
        candidates.append(("[관련 기억]", None))
        candidates += [(rendering.memory_line(m), m) for m in ranked]
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


def _scope_reads(user, character) -> tuple[TierPolicy, UserContext, MemorySettings, UserActivity | None, str | None]:
    """The plan's policy, the scope's context, the memory settings, the shared activity and the intimacy level.

    The rows (and defaults when a row is missing) of tier_policy_for_user, user_context_for,
    memory_settings_for and UserActivity, read through one-to-one joins from the scope's context row
    instead of one query each; the relationship's level rides along as a subquery of that same statement.
    A scope without a context row has no relationship either: processing writes both in one transaction.
    """
    if user is None:  # an end user never seen: the defaults, nothing to read
        return tier_policy_for_user(None), UserContext(character=character), MemorySettings(), None, None
    intimacy_level = Relationship.objects.filter(user=OuterRef("user"), character=OuterRef("character")) \
        .values("intimacy_level")[:1]
    context = UserContext.objects.select_related("user__plan", "user__memory_settings", "user__activity") \
        .annotate(intimacy_level=Subquery(intimacy_level)).filter(user=user, character=character).first()
    if context is None:  # a scope without layers yet
        return tier_policy_for_user(user), user_context_for(user=user, character=character), \
            memory_settings_for(user), UserActivity.objects.filter(user=user).first(), None
    owner = context.user
    plan = getattr(owner, "plan", None)
    policy = TierPolicy.objects.get(plan=(plan.plan if plan is not None else None) or Plan.FREE)
    memory_settings = getattr(owner, "memory_settings", None) or MemorySettings(user=user)
    return policy, context, memory_settings, getattr(owner, "activity", None), context.intimacy_level


def build_context_pack(*, user, character, message: str, budget: int, situation: str | None,
                       query_vector=None, gap=None, pending_texts: list[str] = ()) -> dict:
    """Return the prompt block and its per-layer breakdown; `tokens` never exceeds `budget`.

    `pending_texts`: masked text of messages not processed in time (read-your-writes gave up).
    """
    now = timezone.now()
    today = timezone.localdate(now)
    policy, context, memory_settings, activity, intimacy_level = _scope_reads(user, character)
    tools = context.tools or {}
    chosen = situation or detect_situation(message=message, gap=gap, special_dates=tools.get("specialDates", []),
                                           today=today)
    header = rendering.header(character.display_name)
    header_tokens = _line_tokens(header)
    layers = {name: LayerText() for name in LAYER_PRIORITY}
    # Rules are hard (issue 9 §6): the user's rules take their tokens first and are never dropped for budget
    # (a rule line that cannot fit whole is left out, the heading with it when nothing fits).
    left = _fill(layers["tools"], [(line, None) for line in rendering.tools_lines(tools, today=today)],
                 max(0, budget - header_tokens))
    if len(layers["tools"].lines) == 1:
        layers["tools"] = LayerText()
        left = max(0, budget - header_tokens)
    budgets = allocate(left, chosen, soul_enabled=policy.soul_enabled)
    budgets["memory"] += budgets.pop("tools")

    if user is not None:
        own_subject = users_own_subject(message or "", getattr(character, "display_name", ""))
        retrieved = retrieve(user=user, character=character, message=message, query_vector=query_vector,
                             memory_settings=memory_settings, own_subject=own_subject)
        memory_candidates = _memory_candidates(retrieved, pending_texts,
                                               _avoided(tools.get("avoidTopics") or [], message),
                                               _others_only(own_subject), _story_lines(message, own_subject),
                                               message or "")
    else:
        memory_candidates = []
    identity, _ = effective_identity(context.identity or {})
    heartbeat = heartbeat_for_tier(context.heartbeat or {}, detail=policy.heartbeat_detail, activity=activity)
    gap_days = gap.days if gap is not None else None
    sources = {
        "memory": memory_candidates,
        "heartbeat": [(line, None) for line in rendering.heartbeat_lines(heartbeat, gap_days=gap_days)],
        "identity": [(line, None) for line in rendering.identity_lines(identity, intimacy_level=intimacy_level)],
        "soul": [(line, None) for line in rendering.soul_lines(context.soul or {})] if policy.soul_enabled else [],
    }
    carry = 0
    for name in LAYER_PRIORITY:  # what a layer leaves unused flows to the next by priority
        if name != "tools":
            carry = _fill(layers[name], sources[name], budgets[name] + carry)
    if carry and memory_candidates:  # and what is still left gives memory a second pass
        placed = set(layers["memory"].lines)
        remaining = [candidate for candidate in memory_candidates if candidate[0] not in placed]
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
