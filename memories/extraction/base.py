"""The extraction interface: chat turns in, structured facts, episodes and behaviour rules out.

Two implementations: `local.LocalExtractor` (offline, deterministic, the default) and
`gemini.GeminiExtractor` (google-genai, when GEMINI_API_KEY is set). `get_extractor()` picks one.
Input text is already PII-masked; extractors must keep the user's language in what they return.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Protocol


@dataclass(frozen=True)
class ChatTurn:
    message_id: str
    role: str  # "user" | "assistant"
    content: str  # PII-masked
    created_at: datetime  # timezone-aware


@dataclass(frozen=True)
class ExistingFact:
    subject: str
    value: str
    content: str


@dataclass(frozen=True)
class ExtractedFact:
    """One memory to write. `subject` is a key of the subject registry (registry.py) ('' for a plain episode)."""

    content: str  # a short sentence in the user's language, e.g. "생일은 11월 2일"
    subject: str = ""
    value: str = ""
    category: str = "other"  # memories.categories.MemoryCategory value
    kind: str = "semantic"  # semantic | episodic | emotional
    is_identity: bool = False
    importance: int = 5  # 1..10
    emotion: str = ""
    emotion_intensity: float = 0.0  # 0..1
    explicit: bool = False  # the user asked to remember it ("기억해줘", "remember that")
    source_message_id: str = ""
    event_date: date | None = None  # the resolved date of a dated event ("어제" → 2026-03-03)
    # Who said it: "user" (a fact or episode about the user) or "character" (the character's own words,
    # extraction.character_side; never a fact about the user, never a subject key).
    speaker: str = "user"
    # Words of earlier values this message says no longer hold (extraction.corrections): older memories that
    # mention one stop being true. `content` itself never repeats them.
    replaces: tuple[str, ...] = ()
    # How sure the extractor is that it holds (None: the writer's default). A supposition or a joke is kept at
    # UNREAL_CONFIDENCE: the user can see it, the prompt never states it (retrieval injects from 0.5 up).
    confidence: float | None = None


UNREAL_CONFIDENCE = 0.3


@dataclass(frozen=True)
class SpecialDate:
    date: str  # "MM-DD" (yearly) or "YYYY-MM-DD" (one-off)
    description: str
    source_message_id: str = ""


@dataclass
class ExtractionResult:
    facts: list[ExtractedFact] = field(default_factory=list)
    avoid_topics: list[str] = field(default_factory=list)  # tools.avoidTopics ("전 여친 얘기 하지 마")
    special_dates: list[SpecialDate] = field(default_factory=list)  # tools.specialDates
    identity: dict = field(default_factory=dict)  # inferred identity doc fields (nickname, honorific, ...)


class Extractor(Protocol):
    name: str

    def extract(self, *, turns: list[ChatTurn], existing: list[ExistingFact]) -> ExtractionResult:
        """Extract from `turns` (oldest first; user and assistant turns together).

        Facts about the user come from user turns; the assistant turn before a user turn gives context
        ("키가 몇이야?" → "178!" is the user's height). Assistant turns yield only the character's own
        statements (`speaker="character"`, extraction.character_side). `existing` lets an extractor skip known facts
        and notice corrections.
        """
        ...


SUMMARY_EMOTIONS = ("기쁨", "슬픔", "스트레스", "평온", "흥분")  # seed 001 §2.1.2


@dataclass(frozen=True)
class ConversationSummary:
    """Seed 001 §2.1.2 shape. `summary` is 1-2 sentences in the conversation's language."""

    summary: str
    topics: list[str]
    emotion: str  # one of SUMMARY_EMOTIONS
    importance: int  # 1..10
    fallback: bool = False  # True when the LLM failed and the raw text (<= 500 chars) was kept


class Summarizer(Protocol):
    name: str

    def summarize(self, *, turns: list[ChatTurn]) -> ConversationSummary:
        ...
