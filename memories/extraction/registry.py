"""The subject registry: one row per subject key of a structured fact `{subject, value}` (seed 003 §16 P1/P3).

Everything the service knows about a subject is in its row, and every other module reads it from here
(memories.subjects is the adapter for code outside extraction):
- category: the plain value of memories.categories.MemoryCategory ("personal_info", "location", ...);
- kind: IDENTITY (always injected, never sliced away), STATE (current state: a goal, a habit) or MOMENT;
- single: one current value, a new one supersedes the old (the correction hook of seed 003 §3), else
  several values may hold at once (two hobbies, two pets);
- changes: the words by which a raw message talks about a changeable subject. Once a newer fact states
  the subject's current value, older raw messages using these words may describe a value that is no longer
  true (the old neighbourhood), so the prompt block leaves them out. Empty: the subject does not change;
- ko / en: the label of the fact's content line ("사는 곳: 신촌", "Lives in: Chicago");
- ask_ko / ask_en: the cue (a regular expression) by which the character's question asks about it
  ("그럼 키는?" asks for the height). QUESTION_ORDER says which cue wins when one question matches two.

`favorite_<topic>` subjects need no row: any of them is single-valued, a preference, labelled from
FAVORITE_TOPICS. The rows below exist for the favourites with a question cue or named to the LLM.

No Django and nothing from memories outside this package: this module is the bottom of the import graph.
"""
from __future__ import annotations

from dataclasses import dataclass

IDENTITY = "identity"
STATE = "state"
MOMENT = "moment"
ONE = True  # single-valued
MANY = False


@dataclass(frozen=True)
class Subject:
    key: str
    category: str
    kind: str
    single: bool
    ko: str = ""
    en: str = ""
    changes: tuple[str, ...] = ()
    ask_ko: str = ""
    ask_en: str = ""
    # Words a message telling the subject uses that a question about it may not ("where did I grow up?" is told
    # "that's where I grew up", "I was raised in …"): the prompt's search looks for them too when the user asks
    # about their own subject (context_pack.retrieval). A changeable subject's `changes` words count as well.
    told: tuple[str, ...] = ()
    # Patterns (regular expressions, any language) of a message telling that the speaker's value is new without a
    # rule having to read it ("이사 완료!!", "first day at fernwood today"): the stored value no longer holds
    # (extraction.news). Only for a single-valued, changeable subject.
    news: tuple[str, ...] = ()

    @property
    def changeable(self) -> bool:
        return bool(self.changes)


# News of a new home, a new job, a new part-time job (Subject.news): done, not planned ("moving next month" is not);
# a move or a start told, not a home or job named ("새 집 월세 비쌈", "새 회사도 적응 중", "the new job is fine" speak of
# one already told).
_HOME_NEWS = (
    r"이사\s*(?:왔|했|함|옴|완료|끝)|입주\s*(?:했|함|완료)|집\s*(?:구했|계약했|옮겼|옮김)|열쇠\s*받|자취\s*시작",
    r"(?:^\W*|\b(?:i|we|i've|we've|ive|just|finally|officially|have)\s+)(?:just\s+|finally\s+|officially\s+)?moved\s+"
    r"(?:in|into|out|to|house|flats?|apartments?|here)\b",
    r"\bkeys\s+to\s+(?:my|our)\b|\bgot\s+the\s+keys\b|\bsigned\s+(?:the|a|my)\s+lease\b",
)
_JOB_NEWS = (
    r"이직\s*(?:했|함|해서|해써|성공|확정)|입사\s*(?:했|함|해서|확정|합니다|하게\s*됐)|첫\s*출근|퇴사\s*(?:했|함|해서|합니다|하게\s*됐)"
    r"|회사\s*(?:옮겼|옮김|그만\s*뒀|그만둠|관뒀|때려\s*치|붙었|붙음|합격했|합격함)"
    r"|(?:새\s*(?:직장|회사|일자리|office|오피스|사무실)|new\s+(?:job|office))\s*(?:에서\s*|에\s*)?(?:첫\s*날|1\s*일\s*차|첫\s*출근"
    r"|first\s+day)"
    r"|취직\s*(?:했|함|해서|됐|돼서|성공)"
    r"|취업\s*(?:했|함|해서|됐|돼서|성공)|최종\s*합격",
    r"\bgot\s+(?:the|a|my)\s+(?:[\w-]+\s+){0,2}?job\b(?!\s+offer)|\bfirst\s+day\s+(?:at|of)\s+"
    r"(?!(?:the\s+)?(?:school|uni|university|college|class|gym|camp|kindergarten|daycare|preschool|term|semester)\b)"
    r"|\b(?:accepted|took)\s+(?:the|their|an?)\s+(?:job\s+)?offer\b|\bgot\s+hired\b|\bhired\s+me\b"
    r"|\b(?:gave|handed\s+in)\s+(?:my\s+)?notice\b|\bquit\s+my\s+(?:[\w-]+\s+){0,2}?job\b|\bi\s+resigned\b"
    r"|\bstart(?:ed|ing)\s+(?:my\s+|the\s+)?new\s+(?:job|role|position)\b",
)
_PART_TIME_NEWS = (
    r"알바\s*(?:바꿨|바꿈|옮겼|옮김|새로|구했|시작했|그만\s*뒀|그만둠|관뒀)|새\s*알바",
    r"\bnew\s+part[- ]time\b|\bquit\s+my\s+part[- ]time\b|\bfirst\s+shift\s+at\b",
)

