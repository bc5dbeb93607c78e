"""National identifiers other than Korea's resident number: what is masked, and which ordinary numbers stay.

A bare number counts only when a checksum or a format nothing else uses says so (SIN: Luhn, 3-3-3;
SSN: a valid area, group and serial, 3-2-4); its name right before it ("SSN", "SIN", "passport") is
enough for the compact form too.
"""
from __future__ import annotations

import pytest

from memories.pii import mask_pii

MASKED = [
    # Canadian SIN: Luhn-valid, first digit not 0 or 8
    ("my SIN's 527 813 646", "my SIN's *** *** ***", "sin"),
    ("SIN: 046-454-286 thanks", "SIN: ***-***-*** thanks", "sin"),
    ("527-813-646 is what the bank asked for", "***-***-*** is what the bank asked for", "sin"),
    ("my social insurance number is 130692544", "my social insurance number is *********", "sin"),
    ("SIN 123 456 789 (typed wrong?)", "SIN *** *** *** (typed wrong?)", "sin"),  # named: no checksum needed
    ("사회보험번호 193456787 이야", "사회보험번호 ********* 이야", "sin"),
    # US SSN: area not 000/666/9xx, group not 00, serial not 0000
    ("SSN 078-05-1120", "SSN ***-**-****", "ssn"),
    ("my social security number is 123-45-6789.", "my social security number is ***-**-****.", "ssn"),
    ("it's 123 45 6789", "it's *** ** ****", "ssn"),
    ("ssn 123456789", "ssn *********", "ssn"),
    ("사회보장번호는 219099999이야", "사회보장번호는 *********이야", "ssn"),
    # similar government numbers
    ("ITIN 912-70-1234", "ITIN ***-**-****", "national_id"),
    ("NI number AB 12 34 56 C", "NI number ** ** ** ** *", "national_id"),
    ("nino: ab123456c", "nino: *********", "national_id"),
    ("여권번호 M12345678 이야", "여권번호 ********* 이야", "national_id"),
    ("passport no. M123A4567", "passport no. *********", "national_id"),
    ("my passport number is 123456789", "my passport number is *********", "national_id"),
    ("운전면허 11-12-345678-90", "운전면허 **-**-******-**", "national_id"),
    ("면허번호 111234567890", "면허번호 ************", "national_id"),
]


@pytest.mark.parametrize(("text", "expected", "kind"), MASKED)
def test_national_identifier_is_masked(text, expected, kind):
    result = mask_pii(text)
    assert result.text == expected
    assert result.kinds == (kind,)


@pytest.mark.parametrize("text", [
    # SSN shapes in the SSA's never-issued ranges
    "000-12-3456", "666-12-3456", "900-12-3456", "123-00-4567", "123-45-0000",
    # nine digits without a name or a grouping that says "identifier"
    "order 123456789 shipped", "tracking 527813646",
    # 3-3-3 groups failing Luhn, or starting with 0 or 8
    "numbers 123 456 789", "codes 812 345 674",
    # amounts, counts, years and times
    "I paid 130 692 544 won", "130 692 544원", "scores 100 200 300", "it cost $527,813,646",
    "2019 2020 2021 seasons", "meet at 12:30 on 2026-03-08", "ran 527 km in 13 days",
    # words that look like a name but are not followed by a number
    "it's a sin to waste food", "SSN은 없어", "passport photo 2 pieces", "passport renewal took 12 weeks",
    # letters and digits that are not a NINO (prefix never issued, bad suffix)
    "GB123456A", "QQ123456C", "AB123456E",
])
def test_ordinary_numbers_and_near_misses_are_left_alone(text):
    result = mask_pii(text)
    assert result.text == text
    assert not {"ssn", "sin", "national_id"} & set(result.kinds)


@pytest.mark.parametrize("text", [text for text, _, _ in MASKED])
def test_masking_national_identifiers_is_idempotent(text):
    once = mask_pii(text).text
    assert mask_pii(once).text == once
    assert not mask_pii(once).found


def test_an_iso_timestamp_is_not_a_password():
    """The password-shaped rule looks at one token: "+09:00" after the time does not make "2026-03-08T12" one."""
    assert mask_pii("last seen 2026-03-08T12:00:00+09:00").text == "last seen 2026-03-08T12:00:00+09:00"
