"""The assistant turn as context: which subject did the character just ask about, and what is the
user's bare answer ("그럼 키는?" → "178!" is a height; "What should I call you?" → "Captain").
"""
from __future__ import annotations

import re

from .candidates import Candidate
from .dates import find_holidays, find_month_days, format_month_day
from .korean_text import clauses, name_at, valid_value
from .lexicon import (
    BREEDS_EN,
    COLORS_EN,
    OCCUPATIONS_KO,
    SEASONS_EN,
    SEASONS_KO,
    SPORTS_EN,
    SPORTS_KO,
    STOP_VALUES_EN,
    OTHER_PERSON_KO,
    english_number,
    in_list,
    is_color_ko,
    is_occupation_en,
    is_occupation_ko,
)
from .morphology import noun_phrase_after
from .registry import QUESTION_CUES

_KO_FILLERS = re.compile(r"^(?:(?:음+|어+|아+|흠+|글쎄|일단|사실|그냥|나는|난|저는|전|내|제|뭐|음…|어…|아…|헐|오|응|ㅇㅇ|웅|네|넵|"
                         r"요즘은?|최근엔?|최근에는?|주로|보통|평소엔?|평소에는?|아마|원래|본래|나중에|언젠가|(?:나|저)(?=\s)|"
                         r"(?:주말|평일|아침|저녁|밤|매일|매주|쉬는\s*날|시간\s*날\s*때)(?:마다|에는|엔|에|은|는)?(?=\s))"
                         r"(?![가-힣A-Za-z0-9])[\s…,.!~]*)+")
_KO_ACT = re.compile(r"^(?P<act>.{2,40}?(?:는|은|기))\s*(?:거|것)(?:이야|야|예요|에요|이에요|임|$)")
_NATIVE_AGE = re.compile(r"((?:열|스물|서른|마흔|쉰)\s*(?:하나|한|둘|두|셋|세|넷|네|다섯|여섯|일곱|여덟|아홉)?)(?:\s*살)?")
_EN_FILLERS = re.compile(r"^(?:(?:um+|uh+|well|oh|hmm+|haha+|lol|so|i mean|i'd say|probably|maybe|honestly|yes|yeah|"
                         r"yep|nah|nope|no|ok|okay|the|"
                         r"it'?s|its|i'?m|i am|my \w+ is|just|mostly|usually|definitely|totally|gotta say|i guess|"
                         r"i think)\b[\s,.!~]*)+", re.I)
_EN_TRAILING = re.compile(r"\s+(?:for sure|definitely|probably|i guess|i think|obviously|of course|no contest|"
                          r"hands down|"
                          r"for real|lol|haha|tbh|mostly|all the way|i'd say|maybe|is fine|is good|works|please|"
                          r"is ok|is okay|would be nice)$", re.I)
_EN_HEIGHT = re.compile(r"\d'\s*\d{1,2}\"?|\d\s*(?:ft|feet|foot)(?:\s*\d{1,2}(?:\s*in(?:ches)?)?)?|"
                        r"(?<![\d.])1\d{2}\s*cm")
_EN_DATING = re.compile(r"\b(single|taken|married|engaged|divorced|seeing someone|dating someone|"
                        r"in a relationship)\b", re.I)
_KO_PARTNER = re.compile(r"여친|여자\s*친구|남친|남자\s*친구|애인|연인|만나는\s*사람|사귀는\s*사람")


# "What about you?" after the user's own question asks the user the same thing back.
_FOLLOW_UP = re.compile(r"(?:what|how)\s+about\s+you|\band\s+you\s*\?|\byou\s*\?\s*$|(?:너|넌|너는|당신은|언니는|오빠는|형은|누나는)"
                        r"\s*(?:\?|어때)", re.I)


def asked_back(assistant_text: str, previous_user_text: str) -> str:
    """Return the subject of the user's own question when the character turns it back ("What about you?")."""
    if not previous_user_text or not _FOLLOW_UP.search(assistant_text or ""):
        return ""
    return asked_subject(previous_user_text)


# A question asked without its mark: the reply's last sentence ending in a question word ("a birthday is coming
# 👀 when when when", "고향 어디야").
_UNMARKED_QUESTION = re.compile(r"(?:\b(?:when|where|what|who|which|how(?:\s+old)?)|언제|어디|뭐|누구|몇\s*살|무슨\s*\S+)"
                                r"(?:야|예요|에요|이야|니|냐|임|인데|였어|였더라)?[\W_ㅎㅋ]*$", re.I)


