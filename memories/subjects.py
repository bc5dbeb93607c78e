"""Subject keys of structured facts (seed 003 §16 P1/P3): identity vs moment is decided by subject.

The adapter to the subject registry (memories/extraction/registry.py, one row per subject) for code
outside extraction: same names as before, categories as MemoryCategory members. A fact about a subject in
IDENTITY_SUBJECTS is an identity fact: always injected, never sliced away. SINGLE_VALUED subjects hold one
current value: a new value supersedes the old one. CHANGEABLE_SUBJECT_WORDS: the words by which a raw
message talks about a changeable subject (memories.truth leaves older such messages out).
"""
from .categories import MemoryCategory
from .extraction import registry
from .extraction.registry import (  # noqa: F401  (re-exported)
    CHANGEABLE_SUBJECT_WORDS,
    IDENTITY_SUBJECTS,
    SINGLE_VALUED_SUBJECTS,
    is_identity_subject,
    is_single_valued,
    told_words,
)

SUBJECT_CATEGORIES = {subject: MemoryCategory(category) for subject, category in registry.SUBJECT_CATEGORIES.items()}


def category_for_subject(subject: str, default: str = MemoryCategory.OTHER) -> str:
    category = registry.category_for_subject(subject, default="")
    return MemoryCategory(category) if category else default
