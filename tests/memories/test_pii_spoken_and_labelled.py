"""Personal data typed around a filter: digits spelt out, numbers told after their name, a card's expiry, e-mails
read aloud, the rest of an address, lower-case IBANs (memories.pii; measured on bench/pii_formats)."""
import pytest

from memories.pii import mask_pii


@pytest.mark.parametrize(("text", "gone", "kind"), [
    # Korean digit syllables, one per digit, alone or mixed with digits; "에"/"다시" read as the hyphen
    ("내 번호 공일공 구팔칠육 오사삼이 저장해줘", ["구팔칠육", "오사삼이"], "phone"),
    ("폰 010에 사삼이일 8765 ㅋㅋ", ["사삼이일", "8765"], "phone"),
    ("공일공 다시 칠칠팔팔 다시 일이일이 여기로 연락줘", ["칠칠팔팔", "일이일이"], "phone"),
    # English digit words, "double" included
    ("my pin is four four one nine lol", ["four four one nine"], "password"),
    ("text me on zero four one two, double three four, five six seven", ["double three"], "phone"),
    # a number told after what it is, in parts or corrected
    ("주민번호 앞자리 880412 뒷자리는 2345678 이래", ["880412", "2345678"], "rrn"),
    ("first five of my ssn are 123-45 and the last four 6789", ["123-45", "6789"], "ssn"),
    ("현관 비번 4321 아니고 4312야 헷갈려", ["4321", "4312"], "password"),
    ("my acc no... I'll send it in bits. 5521 8830. then 1192", ["5521", "8830", "1192"], "account"),
    ("her number's 9820012345 if you need her", ["9820012345"], "phone"),
    ("voter ID QRT5512903 came in the mail", ["QRT5512903"], "national_id"),
    ("엄마 번호 010/5512/9087 이야", ["5512", "9087"], "phone"),
    # a card's expiry and security code told with it
    ("card 4111 1111 1111 1111 exp 04/29 cvc 512", ["04/29", "512", "4111"], "card"),
    ("5105 1051 0510 5100, 11/28 that's the one", ["11/28"], "card"),
    ("카드 번호는 안 알려줌 ㅋ 유효기간 2029년 7월만 알려줌", ["2029년 7월"], "card"),
    # e-mails read aloud or typed in full-width forms
    ("mail me: hana.kim at naver dot com", ["hana.kim", "naver dot com"], "email"),
    ("메일 sj_park 골뱅이 daum.net 으로 보내줘", ["sj_park"], "email"),
    ("내 메일 ｍｉｎｓｅｏ＠ｇｍａｉｌ．ｃｏｍ 이야", ["ｍｉｎｓｅｏ"], "email"),
    # the rest of an address: units, post codes, Korean roads in Latin letters
    ("I live at 12 Birchwood Crescent, flat 3, Leeds LS6 2AB", ["Birchwood", "flat 3", "LS6 2AB"], "address"),
    ("우리집 305동 1102호야 놀러와", ["305동", "1102호"], "address"),
    ("택배 주소 판교역로 235 인데 호수 804호", ["804호"], "address"),
    ("my address is 7, Sejong-daero 23-gil, Jongno-gu", ["Sejong-daero"], "address"),
    ("we're at #302-1455 Robson St now", ["1455", "302"], "address"),
    ("send it to PO Box 5521, Austin", ["5521"], "address"),
    ("해피빌라 201호 살아", ["201호"], "address"),
    # an IBAN in lower case that its check digits confirm, India's PAN
    ("gb82 west 1234 5698 7654 32 is my iban", ["west 1234"], "iban"),
    ("PAN is ABCPK1234Z for the form", ["ABCPK1234Z"], "national_id"),
])
def test_identifier_typed_around_a_filter_is_masked(text, gone, kind):
    result = mask_pii(text)
    for piece in gone:
        assert piece not in result.text, result.text
    assert kind in result.kinds


@pytest.mark.parametrize("text", [
    # digit syllables that are words ("오일이" oil, "사이사이" in between), digit words that are counting
    "엔진 오일이 다 떨어졌어", "사이사이 끼워 넣어줘", "one two three go!!",
    # numbers near a label word that are something else
    "phone bill came to 85000원 this month", "my card game lasted 2 hours", "passport renewal took 12 weeks",
    "visa appointment on 12/08 at 9am", "got a birthday card from grandma in 2019",
    "쿠팡 운송장 번호 451289370624 조회해봐", "호텔 1201호에 묵었어",
    # an expiry date with no card in the message, "at" that is not an e-mail
    "won 3 games in a row", "10 minute walk to the park", "2 new apt listings",
    "milk expires 12/03 lol", "I work at google dot com now", "meet me at the mall",
    # an order number with a number sign, an invalid lower-case IBAN shape
    "order no. #WM-77320145 arrives tue",
])
def test_ordinary_text_near_those_shapes_is_left_alone(text):
    assert mask_pii(text).text == text


def test_spelt_digits_are_masked_whole_and_masking_is_idempotent():
    text = "pin two zero zero one, don't tell"
    once = mask_pii(text).text
    assert "zero" not in once and "two" not in once
    assert mask_pii(once).text == once


@pytest.mark.parametrize(("text", "masked"), [
    ("voter ID QRT5512903 came in the mail", "voter ID ********** came in the mail"),  # the digits inside the token too
    ("social 123-45-6789 and passport K12345678", "social ***-**-**** and passport *********"),
])
def test_an_identifier_found_twice_is_masked_once(text, masked):
    assert mask_pii(text).text == masked
