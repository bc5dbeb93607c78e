"""Pick the extractor and summarizer: Gemini when GEMINI_API_KEY is set, else the offline ones.

Without a key nothing leaves the machine: extraction and summaries run locally (kiwipiepy rules).
With a key, Gemini is used and the local implementations remain its fallback.
"""
from __future__ import annotations

from django.conf import settings

from .base import Extractor, Summarizer


def get_extractor() -> Extractor:
    if settings.GEMINI_API_KEY:
        from .gemini import GeminiExtractor

        return GeminiExtractor()
    from .local import LocalExtractor  # loads kiwipiepy's model (~1 s) on first use

    return LocalExtractor()


def get_summarizer() -> Summarizer:
    if settings.GEMINI_API_KEY:
        from .gemini import GeminiSummarizer

        return GeminiSummarizer()
    from .local import LocalSummarizer

    return LocalSummarizer()


def get_pii_second_pass():
    """With Gemini on, a callable text -> substrings to mask that the regex pass missed; else None."""
    if not settings.GEMINI_API_KEY:
        return None
    from .gemini import build_client, gemini_pii_check

    client = build_client(settings.GEMINI_API_KEY)
    return lambda text: gemini_pii_check(client, text)
