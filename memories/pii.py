"""Mask personal data in text before it is stored (seed 000 §7.2): cards, resident numbers, phones, accounts,
passwords, e-mail addresses, street addresses and other national identifiers (US SSN, Canadian SIN, UK National
Insurance numbers, passports, Korean driver's licences).

This is the pattern engine; stored text reaches it through memories.masking (mask_text, mask_document).

Passwords and e-mails are found by their lead-in words and shape. Numbers are found as chains of digit groups
(joined by hyphens, dots or spaces) and each part of a chain is decided by the most specific check that accepts
it: resident-number date and 7th digit, card Luhn, phone prefix; only then account shape or account context.
Dates, times and amounts are fenced off first, so ordinary numbers in chat (ages, scores, prices, years) stay.
National identifiers other than Korea's are masked when a checksum or a format that nothing else has says so
(SIN: Luhn, grouped 3-3-3; SSN: valid area, group and serial, grouped 3-2-4), or when their name stands right
before them ("SSN 123456789", "passport M12345678").
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

CARD = "card"
RRN = "rrn"
PHONE = "phone"
ACCOUNT = "account"
PASSWORD = "password"
EMAIL = "email"
SSN = "ssn"  # US Social Security number
SIN = "sin"  # Canadian Social Insurance number
NATIONAL_ID = "national_id"  # other government numbers: US ITIN, UK NINO, passports, Korean driver's licences

PASSWORD_MASK = "********"
EMAIL_MASK = "***@***"
RRN_MASK = "******-*******"

# Stands in for text that is already masked or must not be read as a number; it keeps every offset in place.
_BLOCK = "\x00"
_MAX_GROUPS_PER_MATCH = 8  # no format has more groups; bounds the search on long runs of numbers
_CONTEXT_GAP = 15

# --- passwords -------------------------------------------------------------------------------------------------

_PASSWORD = re.compile(
    r"(?P<lead>비밀\s?번호|비번|패스워드|암호|핀\s?번호|인증\s?(?:번호|코드)|보안\s?카드\s?번호|도어\s?락\s?번호"
    r"|(?:공동\s?)?현관\s?(?:문\s?)?번호|(?<![A-Za-z])OTP(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:verification|security|confirmation|access|entry|door|gate|lock|alarm|one[-\s]time|2fa|mfa)"
    r"\s+code(?![A-Za-z])|(?<![A-Za-z])(?:cvv|cvc|csc)(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:password|passwd|passcode|pwd|pw)(?![A-Za-z])|(?<![A-Za-z])(?-i:PIN)(?![A-Za-z]))"
    r"(?:\s+(?:for|to|of|on)\s+(?:(?:the|my|our|your)\s+)?[A-Za-z0-9'._-]+)?"  # "password for my bank is ..."
    r"(?P<sep>\s*[:=：]\s*"
    r"|(?:는|은|가|이|를|을|도)\s*(?:[:=：]\s*)?"
    r"|\s+(?:is|was)(?:\s*[:=：])?\s+"
    r"|\s+)"
    r"(?P<token>\S+)",
    re.IGNORECASE,
)
# "my password for the Lumen onboarding portal is Tangerine-Moth-82": a longer qualifier, then is/was/:.
_PASSWORD_LONG_QUALIFIER = re.compile(
    r"(?<![A-Za-z])(?:password|passwd|passcode|pwd|pin)\s+(?:for|to|of|on|at)\s+(?:[A-Za-z0-9'._-]+\s+){0,6}?"
    r"(?:is|was)\s*[:=：]?\s*(?P<token>\S+)",
    re.IGNORECASE,
)
# A code a few words after its name ("집 비번 바꿨는데 자꾸 까먹음 4729* 여기 적어둘게", "door code changed, it's now
# 7291#"): a run of 4-8 digits in the same sentence.
_CODE_LATER = re.compile(
    r"(?:비밀\s?번호|비번|패스워드|암호|핀\s?번호|도어\s?락|현관\s?(?:문\s?)?번호"
    r"|(?<![A-Za-z])(?:password|passcode|pin|door\s+code|gate\s+code|alarm\s+code|lock\s+code)(?![A-Za-z]))"
    r"[^.!?\n\d]{0,40}?(?<![\w*#])(?P<token>[*#]?\d{4,8}[*#]?)(?![\w-])",
    re.IGNORECASE,
)
# A token shaped like a password even with no "password" word near it ("i keep typing Biscuit!2019corgi"):
# 8-64 characters mixing Latin letters, digits and a symbol. Dates, versions and prices lack one class.
# The lookaheads stay inside the token's own characters: "2026-03-08T12:00:00+09:00" is not one token.
_SECRET_CHARS = r"[A-Za-z0-9!@#$%^&*?~+=_.-]"
_SECRET_SHAPED = re.compile(rf"(?<![^\s(\"'])(?={_SECRET_CHARS}*[A-Za-z])(?={_SECRET_CHARS}*\d)"
                            rf"(?={_SECRET_CHARS}*[!@#$%^&*?~+=]){_SECRET_CHARS}{{8,64}}")
# Endings that attach to the secret in Korean ("abc123!이야"); anything else attached is kept as part of it.
_KOREAN_ENDINGS = frozenset({
    "이야", "야", "임", "입니다", "이에요", "예요", "에요", "이요", "요", "이고", "고", "이며", "며", "이라고", "라고",
    "이라서", "라서", "인데", "는데", "이거든", "거든", "이다", "다", "으로", "로", "이랑", "랑", "이니까", "니까",
    "이었어", "였어", "이었는데", "였는데", "이래", "래", "이지", "지", "이었음", "였음", "이었다", "였다", "이거야",
    "이라니까", "라니까", "인데요", "이에용", "이구", "구", "이니", "니", "이네", "네", "이었지", "였지",
})
# English words that follow "password is" in chat without being the password.
_PASSWORD_STOPWORDS = frozenset({
    "a", "an", "the", "too", "so", "very", "not", "no", "wrong", "incorrect", "correct", "right", "still", "also",
    "just", "really", "my", "your", "same", "different", "changed", "expired", "weak", "strong", "long", "short",
    "required", "needed", "set", "reset", "empty", "missing", "invalid", "valid", "case", "this", "that", "it",
    "for", "and", "or", "of", "to", "in", "on", "manager", "hint", "protected", "saved", "stored", "hidden",
})
_TRAILING_PUNCTUATION = ".,;:"
_TRAILING_JAMO = re.compile(r"[ㄱ-ㅎㅏ-ㅣ]+$")
_TRAILING_HANGUL = re.compile(r"[가-힣]+$")
_COUNT = re.compile(r"\d{1,2}")  # "비밀번호 4자리": a count, not a secret

# --- e-mail ----------------------------------------------------------------------------------------------------

_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}"
)

# --- numbers ---------------------------------------------------------------------------------------------------

_HYPHENS = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
# Parentheses join an area code or a dropped trunk zero: "(02) 123-4567", "+82 (0)10-1234-5678".
_SEPARATOR = rf"(?:[ \t]*[{_HYPHENS}][ \t]*|[ \t]{{1,3}}|\.|/|\)[ \t]?|[ \t]?\()"
_NUMBER_CHAIN = re.compile(rf"(?<!\d)(?:\+[ \t]?)?\d+(?:{_SEPARATOR}\d+)*")
_DIGITS = re.compile(r"\d+")
_ANY_DIGIT = re.compile(r"\d")

_PROTECTED = re.compile(
    # dates: 2026-03-08, 2026.3.8, 2026/03/08
    r"(?<![\d\-./])(?:19|20)\d{2}([\-./])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])(?!\d)(?![\-./]\d)"
    # times: 21:40, 09:05:30
    r"|(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])"
    # amounts with thousands separators: 50,000 / 1,234,567.89
    r"|(?<![\d,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])"
)

_MOBILE_PREFIXES = frozenset({"010", "011", "016", "017", "018", "019"})
_AREA_CODES = frozenset({
    "02", "031", "032", "033", "041", "042", "043", "044", "051", "052", "053", "054", "055",
    "061", "062", "063", "064", "070",
})
_PHONE_DIGITS = re.compile(r"(?:01[016789]|02|0(?:3[1-3]|4[1-4]|5[1-5]|6[1-4]|70))\d{7,8}")
_DAYS_IN_MONTH = (0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_YEAR = re.compile(r"(?:19|20)\d{2}")
_COMPACT_DATE = re.compile(r"(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])")

# Words after which a 10-16 digit number is an account (or card) number. The weak ones are everyday words too
# ("우리" = we, "하나" = one), so they count only when the number follows right after them.
_STRONG_ACCOUNT_CONTEXT = re.compile(
    r"계좌|통장|입금|송금|이체|은행|뱅크|예금주|신한|농협|카뱅|새마을금고|우체국|수협"
    r"|(?<![A-Za-z])(?:account|acct|a/c|IBK|KB|NH)(?![A-Za-z])"
    r"|카드|(?<![A-Za-z])(?:card|visa|mastercard|amex)(?![A-Za-z])",  # a payment number with a digit off
    re.IGNORECASE,
)
# A number right after the name of a bank number is one, whatever its length (other countries' accounts
# have 7-12 digits, routing and transit numbers 5-9).
_LABELLED_BANK_NUMBER = re.compile(
    r"(?:(?<![A-Za-z])(?:account|acct|a/c|routing|transit|sort\s*code|institution|bsb|aba|iban)|계좌|통장)"
    r"(?:'s|’s)?(?:\s*(?:number|no\.?|num|#|번호))?(?:\s*(?:is|was|=|:|#|-|는|은))?\s*$",
    re.IGNORECASE,
)
_WEAK_ACCOUNT_CONTEXT = re.compile(r"국민|우리|하나|기업|토스|씨티|부산|대구|광주|경남|전북|제주")
_WEAK_CONTEXT_GAP = re.compile(r"[\s:：=\-]*")
# A number followed by a unit is an amount or a count, not an account ("1500000000원").
_UNIT_AFTER = re.compile(
    r"\s?(?:원|만|억|천|조|달러|불|엔|유로|위안|개|명|번|회|살|세|점|년|월|일|시|분|초|%|배|등|위"
    r"|(?:km|kg|cm|mm|won|krw|usd|dollars?)(?![A-Za-z]))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class MaskResult:
    """The masked text and the kinds of personal data found, each once, in order of first appearance."""

    text: str
    kinds: tuple[str, ...]

    @property
    def found(self) -> bool:
        return bool(self.kinds)


class _Span(NamedTuple):
    start: int
    end: int
    replacement: str
    kind: str


ADDRESS = "address"
ADDRESS_MASK = "[주소]"
# Street addresses with a house number: "2280 w 32nd ave apt 4b", "서울시 마포구 월드컵로 12길 34",
# "정자동 123-45", "101동 1002호". A city or neighbourhood alone ("신촌", "austin") is not an address.
_ADDRESS = re.compile(
    # a unit before the civic number ("#302-1455 Robson St", "4/27 Smith St"), a lettered number ("221B")
    r"(?<![\w-])(?:\d{1,5}[-/])?\d{1,6}[A-Za-z]?\s+(?:[nsew]\.?\s+)?(?:(?:[A-Za-z0-9'.]+\s+){0,3}?"
    r"(?:st|street|ave|avenue|rd|road|blvd|boulevard|ln|lane|pkwy|parkway|hwy)"
    # street kinds that are everyday words too need a name before them ("17 Grosvenor Terrace", not "2 way")
    r"|(?:[A-Za-z0-9'.]+\s+){1,3}?(?:cres|crescent|terrace|tce|court|ct|drive|dr|place|pl|close|way|circle|cir"
    r"|square|sq|trail|highway|parade|pde|esplanade|gardens|gdns|mews|grove|row|walk|park|green|hill|vale|rise"
    r"|heights|loop|alley))\b\.?(?:\s+[nsew]{1,2}\b\.?)?"
    r"(?:,?\s*(?:apt|apartment|unit|suite|ste|flat|#)\.?\s*[\w-]+)?"
    # a unit, then the civic number and a street named without its kind ("unit 4B at 3810 Wilshire")
    r"|(?<![\w-])(?:unit|apt|apartment|suite|flat)\.?\s*#?[\w-]{1,5},?\s+(?:at\s+|in\s+|of\s+)?\d{1,6}\s+"
    r"(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+)){0,2}(?![\w'])"
    r"(?<!St)(?<!Street)(?<!Ave)(?<!Avenue)(?<!Rd)(?<!Road)(?<!Blvd)(?<!Ln)(?<!Lane)(?<!Dr)(?<!Drive)(?<!Ct)(?<!Court)"
    r"(?<!Pl)(?<!Place)(?<!Way)(?<!Grove)(?<!Terrace)(?<!Crescent)(?<!Close)(?<!Park)(?<!Hill)(?<!Row)(?<!Walk)"
    r"(?!\s+(?:st|street|ave|avenue|rd|road|blvd|boulevard|ln|lane|dr|drive|ct|court|pl|place|way|grove|terrace)\b)"
    # Korean addresses in Latin letters: "15, Teheran-ro 82-gil", "Sejong-daero 110"
    r"|(?<![\w-])\d{1,5},?\s+[A-Za-z]+-(?:daero|ro|gil)(?:\s+\d{1,4}(?:beon)?-gil)?"
    r"|(?<![\w-])[A-Za-z]+-(?:daero|ro|gil)\s+\d{1,4}(?:(?:beon)?-gil(?:\s+\d{1,5})?)?"
    # a house number by its name: "H.No. 8-2-293/82", "house no 14", "Road No. 12"
    r"|(?<![A-Za-z])(?:h\.?\s?no|house\s+no|door\s+no|plot\s+no|road\s+no)\.?\s*[:\-]?\s*\d[\w/-]*"
    # a post-office box, a Korean 동 in Latin letters ("Yeoksam-dong 123-45")
    r"|(?<![A-Za-z])(?:p\.?\s?o\.?\s*box|post\s+office\s+box)\s*#?\s*\d+|사서함\s*\d+(?:-\d+)?"
    r"|(?<![\w-])[A-Za-z]+-dong\s+\d{1,5}(?:-\d{1,5})?"
    # a flat in a named building ("래미안아파트 102동 304호", "해피빌라 201호", "B동 203호")
    r"|(?:아파트|빌라|오피스텔|맨션|하이츠|빌딩|원룸|주택)\s*(?:[A-Za-z가-힣]?\s?\d{0,4}\s?동\s*)?\d{1,4}\s*호"
    r"|(?<![A-Za-z0-9])[A-Za-z]\s?동\s?\d{1,5}\s?호"
    r"|[가-힣]{1,12}(?:로|길)\s?\d{1,4}(?:\s?(?:번?길)\s?\d{1,4})?(?:-\d{1,4})?"
    r"|[가-힣]{1,8}동\s?\d{1,5}-\d{1,5}(?:번지)?"
    r"|\d{1,4}동\s?\d{1,5}호",
    re.IGNORECASE,
)


# Words that never sit between a house number and a street name ("5 blocks down main st").
_NOT_STREET_WORDS = frozenset({
    "blocks", "block", "down", "up", "on", "the", "to", "in", "at", "of", "for", "and", "my", "a", "k", "km",
    "miles", "mile", "min", "mins", "minutes", "hours", "times", "from", "by", "off", "near", "across",
    "minute", "hour", "day", "days", "second", "seconds", "week", "weeks", "year", "years", "more", "other",
})


# Words ending in 로/길 that are no road ("솔로 3년차", "앞으로 2주", "바로 3시"), and what after the number says it is
# a count or a time, not a house number.
_NOT_ROAD_WORDS = frozenset("""
솔로 프로 제로 히어로 레트로 마이크로 매크로 바로 새로 따로 서로 정말로 진짜로 실제로 주로 대체로 스스로 절대로 그대로 멋대로
억지로 겉으로 앞으로 뒤로 위로 아래로 옆으로 처음으로 마지막으로 혼자로 실로 고로 그러므로 때로 대로 길 한길 외길 지름길 골목길
등굣길 퇴근길 출근길 귀갓길 산책길 밤길 눈길 빗길 첫길 오솔길 꽃길
""".split())
_COUNT_AFTER_ROAD = re.compile(r"\s?(?:년|살|개|번째|번|시간|시|분|초|차|월|일|주|명|층|킬로|키로|km|kg|등|위|점|%|배|회|세|장|권|잔|병)")


def _find_addresses(text: str) -> list[_Span]:
    spans = []
    position = 0
    while (match := _ADDRESS.search(text, position)) is not None:
        position = match.end()
        words = match.group().casefold().split()
        if len(words) > 1 and words[0][0].isdigit() and any(word in _NOT_STREET_WORDS for word in words[1:-1]):
            # "apt 3 at 45 Queen St": not from "3", but the real house number may come later in the same match
            position = match.start() + len(match.group().split()[0])
            continue
        road = re.match(r"([가-힣]+?)(?:로|길)\s?\d", match.group())
        if road and (re.sub(r"\s?\d+$", "", road.group(0)) in _NOT_ROAD_WORDS
                     or _COUNT_AFTER_ROAD.match(text, match.end())):
            continue
        spans.append(_Span(match.start(), match.end(), ADDRESS_MASK, ADDRESS))
    return spans


# The rest of an address once a message gives one (a street found, or "my address", "우리집", "배송지"): the unit
# ("apt 407", "unit 1204", "Flat 2", "1201호"), the post code ("BA1 6AX", "R2M 3K9", "IL 62704", "Seoul 06178").
_ADDRESS_LABEL = re.compile(r"(?<![A-Za-z])(?:address|addr|addy|live\s+at|lives\s+at|place\s+is"
                            r"|(?:ship|deliver|send|mail)\s+(?:it\s+)?to)(?![A-Za-z])"
                            r"|(?:우리|내|저희)\s?집|주소|배송지|사는\s?곳", re.I)
_ADDRESS_PARTS = re.compile(
    r"(?<![A-Za-z])(?:apt|apartment|unit|suite|ste|flat|#)\.?\s*\d{1,5}[A-Za-z]?(?![\w])"
    r"|(?<!\d)\d{1,4}\s?동\s?\d{1,5}\s?호|(?<![\d-])\d{3,4}\s?호(?!텔|실|선|차|기|점)"
    r"|(?<![A-Za-z0-9])(?P<post>[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|[A-Z]\d[A-Z]\s?\d[A-Z]\d)(?![A-Za-z0-9])"
    r"|(?<![A-Za-z])(?:[A-Z]{2}|seoul|busan|incheon|daegu|daejeon|gwangju|ulsan|sejong|gyeonggi(?:-do)?),?\s+"
    r"(?P<code>\d{5}(?:-\d{4})?)(?!\d)",
    re.I)


def _find_address_parts(work: str, spans: list[_Span]) -> list[_Span]:
    if not _ANY_DIGIT.search(work) or not (any(span.kind == ADDRESS for span in spans) or _ADDRESS_LABEL.search(work)):
        return []
    found = []
    for match in _ADDRESS_PARTS.finditer(work):
        if not sum(char.isdigit() for char in match.group()) or _BLOCK in match.group():
            continue
        if match.group("code"):  # the state or city before a post code stays: "Gangnam-gu, Seoul *****"
            found.append(_Span(match.start("code"), match.end("code"), _mask_digits(match.group("code")), ADDRESS))
        else:  # a unit keeps its word ("apt *"), a post code has letters of its own ("*** ***")
            mask = _mask_alphanumerics if match.group("post") else _mask_digits
            found.append(_Span(match.start(), match.end(), mask(match.group()), ADDRESS))
    return found


# --- national identifiers other than the resident registration number ------------------------------------------

ITIN = "itin"
PASSPORT = "passport"
LICENCE = "licence"
NAMED_ID = "named_id"  # any other identifier named right before it: licence, member, policy numbers (not 학번)
# The words that name an identifier. A number within _CONTEXT_GAP characters after its name is taken for that
# identifier in its compact form too ("SSN 123456789"), and without the checksum a bare number must pass.
_ID_NAMES = {
    SSN: re.compile(r"(?<![A-Za-z])(?:SSN|SS#|social\s+security(?:\s+(?:number|no|#))?)(?![A-Za-z])"
                    r"|사회\s?보장\s?번호", re.IGNORECASE),
    ITIN: re.compile(r"(?<![A-Za-z])(?:ITIN|taxpayer\s+identification\s+number)(?![A-Za-z])", re.IGNORECASE),
    SIN: re.compile(r"(?<![A-Za-z])(?:SIN|social\s+insurance(?:\s+(?:number|no|#))?|(?-i:NAS))(?![A-Za-z])"
                    r"|사회\s?보험\s?번호", re.IGNORECASE),
    PASSPORT: re.compile(r"(?<![A-Za-z])passport(?:\s+(?:number|no|#))?(?![A-Za-z])|여권(?:\s?번호)?", re.IGNORECASE),
    LICENCE: re.compile(r"(?<![A-Za-z])(?:driver'?s?\s+licen[cs]e|DL)(?:\s+(?:number|no|#))?(?![A-Za-z])"
                        r"|운전\s?면허(?:증)?(?:\s?번호)?|면허\s?번호", re.IGNORECASE),
    NAMED_ID: re.compile(
        r"(?<![A-Za-z])(?:licen[cs]e|member(?:ship)?|employee|staff|policy|patient|medical\s+record|health\s+card"
        r"|national|tax|customer)\s+(?:id|number|no\.?|#)(?![A-Za-z])|(?<![A-Za-z])(?:MRN|TIN)(?![A-Za-z])"
        r"|사번|회원\s?번호|수험\s?번호|증권\s?번호|고객\s?번호|환자\s?번호", re.IGNORECASE),
}
# What follows such a name is the identifier when it is one token of letters and digits, with 4 digits or more.
_NAMED_ID_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?=(?:[A-Za-z-]*\d){4})[A-Za-z0-9][A-Za-z0-9-]{3,19}(?![A-Za-z0-9])")


def _ssn_valid(digits: str) -> bool:
    """SSA rules: no area 000, 666 or 900-999, no group 00, no serial 0000."""
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def _itin_valid(digits: str) -> bool:
    """IRS individual taxpayer numbers: area 9xx, group 50-65, 70-88, 90-92 or 94-99."""
    group = int(digits[3:5])
    return digits[0] == "9" and (50 <= group <= 65 or 70 <= group <= 88 or 90 <= group <= 92 or group >= 94)


def _sin_valid(digits: str) -> bool:
    """Canadian SINs pass Luhn; 0 and 8 are never first (8 is for business numbers)."""
    return digits[0] not in "08" and _luhn_valid(digits)


def _licence_valid(digits: str) -> bool:
    """Korean driver's licences start with a region code, 11-28."""
    return 11 <= int(digits[:2]) <= 28


