"""extraction.corrections without a database: which words a correcting message says no longer hold.

The sentences here are written for these tests (the recall corpus is not used), one per rule: a cue that ends a
value, a contrast that needs a change, typed values paired by unit, English cues, and the guards.
"""
import pytest

from memories.extraction.corrections import find_correction, mentions, numeral_value, without_terms


def terms(text):
    correction = find_correction(text)
    return correction.old_terms if correction else ()


@pytest.mark.parametrize("text,old,new", [
    ("나 이제 망원 안 살아 ㅋㅋ 합정으로 이사했어", "망원", "합정"),
    ("회사 그만두고 요즘 카페 차렸어", "회사", "카페"),
    ("편의점 알바 관뒀어. 요즘은 과외해", "편의점", "과외"),  # the shop, not every 알바: a generic head
    ("스쿠터 팔고 자전거 샀어", "스쿠터", "자전거"),
    ("저 이제 필라테스 안 해요 요가로 바꿨어요", "필라테스", "요가"),
    ("이제 뭉치 말고 민구라고 불러줘", "뭉치", "민구"),  # "민구라고" is a name, no joke taken back
    ("인자 해운대 아이고 서면 산다 ㅋㅋ", "해운대", "서면"),  # 경상도: 인자 (이제), 아이고 (아니고)
])
def test_a_cue_that_ends_a_value_names_it_and_the_kept_text_never_repeats_it(text, old, new):
    correction = find_correction(text)

    assert correction is not None and old in correction.old_terms
    assert new in correction.cleaned and old not in correction.cleaned


def test_a_contrast_corrects_only_in_a_message_that_says_something_changed():
    assert terms("짜장면 말고 짬뽕 먹을래") == ()
    assert terms("아이고 인자 허리 아파 죽겠다") == ()  # the interjection, with no word before it
    assert terms("오늘 아이고 소리 절로 나오더라") == ()  # nothing says something changed
    assert "짜장면" in terms("이제 짜장면 말고 짬뽕파야 입맛 바뀜")
    correction = find_correction("목표 바꿨어 세 권 말고 다섯 권 읽기로")
    assert "세 권" in correction.old_terms and "3권" in correction.old_terms  # also in digits
    assert "다섯 권" in correction.cleaned and "세 권" not in correction.cleaned


def test_typed_values_pair_by_unit_and_the_one_after_now_is_new():
    correction = find_correction("그리고 열 시 출근도 끝.. 이제 아홉 시까지 가야 돼")

    assert "열 시" in correction.old_terms and "10시" in correction.old_terms
    assert not any("아홉" in term for term in correction.old_terms)
    assert "아홉 시" in correction.cleaned


def test_a_count_in_a_clause_that_says_it_used_to_be_is_old():
    assert "세 잔" in terms("커피 끊었어 이제 일주일째 하루 세 잔씩 마시던 내가")


@pytest.mark.parametrize("text,old", [
    ("i'm not in denver anymore, living in boulder now", "denver"),
    ("i don't play cello anymore, switched to bass", "cello"),
    ("update: no longer at the bakery, started at a bank", "bakery"),
    ("moved from queens to jersey city last week", "queens"),
    ("the office isn't my favorite show anymore, parks and rec is", "office"),
    ("i'm deferring the berlin marathon to next year, doing a local 10k instead", "berlin marathon"),
])
def test_english_cues(text, old):
    correction = find_correction(text)

    assert correction is not None and old in correction.old_terms
    assert not mentions(correction.cleaned, old)


@pytest.mark.parametrize("text", [
    "만약 회사 그만두면 뭐 하지",  # hypothetical
    "친구가 회사 그만뒀대",  # reported speech: the friend's news
    "바다는 포기 못해 ㅋㅋ",  # not done
    "오늘은 운동 안 해 피곤해",  # a weak cue with nothing changed: not a correction
    "진짜 퇴사할까 봐",  # only thinking about it
    "what if i quit my job at the bank",
])
def test_guards_keep_these_from_correcting_anything(text):
    assert find_correction(text) is None


def test_an_old_term_still_used_as_current_is_not_old():
    assert "병원" not in terms("병원 그만두고 다른 병원으로 옮겼어")


