"""POST /api/context/{characterId}/prompt: budgets, situations, exclusions and read-your-writes."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Plan, UserPlan
from audit.services import AuditContext
from context_layers.services import layer_put
from context_pack.budgets import allocate
from context_pack.tokens import estimate_tokens
from memories.models import MemoryItem, MemorySettings
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")
PROMPT = "/api/context/chunsim/prompt?user=alice"


def remember(user, character, content, **kwargs):
    item, _ = memory_create(user=user, character=character, context=CONTEXT,
                            data=MemoryInput(content=content, **kwargs))
    return item


@pytest.fixture
def post_turns(system_client, django_capture_on_commit_callbacks):
    def _post(character, conversation, *pairs, start="2026-03-01T21:00:00+09:00", user="alice"):
        from datetime import datetime

        at = datetime.fromisoformat(start)
        messages = []
        for index, (mid, text) in enumerate(pairs):
            messages.append({"id": mid, "role": "user" if mid.endswith("u") else "assistant", "content": text,
                             "createdAt": (at + timedelta(seconds=index)).isoformat()})
        with django_capture_on_commit_callbacks(execute=False):  # leave processing to the prompt request
            response = system_client.post(f"/api/context/{character}/messages?user={user}",
                                          {"conversationId": conversation, "messages": messages}, format="json")
        assert response.status_code == 202, response.content
    return _post


def prompt(client, message, **body):
    response = client.post(PROMPT, {"message": message, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_read_your_writes_a_fact_told_is_in_the_next_prompt(system_client, post_turns, chunsim, alice):
    post_turns("chunsim", "c1", ("t1u", "나 고향은 부산이야"), ("t1a", "오 부산!"))
    block = prompt(system_client, "내 고향 어디라고 했지?")
    assert "부산" in block["text"]
    assert block["fresh"] is True


@pytest.mark.parametrize("budget", [200, 300, 700, 1100, 2500])
def test_tokens_never_exceed_the_budget(system_client, chunsim, premium, budget):
    for i in range(120):
        remember(premium, chunsim, f"기억 {i}: 오늘은 {i}번째로 재미있는 일이 있었고 친구랑 떡볶이를 먹었다", importance=1 + i % 10)
    layer_put(user=premium, character=chunsim, layer="soul", context=CONTEXT,
              document={"values": ["가족", "성장", "우정"], "dreams": ["게임 개발자"], "summary": "성실한 대학생 " * 20})
    layer_put(user=premium, character=chunsim, layer="tools", context=CONTEXT,
              document={"avoidTopics": ["전 여친 얘기"]})
    block = prompt(system_client, "떡볶이 먹은 날 기억나?", budgetTokens=budget)
    assert block["tokens"] <= budget
    assert estimate_tokens(block["text"]) <= budget
    assert block["budget"] == budget
    assert sum(layer["tokens"] for layer in block["layers"].values()) <= budget


def test_avoid_topics_and_identity_survive_a_small_budget(system_client, chunsim, alice):
    for i in range(60):
        remember(alice, chunsim, f"일화 {i}: 평범한 하루 이야기가 길게 이어진다 " * 2, importance=3)
    remember(alice, chunsim, "이름: 한지우", subject_key="name", subject_value="한지우", importance=9,
             category="personal_info")
    layer_put(user=alice, character=chunsim, layer="tools", context=CONTEXT, document={"avoidTopics": ["전 여친 얘기"]})
    block = prompt(system_client, "아무 얘기나 해줘", budgetTokens=300)
    assert "한지우" in block["text"]
    assert "전 여친 얘기" in block["text"]
    assert block["tokens"] <= 300


@pytest.mark.parametrize("topic, touching, unrelated", [
    ("전 여친", "전여친이랑 헤어져서 많이 힘들었음", "여친이랑 이번 주말에 전시회 가기로 했어"),
    ("my old band", "the velvet mopeds was my band, it ended badly", "my sister plays in a jazz trio"),
    ("구조조정 명단", "회사에 구조조정 한다는 소문이 돌아서 머리가 복잡해", "회사 앞 카페 라떼가 맛있어"),
    ("ex", "Jessica… 내 ex 작년에 끝났는데 아직 좀 그래", "오늘 회사에서 칭찬 받았어"),
    # a topic of one syllable is a word of its own: "키" is not in "키우는" or "키보드"
    ("키", "내 키 152cm인거 진짜 콤플렉스임", "강아지 키우는 게 꿈이라 키보드 배경화면도 강아지야"),
])
def test_a_memory_touching_an_avoid_topic_never_enters_the_block(system_client, chunsim, alice, topic, touching,
                                                                   unrelated):
    """Issue 9 §6: "rules are hard" — the rule line stays, the memories about the topic go."""
    remember(alice, chunsim, touching, importance=8)
    remember(alice, chunsim, unrelated, importance=8)
    layer_put(user=alice, character=chunsim, layer="tools", context=CONTEXT, document={"avoidTopics": [topic]})
    block = prompt(system_client, "요즘 좀 외롭다 ㅠㅠ 이런저런 생각이 나네")
    assert touching not in block["text"]
    assert unrelated in block["text"]
    assert topic in block["text"]  # the rule itself is stated


def test_a_person_to_avoid_is_named_by_title_alone_and_their_memories_stay_out(system_client, chunsim, alice):
    remember(alice, chunsim, "오늘 회사에서 박팀장 때문에 개빡침", importance=8)
    layer_put(user=alice, character=chunsim, layer="tools", context=CONTEXT, document={"avoidTopics": ["박팀장"]})
    text = prompt(system_client, "오늘 회사에서 또 짜증나는 일 있었어")["text"]
    assert "박팀장" not in text
    assert "피할 주제 (유저가 먼저 꺼내지 않으면 언급 금지): 팀장" in text


def test_an_avoided_memory_comes_back_when_the_user_brings_the_topic_up(system_client, chunsim, alice):
    remember(alice, chunsim, "전여친이랑 헤어져서 많이 힘들었음", importance=8)
    layer_put(user=alice, character=chunsim, layer="tools", context=CONTEXT, document={"avoidTopics": ["전 여친"]})
    assert "헤어져서" in prompt(system_client, "오늘 전여친 마주쳤어… 헤어진 거 생각나")["text"]


def test_an_avoided_memory_comes_back_when_the_user_asks_to_recall_it(system_client, chunsim, alice):
    remember(alice, chunsim, "나 재활병원에서 물리치료사로 일해", importance=8)
    layer_put(user=alice, character=chunsim, layer="tools", context=CONTEXT, document={"avoidTopics": ["병원 일"]})
    assert "재활병원" not in prompt(system_client, "언니 오늘 좀 지쳤어.. 아무 얘기나 해줘")["text"]
    assert "재활병원" in prompt(system_client, "나 어디서 일한다고 했었지?")["text"]


def test_unused_budget_flows_to_the_memory_layer(system_client, chunsim, premium):
    for i in range(80):
        remember(premium, chunsim, f"취미 이야기 {i}: 주말마다 레고를 조립한다", importance=5)
    block = prompt(system_client, "주말에 뭐 해?", budgetTokens=1100)
    base_memory = allocate(1100, block["situation"], soul_enabled=True)["memory"]
    # empty soul, identity, heartbeat and tools layers: their tokens go to memory
    assert block["layers"]["memory"]["tokens"] > base_memory
    assert block["tokens"] <= 1100


def test_budget_allocation_follows_the_situation():
    daily = allocate(1100, "daily", soul_enabled=True)
    assert sum(daily.values()) == 1100
    assert allocate(1100, "first_in_a_while", soul_enabled=True)["heartbeat"] > daily["heartbeat"]
    assert allocate(1100, "deep_talk", soul_enabled=True)["soul"] > daily["soul"]
    assert allocate(1100, "special_day", soul_enabled=True)["tools"] > daily["tools"]
    assert allocate(1100, "daily", soul_enabled=False)["soul"] == 0


def test_situation_detection_and_override(system_client, post_turns, chunsim, alice):
    post_turns("chunsim", "c1", ("a1u", "안녕"), start="2026-03-01T21:00:00+09:00")
    post_turns("chunsim", "c2", ("b1u", "오랜만이야"), start="2026-03-12T21:00:00+09:00")
    assert prompt(system_client, "오랜만이야")["situation"] == "first_in_a_while"
    post_turns("chunsim", "c2", ("b2u", "오늘 뭐 했어?"), start="2026-03-12T21:05:00+09:00")
    assert prompt(system_client, "요즘 너무 우울하고 힘들어", situation=None)["situation"] in ("deep_talk", "first_in_a_while")
    assert prompt(system_client, "안녕", situation="daily")["situation"] == "daily"
    today = timezone.localdate()
    layer_put(user=alice, character=chunsim, layer="tools", context=CONTEXT,
              document={"specialDates": [{"date": (today + timedelta(days=2)).strftime("%m-%d"), "description": "생일"}]})
    block = prompt(system_client, "뭐해")
    assert block["situation"] == "special_day"
    assert "생일" in block["text"]


def test_excluded_memories_never_appear(system_client, chunsim, sora, alice, bob):
    remember(alice, chunsim, "좋아하는 과일은 망고", importance=8)
    archived = remember(alice, chunsim, "아카이브된 기억 수박", importance=8)
    MemoryItem.objects.filter(pk=archived.pk).update(archived_at=timezone.now())
    expired = remember(alice, chunsim, "만료된 기억 참외", importance=8)
    MemoryItem.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    superseded = remember(alice, chunsim, "사는 곳: 노원", subject_key="residence", subject_value="노원", importance=8)
    current = remember(alice, chunsim, "사는 곳: 신촌", subject_key="residence", subject_value="신촌", importance=8)
    MemoryItem.objects.filter(pk=superseded.pk).update(is_active=False, superseded_by=current)
    deleted = remember(alice, chunsim, "삭제된 기억 자두", importance=8)
    system_client.delete(f"/api/context/chunsim/memory/{deleted.pk}?user=alice")
    remember(alice, sora, "소라만 아는 비밀: 고래 타투", importance=9)
    remember(bob, chunsim, "밥의 기억: 체리", importance=9)
    text = prompt(system_client, "과일 뭐 좋아해? 어디 살아? 타투 있어?")["text"]
    assert "망고" in text and "신촌" in text
    for absent in ("수박", "참외", "노원", "자두", "고래", "체리"):
        assert absent not in text, absent


def test_disallowed_categories_and_memory_off(system_client, chunsim, alice):
    remember(alice, chunsim, "고향은 부산", category="location", importance=8)
    remember(alice, chunsim, "떡볶이를 좋아함", category="preference", importance=8)
    MemorySettings.objects.create(user=alice, allowed_categories=["preference"])
    text = prompt(system_client, "고향이랑 좋아하는 음식")["text"]
    assert "떡볶이" in text and "부산" not in text
    MemorySettings.objects.filter(user=alice).update(enabled=False)
    block = prompt(system_client, "고향이랑 좋아하는 음식")
    assert block["layers"]["memory"]["tokens"] == 0 and block["layers"]["memory"]["items"] == []
    assert "떡볶이" not in block["text"]


def test_masked_pii_never_reaches_the_block(system_client, post_turns, chunsim, alice):
    post_turns("chunsim", "c1", ("p1u", "내 카드번호 4787-7893-2879-2170 이고 폰은 010-4821-7753 이야 기억해줘"))
    text = prompt(system_client, "내 카드번호랑 전화번호 뭐였지?")["text"]
    for raw in ("4787-7893-2879-2170", "4787789328792170", "010-4821-7753", "01048217753", "7753", "2170"):
        assert raw not in text


def test_soul_only_for_premium(system_client, chunsim, alice):
    from context_layers.models import UserContext

    UserContext.objects.create(user=alice, character=chunsim, soul={"dreams": ["우주 비행사"]})
    assert "우주 비행사" not in prompt(system_client, "내 꿈 알아?")["text"]
    UserPlan.objects.filter(user=alice).update(plan=Plan.PREMIUM)
    assert "우주 비행사" in prompt(system_client, "내 꿈 알아?")["text"]


def test_dated_memories_show_their_date(system_client, post_turns, chunsim, alice):
    post_turns("chunsim", "c1", ("d1u", "오늘 인턴 면접 보고 왔어 너무 떨렸다"), start="2026-03-04T19:30:00+09:00")
    text = prompt(system_client, "내가 인턴 면접 본 게 언제였지?")["text"]
    assert "2026-03-04" in text


def test_usage_is_counted_off_the_request_path(system_client, chunsim, alice, django_capture_on_commit_callbacks):
    item = remember(alice, chunsim, "떡볶이를 제일 좋아함", importance=8)
    with django_capture_on_commit_callbacks(execute=True):
        block = prompt(system_client, "나 뭐 좋아하게?")
    assert item.pk in [entry["id"] for entry in block["layers"]["memory"]["items"]]
    item.refresh_from_db()
    assert item.usage_count == 1 and item.last_used_at is not None


@pytest.mark.parametrize("body, code", [
    ({"message": "hi", "budgetTokens": 100}, "VALIDATION_ERROR"),
    ({"message": "hi", "budgetTokens": 9000}, "VALIDATION_ERROR"),
    ({"message": "hi", "situation": "party"}, "VALIDATION_ERROR"),
    ({"budgetTokens": 1100}, "VALIDATION_ERROR"),
    ({"message": "hi", "extra": True}, "VALIDATION_ERROR"),
])
def test_bad_prompt_requests(system_client, chunsim, alice, body, code):
    response = system_client.post(PROMPT, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code


def test_prompt_permissions(anon_client, bob_client, alice_client, admin_client_api, chunsim, alice):
    body = {"message": "hi"}
    assert anon_client.post("/api/context/chunsim/prompt", body, format="json").status_code == 401
    assert bob_client.post(PROMPT, body, format="json").status_code == 403
    assert alice_client.post("/api/context/chunsim/prompt", body, format="json").status_code == 200
    assert admin_client_api.post(PROMPT, body, format="json").status_code == 403
    assert alice_client.post("/api/context/nobody/prompt", body, format="json").status_code == 404


def test_memory_load_v1(alice_client, chunsim, alice):
    remember(alice, chunsim, "생일: 11월 2일", subject_key="birthday", subject_value="11월 2일", importance=9)
    remember(alice, chunsim, "떡볶이 좋아함", importance=5)
    response = alice_client.get("/api/v1/memory/load?personaId=chunsim&limit=1")
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True and len(body["memories"]) == 1
    assert body["memories"][0]["summary"] == "생일: 11월 2일"
    assert alice_client.get("/api/v1/memory/load?personaId=nobody").status_code == 404
    assert alice_client.get("/api/v1/memory/load").status_code == 400


def test_older_raw_messages_about_a_changed_subject_are_left_out(system_client, chunsim, premium):
    old = remember(premium, chunsim, "망원동 원룸에서 자취 중이야 동네가 좋아", kind="episodic", importance=6)
    other = remember(premium, chunsim, "주말마다 필름 카메라로 사진 찍어", kind="episodic", importance=6)
    newer = remember(premium, chunsim, "사는 곳: 성수동", subject_key="residence", subject_value="성수동",
                     category="location", importance=8)
    MemoryItem.objects.filter(pk__in=[old.pk, other.pk]).update(created_at=newer.created_at - timedelta(days=3))
    text = prompt(system_client, "나 요즘 어디 산다고 했지?")["text"]
    assert "성수동" in text
    assert "망원" not in text
    assert "필름 카메라" in text  # unrelated older memories stay


def test_older_raw_messages_only_about_someone_else_stay(system_client, chunsim, premium):
    sister = remember(premium, chunsim, "동생 다래는 신촌에서 대학원 다니는데 걔는 맨날 밤샘이래", kind="episodic",
                      importance=6)
    newer = remember(premium, chunsim, "직장: 한전", subject_key="workplace", subject_value="한전",
                     category="location", importance=8)
    MemoryItem.objects.filter(pk=sister.pk).update(created_at=newer.created_at - timedelta(days=3))
    assert "대학원" in prompt(system_client, "우리 동생 뭐 한다고 했더라?")["text"]


def test_older_messages_naming_the_current_value_stay(system_client, chunsim, premium):
    plan = remember(premium, chunsim, "5/21에 분당으로 이사 가", kind="episodic", importance=6)
    newer = remember(premium, chunsim, "사는 곳: 분당 정자동", subject_key="residence", subject_value="분당 정자동",
                     category="location", importance=8)
    MemoryItem.objects.filter(pk=plan.pk).update(created_at=newer.created_at - timedelta(days=3))
    assert "5/21에 분당으로 이사 가" in prompt(system_client, "나 언제 이사했더라?")["text"]


def test_a_city_narrowed_down_to_a_neighbourhood_still_holds(system_client, chunsim, premium):
    city = remember(premium, chunsim, "Lives in: lisbon", subject_key="residence", subject_value="lisbon",
                    category="location", importance=8)
    blog = remember(premium, chunsim, "i have a secret blog where i review bakeries in lisbon. it's called pastelaria",
                    kind="episodic", importance=6)
    newer = remember(premium, chunsim, "Lives in: alfama", subject_key="residence", subject_value="alfama",
                     category="location", importance=8)
    MemoryItem.objects.filter(pk__in=[city.pk, blog.pk]).update(created_at=newer.created_at - timedelta(days=3))
    assert MemoryItem.objects.get(pk=city.pk).is_active is False  # the city was superseded

    assert "pastelaria" in prompt(system_client, "what's my secret blog called again?")["text"]


def test_an_older_message_naming_another_job_leaves_once_the_occupation_changed(system_client, post_turns, chunsim,
                                                                                 alice):
    post_turns("chunsim", "c1", ("t1u", "ugh, double shift again. barista life, my feet are dead lol"),
               ("t1a", "Rest those feet!"), start="2026-03-01T21:00:00+09:00")
    post_turns("chunsim", "c1", ("t2u", "my friend jo is a nurse, she works nights at st mary's"),
               ("t2a", "Night shifts are tough."), start="2026-03-02T21:00:00+09:00")
    post_turns("chunsim", "c2", ("t3u", "small life update: im tutoring maths online now"),
               ("t3a", "Congrats!"), start="2026-04-20T10:00:00+09:00")
    text = prompt(system_client, "what's my job these days? my cousin asked")["text"]
    assert "tutor" in text
    assert "barista" not in text  # an older raw message naming another job than the current one
    # someone else's job is no old value of the user's
    assert "jo is a nurse" in prompt(system_client, "how's jo doing these days? haven't heard from her")["text"]


def test_a_newer_value_told_as_a_change_replaces_the_older_one_asked_for(system_client, post_turns, chunsim, alice):
    post_turns("chunsim", "c1", ("t1u", "school then work. i work at chipotle tuesdays and thursdays after school."),
               ("t1a", "Busy week!"), start="2026-03-01T21:00:00+09:00")
    post_turns("chunsim", "c1", ("t2u", "my cousin's wedding is on a saturday in june, in leeds."),
               ("t2a", "How exciting!"), start="2026-03-05T21:00:00+09:00")
    post_turns("chunsim", "c2", ("t3u", "also they put me on weekends at gamestop. saturdays and sundays only now so "
                                        "my weekdays r free"),
               ("t3a", "Nice!"), start="2026-04-20T10:00:00+09:00")
    text = prompt(system_client, "what days am i working again? trying to plan stuff")["text"]
    assert "saturdays and sundays only now" in text
    assert "tuesdays" not in text  # no change verb, no anchor: a newer value on the same topic, told as a change
    assert "school then work." in text  # the rest of the older message stays
    assert "saturday in june" in text  # another answer of the same kind, on another topic, stays
    # a message that asks for no schedule changes nothing: the older days are still what was said then
    assert "tuesdays and thursdays" in prompt(system_client, "tell me something about chipotle")["text"]
