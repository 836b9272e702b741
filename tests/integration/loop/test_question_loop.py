"""The question loop end to end, through the real broker and database."""

from __future__ import annotations

import pytest
from psycopg.rows import dict_row

from services.common import db

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ANSWERABLE = [
    "中央値とは何ですか？",
    "What is Pearson's correlation coefficient?",
    "標準誤差とは何ですか？",
    "What is the p-value?",
    "When are the office hours?",
]


def ask(pipeline, subject: str, question: str, user: str = "student-1", **kwargs):
    session = pipeline.client.ask(subject, user, question, **kwargs)
    events = list(pipeline.client.follow(session, timeout=180))
    return session, events


def chunk_text(pipeline, chunk_id: str) -> str:
    with db.connect(pipeline.db) as conn:
        return conn.execute("SELECT text FROM chunks WHERE chunk_id = %s", (chunk_id,)).fetchone()[
            0
        ]


def status_and_log(pipeline, session: str) -> tuple[str, dict | None]:
    """The session's status, and its unanswered-log entry (None when it is not logged)."""
    with db.connect(pipeline.db) as conn:
        (status,) = conn.execute(
            "SELECT status FROM sessions WHERE session_id = %s", (session,)
        ).fetchone()
        logged = (
            conn.cursor(row_factory=dict_row)
            .execute(
                "SELECT question, missing_tasks FROM unanswered WHERE session_id = %s", (session,)
            )
            .fetchone()
        )
    return status, logged


@pytest.mark.parametrize("question", ANSWERABLE)
def test_answerable_questions_end_answered_with_real_citations(pipeline, demo_subject, question):
    session, events = ask(pipeline, demo_subject, question)
    final = events[-1]
    assert final.kind == "FINAL" and final.session_id == session
    assert final.status == "ANSWERED", final.answer
    assert final.citations
    for citation in final.citations:
        assert citation.snippet in chunk_text(pipeline, citation.chunk_id)
        assert f"[{citation.n}]" in final.answer
    kinds = [e.kind for e in events]
    assert kinds[0] == "PROGRESS" and "DELTA" in kinds
    assert [e.seq for e in events] == sorted(e.seq for e in events)
    assert "".join(e.delta for e in events if e.kind == "DELTA") == final.answer


def test_unanswerable_question_ends_insufficient_and_is_logged(pipeline, demo_subject):
    session, events = ask(
        pipeline, demo_subject, "What is the gauge symmetry of quantum chromodynamics?"
    )
    final = events[-1]
    assert final.status == "INSUFFICIENT"
    assert 1 <= final.iterations <= 5
    status, logged = status_and_log(pipeline, session)
    assert logged is not None and "quantum" in logged["question"]
    assert status == "INSUFFICIENT"


def test_a_question_answered_in_part_says_what_is_missing_and_logs_it(pipeline, demo_subject):
    session, events = ask(
        pipeline, demo_subject, "中央値とは何ですか？量子色力学のゲージ対称性は何ですか？"
    )
    final = events[-1]
    assert final.status == "ANSWERED", final.answer
    assert final.answer.startswith("質問の一部は資料に根拠が見つかりませんでした"), final.answer
    assert final.citations
    status, logged = status_and_log(pipeline, session)
    assert status == "ANSWERED"
    assert logged is not None and any("量子色力学" in task for task in logged["missing_tasks"])
    # the part answered is not logged
    assert not any("中央値" in task for task in logged["missing_tasks"])


def test_question_needing_two_materials_iterates_and_never_sees_a_chunk_twice(
    pipeline, demo_subject
):
    from tools.replay import session_messages

    session, events = ask(pipeline, demo_subject, "中央値と標準誤差の違いは何ですか？")
    final = events[-1]
    assert final.iterations >= 2
    assert len({c.material_id for c in final.citations}) >= 2, final.answer
    messages = session_messages(session, pipeline.kafka)
    results = [m.event for m in messages if m.topic == "search.results"]
    returned = [c.chunk_id for r in results for c in r.candidates]
    assert len(returned) == len(set(returned)), "a chunk came back twice in one session"
    ks = [r.k for r in sorted(results, key=lambda r: r.iteration)]
    assert ks == sorted(ks) and ks[-1] > ks[0], f"k must grow with retries: {ks}"