def question_sentences(text: str) -> list[str]:
    """The question sentences of a turn (marked with '?', or its last sentence ending in a question word)."""
    sentences = [s.strip() for s in re.findall(r"[^.!?\n…~]*\?", text) if re.search(r"[\w가-힣]", s)]
    if not sentences:
        last = [s.strip() for s in re.split(r"[.!?\n…~]+", text) if s.strip()][-1:]
        sentences = [s for s in last if _UNMARKED_QUESTION.search(s)]
    return sentences


_ABOUT_OTHER = re.compile(
    "(?:" + "|".join(sorted((re.escape(w) for w in OTHER_PERSON_KO if len(w) >= 2 and w not in ("너는", "니가", "네가")),
                            key=len, reverse=True)) + r")(?:의|는|은|이|가)?\s*\S{0,4}\s*$"
    r"|[가-힣]{1,4}\s*(?:님|씨)(?:의|는|은|이|가)?\s*\S{0,4}\s*$"  # "민재 님은 뭐 하는 사람이야?"
    r"|\b(?:your|ur)\s+(?:sister|brother|mom|mother|dad|father|wife|husband|son|daughter|kid|kids|friend|partner|"
    r"boyfriend|girlfriend|dog|cat|pet|baby)(?:'s)?\s+\S*\s*$|\b(?:his|her|their)\s+\S*\s*$", re.I)


# "how old are they?", "what does he do?": a question about someone else, whatever its cue
_THIRD_PERSON_Q = re.compile(r"\b(?:how\s+old|what|where|when|who)\s+(?:are|is|was|were|do|does|did)\s+(?:they|he|she|it)\b",
                             re.I)
_FIRST_PERSON_ANY = re.compile(r"(?<![가-힣])(?:나|난|내|내가|나는|저|전|제|제가|저는|나도|저도|우리)(?![가-힣])|\b(?:i|i'm|im|my|me|mine)\b",
                               re.I)


def _cue_matches(assistant_text: str, last: int):
    """(subject, sentence, match) of each subject's question cue (its registry row) in the turn's last `last`
    question sentences, the latest first."""
    korean = bool(re.search(r"[가-힣]", assistant_text))
    table = QUESTION_CUES["ko" if korean else "en"]
    for sentence in reversed(question_sentences(assistant_text)[-last:]):
        for subject, pattern in table:
            match = re.search(pattern, sentence, re.I)
            if match:
                yield subject, sentence, match


def question_about_someone_else(sentence: str, match: re.Match) -> bool:
    """"따님 이름이 뭐예요?", "민재 님은 뭐 하는 사람이야?", "how old are they?": a question about someone else."""
    return bool(_ABOUT_OTHER.search(sentence[:match.start()]) or _THIRD_PERSON_Q.search(sentence))


def asked_about_someone_else(assistant_text: str, user_text: str) -> bool:
    """Whether the character's last question asked about someone else ("민재 님은 뭐 하는 사람이야?", "what does your
    sister do?") and the reply, saying nothing of the user ("은행원! 여의도에서 일해"), answers for them."""
    if not assistant_text or _FIRST_PERSON_ANY.search(user_text or ""):
        return False
    return any(question_about_someone_else(sentence, match) for _, sentence, match in _cue_matches(assistant_text, 1))


def asked_subject(assistant_text: str) -> str:
    """Return the subject the assistant asked about last, or ''."""
    if not assistant_text:
        return ""
    for subject, sentence, match in _cue_matches(assistant_text, 2):
        if not question_about_someone_else(sentence, match) \
                and not (subject == "name" and _NAME_OF_A_THING.search(sentence[:match.start()])):
            return subject
    return ""


# "동아리 이름 뭐야?", "강아지 이름은?": the name of something else, not the user's (a word other than "너" before it).
_NAME_OF_A_THING = re.compile(r"(?<![가-힣])(?!(?:너|니|네|당신|그쪽|님|혹시|그럼|근데|그래서|아|오|본명|진짜|실제|풀네임|한국|영어|"
                              r"원래|내가|제가|그|참)(?:의)?\s*$)[가-힣]{1,8}(?:의)?\s*$")


def _first_clause_ko(text: str) -> str:
    parts = clauses(text)
    return _KO_FILLERS.sub("", parts[0]).strip() if parts else ""


