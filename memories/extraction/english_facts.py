"""Personal facts in English user messages ("my name is", "I'm 24", "I live in", "my favorite X is").

English has no analyser here: patterns capture a value up to a clause boundary (punctuation or a
conjunction), and `_clean` trims articles and filler words around it.
"""
from __future__ import annotations

import re

from .candidates import Candidate
from .dates import find_holidays, find_month_days, format_month_day
from .lexicon import (
    ANIMALS_EN,
    BREEDS_EN,
    CITIES_EN,
    COLORS_EN,
    FAMILY_MEMBERS_EN,
    FOODS_EN,
    FRUITS_EN,
    SEASONS_EN,
    SPORT_VERBS_EN,
    SPORTS_EN,
    STOP_VALUES_EN,
    english_number,
    in_list,
    is_occupation_en,
)
from .whose import only_about_others

_BOUNDARY = (r"(?=\s*(?:[.,!?;:()\n]|$|\s(?:and|but|because|since|so|though|although|which|who|that|where|when|lol|"
             r"haha|"
             r"now|anymore|too|as well|as (?:an?|the|my|our)|for now|these days|right now|btw|though|at|with|for|"
             r"from|on|if|until|after|"
             r"before|every|here|there|last|next|this year|yesterday|today|tomorrow|tonight|recently|ago|"
             r"in \d{4}|like\s+(?:a\s+)?\d+|like\s+(?:a|an)\s+(?:few|couple)|then|later|afterwards|tmrw|tomorrow"
             r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weeknights?|mornings?|evenings?|nights?)\b))")
_VALUE = r"(?P<v>[^.,!?;:()\n]{1,60}?)"
# Lists ("shellfish and penicillin") for subjects that hold several values.
_LIST_BOUNDARY = _BOUNDARY.replace("and|but|", "but|")
_LIST_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*)\s*", re.I)
_LIST_SUBJECTS = frozenset({"allergy", "phobia", "likes", "dislikes", "hobby"})
_ARTICLES = re.compile(r"^(?:(?:a|an|the|my|our|some|this|that|weirdly|honestly|actually|definitely|probably|obviously"
                       r"|still|also|really|ok|okay|so|well|yeah|yep|nah|no|yes)\s+)+", re.I)
_TRAILING = re.compile(r"\s+(?:lol|haha|tbh|honestly|actually|though|now|these days|right now|btw|anymore|"
                       r"for sure|i think|i guess|or something|and stuff|please|pls|someday|some day|one day|"
                       r"in the future|eventually|when i grow up|originally|from now on|again|too|irl|in real life|"
                       r"downtown|full[- ]time|part[- ]time|nearby|rn|lmao|lmfao|haha+|lol+)$", re.I)
_NOT_ME = re.compile(r"\b(?:my\s+(?:friend|brother|sister|mom|mother|dad|father|girlfriend|boyfriend|wife|husband|"
                     r"roommate|boss|cousin|son|daughter|partner|coworker|best friend|dog|cat)|he|she|they|"
                     r"you)\s*$", re.I)

_FAVORITE_KEYS_EN = {
    "food": "food", "dish": "food", "meal": "food", "cuisine": "food", "color": "color", "colour": "color",
    "band": "artist", "singer": "artist", "artist": "artist", "musician": "artist", "group": "artist",
    "rapper": "artist", "idol": "artist", "movie": "movie", "film": "movie", "song": "song", "track": "song",
    "book": "book", "novel": "book", "author": "author", "writer": "author", "game": "game",
    "video game": "game", "show": "show", "tv show": "show", "series": "show", "drama": "drama",
    "anime": "anime", "animal": "animal", "fruit": "fruit", "drink": "drink", "beverage": "drink",
    "season": "season", "subject": "subject", "class": "subject", "flower": "flower", "place": "place",
    "city": "city", "country": "country", "team": "team", "actor": "actor", "actress": "actor",
    "youtuber": "youtuber", "character": "character", "genre": "genre", "snack": "snack", "dessert": "dessert",
    "number": "number", "brand": "brand", "holiday": "holiday", "restaurant": "restaurant", "cafe": "cafe",
    "sport": "sport", "hobby": "hobby", "weather": "weather", "coffee": "drink", "music": "genre",
    "member": "artist", "bias": "artist", "kpop group": "artist", "k-pop group": "artist", "boy band": "artist",
    "girl group": "artist", "girlgroup": "artist", "idol group": "artist", "foods": "food", "eats": "food",
}


def _clean(value: str) -> str:
    value = value.strip(" '\"“”‘’")
    value = _ARTICLES.sub("", value)
    for _ in range(2):
        value = _TRAILING.sub("", value).strip(" '\"“”‘’")
    return value


def _ok(value: str, max_words: int = 6) -> bool:
    low = value.lower().strip()
    if re.match(r"(?:for|to|at|in|on|with|about|from|by|of|into|like)\b", low):
        return False  # "I'm studying for the bar exam" has no major in it
    if not low or low in STOP_VALUES_EN or len(low.split()) > max_words:
        return False
    return bool(re.search(r"[a-z0-9]", low))


# A sentence ends at . ! ? — but not after "St." in "St. Mary's".
_SENTENCE_END = re.compile(r"(?<!\bSt\.)(?<!\bMt\.)(?<!\bDr\.)(?<!\bMr\.)(?<!Mrs\.)(?<!\bMs\.)(?<!\bJr\.)"
                           r"(?<=[.!?])\s+|\n+")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def _negated(sentence: str, start: int) -> bool:
    before = sentence[:start]
    return bool(re.search(r"\b(?:don'?t|do not|not|never|no longer|didn'?t|used to|wish|want to|wanna|"
                          r"would)\s+(?:\w+\s+)?$",
                          before, re.I)
                or re.search(r"\b(?:quit|left|lost|stopped|gave up)\s+(?:my\s+|the\s+|a\s+)?$", before, re.I))


def _about_other(sentence: str, start: int) -> bool:
    return bool(_NOT_ME.search(sentence[:start]))


def _value_after(lead: str, tail: str = _BOUNDARY) -> re.Pattern:
    """A case-insensitive pattern: `lead`, then the value up to a clause boundary."""
    return re.compile(lead + _VALUE + tail, re.I)


