"""A retry in a large subject asks for up to K_CAP (200) candidates, each sent with its text
and both neighbours: a SearchResult of more than Kafka's default 1 MB. It goes through the
real broker to the real librarian, and its evaluation comes out."""

from __future__ import annotations

import uuid

import pytest

from services.common.events import Candidate, QuestionAsked, SearchRequest, SearchResult
from services.common.kafka_io import Publisher, codec_for, now_ms
from services.common.stage_runner import Emit, StageRunner
from services.librarian import app as librarian_app
from services.librarian.settings import LibrarianSettings
from services.professor import stages as professor
from services.reasoning.extractive import ExtractiveLLM
from services.searcher.dynamic_k import K_CAP
from tools.replay import session_messages
from topics.registry import QUESTIONS, SEARCH_RESULTS, full_name

pytestmark = pytest.mark.integration

PASSAGE = "索引は検索を速くするための構造で、B-tree は値の順序を保ったまま格納する平衡木である。"


def large_result(q: QuestionAsked) -> SearchResult:
    emits, _record = professor.plan_question(q, ExtractiveLLM(), now_ms())
    (request,) = [e.event for e in emits if isinstance(e.event, SearchRequest)]
    text = (PASSAGE * 20)[:700]  # a typical chunk: 700 characters, 3 bytes each
    candidates = [
        Candidate(
            i,
            str(uuid.uuid4()),
            str(uuid.uuid4()),
            "講義ノート",
            1,
            ["索引"],
            i,
            f"{i}: {text}",
            text,
            text,
            1.0 / (i + 1),
            {"bm25": i + 1},
            {"bm25": 1.0},
        )
        for i in range(K_CAP)
    ]
    return SearchResult(q.session_id, 2, "broader", candidates, K_CAP, 50_000, 40, 2, request.state)


def test_a_search_result_of_k_cap_candidates_passes_the_broker_and_is_evaluated(
    isolated_kafka, service_settings, run_stages
):
    codec = codec_for(isolated_kafka)
    session = str(uuid.uuid4())
    q = QuestionAsked(session, "subject", "user", "B-tree とは何ですか？", now_ms())
    result = large_result(q)
    size = len(
        codec.encode(result, full_name(SEARCH_RESULTS, isolated_kafka.eduanima_topic_prefix))
    )
    assert size > 1_048_576  # over the broker's and librdkafka's default limit

    publisher = Publisher(isolated_kafka)
    publisher.publish(QUESTIONS, session, q)
    publisher.flush()
    searcher_stand_in = StageRunner(
        isolated_kafka,
        stage="large-searcher",
        group_id="large-searcher",
        source=QUESTIONS,
        event_type=QuestionAsked,
        handle=lambda _q: [Emit(SEARCH_RESULTS, session, result)],
    )
    librarian = librarian_app.runner(service_settings(LibrarianSettings), engine=ExtractiveLLM())
    evaluations = []

    def evaluated() -> bool:
        messages = session_messages(session, isolated_kafka)
        evaluations[:] = [m.event for m in messages if m.topic == "evaluations"]
        return bool(evaluations)

    alive = run_stages([searcher_stand_in, librarian], done=evaluated, timeout=90)

    assert alive, "a stage died"
    (evaluation,) = evaluations
    assert evaluation.iteration == 2 and not evaluation.failure
    (delivered,) = [
        m.event for m in session_messages(session, isolated_kafka) if m.topic == "search.results"
    ]
    assert len(delivered.candidates) == K_CAP and delivered.candidates[-1].next_text
