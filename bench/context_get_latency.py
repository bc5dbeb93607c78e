"""p50/p95/p99 of `GET /api/context/chunsim` over N sequential HTTP requests.

Usage (via `make bench`, which provides the embedded PostgreSQL):
    python bench/context_get_latency.py [--requests 1000] [--base-url URL --token TOKEN --user demo-user]
Without --base-url it migrates, loads the demo data and starts its own gunicorn on a free port.
The client keeps one HTTP/1.1 connection open, as a chat backend would.
"""
from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import time
from contextlib import nullcontext
from urllib.parse import urlparse

from server import percentile, running_server


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--base-url")
    parser.add_argument("--token")
    parser.add_argument("--user", default="demo-user")
    args = parser.parse_args()

    with (nullcontext((args.base_url, args.token)) if args.base_url else running_server()) as (base_url, token):
        url = urlparse(base_url)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
        path = f"/api/context/chunsim?user={args.user}"
        headers = {"Authorization": f"Bearer {token}"}
        for _ in range(20):  # warm-up: connections, caches
            conn.request("GET", path, headers=headers)
            conn.getresponse().read()
        timings, failures = [], 0
        for _ in range(args.requests):
            start = time.perf_counter()
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            timings.append((time.perf_counter() - start) * 1000)
            failures += response.status != 200
        timings.sort()
        print(f"GET {path}: {args.requests} sequential requests, {failures} non-200")
        print(f"p50 {percentile(timings, 50):.2f} ms  p95 {percentile(timings, 95):.2f} ms  "
              f"p99 {percentile(timings, 99):.2f} ms  mean {statistics.fmean(timings):.2f} ms  max {timings[-1]:.2f} ms")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
