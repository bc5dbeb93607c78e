"""Preferences in a Korean user message: favourites, likes and dislikes, hobby, sport, best friend.

A favourite's subject comes from the topic word when there is one ("좋아하는 음식은", "인생 영화") and
otherwise from the value's type ("가을" is a season, "남색" a colour, "농구" a sport).
"""
from __future__ import annotations

import re

from .candidates import Candidate
from .korean_text import about_someone_else, clauses, name_at, strip_name_suffix, valid_value, wished_after
from .lexicon import (
    ANIMALS_KO,
    ARTISTS_KO,
    DRINKS_KO,
    FRUITS_KO,
    HOBBIES_KO,
    SEASONS_KO,
    SPORTS_KO,
    in_list,
    is_color_ko,
    is_food_ko,
)
from .morphology import is_negated_at, is_past_at, noun_phrase_after, noun_phrase_before, predicates
from .registry import FAVORITE_TOPICS

TOPIC_SUBJECTS_KO = {
    "음식": "favorite_food", "먹을거": "favorite_food", "먹을 거": "favorite_food", "메뉴": "favorite_food",
    "요리": "favorite_food", "계절": "favorite_season", "색": "favorite_color", "색깔": "favorite_color",
    "컬러": "favorite_color", "영화": "favorite_movie", "가수": "favorite_artist", "아티스트": "favorite_artist",
    "뮤지션": "favorite_artist", "밴드": "favorite_artist", "그룹": "favorite_artist", "아이돌": "favorite_artist",
    "노래": "favorite_song", "곡": "favorite_song", "책": "favorite_book", "소설": "favorite_book",
    "작가": "favorite_author", "게임": "favorite_game", "드라마": "favorite_drama", "애니": "favorite_anime",
    "애니메이션": "favorite_anime", "동물": "favorite_animal", "과일": "favorite_fruit", "음료": "favorite_drink",
    "음료수": "favorite_drink", "술": "favorite_drink", "과목": "favorite_subject", "꽃": "favorite_flower",
    "웹툰": "favorite_webtoon", "유튜버": "favorite_youtuber", "캐릭터": "favorite_character",
    "장르": "favorite_genre", "장소": "favorite_place", "숫자": "favorite_number", "브랜드": "favorite_brand",
    "간식": "favorite_snack", "과자": "favorite_snack", "디저트": "favorite_dessert", "예능": "favorite_show",
    "프로그램": "favorite_show", "팀": "favorite_team", "구단": "favorite_team", "배우": "favorite_actor",
    "도시": "favorite_city", "나라": "favorite_country", "날씨": "favorite_weather", "운동": "sport",
    "스포츠": "sport", "취미": "hobby", "맛집": "favorite_restaurant", "여행지": "favorite_place",
    "카페": "favorite_cafe", "멤버": "favorite_artist", "향": "favorite_scent", "향수": "favorite_perfume",
    "커피": "favorite_drink", "라면": "favorite_food", "작품": "favorite_work", "연예인": "favorite_artist",
}
_GENRES = ("발라드", "힙합", "재즈", "락", "록", "클래식", "트로트", "케이팝", "K팝", "팝", "인디", "시티팝", "알앤비", "R&B",
           "EDM", "댄스", "OST", "로파이", "메탈", "펑크", "랩", "동요", "뉴에이지", "밴드 음악", "J팝", "제이팝")
_NOT_PREFERENCE = frozenset({"사람", "거", "것", "게", "날", "때", "너", "나", "우리", "오늘", "요즘", "이번", "시간", "생각",
                             "기분", "분위기", "느낌", "말", "얘기", "사이", "편", "쪽", "맛", "정도", "인정", "최고", "짱",
                             "등극", "그자체", "그 자체", "레전드", "국룰", "진리", "완전", "역시", "이거", "그거", "저거"})
_ADVERBS = r"(?:제일|가장|젤|진짜|완전|엄청|되게|정말|많이|특히|너무|은근|꽤|무척|좀|더|훨씬|제일로|최고로|원래|요즘|특히나|엄청나게)"
_TRAILING_ADVERBS = re.compile(rf"(?:\s*{_ADVERBS})+\s*$")
_SUPERLATIVE = re.compile(r"제일|가장|젤|최고|짱|최애|훨씬|더\s|보다")


