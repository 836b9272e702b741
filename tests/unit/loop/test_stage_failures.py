"""A stage that fails on a session's message every time it tries (a bug: the StageRunner
dead-letters the message) still ends the session: its ``on_poison`` output travels the loop
like any other message, and the professor ends the session FAILED, naming the step. The
stage functions are chained here as the topics chain them."""

from __future__ import annotations

from services.common.events import Evaluation, QuestionAsked, SearchRequest, SearchResult
from services.common.kafka_io import now_ms
from services.librarian import stages as librarian
from services.professor import stages as professor
from services.searcher.stages import search_failed
from topics.registry import ANSWERS, EVALUATIONS, SEARCH_RESULTS


class EngineThatMustNotEvaluate:
    """The scripted engine, except that evaluating raises: a failed search is not judged."""

    def __init__(self, scripted):
        self.scripted = scripted

    def __getattr__(self, step: str):
        return getattr(self.scripted, step)

    def evaluate(self, *_args, **_kwargs):
        raise AssertionError("the librarian evaluated a search that failed")


def first_request(engine) -> SearchRequest:
    q = QuestionAsked("s1", "stats", "alice", "What is the median?", asked_at_ms=now_ms())
    emits, _record = professor.plan_question(q, engine, now_ms())
    (request,) = [e.event for e in emits if isinstance(e.event, SearchRequest)]
    return request


def final_of(evaluation: Evaluation, engine):
    emits, record = professor.conduct(evaluation, engine, now_ms())
    finals = [e.event for e in emits if e.topic is ANSWERS and e.event.kind == "FINAL"]
    assert len(finals) == 1 and record is not None
    return finals[0], record


def test_a_request_the_searcher_fails_on_ends_the_session_failed_at_the_search_step(engine_for):
    engine = EngineThatMustNotEvaluate(engine_for({"t1": "median"}))
    request = first_request(engine)

    (emit,) = search_failed(request, "RuntimeError: a bug in the searcher")
    assert emit.topic is SEARCH_RESULTS and emit.key == "s1"
    result: SearchResult = emit.event
    assert result.candidates == [] and result.failure == "RuntimeError: a bug in the searcher"
    (emit,) = librarian.handle(result, engine)
    assert emit.topic is EVALUATIONS and emit.event.failed_stage == "search"

    final, record = final_of(emit.event, engine)
    assert (final.status, final.stop_reason) == ("FAILED", "stage_failed")
    assert "while it was doing the search step" in final.answer
    assert "RuntimeError: a bug in the searcher" in final.answer
    assert "replay" in final.answer and final.citations == []
    assert (record.status, record.stop_reason, record.iterations) == ("FAILED", "stage_failed", 1)


def test_a_result_the_librarian_fails_on_ends_the_session_failed_at_the_evaluate_step(
    engine_for,
):
    engine = engine_for({"t1": "median"})
    request = first_request(engine)
    result = SearchResult("s1", 0, "direct", [], 0, 0, 0, 0, request.state)

    (emit,) = librarian.evaluation_failed(result, "KeyError: 'x'")
    final, _record = final_of(emit.event, engine)
    assert final.stop_reason == "stage_failed"
    assert "while it was doing the evaluate step (KeyError: 'x')" in final.answer


def test_an_engine_failure_is_still_told_as_the_engines(engine_for):
    """The engine failing (after its fallback) is no stage's bug: no failed_stage, and the
    session ends engine_failed as before."""
    engine = engine_for({"t1": "median"})
    request = first_request(engine)
    result = SearchResult("s1", 0, "direct", [], 0, 0, 0, 0, request.state)

    class Broken:
        def __getattr__(self, _step: str):
            def fail(*_args, **_kwargs):
                raise RuntimeError("Gemini answered 503")

            return fail

    (emit,) = librarian.handle(result, Broken())
    assert emit.event.failure == "Gemini answered 503" and emit.event.failed_stage == ""
    final, _record = final_of(emit.event, engine)
    assert final.stop_reason == "engine_failed"
    assert "reasoning engine failed while it was doing the evaluate step" in final.answer