def _mentioned_sport(first: str, korean: bool) -> str:
    """"필라테스 주 2회!" and "rec volleyball on tuesday nights" answer "운동 뭐 해?" / "Any sport?"."""
    words = SPORTS_KO if korean else SPORTS_EN
    for word in sorted(words, key=len, reverse=True):
        boundary = r"(?<![가-힣])" if korean else r"\b"
        if re.search(boundary + re.escape(word) + (r"" if korean else r"\b"), first, 0 if korean else re.I):
            return word
    return ""


def _typed_ok(subject: str, value: str, korean: bool) -> bool:
    if subject == "favorite_color":
        return is_color_ko(value) if korean else bool(in_list(value, COLORS_EN))
    if subject == "favorite_season":
        return value in SEASONS_KO if korean else value.lower() in SEASONS_EN
    if subject == "occupation":
        return is_occupation_ko(value) or value in OCCUPATIONS_KO if korean else is_occupation_en(value)
    if subject == "sport":
        return bool(in_list(value, SPORTS_KO if korean else SPORTS_EN))
    return True


def first_clause(user_text: str, korean: bool) -> str:
    """Return the start of the user's message, where a short answer is ("학생! 컴공 4학년이야" → "학생")."""
    if korean:
        return _first_clause_ko(user_text)
    return re.split(r"[.,!?;\n]", _EN_FILLERS.sub("", user_text.strip()))[0].strip()


def _dating_answer(user_text: str, question: str, korean: bool) -> Candidate | None:
    """"아뇨 ㅠㅠ" to "여자친구 있어?" is "여자친구 없음"; "nope, single" to "seeing anyone?" is "single"."""
    if not korean:
        match = _EN_DATING.search(user_text)
        return Candidate("dating_status", match.group(1).lower()) if match else None
    partner = _KO_PARTNER.search(question)
    answer = re.match(r"\s*(?:(?:아니|아뇨|아니요|없|ㄴㄴ|노노)|(?P<yes>응|어|네|넵|ㅇㅇ|있))", user_text)
    if not partner or not answer:
        return None
    return Candidate("dating_status", f"{partner.group(0)} {'있음' if answer.group('yes') else '없음'}")


def _numeric_answer(subject: str, first: str, korean: bool) -> Candidate | None:
    if subject == "height":
        match = re.search(r"(?<![\d.])(1\d{2}|2[0-2]\d)(?:\.\d)?\s*(cm|센치|센티)?", first) if korean \
            else _EN_HEIGHT.search(first)
        return Candidate("height", match.group(0).replace(" ", "") if korean else match.group(0)) if match else None
    if subject == "age":
        if korean and not re.search(r"\d", first):
            native = _NATIVE_AGE.match(first)
            return Candidate("age", native.group(0).strip()) if native else None
        words = english_number(first.split()[0]) if not korean and first.split() else 0
        match = re.search(r"(?<![\d.])(\d{1,2})(?![\d.])", first)
        number = int(match.group(1)) if match else words
        if not 5 <= number <= 99:
            return None
        return Candidate("age", f"{number}살" if korean else str(number))
    if subject == "weight":
        match = re.search(r"(?<![\d.])(\d{2,3})\s*(kg|키로|킬로|lbs?|pounds?)?", first)
        return Candidate("weight", match.group(0).strip()) if match else None
    if subject == "birthday":
        mentions = find_month_days(first, numeric=True)
        if mentions:
            return Candidate("birthday", first[mentions[0].start:mentions[0].end])
        holidays = find_holidays(first)
        if holidays and re.fullmatch(r"\s*(?:the\s+|on\s+)?", first[:holidays[0][0].start], re.I) and re.fullmatch(
                r"\s*(?:(?:이|가)?(?:야|이야|이요|요|임|이에요|예요|에요|입니다|이라서|라서|이거든|거든)?|day|lol|haha|!)*"
                r"[\s!.~ㅋㅎ]*", first[holidays[0][0].end:], re.I):
            when, name = holidays[0]  # "한글날이야" answers; "어린이날 생일 개이득이네" comments
            return Candidate("birthday", f"{format_month_day(when.month, when.day, korean)} ({name})")
        return None
    if subject == "blood_type":
        hangul = re.match(r"(에이비|에이|비|오)\s*형", first)
        if hangul:
            return Candidate("blood_type", {"에이비": "AB", "에이": "A", "비": "B", "오": "O"}[hangul.group(1)] + "형")
        match = re.search(r"(?<![A-Za-z])(AB|A|B|O)(?![A-Za-z])", first, re.I)
        if not match:
            return None
        return Candidate("blood_type", f"{match.group(1).upper()}형" if korean else match.group(1).upper())
    if subject == "mbti":
        match = re.search(r"(?<![A-Za-z])([EI][NS][TF][JP])(?![A-Za-z])", first, re.I)
        return Candidate("mbti", match.group(1).upper()) if match else None
    return None


