"""retrieve() (one SQL statement) chooses exactly what the straightforward ORM formulation chooses.

The reference below is the ORM version retrieval.py replaced (three queries, each scoring the whole
scope): same sections, same order, same scores, same outdated values, for varied scopes and messages.
"""
from __future__ import annotations

import random
from datetime import date, timedelta

import numpy as np
import pytest
from django.db.models import Case, F, FloatField, Q, Value, When
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast, Greatest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pgvector.django import CosineDistance

from context_pack import retrieval
from memories.categories import STATE_CATEGORIES
from memories.hashing import content_hash
from memories.lexical import lexical_keys
from memories.models import MemoryItem, MemorySettings
from memories.subjects import IDENTITY_SUBJECTS

FACTS = [  # (subject, category, content, value)
    ("name", "personal_info", "이름은 민수", "민수"),
    ("birthday", "personal_info", "생일은 3월 15일", "03-15"),
    ("pet", "person", "고양이 나비를 키움", "고양이 나비"),
    ("allergy", "personal_info", "땅콩 알레르기가 있음", "땅콩"),
    ("occupation", "personal_info", "직업은 개발자", "개발자"),
    ("height", "personal_info", "키는 178cm", "178"),
    ("dating_status", "relationship", "요즘 연애 중", "연애 중"),
    ("goal", "goal", "토익 900점이 올해 목표", "토익 900점"),
    ("sport", "habit", "주말에 테니스를 함", "테니스"),
    ("favorite_food", "preference", "떡볶이를 제일 좋아함", "떡볶이"),
    ("hobby", "preference", "취미는 기타 연주", "기타 연주"),
    ("workplace", "location", "회사는 판교에 있음", "판교"),
]
EPISODES = [
    ("event", "어제 친구 지수랑 한강에서 떡볶이 먹었는데 기분이 좋았다고 함"),
    ("event", "Yesterday the user went hiking with Kevin and felt happy."),
    ("worry", "요즘 취업 준비로 불안해함"),
    ("habit", "매일 아침 아이스 아메리카노를 마심"),
    ("opinion", "인터스텔라가 인생 영화라고 생각함"),
    ("event", "오늘 회사에서 팀장님한테 혼났다고 함"),
    ("other", "고양이 사진을 자주 보여줌"),
    ("event", "지난 주말 부산 여행을 다녀옴"),
]
MESSAGES = ["", "내 생일 언제라고 했지?", "떡볶이 먹고 싶다", "What was my cat's name?", "오늘 회사에서 너무 힘들었어",
            " ".join(content for _, content in EPISODES) * 2]  # many query keys: the INTERSECT form


def unit(rng: np.random.Generator) -> list[float]:
    vector = rng.standard_normal(512).astype(np.float32)
    return (vector / np.linalg.norm(vector)).tolist()


def make(user, character, content, *, rng, days_ago, category="event", subject="", value="", importance=5,
         embedding=True, **extra) -> MemoryItem:
    item = MemoryItem.objects.create(
        user=user, character=character, content=content, content_hash=content_hash(content), category=category,
        subject_key=subject, subject_value=value, importance=importance, strength=round(rng.uniform(0.3, 1.0), 2),
        embedding=unit(rng) if embedding else None, lexical_keys=lexical_keys(f"{content} {value}"), **extra)
    created = timezone.now() - timedelta(days=days_ago, hours=rng.random())
    MemoryItem.objects.filter(pk=item.pk).update(created_at=created)
    return item