@dataclass(frozen=True)
class _NumberIdRule:
    """A government number made of digits only: its written grouping, the joints it may use, and the check a
    number must pass when its name is not right before it. Named, the grouping alone (or all digits in one
    group) is enough."""

    kind: str
    name: str
    groups: tuple[int, ...]
    joints: frozenset[str]
    valid: Callable[[str], bool]


_NUMBER_ID_RULES = (
    _NumberIdRule(SSN, SSN, (3, 2, 4), frozenset("- "), _ssn_valid),
    _NumberIdRule(NATIONAL_ID, ITIN, (3, 2, 4), frozenset("- "), _itin_valid),
    _NumberIdRule(SIN, SIN, (3, 3, 3), frozenset("- "), _sin_valid),
    _NumberIdRule(NATIONAL_ID, LICENCE, (2, 2, 6, 2), frozenset("-"), _licence_valid),
)

# Identifiers with letters. UK National Insurance numbers have a shape nothing else has (QQ 12 34 56 C; the
# prefixes HMRC never issues are left out); passports count only after their name.
_NINO = re.compile(
    r"(?<![A-Za-z0-9])(?!(?:BG|GB|NK|KN|TN|NT|ZZ)\s?\d)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
    r"(?:\s?\d{2}){3}\s?[A-D](?![A-Za-z0-9])",
    re.IGNORECASE,
)
_PASSPORT_NUMBER = re.compile(r"(?<![A-Za-z0-9])(?:[A-Za-z]{1,2}\d{7,8}|[A-Za-z]\d{3}[A-Za-z]\d{4}|\d{8,9})"
                              r"(?![A-Za-z0-9])")


