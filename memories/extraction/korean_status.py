"""Life status of the user, in Korean: dating status, dream job, goals."""
from __future__ import annotations

import re

from .candidates import Candidate
from .josa import josa
from .korean_text import about_someone_else, strip_name_suffix, valid_value, wished_after
from .lexicon import is_occupation_ko
from .morphology import noun_phrase_after, noun_phrase_before


_PARTNER = r"(?:여친|여자\s*친구|여자친구|남친|남자\s*친구|남자친구|애인|연인|사귀는\s*사람|만나는\s*사람)"
_PARTNER_STATE = re.compile(rf"(?<!전\s)(?<!전)(?P<who>{_PARTNER})(?:이|가|은|는|도)?\s*(?:아직|지금|요즘|현재|당연히)?\s*"
                            r"(?P<state>없\S*|있\S*|생겼\S*|생김\S*|생김|생겨\S*|사귐|사귀게\s*됨|사귀게\s*됐\S*)")
_SINGLE = re.compile(r"(모태\s*솔로|모쏠|솔로|싱글|독신|미혼|기혼|유부남|유부녀|돌싱|연애\s*중|연애하는\s*중|썸\s*타는\s*중|썸\s*타는\s*중)"
                     r"(?:\s*(?:\d+|한|두|세|네|다섯)\s*년\s*차)?(?!\s*(?:곡|앨범|무대|데뷔|활동|앨범|가수|라이브))")
_NO_LONGER_SINGLE = re.compile(r"\s*(?:탈출|졸업|끝|청산|아님|아니|아냐)")
_PARTNER_NAME = re.compile(r"이름(?:은|이)\s*(?P<named>[가-힣]{2,4}?)(?:이고|고|이야|야|임|이에요|예요|,|\s|$)"
                           r"|(?P<called>[가-힣]{2,4}?)(?:이)?라고\s*(?!불러|부르|불려)")
_MARRIED = re.compile(r"(결혼|약혼)\s*(?:했|함|한\s*지|했어|했고|했는데|했습니다|했어요)")
_BROKE_UP = re.compile(r"(?:(?:여친|여자친구|남친|남자친구|애인)(?:이랑|하고|과|와|랑)\s*)?(?:헤어졌|헤어짐|헤어졌어|차였|찼어)")
_NOT_DATING = re.compile(r"연애\s*(?:안|못)\s*(?:해|함|하는|한\s*지|하고)|연애\s*(?:를|는)?\s*(?:쉬는|쉬고)")
_DATING_WITH = re.compile(r"(?P<who>\S+?)(?:이랑|랑|하고|와|과)\s*(?:사귀는\s*중|사귀고\s*있|사귄\s*지|연애\s*중|사귀어|사귐)")


def _partner_name(message: str) -> str:
    match = _PARTNER_NAME.search(message)
    if not match:
        return _bare_name(message)
    return strip_name_suffix(match.group("named") or match.group("called") or "")


_BARE_NAME = re.compile(r"^(?P<name>[가-힣]{2,4}?)(?:이)?(?:야|이야|임|이에요|예요|래|이래|라고|이라고)?$")


def _bare_name(message: str) -> str:
    """"나 여친생김 ㅋㅋㅋ 나연이": a clause that is nothing but a given name names the new partner."""
    from .korean_names import _looks_like_given_name
    from .korean_text import clauses

    for clause in clauses(message)[1:]:
        match = _BARE_NAME.match(clause.strip())
        if match:
            name = strip_name_suffix(match.group("name") + ("이" if clause.strip().startswith(match.group("name") + "이")
                                                             else ""))
            if _looks_like_given_name(name) and name not in {"진짜", "대박", "완전", "그냥", "아무튼"}:
                return name
    return ""


