"""Where the user is from and lives, in Korean: hometown, residence, living arrangement, commute.

A residence needs a present, non-negated predicate: "노원 살거든" yes, "노원 살았었어" and
"노원 아니고 신촌에서 자취해" (for 노원) no; a planned move ("다음 달에 서울로 이사 가") is not one yet.
"""
from __future__ import annotations

import re

from .candidates import Candidate
from .josa import josa
from .korean_text import about_someone_else, negated_after, valid_value, wished_after
from .lexicon import CITIES_KO, NEIGHBOURHOODS_KO
from .morphology import analyse, is_negated_at, is_past_at, noun_phrase_after, noun_phrase_before, predicates

_COPULA_END = r"(?:이야|야|이에요|예요|에요|입니다|임|이고|인데|이라|이다|이지|이거든|\s|$|[!.,~])"
_HOMETOWN_TOPIC = re.compile(r"(?:내|제)?\s*(?:고향|출신지|본가)(?:은|는|이|가)\s*")
_HOMETOWN_AFTER = re.compile(r"(?P<kw>(?:내|제)?\s*고향)(?=이야|야|이에요|예요|에요|입니다|임|이고|인데|이라|$|\s|[!.,~])")
_FROM = re.compile(r"(?P<kw>출신|토박이|태생)" + _COPULA_END)
_BORN_IN = re.compile(r"에서\s*(?:태어났|태어나서|태어나고|태어난|나고\s*자랐|자랐|컸어|컸음)")
_PLACE_PERSON = re.compile(r"(?P<kw>사람)(?:이야|이에요|입니다|임|이라|이고|인데|이거든)")  # "원래 울산 사람이야"

_HOUSING = ("원룸", "투룸", "오피스텔", "아파트", "빌라", "기숙사", "고시원", "셰어하우스", "쉐어하우스", "하숙", "자취방",
            "본가", "주택", "단독주택", "옥탑방", "반지하")
_NOT_PLACES = frozenset({"혼자", "같이", "가족", "부모님", "엄마", "아빠", "친구", "동생", "누나", "형", "언니", "오빠",
                         "행복", "열심히", "사람", "인생", "하루", "집", "여기", "거기", "저기", "이곳", "그곳", "어디",
                         "곳", "데", "중", "지금", "요즘", "맨날", "오래", "평생", "룸메", "남친", "여친"})
_PLACE_SUFFIX = re.compile(r"(?:구|동|시|역|읍|면|군|도)$")
_RESIDENCE_TOPIC = re.compile(r"(?:내가|제가)?\s*(?P<topic>사는\s*(?:곳|데|동네)|거주지|주소|우리\s*동네|지금\s*집|집)"
                              r"(?:은|는|이|가)\s*")
_BETWEEN_PLACE_AND_VERB = re.compile(r"\s*(?:에|에서|쪽에|쪽|근처에|근처|에서는|에는|는|은|도)?\s*")
_SELF_HOUSING = re.compile(r"(?P<place>\S+?)(?:에서)?\s*(?:자취|하숙|혼자\s*살)")
_MOVE = re.compile(r"(?P<place>\S+?)(?:으로|로|에)\s*(?:이사|이사를|이삿짐)\s*(?:했|왔|갔|함|옴|감|온|간|완료|와\s*(?:있|살)|와서|"
                   r"끝냄|끝남|끝났|끝내|마침|마쳤|다\s*했|옮김|옮겼)")
# "드디어 성수동 입성", "판교 새 아파트 입주 완료": arrived at a new home.
_ARRIVED = re.compile(r"(?P<place>\S+?)(?:에|으로|로)?\s*(?:(?:새\s*)?(?:집|아파트|오피스텔|원룸|투룸|빌라)\s*)?(?P<kw>입성|입주)"
                      r"(?!\s*(?:예정|할|하려|하고\s*싶|각|전))")
# After talk of moving ("이사 어디로 가?"): "성수동으로 감", "성수동으로 왔어".
_MOVED_TO = re.compile(r"(?P<place>\S+?)(?:으로|로)\s*(?:감|갔\S*|가게\s*됐\S*|옴|왔\S*|오게\s*됐\S*|정했\S*|결정|확정)"
                       r"(?=$|[\s!.,~ㅋㅎ])")