def _id_name_ends(text: str) -> dict[str, list[int]]:
    """Where each identifier's name ends in `text`."""
    return {name: [m.end() for m in pattern.finditer(text)] for name, pattern in _ID_NAMES.items()}


def _named(name: str, start: int, names: dict[str, list[int]]) -> bool:
    return any(0 <= start - end <= _CONTEXT_GAP for end in names.get(name, ()))


def _mask_alphanumerics(value: str) -> str:
    return re.sub(r"[A-Za-z0-9]", "*", value)


def _find_lettered_ids(text: str, names: dict[str, list[int]]) -> list[_Span]:
    spans = [_Span(m.start(), m.end(), _mask_alphanumerics(m.group()), NATIONAL_ID) for m in _NINO.finditer(text)]
    for end in names[PASSPORT]:
        match = _PASSPORT_NUMBER.search(text, end)  # no endpos: it would cut a longer token into a match
        if match and match.start() - end <= _CONTEXT_GAP:
            spans.append(_Span(match.start(), match.end(), _mask_alphanumerics(match.group()), NATIONAL_ID))
    for end in names[NAMED_ID] + names[LICENCE]:
        match = _NAMED_ID_TOKEN.search(text, end)
        if match and match.start() - end <= 6 and re.fullmatch(r"[\s:=#：]*(?:is|was|는|은)?[\s:=#：]*",
                                                              text[end:match.start()]):
            spans.append(_Span(match.start(), match.end(), _mask_alphanumerics(match.group()), NATIONAL_ID))
    return spans


