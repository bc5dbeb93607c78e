"""Hybrid retrieval of one scope's memories for a message (seed 003 §3 and §11, tuned).

score = 0.40·vector similarity + 0.30·lexical overlap + 0.12·importance + 0.05·strength
        + 0.08·recency + 0.15 for a structured (subject) fact
Seed 003 used sim·0.7 + importance·0.2 + strength·0.1; lexical overlap (keyed hashes of content
words) is what finds "178" for "키 몇이라 그랬지?" when the embedding alone would not, and structured
facts get a lift over raw episodes because they are the distilled form of what the user said.
What the character itself said (source = character) gets CHARACTER_PRIOR by how clearly the message asks
about it (extraction.character_side.asks_character): a boost when asked, a small handicap otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connections, router
from pgvector import Vector

from core.timing import phase
from memories.categories import STATE_CATEGORIES, MemorySource
from memories.extraction.character_side import asks_character, users_own_subject
from memories.extraction.lexicon import kin_synonyms
from memories.lexical import content_tokens, lexical_keys, token_key
from memories.models import MemoryItem, MemorySettings
from memories.selectors import memory_visible_where
from memories.subjects import IDENTITY_SUBJECTS, told_words
from memories.truth import outdated_values, refined_places

WEIGHTS = {"vector": 0.40, "lexical": 0.30, "importance": 0.12, "strength": 0.05, "recency": 0.08, "structured": 0.15}
RANKED_LIMIT = 60
IDENTITY_LIMIT = 80
STATE_LIMIT = 40
# Added to the score of the character's own words, by asks_character(message): 0 not asked, 1 the character
# addressed ("your sister", "소라님도 …"), 2 asked what it said ("너 뭐 해준다고 했지?", "you said you'd …").
CHARACTER_PRIOR = {0: -0.05, 1: 0.15, 2: 0.40}
CHARACTER_LIMIT = 20  # room for the role-play's lines, which the block mostly leaves out (builder._story_lines)
# Below this confidence a memory is kept (the user sees it) but never injected (seed 004 min_confidence): a
# supposition or joke (extraction UNREAL_CONFIDENCE), or an inferred memory decayed unused for about a year.
MIN_INJECTED_CONFIDENCE = 0.5


@dataclass
class ScoredMemory:
    item: MemoryItem
    score: float


@dataclass
class RetrievedMemories:
    identity: list[ScoredMemory]
    state: list[ScoredMemory]
    ranked: list[ScoredMemory]
    outdated_values: set[str]  # superseded values of corrected facts, no longer true
    asks_character: int = 0  # extraction.character_side.asks_character of the message
    character: list[ScoredMemory] = field(default_factory=list)  # the character's own words (source = character)


# One statement returns everything retrieval needs. A single scan of the scope's visible rows (the
# condition of memories.selectors.memory_visible_where, embedded as is: the prompt applies exactly the
# exclusions every other reader applies) computes every score once, and the section each row belongs to:
#   0 identity: a subject in IDENTITY_SUBJECTS                 (by importance, then score; IDENTITY_LIMIT)
#   1 state:    another subject, in a STATE_CATEGORIES category (by score; STATE_LIMIT)
#   2 ranked:   everything else                                 (by score; RANKED_LIMIT)
#   3 character: the character's own words (source = character)  (by score; CHARACTER_LIMIT) — apart, so they
#                never take the user's places in the sections above
# and the scope's structured facts follow, for the outdated values (3 = replaced, 4 = current value).
# The score is the formula above in float8 SQL (numeric literals would convert on every row). Before,
# three ORM queries each scored the whole scope: 3x the vector distances, lexical intersections and
# heap visits, which at 10,000 items was most of the request.
_IDENTITY = sorted(IDENTITY_SUBJECTS)
_STATE = sorted(STATE_CATEGORIES)
IDENTITY_PART, STATE_PART, RANKED_PART, CHARACTER_PART, REPLACED_VALUE, CURRENT_VALUE = range(6)
# What the block, its payload and the memory load endpoint read; other fields load on access (deferred).
ITEM_FIELDS = ("id", "content", "category", "kind", "subject_key", "subject_value", "importance", "event_date",
               "source", "source_message_id", "created_at", "emotion")
_FIELDS = [field for field in MemoryItem._meta.concrete_fields if field.name in ITEM_FIELDS]  # in model order
_ATTNAMES = [field.attname for field in _FIELDS]
_DECODE = [(index, field) for index, field in enumerate(_FIELDS) if hasattr(field, "from_db_value")]
_VALUE_INDEX = [field.name for field in _FIELDS].index("subject_value")
_ITEM_COLUMNS = ", ".join(f"m.{field.column}" for field in _FIELDS)
_KEY_INDEX = [field.name for field in _FIELDS].index("subject_key")
_FACT_COLUMNS = ", ".join(f"f.{field.name}" if field.name in ("subject_value", "subject_key") else "NULL"
                          for field in _FIELDS)
_ANY_KEYS_MAX = 16  # up to this many query keys, n cheap `= ANY` tests beat a per-row INTERSECT

_RETRIEVAL_SQL = """
WITH live AS MATERIALIZED (
    SELECT id, importance, (
        CASE WHEN subject_key = '' THEN 0.0::float8 ELSE {structured}::float8 END
        + {w_vector}::float8 * {vector}
        + {w_lexical}::float8 * ({lexical}::float8 / {lexical_norm}::float8)
        + {w_importance}::float8 * importance::float8 / 10.0::float8
        + {w_strength}::float8 * strength
        + {w_recency}::float8 * (1.0::float8 / (1.0::float8 + GREATEST(date_part('epoch', now() - created_at)
                                                                     / 86400.0::float8, 0.0::float8) / 30.0::float8))
        + CASE WHEN source = %s THEN %s::float8 ELSE 0.0::float8 END
    ) AS score,
    CASE WHEN source = %s THEN {character} WHEN subject_key = '' THEN {ranked} WHEN subject_key = ANY(%s) THEN {identity}
         WHEN category = ANY(%s) THEN {state} ELSE {ranked} END AS part
    FROM memories_memoryitem
    WHERE {visible} AND confidence >= {min_confidence}::float8
), chosen AS (
    (SELECT id, score, part FROM live WHERE part = {identity}
     ORDER BY importance DESC, score DESC LIMIT {identity_limit})
    UNION ALL
    (SELECT id, score, part FROM live WHERE part = {state} ORDER BY score DESC LIMIT {state_limit})
    UNION ALL
    (SELECT id, score, part FROM live WHERE part = {ranked} ORDER BY score DESC LIMIT {ranked_limit})
    UNION ALL
    (SELECT id, score, part FROM live WHERE part = {character} ORDER BY score DESC LIMIT {character_limit})
)
SELECT {item_columns}, {similarity}, chosen.score, chosen.part FROM chosen JOIN memories_memoryitem m ON m.id = chosen.id
UNION ALL
SELECT {fact_columns}, NULL, NULL, CASE WHEN f.is_active THEN {current} ELSE {replaced} END FROM memories_memoryitem f
WHERE f.user_id = %s AND f.character_id = %s AND f.subject_key <> '' AND (f.is_active OR f.superseded_by_id IS NOT NULL)
"""


def _lexical_sql(query_keys: list[str]) -> tuple[str, list]:
    """SQL counting the distinct query keys among a row's lexical_keys (0 when there are none)."""
    if not query_keys:
        return "0", []
    if len(query_keys) <= _ANY_KEYS_MAX:  # same count; `&&` skips the rows without any shared key
        tests = " + ".join(["(%s::varchar = ANY(lexical_keys))::int"] * len(query_keys))
        return f"(CASE WHEN lexical_keys && %s::varchar[] THEN {tests} ELSE 0 END)", [query_keys, *query_keys]
    return ("cardinality(ARRAY(SELECT unnest(lexical_keys) INTERSECT SELECT unnest(%s::varchar[])))",
            [query_keys])


