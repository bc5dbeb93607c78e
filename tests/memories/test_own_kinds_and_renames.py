"""extraction.changes without a database: what the user has one of at a time (own kinds: a game, a phone, a rank, hair
colour, a drink), renames in English, a part of the day, and extraction.plausible. Sentences written for these tests
(no recall corpus)."""
import pytest

from memories.extraction.changes import OWN_KINDS, RENAME, changed_value, old_values
from memories.extraction.plausible import age_years, implausible


@pytest.mark.parametrize("text,kind,older,old", [
    ("요즘 롤 접고 오버워치만 함 ㅋㅋ", "game", "롤 하다가 새벽 3시에 잠", "롤"),
    ("apex is my whole life now, switched last week", "game", "minecraft with my cousin again lol", "minecraft"),
    ("드디어 다이아 찍음!!", "rank", "아직 플래 3에서 못 올라감 ㅠ", "플래"),
    ("finally hit diamond 4", "rank", "stuck in silver 2 forever", "silver"),
    ("랭 돌렸는데 골2 찍음 ㅋㅋ", "rank", "티어는 실버1에서 몇달째 박혀있음", "실버"),  # "골2": gold 2, as players write it
    ("폰 바꿨어 아이폰 16 프로", "phone", "갤럭시 s23 쓰는데 카메라 별로임", "갤럭시 s23"),
    ("dyed my hair purple yesterday", "hair", "my hair is brown right now", "brown"),
    ("머리 금발로 탈색했어", "hair", "요즘 흑발이라 단정해 보임", "흑발"),
    ("요즘 콤부차 없으면 못 살아", "drink", "아이스 아메리카노 하루 세 잔 마심", "아메리카노"),
])
def test_an_own_kind_said_to_be_the_users_now_ends_the_older_one_without_an_anchor(text, kind, older, old):
    change = changed_value(text)

    assert change is not None and change.kind == kind and change.anchors == ()
    assert old in old_values(change, older)


def test_the_phone_brand_and_model_are_each_old_too():
    change = changed_value("오늘 갤럭시 z플립6 질렀다")

    assert {"아이폰 13 미니", "아이폰", "13 미니"} <= set(old_values(change, "아이폰 13 미니 쓰는데 배터리가 너무 빨리 닳아"))


@pytest.mark.parametrize("text", [
    "요즘 롤도 시작함 ㅋㅋ",  # added, not switched
    "i'm not playing valorant anymore",  # stopped: a correction's business, not a new value
    "만약 다이아 찍으면 치킨 쏜다",  # a supposition
    "아이폰 살까 고민중",  # weighing it
    "my gold necklace finally came back from the jeweller",  # no rank without a rank word or a division
    "오늘 커피 마셨어",  # no word that says it is the one now
])
def test_no_own_change_without_a_real_switch(text):
    change = changed_value(text)

    assert change is None or change.kind not in OWN_KINDS


@pytest.mark.parametrize("text,older", [
    ("finally hit plat 1", "marcus is diamond 3 so he carries me"),  # someone else's rank
    ("드디어 플래 찍음", "지민이는 다이아 2래"),  # someone named
    ("머리 흑발로 새로 했어", "언니는 핑크 머리로 염색했대"),  # someone else's hair
    ("요새 오버워치만 함", "저녁에 오버워치 했어"),  # the same game as the new one
])
def test_an_older_value_of_someone_else_or_the_new_value_is_not_old(text, older):
    change = changed_value(text)

    assert change is not None and change.kind in OWN_KINDS
    assert old_values(change, older) == []


@pytest.mark.parametrize("text,new,older,old", [
    ("the puppy is Mochi now. we renamed him. waffles never suited him", "Mochi", "we named him waffles lol", "waffles"),
    ("Pepper has a new name! she's Olive now", "Olive", "Pepper keeps stealing my socks", "Pepper"),
    ("we renamed the hamster. Nibbles is officially Pudding now", "Pudding", "Nibbles escaped again", "Nibbles"),
])
def test_an_english_rename_finds_the_old_name_the_message_or_an_older_naming_gives(text, new, older, old):
    change = changed_value(text)

    assert change is not None and change.kind == RENAME and change.new == new
    assert old_values(change, older) == [old]


def test_a_rename_leaves_words_no_older_text_gave_as_a_name():
    change = changed_value("the puppy is Mochi now. we renamed him. my sister hated the old one")

    assert old_values(change, "my sister came over for dinner") == []


def test_a_part_of_the_day_said_now_in_another_clause_than_the_change_word():
    change = changed_value("어제 약국 갔더니 약사님이 이제 저녁에 먹으래요. 약도 바꿨어요")

    assert change is not None and change.kind == "daypart" and change.new == "저녁"
    assert old_values(change, "갑상선약은 매일 아침 공복에 먹어요 (← 약국은 어디로 다니세요?)") == ["아침"]
    assert old_values(change, "아침에 산책했어요") == []  # names nothing the change names


@pytest.mark.parametrize("value,years", [("예순일곱", 67), ("열세살", 13), ("17", 17), ("seventeen", 17), ("24살", 24)])
def test_age_years(value, years):
    assert age_years(value) == years


@pytest.mark.parametrize("subject,value,known,expected", [
    ("age", "열두살", "마흔둘", True),  # a child's age for a 42-year-old
    ("age", "17", "16", False),  # a birthday
    ("school_year", "3학년", "쉰다섯", True),
    ("school", "해오름초등학교", "쉰다섯", True),
    ("school", "연세대", "쉰다섯", False),  # adults study at universities
    ("school_year", "2학년", "스물둘", False),  # a university year
    ("school_year", "3rd grade", "", False),  # no age known: nothing ruled out
])
def test_a_stored_age_rules_out_a_younger_age_and_a_school_below_university(subject, value, known, expected):
    assert implausible(subject, value, known) is expected


def test_a_value_named_as_left_makes_the_other_the_new_one():
    change = changed_value("요즘 롤 접고 오버워치만 함 ㅋㅋ")

    assert change.new == "오버워치" and change.said_old == ("롤",)
    assert old_values(change, "롤 하다가 새벽 3시에 잠") == ["롤"]


def test_a_short_name_of_the_new_value_is_the_same_value():
    change = changed_value("요새 발로만 함 ㅋㅋ")

    assert old_values(change, "요즘 발로란트 시작함. 랭겜 돌림") == []
    assert old_values(change, "메이플 하고 있었지") == ["메이플"]


def test_a_word_ending_in_do_elsewhere_in_the_clause_is_no_addition():
    change = changed_value("그래도 요즘 발로만 함 ㅋㅋ")  # "그래도" is "still", not "발로도"

    assert change is not None and change.key == "valorant"


def test_a_change_between_two_places_of_a_list_makes_the_one_gone_to_new():
    change = changed_value("유학 나라 바꿨어. 캐나다는 비자 너무 오래 걸려서 호주로 가려고")

    assert change is not None and change.new == "호주" and change.said_old == ("캐나다",)
    assert old_values(change, "캐나다 워홀 준비 중이야") == ["캐나다"]
    assert changed_value("엄마가 대구에서 서울로 이사했어 ㅠ").said_old == ()  # her places: no switch of the user's


def test_the_value_in_the_clause_that_says_it_is_theirs_now_wins_over_one_beside_it():
    change = changed_value("oh and i don't drink soda anymore, i switched to kombucha. the coke was making me crash")

    assert change is not None and change.kind == "drink" and change.key == "kombucha"
