"""Family, siblings and pets in a Korean user message.

These are message-level rules: "나 고양이 키워! 이름은 두부고 러시안블루야" spreads one pet over three
clauses, "막내라 ... 엄마 아빠 누나 나 이렇게 4인 가족" one family over two.
"""
from __future__ import annotations

import re

from .candidates import Candidate
from .korean_text import (
    about_someone_else,
    clauses,
    name_at,
    strip_name_suffix,
    strip_quote,
    valid_value,
    wished_after,
)
from .lexicon import ANIMALS_KO, BREEDS_KO, FAMILY_MEMBERS_KO, OTHER_PERSON_KO

_COUNT = r"(?:\d|한|두|세|네|다섯|여섯|일곱|여덟)"
_FAMILY_SIZE = re.compile(rf"({_COUNT}\s*(?:인|명)\s*가족|{_COUNT}\s*식구|대가족|핵가족)")
_FAMILY_POSITION = re.compile(
    r"(?<![가-힣])(외동딸|외동아들|외동|막내딸|막내아들|막내|장남|장녀|맏이|맏딸|맏아들|첫째|둘째|셋째|차남|차녀|"
    r"[삼사오]남매|[삼사오]형제|[삼사오]자매|\d남\s*\d녀)"
    r"(?=\s*(?:야|이야|임|이고|고|인데|라|이라|라서|여서|이어서|예요|에요|이에요|입니다|딸|아들|$|[!.,~])|\s)")
_MEMBER = re.compile("|".join(sorted(FAMILY_MEMBERS_KO, key=len, reverse=True)))
_SIBLING = re.compile(r"(?<![가-힣])(형|오빠|누나|언니|남동생|여동생|동생|쌍둥이\s*(?:형|언니|오빠|누나|동생))"
                      r"(?:이|가|은|는|도)?\s*(?P<count>하나|한\s*명|둘|두\s*명|셋|세\s*명|\d\s*명)?\s*"
                      r"(?:있어|있음|있고|있는데|있다|있어요|있습니다|있거든)")

_ANIMAL = "|".join(sorted((re.escape(a) for a in ANIMALS_KO), key=len, reverse=True))
_BREED = "|".join(sorted((re.escape(b) for b in BREEDS_KO), key=len, reverse=True))
_KEEP = r"(?:키워|키우|키움|키웁|길러|기르|기름|키운\s*지|모시고|입양|있어|있음|있는데|있거든|있다|있어요|있습니다)"
_PET_SIGNAL = re.compile(rf"(?<![가-힣])(?P<animal>{_ANIMAL}|{_BREED})(?:를|을|도|는|가|이|\s)*\s*"
                         rf"(?:한\s*마리|두\s*마리|세\s*마리|\d\s*마리)?\s*(?:랑\s*)?(?P<verb>{_KEEP})")
_OWNER_BEFORE = re.compile(r"(?:^|\s)(?:나|저|난|전|나는|저는|나도|저도|우리\s*집에?|우리집에?|집에)\s*(?:\S+\s*){0,2}$")
# "솔방울 개웃기네" is 솔방울 + 개- (an intensifier), not "울 개": the owner word stands alone and the animal ends a word.
_OUR_PET = re.compile(rf"(?<![가-힣])(?:우리\s*집|우리집|우리|내|제|울집|울)\s*(?P<animal>{_ANIMAL}|{_BREED})"
                      r"(?=$|[^가-힣]|(?:가|는|를|도|랑|이랑|한테|하고|이|은|을|의|들|이가|이는|이랑)(?:$|[^가-힣]))")
_ANIMAL_MENTION = re.compile(rf"(?<![가-힣])(?P<animal>{_ANIMAL}|{_BREED})(?!웃|좋|맛|쩔|빡|꿀|이득|잘|많|싫|귀|예|멋|오|별|노|힘|추|덥|피곤)")
_OWN_ANIMAL_NAME = re.compile(rf"(?:우리\s*집|우리집|울집|우리|내|제)\s*(?:{_ANIMAL})\s+(?P<word>[가-힣A-Za-z]{{1,6}}?)"
                              r"(?:이는|는|은|이가|가|이랑|랑|도)\s")
_NAME_LIST = re.compile(r"^\s*(?P<a>[가-힣A-Za-z]{1,6}?)(?:이랑|랑|하고|,|와|과)\s*(?P<b>[가-힣A-Za-z]{1,6})\s*$")
_ANIMAL_RE = re.compile(rf"(?<![가-힣])({_ANIMAL})(?=$|[^가-힣]|를|을|도|는|가|이|랑|한|두|키)")
_BREED_RE = re.compile(rf"({_BREED})")
_PET_NAME_TOPIC = re.compile(r"(?:(?:강아지|고양이|냥이|애|얘|걔|개)\s*)?이름(?:은|이)\s*(?P<word>\S+)")
_NAMED = re.compile(r"(?P<word>[가-힣A-Za-z]{1,6})(?:이)?라는\s*(?:이름|애|" + _ANIMAL + ")")
_NAMED_IT = re.compile(r"(?P<word>[가-힣A-Za-z]{1,6}?)(?:이)?라고\s*(?:지었|지음|지어|이름\s*지|불러|부르)")


