"""The character's side of the conversation (seed 002 §5 v2): what the character said, as its own memories.

An assistant turn is never read for facts about the user: it is kept, whole and masked, as one memory
spoken by the character (`ExtractedFact.speaker = "character"`), classified by the rules below:
- `promise`: the character committed to something ("스트레칭 체크해줄게", "I'll remind you on Sundays",
  "let's …");
- `self`: the character told the user about itself or its people ("우리 언니는 제주도 살아", "my brother studies
  in Osaka", "I love Burning");
- `said`: anything else with content (both sides of a conversation between people are retrievable);
and skipped when it is a question, a hypothetical, role-play, or chatter.

The rules are data: each table row is (rule name, pattern); the guards are applied once, by `classify`.
The same tables say when the user is asking about what the character said (`asks_character`), which
retrieval turns into a boost.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .base import ChatTurn, ExtractedFact
from .corrections import find_correction
from .guards import is_hypothetical
from .lexicon import is_korean
from .salience import is_chatter, is_salient, mask_raw_pii
from .whose import ANSWERED_MARK, own_subject_asked

PROMISE, SELF, SAID, STORY = "promise", "self", "said", "story"
IMPORTANCE = {PROMISE: 7, SELF: 5, SAID: 3, STORY: 2}
CATEGORY = {PROMISE: "promise", SELF: "other", SAID: "other", STORY: "other"}  # memories.categories.MemoryCategory
# The character's lines inside a role-play the user started: the story's own facts ("제 스승님, 대마법사 오르웬께서
# 사라지셨어요"), kept so the story can go on, marked so nobody reads them as real — never about the user or the
# character's real life.
STORY_MARK = "(역할극) "
STORY_MIN_CHARS = 10
# The user talking about the story itself ("우리 이야기 어디서부터 하자고 했지?", "let's continue the rp"): then the
# story's lines may take the character's places in the block; otherwise one at most.
STORY_TALK = (r"이야기|얘기\s*(?:이어|계속)|역할극|롤플|상황극|스토리|장면|이어(?:서|가|하)|설정|\bstory\b|role-?\s?play|"
              r"(?<![A-Za-z])rp(?![A-Za-z])|\bscene\b|\bcampaign\b|\bquest\b")
_STORY_TALK = re.compile(STORY_TALK, re.I)


def talks_about_story(message: str) -> bool:
    return bool(_STORY_TALK.search(message or ""))
MAX_CHARS = 1000

# Commitments: the character says it will do something for or with the user.
PROMISE_RULES: tuple[tuple[str, str], ...] = (
    ("ko_will_do_for_you", r"[가-힣]\s?줄(?:게|께)"),  # 체크해줄게, 알려줄께, 지켜 줄게
    ("ko_will", r"[{rieul}](?:게|께)(?:요)?(?![가-힣])"),  # 할게, 갈게요, 읽을게, 보낼께: a syllable ending in ㄹ + 게
    ("ko_promise_word", r"약속(?:할게|해|했|이야|한다|할께|해요)"),
    ("ko_lets", r"(?:하|가|보|먹|읽|뛰|걷|만나|해보)자(?:[!~.ㅎㅋ\s]|$)"),
    ("ko_honorific_will", r"(?:드릴게요|드릴께요|해드릴|알려드릴|챙겨드릴|보내드릴)"),
    ("en_will", r"\bI(?:'ll| will| am going to|'m going to| promise)\b"),
    ("en_lets", r"\blet'?s\b(?! see| be honest)"),
    ("en_deal", r"\b(?:deal|it's a promise|pinky promise|count on me)\b"),
)

# The character about itself, its family, friends, pets, likes and history.
SELF_RULES: tuple[tuple[str, str], ...] = (
    ("ko_first_person", r"(?:^|[\s,.!?~])(?:나는|난|내가|나도|저는|전|제가|저도|나|저)\s"),
    ("ko_my_people", r"(?:우리|내|제)\s*(?:언니|오빠|누나|형|동생|엄마|아빠|할머니|할아버지|가족|친구|강아지|고양이|집)"),
    ("ko_my_thing", r"(?:내|제)\s*(?:인생|최애|취미|꿈|고향|전공|논문|일|직업)"),
    ("en_i_am", r"\bI(?:'m| am| was| have|'ve| had| used to| grew up| live| love| like| hate| study| work)\b"),
    ("en_my_people", r"\bmy\s+(?:sister|brother|mom|mother|dad|father|grand(?:ma|mother|pa|father)|family|friend|"
                     r"dog|cat|home|hometown|thesis|favorite|favourite)\b"),
    ("en_me_too", r"\b(?:me too|same here|for me)\b"),
)

# Guards: a sentence that is a question, a supposition or a quoted line is no statement of the character.
QUESTION_GUARD = r"\?[\sㅎㅋ~!.]*$|(?:니|냐|나요|어때|할래|볼래|줄래|뭐야|뭔데|어디야)[\sㅎㅋ~!.]*$"
# A statement closed by a tag question stays a statement ("I'll remind you on Sunday, okay?", "내가 깨워줄게 알았지?").
TAG_QUESTION = r"[,\s]*(?:okay|ok|right|yeah|deal|alright|got it|sound good|알았지|알겠지|괜찮지|좋지|콜|어때|그치)\s*\?+[\sㅎㅋ~!.]*$"
SENTENCE_SPLIT = r"(?<=[.!?…~])\s+|\n+"

# The user asking what the character said: reported speech ("…다고 했지?", "you said …") aimed at the character,
# i.e. with the character addressed (a second-person word, "your X", or its name).
ASKS_SAID_RULES: tuple[tuple[str, str], ...] = (
    ("ko_reported", r"(?:다고|라고|자고|냐고|준다고|한다고|간다고)\s*(?:했|하셨|그랬|말했|안\s*했)|"
                    r"(?:했|그랬|말했|하셨)(?:었)?(?:지|죠|잖아|더라|는데|나)|랬(?:었)?(?:지|죠|잖아|더라|어|나)|약속"),
    ("en_reported", r"\b(?:you|u|ya)\b[^.?!]{0,30}\b(?:said|told|promised|mentioned|recommended|suggested|put\s+aside|"
                    r"set\s+aside|saved|picked|offered|gave|showed|taught|shared|sent|came\s+up\s+with)\b|\b(?:you|u)'?d\b|\bwhat\s+did\s+(?:you|u|ya)\b|"
                    r"\b(?:were|did)\s+(?:you|u)\b|\b(?:you|u)\s+(?:were|used to|love|loved|like)\b"),
)
ADDRESSES_CHARACTER_RULES: tuple[tuple[str, str], ...] = (
    ("ko_you", r"(?:^|\s)(?:너|넌|너는|너가|네가|니가|니|너도|너네|너희)(?:\s|$)|(?:^|\s)(?:네|니)\s*(?:언니|오빠|누나|형|"
               r"동생|엄마|아빠|할머니|할아버지|가족|친구|고향|최애|인생)"),
    # "your X"/"ur X" in a message to the character is the character's X, whatever X is ("ur birthday", "ur shop")
    ("en_your", r"\b(?:your|ur|yr)\s+(?!welcome\b|own\b|business\b)[a-z]|\bwhere\s+are\s+(?:you|u)\s+from\b"
                r"|\b(?:you|u)\s+and\s+(?:your|ur)\b"),
    # what the two did together ("the first book we did for our club"): the character's side of it
    ("en_we", r"\b(?:we|our)\s+(?:did|read|watched|made|planned|picked|started|agreed|decided|chose|set|said|talked|lil|"
              r"little|own|book|club|plan|trip|deal|promise|list)\b|\bdid\s+we\s+(?:say|decide|agree|pick|plan|choose|set)\b"
              r"|\bour\s+(?:\w+\s+)?(?:thing|routine|ritual|deal|plan|promise|challenge|goal)\b"),
    # the character's own doings asked about ("where are u going in november again?", "what race are u training for")
    ("en_are_you", r"\b(?:are|will)\s+(?:you|u|ya)\b"),
    ("en_reported", ASKS_SAID_RULES[1][1]),  # "you said …" addresses the character too
)
# What only the character can have done for the user, asked about without naming it: a recommendation or an
# instruction reported back ("불안할 때 해보라고 했던 그 방법", "허리 아플 때 하라던 운동", "추천해준 드라마", "the book you
# recommended"). Counts as asking what the character said even with no "너"/"your" in the sentence.
IMPLIES_CHARACTER = (r"(?:하|해|보|봐|먹|읽|가|써|들어|들|두|챙기|마시|사|입|자|쉬|찾)(?:보)?(?:으)?라(?:고\s*(?:했|하셨|그랬"
                     r"|한(?![가-힣]))|던|며|구\s*했)"
                     r"|(?:추천|소개|권)(?:해)?\s*(?:준|줬|주신|주셨|해준|해줬|해주신)|알려\s*(?:준|줬|주신|주셨)|가르쳐\s*(?:준|줬)"
                     r"|(?:주|줄|드리|해주|골라주|보내주|만들어주)기로\s*(?:했|하셨|약속)"  # "뭐 주기로 했었죠?": the character's
                     # "뭐 준다고 했었지?", "아침마다 챙겨준다고 한 거": a promise to the user, reported back
                     r"|(?:준|해준|챙겨준|만들어준|알려준|보내준|사준|골라준)다고\s*(?:했|한(?:거|게|(?![가-힣]))|하셨)"
                     # what the two agreed on ("우리 둘이서 하기로 한 거", "우리 같이 보기로 한 영화")
                     r"|우리(?!\s*(?:엄마|아빠|가족|애|아이|남편|아내|와이프|딸|아들|집|회사|팀|반|학교|동네))\s*"
                     r"(?:[가-힣]+\s+){0,3}?(?:[가-힣]*기로\s*(?:한|정한)(?=\s*거|거|\s+[가-힣])|같이\s*하는)"
                     r"|\b(?:recommended|suggested|told\s+me\s+to|taught\s+me)\b"
                     r"|\b(?:you|u)\s+(?:set|made|gave|picked|chose|wrote|planned)\s+(?:for\s+)?me\b"
                     r"|\b(?:you|u)\s+got\s+me\s+(?:hooked\s+on|into)\b|\b(?:you|u)\s+introduced\s+me\s+to\b")
# The user asking about their own words or things: "유나야 나 어디 산다고 했었지?", "what did I tell you?",
# "mina what's my name again" — the user's memories, not the character's (unless "너"/"your" is there too).
ASKS_OWN_WORDS = r"(?:^|\s)(?:내가|제가|우리가)\s*[^?]{0,15}(?:다고|라고|했|말했|그랬)|\b(?:did I|I told you|what did I)\b"
FIRST_PERSON = (r"(?:^|\s)(?:나|저|내|제|나의|난|전|나는|저는|내가|제가|우리)(?:\s|$)|"
                r"(?:^|\s)우리(?:동네|집|딸|아들|애|엄마|아빠|회사|학교)|\b(?:my|I|I'm|me)\b")


def _compile(rules: tuple[tuple[str, str], ...]) -> tuple[tuple[str, re.Pattern], ...]:
    return tuple((name, re.compile(pattern, re.I)) for name, pattern in rules)


# Every Hangul syllable whose final consonant is ㄹ (할, 갈, 을, 낼 ...): the future "-ㄹ게" of a commitment.
RIEUL_FINAL = "".join(chr(0xAC00 + initial_medial * 28 + 8) for initial_medial in range(19 * 21))
_PROMISE = tuple((name, re.compile(pattern.replace("{rieul}", RIEUL_FINAL), re.I)) for name, pattern in PROMISE_RULES)
_SELF = _compile(SELF_RULES)
_ASKS_SAID = _compile(ASKS_SAID_RULES)
_ADDRESSES = _compile(ADDRESSES_CHARACTER_RULES)
_QUESTION = re.compile(QUESTION_GUARD)
_TAG_QUESTION = re.compile(TAG_QUESTION, re.I)
_SPLIT = re.compile(SENTENCE_SPLIT)
_OWN_WORDS = re.compile(ASKS_OWN_WORDS, re.I)
_FIRST_PERSON = re.compile(FIRST_PERSON, re.I)
_QUESTION_SPLIT = re.compile(r"(?<=[?!.])\s+")
_IMPLIES_CHARACTER = re.compile(IMPLIES_CHARACTER, re.I)


@dataclass(frozen=True)
class CharacterStatement:
    kind: str  # PROMISE | SELF | SAID | STORY
    content: str  # the masked turn
    rules: tuple[str, ...]  # the rule names that matched, for tests and debugging


def _statements(text: str) -> list[str]:
    """The sentences of a turn that state something (questions and suppositions removed)."""
    sentences = (_TAG_QUESTION.sub("", part).strip() for part in _SPLIT.split(text))
    return [s for s in sentences if s and not _QUESTION.search(s) and not is_hypothetical(s)]


def _matches(rules, sentences: list[str]) -> tuple[str, ...]:
    return tuple(name for name, pattern in rules if any(pattern.search(s) for s in sentences))


def classify(text: str, *, role_play: bool = False) -> CharacterStatement | None:
    """What one assistant turn is worth remembering as, or None (only questions, chatter); in a role-play, a line
    of the story (STORY), never a promise or a fact of its own."""
    text = (text or "").strip()
    if not text or is_chatter(text):
        return None
    sentences = _statements(text)
    if not sentences:
        return None
    content = mask_raw_pii(text)
    if role_play:
        stated = " ".join(sentences)
        # a story's lines are short and plain ("내가 검을 뽑아 들겠다"): any with some words to it
        return CharacterStatement(STORY, content, ()) if len(re.sub(r"[^\w가-힣]", "", stated)) >= STORY_MIN_CHARS else None
    promise = _matches(_PROMISE, sentences)
    if promise:
        return CharacterStatement(PROMISE, content, promise)
    own = _matches(_SELF, sentences)
    stated = " ".join(sentences)
    if not is_salient(stated, is_korean(stated)):
        return None
    return CharacterStatement(SELF if own else SAID, content, own)


_OTHER_SUBJECT = re.compile(r"(?:^|\s)(?P<who>[가-힣]{1,6})\s*(?:이|가|께서)(?=\s)|\b(?:my|his|her|their)\s+\w+\s*$|"
                            r"\b(?:he|she|they|someone|my\s+\w+)\s+(?:\w+\s+)?$", re.I)


def _someone_else(before: str, character_name: str) -> bool:
    """Whether the words before "추천해준"/"recommended" name who did it, and it is not the character."""
    if _FIRST_PERSON.search(before):
        return True
    for match in _OTHER_SUBJECT.finditer(before):
        who = match.group("who") or ""
        if not (character_name and who.startswith(character_name)) and who not in {"너", "니", "네", "당신"}:
            return True
    return False


def asks_character(message: str, character_name: str = "") -> int:
    """How clearly the user's message asks about the character's own words: 0 no, 1 addressed, 2 asked.

    2: reported speech aimed at the character ("너 뭐 해준다고 했지?", "you said you'd …", "유나씨가 뭐 알려준다고
    했었죠?"); 1: the character or its people addressed ("your sister", "소라님도 …"); 0 otherwise, and
    when the user asks about their own words or things ("유나야 나 어디 산다고 했지?", "what's my name again").
    """
    text = message or ""
    if not text or _OWN_WORDS.search(text):
        return 0
    name = (character_name or "").strip()
    level = 0
    for sentence in _QUESTION_SPLIT.split(text):  # "유나씨 오빠분 뭐 한다고 했죠? 저 PT 받아볼까": per sentence
        second = bool(_matches(_ADDRESSES, [sentence]))
        named = len(name) >= 2 and re.search(rf"(?:^|\s){re.escape(name)}", sentence, re.I) is not None
        implied = _IMPLIES_CHARACTER.search(sentence)
        if implied and (second or named or not _someone_else(sentence[:implied.start()], name)):
            level = 2  # "불안할 때 해보라고 했던 그 방법 뭐였지?": only the character told the user that
            continue
        if not sentence.strip() or (_FIRST_PERSON.search(sentence) and not second) or not (second or named):
            continue
        level = max(level, 2 if _matches(_ASKS_SAID, [sentence]) else 1)
    return level


def users_own_subject(message: str, character_name: str = "") -> str:
    """The user's own subject the message asks about (whose.own_subject_asked), '' when it asks what the character
    said ("whats the name of that book u recommended me" asks for the character's pick, not the user's favourite)."""
    if not message or asks_character(message, character_name) >= 2:
        return ""
    return own_subject_asked(message)


def _normalise(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


# A user message the character's turn answers: a question or a request ("do u wanna do like a book club w me",
# "요즘 볼 만한 드라마 있어?"). It goes with the character's memory, which may not name what it answered.
_PROMPT = re.compile(r"\?|추천|알려|해\s*줘|할래|뭐|어때|어떡|어떻게|recommend|suggest|should\s+i|wanna|what|which|do\s+u|"
                     r"do\s+you|can\s+u|can\s+you|any\s+ideas"
                     # said to the character ("wait you have a cat", "너도 동생 있어"): the reply answers it
                     r"|\b(?:you|your|u|ur|you're|youre)\b|(?<![가-힣])(?:너|넌|너는|너도|니가|네가|너두)(?![가-힣])", re.I)
PROMPT_MAX_CHARS = 90


# The character advising or recommending ("그럼 뽀모도로 해봐!!", "you should try …"): what the user said before is
# what the advice is for ("공부하면 집중이 안됨 폰만봄"), kept with it even when it asked nothing.
_ADVICE = re.compile(r"(?:해|써|먹어|읽어|가|들어|봐)\s*봐(?:요)?(?=[\s!.~?]|$)|추천|권해|(?:하|해)는\s*(?:게|거)\s*(?:좋|어때)|"
                     r"\b(?:you\s+should|try\s+(?:the|a|an|this|some)|i\s+recommend|my\s+tip|have\s+you\s+tried|"
                     r"(?:what|how)\s+about\s+(?:a|an|the|some|trying)|i'?d\s+(?:\w+\s+)?recommend)\b", re.I)


def _tail(text: str) -> str:
    """A long message's last sentences, up to PROMPT_MAX_CHARS: what the reply answers ("… No gift idea though.
    He's impossible to shop for")."""
    if len(text) <= PROMPT_MAX_CHARS:
        return text
    sentences = [s for s in re.split(r"(?<=[.!?…~])\s+", text) if s.strip()]
    tail = ""
    for sentence in reversed(sentences):
        if len(sentence) + len(tail) + 1 > PROMPT_MAX_CHARS:
            break
        tail = f"{sentence} {tail}".strip()
    return tail


def _prompted_by(user_text: str, reply: str = "") -> str:
    text = _tail((user_text or "").strip())
    if not text or not (_PROMPT.search(text) or _ADVICE.search(reply or "")):
        return ""
    correction = find_correction(text)  # a correcting request keeps only what still holds ("만보 말고 칠천보로")
    return mask_raw_pii(correction.cleaned if correction else text)


def character_fact(turn: ChatTurn, *, role_play: bool = False, known: set | None = None,
                   prompted_by: str = "") -> ExtractedFact | None:
    """The assistant turn as the character's own memory (speaker "character"), or None.

    Used by both extractors (local and Gemini): the character's side does not depend on which one runs.
    `known` (normalised contents already emitted) drops a turn said twice in one batch. `prompted_by`: the user's
    message right before; a short question or request is kept with the reply (the neighbouring turn, issue 8 §5:
    "What if we both read Piranesi?" answers "do u wanna do like a book club w me").
    """
    statement = classify(turn.content, role_play=role_play)
    if statement is None:
        return None
    prompt = _prompted_by(prompted_by, statement.content) if statement.kind != STORY else ""
    content = (STORY_MARK if statement.kind == STORY else "") + statement.content[:MAX_CHARS] \
        + (f"{ANSWERED_MARK}{prompt})" if prompt else "")
    if known is not None:
        key = ("character", _normalise(content))
        if key in known:
            return None
        known.add(key)
    return ExtractedFact(content=content, category=CATEGORY[statement.kind], kind="episodic",
                         importance=IMPORTANCE[statement.kind], source_message_id=turn.message_id,
                         speaker="character")