def _number_id(groups: list[str], seps: list[str], start: int, end: int, *, work: str,
               names: dict[str, list[int]]) -> str | None:
    digits = "".join(groups)
    counted = bool(_UNIT_AFTER.match(work, end))  # "130 692 544원" is an amount, unless named
    lengths = tuple(len(group) for group in groups)
    joints = {_separator_kind(sep) for sep in seps}
    for rule in _NUMBER_ID_RULES:
        if len(digits) != sum(rule.groups):
            continue
        named = _named(rule.name, start, names)
        if lengths == rule.groups and len(joints) == 1 and joints <= rule.joints \
                and (named or (rule.valid(digits) and not counted)):
            return rule.kind
        if len(groups) == 1 and named:
            return rule.kind
    return None


# --- the same text, read as a number reader would ---------------------------------------------------------------

# Full-width forms ("０１０", "nari＠naver.com") read as ASCII, one character for one.
_WIDE = {chr(code): chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)} | {"\u3000": " "}
_WIDE_TABLE = str.maketrans(_WIDE)
# Digits spelt out: Korean digit syllables, one per digit ("공일공 칠삼팔이", "일구팔칠"), and English digit words
# ("two zero zero one", "double five"). A run stands for its digits only when it holds 4 or more of them.
_KO_DIGIT = {"공": "0", "영": "0", "일": "1", "이": "2", "삼": "3", "사": "4", "오": "5", "육": "6", "륙": "6",
             "칠": "7", "팔": "8", "구": "9"}
