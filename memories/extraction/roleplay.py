"""Is the user speaking in character? Facts of a role ("나는 기사 할래. 이름은 레온, 27살") are not the user's."""
from __future__ import annotations

import re

# An action between asterisks has words in it and no space inside the marks ("*kicks the door*"); masked
# personal data is asterisks too ("+* (***) ***-****") and is no action.
_STARRED = r"\*(?=[^*\s])(?=[^*\n]*[A-Za-z가-힣])[^*\n]{{{low},{high}}}(?<=[^*\s])\*"
# An English aside in parentheses is no action ("(onions but also emotions)", "(probably)"): an action opens with its
# verb and carries no aside word.
_ASIDE_EN = r"(?![^)]*\b(?:but|also|though|tho|lol|lmao|haha|jk|probably|maybe|i\s+mean|not|or|because|bc)\b)"
_ACTION = re.compile(r"\((?=[^)]{2,60}\))(?:[^)]*[가-힣][^)]*(?:며|면서|고|다|한다|는다|듯|채)|" + _ASIDE_EN
                     + r"[^)]*(?:ing|s))\s*\)|" + _STARRED.format(low=0, high=58)
                     + r"|^\s*\([^)]{2,40}\)")
_SCENE = re.compile(r"^\s*\[[^\]]{1,30}\]")
_RP_WORDS = re.compile(r"역할극|롤플|롤플레이|상황극|역할\s*놀이|\bRP\b|role-?\s?play|\bdo a story\b|\bstory time\b"
                       r"|\bmake up a story\b|\bplay pretend\b", re.I)
_TAKE_ROLE = re.compile(
    r"(?:나는|난|저는|전)\s*\S+\s*(?:할래|할게|역할|맡을게|해볼래|할게요|할래요)|설정은|캐릭터는|내\s*캐릭|"
    r"\bi'?ll\s+(?:be|play)\s+(?:the|a|an)\b|\bmy\s+character\b|\blet'?s\s+say\s+i'?m\b"
    r"|\bi\s+(?:want|wanna)\s+to\s+(?:be|play)\s+(?:the|a|an)\b", re.I)
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


# --- role-play over a window of turns ------------------------------------------------------------------

_PROPOSAL = re.compile(
    r"(?:역할극|롤플레잉|롤플레이|롤플|상황극|역할\s*놀이|콩트|role-?\s?play|(?<![A-Za-z])rp(?![A-Za-z]))\s*(?:을|를|이나|하나|한\s*번|같이|좀)?\s*"
    r"(?:하자|할래요?|해볼래요?|해\s*볼래요?|해볼까요?|할까요?|해보자|해\s*보자|해\s*봐요|해요|해용|합시다|하죠|하실래요|"
    r"시작|ㄱㄱ|고고|어때요?|하고\s*싶|해줘|해\s*줘|해주세요|ㄱ)"
    r"|\blet'?s\s+(?:do|play|try|start)\s+(?:a\s+|an\s+|some\s+)?(?:[\w-]+\s+){0,3}?(?:role-?\s?play|rp|story|scenario|"
    r"game\s+of\s+pretend)\b"
    r"|\b(?:wanna|want\s+to|can\s+we|could\s+we|shall\s+we|how\s+about)\s+(?:do\s+|play\s+|try\s+)?(?:a\s+|an\s+|some\s+)?"
    r"(?:[\w-]+\s+){0,3}?(?:role-?\s?play|rp)\b"
    r"|\b(?:role-?\s?play|rp)\s+(?:time|mode|start)\b|\bin\s+character\b"
    # asked in a word, opening a sentence: "bored. roleplay? space pirates pls", "rp pls", "롤플 ㄱ?", "상황극??"
    r"|(?:^|[.!?~]\s*)\W*(?:role-?\s?play|rp|롤플(?:레이)?|역할극|상황극)\s*(?:\?|pls\b|plz\b|please\b|ㄱ)"
    # pretending: "in this test I am different person", "let's pretend I'm a chef", "다른 사람인 척 할게"
    r"|\b(?:i'?m|i\s+am)\s+(?:a\s+)?different\s+person\b|\blet'?s\s+pretend\b|(?:^|[.!?]\s*|\bi'?ll\s+)pretend\s+(?:i'?m|i\s+am|to\s+be|that|you'?re)\b"
    r"|\bimagine\s+(?:i'?m|i\s+am)\b|다른\s*사람(?:인|이라고)?\s*(?:척|치고)|(?:인|인\s*것)\s*척\s*(?:할게|하자|해볼게|해\s*볼게)"
    # the other side asking for the user's role: "give me ur character", "who r u in this story"
    r"|\bgive\s+me\s+(?:ur|your)\s+(?:character|role|persona)\b"
    r"|\b(?:wanna|want\s+to|let'?s|can\s+we|could\s+we|shall\s+we|how\s+about\s+we)\s+play\s+(?:a\s+game\s+of\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:pirates|knights|spies|detectives|wizards|astronauts|superheroes|zombies|vampires|"
    r"cops\s+and\s+robbers|house|pretend|make-?believe)\b",
    re.I)