def type_subject(value: str) -> str:
    """Return the favourite subject implied by the value itself ("가을" → favorite_season), or ''."""
    compact = value.replace(" ", "")
    if compact in SEASONS_KO:
        return "favorite_season"
    if is_color_ko(compact):
        return "favorite_color"
    if in_list(compact, SPORTS_KO):
        return "sport"
    if compact in FRUITS_KO:
        return "favorite_fruit"
    if in_list(compact, DRINKS_KO):
        return "favorite_drink"
    if is_food_ko(compact):
        return "favorite_food"
    if compact in ANIMALS_KO:
        return "favorite_animal"
    if in_list(compact, _GENRES):
        return "favorite_genre"
    if compact.lower() in {a.replace(" ", "").lower() for a in ARTISTS_KO}:
        return "favorite_artist"
    if compact in {h.replace(" ", "") for h in HOBBIES_KO}:
        return "hobby"
    return ""


# One season and one colour are favourites even when merely liked; foods, drinks and the rest are many.
_ALWAYS_FAVORITE = frozenset({"favorite_season", "favorite_color", "sport", "hobby"})


_NOT_TOPICS = frozenset({"사람", "편", "거", "것", "게", "건", "애", "느낌", "스타일", "타입", "부분", "쪽", "이유", "중", "때문"})


def _topic_subject(topic: str) -> tuple[str, str]:
    """Return (subject, label) for a topic word; unknown topics become `likes` labelled with the topic."""
    topic = topic.strip()
    if topic in TOPIC_SUBJECTS_KO:
        return TOPIC_SUBJECTS_KO[topic], ""
    last = topic.split()[-1] if topic.split() else topic
    if last in TOPIC_SUBJECTS_KO:
        return TOPIC_SUBJECTS_KO[last], ""
    if len(topic.replace(" ", "")) < 2 or topic in _NOT_TOPICS or re.search(r"(?:임|야|이야|거|것|게|건|데|듯)$", topic):
        return "likes", ""  # "좋아하는 임" is an ending, not a topic
    return "likes", f"좋아하는 {topic}"


def _preference(value: str, topic: str = "", superlative: bool = False) -> Candidate | None:
    value = value.strip()
    if not valid_value(value) or value in _NOT_PREFERENCE:
        return None
    if topic:
        subject, label = _topic_subject(topic)
        return Candidate(subject, value, label=label)
    typed = type_subject(value)
    if typed and (superlative or typed in _ALWAYS_FAVORITE):
        return Candidate(typed, value)
    if typed == "favorite_artist":
        return Candidate(typed, value)
    if typed:
        topic_word = FAVORITE_TOPICS[typed.removeprefix("favorite_")][0]
        return Candidate("likes", value, label=f"좋아하는 {topic_word}")
    return Candidate("likes", value) if superlative else None


# --- favourites with a topic word ----------------------------------------------------------------------

_FAVORITE_TOPIC = re.compile(r"좋아하는\s*(?P<topic>[가-힣A-Za-z]+?(?:\s[가-힣]+?)?)(?:은|는|이|가)\s+")
_FAVORITE_AFTER = re.compile(r"(?P<kw>(?:내가|제가|나의|내|제)?\s*(?:제일|가장|젤)?\s*좋아하는)\s*(?P<topic>[가-힣A-Za-z]+?)"
                             r"(?:이야|야|이에요|예요|에요|입니다|임|이고|인데|이지)?(?=$|\s|[!.,~])")
_BEST_TOPIC = re.compile(r"최애\s*(?P<topic>[가-힣A-Za-z]+?)?(?:은|는|이|가)\s+")
_BEST_AFTER = re.compile(r"(?P<kw>(?:내|제|나의)?\s*최애)(?:\s*(?P<topic>[가-힣]+?))?(?:야|이야|임|예요|에요|이에요|입니다|이고|인데|이지|$|\s|"
                         r"[!.,~])")
