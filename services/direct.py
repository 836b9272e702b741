"""``--direct`` mode: the question loop's stage functions in one process, without Kafka.

Exactly the functions the services run, pumped through an in-memory queue in
the order Kafka would deliver one session's messages. Used by tests, by
``eduanima ask --direct`` and by ``eduanima bench loop`` to measure what Kafka
adds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator

from services.common.events import (
    AnswerEvent,
    Evaluation,
    LoopState,
    QuestionAsked,
    SearchRequest,
    SearchResult,
    SessionState,
)
from services.common.kafka_io import now_ms
from services.common.stage_runner import Emit
from services.librarian import stages as librarian
from services.professor import stages as professor
from services.reasoning.llm import LLMEngine
from services.searcher.stages import Search, search_step
from topics.registry import ANSWERS, EVALUATIONS, SEARCH_REQUESTS, SEARCH_RESULTS, SEARCH_SESSIONS

Record = Callable[[professor.SessionRecord], None]


class DirectLoop:
    def __init__(
        self,
        engine: LLMEngine,
        search: Search,
        record: Record | None = None,
        check_scope: Callable[[QuestionAsked], None] | None = None,
        trace: Callable[[Emit], None] | None = None,
        librarian_engine: LLMEngine | None = None,
    ):
        self.engine, self.search = engine, search
        self.librarian_engine = librarian_engine or engine  # the professor's, unless given
        self.record = record or (lambda _r: None)
        self.check_scope = check_scope or (lambda _q: None)
        # sees every message the loop passes on (the teachers' search test shows them)
        self.trace = trace or (lambda _e: None)
        self.sessions: dict[str, SessionState] = {}
        self.last_states: dict[str, LoopState] = {}  # the loop state each session ended with

    def events(self, question: QuestionAsked) -> Iterator[AnswerEvent]:
        """Yield the session's AnswerEvents as the loop produces them."""
        try:
            professor.validate_question(question)
            self.check_scope(question)
        except professor.InvalidInput as exc:
            emits, record = professor.reject_question(question, str(exc), now_ms())
            self.record(record)
            yield from (e.event for e in emits)
            return
        emits, record = professor.plan_question(question, self.engine, now_ms())
        self.record(record)
        queue: deque[Emit] = deque(emits)
        while queue:
            emit = queue.popleft()
            self.trace(emit)
            topic, event = emit.topic, emit.event
            if topic is ANSWERS:
                yield event
            elif topic is SEARCH_REQUESTS:
                assert isinstance(event, SearchRequest)
                state, out = search_step(
                    event, self.sessions.get(event.session_id), self.search, now_ms()
                )
                if state is not None:
                    self.sessions[event.session_id] = state
                queue.extend(out)
            elif topic is SEARCH_RESULTS:
                assert isinstance(event, SearchResult)
                queue.extend(librarian.handle(event, self.librarian_engine))
            elif topic is EVALUATIONS:
                assert isinstance(event, Evaluation)
                self.last_states[event.session_id] = event.state
                out, record = professor.conduct(event, self.engine, now_ms())
                if record is not None:
                    self.record(record)
                queue.extend(out)
            elif topic is not SEARCH_SESSIONS:
                raise RuntimeError(f"direct mode has no stage for {topic.name}")

    def run(self, question: QuestionAsked) -> list[AnswerEvent]:
        return list(self.events(question))
