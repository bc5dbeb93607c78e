"""The tune half of the blind PII cases (bench/pii_formats): every identifier masked, every ordinary string kept.
A regression guard for the masking door on the formats it was changed for; the held-out half is the measure."""
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("pii_formats_bench", ROOT / "bench" / "pii_formats.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_tune_case_is_clean():
    cases = json.loads((ROOT / "bench" / "pii_formats" / "tune.json").read_text(encoding="utf-8"))
    result, failures = _bench().score(cases)

    assert failures == []
    assert result["secrets"][0] == result["secrets"][1] > 150


def test_a_leak_and_a_lost_word_are_counted():
    cases = [{"id": "x", "kind": "phone", "text": "call 555 at noon, mail a at b dot zz",
              "secrets": ["a at b dot zz"], "keep": ["noon"]}]
    result, failures = _bench().score(cases)

    assert result["cases"] == [0, 1] and len(failures) == 1  # the made-up e-mail survives: scored as a leak