@pytest.fixture
def scope(alice, bob, chunsim, sora):
    rng = np.random.default_rng(3)
    pyrng = random.Random(3)
    for index, (subject, category, content, value) in enumerate(FACTS):
        make(alice, chunsim, content, rng=rng, days_ago=pyrng.randint(0, 400), category=category, subject=subject,
             value=value, importance=pyrng.randint(4, 10))
    # a correction: the old value is inactive and points at its successor
    new = make(alice, chunsim, "이제 신촌에 살고 있음", rng=rng, days_ago=3, category="location", subject="residence",
               value="신촌", importance=8)
    make(alice, chunsim, "노원에 살고 있음", rng=rng, days_ago=90, category="location", subject="residence",
         value="노원", importance=8, is_active=False, superseded_by=new)
    for repeat in range(3):
        for category, content in EPISODES:
            make(alice, chunsim, f"{content} ({repeat})", rng=rng, days_ago=pyrng.randint(0, 700), category=category,
                 importance=pyrng.randint(1, 10), embedding=pyrng.random() > 0.1,
                 event_date=date(2026, 1, 1) + timedelta(days=pyrng.randint(0, 300)) if pyrng.random() < 0.3 else None)
    make(alice, chunsim, "노원 집 근처 카페를 좋아했음", rng=rng, days_ago=100)  # mentions the outdated value
    make(alice, chunsim, "보관된 기억", rng=rng, days_ago=5, archived_at=timezone.now())
    make(alice, chunsim, "만료된 기억", rng=rng, days_ago=5, expires_at=timezone.now() - timedelta(days=1))
    make(alice, chunsim, "곧 만료될 기억", rng=rng, days_ago=5, expires_at=timezone.now() + timedelta(days=1))
    make(alice, sora, "다른 캐릭터의 기억 떡볶이", rng=rng, days_ago=1)
    make(bob, chunsim, "다른 유저의 기억 떡볶이", rng=rng, days_ago=1)
    return alice, chunsim


def reference(*, user, character, message, query_vector, allowed_categories):
    """The ORM formulation retrieval.py used before it became one statement."""
    now = timezone.now()
    live = MemoryItem.objects.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now), user=user,
                                     character=character, is_active=True, archived_at__isnull=True)
    if allowed_categories:
        live = live.filter(category__in=allowed_categories)
    keys = lexical_keys(message) if message else []
    lexical = RawSQL("cardinality(ARRAY(SELECT unnest(lexical_keys) INTERSECT SELECT unnest(%s::varchar[])))::float",
                     (keys,), output_field=FloatField())
    vector = (Value(1.0) - CosineDistance("embedding", query_vector)) if query_vector is not None else Value(0.0)
    age_days = RawSQL("GREATEST(EXTRACT(EPOCH FROM (now() - memories_memoryitem.created_at)) / 86400.0, 0)", (),
                      output_field=FloatField())
    weights = retrieval.WEIGHTS
    scored = live.annotate(vec=Greatest(Cast(vector, FloatField()), Value(0.0)), lex=lexical,
                           recency=Value(1.0) / (Value(1.0) + age_days / Value(30.0)))
    structured = Case(When(subject_key="", then=Value(0.0)), default=Value(weights["structured"]),
                      output_field=FloatField())
    scored = scored.annotate(score=(
        structured + Value(weights["vector"]) * F("vec")
        + Value(weights["lexical"]) * F("lex") / Value(float(max(1, min(len(keys), 4))))
        + Value(weights["importance"]) * Cast(F("importance"), FloatField()) / Value(10.0)
        + Value(weights["strength"]) * F("strength") + Value(weights["recency"]) * F("recency")))
    identity = scored.filter(subject_key__in=IDENTITY_SUBJECTS).order_by("-importance", "-score")
    state = scored.filter(category__in=STATE_CATEGORIES).exclude(subject_key="") \
        .exclude(subject_key__in=IDENTITY_SUBJECTS).order_by("-score")
    ranked = scored.exclude(subject_key__in=IDENTITY_SUBJECTS) \
        .exclude(Q(category__in=STATE_CATEGORIES) & ~Q(subject_key="")).order_by("-score")
    facts = MemoryItem.objects.filter(user=user, character=character).exclude(subject_key="")
    old = {v.strip() for v in facts.filter(is_active=False, superseded_by__isnull=False)
           .values_list("subject_value", flat=True)}
    current = {v.strip() for v in facts.filter(is_active=True).values_list("subject_value", flat=True)}
    return {"identity": list(identity[:retrieval.IDENTITY_LIMIT]), "state": list(state[:retrieval.STATE_LIMIT]),
            "ranked": list(ranked[:retrieval.RANKED_LIMIT]),
            "outdated": {v for v in old - current if len(v) >= 2}}


