"""Who the user says they are, in Korean: name ("나는 한지우라고 해") and nickname ("대장이라고 불러줘")."""
from __future__ import annotations

import re

from .candidates import Candidate
from .korean_text import about_someone_else, has_batchim, name_at, strip_name_suffix, strip_quote, valid_value
from .lexicon import NATIVE_AGE_WORD_KO, OCCUPATIONS_KO, is_major_ko, is_occupation_ko
from .morphology import analyse


_SURNAMES = set("김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진지엄채원천방공현함변염여추도소석선설마길연위표명기반라왕금옥육인맹제모탁국어은편용예봉경")


def _looks_like_full_name(word: str, introducing: bool = False) -> bool:
    """A three-syllable word starting with a common surname that is not an ordinary noun ("한지우"); while the two
    are introducing themselves ("저는 소라예요" → "저는 오세진입니다") the analyser's noun guess is not trusted."""
    if not re.fullmatch(r"[가-힣]{3}", word) or word[0] not in _SURNAMES or re.fullmatch(_AGE_WORD, word):
        return False  # "서른넷이에요" is an age, whatever its first syllable
    if word in OCCUPATIONS_KO or is_occupation_ko(word) or is_major_ko(word):
        return False
    if introducing:
        return True
    morphs = analyse(word)
    return not (len(morphs) == 1 and morphs[0].tag == "NNG")


_NAME_INTRO = re.compile(
    r"(?:^|\s)(?:나는|난|저는|전|내\s*이름은|제\s*이름은|이름은)\s*([가-힣]{2,4}|[A-Za-z]{2,15})라고\s*"
    r"(?:해|합니다|해요|함|하고|하는데|하지|한다|하구)")
_MY_NAME = re.compile(r"(?:(?:내|제|나의|저의)\s*(?:(?:한국|영어|본|진짜|원래|실제)\s*)?|(?<![가-힣])(?:한국|본|진짜|실제)\s*)"
                      r"이름(?:은|이)\s*(\S+)")
_I_AM = re.compile(r"(?:^|\s)(?:나는|난|나|저는|전|저)\s+(?P<word>[가-힣]{2,4}?)(?P<end>이야|야|이에요|예요|에요|입니다|임|이고|고)"
                   r"(?=[\s!.,~?]|$)(?!\s*(?:불러|부르|불리|불려|해(?:[\s.!~]|$)|하))")  # "나 채채라고 불러" is a call name
_SAID_NAME = re.compile(r"(?:^|\s)(?P<word>[가-힣]{3}?)(?:이)?라고\s*(?:합니다|해요|해|함|하구요|하고요)(?=[\s.!,~ㅎㅋ]|$)")
# A greeting, then the name alone ("ㅎㅇㅎㅇ 춘심 나 준우 ㅋㅋ"): the clause ends with it.
_AGE_WORD = rf"{NATIVE_AGE_WORD_KO}|\d{{2}}\s*살?"
_I_AM_BARE = re.compile(rf"(?:^|\s)(?:나|난|저|전)\s+(?P<word>[가-힣]{{2,3}})\s*(?:$|(?=\s+(?:{_AGE_WORD})(?:[\s.,!~]|$)))")
# "난 박지훈. 스물여섯", "나 서진. 스물넷": a name and a bare age right after it introduce the user, greeting or not.
SELF_INTRO = re.compile(rf"(?:^|\s)(?:나|난|저|전)\s+[가-힣]{{2,3}}\s*[.,]?\s+(?:{_AGE_WORD})(?=[\s.,!~ㅋㅎ]|$)")
_BARE_INTRO = re.compile(r"^\W*(?:(?:반가워요|반갑습니다|반가워|안녕하세요|안녕|네|넵)\W*(?:[ㅎㅋ]+\s*)?)?(?P<word>[가-힣]{3})"
                         r"(?:이고|고|이에요|예요|입니다|이야|야|임)(?=[\s,.!?~]|$)")
# A full name opening the message, then an age ("고은채 스물셋 ㅋㅋ 망원동 자취러임", "김민지 25살 직장인이야").
_OPENING_NAME_AGE = re.compile(rf"^\W*(?P<word>[가-힣]{{3}})\s*[.,]?\s+(?:{_AGE_WORD})(?=[\s.,!~ㅋㅎ]|살|이|입|예|임|요|$)"
                               r"(?!\s*(?:명|개|번|분|시|원|마리|권|일|년|달|주|층|등|위|점|살\s*(?:때|짜리)))(?!.*(?:래|대|더라)$)")
# "치킨집하는 박상철입니다", "개발하는 김민수예요": a full name after what the speaker does.
_DOER_NAME = re.compile(r"(?:하는|다니는|(?<![가-힣])사는)\s+(?P<word>[가-힣]{3})(?:입니다|이에요|예요|이야|야|임|이고)(?=[\s,.!?~ㅎㅋ]|$)")
# What opens a sentence and is no name ("이번주 서른 명 왔어").
_NOT_NAME_OPENING = frozenset("이번 저번 지난 다음 오늘 어제 내일 요즘 우리 정말 진짜 완전 벌써 올해 작년 내년 이제 아직".split())
GREETING = re.compile(r"안녕|반가워|반갑|처음\s*(?:뵙|와|왔|인사)|인사\s*(?:할게|드려)|^\W*(?:ㅎㅇ|하이|헬로|hi|hello|hey)(?![A-Za-z])",
                      re.I)
