"""extraction.changes without a database: a change that never names the old value, and the old values older
texts gave the same thing. Sentences written for these tests (no recall corpus), one per kind of value."""
import pytest

from memories.extraction.changes import changed_value, old_values


@pytest.mark.parametrize("text,older,old", [
    # a weekday: the older text names the same club, its other weekday goes (in the clause after, too)
    ("보드게임 동호회가 이제 수요일 저녁으로 바뀌었어", "오늘 보드게임 동호회 갔다 왔어. 매주 월요일마다 모여", "월요일"),
    ("my pottery class moved to fridays", "pottery class is on mondays after work", "mondays"),
    # a time
    ("필라테스 오후 8시로 바꿨어", "필라테스는 오후 6시에 가", "오후 6시"),
    # a name right after what it names
    ("우리 강아지 개명했어 ㅋㅋ 이제 두부임", "우리 강아지 콩이가 오늘 산책하다 넘어짐", "콩이"),
    ("인스타 아이디 달빛고래로 바꿨어", "내 인스타 아이디는 새벽참새야 팔로우해", "새벽참새"),
    ("누나 대전으로 이사감", "누나 광주 살아. 간호사야", "광주"),
    # an English place of someone named
    ("Also Marta is moving! She got a job in Lisbon", "my cousin Marta works at a bakery in Porto", "Porto"),
    # a colour; a dye names the hair itself, and may give the colour after it
    ("머리 핑크로 염색함 ㅋㅋ", "나 탈색함 ㅋㅋ 노랑머리됨", "노랑"),
    ("염색함ㅠ 다시 검정됨", "나 탈색함 ㅋㅋ 노랑머리됨", "노랑"),
    ("dyed my hair blue last night lol", "my hair is pink right now lol", "pink"),
    ("차 빨간색으로 바꿨어", "내 차 흰색 아반떼임", "흰색"),
])
def test_a_change_without_the_old_value_finds_it_in_an_older_text_naming_the_same_thing(text, older, old):
    change = changed_value(text)

    assert change is not None
    assert old in old_values(change, older)


@pytest.mark.parametrize("text,older", [
    ("보드게임 동호회가 이제 수요일 저녁으로 바뀌었어", "회사는 월요일이 제일 바빠"),  # another thing's weekday
    ("우리 강아지 개명했어 ㅋㅋ 이제 두부임", "우리 강아지 산책 가자고 난리"),  # a verb after it, no name
    ("누나 대전으로 이사감", "누나가 결혼함"),  # what the sister did, no place
    ("Also Marta is moving! She got a job in Lisbon", "Marta came over in June"),  # a month is no place
    ("머리 핑크로 염색함 ㅋㅋ", "오늘 빨간 옷 샀어"),  # a colour of something else
])
def test_an_older_text_without_an_old_value_of_the_same_thing_gives_none(text, older):
    change = changed_value(text)

    assert change is not None
    assert old_values(change, older) == []


@pytest.mark.parametrize("text", [
    "보드게임 동호회 수요일 저녁이야",  # no change said
    "만약 이사 가면 부산으로 갈래",  # a supposition
    "나 이사감 ㅋㅋ",  # nothing named whose value changed
    "we moved to a bigger place",  # no name or kind of value
])
def test_no_change_without_a_change_word_a_named_thing_and_a_new_value(text):
    assert changed_value(text) is None


def test_the_new_value_is_never_old():
    change = changed_value("인스타 아이디 달빛고래로 바꿨어")

    assert old_values(change, "인스타 아이디 달빛고래 벌써 팔로워 생김") == []


@pytest.mark.parametrize("text,older,old", [
    # a count said to be the one now: the same counter's other number in an older text naming the same thing, the
    # thing named in the clause before when the count's own clause names nothing
    ("어항 하나 더 들였어. 이제 세 개야", "거실에 어항 두 개 있어", "두 개"),
    ("우리 고양이 이제 네 마리야 ㅋㅋ", "고양이 세 마리 키워요. 다 길냥이 출신", "세 마리"),
    ("학원 선생님이 이제 다섯 명이래", "우리 학원 선생님 세 명밖에 없어", "세 명"),
])
def test_a_count_now_replaces_the_older_count_of_the_same_thing(text, older, old):
    change = changed_value(text)

    assert change is not None and change.kind.startswith("count:")
    assert old_values(change, older) == [old]


@pytest.mark.parametrize("text,older", [
    ("어항 하나 더 들였어. 이제 세 개야", "컵 두 개 깨졌어"),  # another thing's count
    ("우리 고양이 이제 네 마리야 ㅋㅋ", "고양이 밥 두 개 샀어"),  # another counter
])
def test_a_count_now_leaves_other_things_and_counters_alone(text, older):
    assert old_values(changed_value(text), older) == []


def test_a_count_with_more_or_each_is_no_count_now():
    assert changed_value("이제 하루에 두 개씩 먹어") is None


def test_an_event_called_off_then_given_a_new_date_moves_from_its_old_date():
    from memories.extraction.corrections import moved_event, moved_event_old_dates

    moved = moved_event("the clinic rang. my MRI on the 3rd is cancelled, the machine broke. new date is March 21")
    assert moved is not None and "MRI" in moved[0]
    assert "Feb 3" in moved_event_old_dates(moved, "busy month: dentist on the 1st, MRI on Feb 3 at the clinic")


def test_a_marked_day_alone_of_a_moved_event_is_old_in_the_new_month_and_the_one_before():
    from memories.extraction.corrections import find_correction

    correction = find_correction("update: the recital got moved. its oct 15 now not the 10th")
    assert {"Oct 10", "Sep 10"} <= set(correction.old_terms)
