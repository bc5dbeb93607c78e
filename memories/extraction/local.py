"""The offline extractor and summarizer: kiwipiepy morphology plus patterns, deterministic, no network.

Per user message the extractor returns
- structured facts `{subject, value}` (seed 003 §16 P1/P3), with the assistant's question before the
  message as context ("그럼 키는?" → "178!" is a height);
- one episodic fact holding the message itself, unless it is chatter, so nothing the user said is lost;
- dated events ("오늘 인턴 면접 보고 왔다") and special dates (birthdays);
- behaviour rules as `avoid_topics`, never as personal facts (seed 003 §16 P2);
- identity hints: the nickname the user asked for, and the speech level (반말/존댓말) asked for or used
  consistently.
Emotions are labelled in the user's language ("피곤", "tired"); summaries use SUMMARY_EMOTIONS.
Corrections need no special case: a new value is emitted under the same subject and the writer
supersedes single-valued subjects by key; negated old values ("노원 아니고") are never emitted.
"""
from __future__ import annotations

import re
from dataclasses import replace
from collections import Counter
from datetime import date

from .base import (
    UNREAL_CONFIDENCE,
    ChatTurn,
    ConversationSummary,
    ExistingFact,
    ExtractedFact,
    ExtractionResult,
    SpecialDate,
)
from .behaviour import avoid_topics, person_in
from .candidates import Candidate, render_content
from .character_side import character_fact
from .corrections import Correction, days_alone, find_correction, is_old_value, mentions
from .guards import is_hypothetical, is_joke, is_wish
from .korean_text import clauses
from .dates import event_date, find_month_days, format_date, format_month_day
from .emotions import Emotion, detect_emotion, summary_emotion
from .english_facts import english_facts
from .events import Event, events_in, own_birthday_on
from .korean_facts import korean_facts
from .korean_preferences import type_subject as korean_type_subject
from .lexicon import OTHER_PERSON_KO, is_korean
from .morphology import content_nouns
from .news import news_subjects
from .questions import (
    asked_about_someone_else,
    asked_back,
    asked_subject,
    bare_answer,
    dangling_subject,
    first_clause,
    question_sentences,
)
from .lexicon import is_occupation_ko
from .registry import category_for_subject, is_identity_subject, is_single_valued
from .roleplay import RolePlayWindow, in_character
from .whose import ANSWERED_MARK
from .salience import (
    is_chatter,
    is_explicit,
    is_salient,
    mask_raw_pii,
    requested_speech_level,
    speech_level,
    strip_masks,
)

_JOINED_SUBJECTS = frozenset({"dating_status", "family"})  # one message may state several parts of one value
# Emotion keys (emotions.py) that make an otherwise uncategorised episode a worry.
_NEGATIVE = frozenset({"tired", "stressed", "sad", "depressed", "lonely", "anxious", "nervous", "scared", "angry"})
_MAX_EPISODE_CHARS = 1000
# What a correction that leaves nothing else to say is kept as ("나 학원 그만뒀어": the old value is not repeated).
_CORRECTED_KO = "예전에 말한 것이 이제는 아니라고 정정함"
_CORRECTED_EN = "said something they told before no longer holds"
# A fictional person the user writes or plays ("내 웹소설 여주 이름은 세레나"): their name, age... are not the user's.
_FICTION_PERSON = re.compile(r"여주|남주|주인공|(?:웹소설|소설|웹툰|만화|작품|시나리오|대본|팬픽|동화)\S{0,3}\s+(?:\S+\s+){0,3}?"
                             r"(?:이름|나이|설정)|등장인물|캐릭터|캐릭|악역|히로인|조연|\bOC\b|\bmy\s+(?:oc|character|mc)\b|"
                             r"\bprotagonist\b|\bheroine\b|\bmain\s+(?:character|char)\b|\bvillain\b|"
                             r"\b(?:novel|story|book|fic|fanfic|webtoon|manga|comic|script|screenplay)'?s?\s+"
                             r"(?:hero|lead|girl|guy)\b", re.I)
_FICTION_SUBJECTS = frozenset({"name", "nickname", "age", "birthday", "gender", "hometown", "residence", "height",
                               "weight", "blood_type", "mbti", "family", "sibling", "pet", "allergy", "phobia",
                               "dating_status", "relationship_status", "occupation", "workplace", "school",
                               "school_year", "major", "zodiac", "handedness", "tattoo"})
_NICKNAME_MAX = 50  # the identity layer's limit


def _normalise(value: str) -> str:
    return re.sub(r"\s+", "", value).lower()


_ANSWER_MAX_CHARS = 90  # a longer message says what it is about by itself
# A message opening like this moves to another topic; it answers nothing ("근데 Irvine에서 commute 너무 멀어").
_TOPIC_SHIFT = re.compile(r"^\W*(?:근데|그런데|아\s*그리고|그리고|아\s*맞다|참|암튼|아무튼|anyway|btw|by\s+the\s+way|also|oh\s+and)\b",
                          re.I)
