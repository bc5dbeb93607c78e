"""Asked about their own subject, the block leaves out what the user said only of other people (issue 8).

Through the API: POST messages, then POST prompt. "누나는 밴쿠버 살아" stays a memory and comes back when the user
asks about the sister; it is not beside "where do I live?".
"""
from __future__ import annotations

PROMPT = "/api/context/chunsim/prompt?user=alice"

CONVERSATION = (
    ("t1u", "나 요즘 망원동 살아 ㅋㅋ 회사랑 가까움"),
    ("t1a", "오 망원동! 좋다"),
    ("t2u", "누나한테 전화할까 했는데 누나는 밴쿠버 살아서 시차가 안맞아"),
    ("t2a", "아 시차 힘들지 ㅠ"),
    ("t3u", "사촌 민지는 강남에서 회계사 하는데 걔는 맨날 야근이래"),
    ("t3a", "헉 바쁘겠다"),
)


def block(client, message) -> str:
    response = client.post(PROMPT, {"message": message}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["text"]


def test_asked_where_they_live_the_block_leaves_out_where_others_live(system_client, post_turns, chunsim, alice):
    post_turns("c1", *CONVERSATION)

    own = block(system_client, "나 요즘 어디 산다고 했지?")
    assert "망원" in own and "밴쿠버" not in own and "강남" not in own, own

    sister = block(system_client, "누나 어디 산다고 했지? 시차 계산하려고")
    assert "밴쿠버" in sister, sister