def test_fresh_searcher_rebuilds_the_same_state_from_the_compacted_topic(pipeline, demo_subject):
    from services.searcher.app import restore_sessions
    from topics.registry import SEARCH_SESSIONS

    ask(pipeline, demo_subject, "平均とは何ですか？")
    restored = restore_sessions(pipeline.kafka, list(range(SEARCH_SESSIONS.partitions)))
    live = pipeline.searcher.sessions
    assert live and restored.keys() >= live.keys()
    for session_id, state in live.items():
        assert restored[session_id] == state


def test_unenrolled_user_gets_a_failed_answer_and_a_dead_letter(pipeline, demo_subject):
    from tools.replay import dead_letters

    session, events = ask(pipeline, demo_subject, "中央値とは何ですか？", user="intruder")
    assert events[-1].status == "FAILED" and "not enrolled" in events[-1].answer
    letters = dead_letters("questions", pipeline.kafka)
    assert any(
        row["key"] == session and row["headers"]["error.class"] == "Rejected" for row in letters
    )


def test_a_restored_searcher_leaves_out_the_states_of_questions_answered_days_ago(isolated_kafka):
    from services.common.events import SessionState
    from services.common.kafka_io import Publisher, now_ms
    from services.searcher.app import restore_sessions
    from services.searcher.stages import STATE_TTL_MS
    from topics.registry import SEARCH_SESSIONS

    publisher = Publisher(isolated_kafka)
    old = SessionState("answered-two-days-ago", ["c1"], 1, 1, now_ms() - 2 * STATE_TTL_MS)
    running = SessionState("running", ["c2"], 0, 0, now_ms())
    for state in (old, running):
        publisher.publish(SEARCH_SESSIONS, state.session_id, state)
    publisher.flush()

    restored = restore_sessions(isolated_kafka, list(range(SEARCH_SESSIONS.partitions)))
    assert restored == {"running": running}


def test_a_restore_reads_what_was_committed_before_a_transaction_left_open(isolated_kafka):
    """An instance killed inside a transaction and never restarted leaves it open for the
    transaction timeout (15 min). A searcher restoring meanwhile does not wait for it: it
    reads the states committed before it, and none of the open one's."""
    import threading

    from services.common.events import SessionState
    from services.common.kafka_io import Publisher, codec_for, make_producer, now_ms
    from services.searcher.app import restore_sessions
    from topics.registry import SEARCH_SESSIONS, full_name

    topic = full_name(SEARCH_SESSIONS, isolated_kafka.eduanima_topic_prefix)
    committed = SessionState("committed", ["c1"], 0, 0, now_ms())
    publisher = Publisher(isolated_kafka)
    publisher.publish(SEARCH_SESSIONS, committed.session_id, committed)
    publisher.flush()
    (partition,) = {m.partition() for m in _messages(isolated_kafka, topic)}

    killed = make_producer(
        isolated_kafka, transactional_id=f"{isolated_kafka.eduanima_topic_prefix}killed"
    )
    killed.init_transactions(30)
    killed.begin_transaction()
    uncommitted = SessionState("uncommitted", ["c2"], 1, 0, now_ms())
    value = codec_for(isolated_kafka).encode(uncommitted, topic)
    killed.produce(topic, key=b"uncommitted", value=value, partition=partition)
    killed.flush(10)
    try:
        assert _written(isolated_kafka, topic, partition) == 2  # the open one is on the log
        restored = []
        restore = threading.Thread(
            target=lambda: restored.append(restore_sessions(isolated_kafka, [partition]))
        )
        restore.start()
        restore.join(60)
        assert not restore.is_alive(), "the restore waited for the open transaction"
        assert restored == [{"committed": committed}]
    finally:
        killed.abort_transaction(30)


def _messages(settings, topic: str) -> list:
    from services.common.kafka_io import make_consumer, read_to_end

    consumer = make_consumer(settings, "restore-test-reader")
    try:
        return list(read_to_end(consumer, topic, give_up_after_s=10))
    finally:
        consumer.close()


def _written(settings, topic: str, partition: int) -> int:
    """Messages on the log, committed or not (what a read_uncommitted reader sees)."""
    from confluent_kafka import TopicPartition

    from services.common.kafka_io import make_consumer

    uncommitted = {"isolation.level": "read_uncommitted"}
    consumer = make_consumer(settings, "restore-test-log", **uncommitted)
    try:
        return consumer.get_watermark_offsets(TopicPartition(topic, partition), timeout=10)[1]
    finally:
        consumer.close()
