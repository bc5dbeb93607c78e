"""Ingest throughput, POST latency and extraction quality, through the public HTTP API.

Replays a dataset in the format of ../shared/bench/README.md (default: ko_open.json) for
--users distinct users: each turn is one POST /api/context/{c}/messages with the user message
and the reply (1 s later), like a chat backend would send. Then waits until the django-q2 cluster
has processed every message (LocalExtractor unless GEMINI_API_KEY is set) and reports:
- p50/p95/p99 latency of POST messages (the chat backend's cost per turn);
- pipeline throughput: messages / (first POST → last message processed);
- for the first user: how many planted facts (probes of kind identity/lifestyle/correction) are
  stored as active memories with the right subject and value.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlparse

from server import ROOT, percentile, running_server, server_phases

DEFAULT_DATASET = ROOT.parent / "shared" / "bench" / "ko_open.json"
SUBJECTS = {"job_major": ("major", "occupation")}
FACT_KINDS = ("identity", "lifestyle", "correction")


def pending_messages() -> int:
    from conversations.models import Message

    return Message.objects.filter(processed_at__isnull=True).count()


PHASES: dict[str, list[float]] = {}  # Server-Timing of each POST (core.timing): name → ms


def post_turns(conn, token: str, user: str, turns: list[dict], latencies: list[float]) -> None:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    for turn in sorted(turns, key=lambda t: t["t"]):
        at = datetime.fromisoformat(turn["at"])
        body = {"conversationId": turn["conversation"], "messages": [
            {"id": f"t{turn['t']}u", "role": "user", "content": turn["user"], "createdAt": at.isoformat()},
            {"id": f"t{turn['t']}a", "role": "assistant", "content": turn["assistant"],
             "createdAt": (at + timedelta(seconds=1)).isoformat()},
        ]}
        start = time.perf_counter()
        conn.request("POST", f"/api/context/{turn['character']}/messages?user={user}", json.dumps(body), headers)
        response = conn.getresponse()
        response.read()
        latencies.append((time.perf_counter() - start) * 1000)
        for name, duration in server_phases(response.getheader("Server-Timing", "")).items():
            PHASES.setdefault(name, []).append(duration)
        if response.status != 202:
            raise SystemExit(f"POST failed with {response.status} on turn {turn['t']}")


def fetch_memories(conn, token: str, user: str, character: str) -> list[dict]:
    conn.request("GET", f"/api/context/{character}/memory?user={user}&limit=200",
                 headers={"Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    return json.loads(response.read())["memories"]


def score_facts(memories_by_character: dict[str, list[dict]], probes: list[dict]) -> list[tuple[str, bool, str]]:
    """Check each planted fact against the active memories after the whole replay.

    A fact that a later correction probe changes is checked by that correction probe instead: its
    first value is (rightly) no longer active.
    """
    corrected = {(p["character"], p["fact"]) for p in probes if p["kind"] == "correction"}
    results = []
    for probe in probes:
        if probe["kind"] not in FACT_KINDS:
            continue
        if probe["kind"] != "correction" and (probe["character"], probe["fact"]) in corrected:
            continue
        subjects = SUBJECTS.get(probe["fact"], (probe["fact"],))
        facts = [m for m in memories_by_character[probe["character"]] if m["subjectKey"] in subjects]
        text = " ".join(f"{m['subjectValue']} {m['content']}" for m in facts).casefold().replace(" ", "")
        ok = any(e.casefold().replace(" ", "") in text for e in probe["expect_any"]) and not any(
            e.casefold().replace(" ", "") in text for e in probe["expect_none"])
        results.append((f"{probe['id']} {probe['kind']}:{probe['fact']}", ok,
                        "; ".join(m["subjectValue"] for m in facts) or "(no fact)"))
    return results


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("dataset", nargs="?", default=str(DEFAULT_DATASET))
    parser.add_argument("--users", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    data = json.loads(Path(args.dataset).read_text())

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()
    run_id = datetime.now().strftime("%H%M%S")
    users = [f"bench-{run_id}-{i}" for i in range(args.users)]
    with running_server(cluster=True) as (base_url, token):
        url = urlparse(base_url)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        latencies: list[float] = []
        started = time.perf_counter()
        for user in users:
            post_turns(conn, token, user, data["turns"], latencies)
        posted = time.perf_counter()
        while pending_messages() and time.perf_counter() - started < args.timeout:
            time.sleep(0.2)
        done = time.perf_counter()
        left = pending_messages()
        messages = 2 * len(data["turns"]) * len(users)
        latencies.sort()
        print(f"{len(users)} users x {len(data['turns'])} turns = {messages} messages "
              f"({len(latencies)} POSTs of 2 messages)")
        print(f"POST messages latency: p50 {percentile(latencies, 50):.1f} ms  p95 {percentile(latencies, 95):.1f} ms"
              f"  p99 {percentile(latencies, 99):.1f} ms  max {latencies[-1]:.1f} ms")
        if PHASES:
            print("POST messages server side (Server-Timing, p50 / p95 ms): " + "  ".join(
                f"{name} {percentile(sorted(values), 50):.2f} / {percentile(sorted(values), 95):.2f}"
                for name, values in PHASES.items()))
        print(f"posting took {posted - started:.1f} s; all processed after {done - started:.1f} s "
              f"({left} still pending) -> pipeline throughput {messages / (done - started):.1f} messages/s")
        memories = {c: fetch_memories(conn, token, users[0], c) for c in data["characters"]}
        results = score_facts(memories, data["probes"])
        for label, ok, found in results:
            print(f"  {'PASS' if ok else 'FAIL'}  {label}: {found}")
        passed = sum(ok for _, ok, _ in results)
        print(f"planted facts stored as active memories with the right subject and value: {passed}/{len(results)}"
              f" (facts corrected later are checked at their corrected value)")
        print("active memories for the first user: " + ", ".join(f"{c} {len(m)}" for c, m in memories.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
