"""Server-side latency of `POST /api/context/chunsim/prompt` in big scopes of a big table.

Usage (via `make bench`, after bench/make_memory_data.py filled the same database):
    python bench/prompt_latency.py [--requests 300] [--budget 1100] [--workers 2]

Starts gunicorn (bench/server.running_server, no django-q2 cluster while measuring), warms both
workers up, then for each measured scope (bench-scope-1k, bench-scope-10k) sends --requests sequential
prompt requests with varied Korean and English messages over one HTTP/1.1 connection (reopened by
http.client if the server closes it). Reports, per scope:
- server side: the `Server-Timing: app;dur=` header of core.middleware.RequestTimingMiddleware
  (everything inside Django: middleware, auth, embedding the message, SQL, rendering);
- round trip as the client sees it (adds gunicorn, the socket and JSON parsing);
- tokens of the block (mean/max) and memory items chosen, non-200 responses and `fresh: false`;
- the SQL statements of one request (counted in this process with CaptureQueriesContext).
Targets (issue): server-side p95 <= 20 ms at 1,000 items, <= 60 ms at 10,000, in a 1,000,000-row table.

It starts with VACUUM (ANALYZE) of the memory table: the usage-count tasks an earlier run drained left
dead versions of exactly the measured rows, which autovacuum would take long to clean at this size.

The prompt path processes a scope's pending messages inline; the measured scopes must have none, so
the numbers are the read path only. This is checked before and after (no message, no memory added).
Afterwards a short qcluster run drains the usage-count tasks the requests queued.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from urllib.parse import urlparse

from server import ENV, ROOT, percentile, running_server, server_phases

sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

SCOPES = {"bench-scope-1k": 20.0, "bench-scope-10k": 60.0}  # scope user -> server-side p95 target (ms)
CHARACTER = "chunsim"

MESSAGES = [
    "내 생일 언제라고 했는지 기억나?", "나 키 몇이라고 했지?", "우리 집 고양이 이름 뭐였더라", "나 요즘 어디 산다고 했지?",
    "오늘 회사에서 팀장님한테 또 혼났어 ㅠㅠ", "주말에 친구 지수랑 한강 가기로 했어", "떡볶이 먹고 싶다 오늘 저녁 뭐 먹지",
    "요즘 잠이 너무 안 와", "토익 시험 일주일 남았는데 너무 불안해", "나 알레르기 있는 거 기억하지?",
    "내가 제일 좋아하는 가수 누군지 알아?", "어제 면접 보고 왔는데 떨어진 것 같아", "엄마랑 또 싸웠어",
    "오늘 헬스장에서 데드 100 찍었다!", "퇴근길 지하철 너무 힘들다", "인생 영화 다시 보고 싶은데 추천해줘",
    "내 MBTI 뭐였는지 기억나?", "요즘 만나는 사람 생겼어", "다음 주에 부산 여행 가", "나 이번에 이직 성공했어!!",
    "고향 친구들이 보고 싶어", "비 오니까 기분이 좀 그래", "오늘 카페에서 공부하다가 졸았어", "나 전공 뭐였는지 말했었나?",
    "새로 산 필름 카메라로 사진 찍었어", "룸메이트가 너무 시끄러워", "다이어트 3일째인데 치킨 먹고 싶어",
    "내 동생 얘기 했었지?", "생일 선물로 뭐 받고 싶냐면...", "오늘 진짜 아무것도 하기 싫다", "요가 처음 해봤는데 어렵더라",
    "우리 처음 얘기했을 때 기억나?", "오늘 날씨 좋다 산책 갈까", "야근 끝나고 이제 집 가는 중", "잘 자 내일 봐",
    "What was my cat's name again?", "Do you remember where I work?", "I had a terrible day at the office.",
    "My birthday is coming up, any ideas?", "I finally finished my thesis draft!", "I can't sleep, talk to me?",
    "What's my favorite food?", "I went hiking with Kevin last weekend.",
    "I'm nervous about the driving test tomorrow.",
    "Remember the movie I told you about?", "Should I adopt another cat?", "안녕! 오늘 하루 어땠어?",
    "나 요즘 기타 배우는 중이야", "친구 생일 파티 다녀왔어 재밌었어",
]


def django_setup():
    import django

    django.setup()


def scope_state(username: str) -> dict:
    from conversations.models import Message
    from memories.models import MemoryItem

    filters = {"user__username": username, "character_id": CHARACTER}
    return {
        "pending": Message.objects.filter(processed_at__isnull=True, **filters).count(),
        "messages": Message.objects.filter(**filters).count(),
        "memories": MemoryItem.objects.filter(**filters).count(),
        "live": MemoryItem.objects.filter(is_active=True, archived_at__isnull=True, **filters).count(),
    }


def table_rows() -> int:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM memories_memoryitem")
        return cur.fetchone()[0]


def queries_per_request(token: str, username: str, budget: int) -> int:
    """SQL statements of one prompt request, run in this process (django.test.Client) against the same database."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {token}")
    path = f"/api/context/{CHARACTER}/prompt?user={username}"
    body = {"message": MESSAGES[0], "budgetTokens": budget}
    client.post(path, body, content_type="application/json")  # loads the models in this process
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path, body, content_type="application/json")
    assert response.status_code == 200, response.status_code
    return len(queries)


