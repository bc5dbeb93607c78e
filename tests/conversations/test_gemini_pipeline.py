"""The chat pipeline end to end with Gemini on: the real google-genai client talks HTTP to a local stub.

Nothing of ours is patched: GEMINI_API_KEY switches the factory to Gemini, GEMINI_BASE_URL points the
SDK at a ThreadingHTTPServer on 127.0.0.1 that answers generateContent (PII check, extraction, summary;
told apart by the system instruction) and batchEmbedContents, and records every request body.
"""
from __future__ import annotations

import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
from django.test import override_settings

from context_layers.models import UserContext
from conversations.models import Conversation, Message
from memories.embeddings import GeminiEmbedder, LocalEmbedder
from memories.extraction.gemini import EXTRACTION_INSTRUCTION, PII_INSTRUCTION, SUMMARY_INSTRUCTION
from memories.models import MemoryItem

URL = "/api/context/chunsim/messages?user=alice"
END_URL = "/api/context/chunsim/conversations/c1/end?user=alice"

PHONE = "010-4821-7753"
ADDRESS = "마포구 한강뷰빌라 삼층 파란 대문집"  # no house number: the regex pass cannot see it
MESSAGES = [
    {"id": "m1", "role": "user", "createdAt": "2026-03-01T21:00:00+09:00",
     "content": f"나 고향은 부산이야. 요즘은 {ADDRESS}에 살고 번호는 {PHONE} 이야"},
    {"id": "m2", "role": "assistant", "createdAt": "2026-03-01T21:00:05+09:00",
     "content": "부산 사람이구나! 생일은 언제야?"},
    {"id": "m3", "role": "user", "createdAt": "2026-03-01T21:01:00+09:00",
     "content": "11월 2일이야 기억해줘. 그리고 전 여친 얘기는 하지 마"},
]

EXTRACTION_REPLY = {
    "facts": [
        {"content": "고향은 부산", "subject": "hometown", "value": "부산", "category": "location",
         "kind": "semantic", "importance": 7, "explicit": False, "source_message_id": "m1"},
        {"content": "생일은 11월 2일", "subject": "birthday", "value": "11월 2일", "category": "personal_info",
         "kind": "semantic", "importance": 9, "explicit": True, "source_message_id": "m3"},
    ],
    "avoid_topics": ["전 여자친구"],
    "special_dates": [{"date": "11-02", "description": "생일", "source_message_id": "m3"}],
    "identity": {"nickname": "", "honorific": "", "relationship_type": "", "custom_title": ""},
}
SUMMARY_REPLY = {"summary": "부산 출신 사용자가 11월 2일 생일을 알려 주며 기억해 달라고 했다.",
                 "topics": ["고향", "생일"], "emotion": "기쁨", "importance": 7}
EMBEDDING_DIMENSIONS = 512

KINDS = {PII_INSTRUCTION: "pii", EXTRACTION_INSTRUCTION: "extraction", SUMMARY_INSTRUCTION: "summary"}
GENERATE = re.compile(r"/models/(?P<model>[^/:]+):generateContent$")
EMBED = re.compile(r"/models/gemini-embedding-001:batchEmbedContents$")