# "you're the captain of a pirate ship, i'm the first mate": both roles handed out in one message.
_BOTH_ROLES = re.compile(r"(?:\byou'?re|\byou\s+are|\byou\s+(?:play|be))\s+(?:the|a|an)\s+[\w' -]{2,40}?[,;.!]?\s+(?:and\s+)?"
                         r"(?:i'?m|i\s+am|i'?ll\s+be|i\s+play)\s+(?:the|a|an|your)\s+\w+"
                         r"|(?:\bi'?m|\bi\s+am|\bi'?ll\s+be)\s+(?:the|a|an)\s+[\w' -]{2,40}?[,;.!]?\s+(?:and\s+)?"
                         r"(?:you'?re|you\s+are|you\s+play|you\s+be)\s+(?:the|a|an|my)\s+\w+", re.I)
# A persona's self-introduction: "captain rosa vex.", "i'm commander shepard", "name's jax, born on europa".
_PERSONA = re.compile(r"^\W*(?:(?:ok(?:ay)?|alright|fine|so|then|ㅇㅋ)\W+)?(?:(?:i'?m|i\s+am|name'?s|they\s+call\s+me|call\s+me)\s+)?(?:captain|capt\.?|commander|admiral|"
                      r"lord|lady|sir|dame|king|queen|prince|princess|detective|agent|general|sergeant|lieutenant|"
                      r"professor|doctor|dr\.|master|knight|warlord|emperor|empress|baron|duke|count)\s+"
                      r"(?!(?:of|at|for|and|the|now|too|in|on|so|again|this|that|my|our|to|lol|haha)\b)[a-z][\w'-]+", re.I)
_OTHERWORLDLY = re.compile(r"\bfrom\s+(?:mars|venus|jupiter|saturn|the\s+(?:moon|stars|void|outer\s+rim|kingdom|north\s+pole)"
                           r"|another\s+(?:planet|galaxy|world|dimension)|planet\s+\w+)|\bborn\s+on\s+(?:mars|europa|titan|"
                           r"the\s+moon|a\s+(?:ship|starship))|\b(?:centuries|millennia|\d{3,}\s+years)\s+old\b", re.I)
_ASSIGN_ROLE = re.compile(
    r"\byou'?re\s+(?:the|my|a|an)\s+\w+|\byou\s+(?:play|be)\s+(?:the|my|a|an)\s+\w+|\bi'?ll\s+be\s+(?:the|your|a|an)\s+"
    r"|(?:너는|넌|니가|네가)\s*\S+\s*(?:역할|해|하고|맡아)|(?:나는|난)\s*\S+\s*(?:역할|할게|할래|맡을게)", re.I)
_END = re.compile(r"롤플\S*\s*(?:끝|그만|종료|멈춰|스탑|중단)|역할극\s*(?:끝|그만|종료|중단)|상황극\s*(?:끝|그만|종료)"
                  r"|(?:여기까지|이제)\s*(?:현실|본론)|\b(?:end|stop|quit|pause|exit)\s+(?:the\s+)?(?:role-?\s?play|rp|story"
                  r"|game)\b|\b(?:role-?\s?play|rp)\s+(?:is\s+)?(?:over|done|ended)\b|\bback\s+to\s+(?:reality|real\s+life)\b"
                  r"|\bbreaking\s+character\b", re.I)