_LIFE = r"(?:음식|영화|노래|곡|책|게임|드라마|밴드|가수|애니|웹툰|캐릭터|맛집|여행지|작품|술|카페|메뉴|간식|과자|아이돌|배우|계절)"
_LIFE_WORD = re.compile(rf"(?:인생\s*(?P<topic>{_LIFE})|(?P<soul>소울\s*푸드))")
_LIFE_TOPIC_FIRST = re.compile(r"\s*(?:은|는|이|가)?\s+(?=\S)")  # "인생 영화는 라라랜드", "인생 영화 인터스텔라임"
_LIFE_CLOSES = re.compile(r"\s*(?:이야|야|임|이라|라|이에요|예요|에요|입니다|이지|이거든|ㅋ+|ㅎ+|[!.,~?]|$)")
_LIFE_LEAD_IN = re.compile(r"(?:\s*(?:내|제|나의|진짜|완전|정말|진심|그야말로))+\s*$")
# What a "인생 영화" was done to: "어바웃 타임 틀어놓고", "두 번 읽음", "노래만 들음".
_CONSUMED = re.compile(r"\s*(?:을|를|은|는|만|도)?\s*(?:(?:자주|매일|맨날|계속|또|다시|몇\s*번|두\s*번|세\s*번|열\s*번|여러\s*번)\s+)?"
                       r"(?:틀어|틀고|봤|보고|보는|봄|읽|들어|듣|들음|정주행|먹|시켜)")
_FAVORITE_HINT = re.compile(r"(?:이|가)\s*(?:최고|짱|제일|진리)|\s*(?:노래|영화|음악)|\s*(?:다섯|여러|몇|\d+)\s*번")
_TIME_NOUNS = frozenset({"작년", "올해", "오늘", "어제", "내일", "요즘", "비", "날", "주말", "아침", "저녁", "밤"})


def _antecedent(texts: list[str], topic: str) -> str:
    """Return what "내 인생 음식임" / "인생영화라" refers to: a fitting noun phrase said just before.

    `texts` are searched in order (the message before the phrase, then the character's question).
    """
    subject, _ = _topic_subject(topic)
    for text in texts:
        consumed = [noun_phrase_before(text, m.start(), max_words=3) for m in _CONSUMED.finditer(text)]
        hinted = [noun_phrase_before(text, m.start(), max_words=2) for m in _FAVORITE_HINT.finditer(text)]
        leading = [noun_phrase_after(clause, 0, max_words=2) for clause in clauses(text)]
        options = [re.sub(r"\s*(?:노래|음악|곡|앨범|영화|책|드라마)$", "", o) for o in consumed + hinted + leading]
        options = [o for o in options
                   if valid_value(o) and o not in _NOT_PREFERENCE and o not in _TIME_NOUNS and len(o) >= 2]
        if subject == "favorite_food":
            options = [o for o in options if is_food_ko(o)]
        if options:
            return options[0]
    return ""


def _life_favorites(clause: str, message: str, context: str) -> list[Candidate]:
    """"인생 영화 인터스텔라", "인터스텔라가 내 인생 영화야", "... 인생영화라", "내 소울푸드임"."""
    found = []
    for match in _LIFE_WORD.finditer(clause):
        topic = match.group("topic") or "음식"
        value = ""
        topic_first = _LIFE_TOPIC_FIRST.match(clause, match.end())
        if topic_first and not _LIFE_CLOSES.match(clause, match.end()):
            value = noun_phrase_after(clause, topic_first.end(), max_words=3)
        if not valid_value(value):
            lead = _LIFE_LEAD_IN.sub("", clause[:match.start()])
            before = noun_phrase_before(lead, len(lead), max_words=3)
            if valid_value(before):
                value = before  # "인터스텔라가 내 인생 영화야", "불편한 편의점은 진짜 인생책"
        if not valid_value(value) or value in _NOT_PREFERENCE:
            offset = message.find(clause)
            value = _antecedent([message[:(offset if offset >= 0 else 0) + match.start()], context], topic)
        candidate = _preference(value, topic)
        if candidate:
            found.append(candidate)
    return found


_COPULA_END = re.compile(r"(?:이야|야|임|이에요|예요|에요|입니다|이지|이고|인데|이거든|이라서|라서)$")


def _strip_copula(value: str) -> str:
    """"카리나야" → 카리나: the analyser may keep the copula on an unknown name."""
    stripped = _COPULA_END.sub("", value or "")
    return stripped if stripped != value and len(stripped) >= 2 else value


