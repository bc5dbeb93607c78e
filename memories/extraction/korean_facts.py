"""Personal facts in Korean user messages: identity (name, age, birthday, ...) and situation
(residence, part-time job, dating, dream, ...). Preferences and household live in their own modules.

Every rule finds *where* a fact is with a pattern and lets the morphological analyser decide where the
value starts and ends. Rules skip clauses about someone else ("걔는 ESTP라"), negated or past values
("노원 아니고", "살았었어") and wishes ("타투 하고 싶어").
"""
from __future__ import annotations

import re

from .candidates import Candidate
from .dates import find_month_days
from .korean_household import family_answer, household_facts
from .korean_preferences import preference_facts
from .korean_text import (
    about_someone_else,
    clauses,
    has_batchim,
    name_at,
    negated_after,
    strip_name_suffix,
    strip_quote,
    valid_value,
    wished_after,
)
from .lexicon import (
    OCCUPATIONS_KO,
    is_major_ko,
    is_occupation_ko,
)
from .morphology import analyse, is_negated_at, is_past_at, noun_phrase_after, noun_phrase_before, predicates

_SURNAMES = set("김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진지엄채원천방공현함변염여추도소석선설마길연위표명기반라왕금옥육인맹제모탁국어은편용예봉경")


def _looks_like_full_name(word: str) -> bool:
    """A three-syllable word starting with a common surname that is not an ordinary noun ("한지우")."""
    if not re.fullmatch(r"[가-힣]{3}", word) or word[0] not in _SURNAMES:
        return False
    if word in OCCUPATIONS_KO or is_occupation_ko(word) or is_major_ko(word):
        return False
    morphs = analyse(word)
    return not (len(morphs) == 1 and morphs[0].tag == "NNG")


# --- name, nickname ---------------------------------------------------------------------------------

_NAME_INTRO = re.compile(
    r"(?:^|\s)(?:나는|난|저는|전|내\s*이름은|제\s*이름은|이름은)\s*([가-힣]{2,4}|[A-Za-z]{2,15})라고\s*"
    r"(?:해|합니다|해요|함|하고|하는데|하지|한다|하구)")
_MY_NAME = re.compile(r"(?:내|제|나의|저의)\s*이름(?:은|이)\s*(\S+)")
_I_AM = re.compile(r"(?:^|\s)(?:나는|난|나|저는|전|저)\s+(?P<word>[가-힣]{2,4}?)(?:이야|야|이에요|예요|에요|입니다|임)(?=[\s!.,~?]|$)")
_GREETING = re.compile(r"안녕|반가워|반갑|처음\s*(?:뵙|와|왔|인사)|인사\s*(?:할게|드려)")


def _names(clause: str, pet_message: bool, greeting: bool) -> list[Candidate]:
    found = []
    for match in _NAME_INTRO.finditer(clause):
        name = strip_name_suffix(match.group(1)) if re.match(r"[가-힣]", match.group(1)) else match.group(1)
        found.append(Candidate("name", name))
    if not pet_message:
        for match in _MY_NAME.finditer(clause):
            name = name_at(clause, match.start(1))
            if name and valid_value(name):
                found.append(Candidate("name", name))
    for match in _I_AM.finditer(clause):
        word = match.group("word")
        if _looks_like_full_name(word):
            found.append(Candidate("name", word))
        elif greeting and _looks_like_given_name(word):
            found.append(Candidate("name", strip_name_suffix(word)))  # "반가워~ 나는 민혁이야"
    return found


def _looks_like_given_name(word: str) -> bool:
    if word in OCCUPATIONS_KO or is_occupation_ko(word) or is_major_ko(word) or len(word) < 2:
        return False
    morphs = analyse(word)
    return not any(m.tag in {"NNG", "NP", "VV", "VA", "MAG"} and m.end - m.start >= 2 for m in morphs) or \
        any(m.tag == "NNP" for m in morphs) and not re.search(r"(?:시|구|동|역|도|군)$", word)


_CALL = re.compile(r"(?P<word>[^\s,.!?]+?)라고\s*(?P<verb>불러|부르|부를|불려|불리)(?P<rest>\S*)")
_CALL_REQUEST = re.compile(r"^(?:줘|주세요|줄래|주라|주면|줘요|도\s*돼|도\s*괜찮|면\s*돼|면\s*좋겠|라|어|요|줬으면|)")
_NICKNAME_TOPIC = re.compile(r"(?:내|제|나의|저의)?\s*(?:별명|애칭|닉네임|닉)(?:은|이)\s*(\S+)")
_THIRD_SUBJECT = re.compile(r"(?:친구들|친구|사람들|다들|애들|가족|엄마|아빠|누나|형|언니|오빠|동생|선배|후배)(?:이|가|은|는|도)\s")
_OBJECT_NOT_ME = re.compile(r"(?<![나저])(?:을|를)\s+$")


def _nicknames(clause: str) -> list[Candidate]:
    found = []
    for match in _CALL.finditer(clause):
        word = strip_quote(match.group("word"))
        if word.endswith("이") and len(word) >= 2 and has_batchim(word[-2]):
            word = word[:-1]  # "곰이라고" is 곰 + 이라고
        before = clause[:match.start("word")]
        if re.search(r"\S+(?:을|를)\s*$", before) and not re.search(r"(?:나를|날|저를|절|나|저)\s*$", before):
            continue  # "고양이를 나비라고 불러" names someone else
        if not valid_value(word, max_len=20) or word in {"뭐", "뭐라", "어떻게", "그렇게", "이렇게"}:
            continue
        third = bool(_THIRD_SUBJECT.search(before))
        request = not third and bool(_CALL_REQUEST.match(match.group("rest")))
        found.append(Candidate("nickname", word, request=request))
    for match in _NICKNAME_TOPIC.finditer(clause):
        if about_someone_else(clause, match.start()):
            continue
        name = name_at(clause, match.start(1))
        if name and valid_value(name, max_len=20):
            found.append(Candidate("nickname", name))
    return found


# --- age, birthday, height, weight, blood type, MBTI --------------------------------------------------

