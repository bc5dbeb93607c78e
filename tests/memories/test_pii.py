"""PII masking before storage (seed 000 §7.2): what is masked, how, and what ordinary chat numbers are left alone."""
from __future__ import annotations

import re

import pytest

from memories.pii import PASSWORD_MASK, MaskResult, mask_pii


def _assert_masked(text: str, raw: str, kind: str, expected: str) -> MaskResult:
    result = mask_pii(text)
    assert result.text == expected  # the value is masked and everything around it is unchanged
    assert raw not in result.text
    digits = re.sub(r"\D", "", raw)
    if digits:
        assert digits not in re.sub(r"\D", "", result.text)
    assert kind in result.kinds
    assert result.found
    return result


CARDS = [
    ("카드번호 4111 1111 1111 1111 로 결제해줘", "4111 1111 1111 1111", "카드번호 **** **** **** **** 로 결제해줘"),
    ("내 카드는 4787-7893-2879-2170이야", "4787-7893-2879-2170", "내 카드는 ****-****-****-****이야"),
    ("카드 4787789328792170 으로 긁었어", "4787789328792170", "카드 **************** 으로 긁었어"),
    ("My card number is 4111111111111111, thanks", "4111111111111111", "My card number is ****************, thanks"),
    ("mastercard 5555-5555-5555-4444 expires soon", "5555-5555-5555-4444",
     "mastercard ****-****-****-**** expires soon"),
    ("아멕스는 3782 822463 10005 야", "3782 822463 10005", "아멕스는 **** ****** ***** 야"),
    ("old visa 4222222222222.", "4222222222222", "old visa *************."),
]


@pytest.mark.parametrize(("text", "raw", "expected"), CARDS)
def test_luhn_valid_card_is_masked_digit_by_digit_keeping_separators(text, raw, expected):
    _assert_masked(text, raw, "card", expected)


@pytest.mark.parametrize("text", ["주문번호 4111111111111112 확인해줘", "tracking 4111111111111112 pls"])
def test_luhn_invalid_sixteen_digits_without_card_or_account_context_are_not_a_card(text):
    result = mask_pii(text)
    assert result.text == text
    assert not result.found


@pytest.mark.parametrize("text, masked", [
    # a card's own grouping is a card even when a digit is off (a typo, or a number made up for a test)
    ("붙여넣음 ㅋㅋ 4532 7781 0094 2216 아 실수 lol", "붙여넣음 ㅋㅋ **** **** **** **** 아 실수 lol"),
    ("4111 1111 1111 1112", "**** **** **** ****"),
    ("번호 1234-5678-9012-3456 이거야", "번호 ****-****-****-**** 이거야"),
    # a run of digits right after a card word
    ("카드 4532778100942216 이거 맞나", "카드 **************** 이거 맞나"),
    ("card 4787789328792171", "card ****************"),
])
def test_a_card_number_with_a_digit_off_is_still_masked(text, masked):
    assert mask_pii(text).text == masked


RRNS = [
    ("주민번호 900101-1234567 맞아?", "900101-1234567", "주민번호 ******-******* 맞아?"),
    ("주민등록번호는 0201153456789이야", "0201153456789", "주민등록번호는 ******-*******이야"),
    ("my RRN is 851231 2345678.", "851231 2345678", "my RRN is ******-*******."),
    ("외국인등록번호 920229-5123456 입니다", "920229-5123456", "외국인등록번호 ******-******* 입니다"),
]


@pytest.mark.parametrize(("text", "raw", "expected"), RRNS)
def test_resident_registration_number_is_masked_whole(text, raw, expected):
    _assert_masked(text, raw, "rrn", expected)


@pytest.mark.parametrize("text", [
    "901301-1234567",  # month 13
    "900132-1234567",  # day 32
    "900230-1234567",  # 30 February
    "900101-9234567",  # 7th digit 9
])
def test_implausible_resident_number_is_not_an_rrn(text):
    assert "rrn" not in mask_pii(text).kinds