def test_a_neighbourhood_is_old_with_and_without_its_suffix():
    assert {"연남동", "연남"} <= set(terms("이제 연남동 안 살아 ㅋㅋ 성수로 왔어"))


@pytest.mark.parametrize("word,value", [
    ("만", 10000), ("칠천", 7000), ("7,000", 7000), ("열다섯", 15), ("서른둘", 32), ("이십오", 25), ("삼만오천", 35000),
])
def test_numeral_value(word, value):
    assert numeral_value(word) == value


def test_mentions_ignores_spacing_and_case_and_reads_latin_terms_as_whole_words():
    assert mentions("하루 만보 걷기", "만 보")
    assert mentions("Living in East Van now", "east van")
    assert not mentions("that's an advantage", "van")


def test_without_terms_drops_only_the_clauses_that_use_a_term():
    text = "my band. i play oboe in a jazz trio lol, we're called the night owls"

    assert without_terms(text, ["oboe"]) == "my band. we're called the night owls"


@pytest.mark.parametrize("text,old,new", [
    ("원래 학생이었는데 이제 직장인이야", "학생", "직장인"),
    ("강남 살았는데 요즘은 판교 살아", "강남", "판교"),
    ("i used to live in denver but now i'm in boulder", "denver", "boulder"),
    ("i used to be a barista, but now i manage the shop", "barista", "manage"),
    ("class is on saturday now, not wednesday", "wednesday", "saturday"),
    ("i changed my major from biology to nursing", "biology", "nursing"),
    ("더 이상 필라테스 안 해 요가 다녀", "필라테스", "요가"),
])
def test_what_was_so_before_now_is_old(text, old, new):
    correction = find_correction(text)

    assert correction is not None and old in correction.old_terms
    assert new in correction.cleaned and not mentions(correction.cleaned, old)


@pytest.mark.parametrize("text", ["어제 비 왔는데 이제 그쳤어", "나 어제 강남 갔는데 이제 집이야"])
def test_a_past_event_before_now_is_not_an_old_value(text):
    assert find_correction(text) is None


def test_any_extractors_facts_get_the_correction_applied():
    """Facts as an LLM extractor writes them: the old value never survives, the new one stays, one carries it."""
    from memories.extraction.base import ExtractedFact
    from memories.extraction.corrections import corrected_facts

    facts = [
        ExtractedFact(content="유성에서 세종으로 이사함", subject="residence", value="세종", source_message_id="m1"),
        ExtractedFact(content="예전 동네: 유성", subject="hometown", value="유성", source_message_id="m1"),
        ExtractedFact(content="러닝 좋아함", subject="likes", value="러닝", source_message_id="m0"),
    ]
    texts = {"m0": "나 러닝 좋아해", "m1": "나 이제 유성 안 살아 ㅋㅋ 세종으로 이사왔어"}

    result = corrected_facts(facts, texts)

    assert [(f.subject, f.value) for f in result] == [("residence", "세종"), ("likes", "러닝")]
    assert result[0].content == "사는 곳: 세종" and result[0].replaces == ("유성",)
    assert not any(mentions(f.content, "유성") for f in result)


def test_a_message_the_extractor_took_nothing_from_stays_so_and_marked_ones_are_left_alone():
    from memories.extraction.base import ExtractedFact
    from memories.extraction.corrections import corrected_facts

    marked = ExtractedFact(content="세종으로 이사왔어", source_message_id="m1", replaces=("유성",))
    texts = {"m1": "나 이제 유성 안 살아 세종으로 이사왔어", "m2": "(칼을 뽑으며) 나 이제 왕궁 안 살아"}

    assert corrected_facts([marked], texts) == [marked]


def test_mentions_any_agrees_with_mentions_term_by_term():
    from memories.extraction.corrections import mentions_any

    terms = ["만 보", "east van", "유성", "Wednesday"]
    texts = ["하루 만보 걷기", "Living in East  Van now", "that's an advantage", "유성구 살아", "wednesdays off", "없음"]
    test = mentions_any(terms)
    for text in texts:
        assert test(text) == any(mentions(text, term) for term in terms), text
    assert mentions_any([])("anything") is False