_WORK_WORDS = ("직장", "회사", "일해", "일하", "일했", "근무", "다녀", "다니", "다녔", "출근", "직업", "job", "work at",
               "working at", "worked at", "work as", "my boss", "coworker", "office")

SUBJECTS = (
    # personal_info
    Subject("name", "personal_info", IDENTITY, ONE, "이름", "Name", ask_ko=r"(?:이름|성함)(?:이|은|을|이랑|좀)?\s*(?:뭐|머|무엇|어떻게|어케|알려|물어|말해|\?|$)|(?:너|넌|당신|누구)\s*(?:는\s*)?누구(?:야|니|예요|에요|세요|신가요|임)", ask_en=r"your name|who are you"),
    Subject("nickname", "personal_info", IDENTITY, ONE, "호칭", "Wants to be called",
            ask_ko=r"뭐라고\s*(?:부르|불러|부를)|호칭|부를까|불러\s*줄까|불러줄까|애칭|별명|닉네임",
            ask_en=r"what should i call you|what do you want me to call you|call you|nickname"),
    Subject("age", "personal_info", IDENTITY, ONE, "나이", "Age", ask_ko=r"몇\s*살|(?<![가-힣])나이|몇\s*년생",
            ask_en=r"how old|your age", told=("years old", "turned", "my age", "나이", "년생")),
    Subject("birthday", "personal_info", IDENTITY, ONE, "생일", "Birthday", ask_ko=r"생일|언제\s*태어",
            ask_en=r"birthday|when were you born"),
    Subject("gender", "personal_info", IDENTITY, ONE, "성별", "Gender"),
    Subject("occupation", "personal_info", IDENTITY, ONE, "직업", "Occupation", changes=_WORK_WORDS,
            ask_ko=r"무슨\s*일|직업|학생이야|학생이에요|학생이니|직장인|일해|회사\s*다녀|뭐\s*하는\s*사람|뭐\s*해\s*먹고",
            ask_en=r"what do you do|your job|for a living|do you work|are you a student"),
    Subject("major", "personal_info", IDENTITY, ONE, "전공", "Major",
            ask_ko=r"전공|무슨\s*과(?![가-힣])|무슨\s*학과|어느\s*과(?![가-힣])", ask_en=r"major|studying|what do you study"),
    Subject("school", "personal_info", IDENTITY, ONE, "학교", "School",
            ask_ko=r"학교\s*어디|어느\s*학교|무슨\s*학교|어느\s*대학|어디\s*대학"),
    Subject("school_year", "personal_info", IDENTITY, ONE, "학년", "School year"),
    Subject("mbti", "personal_info", IDENTITY, ONE, "MBTI", "MBTI", ask_ko=r"mbti|엠비티아이", ask_en=r"mbti"),
    Subject("blood_type", "personal_info", IDENTITY, ONE, "혈액형", "Blood type", ask_ko=r"혈액형",
            ask_en=r"blood type"),
    Subject("height", "personal_info", IDENTITY, ONE, "키", "Height", ask_ko=r"키(?:는|가)|키\s*몇|몇\s*센치|키\s*커",
            ask_en=r"how tall|your height"),
    Subject("weight", "personal_info", IDENTITY, ONE, "몸무게", "Weight", ask_ko=r"몸무게"),
    Subject("handedness", "personal_info", IDENTITY, ONE, "주로 쓰는 손", "Handedness",
            ask_ko=r"손잡이|어느\s*손|무슨\s*손"),
    Subject("religion", "personal_info", IDENTITY, ONE, "종교", "Religion"),
    Subject("language", "personal_info", IDENTITY, MANY, "사용 언어", "Language"),
    Subject("nationality", "personal_info", IDENTITY, MANY, "국적", "Nationality"),
    Subject("health_condition", "personal_info", IDENTITY, MANY, "건강 상태", "Health condition"),
    Subject("allergy", "personal_info", IDENTITY, MANY, "알레르기", "Allergy", ask_ko=r"알레르기|알러지",
            ask_en=r"allergic|allerg"),
    Subject("phobia", "personal_info", IDENTITY, MANY, "무서워하는 것", "Fear",
            ask_ko=r"무서워하는|무서운\s*(?:거|게|것)|공포증",
            ask_en=r"scared of|afraid of|your fears?|phobia|frighten"),
    Subject("tattoo", "personal_info", IDENTITY, MANY, "타투", "Tattoo"),
    Subject("smoking", "personal_info", IDENTITY, ONE, "흡연", "Smoking",
            changes=("담배", "흡연", "전자담배", "smoke", "smoking", "cigarette", "vape", "vaping")),
    # vegetarian, halal, ...: like an allergy, the character must never forget it
    Subject("diet", "personal_info", IDENTITY, ONE, "식단", "Diet",
            changes=("채식", "비건", "vegetarian", "vegan", "pescatarian")),
    Subject("zodiac", "personal_info", MOMENT, ONE, "별자리", "Zodiac sign"),
    # location
    Subject("hometown", "location", IDENTITY, ONE, "고향", "Hometown", ask_ko=r"고향|출신",
            ask_en=r"where are you from|hometown|grow up|grew up",
            told=("grew up", "raised", "born", "hometown", "originally", "고향", "출신", "자랐", "태어났", "어릴 때")),
    Subject("residence", "location", IDENTITY, ONE, "사는 곳", "Lives in",
            changes=("살아", "살고", "사는", "살거든", "살아요", "자취", "이사", "원룸", "투룸", "입주", "동네",
                     "live in", "living in", "i live", "moved", "apartment", " apt", "1br", "rent"), news=_HOME_NEWS,
            ask_ko=r"어디\s*살|어디\s*산|사는\s*곳|어디\s*사|사는\s*데|어느\s*동네|어디에\s*살",
            ask_en=r"where do you live|where are you living|where do you stay|live now"),
    Subject("living_arrangement", "location", MOMENT, ONE, "사는 형태", "Living arrangement"),
    Subject("commute", "location", MOMENT, ONE, "통학/통근", "Commute"),
    Subject("workplace", "location", MOMENT, ONE, "직장", "Workplace", changes=_WORK_WORDS, news=_JOB_NEWS),
    # person
    Subject("family", "person", IDENTITY, ONE, "가족", "Family", ask_ko=r"가족|형제|남매|외동"),
    Subject("sibling", "person", IDENTITY, MANY, "형제자매", "Sibling", ask_en=r"siblings|brothers|sisters"),
    Subject("pet", "person", IDENTITY, MANY, "반려동물", "Pet",
            ask_ko=r"반려|애완|키우는\s*(?:동물|거|애)|동물\s*키워|펫|강아지\s*키워|고양이\s*키워|키워\s*\?|키우니|키우세요|키우는\s*거"
                   r"|어떤\s*(?:새|강아지|고양이|애|종)|(?:강아지|고양이|앵무새|햄스터|토끼)\s*(?:이름|종류|몇\s*살)",
            ask_en=r"\bpets?\b|any animals|\b(?:dog|cat|puppy|kitten)s?\b"),
    Subject("best_friend", "person", MOMENT, ONE, "제일 친한 친구", "Best friend", ask_ko=r"친한\s*친구|베프|절친|단짝",
            ask_en=r"best friend|closest friend|bff"),
    Subject("friend", "person", MOMENT, MANY, "친구", "Friend"),
    Subject("family_news", "person", MOMENT, MANY),  # "sister Maya is pregnant, due in september": several at once
    # relationship
    Subject("dating_status", "relationship", IDENTITY, ONE, "연애 상태", "Dating status",
            changes=("여친", "남친", "여자친구", "남자친구", "사귀", "연애", "솔로", "헤어졌", "girlfriend", "boyfriend",
                     " gf", " bf", "dating", "single", "broke up"),
            ask_ko=r"연애|여친|남친|여자\s*친구|남자\s*친구|애인|사귀는|만나는\s*사람|결혼",
            ask_en=r"seeing anyone|seeing someone|are you dating|are you single|girlfriend|boyfriend"
                   r"|in a relationship|partner|married"),
    Subject("relationship_status", "relationship", IDENTITY, ONE, "결혼 여부", "Relationship status"),
    # goal
    Subject("dream_job", "goal", IDENTITY, ONE, "꿈(장래희망)", "Dream job", ask_ko=r"꿈이|꿈은|장래\s*희망|되고\s*싶",
            ask_en=r"dream job|dream is|want to be when|want to become"),
    Subject("goal", "goal", STATE, MANY, "목표", "Goal", ask_en=r"\bgoals?\b"),
    Subject("goal_score", "goal", STATE, ONE, "목표 점수", "Target score"),
    # habit
    Subject("part_time_job", "habit", STATE, ONE, "알바", "Part-time job",
            changes=("알바", "part-time", "part time", "shift"), news=_PART_TIME_NEWS,
            ask_ko=r"알바|아르바이트", ask_en=r"part[- ]time"),
    Subject("sport", "habit", STATE, MANY, "하는 운동", "Sport", ask_ko=r"운동",
            ask_en=r"sport|work out|exercise|do you play"),
    # preference
    Subject("hobby", "preference", MOMENT, MANY, "취미", "Hobby", ask_ko=r"취미|쉬는\s*날|주말에\s*(?:뭐|주로)",
            ask_en=r"hobby|hobbies|free time|spare time|for fun"),
    Subject("likes", "preference", MOMENT, MANY, "좋아하는 것", "Likes"),
    Subject("dislikes", "preference", MOMENT, MANY, "싫어하는 것", "Dislikes"),
    Subject("favorite_food", "preference", MOMENT, ONE,
            ask_ko=r"좋아하는\s*음식|최애\s*음식|음식은|뭐\s*먹는\s*거\s*좋아|무슨\s*음식",
            ask_en=r"favou?rite food|what do you like to eat"),
    Subject("favorite_season", "preference", MOMENT, ONE, ask_ko=r"계절", ask_en=r"season"),
    Subject("favorite_color", "preference", MOMENT, ONE, ask_ko=r"색깔|무슨\s*색|좋아하는\s*색|어떤\s*색",
            ask_en=r"colou?r"),
    Subject("favorite_movie", "preference", MOMENT, ONE, ask_ko=r"영화", ask_en=r"movie|film"),
    Subject("favorite_artist", "preference", MOMENT, ONE,
            ask_ko=r"가수|밴드|아이돌|누구\s*노래|무슨\s*노래|노래\s*뭐|노래는\s*뭐|뭐\s*들어",
            ask_en=r"singer|band|artist|who do you listen|what music|what are you listening|what do you listen"),
    Subject("favorite_song", "preference", MOMENT, ONE),
    Subject("favorite_book", "preference", MOMENT, ONE, ask_en=r"\bbooks?\b|\bnovel\b"),
    Subject("favorite_game", "preference", MOMENT, ONE),
)