_I_AM = r"\b(?:i'?m|i am|im)\s+"
_ADVERB = r"(?:really\s+|so\s+|super\s+|very\s+|severely\s+|deathly\s+|terribly\s+)?"
_WORKING = r"\bi\s+(?:work|am working|'m working)\s+"
# Known cities by name, longest first (a lowercase place is a place only when it is one of them).
_CITY_WORD = "|".join(sorted((re.escape(c) for c in CITIES_EN if len(c) > 3), key=len, reverse=True))
_RULES: list[tuple[str, re.Pattern]] = [
    ("name", _value_after(r"\bmy name(?:'s| is)\s+")),
    ("name", re.compile(r"(?:^|[.!?,]\s*|\b[Mm]y\s+)[Nn]ame'?s\s+(?P<v>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")),
    ("name", re.compile(r"^(?:(?:[Hh]i|[Hh]ey|[Hh]ello|[Yy]o|[Hh]iya|[Hh]eya)(?:\s+there)?[\s,!.]*)?"
                        r"(?:[Ii]'?m|[Ii] am|[Tt]his is|[Ii]t'?s)\s+"
                        r"(?P<v>[A-Z][a-z]+)(?=\s*[,.!]|\s+(?:and|nice|btw|by the way|here|from)\b|\s*$)"
                        r"(?!\s*,\s*(?:my|our)\s)")),  # "this is Bean, my hamster" introduces the hamster
    # "call me Sunny" as a request, not "'your brothers call me more' thing".
    ("nickname", _value_after(r"(?:^|[,.!?;]\s*|\b(?:you can|you could|just|please|pls|and|so|ok|okay|lol|haha|but)\s+)"
                              r"call me\s+")),
    ("nickname", _value_after(r"\bmy nickname is\s+")),
    ("nickname", _value_after(r"\b(?:everyone|everybody|people|friends|my friends|they|most people)\s+calls?\s+me\s+")),
    ("age", re.compile(_I_AM + r"(?P<v>(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
                       r"(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
                       r"|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
                       r"(?:\s*years?\s*old)?\b(?!\s*(?:minutes?|hours?|days?|percent|times))", re.I)),
    ("age", re.compile(_I_AM + r"(?P<v>\d{1,2})(?:\s*(?:years?\s*old|yrs?\s*old|y/?o))?"
                       r"(?![\d%:.'\"’]|\s*(?:minutes?|hours?|days?|weeks?|months?|times?|am|pm|percent|kg|lbs?"
                       r"|pounds?|cm|ft|feet|inches|miles?|km|dollars?|bucks)\b)", re.I)),
    ("age", re.compile(r"\b(?:i\s+)?(?:just\s+)?turned\s+(?P<v>\d{1,2})\b", re.I)),
    ("age", re.compile(r"\bmy age is\s+(?P<v>\d{1,2})\b", re.I)),
    ("hometown", _value_after(_I_AM + r"(?:originally\s+)?from\s+")),
    ("hometown", _value_after(r"\bi\s+(?:grew up|was raised|was born)\s+in\s+")),
    ("hometown", _value_after(r"\bmy hometown is\s+")),
    # "he's in spokane, that's where i grew up": the place said before, pointed back to
    ("hometown", re.compile(r"\b(?:in|from)\s+(?P<v>[A-Za-z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s*[,.;]?\s*(?:that'?s|which\s+is|it'?s)"
                            r"\s+where\s+i\s+(?:grew\s+up|was\s+(?:born|raised))\b", re.I)),
    ("residence", _value_after(r"\bi\s+(?:currently\s+|now\s+|still\s+)?(?:live|stay|reside)\s+in\s+")),
    # "i'm 24 and live in portland", "I've lived in Dublin for 40 years"
    ("residence", re.compile(r"(?i:\b(?:i'?m|i\s+am)\s+[^.!?;]{1,30}?\s+and\s+(?:currently\s+|now\s+)?live\s+in\s+)"
                             r"(?P<v>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}|(?i:" + _CITY_WORD + r"))\b")),
    ("residence", _value_after(r"\bi'?ve\s+(?:now\s+)?lived\s+in\s+", r"(?=\s+(?:for|since)\b)")),
    ("residence", _value_after(r"\bi'?m\s+(?:currently\s+|now\s+)?(?:living|staying|based)\s+in\s+")),
    # "I rent a tiny flat in Leith", "i share a house in Fremont" (not "i have a company offsite in Denver")
    ("residence", re.compile(r"\b[Ii]\s+(?:rent|own|share|have)\s+(?:a|an|my)\s+(?:[\w'-]+\s+){0,4}?(?:apartment|apt|flat"
                             r"|house|home|place|room|studio|condo|loft|townhouse|bedroom|br|bungalow|cottage|dorm)\s+in\s+"
                             r"(?P<v>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})")),
    # "our new place in Fremont" (not "Colm rang from the new house in Ballincollig")
    ("residence", re.compile(r"\b(?:[Mm]y|[Oo]ur)\s+new\s+(?:apartment|place|flat|house|home)\s+in\s+"
                             r"(?P<v>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})")),
    ("residence", _value_after(r"(?:^|[,;]\s*|\b(?:i|we|i'?ve|we'?ve|i have|we have)\s+)(?:just\s+|recently\s+|finally\s+"
                               r"|officially\s+|now\s+|already\s+)*moved\s+(?:from\s+[^.,!?;]+?\s+)?(?:over\s+)?to\s+")),
    ("residence", _value_after(r"\bwe\s+(?:currently\s+|now\s+|still\s+)?(?:live|stay|reside)\s+in\s+")),
    ("residence", _value_after(r"\b(?:we'?re|we are)\s+(?:currently\s+|now\s+)?(?:living|staying|based)\s+in\s+")),
    ("residence", _value_after(r"\b(?:i|we)\s+(?:just\s+|finally\s+)?(?:relocated|settled)\s+(?:in|to)\s+")),
    # "got a 1br in denver, highlands", "signed the lease on a studio in austin"
    ("residence", _value_after(r"\b(?:got|found|signed\s+(?:for|on)|rented|renting|bought|leased|have|own|moving\s+into"
                               r"|moved\s+into)\s+(?:a|an|my|our|the)\s+(?:(?:new|tiny|little|cute|small|big)\s+)?"
                               r"(?:\d\s*-?\s*br|\d\s*-?\s*bed(?:room)?|studio|apartment|apt|flat|condo|townhouse|loft"
                               r"|place)\s+in\s+(?!the\b|a\b|my\b)")),
    # "found a lil house to rent in powell", "i found a flat!! levenshulme, one bed": where the user moves
    ("residence", _value_after(r"\b(?:found|got|signed\s+for|rented|bought)\s+(?:a|an|our|the)\s+(?:(?:new|tiny|little|lil|cute"
                               r"|small|big|nice|cheap)\s+)*(?:house|flat|apartment|apt|place|studio|condo|room)"
                               r"(?:\s+to\s+rent)?(?:\s+in\s+(?!a\b|my\b|the\s+same\b)|\s*:\s*)")),
    # "near my apartment in the short north": where the user lives now
    ("residence", _value_after(r"\bmy\s+(?:apartment|apt|flat|house|place)\s+(?:is\s+)?in\s+(?:the\s+)?")),
    ("occupation", _value_after(r"\bi\s+work\s+(?:\w+\s+){0,3}?as\s+(?:an?\s+)?")),
    ("occupation", re.compile(r"\boffered\s+me\s+(?:the|a|an)\s+(?P<v>[a-z][a-z -]{2,30}?)\s+(?:job|position|role)\b",
                              re.I)),
    ("workplace", re.compile(r"(?P<v>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})\s+offered\s+me\s+(?:the|a|an)\s+")),
    ("occupation", _value_after(r"\bi(?:'m| am)\s+(?:now\s+|officially\s+)?(?:starting|working)\s+as\s+(?:an?\s+)?")),
    ("occupation", re.compile(r"\bi\s+got\s+(?:the|a|an)\s+(?P<v>[a-z][a-z -]{2,30}?)\s+(?:job|position|role)\b",
                              re.I)),
    ("occupation", _value_after(r"\bmy job is\s+(?:an?\s+)?")),
    ("occupation", _value_after(r"\bi\s+(?:start|started|begin|began|'ll start|will start|'m starting|am starting)\s+"
                                r"(?:at\s+[^.,!?;]{1,40}?\s+|(?:work\s+|my\s+new\s+job\s+)?)as\s+(?:an?\s+|the\s+)?")),
    # "starting monday as a dental sales rep", "i start next week at Acme as a sales rep"
    ("occupation", _value_after(r"(?:^|[,.!?;]\s*|\b(?:i|i'?m|i am|i'll|i will|and|so|now|officially)\s+)"
                                r"(?:start|starting|begin|beginning)\s+(?:work\s+|my\s+new\s+job\s+)?"
                                r"(?:(?:on\s+|this\s+|next\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
                                r"|tomorrow|today|week|month|the\s+\d{1,2}(?:st|nd|rd|th)?)\s+)?"
                                r"(?:at\s+[^.,!?;]{1,40}?\s+)?as\s+(?:an?\s+|the\s+)?")),
    ("workplace", re.compile(r"\b(?:start|starting|begin|beginning)\s+(?:(?:on\s+|this\s+|next\s+)?(?:monday|tuesday"
                             r"|wednesday|thursday|friday|saturday|sunday|tomorrow|today|week|month)\s+)?"
                             r"as\s+(?:an?\s+|the\s+)?[a-z][a-z -]{1,30}?\s+at\s+(?P<v>[A-Z][^.,!?;:()\n]{1,40}?)" + _BOUNDARY)),
    ("occupation", re.compile(r"\b(?:i'?m|i am)\s+(?:now|officially|finally)\s+(?:an?\s+)(?P<v>[a-z][a-z -]{1,40}?)"
                              + _BOUNDARY, re.I)),
    # "got a new job! starting at Google on Monday": a place started at, after news of a job
    ("workplace", re.compile(r"(?i:\b(?:new\s+job|got\s+(?:the|a|my)\s+(?:[\w-]+\s+)?job|got\s+hired|hired)\b[^\n]{0,60}?"
                             r"\bstart(?:ing|ed|s)?\s+(?:work\s+|there\s+)?at\s+)(?P<v>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})")),
    # "started a new job at the library today"
    ("workplace", _value_after(r"\b(?:started|starting|start|began)\s+(?:a|my)\s+new\s+(?:job|position|role)\s+at\s+(?:the\s+)?")),
    ("workplace", re.compile(r"\bi\s+(?:start|started|begin|began|'ll start|will start|'m starting|am starting)\s+"
                             r"(?:work\s+|my\s+new\s+job\s+)?at\s+(?P<v>[^.,!?;]{1,40}?)\s+as\s+", re.I)),
    ("occupation", _value_after(r"\b(?:i\s+)?(?:got\s+)?(?:hired|promoted)\s+as\s+(?:an?\s+|the\s+)?")),
    ("occupation", re.compile(_I_AM + r"(?:an?\s+)(?P<v>[a-z][a-z -]{1,40}?)" + _BOUNDARY, re.I)),
    ("workplace", re.compile(r"\b(?:[Ii]'?m|[Ii] am)\s+(?:an?\s+)(?!(?:freshman|sophomore|junior|senior|student|grad|phd|first|"
                             r"second|third|fourth|final|transfer|exchange)\b)[a-z][a-z -]{1,30}?\s+(?:at|for)\s+"
                             r"(?P<v>(?:St\.\s|Mt\.\s)?[A-Z][^.,!?;:()\n]{1,40}?)" + _BOUNDARY)),
    ("workplace", _value_after(_WORKING + r"(?:at|for)\s+")),
    # "product designer at a fintech startup called Ledgerly", "i work for a tiny studio named Hatch"
    ("workplace", re.compile(r"\b(?:at|for)\s+(?:an?|this)\s+(?:[\w-]+\s+){0,3}?(?:startup|company|studio|agency|firm"
                             r"|cafe|café|shop|store|restaurant|bakery|bar|clinic|hospital|lab|school|bank|brand|place)"
                             r"\s+(?:called|named)\s+(?P<v>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,3})")),
    ("major", _value_after(r"\b(?:i\s+(?:major|majored)\s+in|my major is|i'?m\s+(?:studying|majoring in)"
                           r"|i\s+study)\s+")),
    ("major", re.compile(r"\b(?:i'?m\s+an?\s+)?(?P<v>[a-z ]{2,30}?)\s+major\b", re.I)),
    ("school_year", re.compile(_I_AM + r"(?:an?\s+|in my\s+)?(?P<v>freshman|sophomore|junior|senior|first[- ]year"
                               r"|second[- ]year|third[- ]year|fourth[- ]year|final[- ]year|grad student)\b", re.I)),
    # "i'm a junior at UT studying film"
    ("school", re.compile(r"(?i:\bi'?m\s+an?\s+(?:freshman|sophomore|junior|senior|(?:grad|phd|transfer|exchange)\s+student"
                          r"|student|first[- ]year|second[- ]year|third[- ]year|fourth[- ]year|final[- ]year)\s+at\s+)"
                          r"(?P<v>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,4})")),
    ("major", _value_after(r"\b(?:freshman|sophomore|junior|senior|student|year)\s+at\s+[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3}\s+"
                           r"(?:studying|majoring\s+in)\s+")),
    ("school", re.compile(r"\b[Ii]\s+(?:go to|attend|study at)\s+(?P<v>(?:[A-Z][\w&.'-]*\s*)+|[^.,!?;:()\n]{1,40}?"
                          r"(?:[Uu]niversity|[Cc]ollege|[Ss]chool|[Aa]cademy|[Ii]nstitute|uni)\b)" + _BOUNDARY)),
    ("mbti", re.compile(r"\b(?:i'?m\s+(?:an?\s+)?|my\s+mbti\s+(?:is|type\s+is)\s+|mbti\s*[:=-]?\s*)"
                        r"(?P<v>[EIei][NSns][TFtf][JPjp](?:-[ATat])?)\b", re.I)),
    ("blood_type", re.compile(r"\bblood type(?:\s+is|'s|:)?\s+(?P<v>AB|A|B|O)[+-]?(?![A-Za-z])", re.I)),
    ("blood_type", re.compile(_I_AM + r"(?:blood\s+)?type\s+(?P<v>AB|A|B|O)[+-]?(?![A-Za-z])", re.I)),
    ("height", re.compile(_I_AM + r"(?P<v>\d'\s*\d{1,2}\"?|\d\s*(?:ft|feet|foot)\s*\d{1,2}(?:\s*in(?:ches)?)?"
                          r"|1\d{2}\s*cm)(?:\s*tall)?", re.I)),
    ("height", re.compile(r"(?<![\w'])(?P<v>[4-7]'\s?(?:1[01]|\d)\"?)(?![\d'])")),  # "5'3 on a good day"
    ("height", re.compile(r"\bmy height is\s+(?P<v>\d'\s*\d{1,2}\"?|1\d{2}\s*cm|\d\s*(?:ft|feet)\s*\d{1,2})", re.I)),
    ("allergy", _value_after(_I_AM + _ADVERB + r"allergic\s+to\s+", _LIST_BOUNDARY)),
    ("allergy", re.compile(r"\bi\s+have\s+(?:an?\s+|a\s+(?:bad|severe|mild)\s+)?"
                           r"(?P<v>[a-z ]{2,30}?)\s+allerg(?:y|ies)\b", re.I)),
    ("phobia", _value_after(_I_AM + _ADVERB + r"(?:afraid|scared|terrified|frightened)\s+of\s+", _LIST_BOUNDARY)),
    ("phobia", _value_after(r"\bi\s+have\s+(?:an?\s+)?(?:(?:huge|big|real|serious|bad|severe|irrational|massive"
                            r"|crippling|slight|major|deep)\s+)?(?:phobia|fear)\s+of\s+")),
    ("phobia", re.compile(r"\bi\s+have\s+(?P<v>[a-z]+phobia)\b", re.I)),
    ("phobia", re.compile(r"\bi\s+(?:have|'ve got)\s+(?:a\s+|an\s+)?(?P<v>[a-z ]{2,20}?)\s+phobia\b", re.I)),
    ("best_friend", _value_after(r"\bmy best friend(?:'s name)?\s+is\s+")),
    ("best_friend", re.compile(r"\b(?P<v>[A-Z][\w'-]+)\s+is\s+my\s+(?:best friend|bff|bestie)\b")),
    ("best_friend", re.compile(r"\bmy\s+(?:bff|bestie|best friend)\s*,?\s+(?P<v>[A-Z][\w'-]+)")),
    ("part_time_job", _value_after(_WORKING + r"part[- ]time\s+(?:at|in|for)\s+")),
    ("part_time_job", _value_after(r"\bpart[- ]time\s+job\s+(?:at|in)\s+")),
    ("part_time_job", _value_after(_WORKING + r"(?:at|in)\s+", r"\s+part[- ]time\b")),
    ("hobby", _value_after(r"\bmy\s+(?:main\s+)?hobb(?:y|ies)\s+(?:is|are)\s+")),
    ("hobby", _value_after(r"\bin my (?:free|spare) time,?\s+i\s+(?:like to\s+|love to\s+|usually\s+|mostly\s+)?")),
    ("hobby", _value_after(r"\bi'?m\s+(?:really\s+|super\s+)?into\s+")),
    ("hobby", re.compile(r"\b(?P<v>[a-z ]{2,30}?)\s+is\s+my\s+hobby\b", re.I)),
    ("hobby", _value_after(r"\bi'?m\s+(?:currently\s+)?learning\s+")),
    ("dream_job", _value_after(r"\bmy\s+dream\s+job\s+is\s+(?:to be\s+|to become\s+|being\s+)?(?:an?\s+)?")),
    ("dream_job", _value_after(r"\bmy\s+dream\s+is\s+to\s+(?:be|become)\s+(?:an?\s+)?")),
    ("dream_job", _value_after(r"\bi\s+(?:want|hope|dream|plan)\s+(?:to|of)\s+(?:be|become|becoming)\s+(?:an?\s+)?")),
    ("goal", _value_after(r"\bmy\s+(?:dream|goal)\s+is\s+to\s+(?!be\b|become\b)")),
    ("goal", _value_after(r"\b(?:new\s+|next\s+|my\s+)?goal\s*[:=]\s*")),
    ("goal", _value_after(r"\b(?:someday|some day|one day|eventually|dream time)[,:]?\s+i\s+"
                          r"(?:want|hope|would love|'d love)\s+to\s+(?!be\b|become\b)")),
    ("goal", re.compile(r"\bi\s+want\s+to\s+(?P<v>(?!be\b|become\b)[^.,!?;:()\n]{3,50}?\s+by\s+[^.,!?;:()\n]{2,25}?)"
                        r"(?=\s*(?:[.,!?;]|$))", re.I)),
    ("favorite_artist", re.compile(r"\b(?:[Ii]'?m|[Ii] am)\s+(?:a\s+|an\s+)?(?:(?:big|huge|massive|die-?hard"
                                   r"|longtime|long-time|super|total)\s+)?"
                                   r"(?P<v>[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,3})\s+fan\b")),
    ("favorite_artist", _value_after(r"\b(?:i'?m|i am)\s+(?:a\s+)?(?:(?:big|huge)\s+)?fan\s+of\s+")),
]

