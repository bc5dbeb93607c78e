"""Every write path × every kind of personal data: none survives in the database, the prompt block, the
export or any list.

Each test writes one statement of every kind (card, RRN, phone, account, password, e-mail, SSN, SIN)
through one path — the public APIs, the operator console, the chat pipeline with an LLM that repeats what
it was told — each statement in its own string, then reads everything back: every text column of every
row of the apps holding user data (decrypted), POST prompt, POST export, GET memory list, GET context,
GET conversation and GET /api/v1/memory/load. For each kind the raw value (as written, and as bare
digits) must be nowhere, and its masked form somewhere, so a path that silently stored nothing cannot
pass. (One test per path rather than per path and kind: the reads are the cost, and one set of reads
checks all eight kinds.)
"""
from __future__ import annotations

import hashlib
import json
import threading
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
from django.apps import apps
from django.db import models
from django.test import Client, override_settings

from accounts.models import Plan, UserPlan
from audit.services import AuditContext
from context_layers.models import UserContext
from context_layers.services import layer_put
from conversations.models import Conversation
from memories.extraction.gemini import EXTRACTION_INSTRUCTION, PII_INSTRUCTION, SUMMARY_INSTRUCTION
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")
Q = "?user=alice"

# kind: (how a user states it, the raw forms that must never come back, the masked form that must)
PII = {
    "card": ("카드 4111 1111 1111 1111", ["4111 1111 1111 1111", "4111111111111111"], "**** **** **** ****"),
    "rrn": ("주민번호 900101-1234567", ["900101-1234567", "9001011234567"], "******-*******"),
    "phone": ("폰 010-4821-7753", ["010-4821-7753", "01048217753"], "***-****-****"),
    "account": ("신한 110-123-456789", ["110-123-456789", "110123456789"], "***-***-******"),
    "password": ("비번은 Tr0ub4dor&3", ["Tr0ub4dor&3"], "********"),
    "email": ("메일 minji.kim@example.com", ["minji.kim@example.com"], "***@***"),
    "ssn": ("SSN 078-05-1120", ["078-05-1120", "078051120"], "***-**-****"),
    "sin": ("my SIN's 527 813 646", ["527 813 646", "527813646"], "*** *** ***"),
}
TODAY = date.today().strftime("%m-%d")  # a special date today is always in the block


# --------------------------------------------------------------------------- a stub Gemini (the LLM path)

def _vector(text: str) -> list[float]:
    values = np.random.default_rng(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")) \
        .standard_normal(512)
    return (values / np.linalg.norm(values)).tolist()


class LlmThatRepeats:
    """A generateContent/batchEmbedContents endpoint whose extraction and summary repeat `secrets` verbatim
    (an LLM may un-mask, or be told the values another way): the pipeline must mask what it stores."""

    secrets: list[str] = []

    def reply(self, path: str, body: dict) -> dict:
        if path.endswith(":batchEmbedContents"):
            return {"embeddings": [{"values": _vector(r["content"]["parts"][0]["text"])} for r in body["requests"]]}
        instruction = body.get("systemInstruction", {}).get("parts", [{}])[0].get("text", "")
        secrets = self.secrets
        payload = {
            PII_INSTRUCTION: {"items": []},
            EXTRACTION_INSTRUCTION: {
                "facts": [{"content": f"목표: {secrets[0]}", "subject": "goal", "value": secrets[0], "category": "goal",
                           "kind": "semantic", "importance": 9, "explicit": True, "source_message_id": "m1"}]
                + [{"content": f"기억해 달라고 함: {secret}", "subject": "", "value": "", "category": "event",
                    "kind": "episodic", "importance": 8, "explicit": True, "source_message_id": "m1"}
                   for secret in secrets],
                "avoid_topics": secrets,
                "special_dates": [{"date": TODAY, "description": secret, "source_message_id": "m1"}
                                  for secret in secrets],
                "identity": {"nickname": secrets[0], "honorific": "", "relationship_type": "", "custom_title": ""},
            },
            SUMMARY_INSTRUCTION: {"summary": "요약: " + " / ".join(secrets), "topics": secrets, "emotion": "기쁨",
                                  "importance": 7},
        }[instruction]
        text = json.dumps(payload, ensure_ascii=False)
        return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]}