def vector_for(text: str) -> list[float]:
    """A deterministic unit vector from the text's hash (distinct texts are near-orthogonal)."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    values = np.random.default_rng(seed).standard_normal(EMBEDDING_DIMENSIONS)
    return (values / np.linalg.norm(values)).tolist()


class StubGemini:
    """What the stub server answers, and every request it got: (kind, path, headers, body)."""

    def __init__(self):
        self.requests: list[tuple[str, str, dict, dict]] = []
        self.lock = threading.Lock()
        self.fail_generate = False  # answer every generateContent with 503
        self.extraction_replies: list[dict] = []  # answered in turn before EXTRACTION_REPLY
        self.base_url = ""

    # -- what the test reads

    def bodies(self, kind: str) -> list[dict]:
        with self.lock:
            return [body for k, _, _, body in self.requests if k == kind]

    def prompts(self, kind: str) -> list[str]:
        return [body["contents"][0]["parts"][0]["text"] for body in self.bodies(kind)]

    @property
    def kinds(self) -> list[str]:
        with self.lock:
            return [k for k, _, _, _ in self.requests]

    # -- what the server does

    def answer(self, path: str, headers: dict, body: dict) -> tuple[int, dict]:
        if EMBED.search(path):
            with self.lock:
                self.requests.append(("embed", path, headers, body))
            texts = [item["content"]["parts"][0]["text"] for item in body["requests"]]
            return 200, {"embeddings": [{"values": vector_for(text)} for text in texts]}
        if GENERATE.search(path):
            instruction = body.get("systemInstruction", {}).get("parts", [{}])[0].get("text", "")
            kind = KINDS.get(instruction, "unknown-generate")
            with self.lock:
                self.requests.append((kind, path, headers, body))
            if self.fail_generate:
                return 503, {"error": {"code": 503, "message": "stub outage", "status": "UNAVAILABLE"}}
            prompt = body["contents"][0]["parts"][0]["text"]
            if kind == "pii":
                payload = {"items": [{"text": ADDRESS, "kind": "address"}] if ADDRESS in prompt else []}
            elif kind == "extraction":
                with self.lock:
                    payload = self.extraction_replies.pop(0) if self.extraction_replies else EXTRACTION_REPLY
            elif kind == "summary":
                payload = SUMMARY_REPLY
            else:
                return 400, {"error": {"code": 400, "message": "unknown instruction", "status": "INVALID_ARGUMENT"}}
            text = json.dumps(payload, ensure_ascii=False)
            return 200, {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                         "finishReason": "STOP"}]}
        with self.lock:
            self.requests.append(("unknown", path, headers, body))
        return 404, {"error": {"code": 404, "message": f"no route {path}", "status": "NOT_FOUND"}}


def _handler(stub: StubGemini):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"_raw": raw.decode("utf-8", "replace")}
            status, payload = stub.answer(self.path.split("?", 1)[0], dict(self.headers), body)
            data = json.dumps(payload, ensure_ascii=False).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format, *args):  # keep test output clean
            pass

    return Handler


@pytest.fixture
def stub():
    """A stub Gemini endpoint on 127.0.0.1:<free port>, served from a thread for the test's duration."""
    gemini = StubGemini()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(gemini))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="stub-gemini", daemon=True)
    thread.start()
    gemini.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield gemini
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def gemini_on(stub):
    with override_settings(GEMINI_API_KEY="test-key", GEMINI_BASE_URL=stub.base_url, GEMINI_RETRY_BASE_DELAY=0):
        yield stub


@pytest.fixture
def post(system_client, django_capture_on_commit_callbacks):
    """POST and run what the view enqueues on commit (the test transaction never commits)."""
    def _post(url, body=None):
        with django_capture_on_commit_callbacks(execute=True):
            return system_client.post(url, body, format="json") if body is not None else system_client.post(url)
    return _post


def _chat(post):
    response = post(URL, {"conversationId": "c1", "messages": MESSAGES})
    assert response.status_code == 202, response.content
    assert response.json()["accepted"] == 3
    assert Message.objects.filter(processed_at__isnull=True).count() == 0  # nothing left behind
    return response


def _memories(alice, chunsim):
    return MemoryItem.objects.filter(user=alice, character=chunsim, is_active=True)


# --------------------------------------------------------------------------- Gemini answers

