"""Windows and views: partials of any partitions, gathered from any instances, add up to
the same answer; a view says when a partition did not answer."""

from __future__ import annotations

from services.common.events import MaterialChanged
from services.insights import stages, views, windows
from services.insights.views import Local

HOUR = windows.HOUR_MS
T0 = 1_795_000_000_000 - 1_795_000_000_000 % HOUR


def add(windowed: dict, at_ms: int, n: int = 1) -> dict:
    return windows.update(windowed, at_ms, lambda agg: {"n": (agg or {"n": 0})["n"] + n})


def test_tumbling_windows_align_to_the_hour_and_day_and_keep_a_retention():
    w = add(add(windows.empty(), T0 + 10), T0 + HOUR - 1)
    w = add(w, T0 + HOUR)
    assert w["total"] == {"n": 3}
    assert w["hour"] == {str(T0): {"n": 2}, str(T0 + HOUR): {"n": 1}}
    assert list(w["day"]) == [str(windows.window_start(T0, windows.DAY_MS))]
    later = add(w, T0 + 60 * HOUR)  # 60 hours on: the first hours fall out of the 48 kept
    assert str(T0) not in later["hour"] and later["total"] == {"n": 4}
    stale = add(later, T0)  # a late event for a dropped window still counts in the total
    assert str(T0) not in stale["hour"] and stale["total"] == {"n": 5}
    assert windows.recent(later, "hour", T0 + 60 * HOUR, 3) == [
        (T0 + 58 * HOUR, None),
        (T0 + 59 * HOUR, None),
        (T0 + 60 * HOUR, {"n": 1}),
    ]


def outcome(n: int, status: str, asked_ms: int, keyword: str = "分散") -> stages.SessionOutcome:
    return stages.SessionOutcome(
        session_id=f"s{n}",
        subject_id="stats",
        question=f"{keyword}とは？ #{n}",
        asked_ms=asked_ms,
        status=status,
        iterations=2,
        stop_reason="complete",
        latency_ms=1000 + n,
        gaps=[stages.Gap(keyword, "t")] if status == "INSUFFICIENT" else [],
        cited=[("m1", "講義1")] if status == "ANSWERED" else [],
    )


def partial_of(items: list[tuple[int, str]]) -> dict:
    partial = None
    for n, status in items:
        partial = stages.count_question(partial, T0 + n * 1000)
        partial = stages.count_outcome(partial, outcome(n, status, T0 + n * 1000))
    return partial


def test_a_view_of_partials_equals_the_view_of_one_partial_of_everything():
    items = [(n, ["ANSWERED", "INSUFFICIENT", "FAILED"][n % 3]) for n in range(12)]
    whole = views.subject_view("stats", [partial_of(items)], [], T0 + HOUR)
    split = views.subject_view(
        "stats",
        [partial_of(items[:5]), partial_of(items[5:9]), partial_of(items[9:])],
        [],
        T0 + HOUR,
    )
    assert split == whole
    assert (whole["questions"], whole["answered"], whole["insufficient"], whole["failed"]) == (
        12,
        4,
        4,
        4,
    )
    assert whole["unanswered_share"] == round(8 / 12, 4) and whole["mean_iterations"] == 2.0
    assert len(whole["hourly"]) == 24 and whole["hourly"][-2]["questions"] == 12
    [gap] = whole["unanswered_topics"]
    assert gap["keyword"] == "分散" and gap["sessions"] == 4
    assert gap["example_question"] == "分散とは？ #10"  # the latest one asked
    assert whole["materials"] == [
        {
            "material_id": "m1",
            "title": "講義1",
            "filename": "",
            "version": None,
            "chunks": None,
            "active": True,
            "cited": 4,
        }
    ]


def test_materials_show_stored_ones_never_cited_and_leave_deleted_ones_out():
    ingested = dict(
        subject_id="stats",
        status="STORED",
        title="t",
        filename="f.md",
        version=1,
        chunks=3,
        at_ms=T0,
        duration_ms=10,
    )
    mats = stages.count_ingested(None, stages.Ingested(material_id="m1", **ingested))
    mats = stages.count_ingested(mats, stages.Ingested(material_id="m2", **ingested))
    mats = stages.count_ingested(mats, stages.Ingested(material_id="m3", **ingested))
    mats = stages.count_change(
        mats, MaterialChanged("c", "stats", "m2", "k", 1, "DEACTIVATED", "t", T0 + 1)
    )
    mats = stages.count_change(
        mats, MaterialChanged("d", "stats", "m3", "k", 1, "DELETED", "t", T0 + 2)
    )
    rows = views.material_rows([partial_of([(1, "ANSWERED")])["cited"]], [mats])
    assert [(r["material_id"], r["active"], r["cited"]) for r in rows] == [
        ("m1", True, 1),
        ("m2", False, 0),
    ]


def test_gathering_reports_missing_and_twice_answered_partitions():
    a = Local(partitions={"loop": [0, 1, 2], "ingest": [0]}, partials={"loop": {0: "x"}})
    b = Local(partitions={"loop": [3, 4, 5], "ingest": [1, 2]}, partials={"loop": {5: "y"}})
    full = views.gather([a, Local.from_json(b.as_json())], {"loop": 6, "ingest": 3})
    assert full.complete and sorted(full.partials["loop"]) == ["x", "y"]
    partial = views.gather([a], {"loop": 6, "ingest": 3})
    assert not partial.complete
    assert partial.coverage["loop"]["missing"] == [3, 4, 5]
    twice = views.gather([a, a, b], {"loop": 6, "ingest": 3})
    assert not twice.complete and twice.partials["loop"] == ["x", "y"]  # counted once


def test_the_stage_view_merges_timings_and_keeps_lag():
    p1 = stages.add_timings(None, [("searcher", 100, T0), ("librarian", 10, T0)])
    p2 = stages.add_timings(None, [("searcher", 300, T0 + 1)])
    view = views.stages_view([p1, p2], [{"stage": "searcher", "lag": 2}], T0 + 2)
    rows = {r["stage"]: r for r in view["stages"]}
    assert rows["searcher"]["count"] == 2 and rows["searcher"]["mean_ms"] == 200.0
    assert rows["searcher"]["last_hour"]["count"] == 2
    assert rows["ingestor"]["count"] == 0 and rows["ingestor"]["p95_ms"] is None
    assert set(rows) == set(stages.LOOP_STAGES) | set(stages.INGEST_STAGES)
    assert view["consumer_lag"] == [{"stage": "searcher", "lag": 2}]