_MOVING_TALK = re.compile(r"이사|이삿짐|집\s*(?:구하|알아보|계약)|새\s*집|\bmov(?:e|ing)\b", re.I)
_FUTURE_WORDS = re.compile(r"다음\s*(?:달|주|해)|내년|곧|예정|할\s*거|갈\s*거|계획|하려고|가려고|내일|모레")
_LIVES = re.compile(r"(?P<place>\S+?)(?:에)?\s*거주")
_RESIDENT = re.compile(r"(?P<kw>주민)(?:임|이야|이에요|입니다|이다|이\s*됐|됐|$|\s|[!.,~ㅋㅎ])")  # "이제 분당 정자동 주민임"
_COMMUTE = re.compile(r"(?:으로|로)\s*(?P<kw>출퇴근|출근|통학|등교|통근)")
_FIRST_PERSON = re.compile(r"(?:^|\s)(?:나|난|나는|저는|전|내가|제가)\s")
# Reported speech right after the verb: someone else's move ("Kevin이 Austin으로 이사 간대요", "이사했대").
_REPORTED = re.compile(r"(?:었|았|였)?(?:대|댄다|다더|다네|단다|래|다고|다며|답니다)")


_TIME_VALUE = re.compile(r"^(?:[월화수목금토일](?:요일|욜)|주말|평일|어제|오늘|내일|모레|그저께|이번\s*주|다음\s*주|지난\s*주|저번\s*주|"
                         r"이번\s*달|다음\s*달|지난\s*달|작년|올해|내년|연말|월말|방학|휴가|\d+\s*월|\d+\s*일|아까|방금|드디어|"
                         r"결국|이제|곧|빨리)$")


def place_ok(value: str) -> bool:
    """Return True for a value that can be a place ("노원", "서울 강남구"), not "혼자", "집" or "토욜"."""
    return valid_value(value, max_len=20) and value not in _NOT_PLACES and not re.fullmatch(r"[\d\s]+", value) \
        and not _TIME_VALUE.match(value)


def _known_place(value: str) -> bool:
    """A city or neighbourhood of the lists ("분당", "판교"): a place without a place ending."""
    return value in CITIES_KO or value in NEIGHBOURHOODS_KO


# "회사는 판교고 집은 분당이야", "회사 판교": where the company is, said as a topic.
_COMPANY_TOPIC = re.compile(r"(?:^|\s)(?:우리\s*|내\s*|제\s*)?(?:회사|직장|사무실)(?:는|은)?\s+(?=\S)")


def company_place(clause: str) -> list[Candidate]:
    """The place a clause gives the user's company as a topic ("회사는 판교야"), or []."""
    found = []
    for match in _COMPANY_TOPIC.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=1)
        value = re.sub(r"(?:이고|고|이야|야|이에요|예요|임|이라|라)$", "", value) if value else value
        if value and (_known_place(value) or _PLACE_SUFFIX.search(value) and place_ok(value)) \
                and not about_someone_else(clause, match.start()):
            found.append(Candidate("workplace", value))
    return found


def _housing(value: str) -> bool:
    return value in _HOUSING or value.endswith(_HOUSING)


def _hometowns(clause: str) -> list[Candidate]:
    found = []
    for match in _HOMETOWN_TOPIC.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=2)
        if place_ok(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("hometown", value))
    for pattern in (_HOMETOWN_AFTER, _FROM):
        for match in pattern.finditer(clause):
            value = noun_phrase_before(clause, match.start("kw"), max_words=2)
            if not place_ok(value) or about_someone_else(clause, clause.rfind(value, 0, match.start("kw"))):
                continue
            if negated_after(clause, match.end("kw")) or clause[match.end("kw"):].lstrip().startswith("?") \
                    or re.match(r"\S*\?", clause[match.end("kw"):]):
                continue  # "부산 출신 아니야", "어디 출신이야?"
            found.append(Candidate("hometown", value))
    for match in _BORN_IN.finditer(clause):
        value = noun_phrase_before(clause, match.start(), max_words=2)
        if place_ok(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("hometown", value))
    for match in _PLACE_PERSON.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=2)
        if value and place_ok(value) and any(m.tag == "NNP" for m in analyse(value)) \
                and not about_someone_else(clause, clause.rfind(value, 0, match.start("kw"))):
            found.append(Candidate("hometown", value))
    return found


def _lives_in(clause: str) -> list[Candidate]:
    """"노원 살거든", "서울 사는 24살", "혼자 살아", "원룸 살아"."""
    found = []
    for morph in predicates(clause, ("살다",)):
        if is_negated_at(clause, morph) or is_past_at(clause, morph) or wished_after(clause, morph.end):
            continue
        if re.search(r"혼자\s*$", clause[:morph.start]):
            found.append(Candidate("living_arrangement", "혼자 삶"))
            continue
        value = noun_phrase_before(clause, morph.start, max_words=2)
        if not value:
            continue
        at = clause.rfind(value, 0, morph.start)
        if not _BETWEEN_PLACE_AND_VERB.fullmatch(clause[at + len(value):morph.start]):
            continue  # "엄마랑 살아" names who, not where
        if _housing(value):
            found.append(Candidate("living_arrangement", value))
        elif place_ok(value) and not about_someone_else(clause, at):
            found.append(Candidate("residence", value))
    return found


