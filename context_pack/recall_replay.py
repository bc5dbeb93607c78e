"""Replay a recall dataset (../shared/bench/README.md format) through the public HTTP API and score it."""
from __future__ import annotations

import json
import statistics
import time
import urllib.error
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass
class ProbeResult:
    probe: dict
    passed: bool
    tokens: int
    missing: list[str]
    leaked: list[str]
    memory_tokens: int = 0
    text: str = ""


@dataclass
class ReplayReport:
    results: list[ProbeResult] = field(default_factory=list)
    post_ms: list[float] = field(default_factory=list)
    prompt_ms: list[float] = field(default_factory=list)

    def by_kind(self) -> dict[str, tuple[int, int]]:
        counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for result in self.results:
            counts[result.probe["kind"]][0] += result.passed
            counts[result.probe["kind"]][1] += 1
        return {kind: (passed, total) for kind, (passed, total) in sorted(counts.items())}


def _normalise(text: str) -> str:
    return "".join(text.split()).casefold()


def strings_in(text: str, strings: list[str]) -> list[str]:
    """The `strings` that `text` contains, as the seed README matches them: case and spaces ignored."""
    squashed = _normalise(text)
    return [string for string in strings if _normalise(string) in squashed]


def score_block(text: str, probe: dict) -> tuple[bool, list[str], list[str]]:
    """Seed README rule: some expect_any present (if any), no expect_none; case and spaces ignored."""
    found_any = not probe["expect_any"] or bool(strings_in(text, probe["expect_any"]))
    leaked = strings_in(text, probe["expect_none"])
    return found_any and not leaked, ([] if found_any else probe["expect_any"]), leaked


class ApiClient:
    def __init__(self, base_url: str, token: str):
        self.base_url = base_url.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: dict) -> tuple[int, dict, float]:
        request = urllib.request.Request(
            self.base_url + path, data=json.dumps(body).encode(), method=method,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, payload = response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            status, payload = error.code, json.loads(error.read() or b"{}")
        return status, payload, (time.perf_counter() - start) * 1000


def replay(data: dict, client: ApiClient, *, user: str, budget: int = 1100, progress=None) -> ReplayReport:
    report = ReplayReport()
    probes_after: dict[int, list[dict]] = defaultdict(list)
    for probe in data["probes"]:
        probes_after[probe["after_turn"]].append(probe)
    for turn in sorted(data["turns"], key=lambda t: t["t"]):
        at = datetime.fromisoformat(turn["at"])
        status, payload, ms = client.call("POST", f"/api/context/{turn['character']}/messages?user={user}", {
            "conversationId": turn["conversation"],
            "messages": [
                {"id": f"t{turn['t']}u", "role": "user", "content": turn["user"], "createdAt": at.isoformat()},
                {"id": f"t{turn['t']}a", "role": "assistant", "content": turn["assistant"],
                 "createdAt": (at + timedelta(seconds=1)).isoformat()},
            ],
        })
        if status != 202:
            raise RuntimeError(f"POST messages failed on turn {turn['t']}: {status} {payload}")
        report.post_ms.append(ms)
        for probe in probes_after.get(turn["t"], []):
            status, payload, ms = client.call("POST", f"/api/context/{probe['character']}/prompt?user={user}",
                                              {"message": probe["question"], "budgetTokens": budget})
            if status != 200:
                raise RuntimeError(f"POST prompt failed for {probe['id']}: {status} {payload}")
            report.prompt_ms.append(ms)
            passed, missing, leaked = score_block(payload["text"], probe)
            report.results.append(ProbeResult(probe, passed, payload["tokens"], missing, leaked,
                                              memory_tokens=payload["layers"]["memory"]["tokens"], text=payload["text"]))
        if progress is not None:
            progress(1)
    return report


def format_report(report: ReplayReport, *, budget: int = 1100, failures: bool = True,
                  blocks: bool = False) -> list[str]:
    """Pass rates per kind and overall, token use, latency and (unless `failures` is off: held-out data)
    one FAIL line per failed probe, followed by the probe's question and block when `blocks` is on."""
    lines = []
    for kind, (passed, total) in report.by_kind().items():
        lines.append(f"{kind:<11} {passed}/{total}  {100 * passed / total:.0f}%")
    passed = sum(r.passed for r in report.results)
    total = len(report.results)
    lines.append(f"{'overall':<11} {passed}/{total}  {100 * passed / max(1, total):.1f}%")
    tokens = [r.tokens for r in report.results]
    if tokens:
        lines.append(f"tokens per prompt: mean {statistics.fmean(tokens):.0f}, max {max(tokens)} of {budget}; "
                     f"memory layer mean {statistics.fmean(r.memory_tokens for r in report.results):.0f}")
    for name, values in (("POST messages", report.post_ms), ("POST prompt", report.prompt_ms)):
        if values:
            ordered = sorted(values)
            lines.append(f"{name} round trip: p50 {ordered[len(ordered) // 2]:.1f} ms, "
                         f"p95 {ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]:.1f} ms")
    for result in report.results if failures else ():
        if not result.passed:
            detail = f"missing {result.missing}" if result.missing else f"leaked {result.leaked}"
            lines.append(f"FAIL {result.probe['id']} {result.probe['kind']}:{result.probe['fact']} — {detail}")
            if blocks:
                lines += [f"  question: {result.probe['question']}", *("  | " + line for line in result.text.splitlines())]
    return lines
