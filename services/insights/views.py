"""The JSON views, pure: partial aggregates from every partition in, one answer out.

Each instance answers for the partitions it owns (``Local``); the serving instance gathers
the others' (``app.py``) and calls these. A view says which partitions it covers, and it is
``complete`` only when every partition of every table answered exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.insights import sketch, stages, windows

CHART_HOURS = 24
RECENT_DAYS = 14
TOP_GAPS = 10


@dataclass
class Local:
    """What one instance holds for a view: partials by table and partition."""

    partitions: dict[str, list[int]] = field(default_factory=dict)  # table -> partitions
    partials: dict[str, dict[int, Any]] = field(default_factory=dict)  # table -> p -> value

    def as_json(self) -> dict[str, Any]:
        return {
            "partitions": self.partitions,
            "partials": {t: {str(p): v for p, v in ps.items()} for t, ps in self.partials.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Local:
        return cls(
            partitions={t: list(ps) for t, ps in data["partitions"].items()},
            partials={t: {int(p): v for p, v in ps.items()} for t, ps in data["partials"].items()},
        )


@dataclass
class Gathered:
    """The partials of all instances that answered, and which partitions they covered."""

    partials: dict[str, list[Any]]
    coverage: dict[str, dict[str, Any]]
    complete: bool


def gather(answers: list[Local], expected: dict[str, int]) -> Gathered:
    """Combine instances' answers. A partition answered twice (two instances both believed
    they owned it, mid-rebalance) is counted once and the view marked incomplete."""
    partials: dict[str, list[Any]] = {table: [] for table in expected}
    covered: dict[str, list[int]] = {table: [] for table in expected}
    twice = False
    for answer in answers:
        for table, parts in answer.partitions.items():
            for p in parts:
                if p in covered[table]:
                    twice = True
                    continue
                covered[table].append(p)
                value = answer.partials.get(table, {}).get(p)
                if value is not None:
                    partials[table].append(value)
    coverage = {
        table: {
            "partitions": n,
            "covered": sorted(covered[table]),
            "missing": sorted(set(range(n)) - set(covered[table])),
        }
        for table, n in expected.items()
    }
    complete = not twice and all(not c["missing"] for c in coverage.values())
    return Gathered(partials, coverage, complete)


# --- merging -----------------------------------------------------------------------------------


def _combine_outcomes(aggs: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("questions", "answered", "insufficient", "failed", "iterations", "latency_sum_ms")
    out: dict[str, Any] = {k: sum(a[k] for a in aggs) for k in keys}
    out["latency"] = sketch.merge(*(a["latency"] for a in aggs))
    return out


def _combine_timings(aggs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "n": sum(a["n"] for a in aggs),
        "sum_ms": sum(a["sum_ms"] for a in aggs),
        "sketch": sketch.merge(*(a["sketch"] for a in aggs)),
    }


def _outcome_json(agg: dict[str, Any] | None) -> dict[str, Any]:
    agg = agg or stages.outcome_agg(None)
    finished = agg["answered"] + agg["insufficient"] + agg["failed"]
    return {
        "questions": agg["questions"],
        "finished": finished,
        "answered": agg["answered"],
        "insufficient": agg["insufficient"],
        "failed": agg["failed"],
        "unanswered_share": round((finished - agg["answered"]) / finished, 4) if finished else None,
        "mean_iterations": round(agg["iterations"] / finished, 2) if finished else None,
        "latency_ms": sketch.summary(agg["latency"]),
    }


def _timing_json(agg: dict[str, Any] | None) -> dict[str, Any]:
    agg = agg or stages.timing_agg(None)
    summary = sketch.summary(agg["sketch"])
    return {
        "count": agg["n"],
        "mean_ms": round(agg["sum_ms"] / agg["n"], 1) if agg["n"] else None,
        "p50_ms": summary["p50"],
        "p95_ms": summary["p95"],
    }


def _series(windowed: dict[str, Any] | None, name: str, now_ms: int, count: int, render) -> list:
    windowed = windowed or windows.empty()
    return [
        {"start_ms": start, **render(agg)}
        for start, agg in windows.recent(windowed, name, now_ms, count)
    ]


# --- the subject view ------------------------------------------------------------------------


def subject_view(
    subject_id: str, loop: list[dict[str, Any]], materials: list[dict[str, Any]], now_ms: int
) -> dict[str, Any]:
    """Everything a teacher sees of a subject; top-level ``questions`` is its total."""
    merged = windows.merge([p["windows"] for p in loop], _combine_outcomes)
    total = _outcome_json(merged["total"] if merged else None)
    return {
        "subject_id": subject_id,
        **total,
        "hourly": _series(merged, "hour", now_ms, CHART_HOURS, _outcome_json),
        "daily": _series(merged, "day", now_ms, RECENT_DAYS, _outcome_json),
        "unanswered_topics": top_gaps([p["gaps"] for p in loop]),
        "materials": material_rows([p["cited"] for p in loop], materials),
        "generated_at_ms": now_ms,
    }


def top_gaps(partials: list[dict[str, Any]], limit: int = TOP_GAPS) -> list[dict[str, Any]]:
    """The keywords INSUFFICIENT answers most often left uncovered, with the latest question."""
    gaps: dict[str, dict[str, Any]] = {}
    for partial in partials:
        for keyword, gap in partial.items():
            old = gaps.get(keyword)
            if old is None:
                gaps[keyword] = dict(gap)
                continue
            newer = gap["last_ms"] > old["last_ms"]
            gaps[keyword] = {
                "n": old["n"] + gap["n"],
                "last_ms": max(old["last_ms"], gap["last_ms"]),
                "question": gap["question"] if newer else old["question"],
                "task": gap["task"] if newer else old["task"],
            }
    ranked = sorted(gaps.items(), key=lambda kv: (-kv[1]["n"], -kv[1]["last_ms"], kv[0]))
    return [
        {
            "keyword": keyword,
            "sessions": gap["n"],
            "last_asked_ms": gap["last_ms"],
            "example_question": gap["question"],
            "task": gap["task"],
        }
        for keyword, gap in ranked[:limit]
    ]


def material_rows(
    cited_partials: list[dict[str, Any]], material_partials: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each material version stored or cited, how often answers cited it, and whether it is
    still active (deleted ones are left out); the most cited first, never-cited ones last."""
    rows: dict[str, dict[str, Any]] = {}
    for partial in material_partials:
        for material_id, stored in partial["stored"].items():
            row = rows.setdefault(material_id, {"cited": 0, "last_action_ms": -1})
            row.update(
                title=stored["title"],
                filename=stored["filename"],
                version=stored["version"],
                chunks=stored["chunks"],
                stored_at_ms=stored["at_ms"],
            )
    latest: dict[str, dict[str, Any]] = {}
    for partial in material_partials:
        for material_id, change in partial["changes"].items():
            if material_id not in latest or change["at_ms"] >= latest[material_id]["at_ms"]:
                latest[material_id] = change
    for partial in cited_partials:
        for material_id, cited in partial.items():
            row = rows.setdefault(material_id, {"cited": 0, "last_action_ms": -1})
            row["cited"] += cited["n"]
            row.setdefault("title", cited["title"])
    out = []
    for material_id, row in rows.items():
        change = latest.get(material_id)
        if change is not None and change["action"] == "DELETED":
            continue
        active = change is None or change["action"] in ("STORED", "REACTIVATED")
        if change is not None:
            row.setdefault("title", change["title"] or change["filename"])
            row.setdefault("filename", change["filename"])
            row.setdefault("version", change["version"])
        out.append(
            {
                "material_id": material_id,
                "title": row.get("title", ""),
                "filename": row.get("filename", ""),
                "version": row.get("version"),
                "chunks": row.get("chunks"),
                "active": active,
                "cited": row["cited"],
            }
        )
    return sorted(out, key=lambda r: (-r["cited"], r["title"], r["material_id"]))


# --- the stage view ----------------------------------------------------------------------------


def stages_view(
    partials: list[dict[str, Any]],
    lag: list[dict[str, Any]],
    now_ms: int,
    lag_measured_at_ms: int | None = None,
) -> dict[str, Any]:
    """Per stage: how long it takes from its input's record to its output's (total, the
    last hour, recent hours), and how far each consumer group is behind its input."""
    described = {**stages.INGEST_STAGES, **stages.LOOP_STAGES}
    rows = []
    for stage, what in described.items():
        merged = windows.merge([p[stage] for p in partials if stage in p], _combine_timings)
        last_hour = windows.recent(merged, "hour", now_ms, 1)[0][1] if merged else None
        rows.append(
            {
                "stage": stage,
                "measures": what,
                **_timing_json(merged["total"] if merged else None),
                "last_hour": _timing_json(last_hour),
                "hourly": _series(merged, "hour", now_ms, CHART_HOURS, _timing_json),
            }
        )
    return {
        "stages": rows,
        "consumer_lag": lag,
        "consumer_lag_measured_at_ms": lag_measured_at_ms,
        "generated_at_ms": now_ms,
    }
