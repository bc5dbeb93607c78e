"""The legacy store (seed 000 §9): memory kept as one JSON document in `User.bio`,
`{"memory": "<free text>", "updatedAt": "<ISO time>"}`, per user (and here per character).

Import reads one line of a JSONL export — `{"userId": "...", "characterId": "..." (optional), "bio": "<the JSON
string>"}` — and stores each sentence of the memory text as a memory of the scope through memory_create (the one
create path: PII masking, the plan's cap, the embedding, the audit row). An equal live memory is left as it is, so
importing a line twice changes nothing. A line is validated whole before anything is written and is written in one
transaction: a bad line is skipped whole, never half-imported.

Rendering goes the other way (rollback, and the dual-write mirror): the scope's live memories, oldest first,
joined into the same document shape.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from accounts.services import end_user_get_or_create, validate_external_user_id
from audit.services import AuditContext
from characters.models import Character
from core.errors import ApplicationError
from core.timestamps import format_instant

from .categories import MemoryCategory, MemorySource
from .selectors import memory_live
from .services import MemoryInput, memory_create

_SENTENCE_END = re.compile(r"(?<=[.!?。…])\s+|\s*\n+\s*")
MAX_BIO_CHARS = 100_000


class LegacyLineError(ValueError):
    """A line that cannot be imported; the message says why (never quoting its content)."""


@dataclass(frozen=True)
class LegacyLine:
    user_id: str
    character: Character
    sentences: list[str]


def legacy_sentences(text: str) -> list[str]:
    """The memory text cut into sentences (the unit a memory holds), in order, without empties or repeats."""
    seen: dict[str, None] = {}
    for sentence in _SENTENCE_END.split(text or ""):
        sentence = sentence.strip()
        if sentence:
            seen.setdefault(sentence, None)
    return list(seen)


def legacy_line_parse(raw: str) -> LegacyLine:
    """Validate one JSONL line whole (LegacyLineError says what is wrong)."""
    try:
        record = json.loads(raw)
    except json.JSONDecodeError:
        raise LegacyLineError("not a JSON object") from None
    if not isinstance(record, dict) or set(record) - {"userId", "characterId", "bio"}:
        raise LegacyLineError("expected {userId, characterId?, bio} and nothing else")
    user_id, bio = record.get("userId"), record.get("bio")
    try:
        validate_external_user_id(user_id)
    except ApplicationError:
        raise LegacyLineError("userId is missing or not a valid external id") from None
    slug = record.get("characterId") or settings.LEGACY_BIO_DEFAULT_CHARACTER
    character = Character.objects.filter(slug=slug, is_active=True).first() if isinstance(slug, str) else None
    if character is None:
        raise LegacyLineError("characterId names no character (and no default is set)")
    if not isinstance(bio, str) or len(bio) > MAX_BIO_CHARS:
        raise LegacyLineError("bio must be the legacy JSON document as a string")
    try:
        document = json.loads(bio) if bio.strip() else {}
    except json.JSONDecodeError:
        raise LegacyLineError("bio is not valid JSON") from None
    if not isinstance(document, dict) or not isinstance(document.get("memory", ""), str):
        raise LegacyLineError('bio must be {"memory": "<text>", "updatedAt": "..."}')
    return LegacyLine(user_id=user_id, character=character, sentences=legacy_sentences(document.get("memory", "")))


def legacy_line_import(line: LegacyLine, *, context: AuditContext, dry_run: bool = False) -> dict:
    """Store a parsed line's sentences as memories of its scope; return {"created": n, "existing": m}. One
    transaction: a refusal (memory off for the user, a plan that refuses more) leaves nothing of the line."""
    if dry_run:
        return {"created": 0, "existing": 0, "would_import": len(line.sentences)}
    counts = {"created": 0, "existing": 0}
    with transaction.atomic():
        user = end_user_get_or_create(external_id=line.user_id)
        for sentence in line.sentences:
            _, created = memory_create(user=user, character=line.character, context=context, data=MemoryInput(
                content=sentence, category=MemoryCategory.OTHER, source=MemorySource.SYSTEM))
            counts["created" if created else "existing"] += 1
    return counts


def legacy_bio_render(*, user, character) -> str:
    """The scope's live memories as the legacy bio document (a JSON string), oldest first."""
    items = list(memory_live(user=user, character=character).order_by("created_at", "id"))
    updated = max((item.updated_at for item in items), default=None)
    return json.dumps({"memory": " ".join(item.content for item in items),
                       "updatedAt": format_instant(updated) if updated else None}, ensure_ascii=False)


def legacy_bio_memory(bio: str) -> str:
    """The memory text of a legacy bio document (for comparing documents)."""
    document = json.loads(bio) if bio else {}
    return document.get("memory", "") if isinstance(document, dict) else ""
