"""School and work of the user, in Korean: school year, major, school, occupation, workplace, part-time job.

"편의점 알바 그만뒀어" is a quit, not a job: a quit is reported so the caller can supersede the old one.
"""
from __future__ import annotations

import re

from .candidates import Candidate
from .korean_text import about_someone_else, negated_after, valid_value, wished_after
from .lexicon import COMPANIES_KO, WORK_RANKS_KO, is_major_ko, is_occupation_en, is_occupation_ko
from .morphology import analyse, noun_phrase_after, noun_phrase_before


_SCHOOL_YEAR = re.compile(r"(?:(?P<level>초등학교|중학교|고등학교|대학교|대학원|대학|고등|초등)\s*)?(?P<n>\d)\s*학년")
_SHORT_YEAR = re.compile(r"(?<![가-힣A-Za-z])(?P<v>[고중초대]\s*[1-6]|\d{2}\s*학번|새내기|신입생|복학생|졸업반|막학기|석사\s*\d\s*년차|"
                         r"박사\s*\d\s*년차|석사과정|박사과정)(?:이야|야|이에요|예요|에요|입니다|임|이고|고|인데|이라|라|\s|$|[!.,~])")
_MAJOR_TOPIC = re.compile(r"(?:내|제)?\s*(?:전공|학과)(?:은|는|이|가)\s*")
_MAJOR_VERB = re.compile(r"(?P<kw>전공)(?:이야|야|이에요|예요|에요|입니다|임|이고|인데|이라|생|해|하고|했|중|으로|$|\s|[!.,~])")
_DEPARTMENT = re.compile(r"([가-힣A-Za-z]{2,12}(?:학과|학부|공학과|교육과))(?:이야|야|예요|에요|이에요|입니다|임|이고|고|인데|\s|$|[!.,~])")
# A change of major ("전과함 … 컴공으로 신청했는데 붙음", "경영에서 컴공으로 전과했어"): the major gone to, in a message
# that says 전과.
_MAJOR_MOVED = re.compile(r"([가-힣A-Za-z]{2,10}?)(?:과)?(?:으로|로)\s*(?:전과|신청|옮|바꿨|바꿈|갈아탔|붙)")
_TRANSFERRED = re.compile(r"전과(?:함|했|해서|하려|성공|확정|됐|돼서)")
_DEPARTMENT_ATTEND = re.compile(r"([가-힣A-Za-z]{1,10}과)\s*(?:에\s*)?(?:다녀|다님|다니고|다녀요|다닙니다|재학|학생|생이야|생이에요)")
_SCHOOL_ATTEND = re.compile(r"(?P<school>[가-힣A-Za-z]{1,12}?(?:대학교|대학원|대학|대|고등학교|중학교|초등학교|여고|여중|과고|외고|예고))"
                            r"\s*(?:에\s*)?(?:다녀|다니고|다님|다녀요|다닙니다|재학|학생|생이야|생이에요|에\s*다니)")
_WORK_AT = re.compile(r"(?P<place>\S+?)(?:에서)\s*(?:\S+\s+){0,2}?(?:일해|일하고|일하는|일함|일합니다|일해요|근무|일하거든|일한다)")
_WORK_AS = re.compile(r"(?P<job>\S+?)(?:으로|로)\s*(?:일해|일하고|일하는|일함|일합니다|일해요|근무|일하거든|일한다|취직|입사|"
                      r"이직|전직|전향|취업|옮겼|옮김|일\s*시작|새로\s*시작|들어감|들어갔|커리어\s*전환)")
# "간호사 됐어!", "드디어 정식 바리스타 됨": the user became something.
_BECAME = re.compile(r"(?P<job>\S+?)(?:이|가)?\s*(?:됐|됨(?=$|[\s!.,~ㅋㅎ])|되었|돼\s*버렸)")
# "정형외과에서 물리치료사 함", "카페에서 바리스타 해요": an occupation done at a workplace.
_JOB_AT = re.compile(r"(?P<place>\S+?)에서\s*(?P<job>(?:[가-힣A-Za-z]+\s+)?[가-힣A-Za-z]+?)\s*(?:로\s*|으로\s*)?(?:일\s*)?"
                     r"(?:해|함|해요|하고|합니다|하는\s*중|하는데|한다|하거든|하지|하는\s*사람|일해|일하고|근무)"
                     r"(?=$|[\s!.,~?ㅋㅎㅠ]|요|\S*있)")