@pytest.fixture(scope="module")
def llm():
    stub = LlmThatRepeats()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            data = json.dumps(stub.reply(self.path.split("?", 1)[0], body), ensure_ascii=False).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    stub.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    yield stub
    server.shutdown()
    server.server_close()


# --------------------------------------------------------------------------- the write paths

def _ok(response, status=200):
    assert response.status_code == status, response.content
    return response


def _operator(charlie) -> Client:
    client = Client()
    client.force_login(charlie)
    return client


def write_memory_content(env, texts):
    for text in texts:
        _ok(env.system.post(f"/api/context/chunsim/memory{Q}", {"content": f"{text} 기억해", "importance": 9,
                                                                  "category": "personal_info"}, format="json"), 201)


def write_memory_subject_value(env, texts):
    for index, text in enumerate(texts):
        _ok(env.system.post(f"/api/context/chunsim/memory{Q}", {"content": f"목표 {index}", "subjectKey": "goal",
                                                                  "subjectValue": text, "category": "goal",
                                                                  "importance": 9}, format="json"), 201)


def write_identity(env, texts):
    for text in texts:  # one at a time: the nickname holds one
        _ok(env.alice.put("/api/context/chunsim/identity", {"nickname": text, "inferredTraits": texts},
                          format="json"))


def write_soul(env, texts):
    _ok(env.system.put(f"/api/context/chunsim/soul{Q}", {"values": texts, "dreams": texts, "summary": texts[-1]},
                       format="json"))


def write_tools(env, texts):
    _ok(env.system.put(f"/api/context/chunsim/tools{Q}", {
        "avoidTopics": texts, "specialDates": [{"date": TODAY, "description": text} for text in texts],
        "customRules": [{"condition": text, "action": "조심하기"} for text in texts]}, format="json"))


def write_heartbeat(env, texts):
    _ok(env.system.put(f"/api/context/chunsim/heartbeat{Q}", {"emotionTrend": texts[0], "lastEmotionKeywords": texts},
                       format="json"))


def write_chat_messages(env, texts):
    _ok(env.system.post(f"/api/context/chunsim/messages{Q}", {"conversationId": "c1", "messages": [
        {"id": f"m{index}", "role": "user", "content": f"{text} 기억해줘",
         "createdAt": f"2026-03-01T21:00:{index:02d}+09:00"} for index, text in enumerate(texts)]},
        format="json"), 202)


def write_admin_memory(env, texts):
    operator = _operator(env.charlie)
    for text in texts:
        item, _ = memory_create(user=env.user, character=env.chunsim, context=CONTEXT,
                                data=MemoryInput(content=f"목표 {text[:2]}", subject_key="goal", subject_value="토익",
                                                 category="goal", importance=9))
        form = {"user": item.user_id, "character": item.character_id, "content": f"{text} 기억해",
                "category": item.category, "kind": item.kind, "subject_key": item.subject_key,
                "subject_value": text, "importance": item.importance, "confidence": item.confidence,
                "strength": item.strength, "emotion": "", "emotion_intensity": 0, "source": item.source,
                "source_conversation_id": "", "source_message_id": "", "expires_at_0": "", "expires_at_1": "",
                "archived_at_0": "", "archived_at_1": "", "is_active": "on", "_save": "Save"}
        _ok(operator.post(f"/admin/memories/memoryitem/{item.pk}/change/", form), 302)


def write_admin_layers(env, texts):
    layer_put(user=env.user, character=env.chunsim, layer="tools", context=CONTEXT, document={})
    context = UserContext.objects.get(user=env.user, character=env.chunsim)
    form = {"user": env.user.pk, "character": "chunsim",
            "identity": json.dumps({"userSet": {"nickname": texts[0], "inferredTraits": texts}}, ensure_ascii=False),
            "soul": json.dumps({"dreams": texts}, ensure_ascii=False),
            "tools": json.dumps({"specialDates": [{"date": TODAY, "description": text} for text in texts]},
                                ensure_ascii=False),
            "heartbeat": json.dumps({"emotionTrend": texts[0], "lastEmotionKeywords": texts}, ensure_ascii=False),
            "_save": "Save"}
    _ok(_operator(env.charlie).post(f"/admin/context_layers/usercontext/{context.pk}/change/", form), 302)


