"""The embedding backfill job: embed memories stored without an embedding.

Writes never fail because the embedding service is down or slow (memories.embeddings.embed_or_none):
the item is stored with `embedding` NULL, found by its words meanwhile, and this job — scheduled every
minute by `setup_schedules` ("backfill memory embeddings") — embeds it once the service answers.
"""
from __future__ import annotations

import logging

from django.db import transaction

from .deadline import DeadlineExceeded
from .embeddings import Embedder, get_embedder
from .extraction.gemini import GeminiUnavailable
from .models import MemoryItem

logger = logging.getLogger(__name__)

BATCH = 64
LIMIT = 1000  # rows per run; the next run goes on


def _vectors(embedder: Embedder, texts: list[str]) -> list[list[float] | None] | None:
    """One vector per text, None for a text the service refuses; None in all when the service is down.

    A refused batch is sent again text by text, so one text the service never takes cannot block
    every row after it.
    """
    try:
        return embedder.embed(texts)
    except DeadlineExceeded:
        return None
    except GeminiUnavailable as exc:
        if not exc.refused:
            return None
        if len(texts) == 1:
            return [None]
    vectors: list[list[float] | None] = []
    for text in texts:
        single = _vectors(embedder, [text])
        if single is None:
            return None
        vectors.append(single[0])
    return vectors


def memory_backfill_embeddings(*, limit: int = LIMIT) -> dict:
    """Embed up to `limit` memories that have no embedding; return {"filled", "missing", "failed"}.

    Idempotent and safe on several workers: a row is only updated while it still has no embedding and
    still has the content it was read with. When the embedder is down the run ends ("failed": True) and
    the next run goes on. No audit row: like `reembed`, only `embedding` and `embedding_model` change.
    """
    embedder = get_embedder()
    missing = MemoryItem.objects.filter(embedding__isnull=True)
    ids = list(missing.order_by("id").values_list("id", flat=True)[:limit])
    filled = 0
    for start in range(0, len(ids), BATCH):
        items = list(missing.filter(pk__in=ids[start:start + BATCH]).only("id", "content", "content_hash"))
        if not items:
            continue
        vectors = _vectors(embedder, [item.content for item in items])
        if vectors is None:
            logger.warning("embedding backfill stopped: %s is unavailable", embedder.model_name)
            return {"filled": filled, "missing": missing.count(), "failed": True}
        with transaction.atomic():
            for item, vector in zip(items, vectors):
                if vector is None:
                    logger.warning("embedding backfill skipped memory %s: refused by %s", item.pk, embedder.model_name)
                    continue
                filled += missing.filter(pk=item.pk, content_hash=item.content_hash).update(
                    embedding=vector, embedding_model=embedder.model_name)
    return {"filled": filled, "missing": missing.count(), "failed": False}
