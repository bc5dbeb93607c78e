"""The per-turn context pack: make the scope fresh, retrieve, budget, and count usage off the path."""
from __future__ import annotations

from django.db import transaction
from django_q.tasks import async_task

from conversations.selectors import conversation_gap
from memories.embeddings import get_embedder

from .builder import build_context_pack
from .freshness import ensure_processed


def context_pack_for_turn(*, user, character, message: str, budget: int, situation: str | None) -> dict:
    """The block of this turn. `user=None` (an end user never seen): the block of an empty scope, nothing written."""
    if user is None:
        fresh, gap, query_vector = True, None, None
    else:
        fresh = ensure_processed(user=user, character=character)
        _, gap = conversation_gap(user=user, character=character)
        query_vector = get_embedder().embed([message])[0] if message.strip() else None
    pack = build_context_pack(user=user, character=character, message=message, budget=budget,
                              situation=situation, query_vector=query_vector, gap=gap)
    pack["fresh"] = fresh
    used = [item["id"] for item in pack["layers"]["memory"].get("items", [])]
    if used:
        transaction.on_commit(lambda: async_task("context_pack.tasks.mark_used_task", used, group="usage"))
    return pack