# "friday's my last day as a hygienist", "i quit my job as a barista": the old occupation ends.
_LEFT_JOB = re.compile(r"\blast\s+(?:day|shift|week)\s+as\s+(?:an?\s+|the\s+)?(?P<v>[a-z][a-z -]{2,30}?)"
                       r"(?=\s*(?:[.,!?;]|$|\s(?:at|for|ever|lol|haha|and|but)\b))"
                       r"|\bi\s+(?:just\s+|finally\s+)?(?:quit|left)\s+(?:my\s+job\s+as|being)\s+(?:an?\s+)?"
                       r"(?P<v2>[a-z][a-z -]{2,30}?)(?=\s*(?:[.,!?;]|$|\s(?:at|for|and|but)\b))", re.I)
_QUIT_PART_TIME = re.compile(r"\bi\s+(?:just\s+|finally\s+)?(?:quit|left|stopped)\s+(?:my\s+|"
                             r"the\s+)?part[- ]time\s+job\b", re.I)
_FAVORITE = re.compile(rf"\bmy\s+(?:all[- ]time\s+|absolute\s+|current\s+)?fav(?:ou?rite|"
                       rf"e)?\s+(?P<topic>[a-z ]{{2,20}}?)\s+"
                       rf"(?:is|are|has to be|would be|'s)\s+{_VALUE}{_BOUNDARY}", re.I)
