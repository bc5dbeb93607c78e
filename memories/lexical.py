"""Lexical search keys for encrypted memory text.

The text itself is encrypted, so pg_trgm cannot see it. Instead each memory stores the keyed
hashes of its content words (kiwipiepy morphemes for Korean, words for English); a query matches by
array overlap on a GIN index, and the database never holds a readable word.
"""
from __future__ import annotations

import hashlib
import hmac
import re

from django.conf import settings

from .extraction.morphology import analyse

_CONTENT_TAGS = frozenset({"NNG", "NNP", "NR", "SL", "SN", "SH", "XR", "VV", "VA"})
_STOPWORDS = frozenset({
    "the", "a", "an", "and", "or", "is", "are", "was", "were", "be", "to", "of", "in", "on", "at", "for", "it",
    "my", "me", "i", "you", "your", "do", "did", "what", "that", "this", "with", "have", "has", "about",
    "하", "되", "있", "없", "같", "보", "주", "말", "것", "나", "너", "뭐", "거", "수",
    # verb and adjective lemmas as kiwipiepy returns them ("했어" → "하다")
    "하다", "되다", "있다", "없다", "같다", "보다", "주다", "말다", "오다", "가다", "알다", "싶다", "좋다",
    "그렇다", "이렇다", "어떻다",
})
_KEY_CHARS = 16


def content_tokens(text: str) -> set[str]:
    """Normalised content words of a text (morpheme lemmas for Korean, lowercased words otherwise)."""
    tokens = set()
    for morph in analyse(text[:2000]):
        if morph.tag not in _CONTENT_TAGS:
            continue
        token = (morph.lemma if morph.tag in ("VV", "VA") else morph.form).casefold()
        if token and token not in _STOPWORDS and not re.fullmatch(r"\W+", token):
            tokens.add(token)
    return tokens


def token_key(token: str) -> str:
    key = settings.MEMORY_HASH_KEY.encode("utf-8")
    return hmac.new(key, b"lex:" + token.encode("utf-8"), hashlib.sha256).hexdigest()[:_KEY_CHARS]


def lexical_keys(text: str) -> list[str]:
    return sorted({token_key(token) for token in content_tokens(text)})
