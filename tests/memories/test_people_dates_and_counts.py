"""Extraction rules without a database: avoid rules that name a person by who they are to the user, a month and day
said without a year, renames whose old name is said elsewhere, someone else's place corrected, English counts and
"X, not Y", and small readings (a birthday corrected by its day, "게임 회사", news of a new job). Sentences written for
these tests (no recall corpus)."""
from datetime import date, datetime, timedelta, timezone

import pytest

from memories.extraction.base import ChatTurn
from memories.extraction.behaviour import avoid_terms, avoid_topics, relation_and_name, topic_for_prompt
from memories.extraction.changes import CONTRAST, changed_value, old_values, without_contrasted
from memories.extraction.corrections import find_correction, moved_event, moved_event_old_dates, without_words
from memories.extraction.dates import event_date, month_day_date
from memories.extraction.local import LocalExtractor
from memories.extraction.news import news_subjects

KST = timezone(timedelta(hours=9))
DECEMBER = datetime(2026, 12, 12, 20, 0, tzinfo=KST)


def extract(user: str, at: datetime = DECEMBER):
    return LocalExtractor().extract(turns=[ChatTurn("u1", "user", user, at)], existing=[])


# --- avoid rules --------------------------------------------------------------------------------------------------


def test_an_adverb_and_the_one_asked_before_the_verb_leave_the_topic():
    assert avoid_topics("그래서 부탁인데, 엄마 얘기는 당분간 미나 씨가 먼저 꺼내지 말아 주세요", True) == ["엄마"]


@pytest.mark.parametrize("text,korean,earlier,relation,name", [
    ("앞으로 수빈이 얘기는 꺼내지 말아줘", True, ["어제 전 여친 수빈이 청첩장 보냈더라"], "전 여친", "수빈"),
    ("My sister Imogen and I fell out. I'd rather not get into Imogen, honestly.", False, [], "My sister", "Imogen"),
    ("if Brandon's name ever comes up, just don't. My ex-boyfriend. Long story.", False, [], "My ex-boyfriend",
     "Brandon"),
    ("동생이 또 Jessica 얘기 꺼냄 ㅡㅡ 너도 전 여친 얘기는 하지 마", True, [], "전 여친", "Jessica"),
    # the name with a particle after it where the relation was said ("태오랑", "하은이한테")
    ("지훈이 얘기는 이제 하지 마 진짜", True, ["작년 여름에 전남친 지훈이랑 헤어졌잖아"], "전남친", "지훈"),
    ("민재 얘기는 꺼내지 말아줘", True, ["형 민재한테 연락 왔는데 안 받았어"], "형", "민재"),
    # "him" / "her" pointing back to someone introduced by who they are and their name, with no "my"
    ("I have a brother, Declan. We haven't spoken in years. Don't ask me about him.", False, [], "brother", "Declan"),
    ("Work gossip: Priya has a new girlfriend, Tessa. Long story, but please never mention her.", False, [], "girlfriend",
     "Tessa"),
    ("please don't bring him up", False, ["so my flatmate's got a new boyfriend, Callum, and it's a whole thing"],
     "boyfriend", "Callum"),
    # a name alone, in a message that says it is over with him or her: an ex, written in lowercase or not
    ("dont bring up theo ok. we're done and im not talking about him", False, [], "the ex", "theo"),
    ("Please never mention Jake. It's over and I don't want to think about him", False, [], "the ex", "Jake"),
])
def test_a_person_to_avoid_is_kept_with_who_they_are_and_the_block_names_only_the_relation(
        text, korean, earlier, relation, name):
    topics = avoid_topics(text, korean, earlier)

    assert len(topics) == 1 and relation_and_name(topics[0]) == (relation, name)
    assert topic_for_prompt(topics[0]) == relation  # the name the user does not want to hear is not handed over
    assert name in avoid_terms(topics) and relation in avoid_terms(topics)  # memories naming either stay out


def test_a_topic_in_a_message_that_ends_nothing_with_a_person_stays_as_said():
    assert avoid_topics("dont bring up work again, we're done with that project", False) == ["work"]
    assert avoid_topics("don't mention my brother, we're done, I don't talk to him", False) == ["my brother"]


def test_a_pointed_rule_takes_the_whole_relation_word_and_merges_with_the_named_rule():
    topics = avoid_topics("My uncle Declan runs the farm. I'd rather not get into Declan. Please don't be asking me "
                          "about him.", False)

    assert topics == ["My uncle (Declan)"]
    assert avoid_topics("Dale, my stepdad. Don't ask me about him.", False) == ["my stepdad"]