def _retrieval_query(*, visible: tuple[str, list], user_id, character_id, query_vector,
                     query_keys: list[str], character_prior: float = 0.0, norm_keys: int | None = None
                     ) -> tuple[str, list]:
    """The statement over the rows `visible` (memory_visible_where) selects: scored and split into sections."""
    lexical, lexical_params = _lexical_sql(query_keys)
    if query_vector is not None:
        vector = "GREATEST((1.0::float8 - (embedding <=> %s::vector))::float8, 0.0::float8)"
        vector_params = [Vector(query_vector).to_text()]
    else:
        vector, vector_params = "0.0::float8", []
    # the chosen rows' vector similarity alone (memories.truth.answered_since): at most a few hundred rows
    similarity = vector.replace("embedding", "m.embedding") if vector_params else "NULL::float8"
    visible_sql, visible_params = visible
    sql = _RETRIEVAL_SQL.format(
        structured=WEIGHTS["structured"], w_vector=WEIGHTS["vector"], vector=vector, w_lexical=WEIGHTS["lexical"],
        lexical=lexical, lexical_norm=float(max(1, min(len(query_keys) if norm_keys is None else norm_keys, 4))),
        w_importance=WEIGHTS["importance"],
        w_strength=WEIGHTS["strength"], w_recency=WEIGHTS["recency"], visible=visible_sql,
        identity_limit=IDENTITY_LIMIT, state_limit=STATE_LIMIT, ranked_limit=RANKED_LIMIT,
        identity=IDENTITY_PART, state=STATE_PART, ranked=RANKED_PART, replaced=REPLACED_VALUE, current=CURRENT_VALUE,
        character=CHARACTER_PART, character_limit=CHARACTER_LIMIT, min_confidence=MIN_INJECTED_CONFIDENCE,
        item_columns=_ITEM_COLUMNS, fact_columns=_FACT_COLUMNS, similarity=similarity,
    )
    character = str(MemorySource.CHARACTER)
    return sql, [*vector_params, *lexical_params, character, float(character_prior), character, _IDENTITY,
                 _STATE, *visible_params, *vector_params, user_id, character_id]