def assert_same(got, want, with_vector):
    assert got.outdated_values == want["outdated"]
    for section in ("identity", "state", "ranked"):
        mine, theirs = getattr(got, section), want[section]
        assert {m.item.pk for m in mine} == {t.pk for t in theirs}, section
        assert [m.score for m in mine] == pytest.approx([t.score for t in theirs], abs=1e-9), section
        source = {t.pk: t for t in theirs}
        for m in mine:  # the same row, the same score, the fields the block reads
            t = source[m.item.pk]
            assert m.score == pytest.approx(t.score, abs=1e-9)
            # the vector similarity alone rides along (memories.truth.answered_since); None without a vector
            assert m.item.similarity == (pytest.approx(t.vec, abs=1e-6) if with_vector else None)
            assert (m.item.content, m.item.subject_value, m.item.category, m.item.kind, m.item.subject_key,
                    m.item.importance, m.item.event_date, m.item.source_message_id, m.item.created_at) == \
                (t.content, t.subject_value, t.category, t.kind, t.subject_key, t.importance, t.event_date,
                 t.source_message_id, t.created_at)


@pytest.mark.django_db
@pytest.mark.parametrize("limits", [(80, 40, 60), (3, 2, 5)])
@pytest.mark.parametrize("with_vector", [True, False])
def test_retrieve_matches_the_orm_formulation(scope, monkeypatch, limits, with_vector):
    user, character = scope
    monkeypatch.setattr(retrieval, "IDENTITY_LIMIT", limits[0])
    monkeypatch.setattr(retrieval, "STATE_LIMIT", limits[1])
    monkeypatch.setattr(retrieval, "RANKED_LIMIT", limits[2])
    rng = np.random.default_rng(11)
    for message in MESSAGES:
        for allowed in ([], ["event", "personal_info", "location"]):
            vector = unit(rng) if with_vector else None
            got = retrieval.retrieve(user=user, character=character, message=message, query_vector=vector,
                                     memory_settings=MemorySettings(user=user, allowed_categories=allowed))
            want = reference(user=user, character=character, message=message, query_vector=vector,
                             allowed_categories=allowed)
            assert_same(got, want, with_vector)
    assert got.outdated_values == {"노원"}


@pytest.mark.django_db
def test_retrieve_is_one_query(scope):
    user, character = scope
    with CaptureQueriesContext(connection) as queries:
        got = retrieval.retrieve(user=user, character=character, message="떡볶이", query_vector=None,
                                 memory_settings=MemorySettings(user=user))
        assert got.identity and got.ranked
        [m.item.content for m in got.identity + got.state + got.ranked]  # loaded, not deferred
    assert len(queries) == 1


@pytest.mark.django_db
def test_empty_scope(alice, chunsim):
    got = retrieval.retrieve(user=alice, character=chunsim, message="안녕", query_vector=None,
                             memory_settings=MemorySettings(user=alice))
    assert (got.identity, got.state, got.ranked, got.outdated_values) == ([], [], [], set())


