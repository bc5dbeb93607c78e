"""Personal facts in Korean user messages: the entry point over the rule modules.

Every rule finds *where* a fact is with a pattern and lets the morphological analyser decide where the
value starts and ends. Rules skip clauses about someone else ("걔는 ESTP라"), negated or past values
("노원 아니고", "살았었어") and wishes ("타투 하고 싶어"). Identity lives in korean_names/korean_body/
korean_traits, school and work in korean_work, places in korean_places, dating and dreams in
korean_status, preferences in korean_preferences, family and pets in korean_household.
"""
from __future__ import annotations

import re

from .candidates import Candidate
from .korean_body import age_facts, birthday_facts, body_facts, height_in_message
from .korean_household import family_answer, household_facts
from .korean_names import GREETING, INTRODUCTION, SELF_INTRO, name_facts, nickname_facts
from .korean_places import moved_to, place_facts, place_ok
from .korean_preferences import changed_favorite, preference_facts, type_subject
from .korean_status import dating_facts, dream_facts
from .korean_text import about_someone_else, clauses, strip_name_suffix, valid_value
from .korean_traits import fear_facts, trait_facts
from .korean_work import joined_workplace, moved_major, part_time_jobs, study_and_work_facts
from .whose import only_about_others, speaks_of_self
from .lexicon import NATIVE_AGE_WORD_KO, is_occupation_ko
from .morphology import noun_phrase_after


# --- "고향 부산임": a topic word without a particle, then the value ---------------------------------------

_BARE_TOPICS = {
    "고향": "hometown", "출신": "hometown", "사는 곳": "residence", "사는곳": "residence", "사는 데": "residence",
    "거주지": "residence", "직업": "occupation", "하는 일": "occupation", "전공": "major", "학과": "major",
    "학교": "school", "취미": "hobby", "별명": "nickname", "애칭": "nickname", "꿈": "dream_job",
    "장래희망": "dream_job", "장래 희망": "dream_job", "베프": "best_friend", "절친": "best_friend",
    "운동": "sport", "나이": "age", "알바": "part_time_job", "아르바이트": "part_time_job",
    "연애": "dating_status", "노래": "favorite_artist", "음악": "favorite_artist", "가수": "favorite_artist",
    "음식": "favorite_food", "색": "favorite_color", "색깔": "favorite_color", "계절": "favorite_season",
    "영화": "favorite_movie", "책": "favorite_book", "게임": "favorite_game",
}
_TYPED_BY_VALUE = frozenset({"favorite_artist"})  # "노래는 발라드" is a genre, "노래는 아이유" an artist
_TOPIC_ALTERNATIVES = sorted((re.escape(t).replace("\\ ", "\\s*") for t in _BARE_TOPICS), key=len, reverse=True)
_BARE = re.compile(r"^(?:(?:아|그리고|참|암튼|아무튼|내|제|나|저|일단)\s+)*(?P<topic>" + "|".join(_TOPIC_ALTERNATIVES)
                   + r")(?:은|는)?\s+(?P<rest>\S.*)$")
_BARE_END = re.compile(r"^\s*(?:이야|야|임|이에요|예요|에요|입니다|이고|인데|이거든|이지|)\s*"
                       r"(?:(?:에서|으로|로)?\s*(?:해|함|해요|하고\s*있어|일해|다녀|다님))?\s*$")


# Nouns that make one word with a topic before them when no particle parts the two ("게임 회사", "영화 동아리").
_COMPOUND_HEADS = frozenset("회사 업계 업체 회사임 개발 개발자 학원 동아리 모임 매장 센터 관련 쪽 업 방 카페 스튜디오 채널 유튜버 시간 얘기 "
                            "이야기 작업 공부 수업 대회 페스티벌 축제 행사 프로젝트 팀".split())


def _bare_topic(clause: str) -> list[Candidate]:
    match = _BARE.match(clause)
    if not match:
        return []
    topic = re.sub(r"\s+", " ", match.group("topic"))
    subject = _BARE_TOPICS.get(topic) or _BARE_TOPICS.get(topic.replace(" ", ""), "")
    start = match.start("rest")
    value = noun_phrase_after(clause, start, max_words=3)
    if not subject or not valid_value(value):
        return []
    end = clause.find(value, start) + len(value)
    if not _BARE_END.match(clause[end:]):
        return []  # "취미 생활 하고 싶어" is not "취미: 생활"
    if not re.search(r"(?:은|는)\s*$", clause[:start]) and value.split()[0] in _COMPOUND_HEADS:
        return []  # "게임 회사", "음악 학원": one noun, not "게임: 회사"
    if subject == "age":
        return [Candidate("age", value if value.endswith(("살", "세")) else f"{value}살")] \
            if re.fullmatch(r"\d{1,2}\s*(?:살|세)?", value) else []
    if subject in {"hometown", "residence"} and not place_ok(value):
        return []
    if subject == "dream_job" and not is_occupation_ko(value):
        return [Candidate("goal", value, label="꿈")]
    if subject in {"name", "nickname", "best_friend"}:
        value = strip_name_suffix(value)
    if subject in _TYPED_BY_VALUE:
        subject = type_subject(value) or subject
    return [Candidate(subject, value)]


