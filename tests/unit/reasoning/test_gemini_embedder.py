"""GeminiEmbedder against canned REST bodies: request shape, batching, normalisation, errors."""

import numpy as np
import pytest
from gemini_fakes import CannedGemini, api_error, gemini_settings

from services.common.errors import EngineError
from services.reasoning import make_embedder
from services.reasoning.gemini.embedder import GeminiEmbedder


def unnormalised_vectors(body, path):
    # Vector i of a batch is [i+1, 2, 2, 0]: not unit length, distinct per text.
    rows = [{"values": [i + 1.0, 2.0, 2.0, 0.0]} for i, _ in enumerate(body["requests"])]
    return 200, {"embeddings": rows}


def test_request_names_model_dimension_and_task_and_vectors_are_renormalised():
    server = CannedGemini(unnormalised_vectors)
    embedder = GeminiEmbedder(gemini_settings(), transport=server.transport())
    vectors = embedder.embed(["平均とは？", "median"])

    path, body, headers = server.requests[0]
    assert path.endswith("/models/gemini-embedding-001:batchEmbedContents")
    assert headers["x-goog-api-key"] == "test-key"
    assert [r["content"]["parts"][0]["text"] for r in body["requests"]] == ["平均とは？", "median"]
    assert {r["outputDimensionality"] for r in body["requests"]} == {4}
    assert {r["taskType"] for r in body["requests"]} == {"RETRIEVAL_DOCUMENT"}

    assert vectors.dtype == np.float32 and vectors.shape == (2, 4)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(vectors[0], np.array([1, 2, 2, 0]) / 3, rtol=1e-6)
    assert embedder.name == "gemini-embedding-001" and embedder.dimension == 4


def test_batches_of_at_most_100_in_order():
    server = CannedGemini(unnormalised_vectors)
    embedder = GeminiEmbedder(gemini_settings(embed_batch_size=500), transport=server.transport())
    vectors = embedder.embed([f"text {i}" for i in range(250)])
    assert [len(body["requests"]) for _, body, _ in server.requests] == [100, 100, 50]
    assert vectors.shape == (250, 4)
    # the first row of each batch is [1,2,2,0]/3: rows are kept in input order
    np.testing.assert_allclose(vectors[[0, 100, 200], 0], 1 / 3, rtol=1e-6)


def test_query_embedder_uses_retrieval_query_and_the_same_client():
    server = CannedGemini(unnormalised_vectors)
    documents = GeminiEmbedder(gemini_settings(), transport=server.transport())
    queries = documents.for_queries()
    queries.embed(["標準偏差の定義は？"])
    documents.embed(["doc"])
    assert [body["requests"][0]["taskType"] for _, body, _ in server.requests] == [
        "RETRIEVAL_QUERY",
        "RETRIEVAL_DOCUMENT",
    ]


def test_key_is_read_at_first_use_not_at_construction():
    embedder = make_embedder(gemini_settings(gemini_api_key=None))
    assert isinstance(embedder, GeminiEmbedder)  # constructing needs no key
    assert embedder.embed([]).shape == (0, 4)  # nor does embedding nothing
    with pytest.raises(EngineError, match=r"needs Gemini \(set GEMINI_API_KEY\)"):
        embedder.embed(["x"])


def test_wrong_dimension_from_the_server_is_an_engine_error():
    server = CannedGemini(lambda body, path: (200, {"embeddings": [{"values": [1.0, 0.0]}]}))
    embedder = GeminiEmbedder(gemini_settings(), transport=server.transport())
    with pytest.raises(EngineError, match=r"sizes \[2\], expected 4"):
        embedder.embed(["x"])


def test_client_error_is_wrapped_and_not_retried():
    server = CannedGemini(lambda body, path: api_error(400, "INVALID_ARGUMENT"))
    embedder = GeminiEmbedder(gemini_settings(gemini_attempts=3), transport=server.transport())
    with pytest.raises(EngineError, match="Gemini answered 400 INVALID_ARGUMENT"):
        embedder.embed(["x"])
    assert len(server.requests) == 1


def test_server_error_is_retried_as_configured():
    answers = iter([api_error(503, "UNAVAILABLE"), unnormalised_vectors({"requests": [1]}, "")])
    server = CannedGemini(lambda body, path: next(answers))
    embedder = GeminiEmbedder(gemini_settings(gemini_attempts=2), transport=server.transport())
    assert embedder.embed(["x"]).shape == (1, 4)
    assert len(server.requests) == 2