def vacuum_memories() -> None:
    """Start from a vacuumed table: the usage-count tasks drained after an earlier run left dead row versions
    of exactly the measured scopes' most used items (autovacuum waits for 20% of 1,000,000 rows)."""
    from server import maintenance_cursor

    with maintenance_cursor() as cur:
        cur.execute("SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'memories_memoryitem'")
        dead = cur.fetchone()[0]
        start = time.perf_counter()
        cur.execute("VACUUM (ANALYZE) memories_memoryitem")
    print(f"VACUUM (ANALYZE) memories_memoryitem: {dead:,} dead row versions, {time.perf_counter() - start:.1f} s")


def post_prompt(conn, path: str, headers: dict, message: str, budget: int) -> tuple[int, float, float, dict]:
    body = json.dumps({"message": message, "budgetTokens": budget})
    start = time.perf_counter()
    conn.request("POST", path, body, headers)
    response = conn.getresponse()
    raw = response.read()
    round_trip = (time.perf_counter() - start) * 1000
    phases = server_phases(response.getheader("Server-Timing", ""))
    server = phases.pop("app", float("nan"))
    pack = json.loads(raw) if response.status == 200 else {}
    if response.status == 200:
        pack["_phases"] = phases
    return response.status, server, round_trip, pack


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"p50 {percentile(ordered, 50):6.2f}  p95 {percentile(ordered, 95):6.2f}  "
            f"p99 {percentile(ordered, 99):6.2f}  max {ordered[-1]:6.2f}  mean {statistics.fmean(ordered):6.2f} ms")