_AGE = re.compile(
    r"(?<![\d.])(\d{1,2})\s*(?:살|세)(?!\s*(?:때|에|부터|까지|차이|짜리|터울|연상|연하|어린|많|위|아래|이상|이하|미만|넘|쯤에|된|되던|"
    r"였|이었|이던|적|인데도|이나))")
_AGE_NATIVE = re.compile(
    r"(?:(?<=\s)|^)((?:열|스물|서른|마흔|쉰|예순)\s*(?:한|하나|두|둘|세|셋|네|넷|다섯|여섯|일곱|여덟|아홉)?\s*살)"
    r"(?!\s*(?:때|에|부터|까지|차이|짜리|였|이었))")
_AGE_TOPIC = re.compile(r"(?:내|제)?\s*나이(?:는|가)\s*(?:올해\s*)?(?:만\s*)?(\d{1,2})(?!\s*\d)")
_BIRTH_YEAR = re.compile(r"(?<!\d)(\d{2})\s*년생")


def _ages(clause: str) -> list[Candidate]:
    found = []
    for match in _AGE_TOPIC.finditer(clause):
        if not about_someone_else(clause, match.start()):
            found.append(Candidate("age", f"{match.group(1)}살"))
    for pattern in (_AGE, _AGE_NATIVE):
        for match in pattern.finditer(clause):
            if pattern is _AGE and not 5 <= int(match.group(1)) <= 99:
                continue
            if about_someone_else(clause, match.start()) or re.search(r"(?:동생|형|누나|언니|오빠|엄마|아빠)\S*\s*$",
                                                                      clause[:match.start()]):
                continue
            found.append(Candidate("age", re.sub(r"\s+", " ", match.group(0)).strip()))
    for match in _BIRTH_YEAR.finditer(clause):
        if not about_someone_else(clause, match.start()):
            found.append(Candidate("age", match.group(0).replace(" ", "")))
    return found[:1]


_BIRTH_VERB = re.compile(r"태어났|태어남|태어난|태어났어|생이야|생이에요|생입니다|생임|생이고|일생")


def birthdays(clause: str) -> list[Candidate]:
    """Return the user's birthday ("내 생일은 11월 2일", "3월 15일에 태어났어"), not a friend's."""
    mentions = find_month_days(clause, numeric=True)
    if not mentions:
        return []
    for keyword in re.finditer(r"생일|생신", clause):
        owner = noun_phrase_before(clause, keyword.start(), max_words=2)
        if owner and owner not in {"내", "제"}:
            continue  # "현우 생일", "엄마 생신"
        if about_someone_else(clause, keyword.start()):
            continue
        return [Candidate("birthday", clause[m.start:m.end]) for m in mentions[:1]]
    if _BIRTH_VERB.search(clause) and not about_someone_else(clause, mentions[0].start):
        month_day = find_month_days(clause)  # "3/15에 태어났어" is too loose without the word 생일
        if month_day:
            return [Candidate("birthday", clause[month_day[0].start:month_day[0].end])]
    return []


_HEIGHT = re.compile(r"키(?:는|가)?\s*(?:한\s*)?(\d{3}(?:\.\d)?)\s*(cm|센치|센티|센티미터|쯤|정도)?")
_HEIGHT_UNIT = re.compile(r"(?<![\d.])(1\d{2}|2[0-2]\d)(?:\.\d)?\s*(cm|센치|센티|센티미터)")
_WEIGHT = re.compile(r"(?:몸무게(?:는|가)?\s*(\d{2,3})\s*(kg|키로|킬로)?)|(?<![\d.])(\d{2,3})\s*(kg|키로|킬로)(?:그램)?(?:\s*(?:나가|이야|야|임|쯤))")
_BLOOD = re.compile(r"(?:혈액형(?:은|이)?\s*)?(?<![A-Za-z])(AB|A|B|O|ab|a|b|o)\s*형(?!님|이랑|한테|아|이\s*(?:랑|가\s*(?:나|날)))")
_BLOOD_TOPIC = re.compile(r"혈액형(?:은|이)?\s*(?:RH\s*[+-]\s*)?(AB|A|B|O)(?![A-Za-z])", re.I)
_BLOOD_HANGUL = re.compile(r"(?<![가-힣])(에이비|에이|비|오)형(?=이야|이에요|입니다|임|이고|이라|$|[\s!.,~])")
_HANGUL_LETTERS = {"에이비": "AB", "에이": "A", "비": "B", "오": "O"}
_MBTI = re.compile(r"(?<![A-Za-z])([EIei][NSns][TFtf][JPjp])(?:-?([ATat]))?(?![A-Za-z])")


_HEIGHT_WORD = re.compile(r"(?<![가-힣])키(?:가|는|도|\s)")
_HEIGHT_NUMBER = re.compile(r"(?<![\d.])(1[3-9]\d|2[0-2]\d)(?:\.\d)?\s*(cm|센치|센티)?"
                            r"(?=\s*(?:밖에|정도|쯤|이야|야|임|이에요|예요|에요|이고|인데|이라|라|넘|밖|cm|센치|$|[!.,~?]))")


def height_in_message(text: str) -> list[Candidate]:
    """"키가 작아서 고민이에요. 158밖에 안 돼요": the number may sit in another clause than the word 키."""
    word = _HEIGHT_WORD.search(text)
    if not word or about_someone_else(text, word.start()):
        return []
    match = _HEIGHT_NUMBER.search(text, word.start())
    return [Candidate("height", match.group(0).replace(" ", ""))] if match else []