_QUESTION_WORDS = re.compile(r"뭐(?:래|야|지|예요|에요)?|왜|어디|언제|누구|어떻게|진짜|정말|헐|대박|ㅋ+|ㅎ+|\b(?:what|why|really|huh|"
                             r"seriously|wait|omg|lol|when|where|who|how)\b", re.I)
_QUESTION_MAX_CHARS = 50
_WHEN_ASKED = re.compile(r"언제|날짜|일정|몇\s*시|며칠|요일|\bwhen\b|what\s+(?:time|day|date)|which\s+day", re.I)
# Words of a question that ask only when, how many or which day, not about what ("날짜는 잡으셨어요?", "what time?").
_GENERIC_ASKED = re.compile(r"(?:날짜|일정|시간|몇\s*시|요일|며칠)(?:는|은|이|가|도)?|(?:정하|잡으|잡았|잡혔|나왔|나오)[가-힣]*|[?.!~]|"
                            r"\b(?:date|time|day|which|is|it|the|did|you|they|set|get|got|yet|so|and)\b", re.I)


def _answered_question(context: str, text: str) -> str:
    """The character's question a short user message answers ("when is the surgery?" before "August 19 in …"), or ''
    when the character asked nothing or the message already names what was asked."""
    if not context or len(text) > _ANSWER_MAX_CHARS or _TOPIC_SHIFT.match(text):
        return ""
    asked = question_sentences(context)
    if not asked:
        return ""
    question = asked[-1].strip()
    if "*" in context or re.search(r"^\s*\(|[\"“][^\"”]{2,}[\"”]", question):
        return ""  # a line of a story ("*드래곤이 내려앉는다* 누구냐?") is asked in character
    plain = _QUESTION_WORDS.sub(" ", question)  # the question without its question words
    if _WHEN_ASKED.search(question) and not re.search(r"[가-힣]{2,}|[A-Za-z]{3,}", _GENERIC_ASKED.sub(" ", plain)):
        # "날짜는 잡으셨어요?", "when is it?" ask only when: what it is about is in the sentence before ("백내장 수술은 …")
        before = context[:context.rfind(question)].strip() if question in context else ""
        said = re.split(r"(?<=[.!?…])\s+", before)[-1].strip() if before else ""
        if said and "?" not in said and re.search(r"[가-힣]{2,}|[A-Za-z]{3,}", _QUESTION_WORDS.sub(" ", said)):
            said = said if len(said) <= _QUESTION_MAX_CHARS else "…" + said[-_QUESTION_MAX_CHARS:]
            return f"{said} {question}"
    if not re.search(r"[가-힣]{2,}|[A-Za-z]{3,}", plain):
        return ""  # "뭐래?", "really?": a reaction, not a question the message answers
    words = {w[:2] if re.match(r"[가-힣]", w) else w for w in re.findall(r"[가-힣]{2,}|[A-Za-z]{4,}", question.casefold())}
    if words and sum(1 for w in words if w in text.casefold()) >= max(1, len(words) // 2):
        return ""  # "고향이 어디야?" → "고향은 대구야": the answer repeats the question
    return question if len(question) <= _QUESTION_MAX_CHARS else "…" + question[-_QUESTION_MAX_CHARS:]


def _code_switched(text: str) -> bool:
    """A message in both languages: at least three Hangul syllables and three English words."""
    return len(re.findall(r"[가-힣]", text)) >= 3 and len(re.findall(r"[A-Za-z]{2,}", text)) >= 3


def _language_is_korean(text: str, context: str) -> bool:
    if re.search(r"[가-힣A-Za-z]", text):
        return is_korean(text)
    return is_korean(context) if re.search(r"[가-힣A-Za-z]", context) else True


def _merge(candidates: list[Candidate]) -> list[Candidate]:
    """One value per single-valued subject (the last stated wins; parts of a status are joined),
    distinct values for the others."""
    merged: dict[str, list[Candidate]] = {}
    for candidate in candidates:
        value = candidate.value.strip()
        if not value:
            continue
        candidate = Candidate(candidate.subject, value, candidate.request, candidate.label)
        kept = merged.setdefault(candidate.subject, [])
        if is_single_valued(candidate.subject):
            if not kept:
                kept.append(candidate)
            elif candidate.subject in _JOINED_SUBJECTS and _normalise(value) not in _normalise(kept[0].value):
                kept[0] = Candidate(candidate.subject, f"{kept[0].value}, {value}", kept[0].request, kept[0].label)
            elif _normalise(kept[0].value) in _normalise(value) or _normalise(value) not in _normalise(kept[0].value):
                kept[0] = Candidate(candidate.subject, value, candidate.request or kept[0].request, candidate.label)
            continue
        if any(_normalise(value) in _normalise(other.value) for other in kept):
            continue
        kept[:] = [other for other in kept if _normalise(other.value) not in _normalise(value)] + [candidate]
    named = {_normalise(c.value) for subject, group in merged.items() if subject != "likes" for c in group}
    merged["likes"] = [c for c in merged.get("likes", []) if _normalise(c.value) not in named]
    return [c for group in merged.values() for c in group]


_FAVORITE_CUES = (
    ("favorite_food", re.compile(r"음식|먹|메뉴|맛집|요리|\b(?:food|eat|eating|ate|dish|meal|restaurant|taco|tacos|cook)", re.I)),
    ("favorite_artist", re.compile(r"아이돌|가수|멤버|최애\s*멤|노래|앨범|덕질|입덕|\b(?:idol|bias|singer|band|artist|stan|"
                                   r"member|album|song|concert)", re.I)),
    ("favorite_drink", re.compile(r"음료|커피|술|\b(?:drink|coffee|beer|wine|tea)\b", re.I)),
    ("favorite_movie", re.compile(r"영화|\b(?:movie|film)s?\b", re.I)),
    ("favorite_show", re.compile(r"드라마|예능|\b(?:show|series|drama)\b", re.I)),
    ("favorite_game", re.compile(r"게임|\bgames?\b", re.I)),
    ("favorite_book", re.compile(r"책|소설|\b(?:book|novel)s?\b", re.I)),
)


def _resolve_favorite(value: str, context: str, previous: str, favorites: list[str], korean: bool) -> str:
    """The subject of a changed favourite that names no topic ("최애 바뀜 이제 해린", "new fave is birria"):
    the topic of the conversation just before, else the favourite last stored, else an idol/artist (Korean).
    In Korean "최애" is a person first: a value that is no food is not a favourite food or drink."""
    typed = korean_type_subject(value) if korean else ""
    if typed and typed != "sport":
        return typed
    subject = ""
    for text in (context, previous):
        for cue_subject, cue in _FAVORITE_CUES:
            if text and cue.search(text):
                subject = cue_subject
                break
        if subject:
            break
    subject = subject or (favorites[-1] if favorites else "")
    if korean and (not subject or subject in {"favorite_food", "favorite_drink"}):
        return "favorite_artist"  # "최애 바뀜 이제 해린": an idol, whatever was eaten before
    return subject or "likes"


def _semantic_importance(subject: str, explicit: bool) -> int:
    if subject in {"name", "nickname", "birthday", "allergy"}:
        base = 9
    elif is_identity_subject(subject):
        base = 8
    else:
        base = 6
    return min(10, max(base + 2, 9) if explicit else base)


def _episode_category(facts: list[ExtractedFact], events: list[Event], emotion: Emotion | None, text: str) -> str:
    if facts:
        return max(facts, key=lambda f: f.importance).category
    if events:
        return "event"
    if re.search(r"고민|걱정|불안|worr(?:y|ied)|anxious", text, re.I) or (emotion and emotion.key in _NEGATIVE):
        return "worry"
    if re.search(r"여친|남친|여자\s*친구|남자\s*친구|연애|썸|고백|헤어졌|girlfriend|boyfriend|crush|dating|broke up", text, re.I):
        return "relationship"
    if re.search(r"목표|계획|하려고|할\s*거야|준비\s*중|goal|plan to|going to", text, re.I):
        return "goal"
    if re.search(r"생각에는|내\s*생각|I think|in my opinion", text, re.I):
        return "opinion"
    return "other"


def _episode_importance(has_facts: bool, dated: bool, emotion: Emotion | None, explicit: bool, text: str,
                        role_play: bool) -> int:
    importance = 3 + (2 if has_facts else 0) + (1 if dated else 0) + (1 if len(text) >= 60 else 0)
    if emotion:
        importance += round(emotion.intensity * 3)
    if explicit:
        importance += 2
    if role_play:
        importance -= 1
    return max(1, min(10, importance))


def _event_content(event: Event, korean: bool) -> str:
    return f"{format_date(event.on, korean)}: {event.what}"


_BIRTHDAY_WORD = re.compile(r"생일|생신|birthday|\bbday\b", re.I)
# Whose birthday a correction is about, when not the user's ("i messed up naomis bday, its june 21", "동생 생일").
_SOMEONES_BIRTHDAY = re.compile(r"\b(?!(?:my|its|it|this|thats|whats|today|tomorrow)'?s?\b)[a-z]+'?s\s+(?:birthday|bday|b-day)"
                                r"|\b(?:his|her|their)\s+(?:birthday|bday|b-day)"
                                rf"|(?:{'|'.join(w for w in OTHER_PERSON_KO if len(w) > 1)})(?:의)?\s*(?:생일|생신)", re.I)
# Values no subject has: a time word, someone addressed ("미나씨"), one syllable, a clause of English speech
# ("thats actually perfect", "i bought it"), a time of life ("고딩때").
_NO_VALUE = re.compile(r"^(?:내일|오늘|어제|모레|주말|평일|이번\s*주|다음\s*주|요즘|매일|계좌|폐기)$|때$"
                       r"|^(?:i|i'm|im|it|it's|its|that|thats|that's|this|u|you|we|ok|okay|lol|yes|no|yeah|sure)\b", re.I)
# Anchored at a sentence's start (the same matches, without trying every position inside a long sentence again).
_QUESTION_SENTENCE = re.compile(r"(?<![^.!?\n])[^.!?\n]*\?")
_ASKS_SOMEONE = re.compile(r"(?<![가-힣])(?:너|니|네가|넌|당신)(?![가-힣])|[가-힣](?:씨|님)(?![가-힣])|뭐|뭔|어디|언제|누구|몇|무슨|어때|어떤|"
                           r"\b(?:you|your|u|ur|what|where|when|who|which|how)\b", re.I)


# Words around a Korean value that are no part of it: fillers ("강아지 일단 (믹스견)", "Danny 편하게"), an
# interjection before it ("오 서점"), a time of life ("대학때 시각디자인").
_FILLER_WORDS = re.compile(r"(?<!\S)(?:일단|그냥|걍|사실|완전|진짜|편하게)(?!\S)")
_LEADING = re.compile(r"^(?:(?:오|아|어|와|헐|음|응)\s+|[가-힣]{1,4}때\s+)")


def _tidy(candidate):
    if not re.search(r"[가-힣]", candidate.value) or candidate.subject in ("name",):
        return candidate
    value = _LEADING.sub("", _FILLER_WORDS.sub("", candidate.value))
    value = re.sub(r"\s{2,}", " ", value).strip()
    value = re.sub(r"\s+\)", ")", value)
    if not value or value == candidate.value:
        return candidate
    return Candidate(candidate.subject, value, candidate.request, candidate.label)


def _plausible(candidate) -> bool:
    if candidate.subject in ("name", "nickname"):
        return True  # "민이라고 불러": a name may be one syllable
    value = candidate.value.strip()
    if re.fullmatch(r"[가-힣]{1,3}(?:씨|님)", value) and not is_occupation_ko(value):
        return False  # someone addressed ("미나씨"), not a 선생님
    return not _NO_VALUE.search(value)


def _only_asked(value: str, text: str) -> bool:
    """Whether `value` is only in the message's questions ("미나씨 제일 좋아하는 영화는요?"): asked, not stated."""
    asked = [s for s in _QUESTION_SENTENCE.findall(text) if value in s and _ASKS_SOMEONE.search(s)]
    if not asked:
        return False  # "목표는 올해 안에 하프마라톤 완주??" states a goal, unsure
    rest = _QUESTION_SENTENCE.sub(" ", text)
    return value not in rest


class _MessageExtraction:
    """What one user message yields; `LocalExtractor.extract` folds these into one result."""

    def __init__(self, turn: ChatTurn, context: str, asked: str, known: set[tuple[str, str]],
                 role_play: bool | None = None, favorites: list[str] | None = None, previous: str = "",
                 earlier: list[str] = ()):
        """`context`: the character's turn before; `asked`: the subject it asked about; `earlier`: the user's last
        messages (oldest first, `previous` last), where a rule pointing back ("걔 얘기 꺼내지 마") finds its topic;
        `known`: (subject, normalised value) of stored facts, and ("", normalised content) of episodes;
        `role_play`: the conversation's role-play window says this turn is in character."""
        self.turn = turn
        self.text = turn.content.strip()
        self.korean = _language_is_korean(self.text, context)
        self.explicit = is_explicit(self.text)
        self.role_play = in_character(self.text, context) if role_play is None else role_play
        # "유성 안 살아 ㅋㅋ 세종으로 이사왔어": what no longer holds; nothing kept from this message repeats it.
        self.correction: Correction | None = None if self.role_play else find_correction(self.text)
        # Clauses that suppose or joke ("만약 체대 갔으면 체육 선생님 됐겠지", "조폭이었음 ㄷㄷ 농담이고"): no fact
        # comes from them, and the message is kept below the confidence the prompt injects.
        self.unreal_clauses = [] if self.role_play else (
            [self.text] if is_joke(self.text) else [c for c in clauses(self.text) if is_hypothetical(c)])
        self.favorites = favorites if favorites is not None else []
        self.previous = previous
        self.context = context
        self.avoid_topics = avoid_topics(self.text, self.korean, list(earlier) or ([previous] if previous else []))
        self.facts: list[ExtractedFact] = []
        self.special_dates: list[SpecialDate] = []
        self.nickname = ""
        self.speech_level = speech_level(self.text) if self.korean and not self.role_play else ""
        self.requested_speech_level = requested_speech_level(self.text) if self.korean else ""
        self.known = known
        candidates = self._candidates(context, asked)
        self._semantic(candidates, known)
        self._episodes(bool(candidates))

    def _candidates(self, context: str, asked: str) -> list[Candidate]:
        if self.role_play or not self.text or asked_about_someone_else(context, self.text):
            return []  # "민재 님은 뭐 하는 사람이야?" → "은행원! 여의도에서 일해": 민재's job, kept as the episode
        def read(text: str, korean: bool) -> list[Candidate]:
            return korean_facts(text, asked, context) if korean else english_facts(text)
        found = read(self.text, self.korean)
        if self.correction is not None:
            # "생일 10월 2일이라 했는데 … 진짜 생일은 9월 28일": a rule that took the old value reads the rest again
            stale = {c.subject for c in found if is_old_value(c.value, self.correction.old_terms)}
            if stale and self.correction.cleaned:
                again = read(self.correction.cleaned, self.korean)
                found += [c for c in again if c.subject in stale and not any(c.value == f.value for f in found)]
        if _code_switched(self.text):  # "UX designer야, Loopmint라는 startup에서": both languages' rules read it
            other = read(self.text, not self.korean)
            found += [c for c in other if not any(c.subject == f.subject for f in found)]
        # a birthday read that the correction says is the old one is no birthday found ("my birthday was the 23rd of
        # June, didn't I? It's the 25th!")
        has_birthday = any(c.subject == "birthday" and not (
            self.correction is not None and is_old_value(c.value, self.correction.old_terms)) for c in found)
        birthday = None if has_birthday else own_birthday_on(self.text, self.turn.created_at, self.korean)
        if birthday:
            found.append(Candidate("birthday", format_month_day(birthday.month, birthday.day, self.korean)))
        elif self.correction is not None and not has_birthday \
                and _BIRTHDAY_WORD.search(self.text) and not _SOMEONES_BIRTHDAY.search(self.text):
            # "생일 잘못 말함 ㅋㅋ 12월 4일 아니고 12월 14일이야": the date left once the old one is out
            dates = find_month_days(self.correction.cleaned)
            old_months = {d.month for d in find_month_days(self.text)}
            days = set(days_alone(self.correction.cleaned))
            if len({d.key for d in dates}) == 1:
                found.append(Candidate("birthday", format_month_day(dates[0].month, dates[0].day, self.korean)))
            elif not dates and len(old_months) == 1 and len(days) == 1:
                # "I told you my birthday was the 23rd of June, didn't I? It's the 25th!": the old month, the new day
                found.append(Candidate("birthday", format_month_day(old_months.pop(), days.pop(), self.korean)))
        first = first_clause(self.text, self.korean)
        found = [Candidate(_resolve_favorite(c.value, context, self.previous, self.favorites, self.korean), c.value,
                           c.request, c.label) if c.subject == "favorite_" else c for c in found]
        fiction = _FICTION_PERSON.search(self.text)
        if fiction:
            found = [c for c in found if c.subject not in _FICTION_SUBJECTS or c.subject.startswith("favorite_")]
        if self.avoid_topics:  # "우리 엄마 얘기는 하지 마" is a rule about a topic, not a family fact
            topics = [_normalise(t) for t in self.avoid_topics]
            found = [c for c in found if not any(_normalise(c.value) in t or t in _normalise(c.value) for t in topics)]
        # A pattern may already hold the answer under a finer subject ("곱창이랑 마라탕 좋아해요" → likes).
        if asked in _FICTION_SUBJECTS and _FICTION_PERSON.search(context or ""):
            asked = ""  # "주인공 이름은 뭐야?" → "세레나야": the heroine's name, not the user's
        if asked and not fiction and not self.avoid_topics \
                and not any(c.subject == asked or c.value in first for c in found):
            answer = bare_answer(asked, self.text, self.korean, question=context)
            if answer and not any(answer.value in c.value or c.value in answer.value for c in found):
                found.insert(0, answer)
        found = [_tidy(c) for c in found if _plausible(c) and not _only_asked(c.value, self.text)]
        wished = [] if self.role_play else [clause for clause in clauses(self.text) if is_wish(clause)]
        if self.unreal_clauses or wished:
            unreal = [_normalise(clause) for clause in self.unreal_clauses + wished]
            found = [c for c in found if not any(_normalise(c.value) in clause for clause in unreal)]
        return _merge(found)

    def _fact(self, **kwargs) -> ExtractedFact:
        if self.unreal_clauses and kwargs.get("kind") != "semantic":  # the message's words and events
            kwargs.setdefault("confidence", UNREAL_CONFIDENCE)
        return ExtractedFact(explicit=self.explicit, source_message_id=self.turn.message_id, **kwargs)

    def _repeats_old_value(self, text: str) -> bool:
        return self.correction is not None and any(mentions(text, term) for term in self.correction.old_terms)

    def _semantic(self, candidates: list[Candidate], known: set[tuple[str, str]]) -> None:
        for candidate in candidates:
            if self.correction is not None and is_old_value(candidate.value, self.correction.old_terms):
                continue  # the old value ("유성" of "유성 안 살아"); "연애 안 함" is the new one
            if candidate.subject == "nickname" and candidate.request:
                self.nickname = candidate.value
            if candidate.subject == "birthday":
                mentions = find_month_days(candidate.value, numeric=True)
                if mentions:
                    self.special_dates.append(SpecialDate(mentions[0].key, "생일" if self.korean else "birthday",
                                                          self.turn.message_id))
            key = (candidate.subject, _normalise(candidate.value))
            if key in known:
                continue
            known.add(key)
            self.facts.append(self._fact(
                content=render_content(candidate, self.korean),
                subject=candidate.subject,
                value=candidate.value,
                category=str(category_for_subject(candidate.subject)),
                kind="semantic",
                is_identity=is_identity_subject(candidate.subject),
                importance=_semantic_importance(candidate.subject, self.explicit),
            ))

    def _episodes(self, has_facts: bool) -> None:
        if self.role_play:
            return  # in character: neither facts nor episodic copies of the story
        now = self.turn.created_at
        birthday_days = self._special_days()
        events = [] if self.role_play else events_in(self.text, now, self.korean, birthday_days)
        emotion = detect_emotion(strip_masks(self.text), self.korean)
        for event in events:
            if ("", _normalise(_event_content(event, self.korean))) in self.known \
                    or self._repeats_old_value(_event_content(event, self.korean)):
                continue
            self.facts.append(self._fact(
                content=_event_content(event, self.korean),
                value=event.what,
                category="event",
                kind="episodic",
                importance=min(10, 6 + (1 if event.on > now.date() else 0) + (2 if self.explicit else 0)),
                emotion=emotion.label if emotion else "",
                emotion_intensity=emotion.intensity if emotion else 0.0,
                event_date=event.on,
            ))
            if event.yearly:
                self.special_dates.append(SpecialDate(f"{event.on.month:02d}-{event.on.day:02d}", event.what,
                                                      self.turn.message_id))
        if self.correction is not None:  # kept in the message's place: its words without the old value
            self._correction_episode(emotion)
            return
        question = _answered_question(self.context, self.text)
        answers = bool(question) and (bool(events) or bool(re.search(r"\d|[A-Za-z]{3,}|[가-힣]{2,}", self.text)))
        if not answers and not is_salient(self.text, self.korean, has_facts=has_facts or bool(events),
                                          has_feeling=emotion is not None) and not news_subjects(self.text):
            return  # news of a move or a new job is kept: it ends the stored value (extraction.news)
        # The character's question it answers goes with it ("August 19 in Gyeongju" ← "when is the surgery?"): the
        # neighbouring turn that says what the answer is about, for retrieval and for the reader of the block.
        content = mask_raw_pii(self.text)[:_MAX_EPISODE_CHARS] + self._referent() + (
            f"{ANSWERED_MARK}{mask_raw_pii(question)})" if question else "")
        if ("", _normalise(content)) in self.known:
            return  # the same message was processed before
        when: date | None = events[0].on if events else event_date(self.text, now, birthday_days)
        semantic = [f for f in self.facts if f.kind == "semantic"]
        self.facts.append(self._fact(
            content=content,
            category=str(_episode_category(semantic, events, emotion, self.text)),
            kind="episodic",
            importance=_episode_importance(has_facts, when is not None, emotion, self.explicit, self.text,
                                           self.role_play),
            emotion=emotion.label if emotion else "",
            emotion_intensity=emotion.intensity if emotion else 0.0,
            event_date=when,
        ))

    def _referent(self) -> str:
        """Who a message that opens on "she"/"걔" speaks of, when the user's message before named them ("my sister
        nora called" → "portland. she's a pediatric nurse" gets " (she: my sister)"): for retrieval ("what does my
        sister do?") and for the reader of the block. '' when the message names a relative itself or none came
        before."""
        opening = _PRONOUN_OPENING_KO.match(self.text) if self.korean else _PRONOUN_OPENING_EN.match(self.text)
        if opening is None or not self.previous or person_in(self.text, self.korean):
            return ""
        referent = person_in(self.previous, self.korean)
        pronoun = opening.group("pronoun").strip()
        other_gender = _OTHER_GENDER_EN.get(pronoun.casefold())
        if not referent or (other_gender is not None and other_gender.search(referent)):
            return ""  # "my dad called" is no "she"
        return f" ({pronoun}: {referent})"

    def _special_days(self) -> set[tuple[int, int]]:
        """(month, day) of the special dates found so far (a birthday is no event date of an episode)."""
        return {tuple(int(part) for part in d.date.split("-")[-2:]) for d in self.special_dates}

    def _correction_episode(self, emotion: Emotion | None) -> None:
        content = mask_raw_pii(self.correction.cleaned)[:_MAX_EPISODE_CHARS] or \
            (_CORRECTED_KO if self.korean else _CORRECTED_EN)
        if ("", _normalise(content)) in self.known and content not in (_CORRECTED_KO, _CORRECTED_EN):
            return  # the same message was processed before
        self.facts.append(self._fact(
            content=content, kind="episodic",
            category=str(_episode_category([f for f in self.facts if f.kind == "semantic"], [], emotion, self.text)),
            importance=min(10, 7 + (2 if self.explicit else 0)),
            emotion=emotion.label if emotion else "", emotion_intensity=emotion.intensity if emotion else 0.0,
            # the date the corrected text tells, never the old one it replaced, nor a birthday
            event_date=event_date(self.correction.cleaned, self.turn.created_at, self._special_days()),
            replaces=tuple(mask_raw_pii(term) for term in self.correction.old_terms),
        ))


# A message that opens on a third person, at most after a short first clause ("portland. she's a nurse", "ㅇㅇ 걔 요즘
# 바빠"): who it is, is in the message before (_MessageExtraction._referent).
_PRONOUN_OPENING_EN = re.compile(r"^\W*(?:[\w']+[.!,]?\s+){0,2}?(?P<pronoun>she|he)"
                                 r"(?:'s|\s+(?:is|was|has|works|lives|just|got|said))\b", re.I)
_PRONOUN_OPENING_KO = re.compile(r"^\W*(?:\S+\s+){0,2}?(?P<pronoun>걔|그\s*사람|그분|그\s*애)(?:는|가|도|랑|한테)?(?![가-힣])")

_MALE_EN = re.compile(r"\b(?:brother|dad|father|stepdad|uncle|grandpa|husband|boyfriend|ex-boyfriend|ex-husband|son)\b",
                      re.I)
_FEMALE_EN = re.compile(r"\b(?:sister|mom|mother|stepmom|aunt|grandma|wife|girlfriend|ex-girlfriend|ex-wife|daughter)\b",
                        re.I)
_OTHER_GENDER_EN = {"she": _MALE_EN, "he": _FEMALE_EN}

_EARLIER_FOR_RULES = 3  # the user's messages before a rule that points back, where its topic is looked for


# Runs a person never types to say something: whitespace beyond two, any character beyond eight ("ㅋㅋㅋㅋㅋㅋㅋㅋ" stays).
# The rules scan around spaces and particles, and a run of thousands of newlines or quotes made one message cost
# minutes (a request reading its own writes waits for it).
_LONG_SPACE = re.compile(r"\s{3,}")
_LONG_RUN = re.compile(r"(.)\1{8,}", re.S)


def squeezed(text: str) -> str:
    """`text` with runs of whitespace cut to two characters and runs of one character to eight."""
    text = _LONG_SPACE.sub(lambda m: m.group(0)[:2], text)
    return _LONG_RUN.sub(lambda m: m.group(1) * 8, text)


class LocalExtractor:
    name = "local"

    def extract(self, *, turns: list[ChatTurn], existing: list[ExistingFact]) -> ExtractionResult:
        result = ExtractionResult()
        turns = [replace(turn, content=squeezed(turn.content)) for turn in turns]
        known = {(f.subject, _normalise(f.value)) for f in existing if f.subject} \
            | {("", _normalise(f.content)) for f in existing if not f.subject}
        levels: list[str] = []
        requested = ""
        context = previous_user = ""
        earlier: list[str] = []  # the user's messages so far
        window = RolePlayWindow()
        favorites = [f.subject for f in existing if f.subject.startswith("favorite_")]
        for turn in turns:
            if turn.role != "user":
                context = turn.content
                window.see_assistant(turn.content, turn.created_at)
                said = character_fact(turn, role_play=window.active, known=known, prompted_by=previous_user)
                if said is not None:
                    result.facts.append(said)
                continue
            asked = asked_subject(context) or asked_back(context, previous_user) or dangling_subject(previous_user)
            role_play = window.user_in_character(turn.content, context, turn.created_at)
            message = _MessageExtraction(turn, context, asked, known, role_play, favorites, previous_user,
                                         earlier=earlier[-_EARLIER_FOR_RULES:])
            favorites += [f.subject for f in message.facts if f.subject.startswith("favorite_")]
            context, previous_user = "", turn.content
            earlier.append(turn.content)
            result.facts.extend(message.facts)
            for topic in message.avoid_topics:
                if topic not in result.avoid_topics:
                    result.avoid_topics.append(topic)
            for special in message.special_dates:
                if all((s.date, s.description) != (special.date, special.description) for s in result.special_dates):
                    result.special_dates.append(special)
            if message.nickname and len(message.nickname) <= _NICKNAME_MAX:
                result.identity["nickname"] = message.nickname
            if message.speech_level:
                levels.append(message.speech_level)
            requested = message.requested_speech_level or requested
        if requested:
            result.identity["honorific"] = requested  # asked for outright ("반말해도 돼")
        elif len(levels) >= 3:
            level, count = Counter(levels).most_common(1)[0]
            if count / len(levels) >= 0.8:
                result.identity["honorific"] = level  # used consistently
        return result


# --- summary -------------------------------------------------------------------------------------------

_LAUGHTER = re.compile(r"[ㅋㅎㅠㅜ]{2,}|[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+")
_EN_FUNCTION_WORDS = frozenset("i'm i've i'd it's and but the you your his her our its who how why all any not can did "
                               "had has was get out off too yes one two".split())
_EN_STOP = frozenset("""the and for that this with have just about what your you are was were they them then than
there their really very like know think going want need much more some time today yesterday tomorrow lol haha
been being it's i'm don't can't didn't doesn't would could should also still even okay yeah sure maybe things
thing stuff good great well back into from when where which while because after before again only over
right now last next this morning night tonight week weekend monday tuesday wednesday thursday friday saturday
sunday called said told went got gonna wanna kinda pretty super totally actually literally
""".split())


def _clean_sentence(text: str, limit: int = 140) -> str:
    text = re.sub(r"\s+", " ", _LAUGHTER.sub(" ", strip_masks(text))).strip()
    if len(text) <= limit:
        return text
    cut = max(text.rfind(mark, 0, limit) for mark in (".", "!", "?", "…"))
    return text[:cut + 1] if cut > 40 else text[:limit].rstrip() + "…"


def _best_sentence(text: str, korean: bool, now) -> str:
    """Return the sentence of a message that says the most: facts and events, then content words."""
    sentences = [s.strip() for s in re.findall(r"[^.!?…\n]+[.!?…]*", text) if len(s.strip()) > 1]
    if len(sentences) <= 1:
        return text

    def weight(sentence: str) -> float:
        facts = korean_facts(sentence) if korean else english_facts(sentence)
        words = content_nouns(sentence) if korean else _english_topics(sentence)
        dated = events_in(sentence, now, korean, set())
        return 3 * len(facts) + 2 * len(dated) + min(4, len(words)) + (1 if detect_emotion(sentence, korean) else 0)

    return max(sentences, key=weight)


def _english_topics(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'-]{2,}", text)
            if w.lower() not in _EN_STOP and w.lower() not in _EN_FUNCTION_WORDS]


class LocalSummarizer:
    name = "local"

    def summarize(self, *, turns: list[ChatTurn]) -> ConversationSummary:
        """Return an extractive 1-2 sentence summary of the salient user statements."""
        user_turns = [t for t in turns if t.role == "user" and t.content.strip()]
        if not user_turns:
            return ConversationSummary(summary="", topics=[], emotion="평온", importance=1)
        scored: list[tuple[float, int, str]] = []
        emotions: dict[str, float] = {}
        nouns: Counter = Counter()
        first_seen: dict[str, int] = {}
        fact_count = explicit = 0
        strongest = 0.0
        for index, turn in enumerate(user_turns):
            text = turn.content.strip()
            korean = _language_is_korean(text, "")
            if is_chatter(text):
                continue
            facts = [] if in_character(text) else (korean_facts(text) if korean else english_facts(text))
            emotion = detect_emotion(strip_masks(text), korean)
            if not is_salient(text, korean, has_facts=bool(facts), has_feeling=emotion is not None):
                continue
            if emotion:
                emotions[emotion.key] = emotions.get(emotion.key, 0.0) + emotion.intensity
                strongest = max(strongest, emotion.intensity)
            fact_count += len(facts)
            explicit += 1 if is_explicit(text) else 0
            score = 1 + 2 * len(facts) + (2 * emotion.intensity if emotion else 0) + min(2.0, len(text) / 60)
            score += 2 if is_explicit(text) else 0
            score += 1 if event_date(text, turn.created_at) else 0
            score += 3 if avoid_topics(text, korean) else 0
            score -= 2 if in_character(text) else 0
            scored.append((score, index, _clean_sentence(_best_sentence(text, korean, turn.created_at))))
            words = content_nouns(strip_masks(text)) if korean else _english_topics(strip_masks(text))
            for word in words:
                nouns[word] += 1
                first_seen.setdefault(word, index)
        best = sorted(sorted(scored, key=lambda s: -s[0])[:2], key=lambda s: s[1])
        summary = " ".join(s[2] if re.search(r"[.!?…]$", s[2]) else f"{s[2]}." for s in best)
        topics = [w for w, _ in sorted(nouns.items(), key=lambda item: (-item[1], first_seen[item[0]]))][:5]
        importance = 2 + min(3, len(scored) // 3) + min(2, fact_count) + (2 if explicit else 0) + round(strongest * 2)
        return ConversationSummary(
            summary=summary,
            topics=topics,
            emotion=summary_emotion(emotions),
            importance=max(1, min(10, importance)),
        )