def retrieve(*, user, character, message: str, query_vector, memory_settings: MemorySettings,
             own_subject: str | None = None) -> RetrievedMemories:
    """Score the scope's visible memories for `message` (memory off: nothing, and no query); `own_subject`: the
    user's own subject the message asks about (extraction.character_side.users_own_subject), when the caller has it."""
    visible = memory_visible_where(user=user, character=character, memory_settings=memory_settings)
    if visible is None:
        return RetrievedMemories(identity=[], state=[], ranked=[], outdated_values=set())
    tokens = content_tokens(message) if message else set()
    keys = sorted({token_key(token) for token in tokens})
    # Searched too, without weighing the question's own words less: the words that tell the subject asked ("what town
    # did i grow up in?" → "grew up", "raised"), and the other words for the people it names ("Where's my lad
    # living?" → "son")
    if own_subject is None:
        own_subject = users_own_subject(message, getattr(character, "display_name", ""))
    told = [*told_words(own_subject), *kin_synonyms(tokens)]
    told_keys = [key for key in dict.fromkeys(key for word in told for key in lexical_keys(word)) if key not in keys]
    # only as many as keep the cheap `= ANY` form of the lexical score (more would cost every row an INTERSECT)
    told_keys = told_keys[:max(0, _ANY_KEYS_MAX - len(keys))]
    asked = asks_character(message, getattr(character, "display_name", ""))
    sql, params = _retrieval_query(visible=visible, user_id=getattr(user, "pk", user),
                                   character_id=getattr(character, "pk", character), query_vector=query_vector,
                                   query_keys=keys + told_keys, character_prior=CHARACTER_PRIOR[asked],
                                   norm_keys=len(keys))
    connection = connections[router.db_for_read(MemoryItem)]
    with phase("sql"), connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    with phase("decrypt"):
        return _retrieved(rows, connection, asked)


def _retrieved(rows, connection, asked: int) -> RetrievedMemories:
    """The scored rows as memories (their encrypted fields opened), by section."""
    parts: tuple[list[MemoryItem], ...] = ([], [], [], [])
    values: tuple[set[tuple[str, str]], set[tuple[str, str]]] = (set(), set())  # (subject, value): replaced, current
    value_field = _FIELDS[_VALUE_INDEX]
    for row in rows:
        part = row[-1]
        if part >= REPLACED_VALUE:
            values[part - REPLACED_VALUE].add(
                (row[_KEY_INDEX], value_field.from_db_value(row[_VALUE_INDEX], None, connection).strip()))
            continue
        fields = list(row[:-3])
        for index, field in _DECODE:
            fields[index] = field.from_db_value(fields[index], None, connection)
        item = MemoryItem.from_db(connection.alias, _ATTNAMES, fields)
        item.score = row[-2]
        item.similarity = row[-3]
        parts[part].append(item)
    identity, state, ranked, character_said = parts
    identity.sort(key=lambda item: (-item.importance, -item.score))
    state.sort(key=lambda item: -item.score)
    ranked.sort(key=lambda item: -item.score)
    character_said.sort(key=lambda item: -item.score)
    return RetrievedMemories(
        outdated_values=outdated_values({value for _, value in values[0]}, {value for _, value in values[1]},
                                        refined=refined_places(*values)),
        asks_character=asked,
        identity=[ScoredMemory(item, item.score) for item in identity],
        state=[ScoredMemory(item, item.score) for item in state],
        ranked=[ScoredMemory(item, item.score) for item in ranked],
        character=[ScoredMemory(item, item.score) for item in character_said],
    )
