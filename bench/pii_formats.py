"""Score the masking door on blind PII cases: what survives of each identifier, what is lost of ordinary text.

Usage: python bench/pii_formats.py [--no-failures] [FILE ...]   (default: bench/pii_formats/tune.json)

Each case (bench/pii_formats/README.md) is one chat message with the identifiers it holds (`secrets`) and
ordinary words that must stay (`keep`). The message goes through `memories.masking.mask_with_kinds`, the one
function every stored text passes through. A secret leaks when it survives whole, or when a run of 4 or more
of its digits (or its e-mail's local part) survives that the message has nowhere else; a keep string is lost
when it no longer appears. A case passes when nothing leaks and nothing is lost. No database is needed.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memories.masking import mask_with_kinds  # noqa: E402

_DIGIT_RUN = re.compile(r"\d{4,}")
_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub("", text).casefold()


def _pieces(secret: str) -> list[str]:
    """The parts of a secret that identify on their own: digit runs of 4+, an e-mail's local part."""
    pieces = _DIGIT_RUN.findall(secret)
    if "@" in secret:
        local = secret.split("@", 1)[0].strip()
        if len(local) >= 3:
            pieces.append(local)
    return pieces


def leaked(secret: str, original: str, masked: str) -> str:
    """'' when nothing of the secret survives, else what survived."""
    if _norm(secret) in _norm(masked):
        return secret
    rest = original.replace(secret, " ")  # the same digits elsewhere in the message are not this secret's
    for piece in _pieces(secret):
        if piece.casefold() in masked.casefold() and piece.casefold() not in rest.casefold():
            return piece
    return ""


def score(cases: list[dict]) -> tuple[dict, list[str]]:
    kinds: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    totals = {"cases": [0, 0], "secrets": [0, 0], "keep": [0, 0]}
    failures = []
    for case in cases:
        text = case["text"]
        masked = mask_with_kinds(text).text
        leaks = [piece for piece in (leaked(s, text, masked) for s in case["secrets"]) if piece]
        lost = [k for k in case.get("keep", []) if _norm(k) not in _norm(masked)]
        ok = not leaks and not lost
        kinds[case["kind"]][0] += ok
        kinds[case["kind"]][1] += 1
        totals["cases"][0] += ok
        totals["cases"][1] += 1
        totals["secrets"][0] += len(case["secrets"]) - len(leaks)
        totals["secrets"][1] += len(case["secrets"])
        totals["keep"][0] += len(case.get("keep", [])) - len(lost)
        totals["keep"][1] += len(case.get("keep", []))
        if not ok:
            failures.append(f"FAIL {case['id']} [{case['kind']}] leaked={leaks} lost={lost}\n"
                            f"  in:  {text}\n  out: {masked}")
    return {"kinds": dict(kinds), **totals}, failures


def _pct(pair: list[int]) -> str:
    return f"{pair[0]}/{pair[1]} {100 * pair[0] / pair[1]:.1f}%" if pair[1] else "0/0"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=[str(ROOT / "bench/pii_formats/tune.json")])
    parser.add_argument("--no-failures", action="store_true", help="print only the summary lines")
    args = parser.parse_args()
    for name in args.files:
        result, failures = score(json.loads(Path(name).read_text(encoding="utf-8")))
        if not args.no_failures:
            print("\n".join(failures))
        print(f"== {name}")
        for kind, pair in sorted(result["kinds"].items()):
            print(f"  {kind:12s} {_pct(pair)}")
        print(f"  secrets masked {_pct(result['secrets'])}")
        print(f"  keep strings kept {_pct(result['keep'])}")
        print(f"  overall {_pct(result['cases'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