# "지금 사는 Wilshire 아파트 lease가 …", "내가 사는 망원동 원룸": the place named between 사는 and the home.
_HOME_AFTER_LIVING = re.compile(r"(?:지금|현재|요즘|내가|제가)\s*사는\s+(?P<place>[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)?|[가-힣]{2,8})"
                                r"\s*(?:쪽\s*)?(?:아파트|집|원룸|투룸|오피스텔|빌라|apt\b|apartment\b)", re.I)


def _residences(clause: str) -> list[Candidate]:
    found = _lives_in(clause)
    for match in _HOME_AFTER_LIVING.finditer(clause):
        place = match.group("place")
        if place_ok(place) and not _housing(place) and not about_someone_else(clause, match.start()):
            found.append(Candidate("residence", place))
    for match in _SELF_HOUSING.finditer(clause):
        if wished_after(clause, match.end()) or negated_after(clause, match.end()):
            continue
        value = noun_phrase_before(clause, match.start() + len(match.group("place")), max_words=2)
        if place_ok(value) and not _housing(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("residence", value))
        found.append(Candidate("living_arrangement", "자취" if "자취" in match.group(0) else "혼자 삶"))
    if not _FUTURE_WORDS.search(clause):  # a planned move leaves the residence where it is
        for match in _MOVE.finditer(clause):
            value = noun_phrase_before(clause, match.start() + len(match.group("place")), max_words=2)
            if place_ok(value) and not wished_after(clause, match.end() - 1) \
                    and not about_someone_else(clause, match.start()) and not _REPORTED.match(clause, match.end()):
                found.append(Candidate("residence", value))
    if not _FUTURE_WORDS.search(clause):
        for match in _ARRIVED.finditer(clause):
            value = noun_phrase_before(clause, match.start() + len(match.group("place")), max_words=2)
            if place_ok(value) and not _housing(value) and not about_someone_else(clause, match.start()):
                found.append(Candidate("residence", value))
    for match in _RESIDENCE_TOPIC.finditer(clause):
        value = noun_phrase_after(clause, match.end(), max_words=2)
        if not value or about_someone_else(clause, match.start()):
            continue
        if _housing(value):
            found.append(Candidate("living_arrangement", value))
        elif place_ok(value) and (not match.group("topic").startswith("집") or _PLACE_SUFFIX.search(value)
                                  or _known_place(value)) \
                and not negated_after(clause, match.end() + len(value)):
            found.append(Candidate("residence", value))  # "집은 강남구야" yes, "집은 좁아" no
    for match in _RESIDENT.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=2)
        if place_ok(value) and not about_someone_else(clause, clause.rfind(value, 0, match.start("kw"))):
            found.append(Candidate("residence", value))
    for match in _LIVES.finditer(clause):
        value = noun_phrase_before(clause, match.start() + len(match.group("place")), max_words=2)
        if place_ok(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("residence", value))
    for match in _COMMUTE.finditer(clause):
        value = noun_phrase_before(clause, match.start("kw"), max_words=2)
        if place_ok(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("commute", f"{josa(value, '으로/로')} {match.group('kw')}"))
    return found


def moved_to(text: str, context: str = "") -> list[Candidate]:
    """"성수동으로 감" after talk of moving (in the message or the character's question) is the new home."""
    if not _MOVING_TALK.search(f"{text} {context}"):
        return []
    found = []
    for match in _MOVED_TO.finditer(text):
        if _FUTURE_WORDS.search(text) and not re.search(r"이사\s*(?:끝|완료|했|함|옴|왔)", text):
            break
        value = noun_phrase_before(text, match.start() + len(match.group("place")), max_words=2)
        if place_ok(value) and not _housing(value) and not about_someone_else(text, match.start()) \
                and not _REPORTED.match(text, match.end()) \
                and (_PLACE_SUFFIX.search(value) or any(m.tag == "NNP" for m in analyse(value))):
            found.append(Candidate("residence", value))
    return found[:1]


def place_facts(clause: str) -> list[Candidate]:
    """Return hometown, residence, living arrangement and commute stated in one clause."""
    if about_someone_else(clause, len(clause)) and not _FIRST_PERSON.search(f" {clause}"):
        return []
    return _hometowns(clause) + _residences(clause) + company_place(clause)