_FAVORITE_AFTER = re.compile(r"\b(?P<v>[A-Za-z0-9][\w' &-]{0,40}?)\s+(?:is|are)\s+(?:still\s+|also\s+|definitely\s+"
                             r"|probably\s+|totally\s+|now\s+|literally\s+|honestly\s+|always\s+|lowkey\s+|"
                             r"highkey\s+|genuinely\s+|easily\s+|forever\s+|officially\s+)?my\s+(?:new\s+)?(?:all[- ]time\s+|absolute\s+)?"
                             r"fav(?:ou?rite|e)?\s+(?P<topic>[a-z ]{2,20}?)\b(?=\s*(?:[.,!?;]|$|\s(?:and|but|ever"
                             r"|of all|now|these days|lately|too|though)\b))",
                             re.I)
_LIKE = re.compile(rf"\bi\s+(?:really\s+|absolutely\s+|just\s+)?(?P<verb>love|like|adore|enjoy|hate|can'?t stand|"
                   rf"dislike|don'?t like)\s+{_VALUE}{_LIST_BOUNDARY}",
                   re.I)
_HOBBY_DO = re.compile(r"\bi\s+(?:do|practice|play)\s+(?P<v>[a-z ]{3,20}?)\s+(?:on\s+(?:the\s+)?weekends?|every\s+\w+|"
                       r"for fun|"
                       r"in my (?:free|spare) time|as a hobby|a lot)\b", re.I)
_GYM = re.compile(r"\bi\s+(?:usually\s+|often\s+)?(?:go|hit)\s+(?:to\s+)?the\s+gym\b|\bi\s+work\s*out\b", re.I)
_PLAY = re.compile(r"\bi\s+(?:play|practice|do|go)\s+(?!to\b)(?P<v>[a-z -]{3,25}?)(?=\s*(?:[.,!?;]|$|\s(?:every|on|"
                   r"with|at|twice|once|a lot|"
                   r"sometimes|often|and|but)\b))", re.I)
_SPORT_VERB = re.compile(r"\bi\s+(?:usually\s+|often\s+|regularly\s+)?(?P<v>" + "|".join(SPORT_VERBS_EN) +
                         r")\s+(?:every|on|a lot|regularly|daily|twice|three times|most)\b", re.I)
_ANIMAL_EN = "|".join(sorted(ANIMALS_EN + BREEDS_EN, key=len, reverse=True))
_PET = re.compile(r"\bi\s+(?:just\s+|finally\s+|recently\s+|also\s+|now\s+|still\s+)?"
                  r"(?:have|own|got|adopted|'ve got)\s+(?:an?\s+|two\s+|three\s+|a\s+little\s+|a\s+)?"
                  rf"(?P<kind>(?:[a-z]+\s+){{0,2}}?(?:{_ANIMAL_EN}))s?"
                  r"(?:\s+(?:named|called)\s+(?P<name>[A-Z][\w'-]*))?", re.I)
_PET_NAMED = re.compile(r"\b(?:an?|my|our)\s+(?:(?:little|sweet|old|new|baby|tiny|fat|lazy)\s+)?"
                        rf"(?P<kind>(?:[a-z]+\s+)?(?:{_ANIMAL_EN}))\s+(?:named|called)\s+(?P<name>[A-Z][\w'-]*)", re.I)
_PET_NAME = re.compile(rf"\bmy\s+(?P<kind>{_ANIMAL_EN})(?:'?s\s+name\s+is\s+|\s+)(?P<name>[A-Z][\w'-]*)")
# "Biscuit is my dog", "this is Bean, my hamster", "Mr. Pickles is roaring for his breakfast, he's my cat"
_PET_IS = re.compile(r"(?P<name>(?:(?:Mr|Mrs|Ms|Miss|Sir|Lady|Lord)\.?\s+)?[A-Z][\w'-]+)(?:\s+is|,)\s+"
                     r"(?:[^.!?;]{0,60}?,\s+(?:he|she)(?:'s|\s+is)\s+)?(?i:my|our)\s+"
                     rf"(?i:(?:little|old|sweet|big|baby|new)\s+)?(?P<kind>(?i:{_ANIMAL_EN}))\b")
