"""Is a user message worth remembering on its own? Plus the two per-message flags the extractor needs:
an explicit "remember this" request, and the speech level (반말/존댓말) of Korean messages.
"""
from __future__ import annotations

import re

from memories.pii import mask_pii

from .morphology import content_nouns

_MASK = re.compile(r"[\w*]*\*{2,}[\w*\-.]*|\[(?:전화번호|카드번호|주민번호|이메일|계좌번호|phone|card|email|redacted)[^\]]*\]",
                   re.I)
_LAUGHTER = re.compile(r"[ㅋㅎㅠㅜㄷㅇㄱㅂ]+|(?:하하|히히|헤헤|호호|크크)|\b(?:lol|lmao|haha+|hehe+|xd)\b", re.I)
_EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200d]+")
_PUNCT = re.compile(r"[\s.,!?~…·:;\"'()\[\]{}^_\-+=*/\\|<>@#$%&]+")

# Whole-message chatter: greetings, goodbyes, acknowledgements ("ㅇㅇ 잘 자", "ok lol").
_CHATTER_KO = re.compile(
    r"^(?:안녕(?:하세요)?|하이|ㅎㅇ|잘\s*자|잘\s*자요|굿\s*밤|굿나잇|좋은\s*밤|좋은\s*아침|잘\s*있어|또\s*봐|"
    r"이따\s*봐|내일\s*봐|다음에\s*봐|바이|빠이|ㅂㅂ|ㅃㅃ|ㅇㅇ|ㅇㅋ|ㅇㅋㅇㅋ|응+|어+|엉|웅|그래|그래그래|알겠어|알았어|"
    r"알겠습니다|넵|네+|예|오케이|오키|콜|맞아|맞음|ㄹㅇ|인정|고마워|고맙습니다|감사합니다|땡큐|ㄱㅅ|"
    r"미안|미안해|ㅈㅅ|헐|대박|와+|오+|아하|아+|음+|흠+|좋아|좋네|좋다|나\s*왔어|왔어|다녀올게|다녀왔어|다녀옴|"
    r"갔다\s*올게|나가볼게|나\s*간다|간다|잘\s*먹을게|잘\s*먹었어|뭐해|뭐\s*해|뭐함|심심해)$")
_CHATTER_EN = re.compile(
    r"^(?:hi|hey|hello|yo|sup|hiya|good\s*night|gn|night|nite|bye|bye\s*bye|see\s*ya|see\s*you|cya|later|"
    r"ok|okay|k|kk|sure|yes|yeah|yep|yup|no|nope|nah|thanks|thank\s*you|thx|ty|cool|nice|great|lol|haha|"
    r"hmm|wow|oh|ah|right|true|same|got\s*it|sounds\s*good|i\s*see|good\s*morning|morning|what'?s\s*up|"
    r"how\s*are\s*you|i'?m\s*back|back|brb|gtg|g2g|sorry|np|no\s*problem)$", re.I)
_EN_FILLER_WORDS = frozenset("the and you lol haha yeah yes okay cool nice too just".split())
_VOCATIVE = re.compile(r"(?:^|\s)[가-힣]{1,4}(?:아|야)(?=\s|$)")

_EXPLICIT_KO = re.compile(
    r"기억\s*해\s*(?:줘|줄래|주라|둬|두라|놔|놓|주세요|줘요|두세요|달라|줬으면)|기억하고\s*있어\s*(?:줘|야\s*(?:돼|해))|"
    r"꼭\s*기억|잊지\s*(?:마|말아|말고|말아줘|마세요|않게)|잊으면\s*안\s*(?:돼|된다)|까먹지\s*(?:마|말아|말고)|"
    r"까먹으면\s*안\s*(?:돼|된다)|메모해\s*(?:줘|둬)|적어\s*(?:둬|줘|놔)|저장해\s*(?:줘|둬)|명심해")
_EXPLICIT_EN = re.compile(
    r"(?<!do you )(?<!you )(?<!u )\bremember\s+(?:that|this|it|me|my|i|i'm|for me)\b|\bplease remember\b|"
    r"\bdon'?t\s+forget\b|\bdo not forget\b|\bnever forget\b|\bkeep (?:that|this|it) in mind\b|"
    r"\bmake a note\b|\btake note\b|\bnote that\b|\bsave (?:that|this)\b|\bwrite (?:that|this) down\b", re.I)

_POLITE_END = re.compile(r"(?:요|니다|니까|세요|셔요|십시오|죠|에요|예요|어요|아요|해요|네요|군요)[\s.!?~ㅋㅎㅠ^]*$")
_SENTENCE = re.compile(r"[^.!?\n…~]+")


def mask_raw_pii(text: str) -> str:
    """Return `text` masked like ingestion masks it: a no-op on masked input, a safety net on raw input."""
    return mask_pii(text).text


