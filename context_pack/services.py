"""The per-turn context pack: make the scope fresh, retrieve, budget, and count usage off the path."""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django_q.tasks import async_task

from conversations.selectors import conversation_gap
from core.timing import phase
from memories.deadline import remote_deadline
from memories.embeddings import embed_or_none, get_embedder

from .builder import build_context_pack
from .freshness import Freshness, ensure_processed


def context_pack_for_turn(*, user, character, message: str, budget: int, situation: str | None) -> dict:
    """The block of this turn. `user=None` (an end user never seen): the block of an empty scope, nothing written."""
    if user is None:
        freshness, gap, query_vector = Freshness(fresh=True), None, None
    else:
        # With Gemini, the inline work below shares one deadline for remote models: past it, the pending
        # messages stay for the cluster (fresh: false) and the message is not embedded (lexical ranking).
        embedder = get_embedder()
        with remote_deadline(settings.PROMPT_REMOTE_DEADLINE_MS if settings.GEMINI_API_KEY else None):
            with phase("fresh"):
                freshness = ensure_processed(user=user, character=character)
            with phase("embedding"):
                query_vector = embed_or_none([message], embedder=embedder)[0] if message.strip() else None
        with phase("scope"):
            _, gap = conversation_gap(user=user, character=character)
    with phase("render"):  # the block; retrieval inside it reports its own "sql" and "decrypt"
        pack = build_context_pack(user=user, character=character, message=message, budget=budget,
                                  situation=situation, query_vector=query_vector, gap=gap,
                                  pending_texts=freshness.pending_texts)
    pack["fresh"] = freshness.fresh
    used = [item["id"] for item in pack["layers"]["memory"].get("items", [])]
    if used:
        transaction.on_commit(lambda: async_task("context_pack.tasks.mark_used_task", used, group="usage"))
    return pack
