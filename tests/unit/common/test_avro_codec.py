"""The wire format: single-object encoding round trips, and garbage fails with its position."""

import struct

import pytest

from services.common.avro_codec import SINGLE_OBJECT_MAGIC, AvroCodec, schema_fingerprint
from services.common.errors import AvroDecodeError
from services.common.events import (
    Candidate,
    Evidence,
    IngestJob,
    LoopState,
    Plan,
    QuestionAsked,
    SearchFilters,
    SearchResult,
    StopCondition,
    Task,
    TaskStatus,
)
from services.common.schemas import load_event_schema


def sample_state() -> LoopState:
    plan = Plan(
        tasks=[Task("t1", "定義"), Task("t2", "example", required=False)],
        stop_conditions=[StopCondition("SUFFICIENCY", "definition found")],
        complexity=2.0,
        max_iterations=5,
        deadline_ms=123,
        language="ja",
        text_queries=["標準偏差"],
        vector_query="標準偏差とは何か",
        filters=SearchFilters(material_ids=["m1"], page_from=2, page_to=None),
    )
    evidence = [Evidence("c1", "m1", "統計入門", 3, "t1", "snippet", 0.8, "defines it", 0)]
    return LoopState(
        "標準偏差とは？", "stats", "alice", plan, evidence, [TaskStatus("t1", True, 0.8)], 99
    )


def test_round_trip_of_a_nested_event():
    codec = AvroCodec()
    event = SearchResult(
        session_id="s1",
        iteration=1,
        strategy="missing",
        candidates=[
            Candidate(
                0,
                "c1",
                "m1",
                "T",
                None,
                ["章"],
                4,
                "text",
                None,
                "next",
                0.5,
                {"bm25": 1},
                {"bm25": 3.2},
            )
        ],
        k=15,
        n_scope=900,
        n_excluded=5,
        retry=1,
        state=sample_state(),
        focus_task_ids=["t2"],
    )
    data = codec.encode(event)
    assert data[:2] == SINGLE_OBJECT_MAGIC
    assert data[2:10] == schema_fingerprint(load_event_schema("SearchResult"))
    assert codec.decode(SearchResult, data) == event


def test_wrong_event_type_is_refused():
    codec = AvroCodec()
    data = codec.encode(QuestionAsked("s", "x", "u", "q", 1))
    with pytest.raises(AvroDecodeError, match="expected IngestJob, got QuestionAsked"):
        codec.decode(IngestJob, data, "ingest.jobs", 2, 7)


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "empty message"),
        (b'{"json": true}', "no Avro single-object or registry header"),
        (SINGLE_OBJECT_MAGIC + b"\x00" * 8 + b"body", "unknown schema fingerprint"),
    ],
)
def test_garbage_names_topic_partition_offset(data, reason):
    with pytest.raises(AvroDecodeError) as info:
        AvroCodec().decode(IngestJob, data, "ingest.jobs", 1, 42)
    assert reason in str(info.value)
    assert "ingest.jobs[1]@42" in str(info.value)


def test_truncated_and_padded_bodies_fail():
    codec = AvroCodec()
    data = codec.encode(QuestionAsked("s", "x", "u", "q", 1))
    with pytest.raises(AvroDecodeError):
        codec.decode(QuestionAsked, data[:-3])
    with pytest.raises(AvroDecodeError, match="trailing bytes"):
        codec.decode(QuestionAsked, data + b"\x00")


def test_confluent_framing_with_a_registry():
    """Registry framing: 0x00 + schema id; the registry client talks REST (served in-process)."""
    import json

    import httpx

    from services.common.avro_codec import SchemaRegistry

    schemas: dict[int, str] = {}

    def registry(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            body = json.loads(request.content)["schema"]
            schema_id = next((i for i, s in schemas.items() if s == body), len(schemas) + 1)
            schemas[schema_id] = body
            assert request.url.path == "/subjects/questions-value/versions"
            return httpx.Response(200, json={"id": schema_id})
        schema_id = int(request.url.path.rsplit("/", 1)[1])
        return httpx.Response(200, json={"schema": schemas[schema_id]})

    client = httpx.Client(base_url="http://registry", transport=httpx.MockTransport(registry))
    codec = AvroCodec(SchemaRegistry("http://registry", client))
    event = QuestionAsked("s", "x", "u", "q", 1, max_iterations=3)
    data = codec.encode(event, "questions")
    assert data[0] == 0 and struct.unpack(">I", data[1:5])[0] == 1
    fresh = AvroCodec(SchemaRegistry("http://registry", client))
    assert fresh.decode(QuestionAsked, data) == event
