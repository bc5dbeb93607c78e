"""Fill the database with memory items for the latency benchmarks (default 1,000,000 rows).

Usage (via `make bench`, which provides the embedded PostgreSQL; BENCH_ITEMS sets --items):
    python bench/make_memory_data.py [--items 1000000] [--filler-users 5000] [--batch 20000] [--seed 7]

Two measured scopes under character "chunsim" get realistic rows: `bench-scope-1k` (1,000 items) and
`bench-scope-10k` (10,000 items) — distinct Korean/English facts (subject keys of memories.subjects,
older values of single-valued subjects inactive and linked to their successor) and episodes, real
lexical keys and real embeddings (memories.embeddings), an ULTIMATE plan, identity/soul/tools layers
and a processed conversation history. The rest are filler rows spread over `bench-filler-NNNNN`
users and the four demo characters: template text, lexical keys from its words, random unit vectors.
All text is encrypted like any other row. On a fresh build the measured rows are interleaved with the
filler (a user's memories accumulate among everyone else's), so they are not clustered on disk.

Rows go in with binary COPY on the raw psycopg connection, in batches (one transaction each).
Idempotent: when the table already holds >= --items rows and both measured scopes are complete, it
only prints the counts. A scope found incomplete is deleted and rebuilt; missing filler is appended.
Ends with VACUUM ANALYZE and prints the elapsed time and the table size.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from datetime import date, datetime, timedelta, timezone as dt_timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.hashers import make_password  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from pgvector.psycopg import register_vector  # noqa: E402
from tqdm import tqdm  # noqa: E402

from accounts.models import Plan, UserPlan  # noqa: E402
from accounts.services import end_user_get_or_create, user_plan_set  # noqa: E402
from audit.services import AuditContext  # noqa: E402
from characters.models import Character  # noqa: E402
from context_layers.demo import CHARACTERS, load_characters  # noqa: E402
from context_layers.services import layer_put  # noqa: E402
from conversations.models import Conversation, Message, MessageRole  # noqa: E402
from memories.embeddings import get_embedder  # noqa: E402
from memories.hashing import content_hash, normalise_content  # noqa: E402
from memories.lexical import lexical_keys, token_key  # noqa: E402
from memories.models import EMBEDDING_DIMENSIONS, MemoryItem  # noqa: E402
from memory_text import Memory, episode, filler_memory, scope_memories  # noqa: E402
from server import maintenance_cursor  # noqa: E402

MEASURED_CHARACTER = "chunsim"
SCOPES = {"bench-scope-1k": 1_000, "bench-scope-10k": 10_000}
FILLER_PREFIX = "bench-filler-"
CONTEXT = AuditContext(actor_label="system:bench", trigger="command")
HISTORY_DAYS = 730
EMBED_BATCH = 256

COLUMNS = [
    ("content", "text"), ("content_hash", "varchar"), ("category", "varchar"), ("kind", "varchar"),
    ("subject_key", "varchar"), ("subject_value", "text"), ("importance", "int2"), ("confidence", "float8"),
    ("strength", "float8"), ("emotion", "varchar"), ("emotion_intensity", "float8"), ("source", "varchar"),
    ("source_conversation_id", "varchar"), ("source_message_id", "varchar"), ("mentioned_count", "int4"),
    ("usage_count", "int4"), ("last_used_at", "timestamptz"), ("expires_at", "timestamptz"),
    ("archived_at", "timestamptz"), ("is_active", "bool"), ("embedding", "vector"), ("embedding_model", "varchar"),
    ("created_at", "timestamptz"), ("updated_at", "timestamptz"), ("character_id", "varchar"), ("user_id", "int4"),
    ("confidence_decayed_at", "timestamptz"), ("event_date", "date"), ("lexical_keys", "varchar[]"),
    ("strength_decayed_at", "timestamptz"), ("superseded_by_id", "int8"), ("topics", "text"),
]
COPY_SQL = (f"COPY memories_memoryitem ({', '.join(name for name, _ in COLUMNS)}) FROM STDIN (FORMAT BINARY)")

_content_field = MemoryItem._meta.get_field("content")
_value_field = MemoryItem._meta.get_field("subject_value")
_NO_TOPICS = None  # the sealed empty topic list (memories 0008), made once: rows are written before any topic
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_key_cache: dict[str, str] = {}


ENCRYPTION = {"seconds": 0.0, "values": 0}


def encrypt_content(text: str) -> str:
    t0 = time.perf_counter()
    sealed = _content_field.get_prep_value(text)
    ENCRYPTION["seconds"] += time.perf_counter() - t0
    ENCRYPTION["values"] += 1
    return sealed


def encrypt_value(text: str) -> str:
    t0 = time.perf_counter()
    sealed = _value_field.get_prep_value(text)
    ENCRYPTION["seconds"] += time.perf_counter() - t0
    ENCRYPTION["values"] += 1
    return sealed


def word_keys(text: str) -> list[str]:
    """Cheap lexical keys for filler rows: token_key of each lowercased word (no morphology)."""
    keys = set()
    for word in _WORD.findall(text.casefold()):
        key = _key_cache.get(word)
        if key is None:
            key = _key_cache[word] = token_key(word)
        keys.add(key)
    return sorted(keys)


def random_unit_vectors(rng: np.random.Generator, count: int) -> np.ndarray:
    vectors = rng.standard_normal((count, EMBEDDING_DIMENSIONS), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


class Row:
    """One memory row before encryption; `vector` and `keys` are filled by the producer."""

    __slots__ = ("memory", "user_id", "character", "active", "archived", "vector", "keys", "model")

    def __init__(self, memory: Memory, user_id: int, character: str, *, active: bool = True, archived: bool = False,
                 vector=None, keys=None, model: str = ""):
        self.memory, self.user_id, self.character = memory, user_id, character
        self.active, self.archived, self.vector, self.keys, self.model = active, archived, vector, keys, model


def encode_row(row: Row, created_at: datetime, rng: random.Random) -> list:
    m = row.memory
    content = normalise_content(m.content)
    usage = rng.choice([0, 0, 0, 1, 2, 3, 5, 8, 13])
    last_used = created_at + timedelta(days=rng.uniform(0, 30)) if usage else None
    explicit = rng.random() < 0.15
    return [
        encrypt_content(content), content_hash(content), m.category, m.kind, m.subject_key,
        encrypt_value(m.subject_value),
        min(10, m.importance + (2 if explicit else 0)), 1.0 if explicit else round(rng.uniform(0.8, 0.95), 2),
        round(rng.uniform(0.4, 1.0), 2), m.emotion, m.emotion_intensity,
        "explicit" if explicit else "inferred", f"conv-{rng.randrange(1 << 30):08x}",
        f"msg-{rng.randrange(1 << 40):010x}", rng.choice([1, 1, 1, 2, 3]), usage, last_used,
        None, created_at + timedelta(days=rng.uniform(1, 60)) if row.archived else None, row.active,
        row.vector, row.model, created_at, last_used or created_at, row.character, row.user_id,
        None, m.event_date, row.keys, None, None, no_topics(),
    ]


def no_topics() -> str:
    global _NO_TOPICS
    if _NO_TOPICS is None:
        _NO_TOPICS = MemoryItem._meta.get_field("topics").get_prep_value([])
    return _NO_TOPICS


# ---------------------------------------------------------------------------- state

def table_counts() -> tuple[int, dict[str, int]]:
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM memories_memoryitem")
        total = cur.fetchone()[0]
        cur.execute(
            "SELECT u.username, count(m.id) FROM auth_user u LEFT JOIN memories_memoryitem m "
            "ON m.user_id = u.id AND m.character_id = %s WHERE u.username = ANY(%s) GROUP BY u.username",
            [MEASURED_CHARACTER, list(SCOPES)])
        scopes = dict(cur.fetchall())
    return total, scopes


def print_counts(total: int, scopes: dict[str, int]) -> None:
    print(f"memories_memoryitem: {total:,} rows")
    for name, expected in SCOPES.items():
        with connection.cursor() as cur:
            cur.execute("SELECT count(*) FILTER (WHERE m.is_active AND m.archived_at IS NULL), count(*) "
                        "FROM memories_memoryitem m JOIN auth_user u ON u.id = m.user_id "
                        "WHERE u.username = %s AND m.character_id = %s", [name, MEASURED_CHARACTER])
            live, rows = cur.fetchone()
        print(f"  scope {name}/{MEASURED_CHARACTER}: {rows:,} items ({live:,} live), expected {expected:,}")


def inline_embeddings_check() -> None:
    """Rows written before migration 0003 keep their embedding in TOAST; VACUUM FULL rewrites them in the row."""
    with maintenance_cursor() as cur:
        cur.execute("SELECT pg_relation_size(reltoastrelid), pg_relation_size(oid) FROM pg_class "
                    "WHERE oid = 'memories_memoryitem'::regclass")
        toast, heap = cur.fetchone()
        if toast > heap:
            print(f"embeddings are out of line (TOAST {toast / 2**20:,.0f} MB > heap {heap / 2**20:,.0f} MB): "
                  "VACUUM FULL to store them in the row (migration 0003) ...", flush=True)
            start = time.perf_counter()
            cur.execute("VACUUM (FULL, ANALYZE) memories_memoryitem")
            print(f"  done in {time.perf_counter() - start:.1f} s")


def print_size() -> None:
    with connection.cursor() as cur:
        cur.execute("SELECT pg_size_pretty(pg_total_relation_size('memories_memoryitem')), "
                    "pg_size_pretty(pg_relation_size('memories_memoryitem')), "
                    "pg_size_pretty(pg_indexes_size('memories_memoryitem'))")
        total, heap, indexes = cur.fetchone()
    print(f"table size: {total} total (heap {heap}, indexes {indexes}, the rest TOAST)")


# ---------------------------------------------------------------------------- measured scopes

def build_scope_user(name: str, count: int, rng: random.Random, today: date):
    """Create (or reset) the user, its plan, layers and history; return (user, [Row]) with embeddings."""
    user = end_user_get_or_create(external_id=name)
    character = Character.objects.get(slug=MEASURED_CHARACTER)
    with connection.cursor() as cur:  # a partial earlier run: start the scope over
        cur.execute("DELETE FROM memories_memoryitem WHERE user_id = %s AND character_id = %s",
                    [user.pk, MEASURED_CHARACTER])
    Conversation.objects.filter(user=user, character=character).delete()
    user_plan_set(user=user, plan=Plan.ULTIMATE, context=CONTEXT)
    layer_put(user=user, character=character, layer="identity", context=CONTEXT,
              document={"nickname": rng.choice(["민수", "지우", "하은"]), "honorific": "반말", "relationshipType": "친구"})
    layer_put(user=user, character=character, layer="soul", context=CONTEXT,
              document={"values": ["가족", "성장", "우정"], "dreams": ["해외여행", "내 가게 열기"],
                        "fears": ["혼자 남겨지는 것"], "recurringWorries": ["취업 걱정", "건강"],
                        "lifePhase": "사회 초년생"})
    special = (today + timedelta(days=12)).strftime("%m-%d")
    layer_put(user=user, character=character, layer="tools", context=CONTEXT,
              document={"avoidTopics": ["정치", "전 연인"], "specialDates": [{"date": special, "description": "생일"}],
                        "customRules": [{"condition": "유저가 피곤하다고 하면", "action": "짧게 위로하고 쉬라고 말하기"}]})
    _conversation_history(user, character, conversations=max(20, count // 30), rng=rng)

    pairs = scope_memories(rng, count, today)
    embedder = get_embedder()
    texts = [normalise_content(memory.content) for memory, _ in pairs]
    vectors = []
    for start in tqdm(range(0, len(texts), EMBED_BATCH), desc=f"embed {name}", unit="batch", leave=False):
        vectors.extend(embedder.embed(texts[start:start + EMBED_BATCH]))
    rows = []
    for (memory, active), text, vector in zip(
            tqdm(pairs, desc=f"lexical keys {name}", leave=False), texts, vectors):
        archived = active and not memory.subject_key and rng.random() < 0.03
        rows.append(Row(memory, user.pk, MEASURED_CHARACTER, active=active, archived=archived,
                        vector=np.asarray(vector, dtype=np.float32),
                        keys=lexical_keys(f"{text} {memory.subject_value}"), model=embedder.model_name))
    return user, rows


def _conversation_history(user, character, *, conversations: int, rng: random.Random) -> None:
    """Processed past conversations (one every day or two, the last ended yesterday): nothing pending."""
    from context_layers.models import UserContext

    scope = UserContext.objects.get(user=user, character=character)
    now = datetime.now(dt_timezone.utc)
    start = now - timedelta(days=1, hours=3)
    convs, messages = [], []
    for index in range(conversations):
        began = start - timedelta(days=(conversations - 1 - index) * 1.5)
        count = rng.randint(6, 14)
        convs.append(Conversation(scope=scope, user=user, character=character, external_id=f"bench-conv-{index}",
                                  status="ended", end_reason="idle", started_at=began,
                                  last_message_at=began + timedelta(minutes=count), ended_at=began + timedelta(hours=1),
                                  message_count=count, summarized_count=count))
    Conversation.objects.bulk_create(convs)
    for conv in Conversation.objects.filter(user=user, character=character):
        for offset in range(conv.message_count):
            role = MessageRole.USER if offset % 2 == 0 else MessageRole.ASSISTANT
            text = episode(rng, now.date()).content if role == MessageRole.USER else "헐 진짜? 더 얘기해줘!"
            messages.append(Message(conversation=conv, user=user, character=character,
                                    external_id=f"{conv.external_id}-m{offset}", role=role, content=text,
                                    created_at=conv.started_at + timedelta(minutes=offset),
                                    processed_at=conv.started_at + timedelta(minutes=offset, seconds=5)))
    Message.objects.bulk_create(messages, batch_size=2000)


def link_superseded(user_ids: list[int]) -> None:
    """Older values of a single-valued subject point at the current one (as memory_write_fact leaves them)."""
    with connection.cursor() as cur:
        cur.execute(
            "UPDATE memories_memoryitem old SET superseded_by_id = cur.id FROM memories_memoryitem cur "
            "WHERE old.user_id = ANY(%s) AND old.user_id = cur.user_id AND old.character_id = cur.character_id "
            "AND old.subject_key = cur.subject_key AND old.subject_key <> '' AND NOT old.is_active AND cur.is_active "
            "AND old.superseded_by_id IS NULL", [user_ids])


# ---------------------------------------------------------------------------- filler

def filler_users(count_needed: int, max_users: int, rng: random.Random) -> list[tuple[int, int]]:
    """Create new filler users (~200 items each, at most max_users); return [(user_id, items)] summing to
    count_needed."""
    existing = get_user_model().objects.filter(username__startswith=FILLER_PREFIX).count()
    users = max(1, min(max_users, count_needed // 200))
    return _make_filler_users(existing, users, count_needed, rng)


def _make_filler_users(first_index: int, users: int, items: int, rng: random.Random) -> list[tuple[int, int]]:
    User = get_user_model()
    plans = [Plan.FREE] * 5 + [Plan.BASIC] * 3 + [Plan.PREMIUM] * 2 + [Plan.ULTIMATE]
    names = [f"{FILLER_PREFIX}{first_index + i:05d}" for i in range(users)]
    unusable = make_password(None)
    with transaction.atomic():
        User.objects.bulk_create([User(username=name, password=unusable) for name in names], batch_size=2000)
        ids = list(User.objects.filter(username__in=names).order_by("username").values_list("id", flat=True))
        UserPlan.objects.bulk_create([UserPlan(user_id=uid, plan=rng.choice(plans)) for uid in ids], batch_size=2000)
    # heavy-tailed sizes (a few users with thousands of memories, most with a few dozen), capped per user
    weights = [min(rng.paretovariate(1.3), 60.0) for _ in ids]
    scale = items / sum(weights)
    sizes = [int(w * scale) for w in weights]
    for index in range(items - sum(sizes)):
        sizes[index % len(sizes)] += 1
    return list(zip(ids, sizes))


def filler_rows(users: list[tuple[int, int]], rng: random.Random, today: date):
    """Yield filler Rows user by user (distinct content per scope); vectors are added at write time."""
    characters = [slug for slug, _, _ in CHARACTERS]
    model = get_embedder().model_name
    for user_id, size in users:
        scope_chars = rng.sample(characters, rng.randint(1, len(characters)))
        seen: dict[str, set[str]] = {slug: set() for slug in scope_chars}
        for _ in range(size):
            slug = rng.choice(scope_chars)
            for _attempt in range(50):
                memory = filler_memory(rng, today)
                key = memory.content.casefold()
                if key not in seen[slug]:
                    break
            else:  # templates exhausted for this scope: make it distinct
                memory = Memory(f"{memory.content} ({len(seen[slug])})", memory.category, memory.kind,
                                importance=memory.importance)
                key = memory.content.casefold()
            seen[slug].add(key)
            active = not (memory.subject_key and rng.random() < 0.05)  # some older, replaced values
            yield Row(memory, user_id, slug, active=active, archived=active and rng.random() < 0.03,
                      keys=word_keys(f"{memory.content} {memory.subject_value}"), model=model)


# ---------------------------------------------------------------------------- writing

def write_rows(raw, rows, *, total: int, batch: int, np_rng: np.random.Generator, rng: random.Random,
               desc: str) -> int:
    """COPY the rows in batches (one transaction each) with a progress bar; created_at follows the row order."""
    now = datetime.now(dt_timezone.utc)
    start = now - timedelta(days=HISTORY_DAYS)
    step = timedelta(days=HISTORY_DAYS) / max(1, total)
    written = 0
    bar = tqdm(total=total, desc=desc, unit="row", unit_scale=True, smoothing=0.05)
    pending: list[Row] = []

    def flush():
        nonlocal written
        if not pending:
            return
        needs = [row for row in pending if row.vector is None]
        if needs:
            for row, vector in zip(needs, random_unit_vectors(np_rng, len(needs))):
                row.vector = vector
        with raw.cursor() as cur, cur.copy(COPY_SQL) as copy:
            copy.set_types([kind for _, kind in COLUMNS])
            for offset, row in enumerate(pending):
                created = start + step * (written + offset) + timedelta(seconds=rng.uniform(0, 60))
                copy.write_row(encode_row(row, min(created, now), rng))
        written += len(pending)
        bar.update(len(pending))
        pending.clear()

    for row in rows:
        pending.append(row)
        if len(pending) >= batch:
            flush()
    flush()
    bar.close()
    return written


def interleave(filler, measured: list[Row], filler_count: int, rng: random.Random):
    """Yield the filler with the measured rows spread at random positions among it."""
    positions = sorted(rng.randrange(filler_count + 1) for _ in measured)
    queue = list(zip(positions, measured))
    index = 0
    for position, row in enumerate(filler):
        while index < len(queue) and queue[index][0] <= position:
            yield queue[index][1]
            index += 1
        yield row
    for _, row in queue[index:]:
        yield row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=int(os.environ.get("BENCH_ITEMS", 1_000_000)))
    parser.add_argument("--filler-users", type=int, default=5_000, help="at most this many new filler users")
    parser.add_argument("--batch", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    load_characters()
    total, scopes = table_counts()
    missing = [name for name, expected in SCOPES.items() if scopes.get(name) != expected]
    if total >= args.items and not missing:
        print(f"nothing to add: the table already holds >= {args.items:,} rows and both measured scopes")
        inline_embeddings_check()
        print_counts(total, scopes)
        print_size()
        return 0

    rng, np_rng, today = random.Random(args.seed + total), np.random.default_rng(args.seed + total), date.today()
    connection.ensure_connection()
    raw = connection.connection
    register_vector(raw)

    measured: list[Row] = []
    scope_users = []
    for name in missing:
        before = scopes.get(name, 0)
        t0 = time.perf_counter()
        user, rows = build_scope_user(name, SCOPES[name], rng, today)
        total -= before
        scope_users.append(user.pk)
        measured += rows
        print(f"scope {name}: {len(rows):,} rows prepared (embeddings, lexical keys) "
              f"in {time.perf_counter() - t0:.1f} s")

    filler_count = max(0, args.items - total - len(measured))
    t0 = time.perf_counter()
    users = filler_users(filler_count, args.filler_users, rng) if filler_count else []
    rows = interleave(filler_rows(users, rng, today), measured, filler_count, rng) if filler_count else iter(measured)
    written = write_rows(raw, rows, total=filler_count + len(measured), batch=args.batch, np_rng=np_rng, rng=rng,
                         desc="memory items")
    copy_seconds = time.perf_counter() - t0
    print(f"wrote {written:,} rows ({filler_count:,} filler over {len(users):,} users, {len(measured):,} measured) "
          f"in {copy_seconds:.1f} s ({written / max(copy_seconds, 1e-9):,.0f} rows/s)")
    print(f"  of which encryption: {ENCRYPTION['values']:,} values in {ENCRYPTION['seconds']:.1f} s "
          f"({ENCRYPTION['seconds'] / max(1, ENCRYPTION['values']) * 1e6:.1f} µs each; one process is enough)")
    if scope_users:
        link_superseded(scope_users)

    t0 = time.perf_counter()
    with maintenance_cursor() as cur:
        cur.execute("VACUUM (ANALYZE) memories_memoryitem")
        cur.execute("ANALYZE")
    print(f"VACUUM ANALYZE in {time.perf_counter() - t0:.1f} s")
    print_counts(*table_counts())
    print_size()
    print(f"elapsed {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
