"""Follow-up questions through the real loop (acceptance 4): "それはなぜ？" after an
answered question is planned with that question's topic and cites the same material."""

from __future__ import annotations

import pytest

from services.common.events import SearchRequest
from tools.replay import session_messages

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def ask(pipeline, subject: str, question: str, conversation: str | None = None):
    session = pipeline.client.ask(subject, "student-1", question, conversation_id=conversation)
    return session, list(pipeline.client.follow(session, timeout=180))[-1]


def first_plan(pipeline, session: str):
    (request,) = [
        m.event
        for m in session_messages(session, pipeline.kafka)
        if isinstance(m.event, SearchRequest) and m.event.iteration == 0
    ]
    return request.state


def test_why_is_that_is_planned_with_the_previous_topic_and_cites_its_material(
    pipeline, demo_subject
):
    first, answered = ask(pipeline, demo_subject, "中央値とは何ですか？", conversation="thread-1")
    assert answered.status == "ANSWERED"
    cited = {c.material_id for c in answered.citations}

    follow_up, final = ask(pipeline, demo_subject, "それはなぜ？", conversation="thread-1")
    state = first_plan(pipeline, follow_up)
    assert state.question.startswith("中央値")
    assert "中央値" in state.plan.tasks[0].keywords
    assert final.status == "ANSWERED", final.answer
    assert {c.material_id for c in final.citations} <= cited and final.citations
    assert any("中央値" in c.snippet for c in final.citations)

    # the same words with no thread refer to nothing (the topic came from the history):
    # nothing is searched, and the asker is told what to ask
    alone, final = ask(pipeline, demo_subject, "それはなぜ？")
    assert (final.status, final.stop_reason) == ("INSUFFICIENT", "no_topic")
    messages = session_messages(alone, pipeline.kafka)
    assert not [m for m in messages if isinstance(m.event, SearchRequest)]
