"""The session join and the aggregates: any order, any repetition, the same counts."""

from __future__ import annotations

import itertools
import random

from services.common.events import (
    AnswerEvent,
    ChunksStored,
    Citation,
    Evaluation,
    IngestJob,
    LoopState,
    MaterialChanged,
    Plan,
    QuestionAsked,
    SearchRequest,
    SearchResult,
    Task,
    TaskStatus,
)
from services.insights import stages, windows

T0 = 1_795_000_000_000  # an hour boundary is T0 - T0 % HOUR


def state(subject: str, satisfied: bool, keywords=("標準誤差",)) -> LoopState:
    tasks = [Task("t1", "標準誤差とは何か", list(keywords)), Task("t2", "補足", ["補足"], False)]
    plan = Plan(tasks, [], 1.0, 5, T0 + 120_000, "ja", list(keywords), "q")
    status = [TaskStatus("t1", satisfied), TaskStatus("t2", False)]
    return LoopState("標準誤差とは？", subject, "u", plan, [], status, T0)


def session_events(sid: str, subject: str, status: str, iterations: int) -> list[tuple]:
    """(event, record ms, offset) of one session, in the order the loop produces them."""
    out = [(QuestionAsked(sid, subject, "u", "標準誤差とは？", T0), T0 + 5, 7)]
    t = T0 + 10
    for i in range(iterations):
        st = state(subject, satisfied=status == "ANSWERED" and i == iterations - 1)
        out.append((SearchRequest(sid, i, "direct", ["q"], "q", st), t, 20 + i))
        out.append((SearchResult(sid, i, "direct", [], 10, 100, 0, 0, st), t + 30, 40 + i))
        out.append((Evaluation(sid, i, 1, "CONTINUE", "r", st), t + 50, 60 + i))
        t += 100
    cite = [Citation(1, "m1", "講義1", 3, "c1", "…"), Citation(2, "m1", "講義1", 4, "c2", "…")]
    out.append((AnswerEvent(sid, 1, "PROGRESS", t, message="…"), t, 80))
    final = AnswerEvent(
        sid,
        1001,
        "FINAL",
        T0 + 1500,
        status=status,
        citations=cite,
        iterations=iterations,
        stop_reason="complete",
    )
    out.append((final, t + 40, 81))
    return out


def run(events: list[tuple], partition: int = 2):
    entry, outcomes, questions, changes = None, [], [], 0
    for event, at_ms, offset in events:
        absorbed = stages.absorb(entry, event, at_ms, partition, offset)
        entry = absorbed.entry
        changes += absorbed.changed
        if absorbed.question:
            questions.append(absorbed.question)
        if absorbed.outcome:
            outcomes.append(absorbed.outcome)
    return entry, outcomes, questions, changes


def test_a_session_completes_once_with_its_outcome_and_stage_timings():
    entry, outcomes, questions, _ = run(session_events("s1", "stats", "INSUFFICIENT", 2))
    assert entry == {"p": 2, "done": True, "last_ms": entry["last_ms"]}
    assert questions == [("stats", T0)]
    [o] = outcomes
    assert (o.subject_id, o.status, o.iterations, o.latency_ms) == (
        "stats",
        "INSUFFICIENT",
        2,
        1500,
    )
    assert o.gaps == [stages.Gap("標準誤差", "標準誤差とは何か")]  # the optional task is no gap
    assert o.cited == [("m1", "講義1")]  # once per answer, however often it cites it
    timings = [(stage, ms) for stage, ms, _ in o.timings]
    assert timings == [
        ("professor.plan", 5),
        ("searcher", 30),
        ("librarian", 20),
        ("professor.conduct", 50),
        ("searcher", 30),
        ("librarian", 20),
        ("professor.answer", 90),
        ("question", 245),
    ]


def test_a_question_answered_in_part_counts_the_part_it_left_as_a_gap():
    events = session_events("s3", "stats", "INSUFFICIENT", 1)
    final, at_ms, offset = events[-1]
    events[-1] = (AnswerEvent(**{**final.__dict__, "status": "ANSWERED"}), at_ms, offset)
    _, [o], _, _ = run(events)
    assert o.status == "ANSWERED" and o.gaps == [stages.Gap("標準誤差", "標準誤差とは何か")]
    _, [whole], _, _ = run(session_events("s4", "stats", "ANSWERED", 1))
    assert whole.gaps == []  # an answer to every part leaves none


def test_any_arrival_order_gives_the_same_outcome():
    events = session_events("s2", "stats", "ANSWERED", 2)
    _, [expected], _, _ = run(events)
    rng = random.Random(5)
    for _ in range(30):
        shuffled = events[:]
        rng.shuffle(shuffled)
        _, outcomes, questions, _ = run(shuffled)
        assert outcomes == [expected] and questions == [("stats", T0)]


def test_events_read_again_count_once():
    events = session_events("s3", "stats", "ANSWERED", 1)
    # a redo after a rebalance: everything from the request on, twice, then all of it again
    _, outcomes, questions, changes = run(events[:3] + events[1:] + events)
    assert len(outcomes) == 1 and len(questions) == 1
    assert changes == 5  # question, request, result, evaluation, final: nothing after