def _favorites(clause: str, message: str) -> list[Candidate]:
    found = []
    if clause.rstrip().endswith("?"):
        return found  # a question, often to the character
    for match in _FAVORITE_TOPIC.finditer(clause):
        if about_someone_else(clause, match.start()):
            continue
        value = noun_phrase_after(clause, match.end(), max_words=4)
        candidate = _preference(value, match.group("topic"))
        if candidate:
            found.append(candidate)
    for match in _FAVORITE_AFTER.finditer(clause):
        if match.group("topic").endswith(("은", "는", "을", "를", "도")):
            continue  # "좋아하는 음식은 ..." names the value after, not before
        value = noun_phrase_before(clause, match.start("kw"), max_words=3)
        if value and not about_someone_else(clause, clause.rfind(value, 0, match.start("kw"))):
            candidate = _preference(value, match.group("topic"))
            if candidate:
                found.append(candidate)
    for match in _BEST_TOPIC.finditer(clause):
        value = _strip_copula(noun_phrase_after(clause, match.end(), max_words=3))
        topic = match.group("topic") or ""
        candidate = _preference(value, topic) if topic else (_preference(value) or _preference(value, "가수"))
        if candidate and not about_someone_else(clause, match.start()):
            found.append(candidate)
    for match in _BEST_AFTER.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=3)
        topic = match.group("topic") or ""
        candidate = _preference(value, topic) if topic else (_preference(value) or _preference(value, "가수"))
        if candidate:
            found.append(candidate)
    return found


# --- "X 좋아해", "X가 최고", "X 싫어해" -----------------------------------------------------------------

_TOPIC_BEFORE = re.compile(r"(?P<topic>[가-힣]+?)(?:은|는)\s+$")
_COORDINATION = re.compile(r"(?:이랑|랑|하고|와|과|,)\s*$")
_FAVORITE_THING = re.compile(r"(?P<most>제일|가장|젤)?\s*(?P<verb>좋아하는|싫어하는)\s*(?:건|게|거는|것은)\s+")


def _coordinated(before: str) -> list[str]:
    """Return the nouns joined before a value ("곱창이랑 마라탕" → ["곱창"] before "마라탕")."""
    found: list[str] = []
    while _COORDINATION.search(before):
        before = _COORDINATION.sub("", before)
        value = noun_phrase_before(before, len(before), max_words=2)
        if not value:
            break
        found.insert(0, value)
        before = before[:before.rfind(value)]
    return found
_BEST_IS = re.compile(r"(?P<kw>(?:제일|가장|젤|최고로)?\s*(?:최고|짱|진리|최애))(?:야|이야|임|지|다|예요|에요|입니다|$|\s|[!.,~])")
_ACTIVITY = re.compile(rf"(?P<act>(?:[가-힣A-Za-z]+\s+)?[가-힣A-Za-z]+?(?:하는|는|은))\s*(?:거|것|걸)\s*(?:을|"
                       rf"를)?\s*(?:{_ADVERBS}\s*)*좋아")


def _likes(clause: str) -> list[Candidate]:
    found = []
    if clause.rstrip().endswith("?"):
        return found
    for morph in predicates(clause, ("좋아하다", "좋다", "싫어하다", "싫다")):
        if is_past_at(clause, morph) or wished_after(clause, morph.start) \
                or re.match(r"(?:겠|을\s*거|ㄹ\s*거|을걸|ㄹ걸)", clause[morph.end:morph.end + 4]):
            continue  # "현우 완전 좋아하겠다" guesses about someone else
        before = _TRAILING_ADVERBS.sub("", clause[:morph.start])
        negated = is_negated_at(clause, morph)
        if negated:
            before = re.sub(r"\s*(?:안|못)\s*$", "", before)
            before = _TRAILING_ADVERBS.sub("", before)
        value = noun_phrase_before(before, len(before), max_words=3)
        if not value or about_someone_else(clause, before.rfind(value)):
            continue
        between = before[before.rfind(value) + len(value):]
        if not re.fullmatch(r"\s*(?:을|를|도|은|는|만|이|가|이랑|랑)?\s*", between):
            continue
        superlative = bool(_SUPERLATIVE.search(clause[:morph.start]))
        dislike = morph.lemma.startswith("싫") or negated
        values = _coordinated(before[:before.rfind(value)]) + [value]
        if dislike:
            found += [Candidate("dislikes", v) for v in values if valid_value(v) and v not in _NOT_PREFERENCE]
            continue
        topic_match = _TOPIC_BEFORE.search(before[:before.rfind(value)])
        topic = topic_match.group("topic") if topic_match and topic_match.group("topic") in TOPIC_SUBJECTS_KO else ""
        if morph.lemma == "좋다" and not (superlative or type_subject(value) or topic):
            continue  # "날씨가 좋아" describes the weather
        for each in values:
            candidate = _preference(each, topic, superlative=superlative) or (
                Candidate("likes", each) if morph.lemma == "좋아하다" and valid_value(each)
                and each not in _NOT_PREFERENCE else None)
            if candidate:
                found.append(candidate)
    for match in _FAVORITE_THING.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=3)
        if about_someone_else(clause, match.start()) or not valid_value(value):
            continue
        if match.group("verb").startswith("싫"):
            found.append(Candidate("dislikes", value))
        else:
            candidate = _preference(value, superlative=bool(match.group("most")))
            if candidate:
                found.append(candidate)
    for match in _BEST_IS.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=3)
        candidate = _preference(value, superlative=True)
        if candidate and not about_someone_else(clause, max(0, clause.rfind(value, 0, match.start("kw")))):
            found.append(candidate)
    for match in _ACTIVITY.finditer(clause):
        act = match.group("act").strip()
        if not about_someone_else(clause, match.start()) and len(act) >= 2 and not act.startswith(("좋아", "싫어")):
            found.append(Candidate("hobby", f"{act} 것"))
    return found