_MY_AGE = re.compile(r"(?:^\s*|(?:^|\s)(?:나|난|저|전|나는|저는)\s+)(?P<v>\d{2}|(?:열|스물|서른|마흔|쉰)\s*(?:하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉)?)"
                     r"(?:(?:임|이야|야|이에요|예요|에요|입니다|이고|인데)?(?=\s*$|\s*[!.,~])|(?<=[가-힣])(?:이고|고|이고요|고요|이구)(?=\s))")


def _short_age(clause: str) -> list[Candidate]:
    """"나 24임", "저 스물넷이에요": an age without 살."""
    match = _MY_AGE.search(clause)
    if not match:
        return []
    value = match.group("v")
    if value.isdigit():
        return [Candidate("age", f"{value}살")] if 10 <= int(value) <= 99 else []
    return [Candidate("age", value)]


_NEGATED_VALUE = "(?:이|가|은|는)?\\s*(?:아니|아냐|아녜|말고)"
_AGE_LEAD = re.compile(rf"^(?:{NATIVE_AGE_WORD_KO}|\d{{1,2}}\s*(?:살|세))(?:이고|고|이구)?\s+")


def _not_negated(text: str, candidate: Candidate) -> bool:
    """Drop "솔로" from "이제 솔로 아니야": a value the message itself denies."""
    return not re.search(re.escape(candidate.value) + _NEGATED_VALUE, text)


# --- entry point ---------------------------------------------------------------------------------------


def korean_facts(text: str, asked: str = "", context: str = "") -> list[Candidate]:
    """Return the personal facts stated in one Korean user message, in order of appearance.

    `asked` is the subject the character just asked about (see questions.asked_subject) and `context`
    the character's turn itself.
    """
    found: list[Candidate] = []
    household, pet_message = household_facts(text, asked_about_pets=asked == "pet")
    if asked == "family" and not any(c.subject == "family" for c in household):
        household += family_answer(text)
    quit_job = False
    jobs: list[Candidate] = []
    others_talk = False  # "우리 남동생은 고2인데 맨날 게임만 해. 서준이. 열일곱": the bare name and age are his
    for clause in clauses(text):
        if only_about_others(clause):
            others_talk = True
        elif speaks_of_self(clause):
            others_talk = False
        if not others_talk:
            found += name_facts(clause, pet_message, bool(GREETING.search(text) or INTRODUCTION.search(context or "")),
                                self_intro=bool(SELF_INTRO.search(text)))
        if not pet_message:
            found += nickname_facts(clause)
        if not others_talk:
            found += age_facts(clause) or _short_age(clause)
        for item in clause.split(","):  # "취미 뜨개질, 노래는 아이유, 연애는 솔로 3년차"
            found += _bare_topic(item.strip())
        found += birthday_facts(clause)
        found += body_facts(clause)
        found += trait_facts(clause, text)
        found += study_and_work_facts(clause)
        found += place_facts(clause)
        found += fear_facts(clause)
        found += dating_facts(clause, text)
        found += dream_facts(clause, text)
        clause_jobs, clause_quit = part_time_jobs(clause)
        jobs += clause_jobs
        quit_job = quit_job or clause_quit
        found += preference_facts(clause, text, context)
    if not any(c.subject == "residence" for c in found):
        found += moved_to(text, context)
    if not any(c.subject == "workplace" for c in found):
        found += joined_workplace(text)
    if not any(c.subject == "height" for c in found):
        found += height_in_message(text)
    if moved := moved_major(text):  # "전과함 … 컴공으로 신청했는데 붙음": the new major, not the one left
        found = [c for c in found if c.subject != "major"] + moved
    found += jobs
    if quit_job and not jobs:
        found.append(Candidate("part_time_job", "그만둠(지금은 안 함)"))
    found += household
    changed = changed_favorite(text)
    if changed:  # "최애 바뀜 이제 해린": the change says it, not "최애" alone
        found = [c for c in found if c.value != changed[0].value and c.subject not in {changed[0].subject, "likes"}
                 and changed[0].value not in c.value and c.value not in changed[0].value] + changed
    # An age said just before ("서른하나 직장인입니다", "스물다섯이고 회사 다녀요") is not part of a job or a workplace.
    # So is the user's own name said before them ("김민지 스물다섯 직장인이야").
    names = {c.value for c in found if c.subject == "name"}
    found = [Candidate(c.subject, _AGE_LEAD.sub("", _without_name(c.value, names)), c.request, c.label)
             if c.subject in {"occupation", "workplace"} and _AGE_LEAD.match(_without_name(c.value, names))
             and _AGE_LEAD.sub("", _without_name(c.value, names))
             else c for c in found]
    # A value that opens with someone else ("큰딸 열네살 중학생") is that person's, not the user's.
    return [c for c in found if _not_negated(text, c) and not (c.subject not in _HOUSEHOLD_SUBJECTS
                                                              and len(c.value.split()) >= 2
                                                              and about_someone_else(c.value, len(c.value.split()[0])))]


def _without_name(value: str, names: set[str]) -> str:
    first, _, rest = value.partition(" ")
    return rest if first in names and rest else value


_HOUSEHOLD_SUBJECTS = frozenset({"family", "sibling", "pet", "family_news", "best_friend", "friend", "dating_status",
                                 "relationship_status", "dislikes", "likes"})
