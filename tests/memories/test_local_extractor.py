"""LocalExtractor and LocalSummarizer: subjects in Korean and English (phrasings beyond ko_open), the
assistant question as context, corrections, behaviour rules, dates, explicit requests, episodes, summary.

No database: the extractor is pure Python over kiwipiepy.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from memories.extraction.base import SUMMARY_EMOTIONS, ChatTurn, ExistingFact
from memories.extraction.local import LocalExtractor, LocalSummarizer
from memories.subjects import category_for_subject, is_identity_subject

KST = timezone(timedelta(hours=9))
NOW = datetime(2026, 3, 4, 19, 30, tzinfo=KST)  # a Wednesday


def extract(user: str, assistant: str = "", existing=(), at: datetime = NOW):
    turns = []
    if assistant:
        turns.append(ChatTurn("a1", "assistant", assistant, at - timedelta(seconds=30)))
    turns.append(ChatTurn("u1", "user", user, at))
    return LocalExtractor().extract(turns=turns, existing=list(existing))


def values(result, subject: str) -> list[str]:
    return [f.value for f in result.facts if f.kind == "semantic" and f.subject == subject]


def semantic(result) -> list:
    return [f for f in result.facts if f.kind == "semantic"]


def episodes(result) -> list:
    return [f for f in result.facts if f.kind == "episodic" and not f.subject and not f.value]


KOREAN_CASES = [
    # name
    ("name", "내 이름은 김서연이야", "김서연"),
    ("name", "저는 박민준이라고 합니다", "박민준"),
    ("name", "난 지수라고 해 ㅎㅎ", "지수"),
    ("name", "제 이름은 이하은이에요", "이하은"),
    ("name", "아 나 이도현이야 반가워", "이도현"),
    # nickname
    ("nickname", "앞으로 나를 꼬마라고 불러줘", "꼬마"),
    ("nickname", "그냥 민이라고 부르면 돼", "민"),
    ("nickname", "내 별명은 감자야", "감자"),
    # age
    ("age", "나 올해 스물다섯 살이야", "스물다섯 살"),
    ("age", "저 31살이에요", "31살"),
    ("age", "나이는 19", "19"),
    ("age", "97년생이야", "97년생"),
    ("age", "ㅇㅇ 김태오, 마흔둘 ㅋㅋ 아재임", "마흔둘"),  # a bare native age word as its own part of a clause
    ("age", "김민지 스물다섯 살 직장인이야", "스물다섯 살"),  # a bare name opening the message: an introduction
    ("age", "저는 한동수 마흔셋이에요", "마흔셋"),
    # birthday
    ("birthday", "3월 15일에 태어났어", "3월 15일"),
    ("birthday", "내 생일 7월 7일이야!", "7월 7일"),
    ("birthday", "생일은 12/25야 크리스마스", "12/25"),
    # study and work
    ("major", "경영학과 2학년이에요", "경영학과"),
    ("major", "전공은 심리학이야", "심리학"),
    ("major", "나 시각디자인 전공이야", "시각디자인"),
    ("school_year", "대학교 3학년이야", "3학년"),
    ("school_year", "고3이라 요즘 바빠", "고3"),
    ("occupation", "나 간호사야", "간호사"),
    ("occupation", "회사원이에요 평범한", "회사원"),
    ("occupation", "프리랜서 디자이너로 일하고 있어", "디자이너"),
    ("occupation", "나 치과기공사로 일해요", "치과기공사"),  # a trade the suffix list names (lexicon)
    ("occupation", "저 동물원 사육사예요", "사육사"),
    ("occupation", "직업은 초등학교 교사야", "교사"),
    ("workplace", "판교에 있는 게임 회사에서 일해", "게임 회사"),
    ("workplace", "한전 입사해서 신입 연수 중이야 ㅋㅋ", "한전"),  # a company named by itself before joining it
    ("workplace", "넥슨 취직했어!!", "넥슨"),
    ("workplace", "한전에 입사했어!!", "한전"),
    ("school", "연세대 다니고 있어", "연세대"),
    # mbti
    ("mbti", "내 엠비티아이는 ENFJ", "ENFJ"),
    ("mbti", "나 istj임 ㅋㅋ", "ISTJ"),
    # hometown
    ("hometown", "대구 출신이야", "대구"),
    ("hometown", "광주에서 태어나고 자랐어", "광주"),
    ("hometown", "제 고향은 제주도예요", "제주도"),
    # residence
    ("residence", "요즘 망원동에 살아", "망원동"),
    ("residence", "분당에서 자취하고 있어", "분당"),
    ("residence", "지난달에 인천으로 이사했어", "인천"),
    ("residence", "사는 곳은 수원이야", "수원"),
    ("residence", "저는 부천에 살고 있어요", "부천"),
    # body
    ("blood_type", "나 O형이야", "O형"),
    ("blood_type", "혈액형은 AB야", "AB형"),
    ("blood_type", "B형이에요 ㅎㅎ", "B형"),
    ("height", "키는 163이야", "163"),
    ("height", "나 키 170cm야", "170cm"),
    ("height", "185센치라 옷 사기 힘들어", "185센치"),
    ("weight", "몸무게는 52키로", "52"),
    # family
    ("family", "우리 집은 다섯 식구야", "다섯 식구"),
    ("family", "나 외동이야", "외동"),
    ("family", "삼남매 중에 둘째야", "삼남매"),
    ("sibling", "나 여동생 하나 있어", "여동생"),
    # pets
    ("pet", "우리 집 강아지 이름은 초코야", "초코"),
    ("pet", "말티즈 한 마리 키우고 있어", "말티즈"),
    ("pet", "고양이 두 마리 키우는데 이름이 나비랑 치즈야", "나비"),
    ("pet", "나 햄스터 키워 이름은 콩이고", "콩"),
    # allergy, phobia
    ("allergy", "나 땅콩 알레르기 있어", "땅콩"),
    ("allergy", "갑각류에 알러지가 있어요", "갑각류"),
    ("phobia", "나 폐소공포증 있어", "폐소공포증"),
    ("phobia", "거미 진짜 무서워해", "거미"),
    ("phobia", "제일 무서운 건 귀신이야", "귀신"),
    # favourites
    ("favorite_food", "제일 좋아하는 음식은 김치찌개야", "김치찌개"),
    ("likes", "마라탕 진짜 좋아해", "마라탕"),
    ("likes", "곱창이랑 막창 좋아해요", "곱창"),
    ("likes", "곱창이랑 막창 좋아해요", "막창"),
    ("dislikes", "제가 제일 싫어하는 건 오이예요", "오이"),
    ("dislikes", "나 공포 영화 진짜 싫어해", "공포 영화"),
    ("favorite_food", "최애 음식은 초밥", "초밥"),
    ("favorite_season", "나 겨울 좋아해", "겨울"),
    ("favorite_season", "여름이 제일 좋아", "여름"),
    ("favorite_color", "좋아하는 색은 보라색이야", "보라색"),
    ("favorite_color", "파란색 좋아해", "파란색"),
    ("favorite_movie", "제일 좋아하는 영화는 어바웃타임이야", "어바웃타임"),
    ("favorite_movie", "인생 영화는 라라랜드", "라라랜드"),
    ("favorite_artist", "요즘 아이유 노래만 들어", "아이유"),
    ("favorite_artist", "나 세븐틴 팬이야", "세븐틴"),
    ("favorite_artist", "좋아하는 가수는 성시경이야", "성시경"),
    ("favorite_fruit", "좋아하는 과일은 샤인머스캣", "샤인머스캣"),
    ("favorite_snack", "최애 과자는 꼬북칩", "꼬북칩"),
    ("favorite_game", "제일 좋아하는 게임은 젤다야", "젤다"),
    # people
    ("best_friend", "베프는 민지야", "민지"),
    ("best_friend", "서준이가 제일 친한 친구야", "서준"),
    ("best_friend", "가장 친한 친구는 하은이", "하은"),
    # habits
    ("part_time_job", "카페에서 알바하고 있어", "카페"),
    ("part_time_job", "주말에 빵집 알바 해", "빵집"),
    ("part_time_job", "알바는 영화관에서 해", "영화관"),
    ("hobby", "취미는 뜨개질이야", "뜨개질"),
    ("hobby", "사진 찍는 게 취미야", "사진 찍는"),
    ("hobby", "쉬는 날엔 주로 넷플릭스 봐", "넷플릭스"),
    ("sport", "헬스 다닌 지 1년 됐어", "헬스"),
    ("sport", "요즘 필라테스 배우고 있어", "필라테스"),
    ("sport", "주말마다 축구해", "축구"),
    # status
    ("dating_status", "나 모쏠이야 ㅠ", "모쏠"),
    ("dating_status", "남친이랑 사귄 지 1년 됐어", "남친"),
    ("dating_status", "나 결혼했어", "결혼"),
    ("dating_status", "요즘 연애 안 해", "연애 안 함"),
    ("dream_job", "나중에 수의사가 되고 싶어", "수의사"),
    ("dream_job", "장래희망은 웹툰 작가", "웹툰 작가"),
    ("dream_job", "꿈이 선생님이야", "선생님"),
    ("handedness", "저 왼손잡이예요", "왼손잡이"),
    ("smoking", "나 담배 펴", "담배"),
    ("smoking", "담배 끊었어 작년에", "금연"),
    ("tattoo", "팔에 장미 문신 있어", "장미 문신"),
    ("religion", "나 교회 다녀", "교회"),
    # without particles, short forms, spelled letters
    ("hometown", "고향 부산임", "부산"),
    ("hobby", "취미 게임임 ㅋㅋ", "게임"),
    ("residence", "사는 곳 강남", "강남"),
    ("occupation", "직업 간호사", "간호사"),
    ("part_time_job", "알바 스벅에서 해", "스벅"),
    ("age", "나 24임", "24"),
    ("age", "저 스물넷이에요", "스물넷"),
    ("blood_type", "에이비형이야", "AB형"),
    ("name", "반가워~ 나는 민혁이야", "민혁"),
    ("occupation", "20살 대학생이고 컴공과 다녀", "대학생"),
    ("major", "20살 대학생이고 컴공과 다녀", "컴공과"),
    ("phobia", "난 거미가 세상에서 제일 무서워", "거미"),
    ("pet", "우리 집 고양이 나비는 러시안블루야", "나비"),
    ("favorite_artist", "요즘 BTS 노래에 빠져 있어", "BTS"),
    ("hobby", "요즘은 베이킹에 빠졌어요", "베이킹"),
    ("commute", "나 이제 판교로 출퇴근해", "판교"),
    ("hometown", "원래 울산 사람이야", "울산"),
    ("smoking", "원래 담배 폈는데 3년 전에 끊었어", "금연"),
    ("height", "키가 작아서 고민이에요. 158밖에 안 돼요", "158"),
    ("diet", "나 채식주의자야", "채식주의자"),
    ("birthday", "아 그리고 내 생일은 팔월 십칠일!", "팔월 십칠일"),
    ("hobby", "취미 뜨개질, 노래는 아이유, 연애는 솔로 3년차", "뜨개질"),
    ("favorite_artist", "취미 뜨개질, 노래는 아이유, 연애는 솔로 3년차", "아이유"),
    ("dating_status", "취미 뜨개질, 노래는 아이유, 연애는 솔로 3년차", "솔로 3년차"),
    ("occupation", "간단히 소개하자면 저 스물여섯, 물리치료사, 광주 토박이에요", "물리치료사"),
    ("hometown", "간단히 소개하자면 저 스물여섯, 물리치료사, 광주 토박이에요", "광주"),
    ("workplace", "영통에 있는 재활병원 다니는데 재밌어", "재활병원"),
    ("workplace", "대박 소식.. 척추병원 합격했어!! 6월부터 출근", "척추병원"),
    ("residence", "이제 분당 정자동 주민임 ㅋㅋ", "분당 정자동"),
    ("favorite_color", "커튼 이불 전부 연보라ㅋㅋ 연보라 덕후라 옷도 연보라 많음", "연보라"),
    ("favorite_movie", "비 오는 날엔 어바웃 타임 틀어놓고 멍때림. 인생영화라 열 번은 봤을걸", "어바웃 타임"),
    ("favorite_book", "책은 별로 안 읽는데 불편한 편의점은 진짜 인생책", "불편한 편의점"),
    ("goal", "목표는 올해 안에 하프마라톤 완주??", "하프마라톤"),
    ("dating_status", "나 남친 생겼어!!! 솔로 탈출 ㅋㅋㅋ 이름은 서도현", "서도현"),
    ("height", "키가 작아서 기구 맞추는 게 일임.. 나 162거든", "162"),
]


@pytest.mark.parametrize("subject,text,expected", KOREAN_CASES)
def test_korean_subject_is_extracted(subject, text, expected):
    result = extract(text)
    found = values(result, subject)
    assert any(expected in value for value in found), (text, [(f.subject, f.value) for f in semantic(result)])


ENGLISH_CASES = [
    ("name", "my name is Emily", "Emily"),
    ("name", "Hey! My name's Daniel Park, nice to meet you", "Daniel Park"),
    ("nickname", "call me Sunny", "Sunny"),
    ("nickname", "you can call me JJ from now on", "JJ"),
    ("age", "I'm 24", "24"),
    ("age", "I just turned 30 last week", "30"),
    ("age", "I am 19 years old", "19"),
    ("birthday", "my birthday is March 15", "March 15"),
    ("birthday", "I was born on 2nd of July", "2nd of July"),
    ("hometown", "I'm from Busan originally", "Busan"),
    ("hometown", "I grew up in Toronto", "Toronto"),
    ("hometown", "my mom still lives in duluth, that's where i grew up", "duluth"),  # the place pointed back to
    ("residence", "I live in Seoul", "Seoul"),
    ("residence", "I just moved to Brooklyn!", "Brooklyn"),
    ("residence", "I'm living in Berlin now", "Berlin"),
    ("occupation", "I work as a nurse", "nurse"),
    ("occupation", "I'm a software engineer", "software engineer"),
    ("workplace", "I work at Google", "Google"),
    ("workplace", "i do the books for a tiny bakery called Sweet Crumb", "Sweet Crumb"),
    ("occupation", "ya!!! sous chef at alma. start june 1.", "sous chef"),  # a role at a place, told in a fragment
    ("workplace", "ya!!! sous chef at alma. start june 1.", "alma"),
    ("occupation", "i got the zoo job. keeper aide at the columbus zoo.", "keeper aide"),
    ("occupation", "31, product designer at a fintech startup called Ledgerly.", "product designer"),
    ("major", "I'm majoring in psychology", "psychology"),
    ("major", "I'm a biology major", "biology"),
    ("school_year", "I'm a junior in college", "junior"),
    ("mbti", "I'm an INTJ btw", "INTJ"),
    ("blood_type", "my blood type is O", "O"),
    ("height", "I'm 5'9", "5'9"),
    ("height", "I'm 180 cm tall", "180"),
    ("allergy", "I'm allergic to peanuts", "peanuts"),
    ("allergy", "I have a shellfish allergy", "shellfish"),
    ("phobia", "I'm afraid of heights", "heights"),
    ("phobia", "I'm terrified of spiders", "spiders"),
    ("favorite_food", "my favorite food is sushi", "sushi"),
    ("favorite_color", "my favourite colour is green", "green"),
    ("favorite_season", "Autumn is my favorite season", "Autumn"),
    ("favorite_artist", "my favorite band is Coldplay", "Coldplay"),
    ("favorite_movie", "my favorite movie is Inception", "Inception"),
    ("favorite_pokemon", "my fav pokemon is Pikachu", "Pikachu"),
    ("best_friend", "my best friend is Sarah", "Sarah"),
    ("best_friend", "Tom is my best friend", "Tom"),
    ("part_time_job", "I work part-time at Starbucks", "Starbucks"),
    ("part_time_job", "I have a part-time job at a bookstore", "bookstore"),
    ("hobby", "my hobby is knitting", "knitting"),
    ("hobby", "in my free time I play guitar", "play guitar"),
    ("sport", "I play tennis every weekend", "tennis"),
    ("sport", "I go swimming on Sundays", "swimming"),
    ("dating_status", "I'm single", "single"),
    ("dating_status", "I have a girlfriend", "girlfriend"),
    ("dream_job", "my dream is to become a game developer", "game developer"),
    ("dream_job", "I want to be a vet someday", "vet"),
    ("handedness", "I'm left-handed", "left-handed"),
    ("smoking", "I quit smoking last year", "quit smoking"),
    ("tattoo", "I have a tattoo of a whale on my ankle", "whale"),
    ("pet", "I have a golden retriever named Max", "Max"),
    ("pet", "my cat's name is Luna", "Luna"),
    ("family", "I'm an only child", "only child"),
    ("sibling", "I have two older sisters", "two older sisters"),
    ("age", "I'm twenty-five", "25"),
    ("workplace", "I'm a nurse at St. Mary's hospital", "St. Mary's hospital"),
    ("allergy", "I'm allergic to shellfish and penicillin", "penicillin"),
    ("likes", "I love sushi and ramen", "ramen"),
    ("pet", "I just got a puppy! His name is Mochi", "Mochi"),
    ("pet", "my dog Biscuit is a corgi", "corgi"),
    ("favorite_artist", "I'm a big Taylor Swift fan", "Taylor Swift"),
    ("diet", "I'm vegetarian", "vegetarian"),
    ("residence", "we moved to Denver last year", "Denver"),
    ("dating_status", "and I started dating someone!", "dating someone"),
    ("smoking", "I'm trying to quit smoking", "quit smoking"),
    ("birthday", "twenty-seven. twenty-eight on January 9th, which is terrifying", "January 9th"),
    ("zodiac", "which makes me a capricorn, lol", "Capricorn"),
    ("residence", "yep, Chicago. I rent a tiny one bedroom in Logan Square", "Logan Square"),
    ("occupation", "Lumen Forge offered me the audio designer job and I said yes", "audio designer"),
    ("workplace", "Lumen Forge offered me the audio designer job and I said yes", "Lumen Forge"),
    ("favorite_season", "weirdly winter is still my favorite season though", "winter"),
    ("favorite_artist", "boygenius is my favorite band now", "boygenius"),
    ("dating_status", "my boyfriend Jordan thinks it's hilarious", "Jordan"),
    ("goal", "I want to do ONE real pull-up by new year's.", "pull-up"),
    ("height", "5'3 on a good day. short people club", "5'3"),
]


@pytest.mark.parametrize("subject,text,expected", ENGLISH_CASES)
def test_english_subject_is_extracted(subject, text, expected):
    result = extract(text)
    found = values(result, subject)
    assert any(expected.lower() in value.lower() for value in found), (
        text, [(f.subject, f.value) for f in semantic(result)])


@pytest.mark.parametrize("text,subject", [
    ("걔는 ESTP라 맨날 밖에 나가자고 함", "mbti"),
    ("동생은 20살이야", "age"),
    ("아 제가 헷갈렸네요, 준호 열두 살이에요", "age"),  # a name right before the age: that person's
    ("손녀 지아는 아홉 살이 됐어요", "age"),
    ("큰애 여덟 살이고 작은애 여섯 살이에요", "age"),
    ("딸네는 대구 살아요", "residence"),
    ("우리 엄마는 간호사야", "occupation"),
    ("친구가 부산 살아", "residence"),
    ("날씨가 좋아", "likes"),
    ("골목에 고양이 카페 있더라", "pet"),
    ("타투 하고 싶어", "tattoo"),
    ("반올림하면 180이라고 우기고 다님", "school"),
    ("I'm afraid I can't make it tonight", "phobia"),
    ("I'm 5 minutes away", "age"),
    ("I'm a big fan of BTS", "occupation"),
    ("my friend is an ENFP", "mbti"),
    ("예전에 노원 살았었어", "residence"),
    ("수영 배우고 싶다", "sport"),
    ("나 이제 솔로 아니야! 여자친구 생겼어", "nothing-solo"),
    ("아 맞다 저 다음 달에 서울로 이사 가요", "residence"),
    ("물에 빠졌어 ㅠㅠ", "hobby"),
    ("현우 완전 좋아하겠다", "likes"),
    ("I go to the gym every morning", "school"),
    ("I used to live in Boston", "residence"),
    ("I'm studying for the bar exam", "major"),
    ("my sister works at a bakery called Crumbs", "workplace"),
    ("my sister? nurse at st mary's.", "occupation"),
    ("dinner at mom's tonight", "workplace"),
    ("우리 언니 삼성 입사했대", "workplace"),
    ("간호사 취직함", "workplace"),  # a job, not a company
    ("everyone calls me Liv", "nickname-request"),
])
def test_someone_else_wishes_and_past_are_not_facts(text, subject):
    result = extract(text)
    if subject == "nothing-solo":
        assert values(result, "dating_status") == ["여자친구 생김"]  # the denied 솔로 is dropped
    elif subject == "nickname-request":
        assert values(result, "nickname") == ["Liv"] and "nickname" not in result.identity
    else:
        assert values(result, subject) == []


def test_every_fact_carries_subject_category_and_identity_from_subjects():
    result = extract("나 24살이고 노원 살아. 취미는 등산이야")
    facts = semantic(result)
    assert {f.subject for f in facts} >= {"age", "residence", "hobby"}
    for fact in facts:
        assert fact.is_identity == is_identity_subject(fact.subject)
        assert fact.category == category_for_subject(fact.subject)
        assert fact.source_message_id == "u1"
        assert fact.content and fact.value in fact.content
        assert 1 <= fact.importance <= 10


def test_a_liked_food_is_one_of_many_but_a_superlative_is_the_favourite():
    liked = semantic(extract("마라탕 진짜 좋아해"))
    assert [(f.subject, f.content) for f in liked] == [("likes", "좋아하는 음식: 마라탕")]
    best = semantic(extract("역시 떡볶이가 최고야. 내 인생 음식임"))
    assert [(f.subject, f.value) for f in best] == [("favorite_food", "떡볶이")]


def test_content_is_a_short_sentence_in_the_users_language():
    korean = semantic(extract("나 노원 살아"))[0]
    english = semantic(extract("I live in Seoul"))[0]
    assert korean.content == "사는 곳: 노원"
    assert english.content == "Lives in: Seoul"


# --- the assistant turn as context ------------------------------------------------------------------


def test_bare_number_answers_the_height_question():
    result = extract("178! 반올림하면 180이라고 우기고 다님 ㅋㅋ", assistant="A형! 그럼 키는? 이것도 궁금해!")
    assert values(result, "height") == ["178"]


def test_height_question_phrased_differently():
    result = extract("음 165 정도?ㅋㅋ 아니 165야", assistant="키가 몇이야?")
    assert values(result, "height") and values(result, "height")[0].startswith("165")


def test_call_me_answer_to_the_nickname_question_sets_identity():
    result = extract("대장! ㅋㅋ", assistant="근데 너 뭐라고 불러줄까? 그냥 이름 부를까?")
    assert values(result, "nickname") == ["대장"]
    assert result.identity["nickname"] == "대장"


def test_nickname_request_in_the_answer():
    result = extract("음… 대장이라고 불러줘 ㅋㅋㅋ 친구들이 다 그렇게 불러", assistant="뭐라고 불러줄까?")
    assert values(result, "nickname") == ["대장"]
    assert result.identity == {"nickname": "대장"}


def test_nickname_others_use_is_a_fact_but_not_a_request():
    result = extract("친구들은 나를 곰이라고 불러")
    assert values(result, "nickname") == ["곰"]
    assert "nickname" not in result.identity


def test_occupation_question_answered_with_one_word():
    result = extract("학생! 컴공 4학년이야", assistant="그럼 학생이야? 아니면 일해?")
    assert values(result, "occupation") == ["학생"]
    assert values(result, "major") == ["컴공"]
    assert values(result, "school_year") == ["4학년"]


@pytest.mark.parametrize("assistant,user,subject,expected", [
    ("혹시 나이 여쭤봐도 될까요?", "스물아홉이요 ㅎㅎ", "age", "스물아홉"),
    ("무서워하는 건 있어요?", "바퀴벌레요... 보기만 해도 소리 질러요", "phobia", "바퀴벌레"),
    ("반려동물 키워?", "응 고양이 두 마리. 치즈랑 까망이", "pet", "치즈"),
    ("가족은 어떻게 돼?", "부모님이랑 형 하나 있어", "family", "부모님"),
    ("혈액형 뭐야?", "에이비형", "blood_type", "AB형"),
    ("여자친구 있어?", "아뇨 없어요 ㅠ", "dating_status", "여자친구 없음"),
    ("좋아하는 영화 있어?", "타이타닉 ㅋㅋ 옛날 영화 좋아함", "favorite_movie", "타이타닉"),
    ("Any pets?", "yes, a tabby cat called Pepper", "pet", "Pepper"),
    ("Anything you're allergic to?", "peanuts, unfortunately", "allergy", "peanuts"),
    ("Favorite season?", "fall for sure, I love the colors", "favorite_season", "fall"),
    ("Are you seeing anyone?", "nope, single for two years now", "dating_status", "single"),
    ("How tall are you?", "5'11, almost six feet", "height", "5'11"),
    ("May I ask how old you are?", "twenty-seven. feeling old", "age", "27"),
    ("Oh! You have a dog? What kind, and what's their name?", "Waffles. pembroke welsh corgi, three years old",
     "pet", "Waffles"),
    ("Oh no... how many brothers do you have?", "two, both older. Sean and Patrick.", "sibling", "Sean"),
    ("Do you play anything? Any sport?", "rec volleyball on tuesday nights with some people from work",
     "sport", "volleyball"),
    ("린은 운동 뭐 해??", "필라테스 주 2회! 화목 퇴근하고 감", "sport", "필라테스"),
    ("새? 의외다. 어떤 새야?", "모란앵무!! 노란색이라 이름은 망고 ㅋㅋ", "pet", "망고"),
    ("3단계를 일주일에 세 번이면... 마라탕 자주 먹어?", "일주일에 세 번? ㅋㅋ 내 소울푸드임", "favorite_food", "마라탕"),
])
def test_short_answers_to_the_characters_question(assistant, user, subject, expected):
    found = values(extract(user, assistant=assistant), subject)
    assert any(expected in value for value in found), found


def test_a_question_turned_back_asks_the_user_the_same_thing():
    turns = [
        ChatTurn("u1", "user", "lol. ok random question, are you scared of anything?", NOW),
        ChatTurn("a1", "assistant", "Thunder. Even when I know it's coming, my shoulders jump. What about you?", NOW),
        ChatTurn("u2", "user", "deep water. like open water where you can't see the bottom", NOW),
    ]
    result = LocalExtractor().extract(turns=turns, existing=[])
    assert values(result, "phobia") == ["deep water"]


def test_english_question_context():
    assert values(extract("about 180cm lol", assistant="How tall are you?"), "height") == ["180cm"]
    assert values(extract("Jake!", assistant="What's your name?"), "name") == ["Jake"]
    assert values(extract("green, always", assistant="What's your favorite color?"), "favorite_color") == ["green"]


def test_an_answer_that_dodges_the_question_is_not_a_value():
    assert values(extract("그건 비밀 ㅋㅋ", assistant="키는 몇이야?"), "height") == []
    assert values(extract("몰라 너는?", assistant="좋아하는 색깔은?"), "favorite_color") == []


def test_context_is_only_the_assistant_turn_right_before():
    turns = [
        ChatTurn("a1", "assistant", "키는 몇이야?", NOW),
        ChatTurn("u1", "user", "그건 나중에", NOW),
        ChatTurn("u2", "user", "178", NOW),
    ]
    result = LocalExtractor().extract(turns=turns, existing=[])
    assert values(result, "height") == []


# --- corrections ----------------------------------------------------------------------------------------


def test_moving_replaces_the_residence_without_repeating_the_old_one():
    existing = [ExistingFact("residence", "노원", "사는 곳: 노원")]
    result = extract("나 이사했어! 이제 노원 아니고 신촌에서 자취해. 학교까지 걸어서 10분", existing=existing)
    assert values(result, "residence") == ["신촌"]
    assert not any("노원" in f.value or "노원" in f.content for f in semantic(result))


def test_new_part_time_job_replaces_the_quit_one():
    text = "땡땡이 아니고 편의점 알바 그만뒀어. 이사 와서 너무 멀어져서. 대신 학교 앞 PC방에서 평일 밤에 알바하기로 함"
    result = extract(text)
    assert any("PC방" in v for v in values(result, "part_time_job"))
    assert not any("편의점" in f.value or "편의점" in f.content for f in semantic(result))


def test_quitting_without_a_new_job_supersedes_with_a_neutral_value():
    result = extract("편의점 알바 그만뒀어")
    assert values(result, "part_time_job")
    assert not any("편의점" in v for v in values(result, "part_time_job"))


@pytest.mark.parametrize("text,current,old", [
    ("나 분당 말고 이제 판교 살아", "판교", "분당"),
    ("카페 알바는 관뒀고 지금은 서점에서 알바해", "서점", "카페"),
    ("I moved from Busan to Seoul last month", "Seoul", "Busan"),
    ("I don't live in Busan anymore, I live in Seoul now", "Seoul", "Busan"),
])
def test_corrections_in_other_words(text, current, old):
    result = extract(text)
    facts = semantic(result)
    assert any(current in f.value for f in facts), [(f.subject, f.value) for f in facts]
    assert not any(old in f.value for f in facts if f.subject in {"residence", "part_time_job"})


def test_english_quit_job_is_not_a_current_job():
    result = extract("I quit my part-time job at Starbucks")
    assert not any("Starbucks" in v for v in values(result, "part_time_job"))


def test_a_known_value_is_not_emitted_again():
    existing = [ExistingFact("residence", "노원", "사는 곳: 노원")]
    result = extract("나 노원 살아", existing=existing)
    assert values(result, "residence") == []


# --- behaviour rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,topic", [
    ("앞으로 내 전 여친 얘기는 꺼내지 마. 역할극이든 뭐든.", "전 여친"),
    ("회사 얘기 하지 마 제발", "회사"),
    ("군대 얘기는 절대 하지 마라", "군대"),
    ("다이어트 얘기 좀 그만해", "다이어트"),
    ("내 성적은 말하지 마", "성적"),
    ("이제 전남친 얘기는 안 했으면 좋겠어", "전남친"),
    ("please don't bring up my ex again", "my ex"),
    ("never talk about politics with me", "politics"),
    ("Don't mention my weight.", "my weight"),
    # a request put as a question; "unless I do" says when, not what
    ("can you not bring up my sister's divorce unless i bring it up first", "my sister's divorce"),
    ("new rule: could you never mention Jake's band unless I do?", "Jake's band"),
    # the addressee and adverbs between the talk word and its verb; what the topic is talked about with
    ("콩이 얘기는 너가 먼저 꺼내지 말아줘. 아직 힘들어", "콩이"),
    ("근데 하나만.. 내 키 가지고 농담하지마", "키"),
    ("내 몸무게에 대해서는 묻지 마", "몸무게"),
    ("앞으로 박팀장 얘기는 미나씨가 먼저 꺼내지 말아줘요", "박팀장"),
])
def test_avoid_topics(text, topic):
    result = extract(text)
    assert topic in result.avoid_topics


def test_an_english_topic_keeps_out_its_head_and_the_relative_whose_it_is_never_someone_named():
    from memories.extraction.behaviour import avoid_terms

    assert {"divorce", "sister"} <= set(avoid_terms(["my sister's divorce"]))
    assert "jake" not in avoid_terms(["Jake's band"]) and "band" in avoid_terms(["Jake's band"])


def test_behaviour_rule_is_not_a_personal_fact():
    result = extract("앞으로 내 전 여친 얘기는 꺼내지 마")
    assert result.avoid_topics == ["전 여친"]
    assert semantic(result) == []


def test_a_correction_episode_is_dated_by_the_new_value_never_the_old():
    result = extract("아 시험 날짜 잘못 말했다 11월 3일 아니고 11월 5일이야")
    assert [e.event_date for e in episodes(result)] == [date(2026, 11, 5)]
    birthday = extract("나 생일 잘못 말함 ㅋㅋ 12월 4일 아니고 12월 14일이야")
    assert [e.event_date for e in episodes(birthday)] == [None]  # a birthday is a special date, not the episode's


def test_the_one_asked_is_never_the_topic():
    assert extract("언니 얘기는 미나씨가 먼저 꺼내지 말아줘요. 생각나면 하루종일 울어서").avoid_topics == ["언니"]


def test_telling_someone_is_not_a_topic_rule():
    assert extract("엄마한테 말하지 마").avoid_topics == []


# --- dates ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,expected", [
    ("어제 면접 봤어", date(2026, 3, 3)),
    ("그저께 친구 결혼식 다녀왔어", date(2026, 3, 2)),
    ("오늘 발표 끝났다", date(2026, 3, 4)),
    ("내일 시험이야 떨려", date(2026, 3, 5)),
    ("지난주 금요일에 소개팅했어", date(2026, 2, 27)),
    ("다음 주 목요일에 발표 있어", date(2026, 3, 12)),
    ("이번 주 토요일에 콘서트 가", date(2026, 3, 7)),
    ("3일 전에 이사했어", date(2026, 3, 1)),
    ("yesterday I had my job interview", date(2026, 3, 3)),
    ("I went on a blind date last Friday", date(2026, 2, 27)),
    ("my presentation is next Thursday", date(2026, 3, 12)),
])
def test_relative_dates_resolve_against_the_message_time(text, expected):
    result = extract(text)
    assert episodes(result)[0].event_date == expected
    dated = [f for f in result.facts if f.kind == "episodic" and f.value]
    assert dated and dated[0].event_date == expected


def test_dates_use_the_messages_own_offset():
    just_after_midnight = datetime(2026, 3, 4, 0, 30, tzinfo=KST)  # still March 3 in UTC
    result = extract("어제 토익 봤어", at=just_after_midnight)
    assert episodes(result)[0].event_date == date(2026, 3, 3)


def test_relative_birthday_is_resolved_to_a_month_and_day():
    result = extract("오늘 내 생일이야!!")
    assert values(result, "birthday") == ["3월 4일"]
    assert [(s.date, s.description) for s in result.special_dates] == [("03-04", "생일")]
    assert values(extract("tomorrow is my birthday!"), "birthday") == ["March 5"]
    assert values(extract("오늘 엄마 생신이라 미역국 끓였어"), "birthday") == []


def test_interview_today_is_a_dated_event():
    result = extract("춘심아 나 오늘 인턴 면접 보고 왔다… 개떨렸어")
    events = [f for f in result.facts if f.category == "event" and f.value]
    assert events[0].value == "인턴 면접"
    assert events[0].event_date == date(2026, 3, 4)
    assert "3월 4일" in events[0].content


def test_exam_without_a_date_word_is_on_the_message_date():
    result = extract("토익 보고 왔어. LC 파트2에서 멘탈 나감")
    events = [f for f in result.facts if f.category == "event" and f.value]
    assert events[0].event_date == date(2026, 3, 4)


def test_birthday_is_a_fact_and_a_special_date():
    result = extract("아 내 생일은 11월 2일이야")
    assert values(result, "birthday") == ["11월 2일"]
    assert [(s.date, s.description) for s in result.special_dates] == [("11-02", "생일")]
    assert episodes(result)[0].event_date is None


def test_english_birthday_special_date():
    result = extract("my birthday is March 15")
    assert [(s.date, s.description) for s in result.special_dates] == [("03-15", "birthday")]


def test_a_friends_birthday_is_a_special_date_not_the_users_birthday():
    result = extract("다음 주 목요일이 현우 생일이라 선물 사야 돼")
    assert values(result, "birthday") == []
    assert ("03-12", "현우 생일") in [(s.date, s.description) for s in result.special_dates]


# --- explicit requests ----------------------------------------------------------------------------------


def test_explicit_request_marks_the_messages_facts():
    result = extract("내 생일은 11월 2일이야 기억해줘")
    assert all(f.explicit for f in result.facts)
    birthday = next(f for f in result.facts if f.subject == "birthday")
    assert birthday.importance >= 9
    plain = next(f for f in extract("내 MBTI는 INFP야").facts if f.subject == "mbti")
    assert not plain.explicit


@pytest.mark.parametrize("text", ["이거 꼭 기억해 둬 나 땅콩 못 먹어", "잊지 마 나 다음 주에 이사 가", "remember that I'm allergic to cats",
                                  "don't forget my exam is tomorrow"])
def test_explicit_phrasings(text):
    result = extract(text)
    assert result.facts and all(f.explicit for f in result.facts)


def test_asking_whether_it_remembers_is_not_a_request():
    assert not any(f.explicit for f in extract("내 MBTI 기억해?").facts)
    assert not any(f.explicit for f in extract("do you remember my dog's name?").facts)


# --- episodes -------------------------------------------------------------------------------------------

SALIENT = [
    "팀플 지옥이었어. 조원 하나가 잠수 타서 내가 다 함 ㅋㅋ",
    "강남에 있는 스타트업. 면접관 세 명이 쳐다보는데 머리가 하얘짐",
    "안 쓰는 모니터 팔려고. 5만원에 올렸는데 벌써 세 명이 연락 옴",
    "원룸이라 좁은데 창문이 커서 좋아. 근데 첫날 밥 해먹으려다 냄비 태움",
    "I finally finished the big report at work and my boss liked it",
    "we went hiking with my cousins and got lost for an hour",
]
NOT_SALIENT = ["ㅋㅋㅋ", "ㅇㅇ 잘 자", "ok lol", "응", "잘 자 춘심아", "hi!", "ㅇㅋ ㅋㅋ", "고마워!", "thanks haha",
               "***-****-**** 으로 문자 주시면 바로 답장 드릴게요!", "****-****-****-****"]


def test_every_salient_message_becomes_an_episode():
    turns = [ChatTurn(f"u{i}", "user", text, NOW) for i, text in enumerate(SALIENT + NOT_SALIENT)]
    result = LocalExtractor().extract(turns=turns, existing=[])
    stored = {f.content for f in episodes(result)}
    assert stored == set(SALIENT)
    for fact in episodes(result):
        assert fact.subject == "" and 1 <= fact.importance <= 10


def test_episode_keeps_the_message_even_with_facts():
    text = "나 노원 살아. 학교까지 한 시간 넘게 걸려"
    result = extract(text)
    assert [f.content for f in episodes(result)] == [text]
    assert values(result, "residence") == ["노원"]


def test_raw_pii_missed_upstream_is_masked_in_episodes():
    result = extract("아빠 보험 서류 대신 쓰는 중인데 형식 맞나? 보험 회사 양식이 복잡하네 680412-1945801")
    assert all("680412" not in f.content for f in result.facts)


@pytest.mark.parametrize("text,label", [
    ("요즘 너무 피곤해", "피곤"),
    ("스트레스 받아 죽겠어", "스트레스"),
    ("오늘 진짜 행복했어", "기쁨"),
    ("혼자 사니까 밤에 좀 외롭긴 하다", "외로움"),
    ("요즘 좀 우울해", "우울"),
    ("면접 때문에 개떨렸어", "긴장"),
    ("I'm so lonely lately", "lonely"),
    ("I'm really stressed about finals", "stressed"),
])
def test_emotion_on_the_episode(text, label):
    episode = episodes(extract(text))[0]
    assert episode.emotion == label
    assert 0 < episode.emotion_intensity <= 1


def test_intensifiers_raise_intensity_and_negation_cancels():
    strong = episodes(extract("오늘 진짜 너무 피곤해 죽겠어"))[0].emotion_intensity
    mild = episodes(extract("오늘 좀 피곤하네 일이 많아서"))[0].emotion_intensity
    assert strong > mild
    assert episodes(extract("오늘은 하나도 안 피곤해 잠을 많이 잤거든"))[0].emotion == ""


def test_role_play_turns_are_not_personal_facts():
    result = extract("오 좋아 ㅋㅋ 나는 기사 할래. 이름은 레온, 27살, 북쪽 설원 왕국 출신 기사",
                     assistant="판타지 역할극 어때? 내가 모험 세계 만들어줄게!")
    assert semantic(result) == []
    assert semantic(extract("(검을 뽑으며) 나는 27살 기사 레온이다!")) == []


# --- identity -------------------------------------------------------------------------------------------


def _conversation(*messages: str):
    return [ChatTurn(f"u{i}", "user", text, NOW) for i, text in enumerate(messages)]


def test_consistent_banmal_sets_the_honorific():
    turns = _conversation("나 오늘 학교 갔다 왔어", "진짜 피곤하다", "내일은 쉬어야지", "너는 뭐 했어?")
    assert LocalExtractor().extract(turns=turns, existing=[]).identity["honorific"] == "반말"


def test_consistent_jondaetmal_sets_the_honorific():
    turns = _conversation("오늘 회사 다녀왔어요", "너무 피곤하네요", "내일은 쉬려고요")
    assert LocalExtractor().extract(turns=turns, existing=[]).identity["honorific"] == "존댓말"


def test_mixed_or_short_speech_sets_no_honorific():
    mixed = _conversation("오늘 회사 다녀왔어요", "진짜 피곤해", "내일은 쉬어야지", "뭐 하세요?")
    assert "honorific" not in LocalExtractor().extract(turns=mixed, existing=[]).identity
    assert "honorific" not in LocalExtractor().extract(turns=_conversation("안녕하세요"), existing=[]).identity


def test_asking_for_banmal_sets_the_honorific_at_once():
    assert extract("우리 그냥 반말하자 편하게").identity == {"honorific": "반말"}
    assert extract("저한테는 존댓말 써 주세요").identity == {"honorific": "존댓말"}


def test_english_call_me_sets_the_identity_nickname():
    assert extract("please call me Sunny").identity == {"nickname": "Sunny"}


def test_extractor_is_deterministic():
    text = "나 고양이 키워! 이름은 두부고 러시안블루야. 그리고 복숭아 알레르기 있어"
    assert extract(text) == extract(text)


# --- summary --------------------------------------------------------------------------------------------


def test_summary_shape_and_emotion():
    turns = [
        ChatTurn("u1", "user", "춘심아 나 오늘 인턴 면접 보고 왔다… 개떨렸어", NOW),
        ChatTurn("a1", "assistant", "헐 고생했어! 어디 회사야?", NOW),
        ChatTurn("u2", "user", "강남에 있는 스타트업. 면접관 세 명이 쳐다보는데 머리가 하얘짐", NOW),
        ChatTurn("u3", "user", "결과는 다음 주에 나온대. 떨어질까 봐 걱정돼", NOW),
        ChatTurn("u4", "user", "ㅇㅇ 잘 자", NOW),
    ]
    summary = LocalSummarizer().summarize(turns=turns)
    assert summary.summary and len(summary.summary) <= 300
    assert "면접" in summary.summary
    assert "잘 자" not in summary.summary
    assert "면접" in summary.topics and len(summary.topics) <= 5
    assert summary.emotion == "스트레스"
    assert summary.emotion in SUMMARY_EMOTIONS
    assert 1 <= summary.importance <= 10
    assert summary.fallback is False


def test_summary_of_a_happy_english_chat():
    turns = [
        ChatTurn("u1", "user", "I got the job!! I'm so happy right now", NOW),
        ChatTurn("u2", "user", "the interview was last Friday and they called me this morning", NOW),
    ]
    summary = LocalSummarizer().summarize(turns=turns)
    assert summary.emotion == "기쁨"
    assert "job" in summary.summary
    assert "interview" in summary.topics or "job" in summary.topics


def test_summary_of_chatter_is_calm_and_unimportant():
    summary = LocalSummarizer().summarize(turns=_conversation("ㅋㅋㅋ", "ㅇㅇ", "잘 자"))
    assert summary.summary == "" and summary.topics == []
    assert summary.emotion == "평온" and summary.importance <= 3


def test_summary_importance_grows_with_facts_and_feelings():
    light = LocalSummarizer().summarize(turns=_conversation("오늘 점심 김밥 먹음", "날씨 좋네"))
    heavy = LocalSummarizer().summarize(turns=_conversation(
        "나 오늘 회사에서 잘렸어… 너무 우울해", "내 생일은 5월 3일인데 이번 생일은 혼자 보내겠다", "진짜 스트레스 받아 죽겠어"))
    assert heavy.importance > light.importance


def test_an_english_value_ends_before_as_a_role():
    assert values(extract("i work at Ledgerly as a product designer"), "workplace") == ["Ledgerly"]


@pytest.mark.parametrize("topic,other_word", [("군대", "영장"), ("구조조정", "정리해고"), ("divorce", "이혼")])
def test_an_avoided_topic_keeps_out_memories_that_name_it_in_other_words(topic, other_word):
    from memories.extraction.behaviour import avoid_test

    assert avoid_test((topic,))(f"어제 {other_word} 얘기 들었어")
    assert not avoid_test((topic,))("어제 회사에서 회식했어")