# The character introducing itself or asking who the user is: the user's next words are an introduction too.
INTRODUCTION = re.compile(r"(?:저는|나는|난|전)\s*\S{1,4}(?:예요|이에요|야|이야|입니다|라고\s*해)|이름이?\s*(?:뭐|어떻게)|누구(?:세요|야)")


def name_facts(clause: str, pet_message: bool, greeting: bool, self_intro: bool = False) -> list[Candidate]:
    """Return the user's name stated in one clause ("나는 한지우라고 해", "내 이름은 서연이야"); `self_intro`: the message
    is a name and a bare age (SELF_INTRO), where a full name the analyser does not know is a name too."""
    found = []
    for match in _NAME_INTRO.finditer(clause):
        name = strip_name_suffix(match.group(1)) if re.match(r"[가-힣]", match.group(1)) else match.group(1)
        found.append(Candidate("name", name))
    if not pet_message:
        for match in _MY_NAME.finditer(clause):
            if about_someone_else(clause, match.start()):
                continue
            name = name_at(clause, match.start(1))
            if name and valid_value(name):
                found.append(Candidate("name", name))
    if greeting:  # "처음 뵙겠습니다. 광주 사는 배준영이라고 합니다": a full name said so, no pronoun before it
        for match in _SAID_NAME.finditer(clause):
            if _looks_like_full_name(match.group("word"), introducing=True):
                found.append(Candidate("name", match.group("word")))
    if greeting:  # "반가워요 ㅎㅎ 윤태호고 마흔하나예요": a full name opening the clause of an introduction
        match = _BARE_INTRO.match(clause)
        if match and _looks_like_full_name(match.group("word"), introducing=True):
            found.append(Candidate("name", match.group("word")))
    for match in _DOER_NAME.finditer(clause):
        if _looks_like_full_name(match.group("word"), introducing=True) \
                and match.group("word")[:2] not in _NOT_NAME_OPENING:
            found.append(Candidate("name", match.group("word")))
    opening = _OPENING_NAME_AGE.match(clause)
    if opening and opening.group("word")[:2] not in _NOT_NAME_OPENING \
            and _looks_like_full_name(opening.group("word"), introducing=True) \
            and not any(m.tag[0] in "VEJM" for m in analyse(opening.group("word"))):
        found.append(Candidate("name", opening.group("word")))
    bare = _I_AM_BARE.search(clause) if (greeting or self_intro) and not _I_AM.search(clause) else None
    if bare and (_looks_like_given_name(bare.group("word"))
                 or (self_intro and _looks_like_full_name(bare.group("word"), introducing=True)
                     and not any(m.tag[0] in "VEJ" for m in analyse(bare.group("word"))))) and not re.search(r"(?:임|야|요|다|어|아|해|함)$", bare.group("word")):
        found.append(Candidate("name", strip_name_suffix(bare.group("word"))))
    for match in _I_AM.finditer(clause):
        word = match.group("word")
        if match.group("end") in ("이고", "고"):  # "저 김도현이고 서른하나 직장인입니다": only a full name goes on so
            if _looks_like_full_name(word, introducing=greeting):
                found.append(Candidate("name", word))
            continue
        if _looks_like_full_name(word, introducing=greeting):
            found.append(Candidate("name", word))
        elif greeting and _looks_like_given_name(word):
            found.append(Candidate("name", strip_name_suffix(word)))  # "반가워~ 나는 민혁이야"
    return found


def _looks_like_given_name(word: str) -> bool:
    """"민혁": a proper noun or an unknown word, not an ordinary noun, a job or a place."""
    if word in OCCUPATIONS_KO or is_occupation_ko(word) or is_major_ko(word) or len(word) < 2:
        return False
    if re.search(r"(?:시|구|동|역|도|군)$", word):
        return False
    morphs = analyse(word)
    if any(m.tag == "NNP" for m in morphs):
        return True
    return not any(m.tag in {"NNG", "NP", "VV", "VA", "MAG"} and m.end - m.start >= 2 for m in morphs)


_CALL = re.compile(r"(?P<word>[^\s,.!?]+?)라고\s*(?P<verb>불러|부르|부를|불려|불리)(?P<rest>\S*)")
_CALL_REQUEST = re.compile(r"^(?:줘|주세요|줄래|주라|주면|줘요|도\s*돼|도\s*괜찮|면\s*돼|면\s*좋겠|라|어|요|줬으면|)")
_NICKNAME_TOPIC = re.compile(r"(?:내|제|나의|저의)?\s*(?:별명|애칭|닉네임|닉)(?:은|이)\s*(\S+)")
_THIRD_SUBJECT = re.compile(r"(?:친구들|친구|사람들|다들|애들|가족|엄마|아빠|누나|형|언니|오빠|동생|선배|후배)(?:이|가|은|는|도)\s")


def nickname_facts(clause: str) -> list[Candidate]:
    """Return what the user is called ("대장이라고 불러줘"); `request` marks an ask to be called so."""
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
