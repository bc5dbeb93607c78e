"""Keyed content hashes for duplicate detection of encrypted memory text."""
import hashlib
import hmac
import re

from django.conf import settings

_SPACES = re.compile(r"\s+")


def normalise_content(content: str) -> str:
    return _SPACES.sub(" ", content).strip()


def content_hash(content: str) -> str:
    """HMAC-SHA256 of the normalised, case-folded text: equal texts collide, the text stays secret."""
    key = settings.MEMORY_HASH_KEY.encode("utf-8")
    return hmac.new(key, normalise_content(content).casefold().encode("utf-8"), hashlib.sha256).hexdigest()