def _pet_name(text: str) -> str:
    for clause in clauses(text):
        names = _NAME_LIST.match(clause)
        if names and not _ANIMAL_RE.search(clause):
            return f"{strip_name_suffix(names.group('a'))}, {strip_name_suffix(names.group('b'))}"
    for match in _OWN_ANIMAL_NAME.finditer(text):
        name = strip_name_suffix(match.group("word"))
        if valid_value(name, max_len=12) and not _BREED_RE.fullmatch(name) and name not in {"이름", "한", "두", "세"}:
            return name  # "우리 집 고양이 나비는 러시안블루야"
    for pattern in (_PET_NAME_TOPIC, _NAMED, _NAMED_IT):
        match = pattern.search(text)
        if not match or re.search(r"(?:내|제|나의|저의)\s*$", text[:match.start()]):
            continue
        if pattern is _PET_NAME_TOPIC:
            name = name_at(text, match.start("word"))
        else:
            name = strip_name_suffix(strip_quote(match.group("word")))
        if valid_value(name, max_len=12) and not _ANIMAL_RE.fullmatch(name) and not _BREED_RE.fullmatch(name):
            return name
    return ""


def _pet(text: str, asked: bool) -> list[Candidate]:
    signal = None
    for match in _PET_SIGNAL.finditer(text):
        verb_at = match.start("verb")
        if wished_after(text, verb_at) or re.search(r"(?:안|못)\s*$", text[:verb_at]) \
                or re.match(r"\S*(?:었었|웠었|렀었)", text[verb_at:verb_at + 5]):
            continue
        if about_someone_else(text, match.start()):
            continue
        if not asked and not match.group("verb").startswith(("키", "길", "기", "모", "입")) \
                and not _OWNER_BEFORE.search(text[:match.start()]):
            continue  # "길에 고양이 있더라" is not a pet; "나 고양이 있어" is
        signal = match
        break
    if signal is None:
        signal = _OUR_PET.search(text)
    if signal is None and asked:
        signal = _ANIMAL_MENTION.search(text)  # "응 고양이 두 마리" answers "뭐 키워?"
    if signal is None:
        return []
    signalled = signal.group("animal")
    mentioned = _ANIMAL_RE.search(text)
    animal = signalled if signalled in ANIMALS_KO else (mentioned.group(1) if mentioned else "")
    breed = _BREED_RE.search(text)
    name = _pet_name(text)
    species = animal
    count = re.search(r"(한|두|세|네|\d)\s*마리", text)
    if species and count and count.group(1) != "한":
        species = f"{species} {count.group(0)}"
    parts = [p for p in (species, name) if p]
    value = " ".join(parts)
    if breed and breed.group(1) != species:
        value = f"{value} ({breed.group(1)})" if value else breed.group(1)
    return [Candidate("pet", value)] if value else []


def _family(text: str) -> list[Candidate]:
    size = position = None
    members: list[str] = []
    for clause in clauses(text):
        size_match = _FAMILY_SIZE.search(clause)
        position_match = _FAMILY_POSITION.search(clause)
        if position_match and about_someone_else(clause, position_match.start()):
            position_match = None
        if size_match and size is None:
            size = re.sub(r"\s+", " ", size_match.group(1))
        if position_match and position is None:
            position = re.sub(r"\s+", "", position_match.group(1))
        if size_match or re.search(r"가족(?:은|이)|식구(?:는|가)", clause):
            for member in _MEMBER.findall(clause):
                if member not in members:
                    members.append(member)
    if size is None and position is None and not members:
        return []
    if size is None and position is None and len(members) < 2:
        return []
    parts = []
    if size:
        parts.append(f"{size} ({', '.join(members)})" if members else size)
    elif members:
        parts.append(", ".join(members))
    if position:
        parts.append(position)
    return [Candidate("family", ", ".join(parts))]


def _siblings(text: str) -> list[Candidate]:
    found = []
    for clause in clauses(text):
        for match in _SIBLING.finditer(clause):
            words = clause[:match.start()].split()
            owner = words[-1] if words else ""
            if owner in OTHER_PERSON_KO or owner.endswith("의") or re.search(r"(?:안|못)\s*$", clause[:match.end()]):
                continue  # "친구 형 있어", "걔 누나" belong to someone else
            count = re.sub(r"\s+", " ", match.group("count") or "")
            found.append(Candidate("sibling", f"{match.group(1)} {count}".strip()))
    return found


def family_answer(text: str) -> list[Candidate]:
    """"부모님이랑 형 하나 있어" answers "가족은 어떻게 돼?": the members named are the family."""
    members = []
    for member in _MEMBER.findall(text):
        if member not in members:
            members.append(member)
    return [Candidate("family", ", ".join(members))] if members else []


def household_facts(text: str, asked_about_pets: bool = False) -> tuple[list[Candidate], bool]:
    """Return (family, sibling and pet facts, whether the message is about a pet).

    `asked_about_pets`: the character just asked, so "네 강아지 한 마리 있어요" is the user's pet.
    """
    pets = _pet(text, asked_about_pets)
    return _family(text) + _siblings(text) + pets, bool(pets)