# Closing a game in few words ("ㅋㅋㅋ 끝 재밌네", "the end!") or a comment on the acting ("언니 연기 미쳤다"):
# only while a window is open, where a bare "끝" can only mean the game.
_END_SHORT = re.compile(r"^\W*(?:[ㅋㅎ]+\s*)?(?:끝|끗|땡|컷)(?=[\s!~.ㅋㅎ]|$)|^\W*(?:the\s+end|end\s+scene|fin|scene)\W*$"
                        r"|(?:연기|역할극|상황극|롤플|스토리|전개|설정)\S*\s*(?:개|완전|진짜|넘|너무)?\s*(?:재밌|재미있|잘\s*하|잘했|잘\s*짬|잘짬|"
                        r"최고|미쳤|대박|좋았|지림|쩐다)"
                        r"|\b(?:great|nice|good|fun)\s+(?:acting|roleplay|rp|scene|game|story)\b"
                        r"|\bthat\s+was\s+(?:so\s+|really\s+|super\s+)?(?:fun|great|awesome|amazing|fun\s+lol)\b"
                        r"|\breal[\s-]+life\s+(?:update|news|stuff|talk|question)\b|\birl\s+(?:update|news|tho|though)\b"
                        r"|\b(?:ok(?:ay)?|anyway|anyways|lol)[,.\s]+(?:back\s+(?:to|in)\s+)?real[\s-]+life\b|\bend(?:s|ing)?\s+(?:the\s+)?scene\b"
                        r"|현실\s*(?:복귀|으로\s*(?:돌아|복귀)|로\s*복귀)"
                        r"|재밌었(?:다|어|어요)|현실\s*(?:로\s*돌아와서|얘기|이야기)"
                        r"|(?:오늘은|일단|그럼)\s*여기까지|여기까지\s*(?:하자|할게|하고|만)|여기서\s*끊|다음\s*(?:화에|편에|에|시간에)\s*계속"
                        r"|\bto\s+be\s+continued\b|\blet'?s\s+(?:stop|pause|end)\s+(?:here|there|for\s+(?:today|now|tonight))\b",
                        re.I)
_OOC_MARK = re.compile(r"^\s*[(\[]\s*(?:ooc|OOC|현실|진지)\b|\bOOC\b|\(\s*ooc\s*[):]|//\s*ooc|현실\s*얘기|진지하게\s*(?:현실|말)", re.I)
_NARRATION = re.compile(_STARRED.format(low=1, high=78) + r"|^\s*\([^)]{3,60}\)|^\s*[\"“][^\"”]{2,}[\"”]\s*(?:\w+\s+)?(?:said|says|asked|shouted|"
                        r"whispered)|\b(?:draws?|unsheathes?|bows?|nods?|grins?|smirks?)\s+(?:his|her|my|the)\b")
_MAX_GAP_HOURS = 6


class RolePlayWindow:
    """Follow role-play over a conversation: a proposal by either side, in-character narration or an assigned
    role opens it; "(ooc)" marks one real message; "롤플 끝", "end the roleplay" or a long pause closes it."""

    def __init__(self) -> None:
        self.active = False
        self._last_at = None

    def _gap(self, at) -> bool:
        if self._last_at is None or at is None:
            return False
        try:
            return (at - self._last_at).total_seconds() > _MAX_GAP_HOURS * 3600
        except TypeError:
            return False

    def see_assistant(self, text: str, at=None) -> None:
        if self._gap(at):
            self.active = False
        self._last_at = at or self._last_at
        if _END.search(text) or (self.active and _END_SHORT.search(text)):
            self.active = False
        elif _PROPOSAL.search(text) or (_RP_WORDS.search(text) and _ASSIGN_ROLE.search(text)) \
                or _BOTH_ROLES.search(text):
            self.active = True

    def user_in_character(self, text: str, context: str = "", at=None) -> bool:
        """Return True when this user message is spoken in character (and update the window)."""
        if self._gap(at):
            self.active = False
        self._last_at = at or self._last_at
        if _END.search(text) or (self.active and _END_SHORT.search(text)):
            self.active = False
            return bool(in_character(text, context)) and not _OOC_MARK.search(text)
        if _OOC_MARK.search(text) or _OUT_OF_CHARACTER.search(text):
            return False
        if _PROPOSAL.search(text) or (_RP_WORDS.search(text) and _ASSIGN_ROLE.search(text)):
            self.active = True
            return True  # the set-up turn ("무협 롤플 하자, 나는 흑풍 할게") is not about the user
        if self.active:
            return True
        if in_character(text, context) or (_NARRATION.search(text) and _NARRATION.search(context or "")) \
                or _BOTH_ROLES.search(text) \
                or (_PERSONA.search(text) and (_NARRATION.search(context or "") or _OTHERWORLDLY.search(text))):
            self.active = True
            return True
        return False