# --- music, hobby, sport, best friend ------------------------------------------------------------------

_MUSIC = re.compile(r"(?:의\s*)?(?:노래|음악|곡|앨범|플리)(?:를|을|만|도|은|는|들|들만|만\s*주구장창)?\s*(?:\S+\s+)?"
                    r"(?:들어|들음|듣|들어요|듣는|들었|즐겨|무한\s*반복|무한반복)")
_FAN = re.compile(r"(?P<kw>팬이야|팬임|팬이에요|팬입니다|팬이거든|팬이라|팬이고|팬인데|덕질|덕후|찐팬|빠순이|빠돌이)")
_NOT_ARTIST = frozenset({"요즘", "신나는", "옛날", "최신", "아무", "이", "그", "저", "조용한", "잔잔한", "슬픈", "좋은",
                         "유튜브", "멜론", "스포티파이", "지니", "플리", "출근길", "지하철", "버스", "자기", "잘", "맨날",
                         "계속", "하루", "종일", "가끔", "주로", "매일", "걔", "이번"})
_HOBBY_TOPIC = re.compile(r"(?:내|제)?\s*취미(?:는|가)\s*(?P<v>[^.!?,]+?)(?:이야|야|이에요|예요|에요|입니다|임|이고|고|인데|이라서|라서|이라|라|"
                          r"이지)?(?=[\s!.,~?]|$)")
_HOBBY_AFTER = re.compile(r"(?P<kw>(?:내|제)?\s*취미)(?=야|예요|에요|이에요|임|입니다|이고|이라|라|$|\s|[!.,~])")
_HOBBY_ACTIVITY = re.compile(r"(?P<act>(?:[가-힣A-Za-z]+\s+){0,2}[가-힣A-Za-z]+(?:는|은|기))\s*(?:게|거|것이|것)\s*(?:내|제)?\s*취미")
_HOBBY_AS = re.compile(r"취미로\s*")
_SPARE_TIME = re.compile(r"(?:쉬는\s*날|주말|휴일|시간\s*(?:날\s*때|나면|있을\s*때)|퇴근하고|퇴근\s*후|집에\s*있을\s*때|심심할\s*때)"
                         r"(?:에는|엔|마다|에|은|는|이면)?\s*(?:주로|보통|항상|맨날|대부분|거의|늘)\s*(?P<v>[^.!?,]+?)"
                         r"(?:(?:해|함|하고|해요)|\s+(?:봐|봄|보고|봐요|가|감|가요|다녀|다녀요|들어|들음|들어요|만들어|만들고))"
                         r"(?=[\s!.,~?]|$)")
_INTO = re.compile(r"에\s*(?P<kw>(?:요즘\s*)?(?:완전\s*|푹\s*|엄청\s*)?(?:빠졌|빠져\s*있|빠져서|꽂혔|꽂혀\s*있|미쳐\s*있|입덕))")
_NOT_HOBBIES = frozenset({"물", "바다", "강", "웅덩이", "늪", "함정", "구멍", "사랑", "고민", "생각", "슬픔", "우울", "잠", "늪지대"})
_SPORT_TOPIC = re.compile(r"운동(?:은|는|으로는|으로)\s*")
_SPORT_WORD = "|".join(sorted((re.escape(s) for s in SPORTS_KO), key=len, reverse=True))
_SPORT_DO = re.compile(rf"(?<![가-힣])(?P<s>{_SPORT_WORD})(?:을|를|도|는|은|만)?\s*(?:(?:매일|자주|꾸준히|주로|열심히|가끔|요즘|매주|주말마다|"
                       rf"같이)\s*)?"
                       r"(?P<v>하|해|함|한|다니|다녀|다님|다닌|배우|배워|배움|배운|치|쳐|침|좋아|즐기|즐겨|뛰|뜀|타|탐|시작|입문)")