_BREED_EN = re.compile(rf"\b(?P<breed>{'|'.join(sorted(BREEDS_EN, key=len, reverse=True))})\b", re.I)
_SIBLINGS = re.compile(r"\bi\s+have\s+(?P<v>(?:an?|one|two|three|four|\d)\s+(?:older\s+|younger\s+|little\s+|big\s+|"
                       r"twin\s+)?"
                       r"(?:brothers?|sisters?|siblings?))\b", re.I)
_FAMILY = re.compile(r"\b(?P<v>i'?m\s+(?:an?|the)\s+(?:only child|youngest|oldest|eldest|middle child)|"
                     r"(?:there are|we are|we're)\s+(?:\w+)\s+(?:of us\s+)?in my family|family of (?:\w+))\b", re.I)
_NO_PARTNER_EN = frozenset("""work myself sleep netflix books coffee food nobody bread pizza carbs my the a an
this that it them sourdough gym job""".split())
_DATING = re.compile(r"\b(?P<v>i'?m\s+(?:now\s+|currently\s+)?(?:single|married|engaged|divorced|taken|"
                     r"in a relationship|"
                     r"seeing someone|dating someone|seeing [A-Z]\w+|dating [A-Z]\w+)|"
                     r"i\s+(?:just\s+|recently\s+)?(?:started|began)\s+(?:dating|seeing)(?:\s+someone|\s+[A-Z]\w+)?|"
                     r"i\s+(?:have|'ve got)\s+a\s+new\s+(?:girlfriend|boyfriend|partner)|"
                     r"i\s+(?:have|'ve got)\s+a\s+(?:girlfriend|boyfriend|partner|wife|husband)|"
                     r"i\s+(?:don'?t|do not)\s+have\s+a\s+(?:girlfriend|boyfriend|partner)|"
                     r"(?:i'?ve\s+|i\s+have\s+|^\W*)(?:been|stayed)\s+single|^\W*(?:still|forever|happily|very)\s+single|"
                     r"(?:^|[,.!]\s*|\b(?:and|but|lol|so)\s+|i\s+have\s+)no\s+(?:bf|gf|boyfriend|girlfriend|partner|s\.?o\.?)"
                     r"(?=\s*(?:rn|atm|right now|currently|yet|lol|haha|tho|though|either|[.,!?;:]|$))|"
                     r"(?:i'?m\s+|i am\s+|^\W*)not\s+(?:seeing|dating|with|talking to)\s+any(?:one|body)(?![\w'’])|"
                     r"(?:i'?m\s+|i am\s+)(?:still\s+|very\s+|so\s+|forever\s+|happily\s+)?single|"
                     r"(?:we|i)\s+(?:just\s+)?broke\s+up|i\s+got\s+(?:married|engaged|dumped)|"
                     r"we\s+(?:just\s+|finally\s+)?got\s+(?:married|engaged)|"
                     r"(?:we|i)\s+(?:just\s+|finally\s+|officially\s+)?made\s+it\s+(?:official|facebook official|"
                     r"insta official)|"
                     r"we'?re\s+(?:officially\s+)?(?:official|together|a couple|exclusive|dating)(?:\s+now)?|"
                     r"i\s+(?:just\s+|finally\s+)?got\s+a\s+(?:girlfriend|boyfriend|gf|bf)|"
                     r"(?:she|he)\s+(?:said\s+yes|asked\s+me\s+out|agreed\s+to\s+be\s+my\s+(?:girlfriend|boyfriend)))\b",
                     re.I)
_PARTNER_NAMED = re.compile(r"\bmy\s+(?P<who>boyfriend|girlfriend|partner|wife|husband|fianc[ée]e?)\s+"
                            r"(?P<name>[A-Z][\w'-]+)")
_DIET = re.compile(r"\b(?:i'?m|i am)\s+(?:a\s+|an\s+)?(?:strict\s+)?(?P<v>vegetarian|vegan|pescatarian|pescetarian|"
                   r"lactose[- ]intolerant|gluten[- ]free|on a diet|on keto|halal|kosher)\b|"
                   r"\bi\s+(?:only\s+)?(?P<v2>eat halal|keep kosher|don'?t eat (?:meat|pork|beef|fish|"
                   r"seafood))\b", re.I)
_ZODIAC = re.compile(r"\b(?:i'?m|i am|makes me|i'm such)\s+an?\s+(?P<v>aries|taurus|gemini|cancer|leo|virgo|libra|scorpio"
                     r"|sagittarius|capricorn|aquarius|pisces)\b", re.I)
_HANDED = re.compile(r"\bi'?m\s+(?P<v>left-handed|right-handed|left handed|right handed|ambidextrous|a lefty)\b", re.I)
_SMOKING = re.compile(r"\bi(?:\s+|(?='))(?P<v>smoke|quit smoking|stopped smoking|don'?t smoke|vape|"
                      r"'m trying to quit smoking|"
                      r"am trying to quit smoking|'m quitting smoking)\b|"
                      r"\bi'?m\s+(?:a\s+)?(?P<v2>smoker|non-smoker|nonsmoker)\b", re.I)
_TATTOO = re.compile(r"\bi\s+(?:have|got|'ve got)\s+(?:a\s+|an\s+|two\s+|"
                     r"\w+\s+)?(?P<v>(?:[a-z]+\s+){0,2}tattoos?(?:\s+(?:of|on)\s+"
                     r"[^.,!?;]{1,30})?)", re.I)
_BIRTHDAY = re.compile(r"\b(?:my\s+(?:birthday|bday|b-day)(?:'s|\s+is)?|i\s+was\s+born\s+on|"
                       r"born\s+on)\s+(?:on\s+)?", re.I)
_FAMILY_TERMS = re.compile(r"\b(" + "|".join(FAMILY_MEMBERS_EN) + r")\b", re.I)


_NOT_NAMES = frozenset("""fine good great ok okay sorry back here home tired happy sad bored hungry sure done
ready korean american japanese chinese british canadian filipino busy free single married alright alive sick excited
not so just still also really very new sleepy stressed lonely scared nervous glad thankful exhausted late early out off
in on up down""".split())


def _favorite_subject(topic: str) -> str:
    topic = topic.lower().strip()
    key = _FAVORITE_KEYS_EN.get(topic) or _FAVORITE_KEYS_EN.get(topic.split()[-1] if topic.split() else topic)
    if key == "sport":
        return "sport"
    if key == "hobby":
        return "hobby"
    if key:
        return f"favorite_{key}"
    slug = re.sub(r"[^a-z0-9]+", "_", topic).strip("_")
    return f"favorite_{slug}" if slug else "likes"


def _type_subject(value: str) -> str:
    low = value.lower()
    if low in SEASONS_EN:
        return "favorite_season"
    if in_list(low, COLORS_EN) == low:
        return "favorite_color"
    if in_list(low, SPORTS_EN):
        return "sport"
    if low in FRUITS_EN:
        return "favorite_fruit"
    return ""


_TURNING_ON = re.compile(r"\b(?:turn(?:ing)?\s+\w+(?:-\w+)?|(?:twenty|thirty|forty|fifty)(?:-\w+)?|\d{1,2})\s+on\s+",
                         re.I)


def _birthday(sentence: str) -> list[Candidate]:
    match = _BIRTHDAY.search(sentence) or _TURNING_ON.search(sentence)  # "twenty-eight on January 9th"
    if not match:
        return []
    mentions = [m for m in find_month_days(sentence, numeric=True) if m.start >= match.start()]
    if mentions:
        return [Candidate("birthday", sentence[mentions[0].start:mentions[0].end])]
    holidays = [(m, name) for m, name in find_holidays(sentence) if m.start >= match.start()]
    if holidays:
        when, name = holidays[0]
        return [Candidate("birthday", f"{format_month_day(when.month, when.day, False)} ({name})")]
    return []


