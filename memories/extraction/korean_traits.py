"""Traits of the user, in Korean: handedness, smoking, tattoo, religion, health, gender, diet, zodiac,
allergies and fears.
"""
from __future__ import annotations

import re

from .candidates import Candidate
from .korean_text import about_someone_else, negated_after, valid_value, wished_after
from .morphology import noun_phrase_after, noun_phrase_before


_HANDED = re.compile(r"(왼손잡이|오른손잡이|양손잡이)")
_SMOKE = re.compile(r"(담배|전자담배|연초|궐련|흡연)\s*(?:를|는|도|을)?\s*(?:하루에?\s*\S+\s*)?"
                    r"(피워|펴|핌|피움|피우|피고|피운|피워요|태워|태움|해|함|하고|중|자)")
_NON_SMOKER = re.compile(r"비흡연|담배\s*(?:는|를)?\s*안\s*(?:피워|펴|핌|피움|피우|태워)|담배\s*(?:를|는)?\s*(?:끊었|끊음|끊은\s*지)|금연\s*(?:성공|했|"
                         r"중)")
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


def trait_facts(clause: str, message: str) -> list[Candidate]:
    """Return handedness, smoking, tattoo, religion, health, gender, diet and zodiac facts."""
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
        elif match and not wished_after(clause, match.start(2)) \
                and not re.search(r"(?:안|못)\s*$", clause[:match.start(2)]) \
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
                           r"진심|무지|겁나|정말로))+\s*$")
_SCARIEST = re.compile(r"(?:제일|가장|젤)\s*무서운\s*(?:건|게|거|것은|것)\s*")
_TRAUMA = re.compile(r"(\S+)\s*트라우마")


_DISH_SUFFIX = re.compile(r"(?<=[가-힣]{2})(?:소바|국수|냉면|칼국수|라면|버터|빵|케이크|케익|쿠키|과자|튀김|볶음|주스|쥬스|우유|라떼|"
                          r"스무디|요리|죽|전|탕|찜|구이|덮밥|파스타|샐러드|초밥|스시|회|젤리|잼|아이스크림|맛)$")


def _allergen(value: str) -> str:
    """"메밀소바" → "메밀", "새우튀김" → "새우": the allergen, not the dish it was in."""
    compact = value.replace(" ", "")
    stripped = _DISH_SUFFIX.sub("", compact)
    if stripped != compact:
        return stripped
    words = value.split()
    if len(words) == 2 and re.fullmatch(r"(?:소바|국수|빵|케이크|쿠키|과자|튀김|주스|우유|요리)", words[1]):
        return words[0]
    return value


def fear_facts(clause: str) -> list[Candidate]:
    """Return allergies ("복숭아 알레르기") and fears ("고소공포증", "거미 무서워해")."""
    found = []
    for match in _ALLERGY.finditer(clause):
        if negated_after(clause, match.end()):
            continue
        value = noun_phrase_before(clause, match.start(), max_words=2)
        if about_someone_else(clause, max(0, clause.rfind(value, 0, match.start()))):
            continue
        if valid_value(value) and value not in {"약", "비염"}:
            found.append(Candidate("allergy", _allergen(value)))
    for match in _ALLERGY_REACTION.finditer(clause):
        value = noun_phrase_before(clause, match.start() + len(match.group("x")), max_words=2)
        if valid_value(value) and not about_someone_else(clause, match.start()):
            found.append(Candidate("allergy", _allergen(value)))
    for match in _PHOBIA_WORD.finditer(clause):
        word = match.group(1)
        if negated_after(clause, match.end()):
            continue
        if word == "공포증":
            before = noun_phrase_before(clause, match.start(), max_words=2)
            if not before:
                continue
            word = f"{before} 공포증"
        if about_someone_else(clause, max(0, clause.rfind(word.split()[0], 0, match.end()))):
            continue
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