_KO_PARTICLE_AFTER = r"(?:에|다시|이고|이야|이에요|입니다|이요|야|임|고|요|인데|이래|래)?(?![가-힣])"
_KO_SPELT = re.compile(rf"(?<![가-힣])[공영일이삼사오육륙칠팔구]{{3,}}?(?={_KO_PARTICLE_AFTER})")
# How a hyphen is read aloud between the parts of a number ("공일공에 팔이칠삼", "010 다시 1234").
_JOINED = re.compile(r"\s*(?:에|다시|-)?\s*")
_KO_JOINER = re.compile(r"(?<=\d)(에|\s다시)(?=\s*\d)")
_EN_DIGIT = {"zero": "0", "oh": "0", "o": "0", "nil": "0", "one": "1", "two": "2", "three": "3", "four": "4",
             "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_EN_WORD = r"(?:zero|oh|o|nil|one|two|three|four|five|six|seven|eight|nine|double|triple)"
_EN_SPELT = re.compile(rf"(?<![A-Za-z])(?!oh\b|o\b){_EN_WORD}(?:[\s,-]+{_EN_WORD}){{2,}}(?![A-Za-z])", re.I)
# Stands in for the rest of a spelt-out run once its digits are written: kept inside the masked span.
_FILL = "\x01"
_MIN_SPELT_DIGITS = 4


def _spelt_english(words: str) -> str:
    digits, repeat = [], 1
    for word in re.findall(r"[A-Za-z]+", words.lower()):
        if word in ("double", "triple"):
            repeat = 2 if word == "double" else 3
            continue
        digits.append(_EN_DIGIT[word] * repeat)
        repeat = 1
    return "".join(digits)


def _read_as_numbers(text: str) -> str:
    """`text` with full-width forms folded and spelt-out digits written as digits, at the same offsets."""
    work = text.translate(_WIDE_TABLE)
    chars = list(work)
    spelt = list(_KO_SPELT.finditer(work))
    for index, match in enumerate(spelt):
        # three syllables are a number only beside another part of one ("공일공 칠삼팔이"), not alone ("오일이 새")
        beside = any(_JOINED.fullmatch(work, match.end(), other.start()) or _JOINED.fullmatch(work, other.end(),
                                                                                            match.start())
                     for other in spelt[:index] + spelt[index + 1:])
        near_digits = re.search(r"\d[\s에-]{0,3}$", work[max(0, match.start() - 4):match.start()]) \
            or re.match(r"[\s에-]{0,3}\d", work[match.end():match.end() + 4])
        if len(match.group()) >= _MIN_SPELT_DIGITS or beside or near_digits:
            chars[match.start():match.end()] = [_KO_DIGIT[char] for char in match.group()]
    for match in _EN_SPELT.finditer(work):
        digits = _spelt_english(match.group())
        if len(digits) >= _MIN_SPELT_DIGITS and len(digits) <= len(match.group()):
            chars[match.start():match.end()] = list(digits + _FILL * (len(match.group()) - len(digits)))
    work = "".join(chars)
    return _KO_JOINER.sub(lambda m: "-" if m.group(1) == "에" else " -" + " " * (len(m.group(1)) - 2), work)


def _over_fill(spans: list[_Span], work: str) -> list[_Span]:
    """Stretch each span over the rest of a spelt-out run it ends in."""
    stretched = []
    for span in spans:
        end = span.end
        while end < len(work) and work[end] == _FILL:
            end += 1
        stretched.append(span._replace(end=end) if end != span.end else span)
    return stretched


# --- numbers told after what they are ---------------------------------------------------------------------------

# "my social is 618-22-0479 … the last four are 9054", "주민번호 앞자리 770930이고 뒷자리는 1288070", "acc number…
# 3312 0098. then 4471", "비번 1357 아니고 1375": once a message names what kind of number it gives, the numbers of
# 4 digits or more that follow it in the next _LABEL_REACH characters are that number (parts, corrections and
# all), unless they read as something else: an amount, a count with its unit, a year, a measure with letters.
_LABEL_REACH = 64
_LABELS = (
    (PHONE, 4, re.compile(
        r"(?<![A-Za-z])(?:phone|cell|mobile|whats\s?app|number'?s"
        r"|(?:my|his|her|their|our|ur|your|the)\s+(?:number|num|#)"
        r"|(?:call|text|ring|reach|message)\s+(?:me|him|her|them|us|my\s+\w+)\s+(?:on|at))(?![A-Za-z])"
        r"|전화|폰\s*번호|핸드폰|휴대폰|연락처|전번"
        r"|(?:내|제|우리|엄마|아빠|형|누나|언니|오빠|동생|친구|여친|남친|와이프|남편|걔|쟤|그\s?사람)\s*(?:폰\s*)?번호", re.I)),
    (CARD, 3, re.compile(
        r"(?<![A-Za-z])(?:card|visa|master\s?card|amex|discover|cvv|cvc|csc|security\s+code)(?![A-Za-z])"
        r"|카드|뒷면|보안\s?코드|cvc", re.I)),
    (ACCOUNT, 4, re.compile(
        r"(?<![A-Za-z])(?:account|acct|acc|a/c|bank\s+details|sort\s*code|routing|transit|ifsc|bsb|iban)"
        r"(?![A-Za-z])|[A-Za-z]*bank(?![A-Za-z])|계좌|통장|은행|뱅크|케뱅|카뱅|입금|송금|이체", re.I)),
    (RRN, 4, re.compile(r"주민\s?(?:등록)?\s?번호|주민\s?번|외국인\s?등록|등록\s?번호|앞자리|뒷자리")),
    (SSN, 4, re.compile(r"(?<![A-Za-z])(?:ssn|social(?:\s+security)?)(?:\s+(?:number|no\.?|num|#))?(?![A-Za-z])",
                        re.I)),
    (NATIONAL_ID, 4, re.compile(
        r"(?<![A-Za-z])(?:sin|nhs|ni|national\s+insurance|passport|voter|pan|aadhaa?r"
        r"|licen[cs]e|medicare|tfn|tax\s+file|id)(?:\s+(?:number|no\.?|num|#|card))?(?![A-Za-z])"
        r"|여권|면허|신분증", re.I)),
    (ADDRESS, 3, _ADDRESS_LABEL),
    (PASSWORD, 4, re.compile(
        r"(?<![A-Za-z])(?:password|passcode|pin|code|alarm|otp)(?![A-Za-z])|비밀\s?번호|비번|암호|핀\s?번호|도어\s?락"
        r"|현관", re.I)),
)
_SHORT_DATE = re.compile(r"\d{1,2}/\d{1,2}")
_LABELLED_TOKEN_KINDS = (NATIONAL_ID, PASSWORD)  # their numbers may carry letters ("XKT4829174")
_CURRENCY_BEFORE = re.compile(r"[$€£¥₩₹]\s?$|(?:rs|inr|usd|krw|aud|cad)\.?\s?$", re.I)
_LETTER_AFTER = re.compile(r"[A-Za-z]")


def _find_labelled(work: str) -> list[_Span]:
    if not _ANY_DIGIT.search(work):
        return []  # most chat messages: no number to find
    spans: list[_Span] = []

    def free(start: int, end: int) -> bool:  # one identifier is masked once, by the first label that reaches it
        return all(end <= span.start or span.end <= start for span in spans)
    for kind, fewest, label in _LABELS:
        for found in label.finditer(work):
            reach = work[found.end():found.end() + _LABEL_REACH].split("\n", 1)[0]
            offset = found.end()
            for chain in _NUMBER_CHAIN.finditer(reach):
                start, end = offset + chain.start(), offset + chain.end()
                digits = sum(char.isdigit() for char in chain.group())
                if not free(start, end) or digits < fewest or _UNIT_AFTER.match(work, end) \
                        or _LETTER_AFTER.match(work, end) \
                        or _CURRENCY_BEFORE.search(work, max(0, start - 4), start):
                    continue
                if kind != PASSWORD and digits == 4 and _YEAR.fullmatch(chain.group()) \
                        or _SHORT_DATE.fullmatch(chain.group()):
                    continue  # "renewing it before 2027", "visa appointment on 12/08"
                spans.append(_Span(start, end, _mask_digits(chain.group()), kind))
            if kind in _LABELLED_TOKEN_KINDS:  # letters and digits in one token ("XKT4829174"): masked whole
                for token in _NAMED_ID_TOKEN.finditer(reach):
                    start, end = offset + token.start(), offset + token.end()
                    outside = [span for span in spans if not start <= span.start <= span.end <= end]
                    if re.search(r"[A-Za-z]", token.group()) \
                            and all(end <= span.start or span.end <= start for span in outside):
                        spans[:] = outside + [_Span(start, end, _mask_alphanumerics(token.group()), kind)]
    return spans


# A card's expiry told with it ("exp 11/26", "유효기간 09/27", "만료 2028년 3월", "4741 2154 7280 3857, 12/27").
_EXPIRY = re.compile(
    r"(?:(?<![A-Za-z])(?:exp(?:iry|ires|\.)?|valid\s+(?:thru|through|until)|good\s+thru)(?:\s+date)?(?![A-Za-z])"
    r"|유효\s?기간|만료(?:일)?)[\s:：=]*(?:는|은)?\s*"
    r"(?P<value>\d{4}\s?년\s?\d{1,2}\s?월|\d{1,2}\s?월\s?\d{2,4}\s?년?|\d{1,2}\s?[/.\-]\s?\d{2,4}|\d{4})(?!\d)",
    re.I)
_MONTH_YEAR = re.compile(r"[\s,]{1,3}(?P<value>(?:0[1-9]|1[0-2])/\d{2})(?![\d/])")


def _find_card_expiry(work: str, spans: list[_Span]) -> list[_Span]:
    cards = [span for span in spans if span.kind == CARD]
    if not _ANY_DIGIT.search(work) or not (cards or _STRONG_ACCOUNT_CONTEXT.search(work)):
        return []
    spans = [_Span(m.start("value"), m.end("value"), _mask_digits(m.group("value")), CARD)
             for m in _EXPIRY.finditer(work)]
    for card in cards:
        if match := _MONTH_YEAR.match(work, card.end):
            spans.append(_Span(match.start("value"), match.end("value"), _mask_digits(match.group("value")), CARD))
    return spans


def mask_pii(text: str) -> MaskResult:
    """Return `text` with cards, resident and other national identity numbers, phones, accounts, passwords,
    e-mails and street addresses masked."""
    if not text:
        return MaskResult(text=text, kinds=())
    spans: list[_Span] = []
    read = _read_as_numbers(text)
    work = read
    names = _id_name_ends(work)
    for find in (_find_passwords, _find_emails, _find_spoken_emails, _find_iban_and_plates,
                 partial(_find_lettered_ids, names=names), _find_addresses):
        found = find(work)
        spans.extend(found)
        work = _blocked(work, [(s.start, s.end) for s in found])
    work = _blocked(work, [m.span() for m in _PROTECTED.finditer(work)])
    context = work  # what the account pass reads around a number (the specific pass's numbers still in it)
    for find in (partial(_find_numbers, classify=partial(_classify_specific, work=context, names=names)),
                 partial(_find_numbers, classify=partial(_classify_account, work=context,
                                                         contexts=_account_contexts(read))),
                 partial(_find_card_expiry, spans=spans),
                 partial(_find_address_parts, spans=spans),
                 _find_labelled):
        found = find(work)
        spans.extend(found)
        work = _blocked(work, [(s.start, s.end) for s in found])
    return _apply(text, _over_fill(spans, read))


# --- assembly --------------------------------------------------------------------------------------------------

def _blocked(text: str, ranges: list[tuple[int, int]]) -> str:
    if not ranges:
        return text
    chars = list(text)
    for start, end in ranges:
        chars[start:end] = _BLOCK * (end - start)
    return "".join(chars)


def _apply(text: str, spans: list[_Span]) -> MaskResult:
    parts: list[str] = []
    kinds: list[str] = []
    position = 0
    for span in sorted(spans):
        if span.start < position:
            continue  # a span inside one already applied: the text is masked once
        parts.append(text[position:span.start])
        parts.append(span.replacement)
        position = span.end
        if span.kind not in kinds:
            kinds.append(span.kind)
    parts.append(text[position:])
    return MaskResult(text="".join(parts), kinds=tuple(kinds))


def _mask_digits(value: str) -> str:
    return _DIGITS.sub(lambda m: "*" * len(m.group()), value)


# --- IBANs and Korean vehicle plates ---------------------------------------------------------------------------

# "GB82 WEST 1234 5698 7654 32", "DE89370400440532013000": a country code, two check digits, 11-30 letters and
# digits (grouped by four or not); "12가 3456", "서울 34나 5678": a Korean number plate.
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?(?![A-Za-z0-9])")
_PLATE = re.compile(r"(?<![\d가-힣])(?:[가-힣]{2}\s?)?\d{2,3}\s?[가-힣]\s?\d{4}(?!\d)")
_PLATE_LETTERS = set("가나다라마거너더러머버서어저고노도로모보소오조구누두루무부수우주하허호바사아자배")
PLATE = "vehicle_plate"
IBAN = "iban"


# An IBAN typed in lower case ("ie39 aibk 9311 5240 9172 36") counts when its check digits say so (ISO 13616).
_IBAN_ANY_CASE = re.compile(_IBAN.pattern, re.I)
# India's PAN: five letters (the fourth says who holds it), four digits, a letter — a shape nothing else has.
_PAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z](?![A-Za-z0-9])")