def test_a_fact_stating_the_old_value_ended_is_kept_for_any_extractor():
    from memories.extraction.base import ExtractedFact
    from memories.extraction.corrections import corrected_facts

    fact = ExtractedFact(content="연애 상태: 연애 안 함", subject="dating_status", value="연애 안 함",
                         source_message_id="m1")

    (kept,) = corrected_facts([fact], {"m1": "이제 연애 안 해 헤어졌어"})
    assert kept.value == "연애 안 함" and kept.replaces


def test_an_english_value_s_head_noun_no_longer_holds_unless_a_current_value_uses_it():
    from memories.truth import outdated_values
    assert outdated_values({"dental hygienist", "노원"}, {"dental sales rep", "신촌"}) == {"dental hygienist", "hygienist",
                                                                                        "노원"}
    assert outdated_values({"senior engineer"}, {"staff engineer"}) == {"senior engineer"}
    assert outdated_values({"austin", "신촌"}, {"denver", "신촌"}) == {"austin"}
    assert outdated_values({"sage green"}, {"navy"}) == {"sage green"}  # "green" is too short a head to test alone


@pytest.mark.parametrize("text,old,new", [
    # written for these tests: a date said wrong, moved, or replaced; the kept text keeps the new one
    ("아 나 전에 시험 4월 9일이라고 했지? 잘못 말함 4월 19일임", "4월 9일", "4월 19일"),
    ("오픈 날짜 바꼈어요 3월 2일 이 아니고 3월 16일 로", "3월 2일", "3월 16일"),
    ("oops my recital is march 30 not march 13", "march 13", "march 30"),
    ("ugh the vet moved me from may 4 to may 11", "may 4", "may 11"),
    ("bad news, the may 2 concert is cancelled. they gave us may 20 instead", "may 2", "may 20"),
])
def test_a_date_said_wrong_or_moved_is_old_and_the_kept_text_keeps_the_new_one(text, old, new):
    correction = find_correction(text)
    assert correction is not None and old in correction.old_terms
    assert new in correction.cleaned and not mentions(correction.cleaned, old)


@pytest.mark.parametrize("text", ["3월 2일부터 3월 5일까지 제주 가", "trip is from may 3 to may 7 lol",
                                  "생일은 6월 3일이고 동생은 6월 9일이야"])
def test_two_dates_that_correct_nothing_are_not_old(text):
    assert terms(text) == ()


@pytest.mark.parametrize("text,old,new", [
    ("아 맞다 두부 이름 바꿈 ㅋㅋ 이제 콩떡임", "두부", "콩떡"),
    ("news: Pixel 이름 바꿨어 이제 Kong이야", "Pixel", "Kong"),
    ("i sold my old civic, now i drive a mazda", "civic", "mazda"),
    ("change of plan. scrapping banff, we're doing jasper instead", "banff", "jasper"),
    ("동생 발령 났대 광주아니고 여수로 간대", "광주", "여수"),
])
def test_renames_sales_cancelled_plans_and_transfers_name_the_old_value(text, old, new):
    correction = find_correction(text)
    assert correction is not None and old in correction.old_terms
    assert new in correction.cleaned


def test_a_number_in_a_latin_term_is_a_whole_number():
    assert not mentions("see you june 12!", "june 1") and mentions("see you june 1!", "june 1")


@pytest.mark.parametrize("text, word, key", [
    ("아 그리고 지현이 결혼식 날짜가 바꼈어요 ㅠㅠ 식장 공사 때문에 11월7일로 미뤘어요", "결혼식", "11-07"),
    ("면접 6월 10일로 미뤘어", "면접", "06-10"),
    ("ugh my dentist appointment got moved to june 9", "appointment", "06-09"),
])
def test_an_event_moved_to_one_new_date(text, word, key):
    from memories.extraction.corrections import moved_event
    words, new = moved_event(text)
    assert word in words and new == key


@pytest.mark.parametrize("text", ["시험 6월 3일이야", "내일 약속 취소됐어", "3월 2일부터 3월 5일까지 여행 미뤘어"])
def test_no_moved_event_without_one_new_date_and_a_move(text):
    from memories.extraction.corrections import moved_event
    assert moved_event(text) is None