def english_facts(text: str) -> list[Candidate]:
    """Return the personal facts stated in one English user message."""
    found: list[Candidate] = []
    for sentence in _sentences(text):
        found += _birthday(sentence)
        for subject, pattern in _RULES:
            for match in pattern.finditer(sentence):
                if _negated(sentence, match.start()) or _about_other(sentence, match.start()):
                    continue
                if subject == "workplace" and only_about_others(sentence[:match.start()]):
                    continue  # "my sister works at a bakery called Crumbs"
                value = _clean(match.group("v"))
                if not _ok(value, max_words=10 if subject == "goal" else 6):
                    continue
                if subject == "occupation" and not is_occupation_en(value):
                    continue
                if subject == "name" and value.lower() in _NOT_NAMES:
                    continue
                if subject == "hobby" and "learning" in pattern.pattern:
                    value = f"learning {value}"
                if subject == "major" and pattern.pattern.endswith(r"major\b") and len(value.split()) > 3:
                    continue
                if subject == "nickname":
                    request = bool(re.search(r"\bcall me\b", match.group(0), re.I))  # not "everyone calls me"
                    found.append(Candidate("nickname", value, request=request))
                    continue
                if subject == "age" and not value.isdigit():
                    value = str(english_number(value) or value)
                if subject in _LIST_SUBJECTS:
                    found += [Candidate(subject, part) for part in _LIST_SPLIT.split(value) if _ok(part)]
                    continue
                if subject == "dream_job" and not is_occupation_en(value):
                    found.append(Candidate("goal", value, label="Dream"))
                    continue
                found.append(Candidate(subject, value.upper() if subject in {"mbti", "blood_type"} else value))
        left = _LEFT_JOB.search(sentence)
        if left and not any(c.subject == "occupation" for c in found) and is_occupation_en(_clean(left.group("v") or left.group("v2"))):
            found.append(Candidate("occupation", f"former {_clean(left.group('v') or left.group('v2'))} (leaving)"))
        if _QUIT_PART_TIME.search(sentence) and not any(c.subject == "part_time_job" for c in found):
            found.append(Candidate("part_time_job", "none (quit)"))
        found += _preferences(sentence)
        found += _household(sentence)
        found += _traits(sentence)
    found += _pets(text)
    found += _greeting_from(text)
    found += _city_complaint(text) if not any(c.subject == "residence" for c in found) else []
    found += _food_fave_it(text, found)
    found += _family_news(text)
    found += _intro_list(text, found)
    found += _role_at(text, found)
    found += _teaches(text, found)
    found += _doing_for_work(text, found)
    found += _bare_occupation(text, found)
    return _name_partner(text, found)


# "I am mechanical engineer in paint shop", "im nurse at seoul hospital": a job said without its article (learners
# of English, texting); only a value the occupation lexicon knows.
_I_AM_BARE = re.compile(_I_AM + r"(?P<v>[a-z][a-z -]{2,40}?)(?=\s+(?:in|at|for|on)\s|\s*[.,!?;]|\s*$)", re.I)


# "ellie. 31, primary teacher, currently lying on my kitchen floor": an introduction as a list, age first
_INTRO_LIST = re.compile(r"(?:^|[.!?]\s+|^[A-Za-z]+[.,!]\s+)(?P<age>1[3-9]|[2-8]\d)\s*,\s*(?P<job>[a-z][a-z -]{2,40}?)"
                         r"\s*(?:[,.!]|$|\s+(?:at|for|in)\s+)", re.I)


# "i teach spin full time now", "teaching yoga for a living": what one teaches for work
_TEACHES_FOR_WORK = re.compile(r"\b(?:i\s+(?:now\s+)?teach|i'?m\s+teaching|teaching)\s+(?P<what>[a-z]+(?:\s+[a-z]+)?)\s+"
                               r"(?:full[\s-]time|part[\s-]time|for\s+a\s+living|as\s+(?:a|my)\s+job)\b", re.I)


# "i'm tutoring english online now", "freelance translating now": work told by what one does, with a word that makes it
# work (freelance, online, for a living, full time); the occupation is the doer of the verb when the lexicon knows it
# (tutoring → tutor, translating → translator, bartending → bartender).
_DOING_FOR_WORK = re.compile(
    r"(?:^|[.!?,]\s*|\b(?:i'?m|im|i\s+am|now|officially)\s+)(?:(?:now|officially|also)\s+)?"
    r"(?:(?P<lead>freelance|full[\s-]time|part[\s-]time)\s+)?(?P<verb>[a-z]{3,}?)ing\b"
    r"(?P<rest>(?:\s+(?!now\b|for\b)[a-z]+){0,3}?)"
    r"(?P<tail>\s+(?:online|from\s+home|freelance|full[\s-]time|part[\s-]time|for\s+a\s+living|professionally"
    r"|for\s+work|as\s+(?:a|my)\s+job))?\s+now\b", re.I)


def _doer(verb: str) -> str:
    """The occupation named by the doer of `verb` (a gerund's stem: "tutor", "translat", "bartend"), or ''."""
    for doer in (verb, f"{verb}er", f"{verb}or", f"{verb}e", f"{verb}r", f"{verb}ant", f"{verb[:-1]}er"):
        if is_occupation_en(doer):
            return doer.lower()
    return ""


def _doing_for_work(text: str, found: list[Candidate]) -> list[Candidate]:
    if any(c.subject == "occupation" for c in found):
        return []
    for match in _DOING_FOR_WORK.finditer(text):
        if not (match.group("lead") or match.group("tail")) or _about_other(text, match.start("verb")):
            continue  # "i'm cooking dinner now" is no job: nothing says it is work
        doer = _doer(match.group("verb").lower())
        if doer:
            return [Candidate("occupation", f"{match.group('lead').lower()} {doer}" if match.group("lead") else doer)]
    return []


def _teaches(text: str, found: list[Candidate]) -> list[Candidate]:
    match = _TEACHES_FOR_WORK.search(text)
    if not match or any(c.subject == "occupation" for c in found) or _about_other(text, match.start()) \
            or re.search(r"\b(?:he|she|they|his|her|their|my\s+\w+)\b[^.!?]*$", text[:match.start()], re.I):
        return []  # "my sister is teaching yoga full time" is hers
    return [Candidate("occupation", f"{match.group('what').strip()} teacher")]


# "ya!!! sous chef at alma.", "keeper aide at the columbus zoo.": a sentence that is only a role at a place (the
# answer to "what's the job?", or a new job told in a fragment)
_ROLE_AT = re.compile(r"(?:^|[.!?]\s+)(?:(?:ya+|yeah|yes+|yep|ok|okay|so|now|officially|and)\W+)*"
                      r"(?!(?:i|im|i'm|my|he|she|they|we|you|his|her|their)\b)(?P<job>[a-z][a-z -]{2,30}?)"
                      r"\s+(?:at|@)\s+(?:the\s+)?(?P<place>[\w&'][\w&' -]{1,40}?)" + _BOUNDARY, re.I)


def _role_at(text: str, found: list[Candidate]) -> list[Candidate]:
    match = _ROLE_AT.search(text)
    if not match or not is_occupation_en(match.group("job").strip()) or len(match.group("job").split()) > 4 \
            or only_about_others(text[:match.start("job")]) or text[match.end():].lstrip().startswith("?"):
        return []
    out = [] if any(c.subject == "occupation" for c in found) else [Candidate("occupation", match.group("job").strip())]
    place = _clean(match.group("place"))
    return out + ([] if any(c.subject == "workplace" for c in found) or not _ok(place) or len(place.split()) > 4
                  else [Candidate("workplace", place)])


def _intro_list(text: str, found: list[Candidate]) -> list[Candidate]:
    match = _INTRO_LIST.search(text)
    if not match or not is_occupation_en(match.group("job").strip()) or len(match.group("job").split()) > 4:
        return []
    out = [] if any(c.subject == "age" for c in found) else [Candidate("age", match.group("age"))]
    return out + ([] if any(c.subject == "occupation" for c in found)
                  else [Candidate("occupation", match.group("job").strip())])