def _iban_valid(value: str) -> bool:
    compact = re.sub(r"\s", "", value).upper()
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(char, 36)) for char in moved)) % 97 == 1


def _find_iban_and_plates(text: str) -> list[_Span]:
    spans = []
    for match in _IBAN_ANY_CASE.finditer(text):
        if sum(char.isdigit() for char in match.group()) >= 8 \
                and (_IBAN.fullmatch(match.group()) or _iban_valid(match.group())):
            spans.append(_Span(match.start(), match.end(), _mask_alnum(match.group()), IBAN))
    spans += [_Span(m.start(), m.end(), _mask_alnum(m.group()), NATIONAL_ID) for m in _PAN.finditer(text)]
    for match in _PLATE.finditer(text):
        letter = re.search(r"\d\s?([가-힣])\s?\d", match.group())
        if letter and letter.group(1) in _PLATE_LETTERS:
            spans.append(_Span(match.start(), match.end(), _mask_digits(match.group()), PLATE))
    return spans


def _mask_alnum(value: str) -> str:
    return re.sub(r"[A-Za-z0-9]", "*", value)


# --- passwords and e-mail --------------------------------------------------------------------------------------

def _find_passwords(text: str) -> list[_Span]:
    spans = []
    for match in _SECRET_SHAPED.finditer(text):
        if match.group().startswith("#") and not re.search(r"[!@#$%^&*?~+=]", match.group()[1:]):
            continue  # "#WM-77320145": an order number, its "#" a number sign
        if "@" not in match.group() and "://" not in text[max(0, match.start() - 8):match.end()]:
            spans.append(_Span(match.start(), match.end(), PASSWORD_MASK, PASSWORD))
    for match in _PASSWORD_LONG_QUALIFIER.finditer(text):
        secret_length = _secret_length(match.group("token"), needs_symbol=False)
        if secret_length and match.start("token") not in {span.start for span in spans}:
            start = match.start("token")
            spans.append(_Span(start, start + secret_length, PASSWORD_MASK, PASSWORD))
    for match in _CODE_LATER.finditer(text):
        if match.start("token") not in {span.start for span in spans}:
            spans.append(_Span(match.start("token"), match.end("token"), PASSWORD_MASK, PASSWORD))
    covered = {span.start for span in spans}
    for match in _PASSWORD.finditer(text):
        if match.start("token") in covered:
            continue
        token = match.group("token")
        lead_is_english = match.group("lead").isascii()
        secret_length = _secret_length(token, needs_symbol=lead_is_english and not match.group("sep").strip())
        if secret_length:
            start = match.start("token")
            spans.append(_Span(start, start + secret_length, PASSWORD_MASK, PASSWORD))
    return spans


