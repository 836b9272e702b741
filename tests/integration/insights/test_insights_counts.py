"""Insights on the real broker: questions answered by the real loop in two subjects are
counted in the JSON view, and the counts come back from the tables' changelogs after a
restart."""

from __future__ import annotations

import json
import uuid
from collections import Counter

import httpx
import pytest
from tenacity import Retrying, stop_after_delay, wait_fixed
from typer.testing import CliRunner

from services.cli import app as cli
from services.common import db
from services.common.kafka_io import make_consumer
from services.common.materials import enroll, ensure_subject
from services.insights import lag
from topics.apply import admin_client

pytestmark = [pytest.mark.integration, pytest.mark.slow]

GLOSSARY = """# 検定の用語

## 帰無仮説
帰無仮説とは、差や効果がないとする仮説であり、検定ではこれを棄却できるかを調べる。

## 有意水準
有意水準とは、帰無仮説を誤って棄却する確率の上限であり、通常は5%とする。
"""


def new_subject(pipeline, title: str) -> str:
    subject = f"ins-{uuid.uuid4().hex[:8]}"
    with db.connect(pipeline.db) as conn:
        ensure_subject(conn, subject, title)
        enroll(conn, subject, "teacher-1", "teacher")
        enroll(conn, subject, "student-1", "student")
        conn.commit()
    return subject


def counts(view: dict) -> dict:
    keys = ("questions", "finished", "answered", "insufficient", "failed", "mean_iterations")
    return {k: view[k] for k in keys} | {"latency_count": view["latency_ms"]["count"]}


def test_counts_match_what_was_asked_and_survive_a_restart(pipeline, live_insights, tmp_path):
    with_material = new_subject(pipeline, "検定")
    without = new_subject(pipeline, "まだ教材のない科目")
    glossary = tmp_path / f"glossary-{uuid.uuid4().hex[:6]}.md"
    glossary.write_text(GLOSSARY, encoding="utf-8")
    job = pipeline.client.upload_and_ingest(
        glossary, with_material, "teacher-1", storage=pipeline.storage
    )
    [stored] = pipeline.client.wait_for_ingest({job.idempotency_key}, timeout=120)
    assert stored.status == "STORED", stored.error

    asked = [
        (with_material, "student-1", "帰無仮説とは何ですか？"),
        (with_material, "student-1", "有意水準とは何ですか？"),
        (with_material, "student-1", "What is 帰無仮説?"),
        (with_material, "student-1", "ベイズ推定とは何ですか？"),  # not in the material
        (with_material, "stranger", "帰無仮説とは何ですか？"),  # not enrolled: rejected
        (without, "student-1", "帰無仮説とは何ですか？"),
        (without, "student-1", "有意水準とは何ですか？"),
    ]
    sessions = [
        (subject, pipeline.client.ask(subject, user, question, max_iterations=2))
        for subject, user, question in asked
    ]
    finals = {}
    for subject, session in sessions:
        *_, final = pipeline.client.follow(session, timeout=180)
        finals[session] = (subject, final)

    expected = {}
    for subject in (with_material, without):
        mine = [f for s, f in finals.values() if s == subject]
        statuses = Counter(f.status for f in mine)
        expected[subject] = {
            "questions": len(mine),
            "finished": len(mine),
            "answered": statuses["ANSWERED"],
            "insufficient": statuses["INSUFFICIENT"],
            "failed": statuses["FAILED"],
            "mean_iterations": round(sum(f.iterations for f in mine) / len(mine), 2),
            "latency_count": len(mine),
        }
    # the asks cover every status, so the counts below could fail in each column
    assert expected[with_material]["answered"] >= 2
    assert expected[with_material]["insufficient"] >= 1
    assert expected[with_material]["failed"] == 1
    assert expected[without] == {**expected[without], "answered": 0, "insufficient": 2}

    views = {
        subject: live_insights.wait_for(
            f"/insights/subjects/{subject}", lambda v, e=expected[subject]: counts(v) == e
        )
        for subject in expected
    }
    for subject, view in views.items():
        assert counts(view) == expected[subject]
    cited = Counter(  # answers citing each material (an answer may cite it several times)
        m
        for s, f in finals.values()
        if s == with_material
        for m in {c.material_id for c in f.citations}
    )
    rows = {m["material_id"]: m for m in views[with_material]["materials"]}
    assert rows[stored.material_id]["cited"] == cited[stored.material_id] >= 2
    assert rows[stored.material_id]["chunks"] == stored.chunk_count
    topics = {t["keyword"]: t for t in views[with_material]["unanswered_topics"]}
    assert topics["ベイズ推定"]["sessions"] == 1
    assert topics["ベイズ推定"]["example_question"] == "ベイズ推定とは何ですか？"
    hourly = views[without]["hourly"]
    assert sum(h["questions"] for h in hourly) == 2 and len(hourly) == 24

    # Everything the service read is committed, so after the restart it reads no event of
    # the topics again (its faust sensor counts none): the counts it serves can only come
    # from the changelogs of its tables.
    prefix = pipeline.kafka.eduanima_topic_prefix
    reader = make_consumer(pipeline.kafka, f"{prefix}lag-{uuid.uuid4().hex[:6]}")
    try:
        for attempt in Retrying(stop=stop_after_delay(30), wait=wait_fixed(0.5), reraise=True):
            with attempt:
                rows = lag.measure(admin_client(pipeline.kafka), reader, prefix)
                assert {r["stage"]: r["lag"] for r in rows}["insights"] == 0
    finally:
        reader.close()
    assert live_insights.stop() == 0
    live_insights.start()
    for subject, view in views.items():
        again = live_insights.wait_for(f"/insights/subjects/{subject}", lambda v: True)
        assert counts(again) == counts(view)
        assert again["materials"] == view["materials"]
        assert again["unanswered_topics"] == view["unanswered_topics"]
    metrics = httpx.get(live_insights.url() + "/metrics", timeout=10).text
    received = [
        line
        for line in metrics.splitlines()
        if line.startswith("eduanima_faust_messages_received_per_topic_total{")
        and float(line.rsplit(" ", 1)[1]) > 0
    ]
    assert received == []
    # Prometheus: the per-partition counters add up to the subject's count
    exported = sum(
        float(line.rsplit(" ", 1)[1])
        for line in metrics.splitlines()
        if line.startswith("eduanima_insights_questions_total{")
        and f'subject="{with_material}"' in line
    )
    assert exported == expected[with_material]["questions"]

    # the command line: one JSON object whose top-level questions is the subject's total
    for subject, view in views.items():
        result = CliRunner().invoke(
            cli, ["insights", subject, "--json", "--url", live_insights.url()]
        )
        assert result.exit_code == 0, result.output
        printed = json.loads(result.stdout)
        assert printed["questions"] == view["questions"] and counts(printed) == counts(view)
    table = CliRunner().invoke(cli, ["insights", with_material, "--url", live_insights.url()])
    assert table.exit_code == 0 and "ベイズ推定" in table.output

    stages = {s["stage"]: s for s in live_insights.get("/insights/stages")["stages"]}
    for stage in ("professor.plan", "searcher", "librarian", "professor.answer", "question"):
        assert stages[stage]["count"] >= len(asked) - 1, stage  # the rejected one skips search
    assert stages["ingestor"]["count"] >= 1
