"""The events one question leaves on the loop topics, for feeding insights directly.

A session here is what the professor, searcher and librarian would publish for it (the
project's own event types, encoded by its codec, keyed by session id): the question,
each iteration's request, result and evaluation, and the FINAL answer. Timestamps step
forward so every stage has a duration.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from services.common.events import (
    AnswerEvent,
    Citation,
    Evaluation,
    LoopState,
    Plan,
    QuestionAsked,
    SearchRequest,
    SearchResult,
    Task,
    TaskStatus,
)
from services.common.kafka_io import Publisher
from topics.registry import ANSWERS, EVALUATIONS, QUESTIONS, SEARCH_REQUESTS, SEARCH_RESULTS


@dataclass
class Session:
    subject_id: str
    status: str = "ANSWERED"  # ANSWERED | INSUFFICIENT | FAILED
    iterations: int = 1
    keywords: list[str] = field(default_factory=lambda: ["標準誤差"])
    cited: list[tuple[str, str]] = field(default_factory=list)
    asked_at_ms: int = 0
    latency_ms: int = 1500
    session_id: str = field(default_factory=lambda: str(uuid.uuid4()))

    def state(self, satisfied: bool) -> LoopState:
        tasks = [Task("t1", f"{self.keywords[0]}とは何か", list(self.keywords))]
        plan = Plan(tasks, [], 1.0, 5, self.asked_at_ms + 120_000, "ja", self.keywords, "q")
        return LoopState(
            f"{self.keywords[0]}とは？",
            self.subject_id,
            "student-1",
            plan,
            [],
            [TaskStatus("t1", satisfied)],
            self.asked_at_ms,
        )

    def publish(self, publisher: Publisher) -> None:
        sid = publisher_key = self.session_id
        publisher.publish(
            QUESTIONS,
            sid,
            QuestionAsked(
                sid, self.subject_id, "student-1", f"{self.keywords[0]}とは？", self.asked_at_ms
            ),
        )
        for i in range(self.iterations):
            last = i == self.iterations - 1
            state = self.state(satisfied=last and self.status == "ANSWERED")
            publisher.publish(
                SEARCH_REQUESTS, sid, SearchRequest(sid, i, "direct", self.keywords, "q", state)
            )
            publisher.publish(
                SEARCH_RESULTS, sid, SearchResult(sid, i, "direct", [], 10, 100, 0, 0, state)
            )
            route = "COMPLETE" if last else "CONTINUE"
            publisher.publish(EVALUATIONS, sid, Evaluation(sid, i, 1, route, "test", state))
        citations = [
            Citation(n + 1, m, t, None, f"chunk-{m}", "…") for n, (m, t) in enumerate(self.cited)
        ]
        publisher.publish(
            ANSWERS,
            publisher_key,
            AnswerEvent(
                sid,
                1001,
                "FINAL",
                self.asked_at_ms + self.latency_ms,
                status=self.status,
                citations=citations,
                iterations=self.iterations,
                stop_reason="complete",
            ),
        )