def test_a_topic_with_a_talk_word_names_no_person():
    assert relation_and_name("전 여친 얘기") is None
    assert topic_for_prompt("엄마 건강") == "엄마 건강"


# --- dates without a year -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,expected", [
    ("민지 4월 11일에 결혼한대!", date(2027, 4, 11)),  # said in December: the coming April
    ("due on the 2nd of March", date(2027, 3, 2)),
    ("4월 11일에 결혼했어", date(2026, 4, 11)),  # past: the April gone
    ("12월 5일 면접 결과 나옴", date(2026, 12, 5)),  # a week ago, no tense: that one, not next year's
    ("12월 24일에 가", date(2026, 12, 24)),
    # a date something was booked for or moved to is not past because the booking is
    ("치과 12월 20일로 예약함", date(2026, 12, 20)),
    ("회식 1월 8일로 미뤄졌어", date(2027, 1, 8)),
    ("I booked the vet for Dec 19", date(2026, 12, 19)),
    ("they moved my interview to January 6", date(2027, 1, 6)),
    ("I went there on Dec 19", date(2025, 12, 19)),  # past, and not set for: the December gone
    ("12월 20일에 다녀왔어", date(2025, 12, 20)),
])
def test_a_month_and_day_without_a_year_is_the_coming_one_unless_said_in_the_past(text, expected):
    assert event_date(text, DECEMBER) == expected


def test_a_month_and_day_in_march_for_november_is_this_year():
    assert month_day_date(11, 5, datetime(2026, 3, 4, tzinfo=KST)) == date(2026, 11, 5)


@pytest.mark.parametrize("moving,older,old", [
    ("실기는 1월 20일로 다시 잡음", "운전면허 실기 1월 6일로 예약함", "1월 6일"),  # rescheduled: 다시 잡음
    ("the operation has been moved to March 9", "having my hip replacement on February 16", "February 16"),
])
def test_an_event_moved_by_another_word_for_it_ends_the_old_date(moving, older, old):
    assert old in moved_event_old_dates(moved_event(moving), older)


def test_a_wedding_told_with_a_verb_is_the_event_a_move_of_the_wedding_moves():
    moved = moved_event("근데 민지 결혼식 6월 6일로 미뤄졌대")

    assert "4월 11일" in moved_event_old_dates(moved, "민지 4월 11일에 결혼한대!")
    assert moved_event_old_dates(moved, "우리 결혼기념일 4월 11일이야") == []


# --- renames, someone's place, counts -----------------------------------------------------------------------------


def test_a_korean_rename_ends_the_old_name_the_message_says_beside_the_new_one():
    change = changed_value("강아지 이름 바꿨어! Rocky 별로라서 이제 두부야")

    assert change is not None and change.new == "두부"
    assert old_values(change, "보호소에서 지어준 이름이 Rocky래 ㅋㅋ") == ["Rocky"]
    assert old_values(change, "동생 Minho가 놀러옴") == []
    assert find_correction("강아지 이름 바꿨어!") is None  # the kind of animal is no old name


def test_someone_elses_pet_rename_ends_the_name_told_after_이름():
    change = changed_value("민수네 햄스터 이름 쿠키로 바꿨대 ㅋㅋ")

    assert change is not None and change.new == "쿠키"
    assert old_values(change, "민수가 햄스터 키우는데 이름 모카") == ["모카"]


def test_an_english_rename_finds_the_name_a_shelter_gave():
    change = changed_value("I've renamed her Olive. She never answered to the shelter name anyway.")

    assert old_values(change, "The shelter called her Daisy. Tabby, about two.") == ["Daisy"]
    assert old_values(change, "My name is Daisy and I live in Leeds") == []


def test_someones_place_said_as_not_the_one_told_before_is_old_only_where_they_are_named():
    change = changed_value("아 서연이 광주 아니고 대전으로 발령났대")

    assert change is not None and change.kind == CONTRAST and change.new == "대전"
    assert old_values(change, "서연이 다음 달에 광주로 발령난대") == ["광주"]
    assert old_values(change, "나 광주 출신임") == []
    assert without_contrasted("아 서연이 광주 아니고 대전으로 발령났대", change) == "아 서연이 대전으로 발령났대"


@pytest.mark.parametrize("text,older,old", [
    ("so that's three nephews now!", "I have two nephews, both menaces", "two nephews"),
    ("coach has me down to 4 sessions a week", "five sessions a week is brutal", "five sessions"),
])
def test_an_english_count_said_as_the_one_now_ends_the_other_counts_of_its_noun(text, older, old):
    assert old_values(changed_value(text), older) == [old]


def test_a_count_of_days_or_weeks_is_no_count_that_changes():
    assert changed_value("down to 3 days a week at the office") is None


