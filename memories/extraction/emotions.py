"""Emotion words (Korean stems and English words) → an emotion and an intensity in 0..1.

Each emotion has a language-neutral key ("tired") and a label in the user's language ("피곤" / "tired"),
which is what goes into memories and the heartbeat's emotion keywords. `summary_emotion` folds keys
into the five labels of seed 001 §2.1.2 (SUMMARY_EMOTIONS).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .base import SUMMARY_EMOTIONS

_KO_WORDS = {
    "tired": ("피곤", "지쳤", "지친", "지침", "지쳐", "녹초", "기진맥진", "방전", "졸려 죽", "힘이 없"),
    "stressed": ("스트레스", "스트레쓰", "멘탈 나", "멘탈이 나", "멘탈 터", "멘붕", "빡세", "힘들", "힘드", "힘든", "힘듦",
                 "정신없", "정신 없", "지옥", "버거", "부담", "압박", "미치겠", "죽겠"),
    "sad": ("슬퍼", "슬프", "슬픔", "슬펐", "속상", "서운", "눈물", "울었", "울고 싶", "울컥", "마음 아", "ㅠㅠ",
            "돌아가셨", "돌아가신", "세상을 떠", "무지개다리",
            "섭섭", "허무", "아쉽", "아쉬워"),
    "depressed": ("우울", "무기력", "다운돼", "다운됐", "의욕이 없", "의욕 없", "살기 싫"),
    "lonely": ("외롭", "외로워", "외로움", "외로웠", "쓸쓸", "허전", "혼자라서 외", "그리워", "그립"),
    "anxious": ("불안", "걱정", "초조", "조마조마", "막막", "두려"),
    "nervous": ("떨려", "떨렸", "떨리", "떨림", "긴장", "심장이 터", "쫄려", "쫄렸"),
    "scared": ("무서워", "무서웠", "무섭", "소름", "겁나", "겁이 나"),
    "angry": ("화나", "화났", "화가 나", "빡쳐", "빡치", "빡침", "열받", "열 받", "짜증", "억울", "어이없", "어이 없"),
    "bored": ("심심", "지루", "따분", "노잼"),
    "happy": ("기뻐", "기쁘", "기쁨", "기뻤", "행복", "즐거", "즐겁", "좋았", "너무 좋", "신나", "신났", "살맛",
              "웃겨", "재밌", "재미있", "꿀잼", "개꿀", "최고였"),
    "excited": ("설레", "설렘", "설렜", "두근", "기대돼", "기대된", "흥분", "대박", "신난다", "미쳤다", "개이득"),
    "proud": ("뿌듯", "자랑스", "해냈", "합격", "붙었"),
    "relieved": ("다행", "안심", "후련", "풀렸", "홀가분", "살았다"),
    "grateful": ("너무 고마워", "진짜 고마워", "정말 고마워", "완전 고마워", "감동", "감사해요 정말", "정말 감사"),
}
_EN_WORDS = {
    "tired": ("tired", "exhausted", "worn out", "drained", "burnt out", "burned out", "sleepy", "fatigued"),
    "stressed": ("stressed", "stress", "overwhelmed", "swamped", "pressure", "hectic", "struggling"),
    "sad": ("sad", "upset", "heartbroken", "crying", "cried", "miserable", "gutted", "bummed"),
    "depressed": ("depressed", "hopeless", "down lately", "feeling down", "empty inside", "unmotivated"),
    "lonely": ("lonely", "alone lately", "isolated", "miss my", "missing my", "homesick"),
    "anxious": ("anxious", "worried", "worry", "uneasy", "panicking", "panic"),
    "nervous": ("nervous", "jittery", "on edge", "butterflies"),
    "scared": ("scared", "afraid", "terrified", "frightened"),
    "angry": ("angry", "mad at", "pissed", "furious", "annoyed", "frustrated", "irritated"),
    "bored": ("bored", "boring"),
    "happy": ("happy", "glad", "great day", "so good", "fun", "joy", "delighted", "cheerful", "loved it"),
    "excited": ("excited", "thrilled", "can't wait", "cant wait", "pumped", "hyped", "stoked"),
    "proud": ("proud", "nailed it", "passed", "got the job", "got in", "accepted"),
    "relieved": ("relieved", "relief", "phew"),
    "grateful": ("thankful", "grateful", "so grateful", "means a lot"),
}
_KO_INTENSIFIERS = re.compile(r"너무|진짜|정말|완전|엄청|개[가-힣]|넘\s|존나|졸라|겁나|매우|아주|핵|극|미치|죽겠|!!|ㅠㅠ")
_KO_SOFTENERS = re.compile(r"좀|조금|약간|살짝|은근|쪼끔|그나마|긴\s*하")
_EN_INTENSIFIERS = re.compile(r"\b(?:so|really|very|super|extremely|incredibly|totally|completely|too)\b|!!", re.I)
_EN_SOFTENERS = re.compile(r"\b(?:a bit|a little|kind of|kinda|sort of|slightly|somewhat)\b", re.I)
_KO_NEGATION = re.compile(r"(?:안|못)\s*$")
_EN_NEGATION = re.compile(r"\b(?:not|n't|never|no longer)\s+(?:\w+\s+)?$", re.I)

# Weaker labels lose to stronger ones when a message carries several ("고마워 ... 외롭다" is lonely).
_PRIORITY = ("depressed", "lonely", "sad", "scared", "anxious", "nervous", "angry", "stressed", "tired",
             "excited", "proud", "happy", "relieved", "bored", "grateful")

KOREAN_LABELS = {
    "tired": "피곤", "stressed": "스트레스", "sad": "슬픔", "depressed": "우울", "lonely": "외로움",
    "anxious": "불안", "nervous": "긴장", "scared": "무서움", "angry": "분노", "bored": "지루함",
    "happy": "기쁨", "excited": "설렘", "proud": "뿌듯함", "relieved": "안도", "grateful": "고마움",
}

_MOOD_THRESHOLD = 0.8  # summed intensity a conversation needs before it has a mood other than 평온
_TO_SUMMARY = {
    "happy": "기쁨", "proud": "기쁨", "relieved": "기쁨", "grateful": "기쁨",
    "sad": "슬픔", "lonely": "슬픔", "depressed": "슬픔",
    "stressed": "스트레스", "tired": "스트레스", "anxious": "스트레스", "nervous": "스트레스",
    "angry": "스트레스", "scared": "스트레스",
    "excited": "흥분",
    "bored": "평온",
}


@dataclass(frozen=True)
class Emotion:
    key: str  # language-neutral: "tired"
    label: str  # in the user's language: "피곤" / "tired"
    intensity: float  # 0..1


def _found(text: str, words: tuple[str, ...], korean: bool) -> int:
    """Return the position of the first non-negated emotion word of `words` in `text`, or -1."""
    low = text.lower()
    for word in words:
        # A Korean stem starts a word or follows an intensifier prefix ("개떨렸어"), never mid-word ("무서운" ≠ 서운).
        pattern = r"(?:(?<![가-힣])|(?<=[개핵넘존극]))" + re.escape(word) if korean else rf"\b{re.escape(word)}"
        for match in re.finditer(pattern, low):
            before = low[max(0, match.start() - 12):match.start()]
            negation = _KO_NEGATION if korean else _EN_NEGATION
            if negation.search(before):
                continue
            if korean and re.match(r"\s*(?:지\s*않|진\s*않|지\s*마)", low[match.end():match.end() + 5]):
                continue
            return match.start()
    return -1


def detect_emotion(text: str, korean: bool) -> Emotion | None:
    """Return the dominant emotion of one message, or None."""
    lexicon = _KO_WORDS if korean else _EN_WORDS
    hits = {label for label, words in lexicon.items() if _found(text, words, korean) >= 0}
    if not hits:
        return None
    key = next(label for label in _PRIORITY if label in hits)
    intensifiers = _KO_INTENSIFIERS if korean else _EN_INTENSIFIERS
    softeners = _KO_SOFTENERS if korean else _EN_SOFTENERS
    intensity = 0.5 + 0.15 * min(3, len(intensifiers.findall(text))) - 0.15 * min(2, len(softeners.findall(text)))
    intensity += 0.05 * (len(hits) - 1)
    if key == "grateful":
        intensity -= 0.15
    label = KOREAN_LABELS[key] if korean else key
    return Emotion(key, label, round(max(0.3, min(1.0, intensity)), 2))


def summary_emotion(keys_with_weight: dict[str, float]) -> str:
    """Fold emotion keys (with summed intensities) into one of SUMMARY_EMOTIONS; 평온 when none."""
    totals: dict[str, float] = {}
    for key, weight in keys_with_weight.items():
        summary = _TO_SUMMARY.get(key, "평온")
        totals[summary] = totals.get(summary, 0.0) + weight
    if not totals:
        return "평온"
    best, weight = max(totals.items(), key=lambda item: item[1])
    # One passing "ㅠ" in a long chat is not the mood of the conversation.
    return best if best in SUMMARY_EMOTIONS and weight >= _MOOD_THRESHOLD else "평온"