_HOUSING_WORD = re.compile(r"\s+(?:원룸|투룸|쓰리룸|오피스텔|아파트|빌라|기숙사|고시원|셰어하우스|쉐어하우스|자취방|주택|옥탑방|반지하|근처|쪽)$")
_EN_SIBLING_WORD = re.compile(r"\b(brothers?|sisters?|siblings?)\b", re.I)
_EN_ANIMAL_WORD = re.compile(r"\b(dog|cat|puppy|kitten|bird|parrot|hamster|rabbit|bunny|turtle|fish|lizard|snake)\b",
                             re.I)


def _english_household_answer(subject: str, user_text: str, question: str) -> Candidate | None:
    """"Waffles. pembroke welsh corgi" to "what's their name?"; "two, both older. Sean and Patrick"."""
    listed = re.search(r"\b([A-Z][a-z]+)(?:,\s*([A-Z][a-z]+))*,?\s+and\s+([A-Z][a-z]+)\b", user_text)
    names = [n for n in re.findall(r"[A-Z][a-z]+", listed.group(0))] if listed else []  # "Sean and Patrick"
    if subject == "pet":
        first_word = re.match(r"\s*([A-Z][\w'-]+)[.!,]", user_text)
        kind = _EN_ANIMAL_WORD.search(question) or _EN_ANIMAL_WORD.search(user_text)
        breed = re.search(r"\b(" + "|".join(sorted(BREEDS_EN, key=len, reverse=True)) + r")\b", user_text, re.I)
        parts = [kind.group(1).lower() if kind else "", first_word.group(1) if first_word else ""]
        value = " ".join(p for p in parts if p)
        if breed:
            value = f"{value} ({breed.group(1)})" if value else breed.group(1)
        return Candidate("pet", value) if first_word or breed else None
    kind = _EN_SIBLING_WORD.search(question)
    count = re.match(r"\s*(\d|one|two|three|four|five|a|an)\b", user_text, re.I)
    if not kind or not count:
        return None
    older = re.search(r"\b(older|younger|twins?)\b", user_text, re.I)
    value = " ".join(p for p in (count.group(1), older.group(1) if older else "", kind.group(1).lower()) if p)
    return Candidate("sibling", value + (f" ({', '.join(names)})" if names else ""))


_INTRODUCES_SELF = re.compile(r"\s*(?:난|나는|저는|전|저|i'?m|i\s+am|my\s+name'?s|my\s+name\s+is)\s+", re.I)
_CALL_ME = re.compile(r"불러|부르|call\s+me|호칭", re.I)


# What opens a reply that is no name ("guess what. we're adopting a puppy" to "who are you?").
_NOT_NAME_EN = re.compile(r"(?:guess|what|omg|wait|bruh|dude|nah|nope|hey|hi|well|so|oh|idk|lol|lmao|haha|ok|okay"
                          r"|yes|no|yeah|sure|maybe|nobody|someone|me|just|not)\b", re.I)