_BEST_FRIEND_TOPIC = re.compile(
    r"(?:(?:제일|가장|젤)\s*친한\s*(?:친구|애|건|거|놈|사람|얘|녀석)|베프|베스트\s*프렌드|절친|단짝|찐친|불알친구|소꿉친구)"
    r"(?:는|은|가|이)?\s+")
_BEST_FRIEND_AFTER = re.compile(
    r"(?P<kw>(?:내|제|나의)?\s*(?:(?:제일|가장|젤)\s*친한\s*친구|베프|절친|단짝|찐친|베스트\s*프렌드))"
    r"(?:야|이야|임|예요|에요|이에요|입니다|이고|인데|이지|$|\s|[!.,~])")
_CLOSEST = re.compile(r"(?P<who>\S+?)(?:이랑|랑|하고|와|과)\s*(?:제일|가장|젤)\s*친해")


_HABIT = re.compile(r"매일|매주|자주|꾸준히|주로|마다|요즘|취미|좋아|즐겨|즐기|매번|항상|맨날|늘|주\s*\d|일주일에|한\s*달에|년째|년\s*차|"
                    r"개월째|동호회|수업|레슨|배우|다녀|다니")
_ONE_OFF = re.compile(r"어제|그저께|오늘|아까|지난|저번|갔다\s*옴|갔다\s*왔|다녀왔|다녀옴|처음으로|한\s*번")


# "풋살 동호회 다녀", "회사 풋살 동호회에서 뛰어": a club is a habit.
_SPORT_CLUB = re.compile(rf"(?<![가-힣])(?P<s>{_SPORT_WORD})\s*(?:동호회|동아리|클럽|크루|소모임|모임|팀)(?![가-힣]*(?:장님|원들))")
_LEFT_CLUB = re.compile(r"^\S*\s*(?:\S+\s+)?(?:탈퇴|나왔|나옴|그만|관뒀|관둠|해체|없어)")


def _hobby_sport(clause: str) -> list[Candidate]:
    found = []
    for match in _SPORT_CLUB.finditer(clause):
        if not about_someone_else(clause, match.start()) and not wished_after(clause, match.end()) \
                and not _LEFT_CLUB.match(clause[match.end():]):
            found.append(Candidate("sport", match.group("s")))
    for match in _MUSIC.finditer(clause):
        value = noun_phrase_before(clause, match.start(), max_words=2)
        if not valid_value(value) or value in _NOT_ARTIST or about_someone_else(clause, max(0, clause.rfind(value))):
            continue
        found.append(Candidate("favorite_genre" if in_list(value, _GENRES) else "favorite_artist", value))
    for match in _FAN.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=2)
        if not valid_value(value) or value in _NOT_ARTIST:
            continue
        if not about_someone_else(clause, max(0, clause.rfind(value))):
            typed = type_subject(value)
            if typed and typed not in {"favorite_artist", "sport"}:
                found.append(Candidate(typed, value))  # "연보라 덕후" is a colour
            elif in_list(value, SPORTS_KO):
                found.append(Candidate("sport", value))
            elif re.search(_SPORT_WORD + r"|경기|리그|구단|선수", clause):
                found.append(Candidate("favorite_team", value))
            else:
                found.append(Candidate("favorite_artist", value))
    if clause.rstrip().endswith("?"):
        return found
    for match in _HOBBY_TOPIC.finditer(clause):
        value = match.group("v").strip()
        if len(value.split()) <= 4 and valid_value(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("hobby", value))
    for match in _HOBBY_AFTER.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=3)
        if valid_value(value) and not about_someone_else(clause, max(0, clause.rfind(value))):
            found.append(Candidate("hobby", value))
    for match in _HOBBY_ACTIVITY.finditer(clause):
        act = re.sub(r"^(?:내|제|나는|난|저는|전|요즘|그냥)\s+", "", match.group("act").strip())
        if len(act) >= 2 and not about_someone_else(clause, match.start()):
            found.append(Candidate("hobby", act if act.endswith("기") else f"{act} 것"))
    for match in _HOBBY_AS.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=3)
        if valid_value(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("hobby", value))
    for match in _SPARE_TIME.finditer(clause):
        value = match.group("v").strip()
        if valid_value(value) and "알바" not in value and len(value.split()) <= 4 \
                and not about_someone_else(clause, match.start()):
            found.append(Candidate("hobby", value))
    for match in _INTO.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=2)
        if not valid_value(value) or value in _NOT_HOBBIES:
            continue
        if not about_someone_else(clause, max(0, clause.rfind(value))):
            artist = re.match(r"(.+?)\s*(?:노래|음악|곡|앨범)$", value)
            if artist:
                found.append(Candidate("favorite_artist", artist.group(1)))  # "BTS 노래에 빠졌어"
                continue
            value = re.sub(r"^(?:요즘|최근|이번|올해|작년)\s+", "", value)
            typed = type_subject(value)
            found.append(Candidate(typed if typed in {"sport", "favorite_artist"} else "hobby", value))
    for match in _SPORT_TOPIC.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=2)
        if valid_value(value) and value not in {"별로", "안"} and not about_someone_else(clause, match.start()):
            if not re.match(r"\s*(?:안|못|별로)", clause[match.end() + len(value):match.end() + len(value) + 4]):
                found.append(Candidate("sport", value))
    for match in _SPORT_DO.finditer(clause):
        after = clause[match.start("v"):]
        if wished_after(clause, match.start("v")) or re.match(r"\S*(?:었었|했었|던)", after) \
                or re.search(r"(?:안|못)\s*$", clause[:match.start("v")]) or about_someone_else(clause, match.start()):
            continue
        if re.match(r"(?:하|해|함)", match.group("v")) and re.match(r"\S*(?:고\s*싶|려고|ㄹ까|까)", after):
            continue
        habit = _HABIT.search(clause) or match.group("v").startswith(("좋아", "즐기", "즐겨", "배우", "배워", "배움", "배운",
                                                                       "다니", "다녀", "다님", "다닌", "입문"))
        if not habit and (re.match(r"\S*(?:고|서)(?:\s|$)", after) or re.match(r"\S*(?:러|려고)(?:\s|$)", after) or re.match(r"\S*(?:었|았|였|했|쳤|탔|뛰었|뛰었)", after)
                          or _ONE_OFF.search(clause)):
            continue  # "자전거 타고 한강 갔다옴", "어제 테니스 쳤어": one outing, not the user's sport
        found.append(Candidate("sport", match.group("s")))
    return found