PHONES = [
    ("내 번호 010-4821-7753으로 연락해", "010-4821-7753", "내 번호 ***-****-****으로 연락해"),
    ("01012345678로 문자 줘", "01012345678", "***********로 문자 줘"),
    ("폰은 010 1234 5678 이야", "010 1234 5678", "폰은 *** **** **** 이야"),
    ("010.1234.5678 저장해", "010.1234.5678", "***.****.**** 저장해"),
    ("옛날 번호 011-123-4567 기억나?", "011-123-4567", "옛날 번호 ***-***-**** 기억나?"),
    ("엄마 번호 016-9876-5432", "016-9876-5432", "엄마 번호 ***-****-****"),
    ("017 123 4567, 018-1234-5678", "017 123 4567", "*** *** ****, ***-****-****"),
    ("019-234-5678에 걸어봐", "019-234-5678", "***-***-****에 걸어봐"),
    ("회사는 02-123-4567이고", "02-123-4567", "회사는 **-***-****이고"),
    ("본가 031-123-4567", "031-123-4567", "본가 ***-***-****"),
    ("사무실 (02) 1234-5678로 전화", "1234-5678", "사무실 (**) ****-****로 전화"),
    ("국제전화 +82 10-1234-5678 로 해", "+82 10-1234-5678", "국제전화 +** **-****-**** 로 해"),
    ("WhatsApp +82-10-1234-5678", "+82-10-1234-5678", "WhatsApp +**-**-****-****"),
    ("+821012345678로 보내", "+821012345678", "+************로 보내"),
    ("call me at +1 415 555 0100 tonight", "+1 415 555 0100", "call me at +* *** *** **** tonight"),
    ("Call 010-9876-5432 after 21:40", "010-9876-5432", "Call ***-****-**** after 21:40"),
    ("text me: 010-2222-3333.", "010-2222-3333", "text me: ***-****-****."),
]


@pytest.mark.parametrize(("text", "raw", "expected"), PHONES)
def test_phone_number_is_masked_digit_by_digit_keeping_separators(text, raw, expected):
    _assert_masked(text, raw, "phone", expected)


def test_phone_is_not_swallowed_as_account_after_account_words():
    result = mask_pii("계좌 말고 010-1234-5678로 연락줘")
    assert result.text == "계좌 말고 ***-****-****로 연락줘"
    assert result.kinds == ("phone",)


ACCOUNTS = [
    ("신한 110-123-456789로 보내줘", "110-123-456789", "신한 ***-***-******로 보내줘"),
    ("우리은행 1002-123-456789 입니다", "1002-123-456789", "우리은행 ****-***-****** 입니다"),
    ("기업 123-456789-01-234 으로 부탁해", "123-456789-01-234", "기업 ***-******-**-*** 으로 부탁해"),
    ("농협 352-1234-5678-93", "352-1234-5678-93", "농협 ***-****-****-**"),
    ("110-123-456789", "110-123-456789", "***-***-******"),
    ("계좌번호 110123456789 로 입금해줘", "110123456789", "계좌번호 ************ 로 입금해줘"),
    ("카카오뱅크 3333011234567 이체 부탁", "3333011234567", "카카오뱅크 ************* 이체 부탁"),
    ("토스 1000 1234 5678 이야", "1000 1234 5678", "토스 **** **** **** 이야"),
    ("국민 12345601234567로 송금해", "12345601234567", "국민 **************로 송금해"),
    ("my account number is 1234567890.", "1234567890", "my account number is **********."),
    ("acct: 9876543210 (checking)", "9876543210", "acct: ********** (checking)"),
    ("계좌번호 110-123-456789 10만원 보내줘", "110-123-456789", "계좌번호 ***-***-****** 10만원 보내줘"),
]


@pytest.mark.parametrize(("text", "raw", "expected"), ACCOUNTS)
def test_bank_account_number_is_masked_by_shape_or_context(text, raw, expected):
    _assert_masked(text, raw, "account", expected)


PASSWORDS = [
    ("비밀번호는 abc123!이야", "abc123!", "비밀번호는 ********이야"),
    ("비번 qwer1234", "qwer1234", "비번 ********"),
    ("비번 qwer1234임 까먹지 마", "qwer1234", "비번 ********임 까먹지 마"),
    ("비밀번호: P@ssw0rd 잊지마", "P@ssw0rd", "비밀번호: ******** 잊지마"),
    ("패스워드는 hello2024입니다", "hello2024", "패스워드는 ********입니다"),
    ("wifi 비번은 sunshine99야ㅋㅋ", "sunshine99", "wifi 비번은 ********야ㅋㅋ"),
    ("password is hunter2", "hunter2", "password is ********"),
    ("my password: Tr0ub4dor&3 lol", "Tr0ub4dor&3", "my password: ******** lol"),
    ("pw: qwerty!23 ok?", "qwerty!23", "pw: ******** ok?"),
    ("The password for my bank is MyB4nk", "MyB4nk", "The password for my bank is ********"),
    ("PIN 4321 입니다", "4321", "PIN ******** 입니다"),
]


