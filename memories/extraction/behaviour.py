"""Behaviour rules the user sets for the character ("전 여친 얘기는 꺼내지 마", "don't bring up my ex").

They go to `avoid_topics`, never to personal facts (seed 003 §16 P2: behaviour and personal facts
are kept apart).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from .corrections import mentions_any
from .lexicon import ANIMALS_EN, ANIMALS_KO
from .morphology import analyse, content_nouns, noun_phrase_before

_KO_TALK = r"(?:얘긴|이야긴|얘기|이야기|애기|예기|말|언급|소리|질문|드립|농담|떡밥)"
# Adverbs and the addressee between the talk word and its verb ("콩이 얘기는 너가 먼저 꺼내지 말아줘").
_KO_ADVERBS = (r"(?:(?:절대|절대로|제발|앞으로도|앞으로는|앞으론|앞으로|다시는|다신|다시|더는|더\s*이상|두\s*번\s*다시|좀|이제|함부로|굳이"
               r"|그냥|먼저|너가|니가|네가|너는|넌|자꾸|일부러|괜히|막|당분간|한동안|당장은|지금은|아직은)\s*)*")
# What a topic is talked about with, between it and the talk word ("내 키 가지고 농담하지마", "몸무게에 대해서 묻지 마").
_KO_ABOUT = re.compile(r"\s*(?:(?:을|를)?\s*(?:가지고|갖고|가꼬|두고|놓고)|에?\s*대(?:해서?|한)|관련(?:된|해서|한)?)\s*$")
# Who is asked, between the talk word and its verb ("언니 얘기는 미나씨가 먼저 꺼내지 말아줘요"): never the topic.
_KO_ADDRESSEE = r"(?:[가-힣A-Za-z]{1,8}(?:\s?(?:씨|님|쌤))?(?:가|이|께서)\s+)?"
_KO_DONT = (r"(?:지\s*(?:마|말아|말라|말았으면|말아줘|말아\s*줘|말아주|마세요|말아요|마라|말기를|말자)"
            r"|지\s*않았으면|지\s*말아\s*주세요)")
_KO_RULES = (
    # "<topic> 얘기는 (절대) 하지/꺼내지 마", "<topic> 얘기 금지", "<topic> 얘기는 안 했으면 좋겠어"
    re.compile(rf"(?P<talk>{_KO_TALK})\s*(?:은|는|를|을|도|좀)?\s*{_KO_ADVERBS}{_KO_ADDRESSEE}{_KO_ADVERBS}"
               rf"(?:(?:하|꺼내|꺼|묻|물어보|언급하|건드리|치)\s*{_KO_DONT}|그만\s*(?:해|하라|해줘|했으면|하자)"
               rf"|안\s*(?:했으면|꺼냈으면|하면\s*좋겠)|금지|사절|노노|ㄴㄴ|(?:하기|듣기)\s*싫)"),
    # "<topic>은 (내가 먼저 말하기 전엔) 안 꺼내줬으면 좋겠어"
    re.compile(r"(?P<talk>)(?:은|는)\s+(?:[^.!?\n]{0,24}?\s)?안\s*(?:꺼내|말하|물어보|언급하|건드리)\s*(?:줬|주었|주셨|줘|냈|었|였|셨)?"
               r"(?:으면|면)"),
    # "<topic>은 말하지 마", "<topic>에 대해 묻지 마"
    re.compile(rf"(?P<talk>)(?:은|는|을|를|이|가|에\s*대해서?는?|에\s*대한\s*건)?\s*{_KO_ADVERBS}"
               rf"(?:말하|언급하|묻|물어보|꺼내|건드리|들먹이)\s*{_KO_DONT}"),
)
_GENERIC_KO = frozenset({"사람", "일", "거", "것", "얘기", "이야기", "부분"})
_ADVERB_NOUNS_KO = frozenset({"앞", "뒤", "이제", "다음", "나중", "평생", "계속", "자꾸", "맨날", "항상", "다시", "또", "절대",
                              "제발", "진짜", "너무", "그냥", "괜히", "막", "함부로", "먼저", "오늘", "요즘"})
_PRONOUNS_KO = frozenset({"그", "이", "저", "그거", "이거", "저거", "그것", "이것", "그런", "이런"})

_EN_RULES = (
    # "don't bring up X", "can you not mention X" (a request put as a question), "never talk about X"
    re.compile(r"\b(?:please\s+)?(?:don'?t|do\s+not|never|stop|quit|no\s+more|(?:can|could|would|will)\s+you\s+(?:please\s+)?not)"
               r"\s+(?:ever\s+)?(?:be\s+)?"
               r"(?:bring(?:ing)?\s+up|mention(?:ing)?|talk(?:ing)?\s+about|ask(?:ing)?\s+(?:me\s+)?about|"
               r"jok(?:e|ing)\s+about|bring(?:ing)?\s+(?:up\s+)?the\s+topic\s+of)\s+(?P<topic>[^.!?,;\n]+)", re.I),
    re.compile(r"\b(?:please\s+)?(?:don'?t|do\s+not|never)\s+(?:ever\s+)?bring\s+(?P<topic>[^.!?,;\n]+?)\s+up\b", re.I),
    re.compile(r"\blet'?s\s+(?:not|never)\s+talk\s+about\s+(?P<topic>[^.!?,;\n]+)", re.I),
    # "please don't say his name for a while"
    re.compile(r"\b(?:please\s+)?(?:don'?t|do\s+not|never)\s+(?:ever\s+)?(?:say|use|mention)\s+(?P<topic>his|her|their)\s+"
               r"(?:real\s+)?name\b", re.I),
    re.compile(r"\b(?:i'?d|i\s+would)\s+rather\s+(?:not|never)\s+(?:get\s+into|talk\s+about|discuss|go\s+into)\s+"
               r"(?P<topic>[^.!?,;\n]+)", re.I),
    # "if Keith's name ever comes up, just don't"
    re.compile(r"\bif\s+(?P<topic>[A-Z][\w'-]+?)(?:'s\s+name)?\s+(?:ever\s+)?comes\s+up\s*,?\s*(?:just\s+)?"
               r"(?:don'?t|leave\s+it|change\s+the\s+subject)\b"),
    re.compile(r"\bi\s+(?:don'?t|do\s+not|never)\s+want\s+to\s+(?:talk|hear)\s+about\s+(?P<topic>[^.!?,;\n]+)", re.I),
    re.compile(r"\bavoid\s+(?:talking\s+about\s+|the\s+topic\s+of\s+|mentioning\s+)?(?P<topic>[^.!?,;\n]+)", re.I),
    re.compile(r"(?P<topic>[A-Za-z][^.!?,;\n]{1,40}?)\s+(?:is|are)\s+off[- ]limits\b", re.I),
)
_EN_TRAILING = re.compile(r"\s+(?:again|ever|anymore|any\s+more|please|with\s+me|around\s+me|ok|okay|unless|until|"
                          r"in\s+the\s+future|from\s+now\s+on|at\s+all|either|too|lol|haha|thanks|"
                          r"even\s+in\s+roleplay|in\s+roleplay)\b.*$", re.I)
_EN_PRONOUNS = frozenset({"it", "that", "this", "them", "him", "her", "those", "these", "stuff", "things"})


def _verbal_noun_before(text: str, end: int) -> str:
    """The act of a clause right before `end` ("재수했던 얘기" → 재수, "이혼하신 거" → 이혼)."""
    morphs = [m for m in analyse(text[:end].rstrip()) if m.end <= end]
    for index in range(len(morphs) - 1, 0, -1):
        if morphs[index].tag == "XSV" and morphs[index - 1].tag == "NNG" and len(morphs[index - 1].form) >= 2:
            if text[morphs[index].end:end].strip() and not re.fullmatch(r"[가-힣]{0,4}", text[morphs[index].end:end].strip()):
                return ""
            return morphs[index - 1].form
    return ""


def _korean_topic(text: str, end: int) -> str:
    about = _KO_ABOUT.search(text[:end])
    if about:
        end = about.start()
    topic = re.sub(rf"\s*{_KO_TALK}$", "", noun_phrase_before(text, end, max_words=3)).strip()
    if not topic:
        return _verbal_noun_before(text, end)
    if topic in _GENERIC_KO:
        # "그 사람 얘기" keeps its determiner: "사람" alone would be a different rule.
        words = text[:text.rfind(topic, 0, end)].split()
        if words:
            topic = f"{words[-1]} {topic}"
    if topic in _PRONOUNS_KO or topic in _ADVERB_NOUNS_KO:
        return ""  # "앞으로도 ..." names no topic
    if re.fullmatch(r"[가-힣]", topic) and re.match(rf"{topic}이\s*$", text[text.rfind(topic, 0, end):end]):
        return f"{topic}이"  # "콩이 얘기": no subject particle comes before a talk word, the 이 is the name's
    return topic


# A rule that points back ("걔 얘기 꺼내지 마", "그 단어는 꺼내지 말아줘", "don't ask about him") names its topic in what
# the user just said: a person for PERSON pronouns, else the thing talked about.
_KO_PERSON_POINTER = re.compile(r"(?:^|\s)(?:걔|개|얘|그\s*(?:사람|새끼|애|놈|인간|분|녀석|자식))\s*$")
_KO_THING_POINTER = re.compile(r"(?:^|\s)(?:그런|그|이런|저런|그거|그것|이거|그\s*(?:단어|말|일|주제|거|것|얘기|이야기))\s*$")
_EN_PERSON_POINTERS = frozenset({"him", "her", "them", "his", "their", "that guy", "that girl", "that person"})
# People a pointed-back rule is usually about, first found wins: data, in both languages.
RELATION_WORDS = ("전남친", "전여친", "전 남친", "전 여친", "전남자친구", "전여자친구", "전 애인", "전애인", "남친", "여친", "애인",
                  "남편", "아내", "시어머니", "시댁", "처가", "장모", "아빠", "엄마", "아버지", "어머니", "형", "오빠", "누나", "언니",
                  "동생", "할머니", "할아버지", "팀장", "부장", "상사", "사장")
# A name's ending in a Korean sentence: at most one more syllable ("도현이", "도현아"), or a particle after it ("수빈이랑",
# "지호한테"), then no more Hangul.
_NAME_ENDS_KO = r"(?:(?![가-힣]{2})|(?=이?(?:랑|하고|한테|에게|는|은|가|를|을|도|의|와|과)(?![가-힣])))"
# Partners, who are people a rule may point back to though they are no relatives of the rule lists.
_PARTNER_WORDS_EN = ("boyfriend", "girlfriend", "partner", "husband", "wife", "fiancé", "fiance", "fiancée")
RELATION_WORDS_EN = ("ex", "ex-boyfriend", "ex-girlfriend", "ex-husband", "ex-wife", "brother", "sister", "dad", "father",
                     "mom", "mother", "stepdad", "stepmom", "boss", "cousin", "uncle", "aunt", "grandma", "grandpa")
# Where a message names the thing talked about: before a talk word ("구조조정 명단 얘기가") or a quote ("다이어트 하라고").
_KO_TALKED_ABOUT = re.compile(r"\s*(?:얘기|이야기|소문|소리|명단|문제)|\s*(?:하라고|하래|하라는|라고|이라고)")
_SECRET_TO_KEEP = re.compile(r"(?:한테|에게|께|보고|더러)(?:는|ㄴ)?\s*$|(?:한텐|에겐)\s*$")


def person_in(text: str, korean: bool) -> str:
    """The first relative a message names ("누나", "my older sister"), or ''."""
    if korean:
        found = [(text.find(word), word) for word in RELATION_WORDS if word in text]
        return min(found)[1] if found else ""
    for word in RELATION_WORDS_EN:
        match = re.search(rf"\bmy\s+(?:older\s+|younger\s+|big\s+|little\s+)?{re.escape(word)}(?![\w-])", text, re.I)
        if match:
            return match.group(0)
    return ""


def _thing_in(text: str) -> str:
    for match in reversed(list(_KO_TALKED_ABOUT.finditer(text))):
        topic = _korean_topic(text, match.start())
        if topic and not _KO_THING_POINTER.search(topic) and not _KO_PERSON_POINTER.search(topic):
            return topic
    # "엄마 아빠 작년에 이혼하셨어. 그 일은 …": what happened, the last act told
    acts = [m.form for m in _acts(text)]
    return acts[-1] if acts else ""


def _last_thing_in(text: str) -> str:
    """What a rule pointing back means when no talk word or act names it ("어머니가 … 하동 솔바람요양원에 계셨는데..
    거기 모신게 평생 한이에요. 그 얘기는 꺼내지 말아줘요", "9급 공시 2년 했었어 … 그 얘기는 꺼내지 마"): the last thing the
    sentences before name, as the word it stands in."""
    for sentence in reversed(re.split(r"[.!?\n…]+", text)):
        sentence = _VOCATIVE_WORD.sub(" ", sentence)  # "미나씨 그 얘기는", "소라 씨도 그 단어는"
        nouns = [n for n in content_nouns(sentence) if len(n) >= 2 and n not in _ADVERB_NOUNS_KO
                 and n not in _GENERIC_KO and n not in RELATION_WORDS]
        if nouns:
            noun = nouns[-1]
            word = next((w for w in reversed(sentence.split()) if noun in w), noun)
            # with the Hangul joined to its front in the same word: "솔바람요양원" for "요양원"
            return re.search(r"[가-힣]*$", word[:word.find(noun)]).group(0) + noun
    return ""


# The one spoken to, before a rule ("미나씨 그 얘기는", "소라 씨도 그 단어는", "유나야 그 얘기"): never the topic.
_VOCATIVE_WORD = re.compile(r"(?<![가-힣])[가-힣]{1,4}\s?(?:씨|님|쌤)(?:도|는|가)?(?![가-힣])"
                            r"|(?<![가-힣])[가-힣]{1,3}(?:아|야)(?=\s|$)")


def _acts(text: str):
    morphs = analyse(text)
    return [morphs[i - 1] for i in range(1, len(morphs))
            if morphs[i].tag == "XSV" and morphs[i - 1].tag == "NNG" and len(morphs[i - 1].form) >= 2]


# Someone the user introduces by who they are and their name ("I have a sister, Bernadette", "Dana has a new boyfriend,
# Kyle", "my ex Ryan"): the person a rule pointing back with "him" / "her" means when no relative of the user's is named.
_INTRODUCED_EN = re.compile(
    r"\b(?:a|an|my|her|his|their)\s+(?:new\s+|older\s+|younger\s+|big\s+|little\s+|late\s+)?(?P<relation>"
    + "|".join(re.escape(word) for word in sorted(RELATION_WORDS_EN + _PARTNER_WORDS_EN, key=len, reverse=True))
    + r")(?![\w-]),?\s+(?P<name>[A-Z][a-z]+)\b")


def _introduced_person(text: str) -> str:
    """The last person `text` introduces by relation and name, written "relation (name)" as rules keep people, or ''."""
    found = list(_INTRODUCED_EN.finditer(text))
    return f"{found[-1].group('relation')} ({found[-1].group('name')})" if found else ""


def _pointed_topic(before: str, earlier: list[str], korean: bool, person: bool) -> str:
    """The topic a pointing rule means: in the same message before the rule, then in the user's earlier messages."""
    sources = [before] + list(reversed(earlier))
    for source in sources:
        topic = (person_in(source, korean) or ("" if korean else _introduced_person(source))) if person \
            else (_thing_in(source) if korean else "")
        if topic:
            return topic
    if korean and not person:
        for source in sources:
            if topic := _last_thing_in(source):
                return topic
    return ""


_RELATION_KO = "|".join(re.escape(word) for word in sorted(RELATION_WORDS, key=len, reverse=True))
_RELATION_EN = "|".join(re.escape(word) for word in sorted(RELATION_WORDS_EN, key=len, reverse=True))
# Who a name may be to the user besides a person: a pet ("우리 강아지 콩이", "my dog Biscuit").
_KIN_OR_PET_KO = "|".join(re.escape(word) for word in sorted(RELATION_WORDS + tuple(a for a in ANIMALS_KO if len(a) >= 2),
                                                          key=len, reverse=True))
_KIN_OR_PET_EN = "|".join(re.escape(word) for word in sorted(RELATION_WORDS_EN + ANIMALS_EN, key=len, reverse=True))
# A name the user broke up with ("Theo and I broke up on sunday", "broke up with Jake"): an ex, however they were called.
_BROKE_UP_EN = re.compile(r"\b(?P<a>[A-Z][a-z]+)\s+and\s+[Ii]\s+(?:just\s+|finally\s+)?"
                          r"(?:broke\s+up|split\s+up|split|separated)\b|\bbroke\s+up\s+with\s+(?P<b>[A-Z][a-z]+)\b|\b(?P<c>[A-Z][a-z]+)\s+(?:dumped|left)\s+me\b")
# A rule's own message saying the user and a person are over, about him or her ("we're done done and i dont wanna think
# abt him"): the single name the rule gives is an ex. Matched at the message's start only (two lookaheads over it).
_ENDED_WITH_EN = re.compile(r"(?=.*\b(?:him|her)\b)(?=.*(?:\bwe'?re\s+(?:so\s+)?(?:done|over|finished)\b|\bit'?s\s+over\b"
                            r"|\bbroke\s+up\b|\bsplit\s+up\b|\bdumped\s+me\b))", re.I | re.S)
# What the user asks the person to be called instead ("just call him 'the ex'").
_CALL_INSTEAD_EN = re.compile(r"\bcall\s+(?:him|her|them)\s+['\"‘“]?(?P<alias>[\w' -]{2,20}?)['\"’”]?(?:\s*[.!,;]|$)", re.I)
_MY_EN = r"\bmy\s+(?:older\s+|younger\s+|big\s+|little\s+|late\s+)?"
# A person kept out under who they are to the user ("전 남친 (도현)", "my brother (Seán)"): the block names the relation.
_RELATION_NAME = re.compile(r"^(?P<relation>\S.*?)\s*\((?P<name>[^()]+)\)$")
# A name talked about right before a rule about a relation ("걔가 자꾸 Stephanie 얘기 꺼내서 … 전 여친 얘기는 꺼내지 마").
_NAME_TALKED_ABOUT = re.compile(r"(?<![\w])(?P<name>[A-Z][a-z]+)(?:이|가|의)?\s*(?:얘기|이야기)")


def relation_and_name(topic: str) -> tuple[str, str] | None:
    """(relation, name) of a topic that names a person by both, as `_with_relation` writes it ("전 남친 (도현)",
    "My brother (Seán)"), else None."""
    named = _RELATION_NAME.match(topic)
    return (named.group("relation"), named.group("name")) if named else None


def _with_relation(topic: str, sources: list[str], korean: bool) -> str:
    """`topic` with who the person is to the user when it is a name the user gave with a relation ("도현이" after
    "전 남친 도현이 결혼한대" → "전 남친 (도현)"; "Seán" after "My brother Seán" → "My brother (Seán)"), or a relation
    with the name the same message talks about ("전 여친" → "전 여친 (Stephanie)"); else `topic`."""
    if korean:
        if re.fullmatch(rf"(?:{_RELATION_KO})", topic):
            name = _NAME_TALKED_ABOUT.search(sources[0]) if sources else None
            return f"{topic} ({name.group('name')})" if name else topic
        stem = topic[:-1] if len(topic) >= 3 and topic.endswith("이") else topic
        if not re.fullmatch(r"[가-힣]{2,3}|[A-Z][a-z]+", stem):
            return topic
        for source in sources:
            found = re.search(rf"(?P<relation>{_KIN_OR_PET_KO})\s*(?:인\s*)?{re.escape(stem)}{_NAME_ENDS_KO}", source)
            if found:
                return f"{found.group('relation')} ({stem})"
        return topic
    if _ENDED_WITH_EN.match(sources[0] if sources else "") and re.fullmatch(r"[A-Za-zÀ-ÿ][\w'-]+", topic) \
            and topic.casefold() not in _EN_PRONOUNS and not re.search(rf"(?:{_RELATION_EN})$", topic, re.I):
        # "pls dont bring up ryan again … i mentioned him … we're done done": the person the rule names is an ex
        return f"the ex ({topic})"
    if not re.fullmatch(r"[A-ZÀ-Ý][\w'-]+", topic):
        return topic
    name = re.escape(topic)
    for source in sources:
        found = re.search(rf"(?P<relation>{_MY_EN}(?:{_KIN_OR_PET_EN}))(?![\w-])\s*,?\s+{name}\b", source, re.I) \
            or re.search(rf"\b{name}\s*,\s*(?P<relation>{_MY_EN}(?:{_RELATION_EN}))(?![\w-])", source, re.I) \
            or re.search(rf"\b{name}\b(?:[^.!?\n]{{0,60}}[.!?]\s+){{1,2}}?(?:(?:he|she)(?:'s|\s+is|\s+was)\s+)?"
                         rf"(?P<relation>{_MY_EN}(?:{_RELATION_EN}))(?![\w-])", source, re.I)
        if found:
            return f"{found.group('relation')} ({topic})"
    return topic


def _ex_named(text: str, earlier: list[str]) -> str:
    """The person a pointed rule means when no relation is named: the one the user last told of breaking up with, as
    the name the user asks for instead, or "the ex" ("Theo and I broke up" … "don't say his name … just call him 'the
    ex'" → "the ex (Theo)")."""
    for source in [text] + list(reversed(earlier)):
        broke = _BROKE_UP_EN.search(source)
        if broke:
            alias = _CALL_INSTEAD_EN.search(text)
            name = broke.group("a") or broke.group("b") or broke.group("c")
            return f"{alias.group('alias').strip() if alias else 'the ex'} ({name})"
    return ""


def avoid_topics(text: str, korean: bool, earlier: list[str] = ()) -> list[str]:
    """Return the topics the user asked the character never to bring up; `earlier`: the user's last messages
    before this one, oldest first, where a rule that points back ("걔 얘기 꺼내지 마") finds its topic."""
    topics: list[str] = []

    sources = [text] + list(reversed(earlier))

    def add(topic: str) -> None:
        topic = _with_relation(topic, sources, korean) if topic else topic
        if not topic:
            return
        folded = topic.casefold()
        for index, known in enumerate(topics):
            known = known.casefold()
            if known.endswith(folded) or folded.endswith(known) or known.startswith(folded):
                return
            if folded.startswith(known):  # "My brother" then "My brother Seán": the one that says more
                topics[index] = topic
                return
        topics.append(topic)
    if korean:
        taken: list[tuple[int, int]] = []  # a verb a rule already read is not read again by a looser one
        for rule in _KO_RULES:
            for match in rule.finditer(text):
                if any(start < match.end() and match.start() < stop for start, stop in taken):
                    continue
                taken.append(match.span())
                end = match.start("talk") if match.group("talk") else match.start()
                if _SECRET_TO_KEEP.search(text[:end]):
                    continue  # "엄마한테 말하지 마", "유나한텐 말하지마": a secret to keep, not a topic to avoid
                person, thing = _KO_PERSON_POINTER.search(text[:end]), _KO_THING_POINTER.search(text[:end])
                if person or thing:
                    pointer = (person or thing).start()
                    add(_pointed_topic(text[:pointer], list(earlier), korean, person=bool(person)))
                    continue
                add(_korean_topic(text, end))
        return topics
    for rule in _EN_RULES:
        for match in rule.finditer(text):
            topic = _EN_TRAILING.sub("", match.group("topic")).strip(" '\"")
            topic = re.sub(r"^(?:the\s+topic\s+of|anything\s+about|about)\s+", "", topic, flags=re.I)
            words = topic.split()
            if topic.lower() in _EN_PERSON_POINTERS:
                add(_pointed_topic(text[:match.start()], list(earlier), korean, person=True)
                    or _ex_named(text, list(earlier)))
                continue
            if not words or topic.lower() in _EN_PRONOUNS or len(words) > 6:
                continue
            add(topic)
    return topics


# The user asking the character to recall what they told it ("나 어디서 일한다고 했었지?", "내 필명 기억나?", "do you
# remember …"): whatever it asks about, the user brought up themselves (data, both languages).
_RECALL_CUES = re.compile(r"(?:했었지|했지|했더라|했었나|했던가|기억나|기억해\s*\?|기억하지|뭐였지|뭐였더라|뭐더라|뭐라\s*그랬지"
                          r"|\bremember\b|\bdid\s+i\s+(?:tell|mention)|\bwhat\s+did\s+i\s+(?:say|tell)|\bi\s+told\s+you\b)",
                          re.I)


def asks_to_recall(message: str) -> bool:
    """Whether the user asks the character to recall something they said (the avoid rules then let it through:
    the user brought it up)."""
    return bool(_RECALL_CUES.search(message or ""))


# Titles a Korean name is said with ("박팀장", "김부장님"): data. The block names such a person by the title alone —
# the character is told what not to bring up without being handed the name to say (topic_for_prompt).
KO_TITLES = ("팀장", "부장", "과장", "차장", "대리", "사장", "실장", "상무", "전무", "이사", "본부장", "선배", "선생", "쌤",
             "교수", "원장", "주임")
_SURNAME_TITLE = re.compile(rf"^[가-힣]({'|'.join(KO_TITLES)})(님)?$")


def topic_for_prompt(topic: str) -> str:
    """How the prompt block names an avoid topic: a person named by surname and title ("박팀장") by the title
    ("팀장"); any other topic as the user said it. Memories are still kept out by the whole topic (avoid_test)."""
    match = _SURNAME_TITLE.match(topic.strip())
    if match:
        return match.group(1)
    named = relation_and_name(topic.strip())
    return named[0] if named else topic


# Words of a topic that say nothing on their own ("my old band" is about a band, "그 사람 얘기" about a person).
_TOPIC_FILLER = frozenset("""my your his her our their the a an old former ex- about any anything stuff things thing
그 이 저 내 제 우리 얘기 이야기 말 거 것 사람 일 부분 관련""".split())
# The same topic in other words: a rule about one is a rule about all (data; keys and values in casefold).
AVOID_SYNONYMS = (
    ("ex", "전남친", "전여친", "전 남친", "전 여친", "전남자친구", "전여자친구", "전 애인", "전애인", "ex-boyfriend",
     "ex-girlfriend", "my ex"),
    ("다이어트", "살빼", "살 빼", "diet", "weight loss"),
    ("몸무게", "체중", "weight"),
    ("군대", "입대", "군입대", "영장", "입영", "military", "army", "enlistment", "draft notice"),
    ("구조조정", "정리해고", "희망퇴직", "layoff", "layoffs", "laid off"),
    ("이혼", "divorce", "divorced"),
)


def avoid_terms(topics) -> list[str]:
    """What a memory must not mention while `topics` are to be avoided: each topic and its synonyms, or, for a
    topic without any, its words that name something (the head of "my old band", both words of "구조조정 명단")."""
    terms: dict[str, None] = {}
    for topic in topics:
        topic = " ".join(str(topic).split())
        named = relation_and_name(topic)
        if named:  # "전 남친 도현": the name, and the relation as a topic of its own
            terms.update(dict.fromkeys([topic, named[1]] + avoid_terms([named[0]])))
            continue
        folded = topic.casefold()
        words = [w.strip(".,!?'\"") for w in folded.split()]
        named = [w for w in words if w not in _TOPIC_FILLER and len(w) >= 2]
        found = [topic]
        groups = [group for group in AVOID_SYNONYMS if folded in group or "".join(words) in group
                  or (len(named) == 1 and named[0] in group)]
        if groups:
            found += [term for group in groups for term in group]
        elif re.search(r"[A-Za-z]", topic):
            # the head, and the relative whose it is ("my dad's health": health and dad; "Owen's dad": only dad)
            found += named[-1:] + [w[:-2] for w in named[:-1] if w.endswith("'s") and w[:-2] in RELATION_WORDS_EN]
        else:
            found += named
        terms.update(dict.fromkeys(term for term in found if term))
    return list(terms)


# A topic of one Korean syllable ("키") is a word of its own, maybe with a particle — never part of another word
# ("키우다", "스키", "키보드").
_SYLLABLE_WORD = r"(?<![가-힣]){}(?:[은는이가을를도만의에로]|이랑|랑|가지고)?(?![가-힣])"


@lru_cache(maxsize=1024)
def avoid_test(topics: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a text touches one of `topics` (avoid_terms, prepared once: the same few topics come with every
    request of a scope)."""
    terms = avoid_terms(topics)
    syllables = [term for term in terms if re.fullmatch(r"[가-힣]", term)]
    longer = mentions_any(term for term in terms if term not in syllables)
    pattern = re.compile("|".join(_SYLLABLE_WORD.format(term) for term in syllables)) if syllables else None
    return lambda text: longer(text) or (pattern is not None and pattern.search(text) is not None)