def _best_friend(clause: str) -> list[Candidate]:
    found = []
    for match in _BEST_FRIEND_TOPIC.finditer(clause):
        name = name_at(clause, match.end())
        if valid_value(name) and name not in {"누구", "걔", "얘", "없어", "없음"}:
            found.append(Candidate("best_friend", name))
    for match in _BEST_FRIEND_AFTER.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=1)
        if valid_value(value) and value not in {"걔", "얘", "너"}:
            found.append(Candidate("best_friend", value))
    for match in _CLOSEST.finditer(clause):
        who = name_at(clause, match.start("who"))
        if valid_value(who) and who not in {"너", "걔"}:
            found.append(Candidate("best_friend", who))
    return found


# "곱창 없으면 못 살아", "마라탕 없인 못 살지": a favourite food (or a plain like for anything else).
_CANT_LIVE = re.compile(r"(?P<v>[가-힣A-Za-z]+)\s*(?:이|가)?\s*(?:없으면|없인|없이는|없이|빼면)\s*(?:진짜\s*|절대\s*|난\s*|나\s*)?"
                        r"(?:못\s*살|안\s*돼|못\s*사는|인생\s*무의미)")
# "요즘은 곱창보다 마라탕", "곱창보단 마라탕이 더 좋아": the second food is the favourite now.
_RATHER = re.compile(r"(?P<old>[가-힣A-Za-z]+?)\s*(?:보다|보단|보다는)\s+(?:(?:요즘은|이제는|이제|난|나는|훨씬|더)\s+)*"
                     r"(?P<v>[가-힣A-Za-z]+?)(?:이|가)?(?:\s*(?:더|훨씬|제일)\s*(?:좋|맛있|땡겨|당겨|최고|끌려)\S*|\s*(?:이야|야|임|지|인듯|파)?"
                     r"\s*[ㅋㅎ!.~]*\s*$)")