@pytest.mark.parametrize(("text", "raw", "expected"), PASSWORDS)
def test_stated_password_is_masked_keeping_the_lead_in_and_korean_ending(text, raw, expected):
    _assert_masked(text, raw, "password", expected)


EMAILS = [
    ("메일은 minji.kim@example.com으로 보내줘", "minji.kim@example.com", "메일은 ***@***으로 보내줘"),
    ("email me at john+test@mail.co.kr.", "john+test@mail.co.kr", "email me at ***@***."),
    ("네이버 user01012345678@naver.com 이야", "user01012345678@naver.com", "네이버 ***@*** 이야"),
]


@pytest.mark.parametrize(("text", "raw", "expected"), EMAILS)
def test_email_is_masked_whole(text, raw, expected):
    result = _assert_masked(text, raw, "email", expected)
    assert result.kinds == ("email",)


ORDINARY_TEXT = [
    "나 24살이야",
    "키는 178이고 몸무게는 68kg",
    "토익 860점 받았어",
    "이번엔 850 나왔어",
    "점심 5만원 나왔어",
    "50,000원 입금했어",
    "1,234,567원이 통장에 있어",
    "3월 15일에 만나",
    "2026-03-08에 송금했어",
    "2026.03.08 21:40에 이체 완료",
    "입금일 2026-03-08 21:40에 50,000원 송금했어",
    "03-15 일정",
    "21:40에 보자",
    "2019학번이야",
    "학번 2019",
    "우리 학번은 2019123456",
    "송금 1500000000원 했어",
    "고객센터 1588-1234",
    "7016번 버스",
    "우편번호 06236",
    "원주율 3.14159",
    "1+1 행사",
    "2019-2020-2021 시즌 우승",
    "사과 3개, 배 2개",
    "우리 하나만 사자",
    "I'm 24 and 178cm tall",
    "scored 850 on the TOEIC",
    "it was $50,000 in 2019",
    "see you at 21:40 on 2026-03-08",
    "room 1203, version 1.2.3",
    "비밀번호 까먹었어",
    "비밀번호를 바꿔야 해",
    "비번 알려줄까?",
    "비밀번호 4자리",
    "암호화폐 얘기 좀 하자",
    "I forgot my password",
    "my password is too weak",
    "password manager is great",
    "",
]


@pytest.mark.parametrize("text", ORDINARY_TEXT)
def test_ordinary_chat_numbers_and_words_are_left_alone(text):
    result = mask_pii(text)
    assert result.text == text
    assert result.kinds == ()
    assert not result.found


ALL_POSITIVE = [text for text, _, _ in CARDS + RRNS + PHONES + ACCOUNTS + PASSWORDS + EMAILS]


@pytest.mark.parametrize("text", ALL_POSITIVE)
def test_masking_is_idempotent(text):
    once = mask_pii(text)
    twice = mask_pii(once.text)
    assert twice.text == once.text
    assert not twice.found


def test_several_kinds_in_one_text_are_reported_in_order_of_appearance():
    text = ("폰 010-1234-5678, 카드 4111-1111-1111-1111, 주민 900101-1234567, "
            "메일 a.b@example.com, 신한 110-123-456789, 비번은 x1y2z3이야")
    result = mask_pii(text)
    assert result.text == ("폰 ***-****-****, 카드 ****-****-****-****, 주민 ******-*******, "
                           "메일 ***@***, 신한 ***-***-******, 비번은 ********이야")
    assert result.kinds == ("phone", "card", "rrn", "email", "account", "password")


def test_each_kind_is_reported_once_however_often_it_occurs():
    result = mask_pii("010-1111-2222 아니면 010-3333-4444,010-5555-6666")
    assert result.text == "***-****-**** 아니면 ***-****-****,***-****-****"
    assert result.kinds == ("phone",)


def test_pii_next_to_dates_times_and_amounts_is_found_without_touching_them():
    result = mask_pii("2026-03-08 21:40 010-1234-5678 50,000원 계좌 110-123-456789")
    assert result.text == "2026-03-08 21:40 ***-****-**** 50,000원 계좌 ***-***-******"
    assert result.kinds == ("phone", "account")


def test_full_width_digits_are_masked():
    result = mask_pii("번호 ０１０-１２３４-５６７８")
    assert result.text == "번호 ***-****-****"
    assert result.kinds == ("phone",)


def test_empty_text_finds_nothing():
    assert mask_pii("") == MaskResult(text="", kinds=())