def write_pipeline_with_llm(env, texts):
    env.llm.secrets = texts
    with override_settings(GEMINI_API_KEY="test-key", GEMINI_BASE_URL=env.llm.base_url, GEMINI_RETRY_BASE_DELAY=0):
        with env.on_commit(execute=True):
            _ok(env.system.post(f"/api/context/chunsim/messages{Q}", {"conversationId": "c1", "messages": [
                {"id": "m1", "role": "user", "content": "내 목표 기억해줘", "createdAt": "2026-03-01T21:00:00+09:00"}]},
                format="json"), 202)
        with env.on_commit(execute=True):  # the summary (and the soul refresh from it)
            _ok(env.system.post(f"/api/context/chunsim/conversations/c1/end{Q}"), 202)
    assert Conversation.objects.get(external_id="c1").summaries.exists()


WRITE_PATHS = {
    "POST memory content": write_memory_content,
    "POST memory subjectValue": write_memory_subject_value,
    "PUT identity": write_identity,
    "PUT soul": write_soul,
    "PUT tools": write_tools,
    "PUT heartbeat": write_heartbeat,
    "POST messages": write_chat_messages,
    "admin memory edit": write_admin_memory,
    "admin layers edit": write_admin_layers,
    "pipeline with an LLM": write_pipeline_with_llm,
}


# --------------------------------------------------------------------------- what is read back

USER_DATA_APPS = ("memories", "context_layers", "conversations", "audit")


def stored_text() -> str:
    """Every text and JSON value of every row of the apps holding user data, decrypted."""
    chunks = []
    for app in USER_DATA_APPS:
        for model in apps.get_app_config(app).get_models():
            names = [f.attname for f in model._meta.concrete_fields
                     if isinstance(f, (models.CharField, models.TextField, models.JSONField))
                     or f.get_internal_type() == "TextField"]
            for row in model._base_manager.values_list(*names):
                chunks.append(json.dumps(row, ensure_ascii=False, default=str))
    return "\n".join(chunks)


def read_everything(env) -> dict[str, str]:
    """What every read path gives back to the chat backend (and the user)."""
    def text(response):
        return json.dumps(_ok(response).json(), ensure_ascii=False)

    reads = {
        "prompt": text(env.system.post(f"/api/context/chunsim/prompt{Q}", {"message": "내 목표랑 연락처 기억나?"},
                                       format="json")),
        "export": text(env.system.post(f"/api/context/chunsim/export{Q}")),
        "memory list": text(env.system.get(f"/api/context/chunsim/memory{Q}&includeArchived=true&limit=200")),
        "context": text(env.system.get(f"/api/context/chunsim{Q}")),
        "v1 load": text(env.system.get(f"/api/v1/memory/load?personaId=chunsim&limit=50&user=alice")),
    }
    if Conversation.objects.filter(external_id="c1").exists():
        reads["conversation"] = text(env.system.get(f"/api/context/chunsim/conversations/c1{Q}"))
    return reads


class Env:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


@pytest.fixture
def env(system_client, alice_client, alice, charlie, chunsim, llm, django_capture_on_commit_callbacks):
    UserPlan.objects.filter(user=alice).update(plan=Plan.PREMIUM)  # soul and detailed heartbeat are shown
    return Env(system=system_client, alice=alice_client, user=alice, charlie=charlie, chunsim=chunsim, llm=llm,
               on_commit=django_capture_on_commit_callbacks)


@pytest.mark.parametrize("path", WRITE_PATHS)
def test_no_personal_data_of_any_kind_survives_the_write_path(env, path):
    WRITE_PATHS[path](env, [statement for statement, _, _ in PII.values()])

    places = {"database": stored_text(), **read_everything(env)}
    found = []
    for kind, (_, raw_forms, masked) in PII.items():
        found += [f"{kind} came back raw from {place}" for place, text in places.items()
                  for raw in raw_forms if raw in text]
        if masked not in places["database"]:
            found.append(f"nothing was stored for {kind}")
        elif not any(masked in text for place, text in places.items() if place != "database"):
            found.append(f"no read path shows the masked {kind}, so the reads prove nothing")
    assert not found, f"{path}: " + "; ".join(found)