FAVORITE_PREFIX = "favorite_"
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

# Which cue wins when one question sentence matches two ("뭐라고 부를까? 그냥 이름 부를까?" asks for a
# nickname): the subjects in this order, then any other subject with a cue, in row order.
QUESTION_ORDER = {
    "ko": ("nickname", "name", "age", "birthday", "major", "school", "occupation", "mbti", "hometown", "residence",
           "blood_type", "height", "weight", "family", "pet", "allergy", "phobia", "favorite_food", "favorite_season",
           "favorite_color", "favorite_movie", "favorite_artist", "best_friend", "dating_status", "part_time_job",
           "hobby", "sport", "dream_job", "handedness"),
    "en": ("nickname", "name", "age", "birthday", "major", "occupation", "mbti", "hometown", "residence",
           "blood_type", "height", "allergy", "phobia", "pet", "sibling", "dating_status", "favorite_food",
           "favorite_season", "favorite_color", "favorite_movie", "favorite_artist", "favorite_book", "goal",
           "best_friend", "part_time_job", "hobby", "sport", "dream_job"),
}

# Lookups, all derived from the rows.
BY_KEY = {row.key: row for row in SUBJECTS}
IDENTITY_SUBJECTS = frozenset(row.key for row in SUBJECTS if row.kind == IDENTITY)
SINGLE_VALUED_SUBJECTS = frozenset(row.key for row in SUBJECTS if row.single)
SUBJECT_CATEGORIES = {row.key: row.category for row in SUBJECTS if not row.key.startswith(FAVORITE_PREFIX)}
CHANGEABLE_SUBJECT_WORDS = {row.key: row.changes for row in SUBJECTS if row.changeable}
TOLD_WORDS = {row.key: tuple(dict.fromkeys(row.told + row.changes)) for row in SUBJECTS if row.told or row.changes}