@pytest.mark.django_db
@pytest.mark.parametrize("message,level", [("오늘 하루 어땠어", 0), ("your sister 얘기", 1), ("너 언니 어디 산다고 했지?", 2)])
def test_the_characters_words_get_their_prior_in_the_same_statement(alice, chunsim, message, level):
    rng = np.random.default_rng(5)
    vector = unit(rng)
    for source in ("inferred", "character"):
        item = make(alice, chunsim, "언니는 제주도 살아", rng=rng, days_ago=0, category="other", source=source)
        MemoryItem.objects.filter(pk=item.pk).update(content_hash=content_hash(f"{source}:{item.content}"),
                                                     embedding=vector, strength=1.0, created_at=timezone.now())
    with CaptureQueriesContext(connection) as queries:
        got = retrieval.retrieve(user=alice, character=chunsim, message=message, query_vector=vector,
                                 memory_settings=MemorySettings(user=alice))
    assert len(queries) == 1
    assert got.asks_character == level
    assert [m.item.source for m in got.ranked] == ["inferred"]  # apart: never in the user's sections
    scores = {m.item.source: m.score for m in got.ranked + got.character}
    assert scores["character"] - scores["inferred"] == pytest.approx(retrieval.CHARACTER_PRIOR[level], abs=1e-3)


@pytest.mark.django_db
@pytest.mark.parametrize("question,told", [
    ("what town did i grow up in again?", "my dad is still in tacoma, that's where i was raised"),
    ("나 고향이 어디라고 했지?", "어릴 때 여수에서 자랐어 바다 보면서"),
])
def test_a_question_about_the_users_own_subject_finds_the_words_that_tell_it(alice, chunsim, question, told):
    """The message telling the subject shares no word with the question ("grow up" / "raised"): the registry's
    told words (Subject.told) bring it above talk that only shares the question's words."""
    rng = np.random.default_rng(9)
    vector = unit(rng)
    target = make(alice, chunsim, told, rng=rng, days_ago=30)
    for index in range(12):  # a word of the question's, said of other things
        make(alice, chunsim, f"the town fair {index} / 어디 갈지 {index}", rng=rng, days_ago=60 + index)
    MemoryItem.objects.filter(user=alice).update(embedding=vector, strength=1.0, importance=5)

    got = retrieval.retrieve(user=alice, character=chunsim, message=question, query_vector=vector,
                             memory_settings=MemorySettings(user=alice))

    assert got.ranked[0].item.pk == target.pk


@pytest.mark.django_db
@pytest.mark.parametrize("question, told", [
    ("Where's my lad living these days?", "My son Liam's a plumber in Bristol. Only music he plays is Oasis."),
    ("우리 손주들 이름 다 기억 해요?", "손녀 서윤이 이름이 참 예뻐요"),
    ("mum's big birthday is coming up, remind me where she lives?", "my mother lives in Geelong now"),
])
def test_a_question_naming_someone_finds_the_other_words_for_them(alice, chunsim, question, told):
    """The message telling it names the person by another word ("lad" / "son", "손주" / "손녀"): the kin synonyms
    (extraction.lexicon.KIN_SYNONYMS) bring it above newer talk that shares as many of the question's words."""
    rng = np.random.default_rng(9)
    vector = unit(rng)
    target = make(alice, chunsim, told, rng=rng, days_ago=90)  # older: without the synonym it would lose on recency
    for index in range(12):  # one other word of the question's, said of other things
        make(alice, chunsim, f"where is the fair {index} / 기억 {index}", rng=rng, days_ago=30 + index)
    MemoryItem.objects.filter(user=alice).update(embedding=vector, strength=1.0, importance=5)

    got = retrieval.retrieve(user=alice, character=chunsim, message=question, query_vector=vector,
                             memory_settings=MemorySettings(user=alice))

    assert got.ranked[0].item.pk == target.pk


def test_kin_synonyms_are_the_other_words_for_the_same_person():
    from memories.extraction.lexicon import kin_synonyms

    assert kin_synonyms({"lad", "living"}) == ["son", "sons"]
    assert kin_synonyms({"손주", "이름"}) == ["손자", "손녀"]
    assert kin_synonyms({"mother", "mum"}) == ["mom", "mam", "mommy", "mummy"]
    assert kin_synonyms({"dana", "job"}) == []
