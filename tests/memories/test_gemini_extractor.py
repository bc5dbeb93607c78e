"""Gemini extraction, summaries and PII check through the real google-genai client and a fake endpoint.

The fake is an httpx2 MockTransport handed to the SDK (FakeGemini below, also used by
test_embeddings): every request is real SDK output, every reply goes through the SDK's parsing.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone

import httpx2
import pytest
from django.test import override_settings
from google.genai import types

from memories.extraction import gemini
from memories.extraction.base import ChatTurn, ExistingFact, ExtractedFact, ExtractionResult
from memories.extraction.factory import get_extractor, get_summarizer
from memories.extraction.gemini import GeminiExtractor, GeminiSummarizer, build_client, gemini_pii_check

MODEL = "gemini-2.5-flash"
KST = timezone(timedelta(hours=9))

Reply = httpx2.Response | Exception | Callable[[httpx2.Request], httpx2.Response]


def generate_reply(payload) -> httpx2.Response:
    """A generateContent reply whose text is `payload` (dumped to JSON unless already a string)."""
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return httpx2.Response(200, json={"candidates": [
        {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]})


def error_reply(code: int) -> httpx2.Response:
    status = {400: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE"}.get(code, "UNKNOWN")
    return httpx2.Response(code, json={"error": {"code": code, "message": "fake", "status": status}})


class FakeGemini:
    """Answer requests with `replies` in order (the last one repeats) and keep every request."""

    def __init__(self, *replies: Reply):
        self.replies = list(replies)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        reply = self.replies[min(len(self.requests), len(self.replies)) - 1]
        if isinstance(reply, Exception):
            raise reply
        return reply if isinstance(reply, httpx2.Response) else reply(request)

    @property
    def client(self):
        transport = httpx2.MockTransport(self)
        return build_client("test-key", types.HttpOptions(httpx_client=httpx2.Client(transport=transport)))

    @property
    def calls(self) -> int:
        return len(self.requests)

    def body(self, index: int = 0) -> dict:
        return json.loads(self.requests[index].content)


class RecordingFallback:
    name = "recording"

    def __init__(self):
        self.calls = []

    def extract(self, *, turns, existing):
        self.calls.append((turns, existing))
        return ExtractionResult(facts=[ExtractedFact(content="fallback fact")])


TURNS = [
    ChatTurn("m1", "user", "오늘 드디어 이사 끝났어", datetime(2026, 3, 4, 21, 10, tzinfo=KST)),
    ChatTurn("m2", "assistant", "고생했어! 어디로 이사했어?", datetime(2026, 3, 4, 21, 11, tzinfo=KST)),
    ChatTurn("m3", "user", "신촌! 그리고 어제 토익 봤어. 전 여친 얘기는 하지 마", datetime(2026, 3, 4, 21, 12, tzinfo=KST)),
]
EXISTING = [ExistingFact(subject="residence", value="노원", content="노원에 산다"),
            ExistingFact(subject="pet", value="고양이", content="고양이를 키운다")]

GOOD_REPLY = {
    "facts": [
        {"content": "신촌으로 이사함", "subject": "residence", "value": "신촌", "category": "location",
         "kind": "semantic", "importance": 7, "explicit": False, "source_message_id": "m3"},
        {"content": "2026-03-03에 토익 시험을 봄", "subject": "", "value": "", "category": "event",
         "kind": "episodic", "importance": 6, "explicit": False, "source_message_id": "m3",
         "emotion": "긴장", "emotion_intensity": 0.4, "event_date": "2026-03-03"},
    ],
    "avoid_topics": ["전 여자친구"],
    "special_dates": [{"date": "11-02", "description": "생일", "source_message_id": "m3"}],
    "identity": {"nickname": "민수", "honorific": "반말", "relationship_type": "", "custom_title": ""},
}


def _extractor(fake: FakeGemini, **kwargs) -> GeminiExtractor:
    kwargs.setdefault("fallback", RecordingFallback())
    return GeminiExtractor(client=fake.client, model=MODEL, base_delay=0, **kwargs)


def _prompt(fake: FakeGemini, index: int = 0) -> str:
    return fake.body(index)["contents"][0]["parts"][0]["text"]


# --------------------------------------------------------------------------- extraction request

def test_extraction_posts_to_generate_content_of_the_model():
    fake = FakeGemini(generate_reply(GOOD_REPLY))
    _extractor(fake).extract(turns=TURNS, existing=EXISTING)

    request = fake.requests[0]
    assert request.method == "POST"
    assert request.url.path.endswith(f"/models/{MODEL}:generateContent")
    assert request.headers["x-goog-api-key"] == "test-key" and "test-key" not in str(request.url)


def test_extraction_request_carries_instruction_and_schema():
    fake = FakeGemini(generate_reply(GOOD_REPLY))
    _extractor(fake).extract(turns=TURNS, existing=EXISTING)

    body = fake.body()
    instruction = body["systemInstruction"]["parts"][0]["text"]
    assert "Write every fact in the language the user wrote in" in instruction
    assert "기억해줘" in instruction and "avoid_topics" in instruction and "special_dates" in instruction
    for subject in ("residence", "birthday", "mbti", "favorite_<thing>"):
        assert subject in instruction
    config = body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    schema = config["responseSchema"]
    assert {"facts", "avoid_topics", "special_dates", "identity"} <= set(schema["properties"])
    fact_schema = schema["properties"]["facts"]["items"]
    assert "other" in fact_schema["properties"]["category"]["enum"]


def test_extraction_prompt_has_both_roles_with_times_and_the_known_facts():
    fake = FakeGemini(generate_reply(GOOD_REPLY))
    _extractor(fake).extract(turns=TURNS, existing=EXISTING)

    prompt = _prompt(fake)
    assert "[m1] 2026-03-04T21:10+09:00 Wed user: 오늘 드디어 이사 끝났어" in prompt
    assert "[m2] 2026-03-04T21:11+09:00 Wed assistant: 고생했어! 어디로 이사했어?" in prompt
    assert "user: 신촌! 그리고 어제 토익 봤어" in prompt
    assert "- residence: 노원" in prompt and "- pet: 고양이" in prompt
    assert prompt.index("노원") < prompt.index("[m1]")  # known facts come before the conversation


# --------------------------------------------------------------------------- parsing and clamping

def test_reply_becomes_extracted_facts_in_korean():
    fake = FakeGemini(generate_reply(GOOD_REPLY))
    result = _extractor(fake).extract(turns=TURNS, existing=EXISTING)

    moved, exam = result.facts
    assert moved == ExtractedFact(content="신촌으로 이사함", subject="residence", value="신촌", category="location",
                                  kind="semantic", is_identity=True, importance=7, source_message_id="m3")
    assert exam.content == "2026-03-03에 토익 시험을 봄"
    assert (exam.kind, exam.category, exam.is_identity) == ("episodic", "event", False)
    assert exam.event_date == date(2026, 3, 3)
    assert (exam.emotion, exam.emotion_intensity) == ("긴장", 0.4)
    assert result.avoid_topics == ["전 여자친구"]
    assert [(d.date, d.description, d.source_message_id) for d in result.special_dates] == [("11-02", "생일", "m3")]
    assert result.identity == {"nickname": "민수", "honorific": "반말"}


def test_out_of_range_values_are_clamped_and_unknown_ones_replaced():
    reply = {
        "facts": [
            {"content": "발 사이즈 270", "subject": "shoe_size", "value": "270", "category": "body",
             "kind": "physical", "importance": 15, "explicit": True, "source_message_id": "m99",
             "emotion_intensity": 2.5, "event_date": "어제"},
            {"content": "신촌에 산다", "subject": "Residence", "value": "신촌", "category": "preference",
             "kind": "semantic", "importance": -3, "explicit": False, "source_message_id": "m3"},
            {"content": "제일 좋아하는 음식은 떡볶이", "subject": "favorite_food", "value": "떡볶이",
             "category": "other", "kind": "semantic", "importance": 5, "explicit": False,
             "source_message_id": "m1", "is_identity": True},
        ],
        "avoid_topics": ["", "  전 여자친구 ", "전 여자친구"],
        "special_dates": [{"date": "13-45", "description": "이상한 날"}, {"date": "2027-02-29", "description": "없는 날"},
                          {"date": "02-29", "description": "윤일 생일"}],
        "identity": {"nickname": "", "honorific": "반존대", "relationship_type": "연인", "custom_title": ""},
    }
    result = _extractor(FakeGemini(generate_reply(reply))).extract(turns=TURNS, existing=EXISTING)

    shoe, residence, food = result.facts
    assert (shoe.subject, shoe.value, shoe.category, shoe.kind) == ("", "", "other", "semantic")
    assert (shoe.importance, shoe.emotion_intensity, shoe.event_date, shoe.source_message_id) == (10, 1.0, None, "")
    assert shoe.explicit is True
    # A known subject is normalised, and its own category wins over the model's.
    assert (residence.subject, residence.category, residence.importance, residence.is_identity) == \
        ("residence", "location", 1, True)
    # is_identity is ours to decide: favourites are not identity facts whatever the model says.
    assert (food.subject, food.category, food.is_identity) == ("favorite_food", "preference", False)
    assert result.avoid_topics == ["전 여자친구"]
    assert [d.date for d in result.special_dates] == ["02-29"]
    assert result.identity == {"relationshipType": "연인"}


def test_known_facts_repeated_by_the_model_are_dropped():
    reply = {**GOOD_REPLY, "facts": [
        {"content": "노원에 산다", "subject": "residence", "value": "노원", "category": "location", "kind": "semantic",
         "importance": 7, "explicit": False, "source_message_id": "m1"},
        {"content": "고양이를 키운다", "subject": "", "value": "", "category": "person", "kind": "semantic",
         "importance": 5, "explicit": False, "source_message_id": "m1"},
    ]}
    result = _extractor(FakeGemini(generate_reply(reply))).extract(turns=TURNS, existing=EXISTING)

    assert result.facts == []


def test_english_reply_stays_english():
    turns = [ChatTurn("e1", "user", "I just adopted a cat named Mochi, remember that!",
                      datetime(2026, 3, 4, 12, 0, tzinfo=timezone.utc))]
    reply = {"facts": [{"content": "Has a cat named Mochi", "subject": "pet", "value": "cat Mochi",
                        "category": "person", "kind": "semantic", "importance": 8, "explicit": True,
                        "source_message_id": "e1"}],
             "avoid_topics": [], "special_dates": [], "identity": {}}
    result = _extractor(FakeGemini(generate_reply(reply))).extract(turns=turns, existing=[])

    assert result.facts[0].content == "Has a cat named Mochi"
    assert (result.facts[0].explicit, result.facts[0].is_identity) == (True, True)


# --------------------------------------------------------------------------- retries and fallback

def test_two_outages_then_success_takes_three_calls():
    fake = FakeGemini(error_reply(503), error_reply(503), generate_reply(GOOD_REPLY))
    fallback = RecordingFallback()
    result = _extractor(fake, fallback=fallback).extract(turns=TURNS, existing=EXISTING)

    assert fake.calls == 3
    assert [f.subject for f in result.facts] == ["residence", ""]
    assert fallback.calls == []


def test_three_outages_fall_back_without_logging_content(caplog):
    fake = FakeGemini(error_reply(503))
    fallback = RecordingFallback()
    with caplog.at_level(logging.WARNING, logger="memories"):
        result = _extractor(fake, fallback=fallback).extract(turns=TURNS, existing=EXISTING)

    assert fake.calls == 3
    assert [f.content for f in result.facts] == ["fallback fact"]
    assert fallback.calls == [(TURNS, EXISTING)]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings and "ServerError 503" in warnings[0] and "recording" in warnings[0]
    assert not any(word in message for message in warnings for word in ("신촌", "토익", "노원"))


@pytest.mark.parametrize("failure", [
    pytest.param(error_reply(429), id="rate-limited"),
    pytest.param(httpx2.ConnectError("connection refused"), id="network"),
    pytest.param(generate_reply("{not json"), id="invalid-json"),
    pytest.param(generate_reply({"facts": "none"}), id="wrong-shape"),
])
def test_transient_failures_are_retried(failure):
    fake = FakeGemini(failure, generate_reply(GOOD_REPLY))
    fallback = RecordingFallback()
    result = _extractor(fake, fallback=fallback).extract(turns=TURNS, existing=EXISTING)

    assert fake.calls == 2
    assert result.facts[0].value == "신촌" and fallback.calls == []


def test_a_refused_request_is_not_retried():
    fake = FakeGemini(error_reply(400))
    fallback = RecordingFallback()
    result = _extractor(fake, fallback=fallback).extract(turns=TURNS, existing=EXISTING)

    assert fake.calls == 1
    assert len(fallback.calls) == 1 and result.facts[0].content == "fallback fact"


def test_backoff_doubles_between_attempts(monkeypatch):
    sleeps = []
    monkeypatch.setattr(gemini.time, "sleep", sleeps.append)  # the clock, not our code
    fake = FakeGemini(error_reply(503))
    GeminiExtractor(client=fake.client, model=MODEL, base_delay=0.5, fallback=RecordingFallback()).extract(
        turns=TURNS, existing=EXISTING)

    assert sleeps == [0.5, 1.0]  # no sleep after the last attempt


def test_default_fallback_is_the_local_extractor():
    pytest.importorskip("memories.extraction.local")
    fake = FakeGemini(error_reply(503))
    extractor = GeminiExtractor(client=fake.client, model=MODEL, base_delay=0)
    result = extractor.extract(turns=TURNS, existing=EXISTING)

    assert fake.calls == 3
    assert extractor.fallback.name == "local" and isinstance(result, ExtractionResult)


# --------------------------------------------------------------------------- summaries

SUMMARY_TURNS = [
    ChatTurn("s1", "user", "오늘 면접 붙었어!!", datetime(2026, 3, 4, 20, 0, tzinfo=KST)),
    ChatTurn("s2", "assistant", "축하해! 어떤 회사야?", datetime(2026, 3, 4, 20, 1, tzinfo=KST)),
    ChatTurn("s3", "user", "게임 회사야. 다음 달부터 출근해", datetime(2026, 3, 4, 20, 2, tzinfo=KST)),
]


def test_summary_is_parsed_from_the_structured_reply():
    fake = FakeGemini(generate_reply({"summary": "사용자가 게임 회사 면접에 합격해 다음 달부터 출근한다.",
                                      "topics": ["취업", "게임 회사"], "emotion": "기쁨", "importance": 8}))
    summary = GeminiSummarizer(client=fake.client, model=MODEL, base_delay=0).summarize(turns=SUMMARY_TURNS)

    assert summary.summary == "사용자가 게임 회사 면접에 합격해 다음 달부터 출근한다."
    assert (summary.topics, summary.emotion, summary.importance, summary.fallback) == \
        (["취업", "게임 회사"], "기쁨", 8, False)
    body = fake.body()
    assert "1-2 sentences" in body["systemInstruction"]["parts"][0]["text"]
    assert body["generationConfig"]["responseSchema"]["properties"]["emotion"]["enum"] == \
        ["기쁨", "슬픔", "스트레스", "평온", "흥분"]
    assert "assistant: 축하해! 어떤 회사야?" in _prompt(fake)


def test_summary_with_unknown_emotion_and_wild_importance_is_clamped():
    fake = FakeGemini(generate_reply({"summary": "면접 합격.", "topics": [], "emotion": "행복", "importance": 42}))
    summary = GeminiSummarizer(client=fake.client, model=MODEL, base_delay=0).summarize(turns=SUMMARY_TURNS)

    assert (summary.emotion, summary.importance) == ("평온", 10)


def test_summary_falls_back_to_the_raw_text_cut_at_500_chars():
    long_turns = SUMMARY_TURNS + [ChatTurn("s4", "user", "가" * 600, datetime(2026, 3, 4, 20, 3, tzinfo=KST))]
    fake = FakeGemini(error_reply(503))
    summary = GeminiSummarizer(client=fake.client, model=MODEL, base_delay=0).summarize(turns=long_turns)

    assert fake.calls == 3
    assert summary.fallback is True
    assert len(summary.summary) == 500
    assert summary.summary.startswith("user: 오늘 면접 붙었어!!\nassistant: 축하해! 어떤 회사야?\nuser: 게임 회사야.")
    assert (summary.importance, summary.emotion, summary.topics) == (5, "평온", [])


def test_an_empty_summary_is_retried():
    fake = FakeGemini(generate_reply({"summary": " ", "topics": [], "emotion": "평온", "importance": 3}),
                      generate_reply({"summary": "면접 합격.", "topics": [], "emotion": "기쁨", "importance": 7}))
    summary = GeminiSummarizer(client=fake.client, model=MODEL, base_delay=0).summarize(turns=SUMMARY_TURNS)

    assert fake.calls == 2 and summary.summary == "면접 합격."


# --------------------------------------------------------------------------- PII check

PII_TEXT = "택배는 서울 노원구 동일로 1234, 101동 1203호로 보내줘. 여권번호는 M12345678이야"


def test_pii_check_returns_only_substrings_present_longest_first():
    fake = FakeGemini(generate_reply({"items": [
        {"text": "M12345678", "kind": "passport"},
        {"text": "서울 노원구 동일로 1234, 101동 1203호", "kind": "address"},
        {"text": "서울시 노원구 동일로 1234", "kind": "address"},  # reworded: not in the text
        {"text": "***", "kind": "mask"},
        {"text": "M12345678", "kind": "passport"},
    ]}))
    spans = gemini_pii_check(fake.client, PII_TEXT, model=MODEL, base_delay=0)

    assert spans == ["서울 노원구 동일로 1234, 101동 1203호", "M12345678"]
    body = fake.body()
    assert body["contents"][0]["parts"][0]["text"] == PII_TEXT
    assert "passport" in body["systemInstruction"]["parts"][0]["text"]


def test_pii_check_returns_nothing_when_gemini_fails():
    fake = FakeGemini(error_reply(503))

    assert gemini_pii_check(fake.client, PII_TEXT, model=MODEL, base_delay=0) == []
    assert fake.calls == 3


# --------------------------------------------------------------------------- choosing an implementation

@override_settings(GEMINI_API_KEY="test-key")
def test_factory_picks_gemini_when_a_key_is_set():
    assert isinstance(get_extractor(), GeminiExtractor)
    assert isinstance(get_summarizer(), GeminiSummarizer)


@override_settings(GEMINI_API_KEY="")
def test_factory_picks_local_without_a_key():
    pytest.importorskip("memories.extraction.local")
    assert get_extractor().name == "local"
    assert get_summarizer().name == "local"


# --------------------------------------------------------------------------- the character's side

def test_the_characters_own_words_come_from_the_rules_and_the_models_facts_stay_the_users():
    turns = TURNS + [ChatTurn("m4", "assistant", "신촌 좋지! 이번 주말에 동네 맛집 리스트 보내줄게",
                              datetime(2026, 3, 4, 21, 13, tzinfo=KST))]
    fake = FakeGemini(generate_reply(GOOD_REPLY))
    result = _extractor(fake).extract(turns=turns, existing=EXISTING)

    character = [f for f in result.facts if f.speaker == "character"]
    assert [(f.content, f.category, f.source_message_id, f.subject) for f in character] == [
        ("신촌 좋지! 이번 주말에 동네 맛집 리스트 보내줄게", "promise", "m4", "")]
    assert [f.content for f in result.facts if f.speaker == "user"] == ["신촌으로 이사함", "2026-03-03에 토익 시험을 봄"]