def test_pipeline_with_gemini(gemini_on, post, system_client, alice, chunsim):
    stub = gemini_on
    _chat(post)

    # Every request went to our stub, through the SDK, with the key in a header and not in the URL.
    assert stub.kinds and "unknown" not in stub.kinds and "unknown-generate" not in stub.kinds
    for _, path, headers, _ in stub.requests:
        assert path.startswith("/v1") or path.startswith("/v1beta"), path
        assert {k.lower(): v for k, v in headers.items()}.get("x-goog-api-key") == "test-key"
        assert "test-key" not in path

    # Stored text: the regex masked the phone at ingestion, Gemini's PII check the address afterwards.
    m1 = Message.objects.get(external_id="m1")
    assert "4821" not in m1.content and "7753" not in m1.content
    assert ADDRESS not in m1.content and "한강뷰빌라" not in m1.content
    assert "부산" in m1.content
    assert {"phone", "llm"} <= set(m1.pii_kinds)
    # The PII check sees each user message once, already regex-masked; assistant turns are not checked.
    pii_prompts = stub.prompts("pii")
    assert len(pii_prompts) == 2 and PHONE not in "".join(pii_prompts)
    assert any(ADDRESS in prompt for prompt in pii_prompts)
    assert not any("부산 사람이구나" in prompt for prompt in pii_prompts)

    # Extraction: one request, after the PII check, with both roles and neither the phone nor the address.
    assert stub.kinds.index("extraction") > max(i for i, k in enumerate(stub.kinds) if k == "pii")
    (extraction_prompt,) = stub.prompts("extraction")
    assert "user: 나 고향은 부산이야" in extraction_prompt
    assert "assistant: 부산 사람이구나! 생일은 언제야?" in extraction_prompt
    assert "user: 11월 2일이야 기억해줘" in extraction_prompt
    assert PHONE not in extraction_prompt and "4821" not in extraction_prompt
    assert ADDRESS not in extraction_prompt and "한강뷰빌라" not in extraction_prompt
    schema = stub.bodies("extraction")[0]["generationConfig"]["responseSchema"]
    assert {"facts", "avoid_topics", "special_dates", "identity"} <= set(schema["properties"])

    # The memories are the stub's facts, embedded by the stub at 512 dimensions.
    facts = {(m.subject_key, m.subject_value) for m in _memories(alice, chunsim)}
    assert {("hometown", "부산"), ("birthday", "11월 2일")} <= facts
    assert set(_memories(alice, chunsim).values_list("embedding_model", flat=True)) == {GeminiEmbedder.model_name}
    embedded = [item["content"]["parts"][0]["text"] for body in stub.bodies("embed") for item in body["requests"]]
    assert "고향은 부산" in embedded and "생일은 11월 2일" in embedded
    assert all(item["outputDimensionality"] == EMBEDDING_DIMENSIONS
               for body in stub.bodies("embed") for item in body["requests"])
    hometown = _memories(alice, chunsim).get(subject_key="hometown")
    assert np.allclose(np.asarray(hometown.embedding, dtype=float), vector_for("고향은 부산"), atol=1e-5)

    # Rules from the stub's reply reach the tools layer.
    tools = UserContext.objects.get(user=alice, character=chunsim).tools
    assert "전 여자친구" in tools["avoidTopics"]
    assert any(d["date"] == "11-02" and d["description"] == "생일" for d in tools["specialDates"])

    # Ending the conversation stores the stub's summary (made from the masked text).
    response = post(END_URL)
    assert response.status_code == 202, response.content
    summary = Conversation.objects.get(external_id="c1").summaries.get()
    assert (summary.summary, summary.fallback, summary.summarizer) == (SUMMARY_REPLY["summary"], False, "gemini")
    assert (summary.emotion, summary.importance, list(summary.topics)) == ("기쁨", 7, ["고향", "생일"])
    (summary_prompt,) = stub.prompts("summary")
    assert "assistant: 부산 사람이구나!" in summary_prompt
    assert PHONE not in summary_prompt and ADDRESS not in summary_prompt
    assert SUMMARY_REPLY["summary"] in [m.content for m in _memories(alice, chunsim)]  # content is encrypted

    body = system_client.get("/api/context/chunsim/conversations/c1?user=alice").json()
    assert body["status"] == "ended" and body["summaries"][0]["summary"] == SUMMARY_REPLY["summary"]
    assert not any(ADDRESS in m["content"] or "4821" in m["content"] for m in body["messages"])


def _fact(content, subject, value, message_id, category="location"):
    return {"content": content, "subject": subject, "value": value, "category": category, "kind": "semantic",
            "importance": 7, "explicit": False, "source_message_id": message_id}


