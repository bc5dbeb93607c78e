"""Subject keys of structured facts (seed 003 §16 P1/P3): identity vs moment is decided by subject.

A fact `{subject, value}` about a subject in IDENTITY_SUBJECTS is an identity fact: always injected,
never sliced away. SINGLE_VALUED subjects hold one current value: a new value supersedes the old one
(the correction hook of seed 003 §3). Other subjects may hold several values (two hobbies, two pets).
"""
from .categories import MemoryCategory

IDENTITY_SUBJECTS = frozenset({
    "name", "nickname", "age", "birthday", "gender", "occupation", "major", "school", "school_year", "mbti",
    "hometown", "residence", "blood_type", "height", "weight", "family", "sibling", "pet", "allergy", "phobia",
    "handedness", "religion", "dating_status", "relationship_status", "dream_job", "health_condition",
    "language", "nationality", "tattoo", "smoking",
    "diet",  # vegetarian, halal, ...: like an allergy, the character must never forget it
})

SINGLE_VALUED_SUBJECTS = frozenset({
    "name", "nickname", "age", "birthday", "gender", "occupation", "major", "school", "school_year", "mbti",
    "hometown", "residence", "blood_type", "height", "weight", "family", "handedness", "religion",
    "dating_status", "relationship_status", "dream_job", "part_time_job", "workplace", "favorite_food",
    "favorite_season", "favorite_color", "favorite_movie", "favorite_artist", "favorite_song", "favorite_book",
    "favorite_game", "best_friend", "smoking", "goal_score", "commute",
    "diet", "zodiac", "living_arrangement",
})

SUBJECT_CATEGORIES = {
    **{subject: MemoryCategory.PERSONAL_INFO for subject in (
        "name", "nickname", "age", "birthday", "gender", "occupation", "major", "school", "school_year", "mbti",
        "blood_type", "height", "weight", "handedness", "religion", "language", "nationality", "health_condition",
        "allergy", "phobia", "tattoo", "smoking", "diet", "zodiac")},
    "hometown": MemoryCategory.LOCATION, "residence": MemoryCategory.LOCATION, "commute": MemoryCategory.LOCATION,
    "workplace": MemoryCategory.LOCATION, "living_arrangement": MemoryCategory.LOCATION,
    "family": MemoryCategory.PERSON, "sibling": MemoryCategory.PERSON, "pet": MemoryCategory.PERSON,
    "best_friend": MemoryCategory.PERSON, "friend": MemoryCategory.PERSON,
    "family_news": MemoryCategory.PERSON,  # "sister Maya is pregnant, due in september": several at once
    "dating_status": MemoryCategory.RELATIONSHIP, "relationship_status": MemoryCategory.RELATIONSHIP,
    "dream_job": MemoryCategory.GOAL, "goal": MemoryCategory.GOAL, "goal_score": MemoryCategory.GOAL,
    "part_time_job": MemoryCategory.HABIT, "hobby": MemoryCategory.PREFERENCE, "sport": MemoryCategory.HABIT,
    "likes": MemoryCategory.PREFERENCE, "dislikes": MemoryCategory.PREFERENCE,
}


def is_identity_subject(subject: str) -> bool:
    return subject in IDENTITY_SUBJECTS


def is_single_valued(subject: str) -> bool:
    return subject in SINGLE_VALUED_SUBJECTS or subject.startswith("favorite_")


def category_for_subject(subject: str, default: str = MemoryCategory.OTHER) -> str:
    if subject.startswith("favorite_"):
        return MemoryCategory.PREFERENCE
    return SUBJECT_CATEGORIES.get(subject, default)