def test_a_number_said_and_the_one_it_is_not():
    correction = find_correction("Oh wait, Milo is seven, not six. He had his birthday in May.")

    assert correction is not None and correction.old_terms == ("six",)
    assert "seven" in correction.cleaned


# --- small readings -----------------------------------------------------------------------------------------------


def test_a_birthday_corrected_by_its_day_keeps_the_month():
    result = extract("Silly me, I said my birthday was the 14th of August, didn't I? It's the 18th!")

    assert [f.value for f in result.facts if f.subject == "birthday"] == ["August 18"]


def test_a_game_company_is_no_favourite_game():
    assert not [f for f in extract("면접 본 데가 게임 회사. 아직 비밀").facts if f.subject == "favorite_game"]
    assert [f.value for f in extract("게임은 롤").facts if f.subject == "favorite_game"] == ["롤"]


@pytest.mark.parametrize("text", ["오늘 새 office first day였음", "그 회사 붙었어!!", "first day at the new office"])
def test_news_of_a_new_job_in_mixed_words(text):
    assert news_subjects(text) == ("workplace",)


def test_someone_elses_new_job_is_no_news():
    assert news_subjects("언니가 회사 붙었대") == ()


def test_a_move_that_says_both_days_moves_to_the_one_said_with_로():
    moved = moved_event("오늘 치과에서 연락 왔는데 9일 예약이 14일로 바뀌었대")

    assert moved is not None and moved[1] == "??-14"
    assert "1월 9일" in moved_event_old_dates(moved, "치과 예약 1월 9일 오후 3시")


def test_the_renaming_clause_loses_the_old_name_it_says():
    assert without_words("강아지 이름 바꿨어! Rocky 별로라서 이제 두부야", ["Rocky"]) == "강아지 이름 바꿨어! 별로라서 이제 두부야"
    assert without_words("Rockyfan 계정", ["Rocky"]) == "Rockyfan 계정"  # a word of its own only


def test_the_place_between_사는_and_the_home_is_the_residence():
    assert [f.value for f in extract("아 근데 지금 사는 연남동 원룸 계약 끝나감").facts if f.subject == "residence"] == ["연남동"]
    assert not [f for f in extract("형이 지금 사는 대구 아파트 팔았대").facts if f.subject == "residence"]


def test_a_first_shift_is_news_of_a_part_time_job():
    assert news_subjects("first shift at the new place tonight!!") == ("part_time_job",)


@pytest.mark.parametrize("text,korean,earlier,topic,shown", [
    # the relation two sentences after the name
    ("please never ask about Gavin. the kids' dad. my ex-husband. I'll bring him up if I want", False, [],
     "my ex-husband (Gavin)", "my ex-husband"),
    # no relation at all: the one the user broke up with, under the name the user asks for
    ("do me a favour, don't say her name for a while. just call her 'you know who'", False,
     ["Priya and I split up last night"], "you know who (Priya)", "you know who"),
    # a pet by its kind
    ("우리 고양이 보리 지난달에 떠났어. 보리 얘기는 먼저 꺼내지 말아줘", True, [], "고양이 (보리)", "고양이"),
])
def test_whom_a_name_to_avoid_belongs_to_is_found_in_other_forms(text, korean, earlier, topic, shown):
    topics = avoid_topics(text, korean, earlier)

    assert topics == [topic] and topic_for_prompt(topic) == shown


@pytest.mark.parametrize("text,expected", [
    ("I rent a tiny flat in Leith with two flatmates", ["Leith"]),
    ("loving our new place in Fremont", ["Fremont"]),
    ("i have a team offsite in Boulder next week", []),  # a trip, not a home
    ("Dev called from the new house in Sacramento, boxes everywhere", []),  # someone else's new home
])
def test_an_english_home_is_the_users_only_when_it_is_a_home_they_have(text, expected):
    assert [f.value for f in extract(text).facts if f.subject == "residence"] == expected


def test_a_move_told_after_a_comma_is_the_residence():
    assert [f.value for f in extract("not in Austin anymore, moved to Tucson last week").facts
            if f.subject == "residence"] == ["Tucson"]


def test_a_new_job_started_at_a_named_place_is_the_workplace():
    assert [f.value for f in extract("I got a new job, starting at Costco on Monday").facts
            if f.subject == "workplace"] == ["Costco"]
    assert not [f for f in extract("starting at 9 tomorrow, ugh").facts if f.subject == "workplace"]


@pytest.mark.parametrize("text,older,old", [
    ("we renamed the kitten Mango", "new kitten! we named her Pip", "Pip"),
    ("the bunny is called Clover now", "got a bunny from the rescue, they named her Daisy", "Daisy"),
])
def test_more_english_renames(text, older, old):
    assert old_values(changed_value(text), older) == [old]