_NOT_A_JOB_LEAD = re.compile(r"(?:gonna|going|about|trying|just|so|also|not|still|getting|starting|heading|done|off|"
                             r"literally|basically|like|such|kinda|sorta|gotta|tryna|finna)\b", re.I)


def _bare_occupation(text: str, found: list[Candidate]) -> list[Candidate]:
    if any(c.subject == "occupation" for c in found):
        return []
    for match in _I_AM_BARE.finditer(text):
        value = _clean(match.group("v"))
        if _NOT_A_JOB_LEAD.match(value):
            continue  # "im gonna cook for her" does something, it is not a cook
        if is_occupation_en(value) and len(value.split()) <= 4:
            return [Candidate("occupation", value)]
    return []


# "austin heat is killing me", "the traffic in denver is insane": a known city's daily life, said as home.
_CITY_LIFE = re.compile(rf"(?:^|[.!?,]\s*|\b(?:this|the|ugh|man|god|omg)\s+)(?P<v>{_CITY_WORD})\s+(?:heat|weather|humidity|"
                        rf"traffic|rent|winters?|summers?|pollen|allergies|drivers|parking|prices)\s+(?:is|are|has\s+been|"
                        rf"have\s+been)\b|\b(?:here\s+in|back\s+home\s+in|living\s+in\s+(?:the\s+)?(?:middle\s+of\s+)?)"
                        rf"\s*(?P<v2>{_CITY_WORD})\b", re.I)


def _city_complaint(text: str) -> list[Candidate]:
    match = _CITY_LIFE.search(text)
    if not match or re.search(r"\b(?:visit|visiting|trip|vacation|flight|flying|layover|was in|went to)\b", text, re.I):
        return []
    value = match.group("v") or match.group("v2")
    return [Candidate("residence", value.title() if value.islower() else value)]


# "ramen. it's literally my fave food", "tonkotsu forever": a favourite food named before "it's" or by itself.
_IT_FAVE = re.compile(r"\b(?:it'?s|that'?s|its|thats|they'?re)\s+(?:\w+\s+)?my\s+(?:all[- ]time\s+|absolute\s+|number\s+one\s+"
                      r"|#1\s+)?fav(?:ou?rite|e)?\s+(?P<topic>food|dish|meal|snack|thing\s+to\s+eat)\b", re.I)
_FOREVER = re.compile(r"^\W*(?P<v>[a-z][a-z -]{1,30}?)\s+(?:forever|for life|supremacy|4\s*life|or nothing)\b", re.I)
_FOOD_WORD = "|".join(sorted((re.escape(f) for f in FOODS_EN), key=len, reverse=True))
_FOOD_IN = re.compile(rf"\b(?:[a-z]+\s+)?(?:{_FOOD_WORD})\b", re.I)


def _food_fave_it(text: str, found: list[Candidate]) -> list[Candidate]:
    if any(c.subject == "favorite_food" for c in found):
        return []
    match = _IT_FAVE.search(text)
    if match:
        foods = [m.group(0) for m in _FOOD_IN.finditer(text[:match.start()])]
        if foods:
            food = foods[-1]
            base = in_list(food, FOODS_EN)
            value = food if base and food.lower() != base and not re.match(
                r"(?:i|a|an|the|my|love|eat|ate|had|some|about|for|and|but|of|is|was)\s", food, re.I) else base
            return [Candidate("favorite_food", value or food)]
    match = _FOREVER.search(text)
    if match and in_list(_clean(match.group("v")), FOODS_EN):
        return [Candidate("favorite_food", _clean(match.group("v")))]
    return []


# "my sister maya is pregnant!! due in september": news in the user's family, kept in the user's words.
_FAMILY_NEWS = re.compile(r"\bmy\s+(?:(?:big|little|older|younger|baby|twin)\s+)?(?P<who>sister|brother|mom|mum|mother|dad|father|"
                          r"cousin|aunt|uncle|grandma|grandpa|grandmother|grandfather|parents|sis|bro|niece|nephew"
                          r"|sister-in-law|brother-in-law|daughter|son)(?:\s+(?P<name>[A-Za-z][\w'-]+))?\s+"
                          r"(?:is|'s|just|got|finally|and\s+her\s+\w+|and\s+his\s+\w+)\s*(?:\w+\s+){0,2}?"
                          r"(?P<what>pregnant|expecting|having\s+a\s+baby|engaged|married|getting\s+married|had\s+(?:a|the|her)"
                          r"\s+baby|gave\s+birth|graduat(?:ed|ing)|retir(?:ed|ing)|passed\s+away|divorced)\b", re.I)


def _family_news(text: str) -> list[Candidate]:
    match = _FAMILY_NEWS.search(text)
    if not match or _negated(text, match.start("what")):
        return []
    start = match.start() + 3  # drop "my "
    rest = re.split(r"(?<=[.!?…])\s+(?=[A-Za-z])(?![^.!?…]*\b(?:due|aunt|uncle|baby|wedding)\b)", text[start:])[0]
    value = re.sub(r"\s+", " ", re.sub(r"([!?.])\1+", r"\1", rest)).strip(" !.…")
    name = match.group("name")
    if name and name.lower() not in {"is", "just", "got", "finally", "and"}:
        value = value.replace(name, name[0].upper() + name[1:], 1)
    return [Candidate("family_news", value[:160])]


_GREETING_FROM = re.compile(r"^\W*(?:h+i+|he+y+|hello+|greetings|howdy|yo+)\W*(?:\w+\W+)?from\s+"
                            r"(?P<v>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)?)(?=\s*(?:[^\w\s]|$))", re.I)
_ARRIVED = re.compile(r"\b(?:made it|moved|arrived|landed|new (?:place|home|apartment|city)|settled in|finally here|"
                      r"home now|unpack(?:ing|ed)?|move(?:d)? in)\b", re.I)


def _greeting_from(text: str) -> list[Candidate]:
    """"hiii from DENVER!! we made it": a greeting from a new home after a move."""
    match = _GREETING_FROM.search(text)
    if not match or not _ARRIVED.search(text[match.end():]):
        return []
    value = _clean(match.group("v"))
    return [Candidate("residence", value)] if _ok(value, max_words=3) else []


_THEIR_NAME = re.compile(r"\b(?:her|his|their)\s+name(?:'s|\s+is)\s+(?P<name>[A-Za-z][\w'-]+)", re.I)


def _name_partner(text: str, found: list[Candidate]) -> list[Candidate]:
    """"her name is jordan… we made it official": the new partner's name joins the dating status."""
    match = _THEIR_NAME.search(text)
    if not match or match.group("name").lower() in _NOT_NAMES | {"is", "was"}:
        return found
    name = match.group("name")
    name = name[0].upper() + name[1:]
    return [Candidate(c.subject, f"{c.value} with {name}", c.request, c.label)
            if c.subject == "dating_status" and not re.search(r"single|broke|no\b|n't", c.value, re.I)
            and name.lower() not in c.value.lower() else c for c in found]


# "new fave is birria", "my new favorite is X", "X is my new obsession": a changed favourite, topic optional.
_NEW_FAVORITE = re.compile(rf"\b(?:my\s+)?new\s+(?:all[- ]time\s+)?(?:fav(?:ou?rite|e)?|obsession)\s+"
                           rf"(?:(?P<topic>[a-z]{{2,12}}(?:\s+[a-z]{{2,12}})?)\s+)?(?:is|=|:|'s)\s+{_VALUE}{_BOUNDARY}", re.I)
_NEW_FAVORITE_AFTER = re.compile(r"\b(?P<v>(?:[A-Za-z0-9][\w'&-]*\s+){0,2}?[A-Za-z0-9][\w'&-]*)\s+(?:is|are)\s+"
                                 r"(?:officially\s+|now\s+)?my\s+new\s+(?:fav(?:ou?rite|e)?|obsession)"
                                 r"(?:\s+(?P<topic>[a-z]{2,12}))?(?=\s*(?:[.,!?;]|$))", re.I)
