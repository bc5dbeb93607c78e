"""A fact found in one message before it becomes an ExtractedFact, and how its content sentence reads.

The content is "<label>: <value>" in the user's language ("사는 곳: 신촌", "Hometown: Busan"): the value
stays verbatim, the label names the subject (from its registry row), so the line reads well in a prompt block
(seed 003 §16 P1).
"""
from __future__ import annotations

from dataclasses import dataclass

from .registry import label_for


@dataclass(frozen=True)
class Candidate:
    subject: str
    value: str
    request: bool = False  # the user asked to be called this (nickname) — feeds the identity layer
    label: str = ""  # overrides the subject's label ("좋아하는 향수" for a subject-less preference)


def render_content(candidate: Candidate, korean: bool) -> str:
    """Return the short sentence stored as the fact's content ("사는 곳: 신촌")."""
    return f"{candidate.label or label_for(candidate.subject, korean)}: {candidate.value}"
