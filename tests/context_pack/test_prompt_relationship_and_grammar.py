"""The block's own Korean follows the character's name, and the scope's intimacy level reaches the block."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.services import AuditContext
from context_layers.models import IntimacyLevel, Relationship
from context_layers.relationship import intimacy
from context_layers.services import layer_put
from context_pack import rendering
from context_pack.builder import _line_tokens, build_context_pack
from context_pack.tokens import estimate_tokens
from memories.services import MemoryInput, memory_create

CONTEXT = AuditContext(actor_label="test", trigger="system")
RELATIONSHIP_LINE = "[관계] 친밀도"


def prompt(client, character: str, message: str, user: str = "alice", **body) -> dict:
    response = client.post(f"/api/context/{character}/prompt?user={user}", {"message": message, **body},
                           format="json")
    assert response.status_code == 200, response.content
    return response.json()


def post_turns(client, character: str, conversation: str, texts: list[str], user: str = "alice") -> None:
    at = datetime.fromisoformat("2026-03-01T21:00:00+09:00")
    messages = [{"id": f"{conversation}-{index}{'u' if index % 2 == 0 else 'a'}",
                 "role": "user" if index % 2 == 0 else "assistant", "content": text,
                 "createdAt": (at + timedelta(seconds=index)).isoformat()} for index, text in enumerate(texts)]
    response = client.post(f"/api/context/{character}/messages?user={user}",
                           {"conversationId": conversation, "messages": messages}, format="json")
    assert response.status_code == 202, response.content


def set_level(user, character, **axes) -> Relationship:
    relationship, _ = Relationship.objects.get_or_create(user=user, character=character)
    for axis, value in axes.items():
        setattr(relationship, axis, value)
    relationship.intimacy_score, relationship.intimacy_level = intimacy(relationship)
    relationship.save()
    return relationship


def relationship_lines_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(RELATIONSHIP_LINE)]


# -- item 7: the header's particle follows the character's name -----------------------------------------

def test_the_header_names_the_character_with_the_right_particle(system_client, chunsim, sora, alice):
    chunsim_block = prompt(system_client, "chunsim", "안녕")["text"]
    sora_block = prompt(system_client, "sora", "안녕")["text"]
    assert chunsim_block.startswith("[기억 컨텍스트] 춘심이 이 유저에 대해 알고 있는 내용.")
    assert "춘심가" not in chunsim_block
    assert sora_block.startswith("[기억 컨텍스트] 소라가 이 유저에 대해 알고 있는 내용.")


@pytest.mark.parametrize("name, opening", [("하늘", "하늘이 이 유저"), ("유나", "유나가 이 유저"), ("Alex", "Alex가 이 유저"),
                                           ("Tom", "Tom이 이 유저")])
def test_header_particle_for_other_names(name, opening):
    assert rendering.header(name).startswith(f"[기억 컨텍스트] {opening}")


# -- item 6: the intimacy level reaches the block ------------------------------------------------------

def test_the_intimacy_level_reaches_the_block_after_conversation(system_client, chunsim, alice):
    post_turns(system_client, "chunsim", "c1", ["안녕 나 오늘 처음 왔어", "반가워!", "고마워 친절하네", "헤헤"])
    block = prompt(system_client, "chunsim", "뭐 하고 있었어?")
    assert Relationship.objects.filter(user=alice, character=chunsim).exists()  # the prompt processed the turns
    assert relationship_lines_of(block["text"]) == ["[관계] 친밀도 1단계(처음 만난 사이): 정중하고 조심스럽게"]
    assert block["layers"]["identity"]["tokens"] >= _line_tokens(relationship_lines_of(block["text"])[0])

    set_level(alice, chunsim, affection=60, trust=50, familiarity=40, respect=30)  # score 47.5: friend
    block = prompt(system_client, "chunsim", "뭐 하고 있었어?")
    assert relationship_lines_of(block["text"]) == ["[관계] 친밀도 3단계(친구): 편하게, 가벼운 농담 가능"]


@pytest.mark.parametrize("level", list(IntimacyLevel))
def test_every_level_has_its_step_and_manner(level):
    [line] = rendering.relationship_lines(level)
    step = rendering.INTIMACY_STEPS[level]
    assert line == f"[관계] 친밀도 {step.step}단계({step.label}): {step.manner}"
    assert [rendering.INTIMACY_STEPS[level].step for level in IntimacyLevel] == [1, 2, 3, 4, 5]


def test_a_scope_without_a_relationship_has_no_level_line(system_client, chunsim, sora, alice):
    layer_put(user=alice, character=chunsim, layer="identity", context=CONTEXT,
              document={"nickname": "지우", "honorific": "반말"})
    layer_put(user=alice, character=sora, layer="identity", context=CONTEXT, document={"nickname": "지우"})
    set_level(alice, sora, affection=90, trust=90, familiarity=90, respect=90)  # another scope's relationship
    block = prompt(system_client, "chunsim", "안녕")
    assert "[호칭/관계] 부를 이름: 지우" in block["text"]
    assert relationship_lines_of(block["text"]) == []
    assert relationship_lines_of(prompt(system_client, "sora", "안녕")["text"]) == [
        "[관계] 친밀도 5단계(각별한 사이): 다정하게, 애정 표현 가능"]


@pytest.mark.django_db
def test_the_level_line_never_exceeds_the_budget(chunsim, alice):
    layer_put(user=alice, character=chunsim, layer="identity", context=CONTEXT,
              document={"nickname": "지우", "honorific": "반말", "relationshipType": "친구"})
    layer_put(user=alice, character=chunsim, layer="tools", context=CONTEXT, document={"avoidTopics": ["전 여친 얘기"]})
    for i in range(30):
        memory_create(user=alice, character=chunsim, context=CONTEXT,
                      data=MemoryInput(content=f"일화 {i}: 친구랑 떡볶이를 먹고 한강을 걸었다", importance=5))
    set_level(alice, chunsim, affection=90, trust=90, familiarity=90, respect=90)
    header_tokens = _line_tokens(rendering.header(chunsim.display_name))
    seen_with_line = seen_without_line = False
    for budget in [*range(header_tokens - 2, header_tokens + 120, 3), 200, 1100]:
        pack = build_context_pack(user=alice, character=chunsim, message="떡볶이", budget=budget, situation="daily")
        assert pack["tokens"] <= budget
        assert estimate_tokens(pack["text"]) <= budget
        lines = relationship_lines_of(pack["text"])
        assert lines in ([], [rendering.relationship_lines(IntimacyLevel.INTIMATE)[0]])  # whole or not at all
        seen_with_line |= bool(lines)
        seen_without_line |= not lines
    assert seen_with_line and seen_without_line


@pytest.mark.django_db
def test_the_intimacy_level_costs_no_extra_query(chunsim, alice):
    layer_put(user=alice, character=chunsim, layer="identity", context=CONTEXT, document={"nickname": "지우"})

    def one_block() -> tuple[list[str], str]:
        with CaptureQueriesContext(connection) as queries:
            pack = build_context_pack(user=alice, character=chunsim, message="안녕", budget=1100, situation="daily")
        return [query["sql"] for query in queries], pack["text"]

    without_sql, without_text = one_block()
    set_level(alice, chunsim, affection=60, trust=50, familiarity=40, respect=30)
    with_sql, with_text = one_block()
    assert relationship_lines_of(without_text) == [] and relationship_lines_of(with_text)
    assert len(with_sql) == len(without_sql)
    reading_relationship = [sql for sql in with_sql if "context_layers_relationship" in sql]
    assert reading_relationship and all("context_layers_usercontext" in sql for sql in reading_relationship)
