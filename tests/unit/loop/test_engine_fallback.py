"""When the primary engine fails a step, the fallback takes it and the session records it; when
the fallback fails too, the session ends FAILED with a final event. The stages run as the
services run them (``DirectLoop``), with the scripted engine of ``conftest`` as the fallback."""

from __future__ import annotations

import pytest

from services.common.errors import EngineError
from services.common.events import QuestionAsked
from services.common.kafka_io import now_ms
from services.direct import DirectLoop
from services.reasoning.fallback import FallbackLLM, fallback_note, recording

CHUNKS = [
    ("c1", "m1", "The median is the middle value."),
    ("c3", "m2", "The standard error measures the spread of the sample mean."),
]


class FailingEngine:
    """Fails the steps it is told to, the way the Gemini adapter fails after its retries."""

    name = "gemini"

    def __init__(self, fails: set[str], working=None):
        self.fails, self.working = fails, working

    def __getattr__(self, step: str):
        if step in self.fails:

            def fail(*_args, **_kwargs):
                raise EngineError(f"gemini {step} failed: Gemini answered 503 UNAVAILABLE")

            return fail
        return getattr(self.working, step)


def question(text="median vs standard error?") -> QuestionAsked:
    return QuestionAsked("s1", "stats", "alice", text, asked_at_ms=now_ms())


def test_the_fallback_takes_only_the_failed_steps_and_they_are_recorded(engine_for):
    scripted = engine_for({"t1": "median", "t2": "standard error"})
    engine = FallbackLLM(FailingEngine({"evaluate", "answer"}, working=scripted), scripted)
    with recording() as steps:
        assert engine.plan("q").tasks  # the primary's own plan: nothing recorded
    assert steps == []
    with recording() as steps:
        engine.evaluate("q", [], [])
    assert steps == ["evaluate: gemini evaluate failed: Gemini answered 503 UNAVAILABLE"]


def test_a_session_answered_with_the_fallback_says_so(engine_for, memory_search):
    scripted = engine_for({"t1": "median", "t2": "standard error"})
    engine = FallbackLLM(FailingEngine({"plan", "evaluate", "answer"}, working=scripted), scripted)
    records = []
    events = DirectLoop(engine, memory_search(CHUNKS), records.append).run(question())
    final = events[-1]
    assert final.kind == "FINAL" and final.status == "ANSWERED" and final.citations
    steps = [s.split(":", 1)[0] for s in final.fallbacks]
    assert steps[0] == "plan" and "evaluate" in steps and steps[-1] == "answer"
    assert all("503 UNAVAILABLE" in s for s in final.fallbacks)
    assert final.answer.endswith(fallback_note("en", final.fallbacks))
    assert "offline extractive engine did some steps: plan, evaluate, answer" in final.answer
    assert records[-1].status == "ANSWERED"


def test_no_fallback_note_when_the_primary_did_everything(engine_for, memory_search):
    scripted = engine_for({"t1": "median"})
    engine = FallbackLLM(FailingEngine(set(), working=scripted), scripted)
    final = DirectLoop(engine, memory_search(CHUNKS)).run(question("median?"))[-1]
    assert final.status == "ANSWERED" and final.fallbacks == []
    assert "extractive" not in final.answer


@pytest.mark.parametrize("step", ["plan", "evaluate", "answer", "review"])
def test_when_the_fallback_fails_too_the_session_ends_failed(engine_for, memory_search, step):
    scripted = engine_for({"t1": "median"})
    primary = FailingEngine({step}, working=scripted)
    engine = FallbackLLM(primary, FailingEngine({step}, working=scripted))
    records = []
    events = DirectLoop(engine, memory_search(CHUNKS), records.append).run(question("median?"))
    final = events[-1]
    assert final.kind == "FINAL" and final.status == "FAILED"
    assert final.stop_reason == "engine_failed"
    failed_step = "answer" if step == "review" else step
    assert f"while it was doing the {failed_step} step" in final.answer
    assert "503 UNAVAILABLE" in final.answer
    assert [e.kind for e in events].count("FINAL") == 1
    assert records[-1].status == "FAILED" and records[-1].stop_reason == "engine_failed"


def test_japanese_note():
    note = fallback_note("ja", ["plan: x", "evaluate: y", "evaluate: z"])
    assert "（plan, evaluate）" in note and "抽出エンジン" in note
