"""Is the user speaking in character? Facts of a role ("나는 기사 할래. 이름은 레온, 27살") are not the user's."""
from __future__ import annotations

import re

_ACTION = re.compile(r"\((?=[^)]{2,60}\))[^)]*(?:며|면서|고|다|한다|는다|듯|채|ing|s)\s*\)|\*[^*\n]{2,60}\*|^\s*\([^)]{2,40}\)")
_SCENE = re.compile(r"^\s*\[[^\]]{1,30}\]")
_RP_WORDS = re.compile(r"역할극|롤플|롤플레이|상황극|역할\s*놀이|\bRP\b|role-?\s?play", re.I)
_TAKE_ROLE = re.compile(
    r"(?:나는|난|저는|전)\s*\S+\s*(?:할래|할게|역할|맡을게|해볼래|할게요|할래요)|설정은|캐릭터는|내\s*캐릭|"
    r"\bi'?ll\s+(?:be|play)\s+(?:the|a|an)\b|\bmy\s+character\b|\blet'?s\s+say\s+i'?m\b", re.I)
_OUT_OF_CHARACTER = re.compile(r"진짜로\s*하는\s*말|진심으로\s*하는|농담\s*아니고|역할극\s*말고|설정\s*말고|현실에서는|실제로는|"
                               r"\bOOC\b|out\s+of\s+character|\bfor\s+real\b|\breal\s+talk\b|"
                               r"\bin\s+real\s+life\b", re.I)


def in_character(user_text: str, assistant_text: str = "") -> bool:
    """Return True when the message is role-play: an action in parentheses or taking on a role."""
    if _OUT_OF_CHARACTER.search(user_text):
        return False
    if _ACTION.search(user_text) or _SCENE.search(user_text):
        return True
    return bool((_RP_WORDS.search(user_text) or _RP_WORDS.search(assistant_text)) and _TAKE_ROLE.search(user_text))