def _body(clause: str) -> list[Candidate]:
    found = []
    for match in list(_HEIGHT.finditer(clause)) + list(_HEIGHT_UNIT.finditer(clause)):
        number = float(match.group(1))
        if 120 <= number <= 230 and not about_someone_else(clause, match.start()):
            unit = match.group(2) if match.group(2) in {"cm", "센치", "센티", "센티미터"} else ""
            found.append(Candidate("height", f"{match.group(1)}{unit}"))
            break
    for match in _WEIGHT.finditer(clause):
        number = match.group(1) or match.group(3)
        unit = match.group(2) or match.group(4) or ""
        if 25 <= int(number) <= 250 and not about_someone_else(clause, match.start()):
            found.append(Candidate("weight", f"{number}{unit}"))
            break
    blood = list(_BLOOD_TOPIC.finditer(clause)) or list(_BLOOD.finditer(clause)) or list(_BLOOD_HANGUL.finditer(clause))
    for match in blood:
        if not about_someone_else(clause, match.start()) and not negated_after(clause, match.end()):
            letters = _HANGUL_LETTERS.get(match.group(1), match.group(1).upper())
            found.append(Candidate("blood_type", f"{letters}형"))
            break
    for match in _MBTI.finditer(clause):
        if about_someone_else(clause, match.start()):
            continue
        after = clause[match.end():match.end() + 6]
        mentioned = re.search(r"mbti|엠비티아이|엠bti", clause, re.I)
        first_person = re.search(r"(?:^|\s)(?:나|난|나는|저|저는|전|내|제)\s", f" {clause[:match.start()]}")
        copula = re.match(r"^\s*(?:이야|야|이에요|예요|에요|입니다|임|이고|고|인데|이라|라|이지|$|[!.,~])", after)
        if (mentioned or first_person or copula) and not negated_after(clause, match.end()):
            value = match.group(1).upper() + (f"-{match.group(2).upper()}" if match.group(2) else "")
            found.append(Candidate("mbti", value))
            break
    return found


# --- handedness, smoking, tattoo, religion, health, gender --------------------------------------------

_HANDED = re.compile(r"(왼손잡이|오른손잡이|양손잡이)")
_SMOKE = re.compile(r"(담배|전자담배|연초|궐련|흡연)\s*(?:를|는|도|을)?\s*(?:하루에?\s*\S+\s*)?"
                    r"(피워|펴|핌|피움|피우|피고|피운|피워요|태워|태움|해|함|하고|중|자)")
_NON_SMOKER = re.compile(r"비흡연|담배\s*(?:는|를)?\s*안\s*(?:피워|펴|핌|피움|피우|태워)|담배\s*(?:를|는)?\s*(?:끊었|끊음|끊은\s*지)|금연\s*(?:성공|했|중)")
_TOBACCO = re.compile(r"담배|흡연|전자담배|연초")
_QUIT_DONE = re.compile(r"끊었|끊음|끊은\s*지|금연\s*(?:성공|했|한\s*지)|안\s*피운\s*지")
_QUITTING = re.compile(r"끊으려|끊는\s*중|끊을까|끊어야|끊고\s*싶|금연\s*(?:하려|시도|도전)|줄이는\s*중|줄이려")
_TATTOO = re.compile(r"(?:(?P<place>[가-힣]+)(?:에|에다|에다가)\s+)?(?:(?P<motif>[가-힣A-Za-z]+)\s+)?(?P<word>타투|문신)"
                     r"(?:을|를|도|이|가|\s)*\s*(?P<verb>했|함|하고|있|새겼|새김|받았|넣었|박았|해\s*놨|해\s*뒀)")
_RELIGION = re.compile(r"(기독교|천주교|불교|무교|개신교|원불교|이슬람교?|모태신앙|교회\s*다녀|성당\s*다녀|절에\s*다녀|"
                       r"교회\s*다님|성당\s*다님|종교\s*없)")
_HEALTH = re.compile(r"(당뇨|천식|비염|아토피|ADHD|adhd|우울증|공황장애|공황|불면증|빈혈|고혈압|허리\s*디스크|디스크|위염|"
                     r"편두통|갑상선\S*|과민성\s*대장\S*|역류성\s*식도염|난독증|색약|색맹|이명|근시|난시|통풍)"
                     r"(?:이|가|도|은|는)?\s*(?:있|심해|심함|때문|앓|진단|달고|생겼|약)")
_GENDER = re.compile(r"(?:^|\s)(?:나|저|난|전|나는|저는)\s*(남자|여자|남성|여성)(?:야|예요|에요|이에요|임|입니다|고|인데)")


_DIET = re.compile(r"(채식주의자|비건|베지테리언|페스코|채식\s*(?:해|함|중|하고)|할랄|키토|글루텐\s*프리|유당\s*불내증|"
                   r"(?:고기|돼지고기|소고기|해산물|생선)\s*(?:를|을|는|은)?\s*안\s*먹어)")
_ZODIAC = re.compile(r"(양자리|황소자리|쌍둥이자리|게자리|사자자리|처녀자리|천칭자리|전갈자리|사수자리|궁수자리|염소자리|물병자리|물고기자리)"
                     r"(?:야|이야|예요|에요|이에요|임|입니다|라|이라|고|$|\s|[!.,~])")


def _traits(clause: str, message: str) -> list[Candidate]:
    found = []
    match = _DIET.search(clause)
    if match and not about_someone_else(clause, match.start()) and not wished_after(clause, match.end()):
        found.append(Candidate("diet", re.sub(r"\s+", " ", match.group(1)).strip()))
    match = _ZODIAC.search(clause)
    if match and not about_someone_else(clause, match.start()):
        found.append(Candidate("zodiac", match.group(1)))
    for match in _HANDED.finditer(clause):
        if not about_someone_else(clause, match.start()) and not negated_after(clause, match.end()):
            found.append(Candidate("handedness", match.group(1)))
            break
    if not about_someone_else(clause, len(clause)):
        match = _SMOKE.search(clause)
        if _NON_SMOKER.search(clause) or (_TOBACCO.search(message) and _QUIT_DONE.search(clause)):
            quit_match = (_NON_SMOKER.search(clause) or _QUIT_DONE.search(clause)).group(0)
            found.append(Candidate("smoking", "비흡연" if "안" in quit_match or "비흡연" in quit_match else "금연함(담배 끊음)"))
        elif match and not wished_after(clause, match.start(2)) and not re.search(r"(?:안|못)\s*$", clause[:match.start(2)]) \
                and not re.match(r"\S*(?:었|였|던|는데)", clause[match.start(2):match.start(2) + 4]):
            value = f"{match.group(1)} 피움"
            if _QUITTING.search(message):
                value += " (끊으려는 중)"
            found.append(Candidate("smoking", value))
    for match in _TATTOO.finditer(clause):
        if wished_after(clause, match.start("verb")) or about_someone_else(clause, match.start()):
            continue
        parts = []
        if match.group("place"):
            parts.append(f"{match.group('place')}에")
        if match.group("motif") and match.group("motif") not in {"작은", "큰", "작게", "크게", "나", "저", "진짜", "사실"}:
            parts.append(match.group("motif"))
        parts.append(match.group("word"))
        found.append(Candidate("tattoo", " ".join(parts)))
        break
    match = _RELIGION.search(clause)
    if match and not about_someone_else(clause, match.start()):
        found.append(Candidate("religion", re.sub(r"\s+", " ", match.group(1))))
    match = _HEALTH.search(clause)
    if match and not about_someone_else(clause, match.start()):
        found.append(Candidate("health_condition", re.sub(r"\s+", " ", match.group(1))))
    match = _GENDER.search(clause)
    if match:
        found.append(Candidate("gender", match.group(1)))
    return found


