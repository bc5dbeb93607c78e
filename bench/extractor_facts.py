"""Planted-fact recall of LocalExtractor on a long-conversation dataset (default: ko_open.json).

Usage:
    DJANGO_SETTINGS_MODULE=config.settings.test .venv/bin/python bench/extractor_facts.py [path/to/dataset.json]

Turns are replayed per character, each user message (PII-masked as ingestion does) with the character's
previous reply as context, as a chat backend would send them. Facts are kept as the memory writer keeps them: the latest value of
a single-valued subject supersedes the old one, other subjects accumulate. Right after each probe's
`after_turn`, probes of kind identity/lifestyle/correction check that a fact of the probe's subject holds
one of `expect_any` (and, for corrections, none of `expect_none`). No database and no Django setup needed.
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memories.extraction.base import ChatTurn, ExistingFact  # noqa: E402
from memories.extraction.local import LocalExtractor  # noqa: E402
from memories.extraction.morphology import warm_up  # noqa: E402
from memories.pii import mask_pii  # noqa: E402
from memories.subjects import is_single_valued  # noqa: E402

DEFAULT_DATASET = Path("/work/shared/bench/ko_open.json")
FACT_KINDS = ("identity", "lifestyle", "correction")
# ko_open uses subject keys except job_major; other datasets in the same format name a few facts freely.
SUBJECTS_FOR_PROBE = {
    "job_major": ("major", "occupation"), "job": ("occupation", "workplace"), "fear": ("phobia",),
    "favorite_colour": ("favorite_color",), "favorite_band": ("favorite_artist",),
    "favorite_singer": ("favorite_artist",), "dream": ("dream_job", "goal"), "relationship": ("dating_status",),
    "fitness_goal": ("goal",), "family": ("family", "sibling"), "pet_species": ("pet",),
}


def _squash(text: str) -> str:
    return "".join(text.split()).lower()


class FactStore:
    """The facts of one character as the writer would hold them."""

    def __init__(self):
        self.by_subject: dict[str, list[tuple[str, str]]] = defaultdict(list)  # subject -> [(value, content)]

    def add(self, subject: str, value: str, content: str) -> None:
        if is_single_valued(subject):
            self.by_subject[subject] = [(value, content)]
        elif all(_squash(value) != _squash(v) for v, _ in self.by_subject[subject]):
            self.by_subject[subject].append((value, content))

    def existing(self) -> list[ExistingFact]:
        return [ExistingFact(subject, value, content)
                for subject, values in self.by_subject.items() for value, content in values]


def check(probe: dict, store: FactStore) -> tuple[bool, list[str]]:
    subjects = SUBJECTS_FOR_PROBE.get(probe["fact"], (probe["fact"],))
    held = [f"{value} | {content}" for subject in subjects for value, content in store.by_subject.get(subject, [])]
    texts = [_squash(h) for h in held]
    has_any = any(_squash(e) in t for e in probe["expect_any"] for t in texts) if probe["expect_any"] else True
    has_none = any(_squash(e) in t for e in probe.get("expect_none", []) for t in texts)
    return has_any and not has_none, held


def main() -> int:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATASET
    data = json.loads(path.read_text(encoding="utf-8"))
    probes = [p for p in data["probes"] if p["kind"] in FACT_KINDS]
    probes_after: dict[int, list[dict]] = defaultdict(list)
    for probe in probes:
        probes_after[probe["after_turn"]].append(probe)

    started = time.perf_counter()
    warm_up()
    warm_up_ms = (time.perf_counter() - started) * 1000

    extractor = LocalExtractor()
    stores: dict[str, FactStore] = defaultdict(FactStore)
    last_reply: dict[str, tuple[str, str, datetime]] = {}
    avoid: dict[str, list[str]] = defaultdict(list)
    special: dict[str, list[str]] = defaultdict(list)
    events: dict[str, list[str]] = defaultdict(list)
    timings: list[float] = []
    results: list[tuple[dict, bool, list[str]]] = []

    for turn in sorted(data["turns"], key=lambda t: t["t"]):
        character = turn["character"]
        at = datetime.fromisoformat(turn["at"])
        batch = []
        if character in last_reply:
            message_id, reply, reply_at = last_reply[character]
            batch.append(ChatTurn(message_id, "assistant", reply, reply_at))
        # Ingestion masks personal data before anything is stored or extracted; so does the replay.
        batch.append(ChatTurn(f"t{turn['t']}u", "user", mask_pii(turn["user"]).text, at))
        store = stores[character]
        begin = time.perf_counter()
        result = extractor.extract(turns=batch, existing=store.existing())
        timings.append((time.perf_counter() - begin) * 1000)
        for fact in result.facts:
            if fact.subject:
                store.add(fact.subject, fact.value, fact.content)
            elif fact.value and fact.event_date:
                events[character].append(f"t{turn['t']} {fact.content} ({fact.event_date.isoformat()})")
        avoid[character] += [t for t in result.avoid_topics if t not in avoid[character]]
        special[character] += [f"{s.date} {s.description}" for s in result.special_dates]
        last_reply[character] = (f"t{turn['t']}a", turn["assistant"], at)
        for probe in probes_after.get(turn["t"], []):
            passed, held = check(probe, stores[probe["character"]])
            results.append((probe, passed, held))

    order = {probe["id"]: index for index, probe in enumerate(probes)}
    results.sort(key=lambda r: order[r[0]["id"]])
    for probe, passed, held in results:
        status = "PASS" if passed else "FAIL"
        print(f"{probe['id']:>4} {probe['kind']:<10} {probe['fact']:<16} {status}  {' ; '.join(held) or '-'}")
    passed_count = sum(1 for _, passed, _ in results if passed)
    print(f"\n{passed_count}/{len(results)} planted facts extracted with the right subject and value")

    print("\nalso extracted (not scored here):")
    for character in stores:
        print(f"  [{character}] avoid_topics: {avoid[character]}")
        print(f"  [{character}] special_dates: {special[character]}")
        for line in events[character]:
            print(f"  [{character}] event: {line}")

    print(f"\nextraction time per message: mean {statistics.mean(timings):.2f} ms, "
          f"median {statistics.median(timings):.2f} ms, max {max(timings):.2f} ms over {len(timings)} messages "
          f"(model load and warm-up once: {warm_up_ms:.0f} ms)")
    return 0 if passed_count == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