def test_a_correction_through_gemini_never_leaves_the_old_value(gemini_on, post, system_client, alice, chunsim):
    stub = gemini_on
    empty = {**EXTRACTION_REPLY, "facts": [], "avoid_topics": [], "special_dates": []}
    stub.extraction_replies = [
        {**empty, "facts": [_fact("사는 곳: 해운대", "residence", "해운대", "r1"),
                            _fact("해운대 바다 보면서 출근함", "", "", "r1", category="other")]},
        {**empty, "facts": [_fact("해운대에서 광안리로 이사함", "residence", "광안리", "r2"),
                            _fact("예전 동네 해운대", "previous_residence", "해운대", "r2")]},
    ]
    for message_id, text, at in (("r1", "나 해운대 살아 바다 보면서 출근함", "2026-03-01T21:00:00+09:00"),
                                 ("r2", "나 이제 해운대 안 살아 ㅋㅋ 광안리로 이사 끝냄", "2026-03-05T21:00:00+09:00")):
        response = post(URL, {"conversationId": "c1", "messages": [
            {"id": message_id, "role": "user", "content": text, "createdAt": at}]})
        assert response.status_code == 202, response.content

    live = [(m.subject_key, m.subject_value, m.content) for m in _memories(alice, chunsim)]
    assert ("residence", "광안리", "사는 곳: 광안리") in live
    assert not any("해운대" in f"{value} {content}" for _, value, content in live)
    block = system_client.post("/api/context/chunsim/prompt?user=alice", {"message": "나 어디 살지?"},
                               format="json").json()["text"]
    assert "광안리" in block and "해운대" not in block


# --------------------------------------------------------------------------- Gemini down

def test_gemini_outage_falls_back_without_losing_anything(gemini_on, post, system_client, alice, chunsim):
    stub = gemini_on
    stub.fail_generate = True
    _chat(post)

    # Each generateContent call was tried three times: two PII checks, then the extraction.
    assert stub.kinds.count("pii") == 6 and stub.kinds.count("extraction") == 3
    # The PII check gave up: only the regex masking applies (the phone), the address stays.
    m1 = Message.objects.get(external_id="m1")
    assert "4821" not in m1.content and "phone" in m1.pii_kinds and "llm" not in m1.pii_kinds
    assert ADDRESS in m1.content

    # The local extractor took over: the hometown comes from the plain Korean sentence.
    facts = {(m.subject_key, m.subject_value) for m in _memories(alice, chunsim)}
    assert ("hometown", "부산") in facts
    # Embeddings still worked (only generateContent is down).
    assert set(_memories(alice, chunsim).values_list("embedding_model", flat=True)) == {GeminiEmbedder.model_name}

    response = post(END_URL)
    assert response.status_code == 202, response.content
    assert stub.kinds.count("summary") == 3
    summary = Conversation.objects.get(external_id="c1").summaries.get()
    assert summary.fallback is True
    assert summary.summary.startswith("user: 나 고향은 부산이야")
    assert "assistant: 부산 사람이구나! 생일은 언제야?" in summary.summary
    assert "4821" not in summary.summary

    response = system_client.get("/api/context/chunsim/conversations/c1?user=alice")
    assert response.status_code == 200
    assert response.json()["status"] == "ended" and len(response.json()["summaries"]) == 1


# --------------------------------------------------------------------------- Gemini off

def test_without_a_key_nothing_is_sent(stub, post, alice, chunsim):
    with override_settings(GEMINI_API_KEY="", GEMINI_BASE_URL=stub.base_url, GEMINI_RETRY_BASE_DELAY=0):
        _chat(post)
        assert post(END_URL).status_code == 202

    assert stub.requests == []
    assert ("hometown", "부산") in {(m.subject_key, m.subject_value) for m in _memories(alice, chunsim)}
    assert set(_memories(alice, chunsim).values_list("embedding_model", flat=True)) == {LocalEmbedder.model_name}
    summary = Conversation.objects.get(external_id="c1").summaries.get()
    assert summary.summarizer == "local"
