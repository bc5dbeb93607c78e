"""Load the offline models once per process, before the process takes any work.

kiwipiepy (~1 s, far more on a busy machine), the local extractor's rules and, without Gemini, the
sentence encoder (~1 s) would otherwise be loaded by the first message or prompt that needs them —
inside the scope's lock, in a cluster worker. Nothing here calls a remote model.

- gunicorn: config/wsgi.py calls `warm_up_models()` at import (with --preload, once in the master).
- django-q2 workers: `health.workers` runs it when a worker process starts, before its first task.
- `conversations.processing.process_scope` calls `ensure_models_loaded()` before it takes the lock.
"""
from __future__ import annotations

import logging
from datetime import datetime, timezone

from django.conf import settings

logger = logging.getLogger(__name__)


def models_loaded() -> bool:
    """Whether this process has every offline model the pipeline uses loaded."""
    from .embeddings import local_model_loaded
    from .extraction.morphology import is_loaded

    return is_loaded() and (bool(settings.GEMINI_API_KEY) or local_model_loaded())


def warm_up_models() -> None:
    """Load kiwipiepy, run the local extractor once and (without Gemini) load the sentence encoder."""
    from .embeddings import LocalEmbedder
    from .extraction.base import ChatTurn
    from .extraction.local import LocalExtractor  # the local extractor is also Gemini's fallback
    from .extraction.morphology import warm_up

    warm_up()
    LocalExtractor().extract(turns=[ChatTurn("warm-up", "user", "나는 부산에 살아. I live in Busan.",
                                             datetime.now(timezone.utc))], existing=[])
    if not settings.GEMINI_API_KEY:
        LocalEmbedder().embed(["warm up"])
    logger.info("offline models loaded")


def ensure_models_loaded() -> None:
    """Load the models now unless this process already has them (cheap when it has)."""
    if not models_loaded():
        warm_up_models()
