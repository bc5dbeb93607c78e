"""Behaviour rules the user sets for the character ("전 여친 얘기는 꺼내지 마", "don't bring up my ex").

They go to `avoid_topics`, never to personal facts (seed 003 §16 P2: behaviour and personal facts
are kept apart).
"""
from __future__ import annotations

import re

from .morphology import noun_phrase_before

_KO_TALK = r"(?:얘기|이야기|애기|예기|말|언급|소리|질문|드립|농담|떡밥)"
_KO_ADVERBS = r"(?:(?:절대|절대로|제발|앞으로도|앞으로는|앞으론|앞으로|다시는|다신|더는|더\s*이상|두\s*번\s*다시|좀|이제|함부로|굳이|그냥)\s*)*"
_KO_DONT = (r"(?:지\s*(?:마|말아|말라|말았으면|말아줘|말아\s*줘|말아주|마세요|말아요|마라|말기를|말자)"
            r"|지\s*않았으면|지\s*말아\s*주세요)")
_KO_RULES = (
    # "<topic> 얘기는 (절대) 하지/꺼내지 마", "<topic> 얘기 금지", "<topic> 얘기는 안 했으면 좋겠어"
    re.compile(rf"(?P<talk>{_KO_TALK})\s*(?:은|는|를|을|도|좀)?\s*{_KO_ADVERBS}"
               rf"(?:(?:하|꺼내|꺼|묻|물어보|언급하|건드리|치)\s*{_KO_DONT}|그만\s*(?:해|하라|해줘|했으면|하자)"
               rf"|안\s*(?:했으면|꺼냈으면|하면\s*좋겠)|금지|사절|노노|ㄴㄴ|(?:하기|듣기)\s*싫)"),
    # "<topic>은 말하지 마", "<topic>에 대해 묻지 마"
    re.compile(rf"(?P<talk>)(?:은|는|을|를|이|가|에\s*대해서?는?|에\s*대한\s*건)?\s*{_KO_ADVERBS}"
               rf"(?:말하|언급하|묻|물어보|꺼내|건드리|들먹이)\s*{_KO_DONT}"),
)
_GENERIC_KO = frozenset({"사람", "일", "거", "것", "얘기", "이야기", "부분"})
_ADVERB_NOUNS_KO = frozenset({"앞", "뒤", "이제", "다음", "나중", "평생", "계속", "자꾸", "맨날", "항상", "다시", "또", "절대",
                              "제발", "진짜", "너무", "그냥", "괜히", "막", "함부로", "먼저", "오늘", "요즘"})
_PRONOUNS_KO = frozenset({"그", "이", "저", "그거", "이거", "저거", "그것", "이것", "그런", "이런"})

_EN_RULES = (
    re.compile(r"\b(?:please\s+)?(?:don'?t|do\s+not|never|stop|quit|no\s+more)\s+(?:ever\s+)?"
               r"(?:bring(?:ing)?\s+up|mention(?:ing)?|talk(?:ing)?\s+about|ask(?:ing)?\s+(?:me\s+)?about|"
               r"jok(?:e|ing)\s+about|bring(?:ing)?\s+(?:up\s+)?the\s+topic\s+of)\s+(?P<topic>[^.!?,;\n]+)", re.I),
    re.compile(r"\b(?:please\s+)?(?:don'?t|do\s+not|never)\s+(?:ever\s+)?bring\s+(?P<topic>[^.!?,;\n]+?)\s+up\b", re.I),
    re.compile(r"\blet'?s\s+(?:not|never)\s+talk\s+about\s+(?P<topic>[^.!?,;\n]+)", re.I),
    re.compile(r"\bi\s+(?:don'?t|do\s+not|never)\s+want\s+to\s+(?:talk|hear)\s+about\s+(?P<topic>[^.!?,;\n]+)", re.I),
    re.compile(r"\bavoid\s+(?:talking\s+about\s+|the\s+topic\s+of\s+|mentioning\s+)?(?P<topic>[^.!?,;\n]+)", re.I),
    re.compile(r"(?P<topic>[A-Za-z][^.!?,;\n]{1,40}?)\s+(?:is|are)\s+off[- ]limits\b", re.I),
)
_EN_TRAILING = re.compile(r"\s+(?:again|ever|anymore|any\s+more|please|with\s+me|around\s+me|ok|okay|"
                          r"in\s+the\s+future|from\s+now\s+on|at\s+all|either|too|lol|haha|thanks|"
                          r"even\s+in\s+roleplay|in\s+roleplay)\b.*$", re.I)
_EN_PRONOUNS = frozenset({"it", "that", "this", "them", "him", "her", "those", "these", "stuff", "things"})


def _korean_topic(text: str, end: int) -> str:
    topic = re.sub(rf"\s*{_KO_TALK}$", "", noun_phrase_before(text, end, max_words=3)).strip()
    if not topic:
        return ""
    if topic in _GENERIC_KO:
        # "그 사람 얘기" keeps its determiner: "사람" alone would be a different rule.
        words = text[:text.rfind(topic, 0, end)].split()
        if words:
            topic = f"{words[-1]} {topic}"
    if topic in _PRONOUNS_KO or topic in _ADVERB_NOUNS_KO:
        return ""  # "앞으로도 ..." names no topic
    return topic


def avoid_topics(text: str, korean: bool) -> list[str]:
    """Return the topics the user asked the character never to bring up."""
    topics: list[str] = []
    if korean:
        for rule in _KO_RULES:
            for match in rule.finditer(text):
                end = match.start("talk") if match.group("talk") else match.start()
                if re.search(r"(?:한테|에게|께|보고|더러)\s*$", text[:end]):
                    continue  # "엄마한테 말하지 마" is a secret to keep, not a topic to avoid
                topic = _korean_topic(text, end)
                if topic and not any(t.endswith(topic) or topic.endswith(t) for t in topics):
                    topics.append(topic)
        return topics
    for rule in _EN_RULES:
        for match in rule.finditer(text):
            topic = _EN_TRAILING.sub("", match.group("topic")).strip(" '\"")
            topic = re.sub(r"^(?:the\s+topic\s+of|anything\s+about|about)\s+", "", topic, flags=re.I)
            words = topic.split()
            if not words or topic.lower() in _EN_PRONOUNS or len(words) > 6:
                continue
            if topic not in topics:
                topics.append(topic)
    return topics