# --- school, major, occupation, workplace ---------------------------------------------------------------

_SCHOOL_YEAR = re.compile(r"(?:(?P<level>초등학교|중학교|고등학교|대학교|대학원|대학|고등|초등)\s*)?(?P<n>\d)\s*학년")
_SHORT_YEAR = re.compile(r"(?<![가-힣A-Za-z])(?P<v>[고중초대]\s*[1-6]|\d{2}\s*학번|새내기|신입생|복학생|졸업반|막학기|석사\s*\d\s*년차|"
                         r"박사\s*\d\s*년차|석사과정|박사과정)(?:이야|야|이에요|예요|에요|입니다|임|이고|고|인데|이라|라|\s|$|[!.,~])")
_MAJOR_TOPIC = re.compile(r"(?:내|제)?\s*(?:전공|학과)(?:은|는|이|가)\s*")
_MAJOR_VERB = re.compile(r"(?P<kw>전공)(?:이야|야|이에요|예요|에요|입니다|임|이고|인데|이라|생|해|하고|했|중|으로|$|\s|[!.,~])")
_DEPARTMENT = re.compile(r"([가-힣A-Za-z]{2,12}(?:학과|학부|공학과|교육과))(?:이야|야|예요|에요|이에요|입니다|임|이고|고|인데|\s|$|[!.,~])")
_DEPARTMENT_ATTEND = re.compile(r"([가-힣A-Za-z]{1,10}과)\s*(?:에\s*)?(?:다녀|다님|다니고|다녀요|다닙니다|재학|학생|생이야|생이에요)")
_SCHOOL_ATTEND = re.compile(r"(?P<school>[가-힣A-Za-z]{1,12}?(?:대학교|대학원|대학|대|고등학교|중학교|초등학교|여고|여중|과고|외고|예고))"
                            r"\s*(?:에\s*)?(?:다녀|다니고|다님|다녀요|다닙니다|재학|학생|생이야|생이에요|에\s*다니)")
_WORK_AT = re.compile(r"(?P<place>\S+?)(?:에서)\s*(?:\S+\s+){0,2}?(?:일해|일하고|일하는|일함|일합니다|일해요|근무|일하거든|일한다)")
_WORK_AS = re.compile(r"(?P<job>\S+?)(?:으로|로)\s*(?:일해|일하고|일하는|일함|일합니다|일해요|근무|일하거든|일한다|취직|입사)")
_OCCUPATION_TOPIC = re.compile(r"(?:내|제)?\s*직업(?:은|이)\s*")
_COMPANY_ATTEND = re.compile(r"(?P<place>[가-힣A-Za-z]{2,12}(?:회사|전자|은행|병원|그룹|증권|보험|카드|통신|제약|건설|공사|청|연구소|스타트업))"
                             r"\s*(?:에\s*)?(?:다녀|다니고|다님|다녀요|다닙니다|근무)")
_TOPIC_MARKED = re.compile(r"(?:^|\s)(\S+?)(?:은|는)(?=\s)")
_SELF_TOPICS = frozenset({"나", "저", "난", "전", "직업", "내 직업", "제 직업", "일", "하는 일", "현재", "지금", "요즘"})
_OFFICE = re.compile(r"(?:^|\s)회사\s*(?:에\s*)?(?:다녀|다님|다니고|다녀요|다닙니다|다니는\s*중)")
_JOBLESS = re.compile(r"(취준|취업\s*준비|백수|무직|휴학|재수|반수|공시\s*준비|고시\s*준비)\s*(?:중|하고|해|생|야|이야|임|예요|에요)")


