"""bench/embedding_rank.py: where the message holding an answer ranks by similarity to the question, and for a
correction whether the current value ranks above the replaced one. A fake embedder makes the expected ranks known."""
import json

import numpy as np
import pytest

from tests.support.bench import load_bench


AXES = {"cat": 0, "home": 1, "food": 2, "weather": 3}


def fake_encode(texts, query):
    """One axis per topic word in the text (a unit vector), so similarity is shared topic words."""
    vectors = np.full((len(texts), len(AXES) + 1), 1e-3)
    for row, text in enumerate(texts):
        for word, axis in AXES.items():
            if word in text.casefold():
                vectors[row, axis] = 1.0
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def replay(tmp_path, turns, probes) -> str:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"turns": [{"t": t, "character": "sora", "user": text, "assistant": "ok"}
                                          for t, text in enumerate(turns, 1)], "probes": probes}), encoding="utf-8")
    return str(path)


def test_the_answer_rank_and_the_correction_order_come_from_similarity(tmp_path):
    path = replay(tmp_path, [
        "my home is in Busan",           # 1: the old value
        "food was great today",          # 2
        "weather food weather",          # 3
        "moved, my new home is Seoul",   # 4: the current value
        "the cat sleeps",                # 5
    ], [
        {"id": "p1", "after_turn": 5, "character": "sora", "kind": "correction", "question": "where is my home now?",
         "expect_any": ["Seoul"], "expect_none": ["Busan"]},
        {"id": "p2", "after_turn": 5, "character": "sora", "kind": "lifestyle", "question": "what about food?",
         "expect_any": ["weather food"]},  # ranks below turn 2, which says only food
        {"id": "p3", "after_turn": 2, "character": "sora", "kind": "identity", "question": "my cat?",
         "expect_any": ["the cat"]},  # said after the probe: not counted
    ])

    result = load_bench("embedding_rank").measure(fake_encode, [path])

    assert result["answer_ranks"][1] == 2
    assert len(result["answer_ranks"]) == 2
    assert result["same_topic_ranks"] == [1]  # turn 4 is the later message closest to turn 1
    # both home messages are as close to the question: the current value is not above the old one
    assert result["new_above_old"] == [False]


@pytest.mark.parametrize("ranks, top, want", [([1, 2, 30], 5, "67%"), ([], 5, "0%")])
def test_share(ranks, top, want):
    assert load_bench("embedding_rank").share(ranks, top) == want
