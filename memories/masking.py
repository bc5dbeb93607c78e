"""The masking service: the one door through which user text reaches the database.

Every write service masks what it stores with these functions first (so content hashes, lexical keys,
`pii_kinds` and the response are computed from the masked text), and every encrypted column that holds
user text is declared with `masker=mask_text` or `masker=mask_document`, so the field masks whatever is
written through it — `save()`, `create()`, `bulk_create()` and `QuerySet.update()` alike. A write path
added later cannot store raw personal data even if it forgets to call the service.

The patterns themselves are in memories.pii.
"""
from __future__ import annotations

import threading

from .pii import MaskResult, mask_pii

# Texts this process produced by masking. The masker is idempotent, so each is its own masked form: the
# field's second look at what a service has just masked costs a dict lookup instead of a second scan.
_MASKED_MAX_ENTRIES = 512
_MASKED_MAX_CHARS = 20_000
_masked: dict[str, None] = {}
_masked_lock = threading.Lock()


def _remember(text: str) -> None:
    if len(text) > _MASKED_MAX_CHARS:
        return
    with _masked_lock:
        _masked[text] = None
        while len(_masked) > _MASKED_MAX_ENTRIES:
            del _masked[next(iter(_masked))]


def mask_with_kinds(text: str) -> MaskResult:
    """Return the masked text and the kinds of personal data found in it."""
    if not text or text in _masked:
        return MaskResult(text=text, kinds=())
    result = mask_pii(text)
    _remember(result.text)
    return result


def mask_text(text):
    """Return `text` with personal data masked; anything that is not a non-empty string is returned as is."""
    if not isinstance(text, str) or not text:
        return text
    return mask_with_kinds(text).text


def mask_document(value):
    """Return a JSON value with every string in it masked: values and keys, at any depth."""
    if isinstance(value, str):
        return mask_text(value)
    if isinstance(value, dict):
        return {mask_text(key): mask_document(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask_document(item) for item in value]
    return value