def _study_and_work(clause: str) -> list[Candidate]:
    found = []
    if about_someone_else(clause, len(clause)) and not re.search(r"(?:^|\s)(?:나|난|나는|저는|전|내가|제가)\s", f" {clause}"):
        return found
    for match in _SCHOOL_YEAR.finditer(clause):
        if about_someone_else(clause, match.start()):
            continue
        level = match.group("level") or ""
        found.append(Candidate("school_year", f"{level} {match.group('n')}학년".strip()))
        if not level:
            major = noun_phrase_before(clause, match.start(), max_words=2)
            if major and is_major_ko(major):
                found.append(Candidate("major", major))
            elif major and major.endswith(("대", "대학교")) and len(major) >= 2:
                found.append(Candidate("school", major))
        break
    for match in _SHORT_YEAR.finditer(clause):
        if not about_someone_else(clause, match.start()):
            found.append(Candidate("school_year", re.sub(r"\s+", "", match.group("v"))))
            break
    for match in _MAJOR_TOPIC.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=3)
        if valid_value(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("major", value))
    for match in _MAJOR_VERB.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=2)
        if valid_value(value) and value not in {"내", "제", "무슨", "부"} and not about_someone_else(clause, match.start()):
            found.append(Candidate("major", value))
    for match in _DEPARTMENT_ATTEND.finditer(clause):
        if is_major_ko(match.group(1)) and not about_someone_else(clause, match.start()):
            found.append(Candidate("major", match.group(1)))
    for match in _DEPARTMENT.finditer(clause):
        if is_major_ko(match.group(1)) and not about_someone_else(clause, match.start()):
            found.append(Candidate("major", match.group(1)))
    for match in _SCHOOL_ATTEND.finditer(clause):
        school = match.group("school")
        if noun_phrase_before(clause, match.end("school"), max_words=1) != school:
            continue  # not a noun ("끌고 다녀")
        if valid_value(school) and school not in {"대", "고", "대학", "고등학교", "중학교", "대학교"} \
                and not about_someone_else(clause, match.start()) and not negated_after(clause, match.end()):
            found.append(Candidate("school", school))
    for match in _OCCUPATION_TOPIC.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=3)
        if valid_value(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("occupation", value))
    for match in _WORK_AS.finditer(clause):
        job = noun_phrase_before(clause, match.start("job") + len(match.group("job")), max_words=3)
        if job and is_occupation_ko(job) and not about_someone_else(clause, match.start()):
            found.append(Candidate("occupation", job))
    for match in _WORK_AT.finditer(clause):
        if "알바" in clause or "아르바이트" in clause:
            continue  # the part-time rule owns it
        place = noun_phrase_before(clause, match.start() + len(match.group("place")), max_words=3)
        if valid_value(place) and not about_someone_else(clause, match.start()) \
                and not negated_after(clause, match.end()) and not wished_after(clause, match.end() - 2):
            found.append(Candidate("workplace", place))
    for match in _COMPANY_ATTEND.finditer(clause):
        if not about_someone_else(clause, match.start()) and not negated_after(clause, match.end()):
            found.append(Candidate("workplace", match.group("place")))
    match = _OFFICE.search(clause)
    if match and not about_someone_else(clause, match.start()) and not negated_after(clause, match.end()):
        found.append(Candidate("occupation", "회사원"))
    match = _JOBLESS.search(clause)
    if match and not about_someone_else(clause, match.start()):
        found.append(Candidate("occupation", re.sub(r"\s+", " ", match.group(0)).strip()))
    # "나 간호사야", "직장인이에요": an occupation noun right before the copula.
    for morph in analyse(clause):
        if morph.tag != "VCP":
            continue
        value = noun_phrase_before(clause, morph.start, max_words=3)
        if not value or about_someone_else(clause, clause.find(value)):
            continue
        following = clause[morph.end:morph.end + 3]
        if re.match(r"^\s*(?:었|였|던)", following) or re.match(r"^(?:었|였)", clause[morph.start:morph.start + 2]):
            continue  # "간호사였어": no longer
        topic = _TOPIC_MARKED.findall(clause[:clause.rfind(value, 0, morph.start)])
        if topic and topic[-1] not in _SELF_TOPICS:
            continue  # "내 꿈은 게임 개발자야" is a dream, "형은 개발자야" someone else's job
        value = re.sub(r"^(?:\d+\s*(?:살|세)|[가-힣]+\s*살)\s+", "", value)  # "20살 대학생이고" → 대학생
        if is_occupation_ko(value) and not wished_after(clause, morph.end):
            found.append(Candidate("occupation", value))
        elif is_major_ko(value) and len(value) >= 2:
            found.append(Candidate("major", value))
    return found


# --- hometown, residence -------------------------------------------------------------------------------

_HOMETOWN_TOPIC = re.compile(r"(?:내|제)?\s*(?:고향|출신지|본가)(?:은|는|이|가)\s*")
_HOMETOWN_AFTER = re.compile(r"(?P<kw>(?:내|제)?\s*고향)(?=이야|야|이에요|예요|에요|입니다|임|이고|인데|이라|$|\s|[!.,~])")
_FROM = re.compile(r"\s*(?:출신|토박이|태생)(?:이야|야|이에요|예요|에요|입니다|임|이고|인데|이라|이다|이지|이거든|\s|$|[!.,~])")
_BORN_IN = re.compile(r"(?:에서)\s*(?:태어났|태어나서|태어나고|태어난|나고\s*자랐|자랐|컸어|컸음)")
_HOUSING = ("원룸", "투룸", "오피스텔", "아파트", "빌라", "기숙사", "고시원", "셰어하우스", "쉐어하우스", "하숙", "자취방",
            "본가", "주택", "단독주택", "옥탑방", "반지하")
_NOT_PLACES = frozenset({"혼자", "같이", "가족", "부모님", "엄마", "아빠", "친구", "동생", "누나", "형", "언니", "오빠",
                         "행복", "열심히", "사람", "인생", "하루", "집", "여기", "거기", "저기", "이곳", "그곳", "어디",
                         "곳", "데", "중", "지금", "요즘", "맨날", "오래", "평생", "룸메", "남친", "여친"})
_RESIDENCE_TOPIC = re.compile(r"(?:내가|제가)?\s*(?:사는\s*(?:곳|데|동네)|거주지|주소|우리\s*동네|지금\s*집|집)(?:은|는|이|가)\s*")
_MOVE = re.compile(r"(?P<place>\S+?)(?:으로|로|에)\s*(?:이사|이사를)\s*(?P<verb>했|왔|갔|함|옴|감|온|간|완료|와\s*(?:있|살)|와서)")
_FUTURE_WORDS = re.compile(r"다음\s*(?:달|주|해)|내년|곧|예정|할\s*거|갈\s*거|계획|하려고|가려고|내일|모레")
_COMMUTE = re.compile(r"(?:으로|로)\s*(?P<kw>출퇴근|출근|통학|등교|통근)")
_PLACE_PERSON = re.compile(r"\s*(?P<kw>사람)(?:이야|이에요|입니다|임|이라|이고|인데|이거든)")
_SELF_HOUSING = re.compile(r"(?P<place>\S+?)(?:에서)?\s*(?:자취|하숙|혼자\s*살)")


def _place_ok(value: str) -> bool:
    return valid_value(value, max_len=20) and value not in _NOT_PLACES and not re.fullmatch(r"[\d\s]+", value)


