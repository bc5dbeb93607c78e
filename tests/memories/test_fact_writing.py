"""Write rules for extracted facts: dedup, correction by subject, surprise filter, settings, caps."""
from __future__ import annotations

import numpy as np
import pytest

from audit.models import AuditLog
from audit.services import AuditContext
from memories.extraction.base import ExtractedFact
from memories.fact_writing import SurpriseThresholds, WriteOutcome, memory_write_fact
from memories.models import MemoryItem, MemorySettings

CONTEXT = AuditContext(actor_label="test", trigger="llm_extraction")
THRESHOLDS = SurpriseThresholds(reinforce=0.95, store=0.85, boost_below=0.6)
MODEL = "test-model"


def unit(seed: int) -> np.ndarray:
    vector = np.random.default_rng(seed).normal(size=512)
    return vector / np.linalg.norm(vector)


def mix(a: np.ndarray, b: np.ndarray, cosine: float) -> list[float]:
    """A unit vector whose cosine with `a` is `cosine` (b gives the orthogonal direction)."""
    ortho = b - a * float(a @ b)
    ortho /= np.linalg.norm(ortho)
    return list(cosine * a + np.sqrt(1 - cosine**2) * ortho)


@pytest.fixture
def write(alice, chunsim):
    settings = MemorySettings(user=alice)

    def _write(fact: ExtractedFact, embedding=None, memory_settings=None, **kwargs):
        return memory_write_fact(user=alice, character=chunsim, fact=fact, embedding=embedding,
                                 embedding_model=MODEL, memory_settings=memory_settings or settings,
                                 context=CONTEXT, thresholds=THRESHOLDS, **kwargs)
    return _write


def live(alice, chunsim):
    return MemoryItem.objects.filter(user=alice, character=chunsim, is_active=True, archived_at__isnull=True)


def by_content(alice, chunsim, text: str) -> MemoryItem:
    """Content is encrypted (no SQL lookups on it): find the item in Python."""
    return next(item for item in live(alice, chunsim) if item.content == text)


def residence(value: str, mid: str = "m1") -> ExtractedFact:
    return ExtractedFact(content=f"사는 곳: {value}", subject="residence", value=value, category="location",
                         is_identity=True, importance=7, source_message_id=mid)


def test_correction_supersedes_the_old_value_and_keeps_history(write, alice, chunsim):
    assert write(residence("노원")) == WriteOutcome.CREATED
    assert write(residence("신촌", "m2")) == WriteOutcome.SUPERSEDED
    current = live(alice, chunsim).get(subject_key="residence")
    assert current.subject_value == "신촌"
    old = MemoryItem.objects.get(subject_key="residence", is_active=False)
    assert old.subject_value == "노원" and old.superseded_by_id == current.pk
    row = AuditLog.objects.get(action="deactivated", object_id=str(old.pk))
    assert row.details["superseded_by"] == current.pk and "노원" not in str(row.details)


def test_same_value_again_reinforces_instead_of_duplicating(write, alice, chunsim):
    write(residence("노원"))
    item = live(alice, chunsim).get()
    strength_before = item.strength
    MemoryItem.objects.filter(pk=item.pk).update(strength=0.5)
    assert write(ExtractedFact(content="노원 살아", subject="residence", value="노원", category="location")) \
        == WriteOutcome.REINFORCED
    item.refresh_from_db()
    assert live(alice, chunsim).count() == 1
    assert item.mentioned_count == 2 and item.strength == pytest.approx(0.7)
    assert strength_before == 1.0


def test_multi_valued_subjects_keep_every_value(write, alice, chunsim):
    write(ExtractedFact(content="취미: 레고", subject="hobby", value="레고", category="preference"))
    write(ExtractedFact(content="취미: 독서", subject="hobby", value="독서", category="preference"))
    assert sorted(live(alice, chunsim).values_list("subject_value", flat=True)) == ["독서", "레고"]


def test_exact_duplicate_text_reinforces(write, alice, chunsim):
    fact = ExtractedFact(content="떡볶이를 제일 좋아함", category="preference", kind="episodic")
    assert write(fact, embedding=list(unit(1))) == WriteOutcome.CREATED
    assert write(fact, embedding=list(unit(1))) == WriteOutcome.REINFORCED
    assert live(alice, chunsim).count() == 1


def test_surprise_filter_bands(write, alice, chunsim):
    base, other = unit(1), unit(2)
    write(ExtractedFact(content="오늘 인턴 면접 봤어", kind="episodic", importance=5), embedding=list(base))
    # >= reinforce: the same episode again
    assert write(ExtractedFact(content="오늘 인턴 면접 보고 왔어", kind="episodic", importance=5),
                 embedding=mix(base, other, 0.97)) == WriteOutcome.REINFORCED
    # store band, unimportant: skipped
    assert write(ExtractedFact(content="면접 봤다니까", kind="episodic", importance=3),
                 embedding=mix(base, other, 0.9)) == WriteOutcome.SKIPPED
    # store band, important: stored damped
    assert write(ExtractedFact(content="면접 결과는 다음 주", kind="episodic", importance=8),
                 embedding=mix(base, other, 0.9)) == WriteOutcome.CREATED
    assert by_content(alice, chunsim, "면접 결과는 다음 주").importance == round(8 * 0.7)
    # surprising: boosted
    assert write(ExtractedFact(content="고양이를 키워", kind="episodic", importance=5),
                 embedding=mix(base, other, 0.1)) == WriteOutcome.CREATED
    assert by_content(alice, chunsim, "고양이를 키워").importance > 5