# Words a value caught before "is my new fave" starts with that are not the value ("ngl birria tacos").
_LEAD_FILLER = re.compile(r"^(?:(?:ngl|tbh|honestly|and|but|so|now|like|lol|ok|okay|also|yeah|then|i\s+think)\s+)+", re.I)
UNRESOLVED_FAVORITE = "favorite_"  # local.py picks the subject from the conversation


def _new_favorite(sentence: str) -> list[Candidate]:
    found = []
    for match in list(_NEW_FAVORITE.finditer(sentence)) + list(_NEW_FAVORITE_AFTER.finditer(sentence)):
        value = _LEAD_FILLER.sub("", _clean(match.group("v")))
        if not _ok(value) or value.lower() in {"this", "that", "it"}:
            continue
        topic = match.groupdict().get("topic") or ""
        typed = _type_subject(value) or ("favorite_food" if in_list(value, FOODS_EN) else "")
        subject = _favorite_subject(topic) if topic else (typed or UNRESOLVED_FAVORITE)
        found.append(Candidate(subject, value))
    return found


def _preferences(sentence: str) -> list[Candidate]:
    found = _new_favorite(sentence)
    if found:
        return found
    for match in _FAVORITE.finditer(sentence):
        value = _clean(match.group("v"))
        if _ok(value) and not _about_other(sentence, match.start()):
            found.append(Candidate(_favorite_subject(match.group("topic")), value))
    for match in _FAVORITE_AFTER.finditer(sentence):
        value = _clean(match.group("v"))
        if _ok(value) and value.lower() not in {"this", "that", "it", "he", "she", "they"}:
            found.append(Candidate(_favorite_subject(match.group("topic")), value))
    for match in _LIKE.finditer(sentence):
        if _about_other(sentence, match.start()) or sentence.rstrip().endswith("?"):
            continue
        verb = match.group("verb").lower()
        for value in _LIST_SPLIT.split(_clean(match.group("v"))):
            value = _clean(value)
            if not _ok(value, max_words=5) or value.lower() in {"you", "it", "that", "this", "him", "her", "them"}:
                continue
            if verb in {"hate", "can't stand", "cant stand", "dislike", "don't like", "dont like"}:
                found.append(Candidate("dislikes", value))
                continue
            typed = _type_subject(value)
            if re.match(r"^(?:to\s+)?\w+ing\b|^to\s+\w+", value, re.I):
                found.append(Candidate("hobby", re.sub(r"^to\s+", "", value)))
            elif typed:
                found.append(Candidate(typed, value))
            else:
                found.append(Candidate("likes", value))
    for match in _PLAY.finditer(sentence):
        value = _clean(match.group("v"))
        if in_list(value, SPORTS_EN) and not _negated(sentence, match.start()):
            found.append(Candidate("sport", value))
    for match in _HOBBY_DO.finditer(sentence):
        value = _clean(match.group("v"))
        if _ok(value) and not in_list(value, SPORTS_EN):
            found.append(Candidate("hobby", value))
    if _GYM.search(sentence) and not _negated(sentence, _GYM.search(sentence).start()):
        found.append(Candidate("sport", "gym"))
    for match in _SPORT_VERB.finditer(sentence):
        found.append(Candidate("sport", SPORT_VERBS_EN[match.group("v").lower()]))
    return found


def _pets(text: str) -> list[Candidate]:
    """A pet over the whole message: "I just got a puppy! His name is Mochi"."""
    for match in list(_PET.finditer(text)) + list(_PET_NAME.finditer(text)) + list(_PET_NAMED.finditer(text)) \
            + list(_PET_IS.finditer(text)):
        if _negated(text, match.start()) or re.match(r"\s*(?:allerg|phobia)", text[match.end():]):
            continue
        if re.search(r"\b(?:he|she|they|friend|brother|sister|mom|dad|neighbou?r)\s+(?:has|have|had|got)\s+$",
                     text[:match.start()], re.I):
            continue  # "my friend has a cat named Tom"
        kind = _clean(match.group("kind"))
        name = match.group("name") or ""
        if not name:
            named = re.search(r"\b(?:named|called|name is|name's)\s+([A-Z][\w'-]*)", text[match.end():])
            name = named.group(1) if named else ""
        breed = _BREED_EN.search(text)
        value = f"{kind} {name}".strip()
        if breed and breed.group("breed").lower() not in kind.lower():
            value += f" ({breed.group('breed')})"
        return [Candidate("pet", value)]
    return []


def _household(sentence: str) -> list[Candidate]:
    found = []
    for match in _SIBLINGS.finditer(sentence):
        named = re.match(r"\s+(?:named|called)\s+([A-Z][\w'-]*)", sentence[match.end():])
        found.append(Candidate("sibling", _clean(match.group("v")) + (f" ({named.group(1)})" if named else "")))
    for match in _FAMILY.finditer(sentence):
        members = [m.lower() for m in _FAMILY_TERMS.findall(sentence)]
        value = match.group("v")
        value = re.sub(r"^i'?m\s+", "", value, flags=re.I)
        found.append(Candidate("family", f"{value} ({', '.join(dict.fromkeys(members))})" if members else value))
    return found


def _traits(sentence: str) -> list[Candidate]:
    found = []
    match = _DATING.search(sentence)
    partner = re.search(r"(?:dating|seeing)\s+(\w+)$", match.group("v"), re.I) if match else None
    if partner and (partner.group(1).casefold() in _NO_PARTNER_EN or partner.group(1).casefold() in FOODS_EN):
        match = None  # "I'm dating bread right now": a joke about being single
    if match and not _negated(sentence, match.start()):
        value = re.sub(r"^(?:i'?m|i|we)\s+", "", match.group("v"), flags=re.I)
        if re.search(r"broke up|got dumped", value, re.I):
            value = "single (recently broke up)"
        elif re.search(r"\bsingle\b|\bno\s+(?:bf|gf|boy|girl|partner|s\.?o)|not\s+(?:seeing|dating|with|talking)", value, re.I) \
                and not re.search(r"don'?t|do not", value, re.I):
            value = "single"
        elif re.search(r"official|together|a couple|exclusive|said yes|asked me out|agreed|got a|^we'?re\s+dating",
                       value, re.I):
            value = "in a relationship (new)"
        elif re.match(r"(?:just\s+|recently\s+)?(?:started|began)", value, re.I):
            partner = re.search(r"(?:dating|seeing)\s+(\w+)", value)
            value = f"dating {partner.group(1) if partner else 'someone'} (new relationship)"
        found.append(Candidate("dating_status", value))
    match = _PARTNER_NAMED.search(sentence)
    if match and not re.search(r"\bex\b|former", sentence[:match.start()], re.I) \
            and not any(c.subject == "dating_status" for c in found):
        found.append(Candidate("dating_status", f"{match.group('who')} {match.group('name')}"))
    match = _DIET.search(sentence)
    if match and not _negated(sentence, match.start()):
        found.append(Candidate("diet", (match.group("v") or match.group("v2")).lower()))
    match = _ZODIAC.search(sentence)
    if match:
        found.append(Candidate("zodiac", match.group("v").capitalize()))
    match = _HANDED.search(sentence)
    if match:
        found.append(Candidate("handedness", match.group("v").replace("a lefty", "left-handed")))
    match = _SMOKING.search(sentence)
    if match:
        value = (match.group("v") or match.group("v2") or "").lower().replace("'m ", "").replace("am ", "")
        found.append(Candidate("smoking", value))
    match = _TATTOO.search(sentence)
    if match and not _negated(sentence, match.start()):
        found.append(Candidate("tattoo", _clean(match.group("v"))))
    return found
