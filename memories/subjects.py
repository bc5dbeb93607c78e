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


# Words by which a raw message talks about a changeable subject. Once a newer fact states the
# subject's current value, older raw messages using these words may describe a value that is no
# longer true (e.g. the old neighbourhood), so the prompt block leaves them out.
CHANGEABLE_SUBJECT_WORDS = {
    "residence": ("살아", "살고", "사는", "살거든", "살아요", "자취", "이사", "원룸", "투룸", "입주", "동네",
                  "live in", "living in", "i live", "moved", "apartment", " apt", "1br", "rent"),
    "occupation": ("직장", "회사", "일해", "일하", "출근", "직업", "job", "work at", "working at", "work as",
                   "my boss", "coworker", "office"),
    "part_time_job": ("알바", "part-time", "part time", "shift"),
    "dating_status": ("여친", "남친", "여자친구", "남자친구", "사귀", "연애", "솔로", "헤어졌", "girlfriend",
                      "boyfriend", " gf", " bf", "dating", "single", "broke up"),
    "smoking": ("담배", "흡연", "전자담배", "smoke", "smoking", "cigarette", "vape", "vaping"),
    "diet": ("채식", "비건", "vegetarian", "vegan", "pescatarian"),
}
CHANGEABLE_SUBJECT_WORDS["workplace"] = CHANGEABLE_SUBJECT_WORDS["occupation"]