def _secret_length(token: str, *, needs_symbol: bool) -> int:
    """Return how much of `token` is the secret: without sentence punctuation or an attached Korean ending."""
    secret = token.rstrip(_TRAILING_PUNCTUATION)
    secret = _TRAILING_JAMO.sub("", secret)  # "ㅋㅋ"
    ending = _TRAILING_HANGUL.search(secret)
    if ending and ending.group() in _KOREAN_ENDINGS:
        secret = secret[:ending.start()]
    elif ending and _COUNT.fullmatch(secret[:ending.start()]):
        return 0
    # Hangul-only words are not passwords here: Korean users type passwords in the Latin layout.
    if not re.search(r"[A-Za-z0-9]", secret) or secret.lower() in _PASSWORD_STOPWORDS:
        return 0
    # "password hunter2" without "is" or ":" is too loose for bare words ("password manager").
    if needs_symbol and secret.isalpha():
        return 0
    return len(secret)


def _find_emails(text: str) -> list[_Span]:
    if "@" not in text:
        return []
    return [_Span(m.start(), m.end(), EMAIL_MASK, EMAIL) for m in _EMAIL.finditer(text)]


# An address read aloud or typed around a filter: "minji_lee at daum dot net", "yuna.song 골뱅이 naver.com",
# "dev dot patel 21 at yahoo dot co dot in", "chloe.bennett07 at gmail" (a mail host needs no ending).
_TLD = r"(?:com|net|org|edu|gov|io|co|kr|in|uk|us|ca|au|nz|ie|de|fr|jp|cn|me|info|biz|ac|sg|app|dev|xyz)"
_MAIL_HOST = (r"(?:gmail|googlemail|naver|daum|hanmail|kakao|nate|yahoo|hotmail|outlook|live|icloud|proton(?:mail)?"
              r"|aol|gmx|yandex|qq|163)")
_SPOKEN_AT = r"(?:\s+(?:at|앳)\s+|\s*골뱅이\s*|\s*[(\[]\s*at\s*[)\]]\s*|\s*@\s*)"
_SPOKEN_DOT = r"(?:\s*\.\s*|\s+dot\s+|\s*닷\s*|\s*점\s*|\s*[(\[]\s*dot\s*[)\]]\s*)"
_SPOKEN_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._+-])(?P<local>[A-Za-z0-9][A-Za-z0-9._+-]*(?:(?:\s+dot\s+|\s*[(\[]dot[)\]]\s*)[A-Za-z0-9_+-]+)*"
    rf"(?:\s\d{{1,4}})?){_SPOKEN_AT}(?P<domain>[A-Za-z0-9-]+(?:{_SPOKEN_DOT}[A-Za-z0-9-]+)*?{_SPOKEN_DOT}{_TLD}"
    rf"(?![A-Za-z])|{_MAIL_HOST}(?![A-Za-z.@]))",
    re.I)
_EMAIL_WORD = re.compile(r"e-?mail|mail|메일|login|아이디|(?<![A-Za-z])id(?![A-Za-z])", re.I)
_AT_ANY = re.compile(r"(?<![A-Za-z])at(?![A-Za-z])|앳|골뱅이|@", re.I)


def _find_spoken_emails(text: str) -> list[_Span]:
    if not _AT_ANY.search(text):
        return []
    spans = []
    for match in _SPOKEN_EMAIL.finditer(text):
        if re.search(r"[._+\d]", match.group("local")) or _EMAIL_WORD.search(text):
            spans.append(_Span(match.start(), match.end(), EMAIL_MASK, EMAIL))
    return spans


# --- numbers ---------------------------------------------------------------------------------------------------

# classify(groups, separators, starts_with_plus, start, end) -> kind or None
_Classifier = Callable[[list[str], list[str], bool, int, int], str | None]


def _find_numbers(work: str, classify: _Classifier) -> list[_Span]:
    """Split each digit chain in `work` into the longest leftmost parts that `classify` accepts."""
    spans = []
    for chain in _NUMBER_CHAIN.finditer(work):
        plus = chain.group().startswith("+")
        groups = [(chain.start() + m.start(), chain.start() + m.end()) for m in _DIGITS.finditer(chain.group())]
        values = [_ascii_digits(work[start:end]) for start, end in groups]
        separators = [work[groups[n][1]:groups[n + 1][0]] for n in range(len(groups) - 1)]
        first = 0
        while first < len(groups):
            with_plus = plus and first == 0
            start = chain.start() if with_plus else groups[first][0]
            for last in range(min(len(groups), first + _MAX_GROUPS_PER_MATCH) - 1, first - 1, -1):
                end = groups[last][1]
                kind = classify(values[first:last + 1], separators[first:last], with_plus, start, end)
                if kind:
                    value = work[start:end]
                    spans.append(_Span(start, end, RRN_MASK if kind == RRN else _mask_digits(value), kind))
                    first = last + 1
                    break
            else:
                first += 1
    return spans