def _places(clause: str) -> list[Candidate]:
    found = []
    if about_someone_else(clause, len(clause)) and not re.search(r"(?:^|\s)(?:나|난|나는|저는|전|내가|제가)\s", f" {clause}"):
        return found
    for match in _HOMETOWN_TOPIC.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=2)
        if _place_ok(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("hometown", value))
    for match in _HOMETOWN_AFTER.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=2)
        if _place_ok(value):
            found.append(Candidate("hometown", value))
    for match in _FROM.finditer(clause):
        value = noun_phrase_before(clause, match.start() + len(match.group(0)) - len(match.group(0).lstrip()),
                                   max_words=2)
        if _place_ok(value) and not about_someone_else(clause, clause.find(value)) and not negated_after(clause, match.end() - 1):
            if not re.match(r"\s*(?:이야|야|이에요|예요|에요|입니다|임)?\s*\?", clause[match.end() - 1:match.end() + 4]):
                found.append(Candidate("hometown", value))
    for match in _BORN_IN.finditer(clause):
        value = noun_phrase_before(clause, match.start() + 2, max_words=2)
        if _place_ok(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("hometown", value))
    # Residence: "노원 살거든", "서울 사는 24살", "신촌에서 자취해", "마포로 이사했어", "사는 곳은 분당".
    for morph in predicates(clause, ("살다",)):
        if is_negated_at(clause, morph) or is_past_at(clause, morph) or wished_after(clause, morph.end):
            continue
        value = noun_phrase_before(clause, morph.start, max_words=2)
        between = clause[clause.rfind(value, 0, morph.start) + len(value):morph.start] if value else ""
        if re.search(r"혼자\s*$", clause[:morph.start]):
            found.append(Candidate("living_arrangement", "혼자 삶"))
            continue
        if not value or not re.fullmatch(r"\s*(?:에|에서|쪽에|쪽|근처에|근처|에서는|에는|는|은|도)?\s*", between):
            continue
        if value.endswith(_HOUSING) or value in _HOUSING:
            found.append(Candidate("living_arrangement", value))
        elif _place_ok(value) and not about_someone_else(clause, clause.find(value)):
            found.append(Candidate("residence", value))
    for match in _SELF_HOUSING.finditer(clause):
        if wished_after(clause, match.end()) or negated_after(clause, match.end()):
            continue
        value = noun_phrase_before(clause, match.start() + len(match.group("place")), max_words=2)
        if _place_ok(value) and value not in _HOUSING and not about_someone_else(clause, match.start()):
            found.append(Candidate("residence", value))
        found.append(Candidate("living_arrangement", "자취" if "자취" in match.group(0) else match.group(0).split()[-1]))
    for match in _MOVE.finditer(clause):
        if _FUTURE_WORDS.search(clause):
            continue  # a planned move: the episode keeps it, the residence is still the old one
        value = noun_phrase_before(clause, match.start() + len(match.group("place")), max_words=2)
        if _place_ok(value) and not wished_after(clause, match.end() - 1) and not about_someone_else(clause, match.start()):
            found.append(Candidate("residence", value))
    for match in _RESIDENCE_TOPIC.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=2)
        if not value or about_someone_else(clause, match.start()):
            continue
        if value in _HOUSING or value.endswith(_HOUSING):
            found.append(Candidate("living_arrangement", value))
        elif _place_ok(value) and not match.group(0).strip().startswith("집") or (_place_ok(value) and re.search(r"(?:구|동|시|역|읍|면|군)$", value)):
            if not negated_after(clause, match.end() + len(value)):
                found.append(Candidate("residence", value))
    for match in _COMMUTE.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=2)
        if _place_ok(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("commute", f"{value}{'로' if not has_batchim(value[-1]) or value[-1] == '울' else '으로'} {match.group('kw')}"))
    for match in _PLACE_PERSON.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=2)
        if value and _place_ok(value) and any(m.tag == "NNP" for m in analyse(value)) \
                and not about_someone_else(clause, clause.rfind(value, 0, match.start("kw"))):
            found.append(Candidate("hometown", value))
    for match in re.finditer(r"(\S+?)(?:에)?\s*거주", clause):
        value = noun_phrase_before(clause, match.start() + len(match.group(1)), max_words=2)
        if _place_ok(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("residence", value))
    return found


# --- allergy, phobia -----------------------------------------------------------------------------------

_ALLERGY = re.compile(r"(?:알레르기|알러지|앨러지|알레르그)")
_ALLERGY_REACTION = re.compile(r"(?P<x>\S+?)(?:을|를)?\s*먹으면\s*(?:\S+\s*){0,2}?(?:두드러기|알레르기|가려|붓|부어|부음|숨이\s*막|간지러)")
_PHOBIA_WORD = re.compile(r"([가-힣]*공포증)")
_FEAR_VERB = re.compile(r"(?:을|를|이|가)?\s*(?:진짜|너무|엄청|제일|완전|되게|정말|극도로|좀|많이|특히|젤)?\s*"
                        r"(?P<verb>무서워\s*해|무서워해|무서워함|무서워하는|무서워해요|무서워합니다|무서워|무섭다|무서움|무섭거든|무서운\s*편)")
_COMMON_FEARS = ("벌레", "거미", "바퀴벌레", "바퀴", "뱀", "쥐", "귀신", "높은 곳", "높은곳", "물", "바다", "어둠", "어두운 곳",
                 "천둥", "번개", "비행기", "주사", "치과", "피", "광대", "엘리베이터", "좁은 곳", "공포영화", "공포 영화",
                 "놀이기구", "롤러코스터", "나방", "곤충", "비둘기", "새", "개", "강아지", "고양이", "닭", "귀뚜라미",
                 "깊은 물", "불", "대중교통", "사람 많은 곳", "번지점프", "자이로드롭", "터널", "혼자 있는 거", "병원")
_FEAR_FILLERS = re.compile(r"(?:\s*(?:세상에서|세상\s*에서|진짜|너무|엄청|제일|완전|되게|정말|극도로|좀|많이|특히|젤|가장|"
                           r"진심|개|넘|무지|겁나|정말로))+\s*$")
_SCARIEST = re.compile(r"(?:제일|가장|젤)\s*무서운\s*(?:건|게|거|것은|것)\s*")
_TRAUMA = re.compile(r"(\S+)\s*트라우마")


