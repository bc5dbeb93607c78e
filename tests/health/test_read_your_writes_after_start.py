"""Read-your-writes from the first request of a just-started service (issue 7 item 15).

A real gunicorn (--preload, as `make run`) and a real `manage.py qcluster` (ORM broker, not sync mode)
run as subprocesses on the test database, on 127.0.0.1 only. The conversation is replayed the moment
the cluster's worker process exists and is still loading its models — when, before the fix, it took
the queued jobs, loaded kiwipiepy and the sentence encoder while holding the scope's lock, and the
prompts waited FRESHNESS_WAIT_MS and came back `fresh: false` without the facts just told.
/readyz says 503 until the worker is warm, then 200.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from accounts.models import TokenKind
from accounts.services import api_token_create, end_user_get_or_create
from context_layers.demo import load_characters
from health.models import WorkerHeartbeat

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 90  # a busy 2-core machine loads the models slowly; an idle one needs ~5 s

# (user turn, assistant turn, question, the fact the prompt must contain); no question: no prompt
REPLAY = [
    ("안녕! 오늘 좀 피곤하다", "오늘 하루 힘들었구나", None, None),
    ("나 고향은 부산이야", "오 부산 좋지!", "내 고향이 어디라고 했지?", "부산"),
    ("요즘 날씨가 너무 춥네", "따뜻하게 입어", None, None),
    ("나는 간호사로 일해", "간호사라니 멋지다", "내 직업 뭐라고 했지?", "간호사"),
    ("어제 친구랑 영화 봤어", "무슨 영화 봤어?", None, None),
    ("키는 178이야", "키 크다!", "내 키 몇이라고 했지?", "178"),
    ("우리 강아지 이름은 초코야", "초코 귀엽겠다", "우리 강아지 이름 기억나?", "초코"),
    ("주말에 등산 갈까 해", "좋은 생각이야", None, None),
    ("나 오이 알레르기 있어", "조심해야겠다", "나 무슨 알레르기 있다고 했지?", "오이"),
    ("오늘은 여기까지 할게", "잘 자!", "나에 대해 기억나는 거 말해줘", None),
]
FACTS = ["부산", "간호사", "178", "초코", "오이"]


def _database_url() -> str:
    """The test database, for the subprocesses (Unix socket or TCP, as the suite connects)."""
    s = connection.settings_dict
    auth = quote(s["USER"] or "", safe="") + (f":{quote(s['PASSWORD'], safe='')}" if s["PASSWORD"] else "")
    host, port, name = s["HOST"] or "", str(s["PORT"] or ""), s["NAME"]
    if host.startswith("/"):  # django-environ's socket form: postgres://user@//socket/dir/name
        return f"postgres://{auth}@/{host}/{name}" + (f"?port={port}" if port else "")
    return f"postgres://{auth}@{host}{':' + port if port else ''}/{name}"


class Service:
    """The subprocesses, their logs, and a small JSON client."""

    def __init__(self, tmp_path: Path, token: str):
        self.tmp_path, self.token = tmp_path, token
        self.env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local", "DATABASE_URL": _database_url(),
                    "DJANGO_DEBUG": "false", "GEMINI_API_KEY": "", "REDIS_URL": "", "Q_WORKERS": "1",
                    "GIEOK_WARM_UP": "1", "OPENBLAS_NUM_THREADS": "1", "LOG_LEVEL": "INFO"}
        self.processes: dict[str, subprocess.Popen] = {}
        self.base_url = ""

    def start(self, name: str, *args: str) -> None:
        log = open(self.tmp_path / f"{name}.log", "wb")
        self.processes[name] = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=self.env, stdout=log,
                                                stderr=subprocess.STDOUT, start_new_session=True)
        log.close()

    def log(self, name: str) -> str:
        return (self.tmp_path / f"{name}.log").read_text(errors="replace")

    def wait_for_log(self, name: str, pattern: str) -> re.Match:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            match = re.search(pattern, self.log(name))
            if match:
                return match
            assert self.processes[name].poll() is None, f"{name} exited:\n{self.log(name)[-3000:]}"
            time.sleep(0.05)
        raise AssertionError(f"{name}: no {pattern!r} within {START_TIMEOUT_S} s:\n{self.log(name)[-3000:]}")

    def stop(self) -> None:
        """SIGTERM to each server (they stop their own children), then SIGKILL whatever is left of its group."""
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)  # our own process group only (start_new_session)
            except ProcessLookupError:
                pass
            process.wait(timeout=5)

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


@pytest.fixture
def service(tmp_path):
    load_characters()
    end_user_get_or_create(external_id="alice")
    _, token = api_token_create(name="chat-backend", kind=TokenKind.SERVICE)
    running = Service(tmp_path, token)
    try:
        yield running
    finally:
        running.stop()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_just_started_service_reflects_every_fact_told(service):
    # The web server first: alive, its models loaded, but no cluster yet → not ready.
    service.start("gunicorn", "-m", "gunicorn", "config.wsgi:application", "--bind", "127.0.0.1:0", "--preload",
                  "--workers", "1", "--no-control-socket")
    port = service.wait_for_log("gunicorn", r"Listening at: http://127\.0\.0\.1:(\d+)").group(1)
    service.base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            if service.request("GET", "/healthz") == (200, {"status": "ok"}):
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, service.log("gunicorn")[-3000:]
        time.sleep(0.1)
    status, body = service.request("GET", "/readyz")
    assert (status, body["failed"], body["checks"]["models"]) == (503, ["cluster"], "ok"), body

    # The cluster: replay as soon as its worker process exists, while it is still cold.
    service.start("qcluster", "manage.py", "qcluster")
    worker_pid = int(service.wait_for_log("qcluster", r"ready for work at (\d+)").group(1))
    status, body = service.request("GET", "/readyz")
    assert status == 503 and body["failed"] == ["cluster"], body

    at = datetime(2026, 3, 1, 21, 0, tzinfo=timezone(timedelta(hours=9)))
    missing, slow = [], []
    for turn, (said, answered, question, fact) in enumerate(REPLAY):
        messages = [{"id": f"t{turn}u", "role": "user", "content": said, "createdAt": at.isoformat()},
                    {"id": f"t{turn}a", "role": "assistant", "content": answered,
                     "createdAt": (at + timedelta(seconds=5)).isoformat()}]
        at += timedelta(minutes=1)
        status, body = service.request("POST", "/api/context/chunsim/messages?user=alice",
                                       {"conversationId": "c1", "messages": messages})
        assert status == 202, body
        if question is None:
            time.sleep(0.3)  # nobody asks: the cluster is free to take this turn's job
            continue
        started = time.monotonic()
        status, block = service.request("POST", "/api/context/chunsim/prompt?user=alice", {"message": question})
        assert status == 200, block
        if not block["fresh"]:
            slow.append((turn, round(time.monotonic() - started, 2)))
        expected = [fact] if fact else FACTS
        missing += [(turn, value) for value in expected if value not in block["text"]]
        time.sleep(0.2)

    assert (missing, slow) == ([], []), f"missing facts {missing}; not fresh {slow}\n{service.log('qcluster')[-3000:]}"

    # Ready once the worker has loaded its models and reported.
    deadline = time.monotonic() + START_TIMEOUT_S
    while (status := service.request("GET", "/readyz")[0]) != 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert status == 200, service.log("qcluster")[-3000:]
    assert service.request("GET", "/readyz")[1]["checks"] == {"database": "ok", "models": "ok", "cluster": "ok"}
    assert WorkerHeartbeat.objects.filter(pid=worker_pid).exists()