def _ascii_digits(value: str) -> str:
    return "".join(str(int(char)) for char in value)  # full-width and other Unicode digits too


def _classify_specific(groups: list[str], seps: list[str], plus: bool, start: int, end: int, *, work: str,
                       names: dict[str, list[int]]) -> str | None:
    if not plus and _is_rrn(groups):
        return RRN
    if not plus and _is_card(groups, seps):
        return CARD
    if not plus and (kind := _number_id(groups, seps, start, end, work=work, names=names)):
        return kind
    if _is_phone(groups, plus, named=_PHONE_NAMED.search(work, max(0, start - 30), start) is not None):
        return PHONE
    return None


# A phone word right before a number ("text me at", "my cell is", "전화번호는", "연락처:").
_PHONE_NAMED = re.compile(
    r"(?:(?<![A-Za-z])(?:phone|cell|mobile|whatsapp|text\s+me|call\s+me|ring\s+me|reach\s+me|"
    r"(?:my|his|her|their|our|ur|your)\s+(?:number|num|#))(?:\s+(?:is|at|on))?"
    r"|전화(?:번호)?|폰\s*번호|핸드폰|휴대폰|연락처|전번|(?:내|제|우리)\s*번호)[\s:：=\-]*(?:(?:is|at|on|는|은|이|:)\s*)?$",
    re.IGNORECASE,
)


def _is_rrn(groups: list[str]) -> bool:
    digits = "".join(groups)
    if [len(g) for g in groups] not in ([13], [6, 7]):
        return False
    month, day = int(digits[2:4]), int(digits[4:6])
    return 1 <= month <= 12 and 1 <= day <= _DAYS_IN_MONTH[month] and digits[6] in "12345678"


def _is_card(groups: list[str], seps: list[str]) -> bool:
    digits = "".join(groups)
    joints = {_separator_kind(sep) for sep in seps}
    if not 13 <= len(digits) <= 19 or not joints <= {"-", " ", "."}:
        return False
    lengths = [len(g) for g in groups]
    grouped_by_four = lengths[0] == 4 and all(n == 4 for n in lengths[1:-1]) and 1 <= lengths[-1] <= 4
    if "." in joints and not (grouped_by_four and len(groups) == 4):
        return False  # "4821.9935.1819.0934"; other dotted runs are versions and amounts
    if not (len(lengths) == 1 or grouped_by_four or lengths in ([4, 6, 5], [4, 6, 4])):
        return False
    # A card's own grouping (4-4-4-4, Amex 4-6-5) is a card even when a digit is off (a typo, a made-up number):
    # nothing else is written that way. A run of digits alone needs Luhn (or a card word before it: an account
    # context, _STRONG_ACCOUNT_CONTEXT).
    if lengths == [4, 4, 4, 4] or lengths in ([4, 6, 5], [4, 6, 4]):
        return True
    return _luhn_valid(digits)


def _luhn_valid(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _is_phone(groups: list[str], plus: bool, *, named: bool = False) -> bool:
    digits = "".join(groups)
    if plus:  # E.164: at most 15 digits with the country code
        return 8 <= len(digits) <= 15 and (len(groups) > 1 or len(digits) >= 10)
    if named and 7 <= len(digits) <= 15 and not _YEAR.fullmatch(groups[0]):
        return True  # "text me at 555-0199", "my number is 0176 12345678": a phone word right before it
    if len(groups) == 1:
        return bool(_PHONE_DIGITS.fullmatch(digits))
    if groups[0].startswith("0") and 2 <= len(groups[0]) <= 5 and 9 <= len(digits) <= 12 \
            and all(len(g) >= 3 for g in groups[1:]):
        return True  # a national number with its trunk 0: 0412 555 839, 07700 900123, 030 1234567, 020 7946 0958
    if [len(g) for g in groups] == [3, 3, 4] and groups[0][0] in "23456789" and groups[1][0] in "23456789":
        return True  # North American: (604) 555-0199, 604.555.0199, 604 555 0199
    head, *rest = groups
    if head not in _MOBILE_PREFIXES and head not in _AREA_CODES:
        return False
    return [len(g) for g in rest] in ([3, 4], [4, 4], [7], [8])


def _account_contexts(text: str) -> list[tuple[int, bool]]:
    """Return where each account context word ends, and whether it is a weak one."""
    strong = [(m.end(), False) for m in _STRONG_ACCOUNT_CONTEXT.finditer(text)]
    weak = [(m.end(), True) for m in _WEAK_ACCOUNT_CONTEXT.finditer(text)]
    return strong + weak


def _classify_account(groups: list[str], seps: list[str], plus: bool, start: int, end: int, *, work: str,
                      contexts: list[tuple[int, bool]]) -> str | None:
    digits = "".join(groups)
    if _UNIT_AFTER.match(work, end):
        return None
    if 5 <= len(digits) <= 17 and _LABELLED_BANK_NUMBER.search(work, max(0, start - 40), start):
        return ACCOUNT  # "transit 04521 account 5093318", "routing # 021000021", "sort code 12-34-56"
    if not 10 <= len(digits) <= 16:
        return None
    if len(groups) > 1 and all(_YEAR.fullmatch(g) for g in groups):
        return None
    if _has_account_shape(groups, seps):
        return ACCOUNT
    separator_kinds = {_separator_kind(sep) for sep in seps}
    if len(separator_kinds) > 1 or (len(groups) > 1 and any(_COMPACT_DATE.fullmatch(g) for g in groups)):
        return None
    return ACCOUNT if _follows_account_context(start, work, contexts) else None


def _has_account_shape(groups: list[str], seps: list[str]) -> bool:
    """Hyphenated Korean bank formats: 110-123-456789, 1002-123-456789, 123-456789-01-234, 352-1234-5678-93."""
    return (
        len(groups) >= 3
        and all(_separator_kind(sep) == "-" for sep in seps)
        and 3 <= len(groups[0]) <= 6
        and all(len(g) >= 2 for g in groups[1:-1])
    )


def _separator_kind(sep: str) -> str:
    """Return the kind of joint between two digit groups: "-", ".", "()", "/" or " "."""
    if any(char in _HYPHENS for char in sep):
        return "-"
    if "." in sep:
        return "."
    if "(" in sep or ")" in sep:
        return "()"
    if "/" in sep:
        return "/"
    return " "


def _follows_account_context(start: int, work: str, contexts: list[tuple[int, bool]]) -> bool:
    for context_end, weak in contexts:
        if not 0 <= start - context_end <= _CONTEXT_GAP:
            continue
        if not weak or _WEAK_CONTEXT_GAP.fullmatch(work, context_end, start):
            return True
    return False


LLM_MASK = "[가림]"


def mask_substrings(text: str, substrings: list[str]) -> str:
    """Mask substrings an LLM flagged as sensitive (longest first, so no part of a longer one survives)."""
    for value in sorted({s for s in substrings if s and s.strip()}, key=len, reverse=True):
        text = text.replace(value, LLM_MASK)
    return text