def test_explicit_facts_are_kept_even_when_predictable(write, alice, chunsim):
    base, other = unit(3), unit(4)
    write(ExtractedFact(content="생일 파티 했어", kind="episodic"), embedding=list(base))
    outcome = write(ExtractedFact(content="생일 파티 또 했어 기억해줘", kind="episodic", importance=2, explicit=True),
                    embedding=mix(base, other, 0.9))
    assert outcome == WriteOutcome.CREATED
    assert by_content(alice, chunsim, "생일 파티 또 했어 기억해줘").source == "explicit"


def test_settings_disallowed_category_and_explicit_only(write, alice, chunsim):
    only_preferences = MemorySettings(user=alice, allowed_categories=["preference"])
    assert write(residence("노원"), memory_settings=only_preferences) == WriteOutcome.SKIPPED
    assert write(ExtractedFact(content="떡볶이 좋아", category="preference"), explicit_only=True) \
        == WriteOutcome.SKIPPED
    assert write(ExtractedFact(content="떡볶이 좋아 기억해줘", category="preference", explicit=True),
                 explicit_only=True) == WriteOutcome.CREATED
    assert live(alice, chunsim).count() == 1


def test_downgraded_scope_refuses_new_facts(write, alice, chunsim):
    from accounts.models import Plan, UserPlan

    UserPlan.objects.filter(user=alice).update(plan=Plan.FREE)
    for i in range(25):
        MemoryItem.objects.create(user=alice, character=chunsim, content=f"fact {i}", content_hash=f"h{i}")
    assert write(residence("노원")) == WriteOutcome.REFUSED
    assert live(alice, chunsim).count() == 25


def test_vectors_of_another_model_are_not_compared(write, alice, chunsim):
    base = unit(5)
    write(ExtractedFact(content="첫 번째 일화", kind="episodic"), embedding=list(base))
    MemoryItem.objects.update(embedding_model="old-model")
    assert write(ExtractedFact(content="첫 번째 일화 다시", kind="episodic"), embedding=list(base)) \
        == WriteOutcome.CREATED


def test_a_switched_game_leaves_every_older_memory_that_named_the_old_one(write, alice, chunsim):
    write(ExtractedFact(content="메이플 하다가 새벽 세시에 잠", kind="episodic", source_message_id="m1"))
    write(ExtractedFact(content="메이플 보스 잡았어? 대박", kind="episodic", speaker="character", source_message_id="m2"))
    write(ExtractedFact(content="동생은 오늘 수학 학원 감", kind="episodic", source_message_id="m3"))
    assert write(ExtractedFact(content="요즘 메이플 접고 발로란트만 함 ㅋㅋ", kind="episodic", source_message_id="m4")) \
        == WriteOutcome.SUPERSEDED
    texts = [item.content for item in live(alice, chunsim)]
    assert not any("메이플" in text for text in texts)  # the changing message too keeps only what still holds
    assert "동생은 오늘 수학 학원 감" in texts and any("발로란트" in text for text in texts)


def test_a_stored_age_keeps_a_grandchilds_age_and_school_year_out(write, alice, chunsim):
    write(ExtractedFact(content="나이: 예순일곱", subject="age", value="예순일곱", category="personal_info",
                        is_identity=True, source_message_id="m1"))
    assert write(ExtractedFact(content="나이: 열세살", subject="age", value="열세살", category="personal_info",
                               is_identity=True, source_message_id="m2")) == WriteOutcome.SKIPPED
    assert write(ExtractedFact(content="학년: 2학년", subject="school_year", value="2학년", category="personal_info",
                               is_identity=True, source_message_id="m3")) == WriteOutcome.SKIPPED
    assert write(ExtractedFact(content="나이: 예순여덟", subject="age", value="예순여덟", category="personal_info",
                               is_identity=True, source_message_id="m4")) == WriteOutcome.SUPERSEDED
    assert live(alice, chunsim).get(subject_key="age").subject_value == "예순여덟"


def test_a_job_told_with_a_workplace_ends_when_the_workplace_does(write, alice, chunsim):
    write(ExtractedFact(content="직업: 바리스타", subject="occupation", value="바리스타", category="personal_info",
                        is_identity=True, source_message_id="m1"))
    write(ExtractedFact(content="직장: 카페", subject="workplace", value="카페", category="location", source_message_id="m1"))
    write(ExtractedFact(content="직업: 대학생", subject="major", value="시각디자인", category="personal_info",
                        source_message_id="m2"))
    assert write(ExtractedFact(content="직장: 디자인 스튜디오", subject="workplace", value="디자인 스튜디오",
                               category="location", source_message_id="m3")) == WriteOutcome.SUPERSEDED
    assert not live(alice, chunsim).filter(subject_key="occupation").exists()
    assert live(alice, chunsim).filter(subject_key="major").exists()  # told in another message


def test_a_superseded_value_leaves_the_message_that_told_it(write, alice, chunsim):
    write(ExtractedFact(content="age: 16", subject="age", value="16", category="personal_info", is_identity=True,
                        source_message_id="m1"))
    write(ExtractedFact(content="im jay lol. 16, junior in hs", kind="episodic", source_message_id="m1"))
    write(ExtractedFact(content="my cousin turned 16 today", kind="episodic", source_message_id="m2"))
    assert write(ExtractedFact(content="age: 17", subject="age", value="17", category="personal_info",
                               is_identity=True, source_message_id="m3")) == WriteOutcome.SUPERSEDED
    texts = [item.content for item in live(alice, chunsim)]
    assert "im jay lol. junior in hs" in texts  # the told-with message keeps what still holds
    assert "my cousin turned 16 today" in texts  # another message's 16 is not the user's age