def drain_queue(timeout: float = 180.0) -> None:
    """Run a qcluster until the queued usage-count tasks are done (they would slow the next bench)."""
    from django_q.models import OrmQ

    queued = OrmQ.objects.count()
    if not queued:
        return
    start = time.perf_counter()
    cluster = subprocess.Popen([sys.executable, "manage.py", "qcluster"], cwd=ROOT, env=ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while OrmQ.objects.count() and time.perf_counter() - start < timeout:
            time.sleep(0.5)
    finally:
        cluster.terminate()
        cluster.wait(timeout=30)
    print(f"drained {queued} queued usage tasks in {time.perf_counter() - start:.1f} s "
          f"({OrmQ.objects.count()} left)")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--budget", type=int, default=1100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=40, help="requests per scope before measuring")
    parser.add_argument("--dump", help="write each request's scope, message, server and round trip ms and tokens "
                                       "as JSON lines to this file")
    parser.add_argument("--scope", action="append", choices=list(SCOPES), help="measure only this scope (repeatable)")
    args = parser.parse_args()
    scopes = {name: SCOPES[name] for name in (args.scope or SCOPES)}

    django_setup()
    before = {name: scope_state(name) for name in scopes}
    for name, state in before.items():
        if not state["memories"]:
            print(f"scope {name} has no memories: run bench/make_memory_data.py first")
            return 2
        if state["pending"]:
            print(f"scope {name} has {state['pending']} pending messages: the prompt path would extract inline")
            return 2
    vacuum_memories()
    rows = table_rows()
    print(f"memories_memoryitem: {rows:,} rows; measured scopes (character {CHARACTER}):")
    for name, state in before.items():
        print(f"  {name}: {state['memories']:,} items ({state['live']:,} live), {state['messages']:,} processed "
              f"messages, {state['pending']} pending")

    failures = 0
    verdicts = []
    dump = open(args.dump, "w") if args.dump else None
    with running_server(workers=args.workers) as (base_url, token):
        url = urlparse(base_url)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        for name in scopes:  # warm-up: model load and caches in both workers, both scopes
            path = f"/api/context/{CHARACTER}/prompt?user={name}"
            for index in range(args.warmup):
                post_prompt(conn, path, headers, MESSAGES[index % len(MESSAGES)], args.budget)
        for name, target in scopes.items():
            path = f"/api/context/{CHARACTER}/prompt?user={name}"
            server_ms, trip_ms, tokens, items, stale, non_200 = [], [], [], [], 0, 0
            phase_ms: dict[str, list[float]] = {}
            for index in range(args.requests):
                status, server, trip, pack = post_prompt(conn, path, headers, MESSAGES[index % len(MESSAGES)],
                                                         args.budget)
                if status != 200:
                    non_200 += 1
                    continue
                server_ms.append(server)
                trip_ms.append(trip)
                if dump:
                    dump.write(json.dumps({"scope": name, "message": MESSAGES[index % len(MESSAGES)], "server": server,
                                           "trip": trip, "tokens": pack["tokens"]}, ensure_ascii=False) + "\n")
                for phase, ms in pack["_phases"].items():
                    phase_ms.setdefault(phase, []).append(ms)
                tokens.append(pack["tokens"])
                items.append(len(pack["layers"]["memory"].get("items", [])))
                stale += not pack["fresh"]
            failures += non_200
            print(f"\nPOST {path} (budget {args.budget}): {args.requests} sequential requests, {non_200} non-200, "
                  f"{stale} not fresh")
            if not server_ms:
                continue
            p95 = percentile(sorted(server_ms), 95)
            print(f"  server side : {summary(server_ms)}")
            print(f"  round trip  : {summary(trip_ms)}")
            print("  phases (mean ms, core.timing): " + "  ".join(
                f"{phase} {statistics.fmean(values):.2f}" for phase, values in phase_ms.items()))
            print(f"  tokens      : mean {statistics.fmean(tokens):.0f}  max {max(tokens)} (budget {args.budget}); "
                  f"memory items per block: mean {statistics.fmean(items):.1f}")
            verdicts.append(f"{name}: {queries_per_request(token, name, args.budget)} SQL statements per request")
            verdicts.append(f"{name}: server-side p95 {p95:.2f} ms, target <= {target:.0f} ms: "
                            f"{'met' if p95 <= target else 'MISSED'}")
        conn.close()
    if dump:
        dump.close()

    after = {name: scope_state(name) for name in scopes}
    for name in scopes:
        unchanged = all(after[name][key] == before[name][key] for key in ("pending", "messages", "memories"))
        print(f"{name}: {after[name]['pending']} pending after the run; messages and memories "
              f"{'unchanged (no extraction work)' if unchanged else 'CHANGED'}")
    print(f"\ntable: {rows:,} memory items")
    for verdict in verdicts:
        print(verdict)
    drain_queue()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