_OCCUPATION_TOPIC = re.compile(r"(?:내|제)?\s*직업(?:은|이)\s*")
_WORKPLACE_NOUN = r"[가-힣A-Za-z]{2,12}\s?(?:회사|전자|은행|병원|그룹|증권|보험|카드|통신|제약|건설|공사|청|연구소|스타트업|센터|스튜디오)"
_COMPANY_ATTEND = re.compile(rf"(?P<place>{_WORKPLACE_NOUN})\s*(?:에\s*)?(?:다녀|다니고|다님|다녀요|다닙니다|다니는|다닌다|근무)")
# "나 삼성 다녀", "이제 카카오 다녀": a known company named bare (lexicon.COMPANIES_KO), not a visit ("다녀왔어").
_KNOWN_COMPANY_ATTEND = re.compile(r"(?<![가-힣A-Za-z])(?P<place>" + "|".join(
    re.escape(c) for c in sorted(COMPANIES_KO, key=len, reverse=True)) + r")\s*(?:에\s*)?"
    r"(?:다녀(?!\s*(?:왔|와|오|옴|갔))|다니고|다님|다닙니다|다니는|다닌다|근무)")
# "척추병원 합격했어", "삼성전자 입사함", "스타트업으로 이직했어": the new workplace.
_HIRED_AT = re.compile(rf"(?P<place>{_WORKPLACE_NOUN})\s*(?:에|으로|로)?\s*(?:최종\s*)?(?:합격|입사|취직|이직|출근\s*확정)"
                       r"(?:했|함|해|이야|확정|됐|돼)")
# "한전 입사해서 신입 연수 중", "넥슨 취직했어": a company named by itself before joining it (입사/취직 say a job;
# 합격 may be a school or an exam).
_JOINED_NAMED = re.compile(r"(?<![가-힣A-Za-z])(?P<place>[가-힣A-Za-z][가-힣A-Za-z0-9&]{1,12}?)\s*(?:에\s*)?(?:입사|취직)"
                           r"(?:했|함|해서|해|확정|합니다|하게|한\s*지)")
_NOT_A_COMPANY = frozenset("회사 직장 거기 여기 그곳 신입 다시 드디어 이번에 올해 작년 내년 곧 바로 결국 무사히 정규직 계약직".split())
# "차장 달았어", "과장으로 승진했어": a new rank is the current occupation.
_RANKS = "|".join(WORK_RANKS_KO + ("책임", "수석"))
_PROMOTED = re.compile(rf"(?<![가-힣])(?P<job>{_RANKS})\s*(?:달았|달음|달았어|다는\s*거\s*확정)|(?<![가-힣])(?P<job2>{_RANKS})"
                       r"(?:으로|로)\s*(?:승진|진급)")
# "브랜딩 디자인 스튜디오 ㅋㅋ 어시로 들어감": joined a workplace, a role or laughter between.
_JOINED = re.compile(rf"(?P<place>{_WORKPLACE_NOUN})(?:\s*[ㅋㅎ~!.]+)?\s*(?:\S{{1,6}}(?:으로|로)\s*)?"
                     r"(?:들어감|들어갔|입사|취직|합격|첫\s*출근|출근\s*시작)")
# "Loopmint라는 fintech startup에서", "Haneul Games라는 Irvine 게임 회사": a named workplace.
_NAMED_WORKPLACE = re.compile(r"(?P<place>(?:[A-Z][A-Za-z0-9&'-]*\s?){1,3}|[가-힣]{2,10})(?:이)?라는\s+(?:\S+\s+){0,2}?"
                              r"(?:회사|스타트업|startup|company|게임\s*회사|병원|가게|카페|식당|학원|은행|에이전시|agency|studio|스튜디오)")
_WORK_CONTEXT = re.compile(r"일해|일하|근무|다녀|다님|다니|입사|이직|출근|new\s+job|첫날|에서|designer|engineer|developer", re.I)
# "UX designer야": an English job with a Korean copula.
_ENGLISH_JOB = re.compile(r"(?<![A-Za-z])(?P<v>[A-Za-z][A-Za-z ]{1,30}?)\s*(?:야|이야|에요|예요|이에요|입니다|임|인데|이고|로\s*일해)"
                          r"(?=[\s,.!?~]|$)")