def dating_facts(clause: str, message: str = "") -> list[Candidate]:
    """Return the dating status; `message` lets "이름은 서도현" name a new partner."""
    parts = []
    for match in _PARTNER_STATE.finditer(clause):
        if re.search(r"(?:전|前|옛|구)\s*$", clause[:match.start()]) or about_someone_else(clause, match.start()):
            continue
        who = re.sub(r"\s+", " ", match.group("who"))
        state = match.group("state")
        if wished_after(clause, match.end()) or re.match(r"있었|없었", state):
            continue  # "여친 있었는데" is the past
        if state.startswith("없"):
            parts.append(f"{who} 없음")
            continue
        name = _partner_name(message or clause)
        parts.append(f"{who} {'생김' if state.startswith(('생', '사귀')) else '있음'}" + (f" ({name})" if name else ""))
    for match in _SINGLE.finditer(clause):
        if about_someone_else(clause, match.start()) or _NO_LONGER_SINGLE.match(clause[match.end():]):
            continue  # "솔로 탈출"
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
            parts.append(f"{josa(who, '과/와')} 연애 중")
    if _NOT_DATING.search(clause) and not parts:
        parts.append("연애 안 함")
    if not parts:
        return []
    return [Candidate("dating_status", ", ".join(dict.fromkeys(parts)))]


_DREAM_TOPIC = re.compile(r"(?:(?:내|제|나의|저의)\s*|(?<![가-힣]))(?:꿈|장래\s*희망|장래희망|희망\s*직업)(?:은|는|이)\s*")
_DREAM_AFTER = re.compile(r"(?P<kw>(?:(?:내|제)\s*|(?<![가-힣]))(?:꿈|장래\s*희망|장래희망))(?:이야|야|이에요|예요|에요|임|입니다|이고|인데|이라|$|\s|[!.,~])")
_BECOME = re.compile(r"(?P<kw>되고\s*싶|되는\s*게\s*(?:꿈|목표)|될\s*거|되려고|될래|되는\s*것이\s*꿈|되기\s*위해)")
_GOAL = re.compile(r"(?P<what>[^.!?,]{2,40}?(?:는|은|기))\s*(?:게|것이|거|것)\s*(?:내|제)?\s*목표")
_GOAL_TOPIC = re.compile(r"(?:내|제)?\s*목표(?:는|가)\s*")
_GOAL_END = re.compile(r"(?:이야|야|이에요|예요|에요|입니다|임|이고|인데|이지|하기|하는\s*거|하는\s*것)?[?!.~ㅋㅎ\s]*$")
_ACT_AFTER = re.compile(r"\s*(?P<act>[^.!?]{2,40}?(?:는|은|ㄴ|기))\s*(?:거|것)(?:이야|야|예요|에요|이에요|입니다|임|이고|이지|$|\s|[!.,~])")
_LEADING_ADVERBS = re.compile(r"^(?:(?:언젠가|나중에|꼭|언젠간|앞으로|그냥|사실)\s+)+")
_SCORE_TEST = re.compile(r"(토익|토플|오픽|텝스|아이엘츠|IELTS|TOEIC|TOEFL|학점|수능|내신|JLPT|HSK)", re.I)


def dream_facts(clause: str, message: str) -> list[Candidate]:
    """Return the dream job ("게임 개발자가 꿈이야"), other dreams and goals."""
    found = []
    for match in _DREAM_TOPIC.finditer(clause):
        if about_someone_else(clause, match.start()):
            continue
        act = _ACT_AFTER.match(clause, match.end())
        if act:
            found.append(Candidate("goal", f"{_LEADING_ADVERBS.sub('', act.group('act')).strip()} 것", label="꿈"))
            continue
        value = noun_phrase_after(clause, match.end(), max_words=3)
        if re.match(r"\s*(?:하나|한\s*개|둘|두\s*개|몇\s*개|여러\s*개|많|있|없|생겼|생김|뭐|뭔지|있는데|하나\s*있)", clause[match.end():]):
            continue  # "나 꿈이 하나 있는데" announces a dream, it does not name one
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
        rest = _GOAL_END.sub("", clause[match.end():]).strip()  # "목표는 올해 안에 하프마라톤 완주??"
        value = rest if 2 <= len(rest) <= 40 else noun_phrase_after(clause, match.end(), max_words=4)
        if valid_value(value):
            found.append(Candidate("goal", value))
    for match in _GOAL.finditer(clause):
        what = match.group("what").strip()
        what = re.sub(r"^(?:아|그리고|근데|또|암튼|아무튼|그래서)\s+", "", what)
        if len(what) >= 3 and not about_someone_else(clause, match.start()):
            found.append(Candidate("goal", f"{what} 것" if not what.endswith(("것", "거")) else what))
    return found
