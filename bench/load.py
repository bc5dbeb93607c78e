"""Load at rising rates through the public HTTP API (issue 11 §5): the highest rate held with p95 <= 200 ms.

A realistic mix from --users end users x 4 characters, sent open-loop (requests leave on schedule whether or not
earlier ones came back, as many chat backends would send them), users picked Zipf-like: 70% POST prompt, 25% POST messages (a user turn and
the reply, each scope's conversation moving forward in time), 5% layers (GET the context, or PUT the identity or
tools layer). Each step runs --step-seconds at one rate; the steps rise until p95 passes --stop-ms (500) or errors
appear. Against gunicorn (--workers) and a django-q2 cluster extracting what is posted, on an embedded PostgreSQL
(run it under scripts/devdb.py, as `make bench` does its other benchmarks).

Prints per step: the rate sent and achieved, p50/p95/p99 per kind and overall, errors, and the RSS of each gunicorn
worker; at the end the highest rate with p95 <= --target-ms (200) and no errors. `--soak-seconds N` then holds the
last rate that met the target for N seconds and prints worker RSS once a minute (is it flat?).

    python scripts/devdb.py --pgdata .data/postgres-load --migrate -- python bench/load.py --rates 5,10,20,30,40
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import urlparse

from server import percentile, running_server

CHARACTERS = ("chunsim", "sora", "yuna", "mina")
MIX = (("prompt", 0.70), ("messages", 0.25), ("layers", 0.05))
USER_LINES = (
    "오늘 회사에서 발표했는데 떨려서 죽는 줄 ㅋㅋ", "나 요즘 필라테스 다녀 주 3회", "우리 강아지 이름 두부야 포메",
    "내일 치과 예약 있어 10시", "요즘 잠을 너무 못 자ㅠ", "i just moved to a new flat near the river",
    "my sister is visiting next weekend", "exam on friday, wish me luck", "나 다음 달에 오사카 여행 가",
    "점심에 마라탕 먹었어 3단계", "아 나 이제 카페 알바 그만뒀어", "work was long today, 11 hours",
)
REPLIES = ("헐 대박! 더 얘기해줘 ㅎㅎ", "오 진짜? 어땠어?", "That sounds like a lot. How are you feeling?", "화이팅!! 😊")
QUESTIONS = ("나 어디 산다고 했지?", "우리 강아지 이름 기억나?", "what did i say about my sister?", "나 요즘 뭐 배운다고 했지?",
             "오늘 하루 어땠냐면 그냥 그랬어", "내일 뭐 있었지?", "do you remember my exam?", "나 무슨 알바 했었지?")


class Client:
    """One keep-alive connection per thread."""

    def __init__(self, base_url: str, token: str):
        url = urlparse(base_url)
        self.host, self.port, self.token = url.hostname, url.port, token
        self.local = threading.local()

    def request(self, method: str, path: str, body: dict | None = None) -> int:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        try:
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            response = conn.getresponse()
            response.read()
            return response.status
        except (OSError, http.client.HTTPException):
            conn.close()
            self.local.conn = None
            return 599


class Scopes:
    """Per (user, character): the conversation and the clock of its last message, so posts move forward. Users are
    picked Zipf-like (weight 1/rank): a few chat a lot and their scopes grow, most come by now and then."""

    def __init__(self, users: int, seed: int):
        self.users, self.rng, self.lock = users, random.Random(seed), threading.Lock()
        total, self.cumulative = 0.0, []
        for rank in range(1, users + 1):
            total += 1.0 / rank
            self.cumulative.append(total)
        self.clock: dict[tuple[int, str], datetime] = {}
        self.start = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)

    def pick(self) -> tuple[int, str]:
        with self.lock:
            return self.rng.choices(range(self.users), cum_weights=self.cumulative)[0], self.rng.choice(CHARACTERS)

    def next_time(self, scope: tuple[int, str]) -> datetime:
        with self.lock:
            at = self.clock.get(scope, self.start) + timedelta(minutes=3)
            self.clock[scope] = at
            return at


def one_request(kind: str, client: Client, scopes: Scopes, rng: random.Random) -> tuple[str, float, int]:
    user, character = scopes.pick()
    external = f"load-user-{user}"
    start = time.perf_counter()
    if kind == "prompt":
        status = client.request("POST", f"/api/context/{character}/prompt?user={external}",
                                {"message": rng.choice(QUESTIONS)})
    elif kind == "messages":
        at = scopes.next_time((user, character))
        stamp = int(at.timestamp())
        status = client.request("POST", f"/api/context/{character}/messages?user={external}", {
            "conversationId": f"load-{user}-{character}-{at:%Y%m%d}",
            "messages": [
                {"id": f"{stamp}u", "role": "user", "content": rng.choice(USER_LINES), "createdAt": at.isoformat()},
                {"id": f"{stamp}a", "role": "assistant", "content": rng.choice(REPLIES),
                 "createdAt": (at + timedelta(seconds=1)).isoformat()}]})
    elif rng.random() < 0.6:
        kind = "layers"
        status = client.request("GET", f"/api/context/{character}?user={external}")
    else:
        kind = "layers"
        if rng.random() < 0.5:
            status = client.request("PUT", f"/api/context/{character}/identity?user={external}",
                                    {"nickname": rng.choice(["민수", "지우", "Sam"]), "honorific": "반말"})
        else:
            status = client.request("PUT", f"/api/context/{character}/tools?user={external}",
                                    {"avoidTopics": [rng.choice(["정치", "전 애인", "다이어트"])]})
    ok = status in (200, 202)
    return kind, (time.perf_counter() - start) * 1000, 0 if ok else status


def worker_rss_mb(port: int) -> list[float]:
    """RSS of the gunicorn processes serving `port` (master and workers), from /proc."""
    sizes = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if "gunicorn" not in cmdline or f":{port}" not in cmdline:
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]) / 1024)
        except OSError:
            continue
    return sorted(sizes)


def run_step(rate: float, seconds: float, client: Client, scopes: Scopes, pool: ThreadPoolExecutor,
             seed: int) -> dict:
    """Send at `rate` requests/s for `seconds` (open loop); return latencies per kind and errors."""
    rng = random.Random(seed)
    kinds = [kind for kind, _ in MIX]
    weights = [weight for _, weight in MIX]
    futures = []
    start = time.perf_counter()
    count = int(rate * seconds)
    for index in range(count):
        due = start + index / rate
        delay = due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        kind = rng.choices(kinds, weights)[0]
        futures.append(pool.submit(one_request, kind, client, scopes, random.Random(rng.random())))
    results = [future.result() for future in futures]
    elapsed = time.perf_counter() - start
    by_kind: dict[str, list[float]] = defaultdict(list)
    errors: dict[int, int] = defaultdict(int)
    for kind, ms, error in results:
        by_kind[kind].append(ms)
        if error:
            errors[error] += 1
    return {"rate": rate, "sent": count, "achieved": count / elapsed, "by_kind": by_kind, "errors": dict(errors),
            "all": sorted(ms for _, ms, _ in results)}


def describe(values: list[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "n     0"
    return (f"n {len(ordered):5d}  p50 {percentile(ordered, 50):7.1f}  p95 {percentile(ordered, 95):7.1f}  "
            f"p99 {percentile(ordered, 99):7.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--rates", default="5,10,15,20,25,30,40,50", help="requests per second, rising")
    parser.add_argument("--step-seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=64, help="client threads (open loop: enough to never queue)")
    parser.add_argument("--target-ms", type=float, default=200.0)
    parser.add_argument("--stop-ms", type=float, default=500.0)
    parser.add_argument("--soak-seconds", type=float, default=0.0)
    parser.add_argument("--no-cluster", action="store_true", help="do not run the django-q2 cluster")
    parser.add_argument("--seed", type=int, default=20261126)
    args = parser.parse_args()

    rates = [float(rate) for rate in args.rates.split(",")]
    scopes = Scopes(args.users, args.seed)
    held = None
    with running_server(workers=args.workers, cluster=not args.no_cluster) as (base_url, token):
        port = urlparse(base_url).port
        client = Client(base_url, token)
        print(f"gunicorn {args.workers} workers{'' if args.no_cluster else ' + django-q2 cluster'}, "
              f"{args.users} users x {len(CHARACTERS)} characters, mix "
              + ", ".join(f"{kind} {weight:.0%}" for kind, weight in MIX) + f", {args.step_seconds:.0f} s per step")
        print(f"worker RSS at start: {', '.join(f'{mb:.0f}' for mb in worker_rss_mb(port))} MB")
        with ThreadPoolExecutor(max_workers=args.threads) as pool:
            for step, rate in enumerate(rates):
                result = run_step(rate, args.step_seconds, client, scopes, pool, args.seed + step)
                p95 = percentile(result["all"], 95)
                print(f"\nrate {rate:g}/s: sent {result['sent']}, achieved {result['achieved']:.1f}/s, "
                      f"errors {result['errors'] or 0}")
                for kind, values in sorted(result["by_kind"].items()):
                    print(f"  {kind:9s} {describe(values)}")
                print(f"  {'all':9s} {describe(result['all'])}")
                print(f"  worker RSS: {', '.join(f'{mb:.0f}' for mb in worker_rss_mb(port))} MB")
                if p95 <= args.target_ms and not result["errors"]:
                    held = rate
                if p95 > args.stop_ms or result["errors"]:
                    print(f"  stop: p95 {p95:.0f} ms" + (", errors" if result["errors"] else ""))
                    break
            if args.soak_seconds and held:
                print(f"\nsoak at {held:g}/s for {args.soak_seconds:.0f} s")
                remaining, minute = args.soak_seconds, 0
                while remaining >= 1.0:
                    result = run_step(held, min(60.0, remaining), client, scopes, pool, args.seed + 1000 + minute)
                    remaining -= 60.0
                    minute += 1
                    print(f"  minute {minute}: {describe(result['all'])}  errors {result['errors'] or 0}  "
                          f"worker RSS {', '.join(f'{mb:.0f}' for mb in worker_rss_mb(port))} MB")
    print(f"\nhighest rate with p95 <= {args.target_ms:.0f} ms and no errors: "
          + (f"{held:g} requests/s" if held else "none of the rates tried"))
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