@pytest.mark.parametrize("text,pet", [
    ("Waffles is my dog, a lazy old beagle", "dog Waffles (beagle)"),
    ("this is Pip, my hamster", "hamster Pip"),
    ("gotta go, Mrs. Whiskers is yelling for dinner, she's my cat", "cat Mrs. Whiskers"),
])
def test_an_english_pet_named_before_its_kind(text, pet):
    facts = extract(text).facts
    assert [f.value for f in facts if f.subject == "pet"] == [pet]
    assert not [f for f in facts if f.subject == "name"]  # "this is Pip" introduces the hamster, not the user


def test_a_self_introduction_still_names_the_user():
    assert [f.value for f in extract("Hi! I'm Nadia, nice to meet you").facts if f.subject == "name"] == ["Nadia"]


@pytest.mark.parametrize("text,subject,value", [
    ("i'm 27 and live in seattle", "residence", "seattle"),
    ("I'm from Galway originally but I've lived in Cork for 30 years", "residence", "Cork"),
    ("we got engaged last night!!!", "dating_status", "got engaged"),
    ("started a new job at the bakery today", "workplace", "bakery"),
])
def test_more_english_facts(text, subject, value):
    assert [f.value for f in extract(text).facts if f.subject == subject] == [value]


def test_living_in_something_that_is_no_place_is_no_residence():
    assert not [f for f in extract("i'm tired and live in fear lol").facts if f.subject == "residence"]
    assert not [f for f in extract("I've lived in three countries").facts if f.subject == "residence"]


def test_the_company_and_home_said_as_topics():
    facts = extract("회사는 판교고 집은 분당이야").facts
    assert [f.value for f in facts if f.subject == "workplace"] == ["판교"]
    assert [f.value for f in facts if f.subject == "residence"] == ["분당"]
    assert not [f for f in extract("언니 회사는 판교야").facts if f.subject == "workplace"]


def test_a_topic_ending_in_사는_is_no_one_living_somewhere():
    assert not [f for f in extract("회사는 지옥이야").facts if f.subject in ("name", "workplace")]


@pytest.mark.parametrize("text,expected", [
    ("나 이번에 이직함 ㅋㅋ 이제 네이버 다녀", ["네이버"]),
    ("저 한화 다녀요", ["한화"]),
    ("오빠는 카카오 다녀", []),  # someone else's
    ("쿠팡 다녀왔어 ㅋㅋ 줄 길더라", []),  # a visit
])
def test_a_known_company_named_bare_is_the_workplace(text, expected):
    assert [f.value for f in extract(text).facts if f.subject == "workplace"] == expected


def test_a_student_at_a_school_is_no_worker_there():
    facts = {f.subject: f.value for f in extract("i'm a sophomore at UCLA studying nursing").facts}
    assert facts.get("school") == "UCLA" and facts.get("major") == "nursing" and "workplace" not in facts


def test_an_english_aside_in_parentheses_is_no_role_play_action():
    from memories.extraction.roleplay import in_character

    assert not in_character("made pad see ew and she cried a little (onions but also emotions)")
    assert not in_character("the run was fine (mostly)")
    assert in_character("(sighs) fine, you win") and in_character("*draws sword* stand back")


def test_runs_nobody_types_are_cut_before_the_rules_read_a_message():
    from memories.extraction.local import squeezed

    assert squeezed("a" + "\n" * 3000 + "b") == "a\n\nb"
    assert squeezed("'" * 3000) == "'" * 8
    assert squeezed("ㅋㅋㅋㅋㅋ 진짜?? 나 스물셋") == "ㅋㅋㅋㅋㅋ 진짜?? 나 스물셋"  # what people type stays
    assert [f.value for f in extract("나 스물셋" + "\n" * 2000 + "ㅋ" * 40).facts if f.subject == "age"] == ["스물셋"]


# --- work told by what one does -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text,occupation", [
    ("small life update: im tutoring maths online now", "tutor"),
    ("freelance translating now, mostly subtitles", "freelance translator"),
    ("im bartending full time now lol", "bartender"),
])
def test_work_told_by_what_one_does_for_it_is_the_occupation(text, occupation):
    assert ("occupation", occupation) in [(fact.subject, fact.value) for fact in extract(text, DECEMBER).facts]


@pytest.mark.parametrize("text", [
    "i'm cooking dinner now",  # nothing says it is work
    "im driving now lol",
    "my brother is tutoring online now",  # someone else's
])
def test_doing_something_now_is_no_occupation_without_work(text):
    assert "occupation" not in [fact.subject for fact in extract(text, DECEMBER).facts]
