"""p50/p95/p99 of `GET /api/context/chunsim` over N sequential HTTP requests.

Usage (via `make bench`, which provides the embedded PostgreSQL):
    python bench/context_get_latency.py [--requests 1000] [--base-url URL --token TOKEN --user demo-user]
Without --base-url it migrates, loads the demo data and starts its own gunicorn on a free port.
The client keeps one HTTP/1.1 connection open, as a chat backend would.
"""
from __future__ import annotations

import argparse
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server() -> tuple[subprocess.Popen, str, str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local", "DJANGO_DEBUG": "false"}
    run = lambda *args: subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,  # noqa: E731
                                       check=True, capture_output=True, text=True).stdout
    run("migrate", "--noinput", "-v", "0")
    token = re.search(r"system token : (\S+)", run("load_demo")).group(1)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "2", "--log-level", "warning"], cwd=ROOT, env=env)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return server, f"http://127.0.0.1:{port}", token


def percentile(sorted_values: list[float], pct: float) -> float:
    index = min(len(sorted_values) - 1, max(0, round(pct / 100 * len(sorted_values)) - 1))
    return sorted_values[index]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--base-url")
    parser.add_argument("--token")
    parser.add_argument("--user", default="demo-user")
    args = parser.parse_args()

    server = None
    base_url, token = args.base_url, args.token
    if not base_url:
        server, base_url, token = start_server()
    try:
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
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