def test_a_rejected_question_completes_with_no_iterations():
    q = QuestionAsked("s4", "stats", "stranger", "？", T0)
    final = AnswerEvent(
        "s4", 1000, "FINAL", T0 + 80, stage="plan", status="FAILED", stop_reason="rejected"
    )
    _, [o], _, _ = run([(final, T0 + 90, 3), (q, T0 + 10, 9)])
    assert (o.status, o.iterations, o.subject_id) == ("FAILED", 0, "stats")
    assert [(s, ms) for s, ms, _ in o.timings] == [("professor.plan", 80), ("question", 80)]


def test_pending_and_done_entries_expire():
    entry, *_ = run(session_events("s5", "stats", "ANSWERED", 1)[:2])
    assert not entry.get("done")
    assert not stages.expired(entry, entry["last_ms"] + 1000, ttl_ms=60_000)
    assert stages.expired(entry, entry["last_ms"] + 60_001, ttl_ms=60_000)
    done, *_ = run(session_events("s6", "stats", "ANSWERED", 1))
    assert not stages.expired(done, done["last_ms"] + stages.DONE_TTL_MS - 1, ttl_ms=10**12)
    assert stages.expired(done, done["last_ms"] + stages.DONE_TTL_MS + 1, ttl_ms=10**12)


def test_subject_counts_and_windows():
    partial = None
    outcomes = []
    for n, (status, iterations) in enumerate([("ANSWERED", 1), ("INSUFFICIENT", 3), ("FAILED", 0)]):
        _, [o], [(_, asked)], _ = run(session_events(f"w{n}", "stats", status, iterations))
        partial = stages.count_question(partial, asked)
        partial = stages.count_outcome(partial, o)
        outcomes.append(o)
    total = partial["windows"]["total"]
    assert (total["questions"], total["answered"], total["insufficient"], total["failed"]) == (
        3,
        1,
        1,
        1,
    )
    assert total["iterations"] == 4 and total["latency_sum_ms"] == 3 * 1500
    hour = windows.window_start(T0, windows.HOUR_MS)
    assert partial["windows"]["hour"][str(hour)] == total  # all asked in the same hour
    assert partial["gaps"]["標準誤差"]["n"] == 1
    assert partial["cited"]["m1"]["n"] == 3


def test_timings_fold_into_each_stage():
    timings = [("searcher", 30, T0), ("searcher", 50, T0 + 1), ("librarian", 7, T0 + 2)]
    partial = stages.add_timings(None, timings)
    assert partial["searcher"]["total"]["n"] == 2 and partial["searcher"]["total"]["sum_ms"] == 80
    assert partial["librarian"]["total"]["n"] == 1


def job(key: str = "k1", title: str = "講義1") -> IngestJob:
    return IngestJob(
        "j", key, "stats", "t", "gs://b/x", "x.md", "text/markdown", "h", 10, T0, title=title
    )


def stored(key: str = "k1", status: str = "STORED", material: str = "m1") -> ChunksStored:
    return ChunksStored("j", key, "stats", "t", "x.md", status, material, 1, 12, 300)


def test_jobs_pair_with_their_results_in_either_order_and_once():
    for order in itertools.permutations([(job(), T0, 4), (stored(), T0 + 700, 9)]):
        entry, done = None, []
        for event, at_ms, offset in [*order, *order]:  # and each read twice
            paired = stages.absorb_ingest(entry, event, at_ms, 1, offset)
            entry = paired.entry
            done += paired.done
        [item] = done
        assert (item.material_id, item.title, item.chunks, item.duration_ms) == (
            "m1",
            "講義1",
            12,
            700,
        )
        assert entry["jobs"] == [] and entry["results"] == []


def test_an_unpaired_result_still_counts_when_its_entry_expires():
    paired = stages.absorb_ingest(None, stored(status="DUPLICATE"), T0, 0, 3)
    kept, done = stages.expire_jobs(paired.entry, T0 + 10, ttl_ms=100)
    assert kept is paired.entry and done == []
    kept, [item] = stages.expire_jobs(paired.entry, T0 + 101, ttl_ms=100)
    assert kept is None and item.status == "DUPLICATE" and item.duration_ms is None


def test_materials_keep_the_latest_change():
    partial = stages.count_ingested(
        None,
        stages.ingested(
            {
                "ts": T0,
                "subject": "stats",
                "status": "STORED",
                "material_id": "m1",
                "filename": "x.md",
                "version": 1,
                "chunks": 12,
            },
            {"title": "講義1", "ts": T0 - 50},
        ),
    )
    later = MaterialChanged("c2", "stats", "m1", "stats/x.md", 1, "DEACTIVATED", "t", T0 + 20)
    earlier = MaterialChanged("c1", "stats", "m1", "stats/x.md", 1, "STORED", "t", T0 + 10)
    partial = stages.count_change(stages.count_change(partial, later), earlier)
    assert partial["changes"]["m1"]["action"] == "DEACTIVATED"
    assert partial["stored"]["m1"]["chunks"] == 12 and partial["ingests"] == {"STORED": 1}