def _food_favorites(clause: str) -> list[Candidate]:
    found = []
    for match in _CANT_LIVE.finditer(clause):
        value = noun_phrase_before(clause, match.end("v"), max_words=2)
        if valid_value(value) and value not in _NOT_PREFERENCE and not about_someone_else(clause, match.start()):
            typed = type_subject(value)
            found.append(Candidate(typed if typed in {"favorite_food", "favorite_drink"} else "likes", value))
    for match in _RATHER.finditer(clause):
        old, value = match.group("old"), match.group("v")
        if is_food_ko(value) and (is_food_ko(old) or "좋" in match.group(0)) \
                and not about_someone_else(clause, match.start()):
            found.append(Candidate("favorite_food", value))
    return found


def preference_facts(clause: str, message: str, context: str = "") -> list[Candidate]:
    """Return favourites, likes/dislikes, hobby, sport and best friend stated in one clause.

    `context` is the character's turn before the message, where "내 소울푸드임" may find what it means.
    """
    found = (_favorites(clause, message) + _life_favorites(clause, message, context) + _likes(clause)
             + _hobby_sport(clause) + _best_friend(clause) + _food_favorites(clause))
    # A clause that names a favourite should not also list it as a plain like.
    named = {c.value for c in found if c.subject != "likes"}
    return [c for c in found if c.subject != "likes" or c.value not in named]



# --- "최애 바뀜 이제 해린", "최애가 해린으로 바뀜": a changed favourite ------------------------------------

_CHANGED = r"(?:바뀜|바뀌었\S*|바꼈\S*|바뀐\s*듯|바뀌어\S*|갈아탐|갈아탔\S*|바꿈|바꿨\S*)"
_BEST_CHANGED = re.compile(rf"(?:내\s*|제\s*)?(?:최애|제일\s*좋아하는|가장\s*좋아하는)\s*(?P<topic>[가-힣]{{1,5}}?)?\s*"
                           rf"(?:가|이|는|은|도)?\s*(?:(?:\S+?에서\s*)?(?P<before>\S+?)(?:으로|로)\s*)?{_CHANGED}")
_NOW_LEAD = re.compile(r"[\s,.!~ㅋㅎㅠ]*(?:(?:이제(?:는|부터)?|지금은|요즘은|앞으로는|새\s*최애는?|새로운\s*최애는?|"
                       r"바로|걍|그냥)\s*)*")
UNRESOLVED_FAVORITE = "favorite_"
# "카리나에서 해린으로 최애 바뀜", "최애가 카리나에서 해린으로 갈아탐": the new one is the one after 에서.
_CHANGED_TO_FIRST = re.compile(rf"(?:(?P<old>\S+?)에서\s*)?(?P<before>[가-힣A-Za-z0-9]\S*?)(?:으로|로)\s*(?:내\s*|제\s*)?"
                               rf"최애\s*(?P<topic>[가-힣]{{1,5}}?)?\s*(?:가|이|도)?\s*{_CHANGED}")
_FROM_TO = re.compile(r"^(?P<old>[가-힣A-Za-z0-9]\S*?)에서\s*(?P<new>[가-힣A-Za-z0-9][가-힣A-Za-z0-9&.'-]*)")


def _changed_value(message: str, match: re.Match) -> str:
    value = match.group("before") or ""
    if value.endswith("에서"):
        value = ""
    if not value:
        lead = _NOW_LEAD.match(message, match.end())
        rest = message[lead.end() if lead else match.end():]
        from_to = _FROM_TO.match(rest)  # "이제 카리나에서 해린": the new one
        word = re.match(r"[가-힣A-Za-z0-9][가-힣A-Za-z0-9&.'-]*", rest)
        value = from_to.group("new") if from_to else (word.group(0) if word else "")
    value = re.sub(r"(?:이야|야|임|이에요|예요|에요|입니다|으로|로)$", "", value.strip())
    return strip_name_suffix(value) if re.fullmatch(r"[가-힣]{3,5}", value) and not type_subject(value) else value


def changed_favorite(message: str) -> list[Candidate]:
    """Return the new favourite of "최애 바뀜 이제 해린"; its subject is resolved later when no topic says it."""
    for pattern in (_BEST_CHANGED, _CHANGED_TO_FIRST):
        match = pattern.search(message)
        if not match or about_someone_else(message, match.start()):
            continue
        value = _changed_value(message, match)
        if valid_value(value, max_len=20) and value not in _NOT_PREFERENCE:
            break
    else:
        return []
    topic = match.group("topic") or ""
    if topic and topic in TOPIC_SUBJECTS_KO:
        return [Candidate(TOPIC_SUBJECTS_KO[topic], value)]
    typed = type_subject(value)
    return [Candidate(typed or UNRESOLVED_FAVORITE, value)]