def bare_answer(subject: str, user_text: str, korean: bool, question: str = "") -> Candidate | None:
    """Return the user's short answer to `subject` ("178!" → height 178), or None."""
    first = first_clause(user_text, korean)
    if subject == "dating_status":
        return _dating_answer(user_text, question, korean)
    if not first or first.endswith("?"):
        return None
    numeric = _numeric_answer(subject, first, korean)
    if numeric or subject in {"height", "age", "weight", "birthday", "blood_type", "mbti"}:
        return numeric
    if subject == "sport" and _mentioned_sport(first, korean):
        return Candidate("sport", _mentioned_sport(first, korean))
    if not korean and subject in {"pet", "sibling"}:
        return _english_household_answer(subject, user_text, question)
    if len(first.split()) > 5:
        return None  # a sentence, not an answer
    if subject == "nickname" and _INTRODUCES_SELF.match(user_text) and not _CALL_ME.search(user_text):
        subject = "name"  # "뭐라고 불러드릴까요?" → "난 한지우! 스물하나고 …": an introduction gives the name
        first = _INTRODUCES_SELF.sub("", first, count=1)
    if subject in {"name", "nickname"}:
        value = name_at(first, 0) if korean else re.split(r"\s+(?:is|lol|haha|please|pls)\b|,", first)[0].strip(" '\"")
        if not value or (not korean and (value.lower() in STOP_VALUES_EN or len(value.split()) > 3
                                         or _NOT_NAME_EN.match(value))):
            return None
        return Candidate(subject, value, request=subject == "nickname") if valid_value(value, max_len=20) else None
    if subject in {"pet", "family", "sibling", "smoking", "handedness"}:
        return None  # yes/no questions: a bare "응" or "no" is not a value
    if re.match(r"(?:없|아니|아뇨|아니요|글쎄|몰라|비밀|no\b|nope|nothing|none|not really)", first, re.I):
        return None
    return _noun_answer(subject, first, korean)


def _noun_answer(subject: str, first: str, korean: bool) -> Candidate | None:
    """"학생!" to "학생이야?", "Chicago" to "where do you live?", "가게 차리는 거" to "꿈이 뭐야?"."""
    if korean and subject in {"dream_job", "hobby"}:
        act = _KO_ACT.match(first)
        if act:
            return Candidate("goal" if subject == "dream_job" else "hobby", f"{act.group('act')} 것",
                             label="꿈" if subject == "dream_job" else "")
    if korean:
        value = noun_phrase_after(first, 0, max_words=3)
        if subject == "dream_job" and value and not is_occupation_ko(value):
            return Candidate("goal", value, label="꿈") if valid_value(value) else None
    else:
        value = re.sub(r"^(?:(?:originally|born|raised)\s+)?(?:from|in)\s+", "", first, flags=re.I)
        value = re.sub(r"^(?:a|an|the|my)\s+", "", value, flags=re.I).strip(" !.,")
        for _ in range(2):
            value = _EN_TRAILING.sub("", value).strip(" !.,")
    if not value or not valid_value(value) or (not korean and value.lower() in STOP_VALUES_EN):
        return None
    if not _typed_ok(subject, value, korean):
        return None
    if subject == "residence" and korean and len(value.split()) > 1 and _HOUSING_WORD.search(value):
        value = _HOUSING_WORD.sub("", value).strip()  # "연남동 투룸" lives in 연남동, in a two-room flat
    return Candidate(subject, value)


# A fact split over two messages: "i'm allergic to" / "shellfish", "내 이름은…" / "서연".
_DANGLING = (
    ("allergy", re.compile(r"\b(?:i'?m|i\s+am|im)\s+(?:\w+\s+)?allergic\s+to[\s.…~-]*$|\bmy\s+allerg(?:y|ies)\s+(?:is|are)"
                           r"[\s.…~-]*$|^(?:(?:나|저|난|전|사실|근데|아|참)\s*)*(?:알레르기|알러지)\s*(?:가|는)?\s*(?:좀\s*)?"
                           r"(?:있는데|있거든|있어|있음)?[\s.…~,]*$", re.I)),
    ("name", re.compile(r"\bmy\s+name\s+is[\s.…~-]*$|(?:내|제)\s*이름은[\s.…~,]*$", re.I)),
    ("residence", re.compile(r"\bi\s+(?:now\s+)?live\s+in[\s.…~-]*$|\bwe\s+(?:just\s+)?moved\s+to[\s.…~-]*$", re.I)),
    ("hometown", re.compile(r"\bi'?m\s+(?:originally\s+)?from[\s.…~-]*$|(?:내|제)\s*고향은[\s.…~,]*$", re.I)),
    ("occupation", re.compile(r"\bi\s+work\s+as\s+(?:an?\s+)?[\s.…~-]*$|(?:내|제)\s*직업은[\s.…~,]*$", re.I)),
    ("birthday", re.compile(r"\bmy\s+(?:birthday|bday)\s+is[\s.…~-]*$|(?:내|제)\s*생일은[\s.…~,]*$", re.I)),
)


def dangling_subject(previous_user_text: str) -> str:
    """Return the subject the user's previous message began and did not finish, or ''."""
    text = (previous_user_text or "").strip()
    if not text or len(text) > 200:
        return ""
    for subject, pattern in _DANGLING:
        if pattern.search(text):
            return subject
    return ""