def _fears(clause: str) -> list[Candidate]:
    found = []
    for match in _ALLERGY.finditer(clause):
        if about_someone_else(clause, match.start()) or negated_after(clause, match.end()):
            continue
        value = noun_phrase_before(clause, match.start(), max_words=2)
        if valid_value(value) and value not in {"약", "비염"}:
            found.append(Candidate("allergy", value))
    for match in _ALLERGY_REACTION.finditer(clause):
        value = noun_phrase_before(clause, match.start() + len(match.group("x")), max_words=2)
        if valid_value(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("allergy", value))
    for match in _PHOBIA_WORD.finditer(clause):
        word = match.group(1)
        if about_someone_else(clause, match.start()) or negated_after(clause, match.end()):
            continue
        if word == "공포증":
            before = noun_phrase_before(clause, match.start(), max_words=2)
            if not before:
                continue
            word = f"{before} 공포증"
        found.append(Candidate("phobia", word))
    for match in _FEAR_VERB.finditer(clause):
        start = match.start("verb")
        before = _FEAR_FILLERS.sub("", clause[:start])
        value = noun_phrase_before(before, len(before), max_words=2)
        if not valid_value(value) or about_someone_else(clause, clause.rfind(value, 0, start)):
            continue
        habitual = "해" in match.group("verb") or "함" in match.group("verb") or "하는" in match.group("verb") \
            or "편" in match.group("verb") or "거든" in match.group("verb")
        if habitual or value.replace(" ", "") in {f.replace(" ", "") for f in _COMMON_FEARS}:
            found.append(Candidate("phobia", value))
    for match in _SCARIEST.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=3)
        if valid_value(value):
            found.append(Candidate("phobia", value))
    for match in _TRAUMA.finditer(clause):
        value = noun_phrase_before(clause, match.start() + len(match.group(1)), max_words=2)
        if valid_value(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("phobia", f"{value} 트라우마"))
    return found


# --- dating, dream, goal, part-time job -----------------------------------------------------------------

_PARTNER = r"(?:여친|여자\s*친구|여자친구|남친|남자\s*친구|남자친구|애인|연인|사귀는\s*사람|만나는\s*사람)"
_PARTNER_STATE = re.compile(rf"(?<!전\s)(?<!전)(?P<who>{_PARTNER})(?:이|가|은|는|도)?\s*(?:아직|지금|요즘|현재|당연히)?\s*"
                            r"(?P<state>없\S*|있\S*|생겼\S*)")
_SINGLE = re.compile(r"(모태\s*솔로|모쏠|솔로|싱글|독신|미혼|기혼|유부남|유부녀|돌싱|연애\s*중|연애하는\s*중|썸\s*타는\s*중|썸\s*타는\s*중)"
                     r"(?:\s*(?:\d+|한|두|세|네|다섯)\s*년\s*차)?(?!\s*(?:곡|앨범|무대|데뷔|활동|앨범|가수|라이브))")
_MARRIED = re.compile(r"(결혼|약혼)\s*(?:했|함|한\s*지|했어|했고|했는데|했습니다|했어요)")
_BROKE_UP = re.compile(r"(?:(?:여친|여자친구|남친|남자친구|애인)(?:이랑|하고|과|와|랑)\s*)?(?:헤어졌|헤어짐|헤어졌어|차였|찼어)")
_NOT_DATING = re.compile(r"연애\s*(?:안|못)\s*(?:해|함|하는|한\s*지|하고)|연애\s*(?:를|는)?\s*(?:쉬는|쉬고)")
_DATING_WITH = re.compile(rf"(?P<who>\S+?)(?:이랑|랑|하고|와|과)\s*(?:사귀는\s*중|사귀고\s*있|사귄\s*지|연애\s*중|사귀어|사귐)")


def _dating(clause: str) -> list[Candidate]:
    parts = []
    for match in _PARTNER_STATE.finditer(clause):
        if re.search(r"(?:전|前|옛|구)\s*$", clause[:match.start()]) or about_someone_else(clause, match.start()):
            continue
        who = re.sub(r"\s+", " ", match.group("who"))
        state = "없음" if match.group("state").startswith("없") else "있음"
        if wished_after(clause, match.end()) or re.match(r"있었|없었", match.group("state")):
            continue  # "여친 있었는데" is the past
        parts.append(f"{who} {state}")
    for match in _SINGLE.finditer(clause):
        if not about_someone_else(clause, match.start()):
            parts.append(re.sub(r"\s+", " ", match.group(0)).strip())
    match = _MARRIED.search(clause)
    if match and not wished_after(clause, match.end()):
        parts.append(f"{match.group(1)}함")
    if _BROKE_UP.search(clause) and not parts:
        parts.append("솔로(최근 헤어짐)")
    match = _DATING_WITH.search(clause)
    if match and not parts:
        who = strip_name_suffix(match.group("who"))
        if re.fullmatch(_PARTNER, who):
            parts.append(f"{who} 있음")
        elif valid_value(who) and who not in {"나", "저", "너"}:
            parts.append(f"{who}와 연애 중")
    if _NOT_DATING.search(clause) and not parts:
        parts.append("연애 안 함")
    if not parts:
        return []
    return [Candidate("dating_status", ", ".join(dict.fromkeys(parts)))]


_DREAM_TOPIC = re.compile(r"(?:내|제|나의|저의)?\s*(?:꿈|장래\s*희망|장래희망|희망\s*직업)(?:은|는|이)\s*")
_DREAM_AFTER = re.compile(r"(?P<kw>(?:내|제)?\s*(?:꿈|장래\s*희망|장래희망))(?:이야|야|이에요|예요|에요|임|입니다|이고|인데|이라|$|\s|[!.,~])")
_BECOME = re.compile(r"(?P<kw>되고\s*싶|되는\s*게\s*(?:꿈|목표)|될\s*거|되려고|될래|되는\s*것이\s*꿈|되기\s*위해)")
_GOAL = re.compile(r"(?P<what>[^.!?,]{2,40}?(?:는|은|기))\s*(?:게|것이|거|것)\s*(?:내|제)?\s*목표")
_GOAL_TOPIC = re.compile(r"(?:내|제)?\s*목표(?:는|가)\s*")
_ACT_AFTER = re.compile(r"\s*(?P<act>[^.!?]{2,40}?(?:는|은|ㄴ|기))\s*(?:거|것)(?:이야|야|예요|에요|이에요|입니다|임|이고|이지|$|\s|[!.,~])")
_LEADING_ADVERBS = re.compile(r"^(?:(?:언젠가|나중에|꼭|언젠간|앞으로|그냥|사실)\s+)+")
_SCORE_TEST = re.compile(r"(토익|토플|오픽|텝스|아이엘츠|IELTS|TOEIC|TOEFL|학점|수능|내신|JLPT|HSK)", re.I)


