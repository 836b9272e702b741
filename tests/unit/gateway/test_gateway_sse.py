"""AnswerEvents as SSE frames: the event name is the kind, the id its seq, the data its JSON."""

from __future__ import annotations

import json

from services.common.events import AnswerEvent, Citation
from services.gateway.streaming import error_sse, to_sse


def test_final_event_carries_answer_and_citations():
    event = AnswerEvent(
        "s1",
        42,
        "FINAL",
        1700,
        stage="answer",
        status="ANSWERED",
        answer="p値とは… [1]",
        citations=[Citation(1, "m1", "講義1", 3, "c1", "p値は…")],
        iterations=2,
    )
    frame = to_sse(event)
    assert (frame.event, frame.id) == ("final", "42")
    data = json.loads(frame.data)
    assert data["answer"] == "p値とは… [1]" and data["citations"][0]["page"] == 3
    encoded = frame.encode().decode()
    assert "event: final" in encoded and "id: 42" in encoded and "p値とは" in encoded


def test_progress_and_error_frames():
    assert to_sse(AnswerEvent("s1", 1, "PROGRESS", 1, message="plan")).event == "progress"
    frame = error_sse("no final answer within 5s")
    assert frame.event == "error"
    assert json.loads(frame.data) == {"detail": "no final answer within 5s"}
