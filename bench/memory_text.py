"""Realistic memory sentences (Korean and English) for the latency benchmark data.

Facts carry a subject key from memories.subjects and a value; episodes are one-line diary-like
events. Everything comes from templates filled at random, so a 10,000-item scope gets distinct,
varied text without a model.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta


def _has_batchim(word: str) -> bool:
    last = word.strip()[-1:]
    return bool(last) and "가" <= last <= "힣" and (ord(last) - 0xAC00) % 28 != 0


def j(word: str, pair: str) -> str:
    """word + the right particle of `pair` ("을/를", "이/가", "은/는", "과/와", "이랑/랑", "으로/로")."""
    with_batchim, without = pair.split("/")
    return word + (with_batchim if _has_batchim(word) else without)


PARTICLES = {"eul": "을/를", "i": "이/가", "eun": "은/는", "wa": "과/와", "rang": "이랑/랑", "ro": "으로/로"}

NAMES = ["민수", "지훈", "서연", "하은", "도윤", "지우", "수아", "예준", "유진", "현우", "다은", "준서", "채원", "시우",
         "Alex", "Sam", "Jamie", "Chris", "Taylor", "Jordan", "Emma", "Noah", "Mia", "Liam"]
PET_NAMES = ["나비", "콩이", "보리", "초코", "두부", "호두", "망고", "루비", "Max", "Luna", "Milo", "Coco"]
PLACES_KO = ["신촌", "노원", "강남", "홍대", "잠실", "부산 해운대", "대전 유성", "인천 송도", "수원", "분당", "일산", "제주",
             "성수", "망원", "건대", "왕십리", "광주", "대구 수성구"]
PLACES_EN = ["Seoul", "Busan", "Incheon", "Toronto", "London", "Berlin", "Vancouver", "Sydney", "Osaka", "Boston"]
JOBS_KO = ["대학생", "개발자", "간호사", "디자이너", "회사원", "교사", "요리사", "마케터", "공무원 준비생", "대학원생", "바리스타",
           "사진작가", "회계사", "번역가"]
JOBS_EN = ["software engineer", "nurse", "graphic designer", "teacher", "student", "accountant", "chef",
           "marketing manager", "photographer", "translator"]
FOODS = ["떡볶이", "김치찌개", "초밥", "마라탕", "삼겹살", "파스타", "냉면", "치킨", "피자", "돈가스", "쌀국수", "라멘",
         "김밥", "곱창", "탕수육", "비빔밥", "짜장면", "부대찌개", "샐러드", "햄버거"]
FOODS_EN = ["tteokbokki", "sushi", "ramen", "pizza", "tacos", "pho", "fried chicken", "pasta", "dumplings", "curry"]
HOBBIES = ["기타 연주", "등산", "사진 찍기", "게임", "요가", "클라이밍", "수영", "독서", "뜨개질", "베이킹", "볼링", "러닝",
           "필라테스", "캠핑", "보드게임", "그림 그리기", "피아노", "드럼", "자전거", "낚시", "서핑", "테니스", "배드민턴"]
HOBBIES_EN = ["playing guitar", "hiking", "photography", "rock climbing", "swimming", "baking", "running", "chess",
              "painting", "cycling", "gardening", "tennis", "board games", "knitting"]
LIKES = ["비 오는 날", "고양이", "재즈", "아이스 아메리카노", "밤 산책", "여름 바다", "캠핑", "공포 영화", "로맨스 소설", "민트초코",
         "애니메이션", "K-pop", "인디 음악", "전시회", "향수", "레고", "빈티지 옷", "커피 원두", "일출", "별 보기", "야구 직관",
         "뮤지컬", "보드게임 카페", "만화책", "식물 키우기", "꽃", "눈 오는 날", "노을", "라디오", "필름 카메라"]
DISLIKES = ["오이", "벌레", "시끄러운 곳", "늦잠", "출근길 지옥철", "더운 날씨", "가지", "고수", "회식", "긴 회의", "치과",
            "비행기 타기", "매운 음식", "단 음식", "줄 서기", "마감", "월요일", "알람 소리", "장마", "미세먼지"]
COLORS = ["파란색", "보라색", "초록색", "검정색", "하늘색", "노란색", "분홍색", "회색"]
SEASONS = ["봄", "여름", "가을", "겨울"]
MOVIES = ["인터스텔라", "기생충", "라라랜드", "어바웃 타임", "센과 치히로의 행방불명", "올드보이", "Inception", "Parasite",
          "Before Sunrise", "Spirited Away", "해리 포터", "너의 이름은"]
ARTISTS = ["아이유", "뉴진스", "BTS", "세븐틴", "잔나비", "악뮤", "Taylor Swift", "Coldplay", "데이식스", "성시경", "Radiohead"]
BOOKS = ["채식주의자", "데미안", "어린 왕자", "아몬드", "불편한 편의점", "1984", "The Little Prince", "사피엔스", "달러구트 꿈 백화점"]
GAMES = ["롤", "배그", "마인크래프트", "젤다", "스타듀밸리", "오버워치", "피파", "메이플스토리", "포켓몬", "동물의 숲"]
MBTIS = ["INFP", "ENFP", "INTJ", "ISTJ", "ESFJ", "ENTP", "ISFP", "INFJ", "ESTP", "INTP"]
SIBLINGS = ["남동생", "여동생", "형", "누나", "언니", "오빠"]
ALLERGIES = ["땅콩", "새우", "복숭아", "고양이털", "꽃가루", "우유", "갑각류"]
PHOBIAS = ["높은 곳", "거미", "어두운 곳", "좁은 곳", "물"]
PETS = ["고양이", "강아지", "햄스터", "토끼", "앵무새", "거북이"]
SCHOOLS = ["연세대", "고려대", "한양대", "서울대", "부산대", "홍익대", "경희대", "성균관대"]
MAJORS = ["컴퓨터공학", "경영학", "심리학", "국어국문학", "기계공학", "디자인", "간호학", "경제학", "영어영문학"]
GOALS = ["토익 900점", "다이어트 5kg 감량", "자격증 따기", "유럽 여행", "이직", "마라톤 완주", "책 50권 읽기", "운전면허 따기",
         "저축 천만 원", "일본어 공부", "유튜브 채널 시작", "독립하기", "헬스 3대 300", "대학원 합격"]
WORKPLACES = ["판교", "여의도", "광화문", "성수동", "구로 디지털단지", "역삼", "을지로"]
FRIENDS = ["지수", "민지", "태현", "소희", "재원", "하린", "동현", "예린", "성민", "유나", "Kevin", "Sarah"]
GOALS_EN = ["passing the driving test", "running a marathon", "getting a new job", "saving for a trip to Europe",
            "finishing the thesis", "learning Japanese"]
FAMILY_EN = ["mom", "dad", "grandma", "a younger brother", "a cousin"]
FAMILY = ["엄마", "아빠", "할머니", "동생", "사촌 언니", "삼촌"]

# ---------------------------------------------------------------------------- episodes

WHEN_KO = ["오늘", "어제", "그저께", "지난 주말", "오늘 아침", "어젯밤", "퇴근길에", "점심시간에", "지난주 금요일", "며칠 전",
           "주말에", "새벽에", "수업 끝나고", "아까"]
WHERE_KO = ["카페에서", "도서관에서", "한강공원에서", "회사에서", "학교에서", "헬스장에서", "집에서", "편의점 앞에서",
            "지하철에서", "동네 술집에서", "영화관에서", "PC방에서", "시장에서", "공원에서", "백화점에서", "바닷가에서"]
WITH_KO = ["친구 {friend_rang}", "{family_rang}", "혼자", "팀장님이랑", "동기들이랑", "{friend_rang}", "남자친구랑", "여자친구랑",
           "룸메이트랑", "회사 사람들이랑"]
DID_KO = ["{food} 먹었는데", "영화 {movie} 봤는데", "산책했는데", "시험 공부했는데", "야근했는데", "{hobby} 했는데",
          "쇼핑했는데", "오래 수다 떨었는데", "발표 준비했는데", "면접 보고 왔는데", "이사 짐 정리했는데", "자전거 탔는데",
          "{artist} 노래 들었는데", "사진 찍었는데", "게임 {game} 했는데", "생일 파티 했는데", "병원 다녀왔는데",
          "알바 했는데", "청소했는데", "요리 연습했는데", "운동했는데"]
FELT_KO = ["기분이 좋았다고 함", "너무 피곤했다고 함", "속상했다고 함", "엄청 웃겼다고 함", "뿌듯했다고 함",
           "스트레스를 많이 받았다고 함", "마음이 편해졌다고 함", "조금 외로웠다고 함", "설렜다고 함", "긴장했다고 함",
           "후회했다고 함", "다시 가고 싶다고 함", "지루했다고 함", "화가 났다고 함"]
WORRIES_KO = ["{goal} 때문에 걱정이 많음", "잠을 잘 못 잠", "{family_rang} 사이가 서먹해서 고민", "회사 일이 너무 많아서 힘들어함",
              "취업 준비로 불안해함", "돈 관리가 어렵다고 함", "친구 {friend_wa} 다퉈서 마음이 불편함", "건강검진 결과가 신경 쓰임",
              "이사 갈 집을 못 구해서 고민", "발표 공포증이 있어서 걱정", "연애 문제로 고민 중", "자취 생활이 외롭다고 함"]
HABITS_KO = ["매일 아침 {hobby_eul} 함", "자기 전에 {artist} 노래를 들음", "주말마다 {place}에 감", "점심은 보통 {food_eul} 먹음",
             "밤 12시 넘어서 잠", "아침마다 아이스 아메리카노를 마심", "주 3회 헬스장에 감", "일기를 씀",
             "퇴근 후 {hobby_eul} 함", "한 달에 한 번 {family_eul} 보러 감"]
OPINIONS_KO = ["{movie_i} 인생 영화라고 생각함", "{food_eun} {place_i} 제일 맛있다고 함", "{artist} 신곡이 별로라고 함",
               "재택근무가 더 낫다고 생각함", "{game_eun} 너무 어렵다고 함", "여름보다 겨울이 좋다고 함",
               "{book_eul} 꼭 다시 읽고 싶다고 함"]

WHEN_EN = ["Today", "Yesterday", "Last weekend", "This morning", "Last night", "On the way home", "Last Friday",
           "A few days ago", "During lunch", "After class"]
DID_EN = ["the user had {food_en} with {friend}", "the user went {hobby_en} alone", "the user watched {movie} at home",
          "the user worked late at the office", "the user studied for an exam at the library",
          "the user went shopping in {place_en}", "the user had a job interview",
          "the user cooked dinner for {family_en}", "the user played {game} with friends",
          "the user visited the dentist", "the user went to a concert of {artist}"]
FELT_EN = ["and felt happy", "and was exhausted", "and felt a bit lonely", "and was really proud", "and got stressed",
           "and laughed a lot", "and wants to do it again", "and was nervous", "and felt relieved"]
WORRIES_EN = ["The user is worried about {goal_en}", "The user has trouble sleeping lately",
              "The user feels anxious about the job search", "The user argued with {friend} and feels bad",
              "The user is stressed about money", "The user feels lonely living alone"]


@dataclass(frozen=True)
class Memory:
    content: str
    category: str
    kind: str
    subject_key: str = ""
    subject_value: str = ""
    importance: int = 5
    emotion: str = ""
    emotion_intensity: float = 0.0
    event_date: date | None = None


EMOTIONS = {"기분이 좋았다고 함": "joy", "너무 피곤했다고 함": "tired", "속상했다고 함": "sadness", "엄청 웃겼다고 함": "joy",
            "뿌듯했다고 함": "pride", "스트레스를 많이 받았다고 함": "stress", "마음이 편해졌다고 함": "calm",
            "조금 외로웠다고 함": "loneliness", "설렜다고 함": "excitement", "긴장했다고 함": "anxiety",
            "후회했다고 함": "regret", "다시 가고 싶다고 함": "joy", "지루했다고 함": "boredom", "화가 났다고 함": "anger"}


def _slots(rng: random.Random) -> dict[str, str]:
    slots = {"friend": rng.choice(FRIENDS), "family": rng.choice(FAMILY), "food": rng.choice(FOODS),
            "movie": rng.choice(MOVIES), "hobby": rng.choice(HOBBIES), "artist": rng.choice(ARTISTS),
            "game": rng.choice(GAMES), "goal": rng.choice(GOALS), "place": rng.choice(PLACES_KO),
            "book": rng.choice(BOOKS), "food_en": rng.choice(FOODS_EN), "hobby_en": rng.choice(HOBBIES_EN),
            "place_en": rng.choice(PLACES_EN), "goal_en": rng.choice(GOALS_EN), "family_en": rng.choice(FAMILY_EN)}
    for key in ("friend", "family", "food", "movie", "hobby", "game", "place", "book"):
        for suffix, pair in PARTICLES.items():
            slots[f"{key}_{suffix}"] = j(slots[key], pair)
    return slots


SINCE_KO = ["", "요즘", "이번 주에", "지난달부터", "며칠째", "최근 들어", "올해 들어", "이번 학기에", "예전부터", "겨울부터"]
ABOUT_KO = ["", "솔직히", "예전부터", "요즘 들어", "친구들한테도", "{friend}한테"]


def _lead(rng: random.Random, leads: list[str], text: str) -> str:
    lead = rng.choice(leads).format(friend=rng.choice(FRIENDS))
    return f"{lead} {text}" if lead else text


def episode(rng: random.Random, today: date) -> Memory:
    """One episodic/emotional memory: an event, a worry, a habit or an opinion (Korean 85%, English 15%)."""
    slots = _slots(rng)
    roll = rng.random()
    event_date = today - timedelta(days=rng.randint(0, 700)) if rng.random() < 0.4 else None
    if roll < 0.12:
        text = rng.choice(WHEN_EN) + ", " + rng.choice(DID_EN).format(**slots) + " " + rng.choice(FELT_EN) + "."
        return Memory(text, "event", "episodic", importance=rng.randint(3, 7), event_date=event_date)
    if roll < 0.15:
        return Memory(rng.choice(WORRIES_EN).format(**slots) + ".", "worry", "emotional", importance=rng.randint(5, 8),
                      emotion="anxiety", emotion_intensity=round(rng.uniform(0.3, 0.9), 2))
    if roll < 0.65:
        felt = rng.choice(FELT_KO)
        text = " ".join([rng.choice(WHEN_KO), rng.choice(WHERE_KO), rng.choice(WITH_KO).format(**slots),
                         rng.choice(DID_KO).format(**slots), felt])
        return Memory(text, "event", "episodic", importance=rng.randint(2, 7), emotion=EMOTIONS[felt],
                      emotion_intensity=round(rng.uniform(0.1, 0.8), 2), event_date=event_date)
    if roll < 0.80:
        return Memory(_lead(rng, SINCE_KO, rng.choice(WORRIES_KO).format(**slots)), "worry", "emotional",
                      importance=rng.randint(4, 8),
                      emotion="anxiety", emotion_intensity=round(rng.uniform(0.3, 0.9), 2))
    if roll < 0.92:
        return Memory(_lead(rng, SINCE_KO, rng.choice(HABITS_KO).format(**slots)), "habit", "semantic",
                      importance=rng.randint(3, 6))
    return Memory(_lead(rng, ABOUT_KO, rng.choice(OPINIONS_KO).format(**slots)), "opinion", "semantic",
                  importance=rng.randint(2, 5))


# ---------------------------------------------------------------------------- structured facts

def _birthday(rng):
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    return f"{month:02d}-{day:02d}", f"생일은 {month}월 {day}일"


SINGLE_FACTS = {  # subject -> (category, value maker returning (value, sentence))
    "name": ("personal_info", lambda r: (n := r.choice(NAMES), f"이름은 {n}")),
    "nickname": ("personal_info", lambda r: (n := r.choice(NAMES) + r.choice(["이", "짱", "쓰", ""]), f"별명은 {n}")),
    "age": ("personal_info", lambda r: (v := str(r.randint(19, 45)), f"나이는 {v}살")),
    "birthday": ("personal_info", _birthday),
    "occupation": ("personal_info", lambda r: (v := r.choice(JOBS_KO), f"직업은 {v}") if r.random() < 0.8
                   else (v := r.choice(JOBS_EN), f"The user works as a {v}")),
    "major": ("personal_info", lambda r: (v := r.choice(MAJORS), f"전공은 {v}")),
    "school": ("personal_info", lambda r: (v := r.choice(SCHOOLS), f"{v}에 다님")),
    "mbti": ("personal_info", lambda r: (v := r.choice(MBTIS), f"MBTI는 {v}")),
    "height": ("personal_info", lambda r: (v := str(r.randint(150, 190)), f"키는 {v}cm")),
    "blood_type": ("personal_info", lambda r: (v := r.choice(["A", "B", "O", "AB"]), f"혈액형은 {v}형")),
    "residence": ("location", lambda r: (v := r.choice(PLACES_KO), f"{v}에 살고 있음") if r.random() < 0.85
                  else (v := r.choice(PLACES_EN), f"The user lives in {v}")),
    "hometown": ("location", lambda r: (v := r.choice(PLACES_KO), f"고향은 {v}")),
    "workplace": ("location", lambda r: (v := r.choice(WORKPLACES), f"회사는 {v}에 있음")),
    "commute": ("location", lambda r: (v := r.choice(["지하철", "버스", "자전거", "자가용", "도보"]), f"출퇴근은 {j(v, '으로/로')} 함")),
    "living_arrangement": ("location", lambda r: (v := r.choice(["자취", "가족과 함께", "룸메이트와", "기숙사"]),
                                                  f"{v} 생활 중")),
    "dating_status": ("relationship", lambda r: (v := r.choice(["연애 중", "솔로", "썸 타는 중"]), f"요즘 {v}")),
    "favorite_food": ("preference", lambda r: (v := r.choice(FOODS), f"{j(v, '을/를')} 제일 좋아함")),
    "favorite_color": ("preference", lambda r: (v := r.choice(COLORS), f"좋아하는 색은 {v}")),
    "favorite_season": ("preference", lambda r: (v := r.choice(SEASONS), f"제일 좋아하는 계절은 {v}")),
    "favorite_movie": ("preference", lambda r: (v := r.choice(MOVIES), f"인생 영화는 {v}")),
    "favorite_artist": ("preference", lambda r: (v := r.choice(ARTISTS), f"제일 좋아하는 가수는 {v}")),
    "favorite_book": ("preference", lambda r: (v := r.choice(BOOKS), f"좋아하는 책은 {v}")),
    "favorite_game": ("preference", lambda r: (v := r.choice(GAMES), f"요즘 {v}에 빠져 있음")),
    "best_friend": ("person", lambda r: (v := r.choice(FRIENDS), f"제일 친한 친구는 {v}")),
    "dream_job": ("goal", lambda r: (v := r.choice(JOBS_KO), f"꿈은 {j(v, '이/가')} 되는 것")),
    "goal_score": ("goal", lambda r: (v := str(r.choice([800, 850, 900, 950])), f"토익 목표 점수는 {v}점")),
    "part_time_job": ("habit", lambda r: (v := r.choice(["편의점", "카페", "과외", "물류센터", "식당"]), f"{v} 알바를 함")),
}

MULTI_FACTS = {  # subject -> (category, value maker); several values may be current at once
    "hobby": ("preference", lambda r: (v := r.choice(HOBBIES), f"취미는 {v}") if r.random() < 0.8
              else (v := r.choice(HOBBIES_EN), f"The user enjoys {v}")),
    "likes": ("preference", lambda r: (v := r.choice(LIKES), f"{j(v, '을/를')} 좋아함")),
    "dislikes": ("preference", lambda r: (v := r.choice(DISLIKES), f"{j(v, '을/를')} 싫어함")),
    "friend": ("person", lambda r: (v := r.choice(FRIENDS), f"친구 {j(v, '과/와')} 자주 연락함")),
    "goal": ("goal", lambda r: (v := r.choice(GOALS), f"{j(v, '이/가')} 올해 목표")),
    "sport": ("habit", lambda r: (v := r.choice(["축구", "농구", "배드민턴", "테니스", "수영", "요가"]), f"주말에 {j(v, '을/를')} 함")),
    "pet": ("person", lambda r: (v := f"{r.choice(PETS)} {r.choice(PET_NAMES)}", f"{j(v, '을/를')} 키움")),
    "sibling": ("person", lambda r: (v := r.choice(SIBLINGS), f"{j(v, '이/가')} 한 명 있음")),
    "allergy": ("personal_info", lambda r: (v := r.choice(ALLERGIES), f"{v} 알레르기가 있음")),
    "phobia": ("personal_info", lambda r: (v := r.choice(PHOBIAS), f"{j(v, '을/를')} 무서워함")),
}
MULTI_IDENTITY_LIMIT = {"pet": 2, "sibling": 2, "allergy": 2, "phobia": 1}  # a person has few of these


def fact(rng: random.Random, subject: str) -> Memory:
    category, make = SINGLE_FACTS.get(subject) or MULTI_FACTS[subject]
    value, sentence = make(rng)
    importance = rng.randint(7, 10) if category == "personal_info" else rng.randint(4, 8)
    return Memory(sentence, category, "semantic", subject_key=subject, subject_value=value, importance=importance)


def scope_memories(rng: random.Random, count: int, today: date) -> list[tuple[Memory, bool]]:
    """`count` distinct memories of one rich scope as (memory, is_active).

    Every single-valued subject has one current value and 0-2 older ones (inactive, to be linked
    to their successor); multi-valued subjects hold several values; the rest (~85%) are episodes.
    """
    seen: set[str] = set()
    out: list[tuple[Memory, bool]] = []

    def add(memory: Memory, active: bool) -> bool:
        key = " ".join(memory.content.split()).casefold()
        if key in seen:
            return False
        seen.add(key)
        out.append((memory, active))
        return True

    for subject in SINGLE_FACTS:
        history = [fact(rng, subject) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
        values = []
        for memory in history:
            if memory.subject_value not in values and add(memory, False):
                values.append(memory.subject_value)
        # the last one added is current
        for index in range(len(out) - 1, -1, -1):
            if out[index][0].subject_key == subject:
                out[index] = (out[index][0], True)
                break
    fact_budget = max(len(out) + 10, int(count * 0.15))
    multi_used: dict[str, int] = {}
    attempts = 0
    while len(out) < min(fact_budget, count) and attempts < count * 20:
        attempts += 1
        subject = rng.choice(list(MULTI_FACTS))
        limit = MULTI_IDENTITY_LIMIT.get(subject)
        if limit is not None and multi_used.get(subject, 0) >= limit:
            continue
        if add(fact(rng, subject), True):
            multi_used[subject] = multi_used.get(subject, 0) + 1
    attempts = 0
    while len(out) < count and attempts < count * 50:
        attempts += 1
        add(episode(rng, today), True)
    if len(out) < count:
        raise RuntimeError(f"templates gave only {len(out)} distinct memories for {count}")
    out = out[:count]
    rng.shuffle(out)  # learnt over time, not subject by subject
    # ...but a single-valued subject's older values come before its current one
    for subject in SINGLE_FACTS:
        positions = [i for i, (memory, _) in enumerate(out) if memory.subject_key == subject]
        ordered = sorted((out[i] for i in positions), key=lambda pair: pair[1])  # inactive first
        for i, pair in zip(positions, ordered):
            out[i] = pair
    return out


def filler_memory(rng: random.Random, today: date) -> Memory:
    """Cheap memory text for the background rows (another user's scope)."""
    if rng.random() < 0.2:
        subject = rng.choice(list(SINGLE_FACTS) + list(MULTI_FACTS))
        return fact(rng, subject)
    return episode(rng, today)