def strip_masks(text: str) -> str:
    return _MASK.sub(" ", mask_raw_pii(text))


def masked_share(text: str) -> float:
    """Return the share of non-space characters that are PII masks."""
    text = mask_raw_pii(text)
    total = len(re.sub(r"\s", "", text))
    masked = sum(len(re.sub(r"\s", "", m.group(0))) for m in _MASK.finditer(text))
    return masked / total if total else 0.0


def _remainder(text: str) -> str:
    text = strip_masks(text)
    text = _EMOJI.sub(" ", text)
    text = _LAUGHTER.sub(" ", text)
    return _PUNCT.sub(" ", text).strip()


def is_chatter(text: str) -> bool:
    """Return True for greetings, goodbyes, laughter and one-word acknowledgements."""
    remainder = _remainder(text)
    if len(remainder.replace(" ", "")) <= 1:
        return True
    without_vocative = _VOCATIVE.sub(" ", f" {remainder} ").strip()
    candidates = {remainder, without_vocative}
    for candidate in candidates:
        compact = re.sub(r"\s+", " ", candidate).strip()
        if not compact or _CHATTER_KO.match(compact) or _CHATTER_EN.match(compact):
            return True
        parts = compact.split(" ")
        if all(_CHATTER_KO.match(p) or _CHATTER_EN.match(p) for p in parts if p):
            return True
    return False


# A date or a deadline makes a short message worth keeping ("음 6월 말까지 V3 깨기 어때").
_DATED = re.compile(r"\d{1,2}\s*월\s*(?:\d{1,2}\s*일|말|초|중순|초순|하순)|\d{1,2}/\d{1,2}(?!\d)|[월화수목금토일]요일|까지")


def is_salient(text: str, korean: bool, has_facts: bool = False, has_feeling: bool = False) -> bool:
    """Return True when the message says something worth keeping as an episode.

    A stated fact always is; a feeling ("요즘 너무 피곤해") is unless the message is mere chatter ("ㅠㅠ").
    """
    if has_facts:
        return True
    if is_chatter(text):
        return False
    if has_feeling and len(_remainder(text).replace(" ", "")) >= 4:
        return True
    remainder = _remainder(text)
    if korean:
        nouns = content_nouns(remainder) + re.findall(r"[A-Za-z][A-Za-z0-9]+", remainder)  # "V3", "PT", "IELTS"
        enough = len(nouns) >= 2 or (len(nouns) >= 1 and len(remainder.replace(" ", "")) >= 7) \
            or (bool(_DATED.search(remainder)) and len(remainder.replace(" ", "")) >= 8)
    else:
        words = re.findall(r"[A-Za-z']+", remainder)
        content = [w for w in words if len(w) > 2 and w.lower() not in _EN_FILLER_WORDS]
        enough = len(content) >= 3 or (len(content) >= 2 and len(words) >= 4)
    if not enough:
        return False
    if _MASK.search(mask_raw_pii(text)):
        # A pasted number with a line around it ("***-****-**** 으로 문자 주세요") is not a memory.
        if masked_share(text) >= 0.4:
            return False
        if korean and len(content_nouns(remainder)) < 3:
            return False
        if not korean and len(re.findall(r"[A-Za-z']{3,}", remainder)) < 6:
            return False
    return True


def is_explicit(text: str) -> bool:
    return bool(_EXPLICIT_KO.search(text) or _EXPLICIT_EN.search(text))


def speech_level(text: str) -> str:
    """Return '존댓말', '반말' or '' (no Korean sentence ending) for one Korean message."""
    polite = casual = 0
    for sentence in _SENTENCE.findall(_remainder_keep_sentences(text)):
        sentence = sentence.strip()
        if not re.search(r"[가-힣]", sentence):
            continue
        if _POLITE_END.search(sentence):
            polite += 1
        else:
            casual += 1
    if not polite and not casual:
        return ""
    return "존댓말" if polite > casual else "반말"


_ASK_BANMAL = re.compile(r"반말\s*(?:해|써|하자|해도|써도|로\s*(?:해|말해)|편하게)|말\s*(?:놔|놓아|편하게\s*해)|말\s*편하게\s*하자")
_ASK_JONDAETMAL = re.compile(r"존댓말\s*(?:해|써|로\s*(?:해|말해)|부탁)")


def requested_speech_level(text: str) -> str:
    """Return the speech level the user asks for ("반말해도 돼" → 반말), or ''."""
    if _ASK_JONDAETMAL.search(text):
        return "존댓말"
    if _ASK_BANMAL.search(text) and not re.search(r"반말\s*(?:하지\s*마|하지\s*말|ㄴㄴ|금지)", text):
        return "반말"
    return ""


def _remainder_keep_sentences(text: str) -> str:
    return _LAUGHTER.sub("", _EMOJI.sub("", strip_masks(text)))
