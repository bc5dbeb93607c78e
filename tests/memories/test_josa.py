"""Korean particles chosen by the final sound of the word before them (memories.extraction.josa), and the
extracted values written with one; no database."""
from __future__ import annotations

import pytest

from memories.extraction.josa import CONSONANT, RIEUL, UNKNOWN, VOWEL, ending, josa, particle
from memories.extraction.korean_places import place_facts
from memories.extraction.korean_status import dating_facts

# word → its forms of 이/가, 은/는, 을/를, 과/와, 으로/로, 이에요/예요
TABLE = {
    "춘심": ("춘심이", "춘심은", "춘심을", "춘심과", "춘심으로", "춘심이에요"),
    "지훈": ("지훈이", "지훈은", "지훈을", "지훈과", "지훈으로", "지훈이에요"),
    "소라": ("소라가", "소라는", "소라를", "소라와", "소라로", "소라예요"),
    "유나": ("유나가", "유나는", "유나를", "유나와", "유나로", "유나예요"),
    "미나": ("미나가", "미나는", "미나를", "미나와", "미나로", "미나예요"),
    "하늘": ("하늘이", "하늘은", "하늘을", "하늘과", "하늘로", "하늘이에요"),  # ㄹ: 로, not 으로
    "별": ("별이", "별은", "별을", "별과", "별로", "별이에요"),
    "Alex": ("Alex가", "Alex는", "Alex를", "Alex와", "Alex로", "Alex예요"),  # 알렉스
    "Mina": ("Mina가", "Mina는", "Mina를", "Mina와", "Mina로", "Mina예요"),
    "7": ("7이", "7은", "7을", "7과", "7로", "7이에요"),  # 칠
    "3": ("3이", "3은", "3을", "3과", "3으로", "3이에요"),  # 삼
}
PAIRS = ("이/가", "은/는", "을/를", "과/와", "으로/로", "이에요/예요")


@pytest.mark.parametrize("word", TABLE)
def test_every_particle_pair_follows_the_final_sound(word):
    assert tuple(josa(word, pair) for pair in PAIRS) == TABLE[word]


@pytest.mark.parametrize("pair, reversed_pair", [("이/가", "가/이"), ("은/는", "는/은"), ("과/와", "와/과"),
                                                 ("으로/로", "로/으로")])
def test_a_pair_may_be_written_in_either_order(pair, reversed_pair):
    for word in TABLE:
        assert particle(word, pair) == particle(word, reversed_pair)


@pytest.mark.parametrize("word, expected", [
    # digits by their Korean reading: the last digit, or the unit the trailing zeros name
    ("1", RIEUL), ("8", RIEUL), ("2", VOWEL), ("4", VOWEL), ("5", VOWEL), ("9", VOWEL), ("0", CONSONANT),
    ("6", CONSONANT), ("21", RIEUL), ("10", CONSONANT), ("20", CONSONANT), ("100", CONSONANT),
    ("1000", CONSONANT), ("10000", CONSONANT), ("1000000000000", VOWEL), ("3.5", VOWEL), ("v2", VOWEL),
    # letters spelled out: 엘 알 엠 엔; the others end in a vowel
    ("L", RIEUL), ("R", RIEUL), ("M", CONSONANT), ("N", CONSONANT), ("A", VOWEL), ("API", VOWEL),
    ("HTML", RIEUL), ("IBM", CONSONANT), ("SNS", VOWEL),
    # English words by their ending
    ("Bill", RIEUL), ("Michelle", RIEUL), ("Tom", CONSONANT), ("John", CONSONANT), ("Jane", CONSONANT),
    ("Jack", CONSONANT), ("Bob", CONSONANT), ("Matt", CONSONANT), ("Mark", VOWEL), ("Kate", VOWEL),
    ("Sarah", VOWEL), ("Peter", VOWEL),
    # Hangul odds and ends
    ("ㅋ", CONSONANT), ("ㄹ", RIEUL), ("ㅏ", VOWEL), ("춘심(春心)", CONSONANT), ("'소라' ", VOWEL),
    ("민수 씨", VOWEL), ("강남역", CONSONANT),
    # cannot tell
    ("春心", UNKNOWN), ("🐱", UNKNOWN), ("", UNKNOWN),
])
def test_how_a_word_ends(word, expected):
    assert ending(word) == expected


def test_an_unreadable_ending_gets_the_neutral_form():
    assert josa("春心", "이/가") == "春心이(가)"
    assert josa("春心", "으로/로") == "春心(으)로"
    assert josa("🐱", "을/를") == "🐱을(를)"


def test_an_unknown_pair_is_an_error():
    with pytest.raises(KeyError):
        particle("춘심", "에게/한테")


@pytest.mark.parametrize("text, expected", [
    ("지훈이랑 사귀는 중이야", "지훈과 연애 중"), ("민지랑 사귀는 중", "민지와 연애 중"),
    ("하늘이랑 사귀어", "하늘과 연애 중"), ("Alex랑 사귀는 중", "Alex와 연애 중"),
])
def test_a_dating_partner_takes_the_right_particle(text, expected):
    assert [c.value for c in dating_facts(text, text)] == [expected]


@pytest.mark.parametrize("text, expected", [
    ("나 이제 판교로 출퇴근해", "판교로 출퇴근"), ("역삼으로 출퇴근해", "역삼으로 출퇴근"), ("서울로 출퇴근해", "서울로 출퇴근"),
])
def test_a_commute_takes_the_right_particle(text, expected):
    assert expected in [c.value for c in place_facts(text) if c.subject == "commute"]