def test_a_moved_event_replaces_only_the_dates_of_older_texts_naming_it():
    from memories.extraction.corrections import moved_event, moved_event_old_dates
    moved = moved_event("지현이 결혼식 날짜가 바꼈어요 11월7일로 미뤘어요")
    assert "10월17일" in moved_event_old_dates(moved, "딸 지현이는 올해 가을에 시집 가요!! 10월17일 토요일")
    assert moved_event_old_dates(moved, "내 생일 10월 17일") == []


def test_a_moved_wedding_leaves_the_wedding_anniversary_alone():
    from memories.extraction.corrections import moved_event, moved_event_old_dates
    moved = moved_event("소연이 결혼식 날짜가 바꼈어요 11월7일로 미뤘어요")
    assert moved_event_old_dates(moved, "다음주 일요일이 결혼기념일 이에요 삼십주년! 6월28일") == []


def test_a_rename_keeps_the_old_name_old_however_often_the_message_repeats_it():
    correction = find_correction("아 맞다 나 닉네임 바꿨어. 달토끼 말고 이제 '별토끼'야 ㅋㅋ 달토끼는 이미 누가 쓰더라")

    assert correction is not None and "달토끼" in correction.old_terms
    assert "별토끼" in correction.cleaned and "달토끼" not in correction.cleaned
    # a value contrasted with its successor is old however the rest goes on about it ("말고", "아니고")
    correction = find_correction("요일 바꿨어요. 월수금 아니고 이제 화목 반. 월수금 반 선생이 빡세서")
    assert "월수금" in correction.old_terms and "화목" in correction.cleaned and "월수금" not in correction.cleaned
    # a cue that only ends a stint leaves a term the rest uses as current alone
    assert terms("병원 그만두고 다른 병원 가") == ()


@pytest.mark.parametrize("text,old,not_old", [
    ("ㅇㅇ 그리고 몬스테라 이름 바꿈 ㅋㅋ 초록이 말고 이제 잎새임", "초록", "몬스테라"),
    ("광교 떠나서 성수동 원룸으로 가요!", "광교", "성수동"),
])
def test_the_contrasted_name_is_old_not_whose_name_it_is_and_a_place_left_is_old(text, old, not_old):
    found = terms(text)
    assert any(old in term for term in found) and not any(not_old in term for term in found)


def test_a_place_one_leaves_for_is_no_old_value():
    assert terms("내일 제주도로 떠나요! 이제 휴가다") == ()


def test_a_date_said_before_is_old_whichever_way_the_user_says_so():
    correction = find_correction("내가 전에 생일 10월 2일 이라 했는데 그건 주민등록 날짜고 진짜 생일은 9월 28일 이에요")
    assert "10월 2일" in correction.old_terms and "9월 28일" in correction.cleaned


@pytest.mark.parametrize("text,old_forms,new", [
    ("remember i said my anniversary is the 4th of may? it's not, it's the 14th. i typed it wrong",
     {"May 4", "4th of May", "4 May"}, "14th"),
    ("시험 9월 3일이라고 했지? 잘못 말함 13일이야", {"9월 3일", "September 3"}, "13일"),
])
def test_a_day_said_alone_after_a_wrong_date_is_that_months_day(text, old_forms, new):
    correction = find_correction(text)

    assert correction is not None and {f.casefold() for f in old_forms} <= {t.casefold() for t in correction.old_terms}
    assert new in correction.cleaned


def test_an_old_date_is_matched_however_english_writes_it():
    old = find_correction("june 8 not june 18, sorry").old_terms

    for written in ("the 18th of june", "June 18th", "18 june", "june 18"):
        assert any(mentions(written, term) for term in old), written
    assert not any(mentions("june 8", term) for term in old)


def test_a_number_term_is_a_whole_number_in_korean_too():
    correction = find_correction("아 나 생일 잘못 말함 ㅋㅋ 8월 4일 아니고 8월 14일이야")

    assert "8월 14일" in correction.cleaned
    assert not mentions("8월 14일", "4일") and mentions("8월 4일", "4일")


@pytest.mark.parametrize("text,old,new", [
    ("아 그리고 라떼도 끊었어 배아파서. 요즘 녹차만 마심", "라떼", "녹차"),
    ("근데 요즘 헬스 말고 클라이밍 다녀", "헬스", "클라이밍"),
    ("i got the museum job!! gave my notice at the bakery today", "bakery", "museum"),
])
def test_quitting_a_habit_a_contrast_these_days_and_giving_notice_end_the_old_value(text, old, new):
    correction = find_correction(text)

    assert correction is not None and old in correction.old_terms
    assert new in correction.cleaned and old not in correction.cleaned