_TOPIC_MARKED = re.compile(r"(?:^|\s)(\S+?)(?:은|는)(?=\s)")
_TEACHES = re.compile(r"\s*(?:반\s*)?(?:담임|맡|가르치|가르쳐|수업|애들|아이들)")
_SELF_TOPICS = frozenset({"나", "저", "난", "전", "직업", "내 직업", "제 직업", "일", "하는 일", "현재", "지금", "요즘"})
_OFFICE = re.compile(r"(?:^|\s)회사\s*(?:에\s*)?(?:다녀|다님|다니고|다녀요|다닙니다|다니는\s*중)")
_JOBLESS = re.compile(r"(취준|취업\s*준비|백수|무직|휴학|재수|반수|공시\s*준비|고시\s*준비)\s*(?:중|하고|해|생|야|이야|임|예요|에요)")


# A shop the user runs ("동네에서 치킨집하는 박상철입니다", "카페 해요") and gig work ("1톤트럭으로 용달 뛰어요", "요즘 대리
# 뛰어"): the trade, as the occupation.
_RUNS_SHOP = re.compile(r"(?<![가-힣])(?P<v>[가-힣]{0,5}(?:집|가게|카페|식당|학원|공방|매장|미용실|술집|호프|포차|분식집))"
                        r"\s*(?:을|를)?\s*(?:하는|해요|합니다|하고\s*있|운영)(?!\s*(?:거|것|게|데|척))")
_GIG = re.compile(r"(?<![가-힣])(?P<v>용달|배달|대리운전|대리|택배|퀵|택시)\s*(?:기사\s*)?(?:일\s*)?(?:로\s*)?"
                  r"(?:뛰어|뛰는|뛴다|뛰고|뛰어요|해요\s*기사|기사(?:예요|에요|야|입니다|임|로))")


def moved_major(text: str) -> list[Candidate]:
    """The major a message that says 전과 moves to, in any of its clauses ("나 전과함 ㅋㅋ 경영 안맞아서 컴공으로 신청했는데
    붙음")."""
    if not _TRANSFERRED.search(text):
        return []
    return [Candidate("major", match.group(1)) for match in _MAJOR_MOVED.finditer(text)
            if is_major_ko(match.group(1)) and not about_someone_else(text, match.start())][:1]


