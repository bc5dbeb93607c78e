"""One memory taxonomy for the categories of seeds 000, 002 and 004.

| ours          | seed 000 (memory)     | seed 002 (SemanticCategory) | seed 004 (memory_category) |
|---------------|-----------------------|-----------------------------|----------------------------|
| personal_info | -                     | PERSONAL_INFO               | context (job, family, ...) |
| preference    | preference            | PREFERENCE                  | preference                 |
| person        | person                | -                           | context (people)           |
| event         | event                 | EVENT                       | -                          |
| worry         | worry                 | -                           | -                          |
| relationship  | -                     | RELATIONSHIP                | -                          |
| goal          | -                     | GOAL                        | -                          |
| habit         | -                     | HABIT                       | behavior                   |
| opinion       | -                     | OPINION                     | -                          |
| location      | -                     | -                           | location                   |
| other         | etc.                  | OTHER                       | -                          |
| promise       | -                     | (§5 v2: 약속/합의)          | -                          |

Seed 004's `feedback` ("remember this") is not a topic but a provenance: it maps to
`source = explicit` with the topic category of what was said.

What the character itself said (seed 002 §5 v2) is a provenance too: `source = character`; its
commitments get the `promise` category, everything else it said `other`.
"""
from django.db import models


class MemoryCategory(models.TextChoices):
    PERSONAL_INFO = "personal_info"
    PREFERENCE = "preference"
    PERSON = "person"
    EVENT = "event"
    WORRY = "worry"
    RELATIONSHIP = "relationship"
    GOAL = "goal"
    HABIT = "habit"
    OPINION = "opinion"
    LOCATION = "location"
    OTHER = "other"
    PROMISE = "promise"  # something the character committed to (source = character)


# Seed 002 §3.1: mutable state injected as the `[현재 상태(캐논)]` block.
STATE_CATEGORIES = frozenset({
    MemoryCategory.RELATIONSHIP, MemoryCategory.GOAL, MemoryCategory.EVENT,
    MemoryCategory.HABIT, MemoryCategory.OPINION,
})

SEED_CATEGORY_MAP = {
    # seed 000
    "preference": MemoryCategory.PREFERENCE, "event": MemoryCategory.EVENT,
    "person": MemoryCategory.PERSON, "worry": MemoryCategory.WORRY,
    # seed 002
    "PERSONAL_INFO": MemoryCategory.PERSONAL_INFO, "PREFERENCE": MemoryCategory.PREFERENCE,
    "RELATIONSHIP": MemoryCategory.RELATIONSHIP, "GOAL": MemoryCategory.GOAL, "EVENT": MemoryCategory.EVENT,
    "HABIT": MemoryCategory.HABIT, "OPINION": MemoryCategory.OPINION, "OTHER": MemoryCategory.OTHER,
    # seed 004
    "location": MemoryCategory.LOCATION, "behavior": MemoryCategory.HABIT, "context": MemoryCategory.PERSONAL_INFO,
}


class MemoryKind(models.TextChoices):
    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    EMOTIONAL = "emotional"


class MemorySource(models.TextChoices):
    EXPLICIT = "explicit"
    INFERRED = "inferred"
    SYSTEM = "system"
    CHARACTER = "character"  # the character's own words (an assistant turn), never a fact about the user


# Seed 004's five categories (its API and settings) in ours: what each one covers. Its "feedback" ("remember this")
# is a provenance here (source = explicit, stored under the topic's category); as an allow-list entry it stands for
# what fits no topic (other), so every one of the five selects something and the mapping round-trips.
SEED_004_CATEGORIES: dict[str, tuple[str, ...]] = {
    "location": (MemoryCategory.LOCATION,),
    "preference": (MemoryCategory.PREFERENCE,),
    "behavior": (MemoryCategory.HABIT,),
    "context": (MemoryCategory.PERSONAL_INFO, MemoryCategory.PERSON, MemoryCategory.RELATIONSHIP, MemoryCategory.EVENT,
                MemoryCategory.WORRY, MemoryCategory.GOAL, MemoryCategory.OPINION, MemoryCategory.PROMISE),
    "feedback": (MemoryCategory.OTHER,),
}


def seed_004_category(category: str, source: str) -> str:
    """Seed 004's name for one of our memories: feedback for what the user asked to keep, else by category."""
    if source == MemorySource.EXPLICIT:
        return "feedback"
    return next((name for name, ours in SEED_004_CATEGORIES.items() if category in ours), "context")


def from_seed_004_categories(names) -> list[str]:
    """Our allowed categories for seed 004's allowed list (none, or all five, allow everything)."""
    if not names or set(names) >= set(SEED_004_CATEGORIES):
        return []
    return sorted({category for name in names for category in SEED_004_CATEGORIES[name]})


def to_seed_004_categories(allowed) -> list[str]:
    """Seed 004's names for our allowed categories (empty: every category, so all five)."""
    if not allowed:
        return list(SEED_004_CATEGORIES)
    return [name for name, ours in SEED_004_CATEGORIES.items() if set(ours) <= set(allowed)]