def test_someone_moving_the_user_is_the_users_change():
    correction = find_correction("district reshuffled staff. i'm not at lincoln anymore, they moved me to jefferson high")

    assert correction is not None and "lincoln" in correction.old_terms
    assert find_correction("my brother moved to ohio, he quit his job") is None or \
        "ohio" not in find_correction("my brother moved to ohio, he quit his job").old_terms


@pytest.mark.parametrize("text,older,old_date", [
    ("we moved the lisbon trip, going in march instead, march 3 to 9", "booked lisbon!! nov 12 to 18", "nov 12"),
    ("ugh the dentist moved me again, now it's wed 4 sept", "dentist rang, they moved me. now fri 23 aug", "23 aug"),
])
def test_an_event_moved_in_the_active_voice_replaces_its_older_dates(text, older, old_date):
    from memories.extraction.corrections import moved_event, moved_event_old_dates

    event = moved_event(text)
    assert event is not None
    assert old_date in [term.casefold() for term in moved_event_old_dates(event, older)]
    assert moved_event_old_dates(event, "my sister's wedding is on may 2") == []


@pytest.mark.parametrize("text,old,new", [
    ("change of plans!! I signed up for the full marathon instead of the half. same day", "half", "full marathon"),
    ("also I realized I told you thirty-one but that's my korean age. I'm actually thirty", "thirty-one", "thirty"),
])
def test_english_corrections_said_with_instead_of_and_told_you_but_actually(text, old, new):
    correction = find_correction(text)

    assert correction is not None and old in correction.old_terms and new in correction.cleaned


@pytest.mark.parametrize("text", ["i had tea instead of coffee today", "she said it was fine but actually it wasnt"])
def test_a_one_off_choice_and_someone_elses_words_correct_nothing(text):
    assert terms(text) == ()


def test_an_event_moved_to_a_day_said_alone_replaces_only_its_own_clauses_date():
    from memories.extraction.corrections import moved_event, moved_event_old_dates

    event = moved_event("gp just cancelled tmrw, doc's sick. moved me to monday the 26th, 2pm")
    assert event is not None and event[1] == "??-26"
    older = "life admin: dentist next thurs the 11th, gp on tue the 17th for my iron levels"
    assert moved_event_old_dates(event, older) == ["the 17th"]  # the dentist's 11th stays
    korean = moved_event("심사 날짜 29일로 미뤄짐 ㅠㅠ")
    assert "11월 22일" in moved_event_old_dates(korean, "나 심사 11월 22일이야 떨려")
    assert moved_event_old_dates(korean, "친구 생일 11월 22일") == []


def test_a_city_narrowed_down_to_a_place_inside_it_is_refined_not_left():
    from memories.truth import outdated_values, refined_places

    assert refined_places({("residence", "berlin")}, {("residence", "friedrichshain")}) == {"berlin"}
    assert refined_places({("residence", "서울시")}, {("residence", "망원동")}) == {"서울시"}
    # a move to another city, or a city that was not a place subject, is a change
    assert refined_places({("residence", "austin")}, {("residence", "denver")}) == set()
    assert refined_places({("favorite_food", "berlin")}, {("favorite_food", "kebab")}) == set()
    assert outdated_values({"berlin", "barista"}, {"friedrichshain", "tutor"}, refined={"berlin"}) == {"barista"}


def test_a_replaced_neighbourhood_is_outdated_with_and_without_its_suffix_and_a_question_about_a_man_asks_no_age():
    from memories.extraction.questions import asked_subject
    from memories.truth import outdated_values

    assert outdated_values({"연남동"}, {"성수동"}) == {"연남동", "연남"}
    assert outdated_values({"연남동"}, {"연남"}) == {"연남동"}  # still lives there, said shorter
    assert asked_subject("부산 사나이였구나 ㅋㅋ 그럼 지금 서울은 어디 살아?") == "residence"


