"""LocalExtractor on casual chat: role-play windows, indirect corrections (moves, new jobs, partners, changed
favourites), plain self-descriptions, false facts that must not appear, tense-aware event dates and the
user's own UTC offset. Sentences are written for these tests, Korean and English, several phrasings each.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from memories.extraction.base import ChatTurn, ExistingFact
from memories.extraction.local import LocalExtractor

KST = timezone(timedelta(hours=9))
CST = timezone(timedelta(hours=-6))
MONDAY = datetime(2026, 3, 9, 20, 0, tzinfo=KST)


def run(*turns: tuple[str, str], at: datetime = MONDAY, existing=()):
    chat = [ChatTurn(f"m{i}", role, text, at + timedelta(seconds=i)) for i, (role, text) in enumerate(turns)]
    return LocalExtractor().extract(turns=chat, existing=list(existing))


def U(text):
    return ("user", text)


def A(text):
    return ("assistant", text)


def values(result, subject):
    return [f.value for f in result.facts if f.kind == "semantic" and f.subject == subject]


def semantic(result):
    return [f for f in result.facts if f.kind == "semantic"]


def from_message(result, message_id):
    return [f for f in result.facts if f.source_message_id == message_id]


# --- 1. role-play ---------------------------------------------------------------------------------------

ROLE_PLAYS = [
    (A("let's do a space pirate roleplay! you're the navigator, i'm the ship's AI"),
     U("name's jax thorne. thirty-two years old, born on europa, allergic to solar dust")),
    (U("wanna do a fantasy rp? you be the innkeeper"), A("*wipes the counter* Welcome, traveler. Who are you?"),
     U("I'm Elara, a ranger from the Silverwood. I'm 120 years old")),
    (U("무협 롤플 하자 ㅋㅋ 너는 객잔 주인 해"), A("좋아! *주판을 튕기며* 어서 오시오, 대협은 뉘시오?"),
     U("나는 천마신교의 흑룡이다. 나이는 마흔셋"), U("고향은 곤륜산이오")),
    (A("우리 상황극 해볼까? 나는 탐정, 너는 의뢰인!"), U("저는 한서윤이라고 해요. 스물아홉 살이고 부산에서 왔어요")),
    # proposed politely by the user, then both roles cast before any narration
    (U("심심한데 우리 상황극 하나 해요 ㅋㅋ"), A("좋아요! 무슨 설정이요?"),
     U("저는 경력 이십 년 소방서장이고 나이는 쉰하나, 당신은 신입 대원이에요")),
]


@pytest.mark.parametrize("turns", ROLE_PLAYS)
def test_role_play_window_yields_no_personal_facts_and_no_episodes(turns):
    result = run(*turns)
    assert semantic(result) == []
    in_character = [f"m{i}" for i, (role, _) in enumerate(turns) if role == "user"][1:]
    for message_id in in_character:
        assert from_message(result, message_id) == []


def test_in_character_hometown_does_not_supersede_the_real_one():
    result = run(A("판타지 롤플 할래? 넌 기사 역할!"), U("좋아 ㅋㅋ"), U("(검을 들며) 내 고향은 북쪽 설원이다"),
                 existing=[ExistingFact("hometown", "대구", "고향: 대구")])
    assert values(result, "hometown") == []


@pytest.mark.parametrize("end, real, subject, value", [
    ("롤플 끝!", "아 근데 나 진짜로 어제 망원동으로 이사했어", "residence", "망원동"),
    ("ok end the roleplay lol", "for real though i'm a dental hygienist", "occupation", "dental hygienist"),
    ("역할극 그만하자 ㅋㅋ", "나 사실 간호사야", "occupation", "간호사"),
    ("ㅋㅋㅋㅋ 끝 재밌네", "아 근데 나 진짜로 어제 망원동으로 이사했어", "residence", "망원동"),  # a bare 끝 in a game
    ("lol ok real life, i'm a dental hygienist btw", "anyway", "occupation", "dental hygienist"),
    ("ㅋㅋ 현실 복귀! 나 사실 간호사야", "ㅇㅇ", "occupation", "간호사"),
])
def test_ending_the_role_play_lets_real_facts_through(end, real, subject, value):
    result = run(U("let's do a zombie roleplay" if end[:1].isascii() else "좀비 롤플 하자"),
                 A("*barricades the door* Quick, inside!"), U("*runs in* thanks!"), U(end), U(real))
    assert values(result, subject) == [value]


def test_ooc_message_is_real_inside_a_role_play():
    result = run(U("let's do a pirate roleplay, you're the captain"), A("*hoists the sail* Aye!"),
                 U("(ooc) btw i'm allergic to peanuts irl"), U("*climbs the mast* land ho!"))
    assert values(result, "allergy") == ["peanuts"]


def test_a_long_pause_closes_the_role_play():
    start = MONDAY
    turns = [ChatTurn("a", "assistant", "let's do a detective roleplay, you're my partner", start),
             ChatTurn("b", "user", "*lights a cigar* I'm Sam, 50 years old", start + timedelta(minutes=1)),
             ChatTurn("c", "user", "morning! i live in Denver btw", start + timedelta(hours=14))]
    result = LocalExtractor().extract(turns=turns, existing=[])
    assert values(result, "residence") == ["Denver"]
    assert values(result, "age") == []


@pytest.mark.parametrize("text", [
    "내 웹소설 여주 이름은 세레나야", "요즘 쓰는 소설 주인공은 스물다섯 살이고 이름은 카일이야",
    "my novel's protagonist is named Mira and she's 30", "my OC's name is Vex, she's from Mars",
])
def test_a_fictional_character_is_not_the_user(text):
    result = run(U(text))
    assert values(result, "name") == [] and values(result, "age") == [] and values(result, "hometown") == []


@pytest.mark.parametrize("text", ["his name's Tom and he's my coworker", "my buddy's name's Carl lol"])
def test_someone_elses_name_is_not_the_users(text):
    assert values(run(U(text)), "name") == []


# --- 2. indirect corrections ----------------------------------------------------------------------------

@pytest.mark.parametrize("turns, value", [
    ((U("hiii from DENVER!! we made it, boxes everywhere"),), "DENVER"),
    ((U("heyy from austin!! finally moved in"),), "austin"),
    ((U("got a 1br in denver, highlands area"),), "denver"),
    ((U("signed on a studio in Portland yesterday"),), "Portland"),
    ((U("just moved to Chicago last week"),), "Chicago"),
    ((U("we live in Seattle now"),), "Seattle"),
    ((U("finally moved over to Brooklyn"),), "Brooklyn"),
    ((A("이사 어디로 가게 됐어?"), U("성수동으로 감 ㅋㅋ")), "성수동"),
    ((U("드디어 성수동 입성"),), "성수동"),
    ((U("이사 끝! 연남동으로 왔어"),), "연남동"),
    ((U("판교 새 아파트 입주 완료"),), "판교"),
    ((U("망원동으로 이사 끝냄"),), "망원동"),
])
def test_a_move_sets_the_residence(turns, value):
    assert values(run(*turns), "residence") == [value]


@pytest.mark.parametrize("text", ["나 홍대로 감 친구 만나러", "다음 달에 성수동 입성 예정", "토욜에 이사 끝냄",
                                  "i'd love a house in the woods someday"])
def test_no_residence_without_a_move_or_from_a_time_word(text):
    assert values(run(U(text)), "residence") == []


@pytest.mark.parametrize("text, occupation", [
    ("i start at Oracle as a sales rep next week", "sales rep"),
    ("starting monday i'm working as a barista", "barista"),
    ("got hired as a paralegal!!", "paralegal"),
    ("필라테스 강사로 이직함", "필라테스 강사"),
    ("드디어 간호사 됐어!!", "간호사"),
    ("디자이너로 취업했어", "디자이너"),
])
def test_a_new_job_sets_the_occupation(text, occupation):
    assert values(run(U(text)), "occupation") == [occupation]


@pytest.mark.parametrize("text", ["friday's my last day as a hygienist", "today was my last shift as a cashier lol",
                                  "i finally quit my job as a receptionist"])
def test_leaving_a_job_supersedes_the_occupation(text):
    [value] = values(run(U(text)), "occupation")
    assert value.startswith("former")


@pytest.mark.parametrize("text, expect", [
    ("her name is jordan. we made it official!", "Jordan"),
    ("his name's Theo and we're official now", "Theo"),
    ("i got a boyfriend!! his name is Sam", "Sam"),
    ("나 여친생김 ㅋㅋㅋ 나연이", "나연"),
    ("남친 생겼어 ㅎㅎ 이름은 도윤이", "도윤"),
])
def test_a_new_partner_sets_the_dating_status_with_the_name(text, expect):
    [value] = values(run(U(text)), "dating_status")
    assert expect in value


@pytest.mark.parametrize("text", ["헤어졌어 ㅠ", "우리 헤어짐", "we broke up last night"])
def test_a_break_up_sets_single(text):
    [value] = values(run(U(text)), "dating_status")
    assert "솔로" in value or "single" in value


@pytest.mark.parametrize("turns, existing, subject, value", [
    ((U("최애 바뀜 이제 해린"),), "favorite_artist", "favorite_artist", "해린"),
    ((U("나 최애 바뀌었어ㅋㅋ 이제 카리나"),), "favorite_artist", "favorite_artist", "카리나"),
    ((U("최애가 원영이로 바뀜"),), "favorite_artist", "favorite_artist", "원영"),
    ((U("new fave is birria"),), "favorite_food", "favorite_food", "birria"),
    ((A("still obsessed with tacos?"), U("nah my new favorite is pho")), "", "favorite_food", "pho"),
    ((U("ramen is my new obsession"),), "favorite_food", "favorite_food", "ramen"),
])
def test_a_changed_favourite_keeps_the_old_subject(turns, existing, subject, value):
    stored = [ExistingFact(existing, "old", "old")] if existing else []
    assert values(run(*turns, existing=stored), subject) == [value]


def test_favourite_member_and_idol_share_one_subject():
    assert values(run(U("최애 멤버는 민지야")), "favorite_artist") == ["민지"]
    assert values(run(U("my favorite member is Jungkook")), "favorite_artist") == ["Jungkook"]


# --- 3. plain self-descriptions -------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("i'm a dental hygienist", "dental hygienist"), ("i work as a bartender downtown", "bartender"),
    ("I'm a sales rep", "sales rep"), ("저 간호사예요", "간호사"), ("나 바리스타야", "바리스타"),
])
def test_self_described_occupation(text, value):
    assert values(run(U(text)), "occupation") == [value]


@pytest.mark.parametrize("question, answer, key", [
    ("when's your birthday?", "the 3rd of june!", "06-03"),
    ("when's your birthday?", "june 3rd", "06-03"),
    ("oh fun, when is your birthday?", "6/3!", "06-03"),
    ("생일이 언제야?", "유월 삼일!", "06-03"),
    ("생일 언제야?", "6월 3일", "06-03"),
    ("생일이 언제야?", "한글날이야 ㅋㅋ", "10-09"),
    ("생일 언제예요?", "어린이날이요", "05-05"),
    ("when's your birthday?", "christmas eve lol", "12-24"),
])
def test_birthday_answers_set_the_birthday_and_special_date(question, answer, key):
    result = run(A(question), U(answer))
    assert values(result, "birthday")
    assert key in [d.date for d in result.special_dates]


@pytest.mark.parametrize("text, key", [
    ("내 생일은 크리스마스야", "12-25"), ("생일이 빼빼로데이라서 맨날 과자 받아", "11-11"),
    ("my birthday is on valentine's day", "02-14"), ("제 생일 광복절이에요", "08-15"),
])
def test_holiday_birthdays(text, key):
    assert key in [d.date for d in run(U(text)).special_dates]


@pytest.mark.parametrize("text", ["설날이 내 생일이야", "내 생일 추석이랑 겹쳐"])
def test_lunar_holidays_stay_unresolved(text):
    assert values(run(U(text)), "birthday") == []


@pytest.mark.parametrize("text", ["오늘 친구가 내 생일 물어보길래 한글날이라니까 웃더라",
                                  "오늘 회사에서 내 생일 얘기 나왔는데 다들 몰랐대"])
def test_talking_about_the_birthday_today_is_not_a_birthday_today(text):
    result = run(U(text))
    assert "03-09" not in [d.date for d in result.special_dates]
    assert all("3월 9일" not in v for v in values(result, "birthday"))


@pytest.mark.parametrize("question, answer, value", [
    ("어디 살아?", "망원동! 망리단길 근처 원룸", "망원동"),
    ("요즘 어디 살아?", "연남동 투룸 ㅋㅋ", "연남동"),
    ("where do you live?", "Denver! near the highlands", "Denver"),
])
def test_residence_answer(question, answer, value):
    assert values(run(A(question), U(answer)), "residence") == [value]


# --- 4. false facts -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["솔방울 개웃기네", "이 드라마 개웃기다 ㅋㅋ", "오늘 날씨 개좋다", "떡볶이 개맛있어",
                                  "울 개웃긴 친구가 그러더라"])
def test_gae_intensifier_is_not_a_dog(text):
    assert values(run(U(text)), "pet") == []


@pytest.mark.parametrize("text", ["나 꿈이 하나 있는데", "저 꿈이 하나 생겼어요", "꿈이 몇 개 있긴 해"])
def test_announcing_a_dream_names_no_goal(text):
    result = run(U(text))
    assert values(result, "goal") == [] and values(result, "dream_job") == []


@pytest.mark.parametrize("text", ["자전거 타고 한강 갔다옴", "어제 테니스 쳤어 처음으로", "친구랑 볼링 치고 왔어"])
def test_a_one_off_outing_is_not_a_sport(text):
    assert values(run(U(text)), "sport") == []


@pytest.mark.parametrize("text, sport", [("나 주말마다 자전거 타", "자전거"), ("테니스 좋아해서 매주 쳐", "테니스"),
                                         ("i play tennis every sunday", "tennis")])
def test_a_habitual_sport_is_kept(text, sport):
    assert values(run(U(text)), "sport") == [sport]


@pytest.mark.parametrize("text", ["i do wheel throwing every week", "wheel throwing is my hobby"])
def test_pottery_wheel_throwing_is_a_hobby(text):
    result = run(U(text))
    assert values(result, "sport") == [] and values(result, "hobby") == ["wheel throwing"]


@pytest.mark.parametrize("turns, value", [
    ((U("메밀소바 알레르기 있어"),), "메밀"), ((U("새우튀김 먹으면 두드러기 나"),), "새우"),
    ((U("땅콩버터 알레르기 있음"),), "땅콩"), ((U("i'm allergic to"), U("shellfish")), "shellfish"),
    ((U("i'm allergic to..."), A("oh no, to what?"), U("peanuts")), "peanuts"),
    ((U("나 알레르기 있는데"), U("갑각류")), "갑각류"),
])
def test_allergen_not_dish_and_split_messages(turns, value):
    assert values(run(*turns), "allergy") == [value]


def test_a_complete_allergy_does_not_make_the_next_message_an_allergy():
    assert values(run(U("복숭아 알레르기 있어"), U("오늘 출근함")), "allergy") == ["복숭아"]


@pytest.mark.parametrize("turns", [
    (U("우리 엄마 얘기는 하지 마"),), (A("가족은 어떻게 돼?"), U("우리 엄마 얘기는 꺼내지 마")),
    (U("please don't bring up my dad"),),
])
def test_an_avoid_rule_is_not_a_family_fact(turns):
    result = run(*turns)
    assert values(result, "family") == [] and result.avoid_topics


@pytest.mark.parametrize("text", ["앞으로도 그런 말은 하지 마", "앞으로는 그 얘기 하지 마", "앞으로도 잘 부탁해"])
def test_adverbs_are_not_avoid_topics(text):
    assert all(t not in {"앞", "앞으로"} for t in run(U(text)).avoid_topics)


# --- 5. event dates -------------------------------------------------------------------------------------

def events(result):
    return [(f.value, f.event_date) for f in result.facts if f.kind == "episodic" and f.value]


@pytest.mark.parametrize("text, expected", [
    ("토욜에 이사 끝냄", date(2026, 3, 7)),             # said on Monday: the past Saturday
    ("토요일에 이사했어", date(2026, 3, 7)),
    ("금욜에 면접 봄", date(2026, 3, 6)),
    ("토요일에 이사할 거야", date(2026, 3, 14)),        # a plan: the next Saturday
    ("수요일에 면접 있어", date(2026, 3, 11)),
    ("saturday was my sister's wedding", date(2026, 3, 7)),
    ("i have an interview on wednesday", date(2026, 3, 11)),
    ("this thursday i have a dentist appointment", date(2026, 3, 12)),
    ("6/3에 면접 있어", date(2026, 6, 3)), ("my interview is on 6/3", date(2026, 6, 3)),
    ("유월 십삼일에 시험", date(2026, 6, 13)), ("6월 3일에 콘서트 가", date(2026, 6, 3)),
    ("concert on June 3", date(2026, 6, 3)), ("the exam is the 3rd of june", date(2026, 6, 3)),
])
def test_event_dates_follow_the_tense(text, expected):
    assert [d for _, d in events(run(U(text)))][:1] == [expected]


@pytest.mark.parametrize("text", ["good thing i passed that driving test", "glad that interview is over",
                                  "그 면접 붙어서 다행이야"])
def test_looking_back_at_an_event_creates_no_new_one(text):
    assert events(run(U(text))) == []


def test_a_new_result_is_dated_today():
    assert events(run(U("just passed my driving test!!"))) == [("passed my driving test", date(2026, 3, 9))]


# --- 6. the user's own UTC offset -----------------------------------------------------------------------

def test_today_uses_the_users_offset_late_in_the_evening():
    late = datetime(2026, 3, 4, 23, 30, tzinfo=CST)  # 05:30 UTC on March 5
    result = run(U("had my job interview today"), at=late)
    assert [d for _, d in events(result)] == [date(2026, 3, 4)]


def test_the_day_before_yesterday_uses_the_users_offset_after_midnight():
    after_midnight = datetime(2026, 3, 5, 0, 30, tzinfo=KST)  # 15:30 UTC on March 4
    result = run(U("그저께 면접 보고 왔어"), at=after_midnight)
    assert [d for _, d in events(result)] == [date(2026, 3, 3)]


def test_weekday_uses_the_users_offset():
    sunday_night = datetime(2026, 3, 8, 22, 0, tzinfo=CST)  # already Monday in UTC
    result = run(U("we moved on saturday, the wedding was saturday too"), at=sunday_night)
    assert [d for _, d in events(result)] == [date(2026, 3, 7)]


def test_own_birthday_today_uses_the_users_offset():
    late = datetime(2026, 6, 2, 23, 0, tzinfo=CST)  # June 3 in UTC
    assert [d.date for d in run(U("today is my birthday!!"), at=late).special_dates] == ["06-02"]


# --- replay gaps: jobs at a place, idol favourites, clubs, fiction, food favourites, English updates ---------

@pytest.mark.parametrize("text, job, place", [
    ("정형외과에서 물리치료사 함", "물리치료사", "정형외과"),
    ("나 카페에서 바리스타 해요", "바리스타", "카페"),
    ("요즘 대학병원에서 간호사 하고 있어", "간호사", "대학병원"),
    ("스타트업에서 개발자로 일해", "개발자", "스타트업"),
])
def test_job_done_at_a_place_is_an_occupation_not_a_name(text, job, place):
    result = run(A("이름이 뭐야?"), U(text))
    assert values(result, "occupation") == [job]
    assert values(result, "workplace") == [place]
    assert values(result, "name") == []


@pytest.mark.parametrize("text", ["나중에 병원에서 간호사 하고 싶어", "엄마는 학교에서 선생님 하셔", "예전에 카페에서 바리스타 했었어"])
def test_wished_past_or_someone_elses_job_at_a_place_is_not_the_occupation(text):
    assert values(run(U(text)), "occupation") == []


@pytest.mark.parametrize("turns, value", [
    ((U("내 최애는 윈터야"),), "윈터"),
    ((U("최애는 민지임"),), "민지"),
    ((U("점심 뭐 먹지 고민이다"), U("최애 바뀜 ㅋㅋ 이제 윈터에서 하니")), "하니"),
    ((U("떡볶이가 최애 음식이야"), U("아 그리고 최애 바뀜ㅋㅋ 이제 하니")), "하니"),
    ((U("윈터에서 하니로 최애 바뀜"),), "하니"),
    ((U("최애가 윈터에서 하니로 갈아탐"),), "하니"),
])
def test_a_bare_choeae_is_an_idol(turns, value):
    result = run(*turns)
    assert values(result, "favorite_artist") == [value]
    assert all(not v.endswith(("에서", "야", "임")) for v in values(result, "favorite_food") + values(result, "likes"))
    assert value not in values(result, "favorite_food")


def test_a_changed_food_favourite_is_still_food():
    assert values(run(U("점심 뭐 먹지"), U("최애 바뀜 이제 쌀국수")), "favorite_food") == ["쌀국수"]


@pytest.mark.parametrize("text", ["농구 동호회 다녀", "회사 배드민턴 동호회에서 치고 있어", "테니스 동호회 들어갔어 ㅎㅎ"])
def test_a_sport_club_is_a_sport(text):
    assert len(values(run(U(text)), "sport")) == 1


@pytest.mark.parametrize("text", ["형이 농구 동호회 다녀", "테니스 동호회 탈퇴했어", "주말에 자전거 타러 갈 거야", "어제 자전거 탔어"])
def test_no_sport_from_someone_elses_club_a_quit_or_one_outing(text):
    assert values(run(U(text)), "sport") == []


@pytest.mark.parametrize("turns", [
    (U("나 요즘 판타지 웹소설 써"), A("오 주인공 이름은 뭐야?"), U("리엔이야")),
    (U("웹툰 그리는데 이름은 리엔으로 정했어"),),
    (A("이름이 뭐야?"), U("내 소설 남주 이름이 카일이야")),
])
def test_a_fictional_characters_name_is_not_the_users(turns):
    assert values(run(*turns), "name") == []


@pytest.mark.parametrize("turns, value", [
    ((U("순대국 없으면 못 살아"),), "순대국"),
    ((U("짜장면 없인 못 살지 ㅋㅋ"),), "짜장면"),
    ((U("족발이 최고지"),), "족발"),
    ((U("족발이 최고야"), U("근데 요즘은 족발보다 쌀국수")), "쌀국수"),
    ((U("족발보단 쌀국수가 더 좋아"),), "쌀국수"),
])
def test_food_favourites_said_casually(turns, value):
    assert values(run(*turns), "favorite_food")[-1] == value


def test_cannot_live_without_a_person_is_no_food():
    result = run(U("너 없으면 못 살아"))
    assert values(result, "favorite_food") == []


@pytest.mark.parametrize("text, city", [
    ("heyyy from PORTLAND 🌲 we finally made it", "PORTLAND"),
    ("hi from boston!! 🦞 moved in yesterday", "boston"),
    ("seattle traffic is insane today", "Seattle"),
    ("ugh the chicago winters are brutal", "Chicago"),
])
def test_city_as_home_from_a_greeting_or_daily_complaint(text, city):
    assert values(run(U(text)), "residence") == [city]


@pytest.mark.parametrize("text", ["flying to seattle tomorrow, seattle weather is so gloomy", "i'm the captain of my team"])
def test_no_residence_from_a_trip(text):
    assert values(run(U(text)), "residence") == []


@pytest.mark.parametrize("text", ["i've been single for two years now", "no gf rn lol", "honestly i'm not dating anyone",
                                  "not seeing anybody atm", "still single haha", "i'm still single"])
def test_single_said_casually(text):
    assert values(run(U(text)), "dating_status") == ["single"]


def test_a_new_partner_follows_single():
    result = run(U("no gf rn lol"), A("aw"), U("update: her name is priya... we made it official!"))
    assert values(result, "dating_status")[-1] == "in a relationship (new) with Priya"


@pytest.mark.parametrize("text, food", [
    ("pho. it's honestly my fave food", "pho"),
    ("i could eat dumplings every day, it's my favorite food", "dumplings"),
    ("sushi is literally my favourite food", "sushi"),
    ("shoyu forever", "shoyu"),
])
def test_favourite_food_said_with_it_or_forever(text, food):
    assert values(run(U(text)), "favorite_food") == [food]


@pytest.mark.parametrize("text, job", [
    ("starting tuesday as a pharmacy tech", "pharmacy tech"),
    ("new job!! i start next week as a project manager", "project manager"),
    ("i'm officially a software engineer", "software engineer"),
])
def test_a_new_job_start_is_the_occupation(text, job):
    assert values(run(U("tomorrow's my last day as a barista"), U(text)), "occupation")[-1] == job


@pytest.mark.parametrize("text, words", [
    ("my brother leo just got engaged!!", "brother Leo just got engaged"),
    ("omg my cousin is pregnant, due in may", "cousin is pregnant"),
])
def test_family_news_is_kept_in_the_users_words(text, words):
    news = [f for f in semantic(run(U(text))) if f.subject == "family_news"]
    assert len(news) == 1 and words in news[0].content


@pytest.mark.parametrize("turns", [
    (U("wanna play knights?"), A("*kneels* My liege, who approaches?"), U("ha ok"), A("*the gates creak*"),
     U("sir aldric of the north. forty years old, from the kingdom of ash")),
    (A("ok here we go: you're the ship's doctor, i'm the captain"), U("name's mira holt, born on titan, allergic to nothing")),
    (A("*the airlock hisses open* State your name, stranger."), U("commander vega. two hundred years old, from another galaxy")),
])
def test_persona_introductions_inside_role_play_are_ignored(turns):
    result = run(*turns)
    last = f"m{len(turns) - 1}"
    assert from_message(result, last) == []


def test_the_characters_own_words_after_a_game_it_praised_are_kept():
    result = run(U("심심한데 역할극 하자 ㅋㅋ 너는 코치고 난 선수야"), A("(호루라기 삑!) 선수! 다섯 바퀴 간다!"),
                 U("ㅋㅋㅋ 끝 재밌네"), A("ㅋㅋ 언니 연기 미쳤다 🎭"), U("너는 요즘 뭐 배워?"),
                 A("나 요즘 복싱 배워!! 스트레스 풀리고 완전 좋아"))
    assert any("복싱" in fact.content for fact in result.facts if fact.speaker == "character")


# --- 4. role-play windows, questions without a mark, favourites dethroned (issue 8, corpus 2 session) ----

def test_a_one_word_role_play_request_opens_the_window_and_the_persona_is_no_fact():
    result = run(U("chunsim i'm sooo bored. roleplay? space pirates pls"), A("YES ok who r u? give me ur character!!"),
                 U("ok i'm captain rosa vex. fifty years old, ex-navy pilot, allergic to nothing"))
    assert values(result, "age") == [] and values(result, "allergy") == []
    assert from_message(result, "m2") == []


@pytest.mark.parametrize("text", ["what is rp? lol", "do you like roleplay?", "i work in RP please dont"])
def test_talking_about_role_play_opens_no_window(text):
    result = run(U(text), U("i live in Denver btw"))
    assert values(result, "residence") == ["Denver"]


def test_masked_personal_data_is_no_starred_action():
    """Masking writes asterisks ("+* (***) ***-****"); they are not "*kicks the door*" and open no role-play."""
    result = run(U('"Hi! Still available. Text me at +* (***) ***-**** and we can set up pickup"'),
                 U("lol no, i'm single rn and honestly thriving"))
    assert values(result, "dating_status") == ["single"]


@pytest.mark.parametrize("end", ["lmaooo ok that was fun. real life update tho: i'm single rn",
                                 "ㅋㅋㅋ 재밌었다 근데 현실 얘기하자면 나 솔로야"])
def test_saying_the_game_was_fun_or_going_back_to_real_life_closes_the_window(end):
    result = run(U("let's do a pirate roleplay, you're the captain"), A("*hoists the sail* Aye!"),
                 U("*climbs the mast* land ho!"), U(end))
    assert values(result, "dating_status")


@pytest.mark.parametrize("question, answer, subject", [
    ("thirty-one!! and 2 more months means a birthday is coming 👀 when when when", "the 3rd of june!", "birthday"),
    ("와 대박 그럼 고향은 어디야", "대구!", "hometown"),
])
def test_a_question_without_its_mark_still_asks(question, answer, subject):
    assert values(run(A(question), U(answer)), subject)


def test_a_statement_ending_in_no_question_word_asks_nothing():
    assert values(run(A("a birthday is coming soon 🎂"), U("the 3rd of june!")), "birthday") == []


def test_a_new_favourite_named_before_its_topic_replaces_the_dethroned_one():
    result = run(U("also update, i think ramen has been dethroned. ngl birria tacos are my new fave food"))
    assert values(result, "favorite_food") == ["birria tacos"]
    assert any("ramen" in f.replaces for f in result.facts)


@pytest.mark.parametrize("turns, topic", [
    ((U("전남친 준호한테 카톡옴... 헤어진지 두달 됐는데 잘지내냐고 ㅋ"), U("안함 ㅋㅋ 읽씹함"),
      U("아 됐다 걔 얘기 앞으로 절대 꺼내지마 진짜")), "전남친"),
    ((U("근데 어제 또 회사에서 구조조정 명단 얘기가 나와서 기분이 안 좋았어요."),
      U("솔직히 이제 그 얘기는 그만하고 싶어요. 소라 씨도 그 단어는 꺼내지 말아줄래요?")), "구조조정 명단"),
    ((U("친구들이 자꾸 살빼라고 다이어트 하라고 하는데 그말 너무 스트레스 에요 소라씨는 그런말 하지 마세요"),), "다이어트"),
    ((U("my ex jake texted me today ugh"), U("please dont ask about him again")), "my ex"),
    # no talk word or act before it: the last thing the sentences before name, as the word it stands in
    ((U("할머니가 마지막에 하동 솔바람요양원에 계셨어요. 거기 모신 게 한이에요. 유나씨 그 얘기는 다시 꺼내지 말아줘요"),),
     "솔바람요양원"),
    ((U("사실 나 작년까지 7급 공시생이었어. 떨어지고 좀 힘들었음"), U("ㅇㅇ 근데 그 얘기는 이제 꺼내지 마")), "공시"),
])
def test_a_rule_pointing_back_takes_its_topic_from_what_the_user_just_said(turns, topic):
    assert run(*turns).avoid_topics == [topic]


@pytest.mark.parametrize("text", ["아 쪽팔려 유나한텐 말하지마 걔 맨날 놀릴듯", "엄마한테는 말하지 마"])
def test_a_secret_to_keep_from_someone_is_no_avoid_topic(text):
    assert run(U(text)).avoid_topics == []


def test_a_pointing_rule_with_nothing_to_point_at_names_no_topic():
    assert run(U("그 얘기는 하지 마")).avoid_topics == []


# --- 5. introductions, other people's news, bare jobs (corpus 2 tune half) ------------------------------

def test_a_formal_self_introduction_after_the_character_introduced_itself():
    result = run(A("안녕하세요, 반가워요. 저는 소라예요. 오늘 하루는 어땠어요?"),
                 U("저는 오세진입니다. 서른여덟이고요. 그냥 평범한 회사원이에요"))
    assert values(result, "name") == ["오세진"] and values(result, "age") == ["서른여덟"]


def test_a_three_syllable_noun_is_no_name_without_an_introduction():
    assert values(run(U("저는 고양이입니다 ㅋㅋ")), "name") == []


@pytest.mark.parametrize("text, name", [("난 Danny, 한국 이름은 김현우인데 다들 Danny라고 불러", "김현우"),
                                        ("제 본명은 아니고 진짜 이름은 박서윤이에요", "박서윤")])
def test_a_qualified_name_is_the_name(text, name):
    assert values(run(U(text)), "name") == [name]


def test_a_class_someone_teaches_is_no_school_year():
    assert values(run(U("다른 학교에서 3학년 담임하고 있어요")), "school_year") == []


@pytest.mark.parametrize("text", ["best friend Kevin이 Austin으로 이사 간대요", "동생이 부산으로 이사했대"])
def test_someone_elses_reported_move_is_not_the_users_residence(text):
    assert values(run(U(text)), "residence") == []


@pytest.mark.parametrize("text, value", [("I am mechanical engineer in paint shop", "mechanical engineer"),
                                         ("im nurse at seoul hospital", "nurse")])
def test_a_job_said_without_its_article(text, value):
    assert values(run(U(text)), "occupation") == [value]


def test_i_am_tired_is_no_job():
    assert values(run(U("I am tired in the morning")), "occupation") == []


def test_a_short_plan_with_a_deadline_is_kept_as_an_episode():
    result = run(A("클라이밍 한 달이면 V1 당연해! 목표 하나 정하자!"), U("음 6월 말까지 V3 깨기 어때"))
    assert any(f.kind != "semantic" and "6월 말" in f.content for f in result.facts)


@pytest.mark.parametrize("text", ["큰딸 열네살 중학생이고 작은딸 아홉살이에요", "서윤이라고 열두 살인데 지 엄마랑 울산 살아",
                                  "우리 막내동생은 스물하나야"])
def test_ages_and_jobs_of_family_named_or_prefixed_are_not_the_users(text):
    result = run(U(text))
    assert values(result, "age") == [] and values(result, "occupation") == []


def test_a_full_name_opening_an_introduction():
    result = run(A("…안녕하세요. 저는 미나예요."), U("반가워요 ㅎㅎ 윤태호고 마흔하나예요. 부산에서 약사 해요"))
    assert values(result, "name") == ["윤태호"]


def test_an_english_role_play_word_with_a_korean_proposal_opens_the_window():
    result = run(U("춘심 심심해 ㅋㅋ 우리 roleplay 하자. 포장마차 하는 설정 ok? 난 사장 민호, 서른다섯 살 ㅋㅋ"))
    assert values(result, "age") == [] and values(result, "name") == []


@pytest.mark.parametrize("turns, subject, value", [
    ((U("물류회사에서 과장으로 일하는데요"),), "occupation", "과장"),
    ((U("나 차장 달았어!! 오늘 발표 났어"),), "occupation", "차장"),
    ((U("합정에 있는 브랜딩 디자인 스튜디오 ㅋㅋ 어시로 들어감"),), "workplace", "디자인 스튜디오"),
    ((U("유나야 나 이직함 ㅋㅋ 이제 디자인 스튜디오 다님"),), "workplace", "디자인 스튜디오"),
    ((U("Sora! 오늘 new job 첫날이었어요. Haneul Games라는 Irvine 게임 회사, UI art 팀이에요"),), "workplace",
     "Haneul Games"),
    ((U("UX designer야, Loopmint라는 fintech startup에서 일해"),), "occupation", "UX designer"),
])
def test_ranks_new_workplaces_and_code_switched_jobs(turns, subject, value):
    assert value in values(run(*turns), subject)


def test_a_friends_named_company_is_not_the_users_workplace():
    assert values(run(U("친구가 Loopmint라는 회사 다니는데 거기 복지 좋대")), "workplace") == []


def test_the_characters_question_about_someone_elses_name_is_not_about_the_user():
    result = run(A("와, 입학이라니! 축하해요. 따님 이름이 뭐예요?"), U("서아요. 여덟 살이에요."))
    assert values(result, "name") == []


def test_a_rename_keeps_the_old_name_old_even_when_the_message_repeats_it():
    from memories.extraction.corrections import find_correction
    correction = find_correction("news: Mochi 이름 바꿨어 ㅋㅋ 이제 Bori야. 엄마가 Mochi는 발음 어렵다고 해서")
    assert correction is not None and "Mochi" in correction.old_terms and "Mochi" not in correction.cleaned


@pytest.mark.parametrize("question, answer, kept", [
    ("Let's focus on your father — when is the surgery?", "August 19 in Gyeongju hospital... maybe 3 days off",
     "when is the surgery?"),
    ("헐 수술 언제야??", "8월 19일!", "수술 언제야?"),
])
def test_a_short_answer_keeps_the_question_it_answers(question, answer, kept):
    """The neighbouring turn that says what the answer is about (issue 8 §5) goes with the episode."""
    [episode] = [f for f in run(A(question), U(answer)).facts if f.kind == "episodic" and f.speaker == "user"]
    assert kept in episode.content and episode.content.startswith(answer.split()[0])


@pytest.mark.parametrize("question, answer", [
    ("ㅋㅋㅋ 뭐야 자기 생일을 틀려?", "근데 Irvine에서 commute 너무 멀어 ㅠ 405 traffic 지옥"),  # moves on
    ("뭐래?", "직접 시범 보여줌 ㅋㅋㅋ 근데 이제 gym 가기 멀어짐"),  # a reaction, not a question
    ("고향이 어디야?", "고향은 대구야"),  # the answer already says what was asked
])
def test_no_question_goes_with_a_message_that_does_not_answer_it(question, answer):
    assert all("←" not in f.content for f in run(A(question), U(answer)).facts)


def test_an_english_date_before_a_korean_particle_is_a_date():
    from memories.extraction.corrections import find_correction
    correction = find_correction("생일 잘못 말했다ㅋㅋ July 12 아니고 July 21이야")
    assert "July 12" in correction.old_terms and "12" not in correction.old_terms
    assert "July 21" in correction.cleaned


@pytest.mark.parametrize("text", ["Let's make it fun. In this test I am different person. My name is Tom, I live in London",
                                  "pretend i'm a chef from Rome, ok? i'm 50 years old"])
def test_pretending_to_be_someone_else_opens_a_role_play(text):
    result = run(U(text))
    assert values(result, "residence") == [] and values(result, "name") == [] and values(result, "age") == []


def test_pretending_as_a_habit_is_no_role_play():
    assert values(run(U("i pretend to be ok at work lol. i live in Ulsan btw")), "residence") == ["Ulsan"]


@pytest.mark.parametrize("text, topic", [("블로그 얘기는 하지 마", "블로그"), ("무지개 얘기 꺼내지 마", "무지개")])
def test_a_word_ending_like_a_pointer_is_a_topic_of_its_own(text, topic):
    assert run(U(text)).avoid_topics == [topic]


# --- answers about someone else, departments, 초성 replies ----------------------------------------------------

@pytest.mark.parametrize("turns", [
    (A("지호 님은 뭐 하는 사람이야?"), U("간호사! 분당에서 일해. 둘 다 바빠서 주말에만 봐")),
    (A("수아씨는 어디 살아요?"), U("일산 살아요 부모님이랑")),
    (A("what does your sister do?"), U("nurse in leeds lol")),
])
def test_a_reply_to_a_question_about_someone_else_gives_no_fact_about_the_user(turns):
    result = run(*turns)

    assert semantic(result) == []
    assert from_message(result, "m1")  # the reply is still kept as what was said


def test_a_reply_to_a_question_about_someone_else_that_speaks_of_the_user_keeps_the_users_facts():
    result = run(A("지호 님은 뭐 하는 사람이야?"), U("걔는 간호사고 나는 회계사야"))

    assert "회계사" in values(result, "occupation")


@pytest.mark.parametrize("turns,job", [
    ((A("오 그럼 무슨 일 해?"), U("식품 회사 영업부ㅇㅇ 거래처 도는 게 일이야")), "식품 회사 영업부"),
    ((U("나 게임회사 기획팀이야. 요즘 야근 많아"),), "게임회사 기획팀"),
])
def test_a_department_is_what_the_user_does_and_a_choseong_reply_ends_the_clause(turns, job):
    assert values(run(*turns), "occupation") == [job]


def test_a_team_that_is_no_department_is_no_job():
    assert values(run(U("나 두산 응원팀이야 ㅋㅋ 야구 개좋아")), "occupation") == []


@pytest.mark.parametrize("text,new", [
    ("내가 전에 생일 3월 9일 이라 했는데 그건 서류상 날짜고 진짜 생일은 3월 19일이에요", "3월 19일"),
    ("i said my birthday is may 30? wrong, my birthday is may 13", "may 13"),
])
def test_a_correcting_message_states_the_new_value_even_when_its_rule_first_takes_the_old(text, new):
    result = run(U(text))

    assert values(result, "birthday") == [new]


def test_renaming_something_is_no_dream():
    assert values(run(U("몬스테라 이름 바꿈 ㅋㅋ")), "goal") == []


@pytest.mark.parametrize("text,topic", [
    ("미리 말해둘게. 부모님 작년에 별거하셨어. 그 일은 내가 먼저 말하기 전엔 안 꺼내줬으면 좋겠어", "별거"),
    ("아 그리고 나 휴학했던 얘기는 꺼내지 말아줘 그때 힘들었음", "휴학"),
])
def test_an_avoid_rule_names_the_act_it_points_at(text, topic):
    assert topic in run(U(text)).avoid_topics


def test_a_birthday_corrected_without_a_birthday_sentence_is_the_date_left():
    assert values(run(U("아 나 생일 잘못 말함 ㅋㅋ 8월 4일 아니고 8월 14일이야")), "birthday") == ["8월 14일"]


@pytest.mark.parametrize("text,date", [("우리 결혼기념일은 5월 20일이야", "05-20"),
                                       ("our anniversary is june 3, five years!", "06-03")])
def test_an_anniversary_is_a_yearly_special_date(text, date):
    assert date in [d.date for d in run(U(text)).special_dates]


def test_a_hundred_days_anniversary_comes_once():
    assert run(U("사귄 지 100일 기념일 6월 3일!")).special_dates == []


@pytest.mark.parametrize("text,place", [
    ("theres a taco truck near my apartment in the east village, every friday", "east village"),
    ("found a lil house to rent in dublin like 10 min from work", "dublin"),
])
def test_where_an_english_user_lives_said_in_passing(text, place):
    assert values(run(U(text)), "residence") == [place]


def test_a_contracted_avoid_rule_names_its_topic():
    assert "아빠" in run(U("엄마랑 누나랑 셋이 살아. 아 근데 아빠얘긴 하지마 걍")).avoid_topics


def test_a_full_name_going_on_to_age_and_job_is_the_name_and_the_age_is_no_part_of_the_job():
    result = run(U("요즘은 거의 못 읽어요ㅠ 저 박서준이고 서른하나 직장인입니다 ㅋㅋ"))

    assert values(result, "name") == ["박서준"]
    assert values(result, "occupation") == ["직장인"]
    assert values(run(U("나 학생이고 알바해")), "name") == []


def test_a_quoted_nickname_is_the_quoted_word_and_a_roleplaying_proposal_opens_a_window():
    assert values(run(U("ㅋㅋ 그리고 나 부를 때 '대장'이라고 불러줘")), "nickname") == ["대장"]
    result = run(U("춘심아 우리 롤플레잉 해보자"), A("좋아! 무슨 설정이야?"),
                 U("넌 바닷가 카페 알바생이고 나는 그 카페 사장 '한여름'. 스물아홉이고 서울에서 내려왔어"))
    assert values(result, "age") == []


def test_an_english_introduction_as_a_list_gives_age_and_job_but_not_for_someone_else():
    result = run(A("Hi! I'm Yuna! What's your name?"), U("maya. 29, dental nurse, currently dying on my sofa lol"))

    assert values(result, "age") == ["29"] and values(result, "occupation") == ["dental nurse"]
    assert values(run(U("my sister's 24, nurse in leeds")), "occupation") == []


@pytest.mark.parametrize("text,name", [("ㅎㅇㅎㅇ 춘심 나 지훈 ㅋㅋ 스물 새내기임", "지훈"), ("ㅎㅇ 미나야 나 서연임 ㅋㅋ", "서연")])
def test_a_choseong_greeting_then_the_name_alone_is_an_introduction(text, name):
    assert values(run(U(text)), "name") == [name]


@pytest.mark.parametrize("text", ["ㅎㅇ 나 배고파", "안녕 나 학생 ㅋㅋ", "안녕 나 지금 퇴근", "안녕 나 회사"])
def test_a_greeting_then_a_state_is_no_name(text):
    assert values(run(U(text)), "name") == []


def test_teaching_something_full_time_is_the_users_job_not_a_sisters():
    assert values(run(U("ok so. i quit the clinic lol. teaching pilates full time now at a studio")), "occupation") \
        == ["pilates teacher"]
    assert values(run(U("my sister is teaching yoga full time")), "occupation") == []


def test_praising_the_story_ends_the_role_play_and_the_characters_next_words_are_its_own():
    result = run(U("판타지 롤플 하자 ㄱㄱ"), A("*엘라가 지팡이를 든다* 카엘 경, 출발해요"),
                 U("*카엘이 검을 듦* 가자"), A("*드래곤이 내려앉는다* 누구냐!"),
                 U("오 반전ㅋㅋㅋ 미나 스토리 개잘짬"), A("헤헤 책을 많이 읽어서 그런가 봐요"),
                 U("근데 너 진짜 책 뭐좋아함"), A("저는 '어린 왕자'를 제일 좋아해요"))

    assert any("어린 왕자" in f.content for f in result.facts if f.speaker == "character")
    assert not any("드래곤" in f.content for f in result.facts)


@pytest.mark.parametrize("turns,subject", [
    ((U("아 맞다 ㅋㅋ 소라씨 알바는 이번주도 해요?"),), "part_time_job"),
    ((U("소라씨 제일 좋아하는 영화는요?"),), "likes"),
    ((A("what book should we do next?"), U("i bought it already lol")), "favorite_book"),
    ((A("a cat and a dog! how old are they?"), U("mochi is 5 and bean is like 2")), "age"),
    ((U("내일 알바 가기 싫다 ㅠㅠ"),), "part_time_job"),
])
def test_a_question_to_the_character_a_reply_about_pets_and_filler_are_no_values(turns, subject):
    assert values(run(*turns), subject) == []


def test_a_goal_said_unsure_is_still_a_goal_and_one_syllable_things_are_values():
    assert values(run(U("목표는 올해 안에 풀마라톤 완주??")), "goal") != []
    assert "책" in values(run(U("취미는 책")), "hobby")


@pytest.mark.parametrize("text,subject,value", [
    ("보호소 갔다가 강아지 입양함... 두 살 믹스견. 이름은 일단 콩떡으로 했어", "pet", "강아지 (믹스견)"),
    ("그리고 오빠 이런 거 no no, just call me Minnie 편하게", "nickname", "Minnie"),
])
def test_fillers_around_a_value_are_no_part_of_it(text, subject, value):
    assert values(run(U(text)), subject) == [value]


def test_a_greeting_names_the_user_said_so_and_an_age_is_never_a_name():
    result = run(U("안녕하세요 소라 씨. 처음 뵙겠습니다. 대전 사는 성민우라고 합니다. 마흔둘이에요."))
    assert values(result, "name") == ["성민우"] and values(result, "age") == ["마흔둘"]
    assert values(run(U("반가워요! 서른하나예요 ㅎㅎ")), "name") == []  # 서 is a surname, 서른하나 an age


def test_the_characters_reply_to_the_end_of_a_role_play_is_real_not_the_story():
    from memories.extraction.character_side import STORY_MARK

    result = run(U("let's do a zombie roleplay"), A("*barricades the door* Quick, inside!"), U("*runs in* thanks!"),
                 U("lol ok real life, what's the plan this week"),
                 A("Monday rest, Wednesday a 5k tempo, and a 30-day plank challenge starting tomorrow"))
    said = [f.content for f in result.facts if f.speaker == "character"]
    assert any("plank" in c and not c.startswith(STORY_MARK) for c in said), said
    assert any(c.startswith(STORY_MARK) and "barricades" in c for c in said), said


@pytest.mark.parametrize("before, message, referent", [
    ("also my sister called, she's moving to a new apartment next month", "boston. she's a dental hygienist so she's "
     "always up early lol", "(she: my sister)"),
    ("우리 누나 요즘 이직 준비한대", "ㅇㅇ 걔 간호사잖아 병원 옮긴대", "(걔: 누나)"),
])
def test_a_message_opening_on_she_or_걔_says_who_the_message_before_named(before, message, referent):
    """"what does my sister do?" finds "she's a dental hygienist" only if the episode says who "she" is."""
    episodes = [f.content for f in run(U(before), U(message)).facts if f.kind == "episodic"]
    assert any(content.startswith(message.split()[0]) and referent in content for content in episodes), episodes


@pytest.mark.parametrize("before, message", [
    ("my dad called earlier, he wants to visit in june", "she's so annoying about the wedding plans honestly"),  # no she
    ("my sister called, she's moving again", "he's my brother btw, a firefighter on 24 hour shifts"),  # names its own
])
def test_no_referent_for_another_gender_or_a_message_that_names_its_own(before, message):
    assert all("(she:" not in f.content and "(he:" not in f.content for f in run(U(before), U(message)).facts)


# --- whose age and which value -----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["손녀 하윤이가 학원 간다고 전화왔어요 열한살이 벌써 바쁘네", "13살이 무슨 연애야 ㅋㅋ"])
def test_an_age_as_the_subject_of_a_sentence_is_nobody_the_user_is(text):
    assert values(run(U(text)), "age") == []


def test_an_age_said_with_a_copula_is_still_the_users():
    assert values(run(U("나 열아홉살이야 ㅋㅋ")), "age") == ["열아홉살"]


def test_an_english_workplace_stops_before_the_days_worked():
    assert values(run(U("i work at subway mondays and wednesdays after class")), "workplace") == ["subway"]


def test_guess_what_is_no_answer_to_who_are_you():
    result = run(A("Knock knock! Who are you?"), U("guess what. we're adopting a puppy"))

    assert values(result, "name") == []


def test_a_when_question_brings_the_sentence_that_says_what_it_is_about():
    result = run(A("치과 임플란트는 요즘 금방 한다더라고요. 날짜는 잡으셨어요?"), U("다음달 3일 오후 두시로 잡았어요"))

    episodes = [f.content for f in result.facts if f.kind == "episodic" and "잡았어요" in f.content]
    assert episodes and "임플란트" in episodes[0]


@pytest.mark.parametrize("text,name", [("고은비 스물넷 ㅋㅋ 연남동 자취함", "고은비"), ("최민서 32살 간호사예요", "최민서")])
def test_a_full_name_opening_the_message_before_an_age_is_the_users(text, name):
    assert values(run(U(text)), "name") == [name]


@pytest.mark.parametrize("text", ["이번주 서른 명 왔어 ㅋㅋ", "한지민 서른둘 배우래", "친구들은 나 뭉치라고 불러"])
def test_no_name_from_a_count_someone_elses_age_or_a_call_name(text):
    assert values(run(U(text)), "name") == []


def test_dating_a_food_is_a_joke_not_a_relationship():
    assert values(run(U("my mom keeps asking. absolutely not. I'm dating pizza right now")), "dating_status") == []
    assert values(run(U("I'm dating Marco now")), "dating_status") == ["dating Marco"]


def test_a_corrected_birthday_of_someone_named_is_not_the_users():
    assert values(run(U("wait i messed up sofias bday, its june 21 not june 12")), "birthday") == []
    assert values(run(U("동생 생일 잘못 말함 ㅋㅋ 12월 4일 아니고 12월 14일이야")), "birthday") == []
    assert values(run(U("내 생일 잘못 말함 ㅋㅋ 12월 4일 아니고 12월 14일이야")), "birthday") == ["12월 14일"]


@pytest.mark.parametrize("text,major", [("나 전과함 ㅋㅋ 국문 안맞아서 심리학과로 신청했는데 붙음", "심리학"),
                                        ("경영에서 컴공으로 전과했어", "컴공")])
def test_a_change_of_major_gives_the_major_gone_to(text, major):
    assert values(run(U(text)), "major") == [major]


def test_someone_elses_change_of_major_is_theirs():
    assert values(run(U("동생이 컴공으로 전과했대")), "major") == []


@pytest.mark.parametrize("text,name,job", [("저는 망원동에서 꽃집하는 이서진입니다 ㅎㅎ", "이서진", "꽃집"),
                                           ("요즘은 1톤트럭으로 용달 뛰어요", None, "용달"),
                                           ("요즘 밤에 대리 뛰어요", None, "대리운전")])
def test_a_shop_the_user_runs_or_gig_work_is_the_occupation(text, name, job):
    result = run(U(text))

    assert values(result, "occupation") == [job]
    assert values(result, "name") == ([name] if name else [])


@pytest.mark.parametrize("text", ["우리 엄마 미용실 하거든", "카페 하는 게 꿈이야", "배달 시켜먹었어"])
def test_someone_elses_shop_a_dream_or_an_order_is_no_occupation(text):
    assert values(run(U(text)), "occupation") == []
