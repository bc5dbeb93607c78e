"""The character's own words through the API: POST messages, then POST prompt (seed 002 §5 v2).

A promise and a self-statement of the character come back under their own headings when the user asks about
them, never as the user's facts; the user's own residence and family stay the user's.
"""
from __future__ import annotations

from context_pack import rendering
from memories.categories import MemorySource
from memories.models import MemoryItem

PROMPT = "/api/context/chunsim/prompt?user=alice"


def prompt(client, message) -> dict:
    response = client.post(PROMPT, {"message": message}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def section(text: str, heading: str) -> list[str]:
    """The lines under `heading` in the block, up to the next heading."""
    lines = text.splitlines()
    if heading not in lines:
        return []
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("[")), len(lines))
    return lines[start:end]


CONVERSATION = (
    ("t1u", "나 요즘 노원 살아. 우리 언니는 대구 살고"),
    ("t1a", "오 노원! 우리 언니는 제주도 살아 ㅎㅎ 나도 어릴 때 제주도에서 자랐어"),
    ("t2u", "요즘 잠을 너무 못 자"),
    ("t2a", "그럼 내가 매일 밤 11시에 자라고 잔소리해줄게! 약속"),
    ("t3u", "고마워 ㅋㅋ"),
)


def test_a_promise_and_a_self_statement_come_back_under_their_headings(system_client, post_turns, chunsim, alice):
    post_turns("c1", *CONVERSATION)

    block = prompt(system_client, "너 매일 밤 나한테 뭐 해준다고 했지?")["text"]
    promises = section(block, rendering.CHARACTER_PROMISE_HEADING)
    assert any("11시" in line and "잔소리" in line for line in promises), block

    block = prompt(system_client, "춘심아 너 언니 어디 산다고 했지?")["text"]
    said = section(block, rendering.CHARACTER_SAID_HEADING)
    assert any("제주도" in line for line in said), block
    # never among the user's lines
    for heading in ("[핵심 정보]", "[현재 상태(캐논)]", "[관련 기억]"):
        assert not any("제주" in line for line in section(block, heading)), block


def test_the_users_residence_and_family_stay_the_users(system_client, post_turns, chunsim, alice):
    post_turns("c1", *CONVERSATION)
    block = prompt(system_client, "나 어디 산다고 했지?")["text"]
    assert "노원" in block

    facts = {item.subject_key: item.subject_value
             for item in MemoryItem.objects.filter(user=alice, character=chunsim, is_active=True).exclude(subject_key="")}
    assert facts.get("residence") == "노원", facts
    assert not any("제주" in value for value in facts.values()), facts
    character = MemoryItem.objects.filter(user=alice, character=chunsim, source=MemorySource.CHARACTER)
    assert sorted((item.source_message_id, item.category, item.subject_key) for item in character) == [
        ("t1a", "other", ""), ("t2a", "promise", "")]
    # the character's words did not correct or reinforce anything of the user's
    assert not MemoryItem.objects.filter(user=alice, character=chunsim, is_active=False).exists()


def test_unasked_the_characters_words_do_not_crowd_out_the_users(system_client, post_turns, chunsim, alice):
    post_turns("c1", *CONVERSATION)
    block = prompt(system_client, "오늘 회사에서 너무 힘들었어")["text"]
    said = section(block, rendering.CHARACTER_SAID_HEADING) + section(block, rendering.CHARACTER_PROMISE_HEADING)
    assert len(said) <= 2
    assert "노원" in block  # the user's residence is still there


ROLE_PLAY = (
    ("r1u", "미나야 우리 역할극 하자! 판타지. 넌 견습 마법사 리엔, 난 용병 카엘"),
    ("r1a", "좋아요! *망토를 여미며* 카엘 님, 드디어 찾았네요."),
    ("r2u", "*의심스러운 눈으로 바라본다* 견습 마법사가 무슨 일로 용병을 찾지?"),
    ("r2a", "*목소리를 낮춘다* 제 스승님, 대마법사 세르빈께서 사라지셨어요. 마지막 말은 '별의 심장을 찾아라'였어요."),
    ("r3u", "ㅎㅎ 역할극 끝! 재밌다. 근데 나 내일 면접 있어"),
    ("r3a", "와 면접! 긴장되겠다. 잘 볼 거야"),
)


def test_the_story_of_a_role_play_comes_back_marked_and_never_as_the_users(system_client, post_turns, chunsim, alice):
    post_turns("c1", *ROLE_PLAY)

    block = prompt(system_client, "리엔 스승님 이름이 뭐였지? 이야기 이어가자")["text"]
    lines = [line for line in block.splitlines() if "세르빈" in line]
    assert lines and all("(역할극)" in line for line in lines), block
    for heading in ("[핵심 정보]", "[현재 상태(캐논)]"):
        assert not any("세르빈" in line or "별의 심장" in line for line in section(block, heading)), block
    assert not MemoryItem.objects.filter(content__contains="세르빈").exclude(source=MemorySource.CHARACTER).exists()


def test_asked_about_their_own_name_the_block_shows_no_line_of_the_story(system_client, post_turns, chunsim, alice):
    post_turns("c1", *ROLE_PLAY)

    block = prompt(system_client, "나 이름 뭐라고 했었지?")["text"]
    assert "(역할극)" not in block and "카엘" not in block, block
    assert "(역할극)" in prompt(system_client, "우리 이야기 어디까지 했지? 이어서 하자")["text"]