def told_words(subject: str) -> tuple[str, ...]:
    """The words a message telling `subject` uses (Subject.told and a changeable subject's words), or ()."""
    return TOLD_WORDS.get(subject, ())
LABELS = {row.key: (row.ko, row.en) for row in SUBJECTS if row.ko}


def is_identity_subject(subject: str) -> bool:
    return subject in IDENTITY_SUBJECTS


def is_single_valued(subject: str) -> bool:
    return subject in SINGLE_VALUED_SUBJECTS or subject.startswith(FAVORITE_PREFIX)


def category_for_subject(subject: str, default: str = "other") -> str:
    if subject.startswith(FAVORITE_PREFIX):
        return "preference"
    return SUBJECT_CATEGORIES.get(subject, default)


def label_for(subject: str, korean: bool) -> str:
    if subject in LABELS:
        return LABELS[subject][0 if korean else 1]
    if subject.startswith(FAVORITE_PREFIX):
        key = subject.removeprefix(FAVORITE_PREFIX)
        topic = FAVORITE_TOPICS.get(key, (key.replace("_", " "), key.replace("_", " ")))
        return f"좋아하는 {topic[0]}" if korean else f"Favorite {topic[1]}"
    return subject.replace("_", " ")


def _question_cues(language: str) -> tuple[tuple[str, str], ...]:
    def cue(row: Subject) -> str:
        return row.ask_ko if language == "ko" else row.ask_en

    order = QUESTION_ORDER[language]
    rest = tuple(row.key for row in SUBJECTS if cue(row) and row.key not in order)
    return tuple((key, cue(BY_KEY[key])) for key in order + rest)


# (subject, cue) pairs in the order a question sentence is tested against them.
QUESTION_CUES = {"ko": _question_cues("ko"), "en": _question_cues("en")}
