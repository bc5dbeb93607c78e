"""The tune half of the blind PII cases (bench/pii_formats): every identifier masked, every ordinary string kept.
A regression guard for the masking door on the formats it was changed for; the held-out half is the measure."""
import json
from pathlib import Path

from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]


def test_every_tune_case_is_clean():
    cases = json.loads((ROOT / "bench" / "pii_formats" / "tune.json").read_text(encoding="utf-8"))
    result, failures = load_bench("pii_formats").score(cases)

    assert failures == []
    assert result["secrets"][0] == result["secrets"][1] > 150


def test_a_leak_and_a_lost_word_are_counted():
    cases = [{"id": "x", "kind": "phone", "text": "call 555 at noon, mail a at b dot zz",
              "secrets": ["a at b dot zz"], "keep": ["noon"]}]
    result, failures = load_bench("pii_formats").score(cases)

    assert result["cases"] == [0, 1] and len(failures) == 1  # the made-up e-mail survives: scored as a leak
