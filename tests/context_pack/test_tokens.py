"""context_pack.tokens: the Gemini token estimate and truncation (no database)."""
from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path

import pytest

from context_pack import tokens
from context_pack.tokens import estimate_tokens, truncate_to_tokens

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("token_estimator_error", ROOT / "bench" / "token_estimator_error.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

SAMPLES = bench.samples()
KO_LINES = [t for k, t in SAMPLES if k.startswith("ko_chat")]
EN_LINES = [t for k, t in SAMPLES if k.startswith("en_chat")]
BLOCKS = [t for k, t in SAMPLES if k.endswith("_block")]
BLOCK = "[현재 상태(캐논)]\n- (relationship) dating_status: 솔로\n- (identity) name: 한지우\n- (identity) age: 24살"
# Pieces that exercise every class: Hangul (common, rare, after a space), jamo, Latin, capitals, digits,
# punctuation, spaces and runs of them, newlines, emoji and their joiners, other scripts, tabs.
POOL = ["안녕", "춘심아", " ", "  ", "돎", " 챙겨", "ㅋㅋㅋ", "ㅠㅠ", "ㅇㅇ", "hello", "INFP", "Jamie", "2026-03-01",
        " 24", "!!", "?", "(", ")]", "\n", "\n\n", "😀", "🖥️", "👨\u200d👩\u200d👧", "…", "·", "é", "漢字", "\t", "_", "a", "가"]


def _random_texts(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(POOL) for _ in range(rng.randint(0, 12))) for _ in range(n)]


def test_empty_is_zero_and_any_text_counts():
    assert estimate_tokens("") == 0
    for text in ["a", " ", "\n", "가", "ㅋ", "😀", "1", "!", "\t", "漢"]:
        assert estimate_tokens(text) >= 1, text


def test_returns_int():
    assert isinstance(estimate_tokens(BLOCK), int)


@pytest.mark.parametrize("text", KO_LINES[:40] + EN_LINES[:20] + BLOCKS[:5] + [BLOCK])
def test_growing_prefix_never_lowers_the_count(text):
    counts = [estimate_tokens(text[:i]) for i in range(len(text) + 1)]
    assert counts == sorted(counts)


def test_appending_or_prepending_never_lowers_the_count():
    texts = _random_texts(1500)
    rng = random.Random(11)
    for text in texts:
        other = rng.choice(texts)
        combined = estimate_tokens(text + other)
        assert combined >= estimate_tokens(text), (text, other)
        assert combined >= estimate_tokens(other), (text, other)


def test_korean_costs_more_per_character_than_english():
    ko = sum(map(estimate_tokens, KO_LINES)) / sum(map(len, KO_LINES))
    en = sum(map(estimate_tokens, EN_LINES)) / sum(map(len, EN_LINES))
    assert ko > 2 * en
    assert estimate_tokens("오늘 뭐 먹었어?") > estimate_tokens("what did you eat?") * len("오늘 뭐 먹었어?") / len(
        "what did you eat?")


def test_rare_syllables_and_digits_are_costed_as_byte_and_digit_tokens():
    assert estimate_tokens("돎" * 10) >= 30  # not pieces: three byte tokens each
    assert estimate_tokens("2026-03-01") >= 10  # Gemma splits digits


def test_estimate_matches_the_weighted_counts_the_bench_fits():
    for text in _random_texts(2000, seed=3) + [t for _, t in SAMPLES]:
        weighted = sum(rate * count for rate, count in zip(tokens.RATES, tokens._counts(text)))
        assert estimate_tokens(text) == (int(weighted - 1e-9) + 1 if text else 0), text


def test_truncate_never_exceeds_the_budget():
    texts = BLOCKS[:10] + KO_LINES[:30] + EN_LINES[:10] + _random_texts(200, seed=5) + [BLOCK]
    for text in texts:
        total = estimate_tokens(text)
        for budget in sorted({0, 1, 2, 3, 5, 10, total // 3, total // 2, total - 1, total, total + 5}):
            result = truncate_to_tokens(text, budget)
            assert estimate_tokens(result) <= max(budget, 0), (text, budget, result)
            assert text.startswith(result)
            if budget >= total:
                assert result == text


def test_truncate_keeps_most_of_the_budget_and_prefers_line_breaks():
    text = "\n".join(f"- (memory) 사용자는 {i}번째 기억을 가지고 있다: 떡볶이를 좋아함" for i in range(40))
    total = estimate_tokens(text)
    for budget in (200, total // 2, total - 10):  # a line is well under 30% of what fits
        result = truncate_to_tokens(text, budget)
        assert estimate_tokens(result) <= budget
        assert estimate_tokens(result) >= 0.6 * budget
        assert text[len(result)] == "\n"  # ended on a line boundary
    words = "word " * 500
    result = truncate_to_tokens(words, 100)
    assert 60 <= estimate_tokens(result) <= 100 and result.endswith("word")


def test_truncate_edge_cases():
    assert truncate_to_tokens("", 10) == ""
    assert truncate_to_tokens(BLOCK, 0) == ""
    assert truncate_to_tokens(BLOCK, -5) == ""
    assert truncate_to_tokens(BLOCK, 10**6) == BLOCK
    assert truncate_to_tokens("😀" * 50, 7) and estimate_tokens(truncate_to_tokens("😀" * 50, 7)) <= 7
    family = "👨\u200d👩\u200d👧" * 20
    cut = truncate_to_tokens(family, 9)
    assert not cut.endswith("\u200d")
    long_line = "가" * 10_000  # no boundary anywhere: a hard cut
    cut = truncate_to_tokens(long_line, 1000)
    assert 900 <= estimate_tokens(cut) <= 1000


# --- against the real tokenizer, when it is here (`python bench/token_estimator_error.py --fetch`, plus the
# `tokenizers` wheel); otherwise skipped.
REAL = bench.load_real_tokenizer()
needs_real = pytest.mark.skipif(REAL is None, reason="Gemma 3 tokenizer.json or `tokenizers` not installed")


@needs_real
def test_blocks_are_never_underestimated():
    for kind, text in SAMPLES:
        if kind.endswith("_block"):
            real = REAL(text)
            assert real <= estimate_tokens(text) <= 1.2 * real, (kind, text[:80])


@needs_real
def test_chat_is_an_upper_bound_in_total_and_close_per_line():
    for kind in ("ko_chat", "en_chat", "mixed_chat", "ko_chat*", "en_chat*"):
        lines = [t for k, t in SAMPLES if k == kind]
        real = [REAL(t) for t in lines]
        estimate = [estimate_tokens(t) for t in lines]
        assert sum(real) <= sum(estimate) <= 1.15 * sum(real), kind
        for text, r, e in zip(lines, real, estimate):
            assert e >= math.floor(0.9 * r) - 2, (kind, text, r, e)
            assert e >= 0.97 * r or r < 50, (kind, text, r, e)