@pytest.mark.parametrize("text, secret", [
    ("my password for the Lumen onboarding portal is Tangerine-Moth-82", "Tangerine-Moth-82"),
    ("the pin for my building door is 4417", "4417"),
    ("password for my bank is hunter2!", "hunter2"),
])
def test_passwords_after_a_long_qualifier_are_masked_once(text, secret):
    result = mask_pii(text)
    assert secret not in result.text
    assert result.text.count(PASSWORD_MASK) == 1
    assert result.kinds == ("password",)


@pytest.mark.parametrize("text, secret", [
    ("i keep typing Biscuit!2019corgi and it says wrong", "Biscuit!2019corgi"),
    ("이거 맞나 mongsil1009!!", "mongsil1009!!"),
    ("wifi is Tz#88kk1pq at home", "Tz#88kk1pq"),
])
def test_password_shaped_tokens_are_masked_without_a_password_word(text, secret):
    result = mask_pii(text)
    assert secret not in result.text and "password" in result.kinds


@pytest.mark.parametrize("text", ["snake_case_123 is a name", "v2.0-beta on 2026-03-08", "covid19 test",
                                  "see https://example.com/a1!b"])
def test_ordinary_mixed_tokens_are_not_password_shaped(text):
    assert mask_pii(text).text == text


@pytest.mark.parametrize("text, address", [
    ("new place is 2280 w 32nd ave apt 4b lol", "2280 w 32nd ave apt 4b"),
    ("meet me at 350 Fifth Avenue tomorrow", "350 Fifth Avenue"),
    ("서울시 마포구 월드컵로 12길 34 이야", "월드컵로 12길 34"),
    ("우리 집 정자동 123-45 이야", "정자동 123-45"),
    ("아파트 101동 1002호 살아", "101동 1002호"),
])
def test_street_addresses_are_masked(text, address):
    result = mask_pii(text)
    assert address not in result.text and "address" in result.kinds


@pytest.mark.parametrize("text", ["i walked 5 blocks down main st", "we ran 10 k on the way", "나 신촌 살아",
                                  "2호선 타고 가", "see you on 5th avenue", "drove 20 min on the way home"])
def test_places_without_a_house_number_are_not_addresses(text):
    assert mask_pii(text).text == text


LABELLED_BANK_NUMBERS = [
    ("direct deposit: transit 04521 account 5093318, ok?", "direct deposit: transit ***** account *******, ok?"),
    ("my routing number is 021000021 and acct 12345678", "my routing number is ********* and acct ********"),
    ("sort code 12-34-56 account 31926819", "sort code **-**-** account ********"),
    ("계좌번호 1234567 이야", "계좌번호 ******* 이야"),
]


@pytest.mark.parametrize("text,expected", LABELLED_BANK_NUMBERS)
def test_a_number_right_after_the_name_of_a_bank_number_is_masked_whatever_its_length(text, expected):
    result = mask_pii(text)

    assert result.text == expected and "account" in result.kinds


@pytest.mark.parametrize("text", ["account balance is 5 dollars", "I ran 10000 steps", "my account since 2024",
                                  "the account had 12000원 left"])
def test_short_numbers_near_account_words_that_are_not_bank_numbers_stay(text):
    assert mask_pii(text).text == text


@pytest.mark.parametrize("text,expected", [
    ("인증번호 482913 뭐라고 입력해?", "인증번호 ******** 뭐라고 입력해?"),
    ("verification code is 482913", "verification code is ********"),
    ("the cvv is 123", "the cvv is ********"),
    ("gate code is 2468", "gate code is ********"),
    ("공동현관 번호 1234* 이야", "공동현관 번호 ******** 이야"),
    ("보안카드 번호는 1234야", "보안카드 번호는 ********야"),
])
def test_one_time_codes_card_security_codes_and_door_codes_are_secrets(text, expected):
    result = mask_pii(text)

    assert result.text == expected and "password" in result.kinds


@pytest.mark.parametrize("text,expected", [
    ("(604) 555-0199 is my cell", "(***) ***-**** is my cell"),
    ("my number is 604 555 0199", "my number is *** *** ****"),
    ("call me at 604.555.0199", "call me at ***.***.****"),
])
def test_north_american_numbers_in_any_grouping_are_phones(text, expected):
    result = mask_pii(text)

    assert result.text == expected and "phone" in result.kinds


@pytest.mark.parametrize("text", ["the code review went fine", "we won 3-2-1 in the end", "room 123 456 7890 lol"])
def test_code_words_and_numbers_that_are_not_secrets_or_phones_stay(text):
    assert mask_pii(text).text == text