def study_and_work_facts(clause: str) -> list[Candidate]:
    """Return school year, major, school, occupation and workplace stated in one clause."""
    found = []
    if about_someone_else(clause, len(clause)) and not re.search(r"(?:^|\s)(?:나|난|나는|저는|전|내가|제가)\s", f" {clause}"):
        return found
    for match in _SCHOOL_YEAR.finditer(clause):
        if about_someone_else(clause, match.start()) or _TEACHES.match(clause, match.end()):
            continue  # "3학년 담임하고 있어요" teaches the class
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
    for match in _BECAME.finditer(clause):
        job = noun_phrase_before(clause, match.start("job") + len(match.group("job")), max_words=3)
        if job and is_occupation_ko(job) and not about_someone_else(clause, match.start()) \
                and not re.search(r"(?:안|못|꼭|되고\s*싶)\s*$", clause[:match.start()]):
            found.append(Candidate("occupation", job))
    for match in _JOB_AT.finditer(clause):
        job = noun_phrase_before(clause, match.end("job"), max_words=2)
        if not job or not is_occupation_ko(job) or "알바" in job or about_someone_else(clause, match.start()) \
                or negated_after(clause, match.end()) or wished_after(clause, match.end() - 1) \
                or re.search(r"(?:했었|하던|했던)", clause[match.end("job"):match.end() + 4]):
            continue
        found.append(Candidate("occupation", job))
        place = noun_phrase_before(clause, match.start() + len(match.group("place")), max_words=3)
        place = re.sub(r"^(?:(?:요즘|지금|현재|최근|원래|나|난|저|전|나는|저는)\s+)+", "", place or "")
        if valid_value(place) and "알바" not in clause:
            found.append(Candidate("workplace", place))
    for match in _WORK_AT.finditer(clause):
        if "알바" in clause or "아르바이트" in clause:
            continue  # the part-time rule owns it
        place = noun_phrase_before(clause, match.start() + len(match.group("place")), max_words=3)
        if valid_value(place) and not about_someone_else(clause, match.start()) \
                and not negated_after(clause, match.end()) and not wished_after(clause, match.end() - 2):
            found.append(Candidate("workplace", place))
    for match in list(_COMPANY_ATTEND.finditer(clause)) + list(_KNOWN_COMPANY_ATTEND.finditer(clause)):
        if not about_someone_else(clause, match.start()) and not negated_after(clause, match.end()) \
                and not any(c.subject == "workplace" and match.group("place") in c.value for c in found):
            found.append(Candidate("workplace", match.group("place")))
    match = _OFFICE.search(clause)
    if match and not about_someone_else(clause, match.start()) and not negated_after(clause, match.end()):
        found.append(Candidate("occupation", "회사원"))
    match = _JOBLESS.search(clause)
    if match and not about_someone_else(clause, match.start()):
        found.append(Candidate("occupation", re.sub(r"\s+", " ", match.group(0)).strip()))
    for match in _HIRED_AT.finditer(clause):
        if not about_someone_else(clause, match.start()) and not wished_after(clause, match.end()):
            found.append(Candidate("workplace", match.group("place")))
    for match in _JOINED_NAMED.finditer(clause):
        place = match.group("place")
        if place not in _NOT_A_COMPANY and not any(c.subject == "workplace" for c in found) \
                and not about_someone_else(clause, match.start()) and not wished_after(clause, match.end()) \
                and not is_occupation_ko(place):
            found.append(Candidate("workplace", place))
    for pattern in (_RUNS_SHOP, _GIG):
        for match in pattern.finditer(clause):
            if not about_someone_else(clause, match.start()) and not wished_after(clause, match.end()) \
                    and match.group("v") not in ("집", "우리집"):
                found.append(Candidate("occupation", "대리운전" if match.group("v") == "대리" else match.group("v")))
    for match in _PROMOTED.finditer(clause):
        if not about_someone_else(clause, match.start()) and not wished_after(clause, match.end()):
            found.append(Candidate("occupation", match.group("job") or match.group("job2")))
    for match in _ENGLISH_JOB.finditer(clause):
        value = match.group("v").strip()
        if is_occupation_en(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("occupation", value))
    # "저 스물여섯, 물리치료사, 광주 토박이에요": an occupation as one item of a self-introduction.
    if "," in clause:
        for item in clause.split(","):
            value = noun_phrase_after(item, 0, max_words=2)
            if value and is_occupation_ko(value) and len(item.strip()) <= len(value) + 6:
                found.append(Candidate("occupation", value))
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


_PART_TIME = re.compile(r"(?:알바|아르바이트|파트타임)")
_QUIT_AFTER = re.compile(r"^\S*\s*(?:를|는|도|은)?\s*(?:이제\s*)?(?:그만|관두|관뒀|관둠|잘렸|잘림|때려치|끝났|끝남|접었|접음|안\s*해|안\s*함|쉬|못\s*하게|"
                         r"그만둠|그만뒀)")
_WORK_PLACE_BEFORE = re.compile(r"(?P<place>\S+?)에서\s+(?:\S+\s+){0,3}$")
_ALBA_TOPIC = re.compile(r"(?:알바|아르바이트)(?:는|로|도)?\s*(?P<rest>\S+?)에서")


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
            topic = _ALBA_TOPIC.match(clause, match.start())
            if topic:
                place = noun_phrase_after(clause, topic.start("rest"), max_words=2)  # "알바는 영화관에서 해"
        if valid_value(place) and place not in {"주말", "평일", "방학", "단기", "오후", "저녁", "밤", "아침"}:
            found.append(Candidate("part_time_job", place))
    return found, quit_job


def is_past_only(clause: str, end: int) -> bool:
    """Return True for "알바 했었어": a double past marks something no longer true."""
    return bool(re.match(r"^\S*\s*(?:를|도|는)?\s*(?:했었|했던|하던|했을\s*때|했을때)", clause[end:end + 10]))


def joined_workplace(text: str) -> list[Candidate]:
    """A workplace named across the clauses of one message: "브랜딩 디자인 스튜디오 ㅋㅋ 어시로 들어감", "오늘 new job
    첫날이었어요. Haneul Games라는 Irvine 게임 회사"."""
    for match in _JOINED.finditer(text):
        if not about_someone_else(text, match.start()) and not wished_after(text, match.end()):
            return [Candidate("workplace", match.group("place"))]
    if _WORK_CONTEXT.search(text):
        for match in _NAMED_WORKPLACE.finditer(text):
            if not about_someone_else(text, match.start()) and not wished_after(text, match.end()):
                return [Candidate("workplace", match.group("place").strip())]
    return []
