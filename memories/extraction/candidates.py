"""A fact found in one message before it becomes an ExtractedFact, and how its content sentence reads.

The content is "<label>: <value>" in the user's language ("사는 곳: 신촌", "Hometown: Busan"): the value
stays verbatim, the label names the subject, so the line reads well in a prompt block (seed 003 §16 P1).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    subject: str
    value: str
    request: bool = False  # the user asked to be called this (nickname) — feeds the identity layer
    label: str = ""  # overrides the subject's label ("좋아하는 향수" for a subject-less preference)


LABELS = {
    # subject: (Korean label, English label)
    "name": ("이름", "Name"),
    "nickname": ("호칭", "Wants to be called"),
    "age": ("나이", "Age"),
    "birthday": ("생일", "Birthday"),
    "gender": ("성별", "Gender"),
    "occupation": ("직업", "Occupation"),
    "major": ("전공", "Major"),
    "school": ("학교", "School"),
    "school_year": ("학년", "School year"),
    "mbti": ("MBTI", "MBTI"),
    "hometown": ("고향", "Hometown"),
    "residence": ("사는 곳", "Lives in"),
    "living_arrangement": ("사는 형태", "Living arrangement"),
    "blood_type": ("혈액형", "Blood type"),
    "height": ("키", "Height"),
    "weight": ("몸무게", "Weight"),
    "family": ("가족", "Family"),
    "sibling": ("형제자매", "Sibling"),
    "pet": ("반려동물", "Pet"),
    "allergy": ("알레르기", "Allergy"),
    "phobia": ("무서워하는 것", "Fear"),
    "handedness": ("주로 쓰는 손", "Handedness"),
    "religion": ("종교", "Religion"),
    "dating_status": ("연애 상태", "Dating status"),
    "relationship_status": ("결혼 여부", "Relationship status"),
    "dream_job": ("꿈(장래희망)", "Dream job"),
    "health_condition": ("건강 상태", "Health condition"),
    "language": ("사용 언어", "Language"),
    "nationality": ("국적", "Nationality"),
    "tattoo": ("타투", "Tattoo"),
    "smoking": ("흡연", "Smoking"),
    "part_time_job": ("알바", "Part-time job"),
    "workplace": ("직장", "Workplace"),
    "best_friend": ("제일 친한 친구", "Best friend"),
    "friend": ("친구", "Friend"),
    "hobby": ("취미", "Hobby"),
    "sport": ("하는 운동", "Sport"),
    "goal": ("목표", "Goal"),
    "goal_score": ("목표 점수", "Target score"),
    "commute": ("통학/통근", "Commute"),
    "likes": ("좋아하는 것", "Likes"),
    "diet": ("식단", "Diet"),
    "zodiac": ("별자리", "Zodiac sign"),
    "dislikes": ("싫어하는 것", "Dislikes"),
}

FAVORITE_TOPICS = {
    # favorite_<key>: (Korean topic word, English topic word)
    "food": ("음식", "food"), "season": ("계절", "season"), "color": ("색", "color"), "movie": ("영화", "movie"),
    "artist": ("가수", "artist"), "song": ("노래", "song"), "book": ("책", "book"), "game": ("게임", "game"),
    "drama": ("드라마", "drama"), "anime": ("애니", "anime"), "animal": ("동물", "animal"),
    "fruit": ("과일", "fruit"), "drink": ("음료", "drink"), "subject": ("과목", "subject"),
    "flower": ("꽃", "flower"), "webtoon": ("웹툰", "webtoon"), "youtuber": ("유튜버", "YouTuber"),
    "character": ("캐릭터", "character"), "genre": ("장르", "genre"), "place": ("장소", "place"),
    "number": ("숫자", "number"), "brand": ("브랜드", "brand"), "snack": ("간식", "snack"),
    "dessert": ("디저트", "dessert"), "show": ("프로그램", "show"), "team": ("팀", "team"),
    "actor": ("배우", "actor"), "idol": ("아이돌", "idol"), "band": ("밴드", "band"), "city": ("도시", "city"),
    "weather": ("날씨", "weather"), "holiday": ("기념일", "holiday"), "sport": ("스포츠", "sport"),
}


def label_for(subject: str, korean: bool) -> str:
    if subject in LABELS:
        return LABELS[subject][0 if korean else 1]
    if subject.startswith("favorite_"):
        key = subject.removeprefix("favorite_")
        topic = FAVORITE_TOPICS.get(key, (key.replace("_", " "), key.replace("_", " ")))
        return f"좋아하는 {topic[0]}" if korean else f"Favorite {topic[1]}"
    return subject.replace("_", " ")


def render_content(candidate: Candidate, korean: bool) -> str:
    """Return the short sentence stored as the fact's content ("사는 곳: 신촌")."""
    return f"{candidate.label or label_for(candidate.subject, korean)}: {candidate.value}"