@pytest.mark.parametrize("text,expected", [
    ("my license number is D1234567", "my license number is ********"),
    ("member id: AB-77120", "member id: **-*****"),
    ("회원번호 AB12345 이야", "회원번호 ******* 이야"),
    ("policy number 88-1203-44", "policy number **-****-**"),
])
def test_an_identifier_of_letters_and_digits_named_right_before_it_is_masked(text, expected):
    result = mask_pii(text)

    assert result.text == expected and "national_id" in result.kinds


@pytest.mark.parametrize("text", ["학번 20231234 이야", "membership number is pending", "license number 123"])
def test_named_identifiers_need_a_token_with_four_digits(text):
    assert mask_pii(text).text == text


@pytest.mark.parametrize("text", ["연애는 솔로 3년차 ㅋㅋ", "앞으로 2주 남음", "바로 3시에 봐", "퇴근길 3번 버스 탐"])
def test_words_ending_in_ro_or_gil_followed_by_a_count_are_no_road_address(text):
    assert mask_pii(text).text == text


@pytest.mark.parametrize("text,expected", [("우리집 테헤란로 152 야", "우리집 [주소] 야"),
                                           ("세종대로 110 근처 살아", "[주소] 근처 살아")])
def test_road_addresses_are_still_masked(text, expected):
    assert mask_pii(text).text == expected


@pytest.mark.parametrize("text, masked", [
    ("IBAN GB82 WEST 1234 5698 7654 32", "IBAN **** **** **** **** **** **"),
    ("iban DE89370400440532013000 thx", "iban ********************** thx"),
    ("차번호 12가 3456 이야", "차번호 **가 **** 이야"),
    ("내 차 123허4567", "내 차 ***허****"),
    ("apt 3 at 45 Queen St W, Toronto", "apt * at [주소], Toronto"),  # the unit belongs to the address
])
def test_ibans_number_plates_and_a_house_number_after_another_number(text, masked):
    assert mask_pii(text).text == masked


@pytest.mark.parametrize("text", ["3살 아이 5명", "AB12 CD34", "운동 30분 하고 5000보 걸음", "i ran 5 blocks down main st"])
def test_counts_and_short_codes_are_not_ibans_plates_or_addresses(text):
    assert mask_pii(text).text == text


@pytest.mark.parametrize(("text", "raw", "expected"), [
    # national numbers with their trunk 0, as people in other countries write them
    ("text me when it's done lol, 0413 662 918", "0413 662 918", "text me when it's done lol, **** *** ***"),
    ("call me 07712 845301 after six", "07712 845301", "call me ***** ****** after six"),
    ("office is 030 4417382", "030 4417382", "office is *** *******"),
    # a number right after a phone word, in any grouping
    ("text me at 555-0182", "555-0182", "text me at ***-****"),
    ("my number is 0172 55501234", "0172 55501234", "my number is **** ********"),
    ("연락처: 1588 7373", "1588 7373", "연락처: **** ****"),
])
def test_phones_written_the_way_other_countries_write_them_are_masked(text, raw, expected):
    _assert_masked(text, raw, "phone", expected)


@pytest.mark.parametrize("text", ["the score was 2 1 and 0 3", "born 1990 05 12", "we won 3-1 lol",
                                  "i ran 10 km in 0 55 30", "room 0102 345"])
def test_short_runs_of_numbers_are_not_phones(text):
    assert mask_pii(text).text == text


def test_an_account_named_with_a_possessive_is_an_account():
    _assert_masked("her account's 71928364 sort code 40-11-62", "71928364", "account",
                   "her account's ******** sort code **-**-**")


@pytest.mark.parametrize(("text", "expected"), [
    ("아 맞다 현관 비번 바꿨는데 자꾸 까먹음 5183* 여기 적어둘게", "아 맞다 현관 비번 바꿨는데 자꾸 까먹음 ******** 여기 적어둘게"),
    ("door code changed lol its now 6204#", "door code changed lol its now ********"),
])
def test_a_code_a_few_words_after_its_name_is_masked(text, expected):
    assert mask_pii(text).text == expected


def test_a_count_after_a_password_word_is_no_code():
    assert mask_pii("비번 바꿨는데 3번 틀림").text == "비번 바꿨는데 3번 틀림"


@pytest.mark.parametrize("text,raw", [
    ("this is Jay in unit 7C at 1422 Sunset, re: the deposit", "1422 Sunset"),
    ("I'm in flat 2, 14 Hawthorn Grove", "14 Hawthorn"),
])
def test_a_unit_then_a_street_named_without_its_kind_is_an_address(text, raw):
    assert raw not in mask_pii(text).text


def test_a_unit_before_a_time_is_no_address():
    assert mask_pii("unit 2 at 10 am tomorrow").text == "unit 2 at 10 am tomorrow"
