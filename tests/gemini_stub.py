"""A local Gemini endpoint that can be healthy, down (503) or hanging, for the real google-genai client.

Used with GEMINI_BASE_URL (like tests/conversations/test_gemini_pipeline.py): nothing of ours is
patched, the SDK sends real requests to a ThreadingHTTPServer on 127.0.0.1. `embed` and `generate`
choose how each endpoint behaves: "ok", "down" (503 UNAVAILABLE) or "hang" (no answer until the
test ends). A hanging request is released when the fixture stops the server.
"""
from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
from django.test import override_settings

from memories.extraction.gemini import EXTRACTION_INSTRUCTION, PII_INSTRUCTION, SUMMARY_INSTRUCTION

DIMENSIONS = 512
GENERATE = re.compile(r"/models/[^/:]+:generateContent$")
EMBED = re.compile(r"/models/gemini-embedding-001:batchEmbedContents$")
KINDS = {PII_INSTRUCTION: "pii", EXTRACTION_INSTRUCTION: "extraction", SUMMARY_INSTRUCTION: "summary"}
EMPTY_EXTRACTION = {"facts": [], "avoid_topics": [], "special_dates": [],
                    "identity": {"nickname": "", "honorific": "", "relationship_type": "", "custom_title": ""}}
SUMMARY = {"summary": "요약", "topics": [], "emotion": "평온", "importance": 5}


def vector_for(text: str) -> list[float]:
    """The stub's embedding of a text: a deterministic unit vector from its hash."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    values = np.random.default_rng(seed).standard_normal(DIMENSIONS)
    return (values / np.linalg.norm(values)).tolist()


class StubGemini:
    def __init__(self):
        self.embed = "ok"
        self.generate = "ok"
        self.extraction = EMPTY_EXTRACTION  # the extraction reply
        self.refused_texts: set[str] = set()  # a batch holding one of these gets 400 INVALID_ARGUMENT
        self.requests: list[str] = []  # "embed" / "pii" / "extraction" / "summary", in order
        self.released = threading.Event()  # set when the test ends: hanging requests return
        self.lock = threading.Lock()
        self.base_url = ""

    def count(self, kind: str) -> int:
        with self.lock:
            return self.requests.count(kind)

    def answer(self, path: str, body: dict) -> tuple[int, dict]:
        if EMBED.search(path):
            kind, mode = "embed", self.embed
        elif GENERATE.search(path):
            instruction = body.get("systemInstruction", {}).get("parts", [{}])[0].get("text", "")
            kind, mode = KINDS.get(instruction, "unknown"), self.generate
        else:
            return 404, {"error": {"code": 404, "message": "no route", "status": "NOT_FOUND"}}
        with self.lock:
            self.requests.append(kind)
        if mode == "hang":
            self.released.wait(timeout=30)
        if mode in ("down", "hang"):
            return 503, {"error": {"code": 503, "message": "stub outage", "status": "UNAVAILABLE"}}
        if kind == "embed":
            texts = [item["content"]["parts"][0]["text"] for item in body["requests"]]
            if self.refused_texts & set(texts):
                return 400, {"error": {"code": 400, "message": "refused", "status": "INVALID_ARGUMENT"}}
            return 200, {"embeddings": [{"values": vector_for(text)} for text in texts]}
        payload = {"pii": {"items": []}, "extraction": self.extraction, "summary": SUMMARY}.get(kind)
        if payload is None:
            return 400, {"error": {"code": 400, "message": "unknown instruction", "status": "INVALID_ARGUMENT"}}
        text = json.dumps(payload, ensure_ascii=False)
        return 200, {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]}


def _handler(stub: StubGemini):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}") if length else {}
            status, payload = stub.answer(self.path.split("?", 1)[0], body)
            data = json.dumps(payload, ensure_ascii=False).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=UTF-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:  # the client gave up on a hanging request
                pass

        def log_message(self, format, *args):  # keep test output clean
            pass

    return Handler


@contextmanager
def running_stub() -> Iterator[StubGemini]:
    """The stub on 127.0.0.1:<free port>; the settings point the real client at it (no retry backoff)."""
    stub = StubGemini()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stub))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="stub-gemini", daemon=True)
    thread.start()
    stub.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with override_settings(GEMINI_API_KEY="test-key", GEMINI_BASE_URL=stub.base_url, GEMINI_RETRY_BASE_DELAY=0):
            yield stub
    finally:
        stub.released.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