def test_a_city_whose_neighbourhood_was_later_corrected_away_is_still_refined():
    from memories.truth import refined_places

    # berlin → "WG in neukölln" → (a correction took that out, no value now): berlin still holds
    assert refined_places({("residence", "berlin"), ("residence", "WG in neukölln")}, set()) == {"berlin"}
    # two cities: a move
    assert refined_places({("residence", "berlin"), ("residence", "kreuzberg")}, {("residence", "munich")}) == set()


@pytest.mark.parametrize("text,old,new", [
    ("아 나 배드민턴 동호회 관뒀어 이제 클라이밍함", "배드민턴", "클라이밍"),
    ("우리 준서랑 헤어졌어.. 이제 혼자야", "준서", "헤어졌어"),  # the breakup stays, without the name
    ("미술 학원 나오고 태권도 학원 들어감 ㅋㅋ", "미술", "태권도"),
    ("폰 바꿨어 ㅋㅋ 갤럭시에서 아이폰으로", "갤럭시", "아이폰"),
    ("got the transfer from billing to the design team, starting monday", "billing", "design"),
])
def test_breakups_leaving_and_from_to_moves_name_the_old_value_and_keep_the_new(text, old, new):
    correction = find_correction(text)

    assert correction is not None and old in correction.old_terms
    assert mentions(correction.cleaned, new) and not mentions(correction.cleaned, old)


@pytest.mark.parametrize("text", [
    "친구랑 헤어졌어 방금 ㅋㅋ 이제 집 가는 중",  # parted from a friend for the evening
    "요즘 회사에서 집으로 바로 가",  # a way home, nothing changed plainly
    "집에 들어감 ㅋㅋ 학원 나와서 피곤",  # left the 학원 for the day
    "학원 나왔어 이제 좀 쉼",
])
def test_partings_and_ways_home_correct_nothing(text):
    assert terms(text) == ()


@pytest.mark.parametrize("text,old,new", [
    ("quick update, the vet called. checkup isn't the 12th anymore, she moved it to Friday March 20th", "12th", "March 20th"),
    ("they moved her due date. not due may 9 anymore, doctor says may 2 now", "may 9", "may 2"),
    ("dentist moved me. not tuesday the 8th anymore, now it's tuesday the 15th at 9:30", "8th", "9:30"),
    ("병원 결과 나왔는데 골절이 아니래요. 그냥 타박상이래요", "골절", "타박상"),
])
def test_an_appointment_someone_else_moved_and_a_diagnosis_taken_back(text, old, new):
    correction = find_correction(text)

    assert correction is not None and old in correction.old_terms
    assert mentions(correction.cleaned, new) and not mentions(correction.cleaned, old)
    assert "tuesday" not in correction.old_terms  # a weekday the new date keeps is no old value


def test_a_day_said_wrong_before_the_full_date_is_the_old_one_not_the_new_date():
    correction = find_correction("the airline changed our flight. it's not the 9th anymore, we leave friday may 10 now. "
                                 "still back the 16th")
    assert "9th" in correction.old_terms and "may 10" not in correction.old_terms and "16th" not in correction.old_terms


@pytest.mark.parametrize("text,old,new", [
    # a value asked as said before, then another of the same unit: the asked one is old, and the kept text drops it
    ("근데 내가 조카 일곱 살이라고 했지? 여덟 살이래 ㅋㅋ", "일곱 살", "여덟 살"),
    ("제가 전에 적금 스무 번이라고 했었죠? 다시 보니 스물네 번이에요", "스무 번", "스물네 번"),
])
def test_a_value_asked_as_said_before_then_another_is_old(text, old, new):
    correction = find_correction(text)

    assert correction is not None and old in correction.old_terms
    assert old not in correction.cleaned and new in correction.cleaned


@pytest.mark.parametrize("text", [
    "내가 서른 살이라고 했잖아 ㅋㅋ 동생은 스물여덟 살",  # a reminder, not a question
    "내가 일곱 살이라고 했지?",  # no other value after it
])
def test_a_reminder_or_a_lone_question_corrects_nothing(text):
    correction = find_correction(text)

    assert correction is None or not any("살" in term for term in correction.old_terms)


def test_what_was_added_is_no_old_count():
    correction = find_correction("책장 두 개 더 샀어. 이제 다섯 개야")

    assert correction is None or "두 개" not in correction.old_terms