def _dreams(clause: str, message: str) -> list[Candidate]:
    found = []
    for match in _DREAM_TOPIC.finditer(clause):
        if about_someone_else(clause, match.start()):
            continue
        act = _ACT_AFTER.match(clause, match.end())
        if act:
            found.append(Candidate("goal", f"{_LEADING_ADVERBS.sub('', act.group('act')).strip()} 것", label="꿈"))
            continue
        value = noun_phrase_after(clause, match.end(), max_words=3)
        if valid_value(value):
            found.append(Candidate("dream_job" if is_occupation_ko(value) else "goal", value,
                                   label="" if is_occupation_ko(value) else "꿈"))
    for match in list(_DREAM_AFTER.finditer(clause)) + list(_BECOME.finditer(clause)):
        value = noun_phrase_before(clause, match.start("kw"), max_words=3)
        if valid_value(value) and not about_someone_else(clause, clause.rfind(value, 0, match.start("kw"))):
            if is_occupation_ko(value) or value.endswith(("가", "사", "자", "원", "수")):
                found.append(Candidate("dream_job", value))
            else:
                found.append(Candidate("goal", value, label="꿈"))
    for match in _GOAL_TOPIC.finditer(clause):
        score = re.match(r"(?:\S+\s+)?(\d{2,4}(?:\.\d+)?)\s*(?:점|점대)?", clause[match.end():])
        if score:
            test = _SCORE_TEST.search(clause) or _SCORE_TEST.search(message)
            value = f"{test.group(1)} {score.group(1)}" if test else score.group(1)
            found.append(Candidate("goal_score", value))
            continue
        value = noun_phrase_after(clause, match.end(), max_words=4)
        if valid_value(value):
            found.append(Candidate("goal", value))
    for match in _GOAL.finditer(clause):
        what = match.group("what").strip()
        what = re.sub(r"^(?:아|그리고|근데|또|암튼|아무튼|그래서)\s+", "", what)
        if len(what) >= 3 and not about_someone_else(clause, match.start()):
            found.append(Candidate("goal", f"{what} 것" if not what.endswith(("것", "거")) else what))
    return found


_PART_TIME = re.compile(r"(?:알바|아르바이트|파트타임)")
_QUIT_AFTER = re.compile(r"^\S*\s*(?:를|는|도|은)?\s*(?:이제\s*)?(?:그만|관두|관뒀|관둠|잘렸|잘림|때려치|끝났|끝남|접었|접음|안\s*해|안\s*함|쉬|못\s*하게|그만둠|그만뒀)")
_WORK_PLACE_BEFORE = re.compile(r"(?P<place>\S+?)에서\s+(?:\S+\s+){0,3}$")
_ALBA_TOPIC = re.compile(r"(?:알바|아르바이트)(?:는|로|도)\s*(?P<rest>\S+?)에서")


def part_time_jobs(clause: str) -> tuple[list[Candidate], bool]:
    """Return (current part-time jobs, quit) for one clause: "편의점 알바 그만뒀어" is a quit, not a job."""
    found = []
    quit_job = False
    if about_someone_else(clause, len(clause)) and not re.search(r"(?:^|\s)(?:나|난|나는|저는|전|내가|제가)\s", f" {clause}"):
        return found, quit_job
    for match in _PART_TIME.finditer(clause):
        if _QUIT_AFTER.match(clause[match.end():match.end() + 14]) or is_past_only(clause, match.end()):
            quit_job = True
            continue
        if wished_after(clause, match.end()) and not re.search(r"하기로", clause[match.end():match.end() + 8]):
            continue
        place = ""
        before = _WORK_PLACE_BEFORE.search(clause[:match.start()])
        if before:
            place = noun_phrase_before(clause, before.start("place") + len(before.group("place")), max_words=3)
        if not place:
            place = noun_phrase_before(clause, match.start(), max_words=2)
            if place and clause[clause.rfind(place, 0, match.start()) + len(place):match.start()].strip():
                place = ""  # "평일 밤에 알바" — a time, not a workplace
        if not place:
            topic = _ALBA_TOPIC.match(clause[match.start():])
            if topic:
                place = noun_phrase_before(clause, match.start() + topic.start("rest") + len(topic.group("rest")),
                                           max_words=2)
        if valid_value(place) and place not in {"주말", "평일", "방학", "단기", "오후", "저녁", "밤", "아침"}:
            found.append(Candidate("part_time_job", place))
    return found, quit_job


def is_past_only(clause: str, end: int) -> bool:
    """Return True for "알바 했었어": a double past marks something no longer true."""
    return bool(re.match(r"^\S*\s*(?:를|도|는)?\s*(?:했었|했던|하던|했을\s*때|했을때)", clause[end:end + 10]))


# --- entry point ---------------------------------------------------------------------------------------


def korean_facts(text: str, asked: str = "") -> list[Candidate]:
    """Return the personal facts stated in one Korean user message, in order of appearance.

    `asked` is the subject the character just asked about (see questions.asked_subject).
    """
    found: list[Candidate] = []
    household, pet_message = household_facts(text, asked_about_pets=asked == "pet")
    if asked == "family" and not any(c.subject == "family" for c in household):
        household += family_answer(text)
    quit_job = False
    jobs: list[Candidate] = []
    for clause in clauses(text):
        found += _names(clause, pet_message, bool(_GREETING.search(text)))
        if not pet_message:
            found += _nicknames(clause)
        found += _ages(clause)
        found += birthdays(clause)
        found += _body(clause)
        found += _traits(clause, text)
        found += _study_and_work(clause)
        found += _places(clause)
        found += _fears(clause)
        found += _dating(clause)
        found += _dreams(clause, text)
        clause_jobs, clause_quit = part_time_jobs(clause)
        jobs += clause_jobs
        quit_job = quit_job or clause_quit
        found += preference_facts(clause, text)
    if not any(c.subject == "height" for c in found):
        found += height_in_message(text)
    found += jobs
    if quit_job and not jobs:
        found.append(Candidate("part_time_job", "그만둠(지금은 안 함)"))
    found += household
    return found
