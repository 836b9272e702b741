"""eval retrieval under service conditions, end to end on a tiny QA set: stored through the
real parser and chunker, searched with the k dynamic k gives, each hit judged on chunk text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.searcher.fusion import DEFAULT_FUSION
from tools.evaluation.retrieval import Dataset, Document, Question
from tools.evaluation.service import chars_sweep, evaluate, from_materials, from_qa

pytestmark = pytest.mark.integration


def test_service_conditions_report_hits_at_dynamic_k(db_conn, embedder):
    docs = [
        Document("t1p0", "梅雨", "梅雨は東アジアの雨季で、梅雨前線が停滞する。"),
        Document("t1p1", "梅雨", "梅雨前線は小笠原気団とオホーツク海気団の間にできる。"),
        Document("t2p0", "Index", "The BRIN index sets pages_per_range = 32 in the lab."),
        Document("t2p1", "Index", "A B-tree serves range queries on sorted keys."),
    ]
    questions = [
        Question("q1", "梅雨前線はどの気団の間にできる？", frozenset({"t1p1"}), ("小笠原気団",)),
        Question("q2", "What is pages_per_range in the lab?", frozenset({"t2p0"}), ("32",)),
    ]
    sset = from_qa(Dataset(f"svc-{db_conn.info.dbname}", docs, questions))
    report = evaluate(db_conn, sset, embedder, chars_sweep())
    assert report["files"] == 2 and report["questions_with_a_hit_in_the_store"] == 2
    # one Markdown file per title, packed by the chunker: fewer chunks than paragraphs
    assert report["chunks"] == 2
    hybrid = report["systems"]["hybrid"]
    assert hybrid["k_mean"] == 5.0  # choose_k of a 2-chunk subject
    assert hybrid["hit@k"] == 1.0 and hybrid["mrr@k"] == 1.0
    assert set(report["systems"]) >= {"hybrid", "hybrid, chars 0"}


def test_a_course_folder_is_reported_per_question_type_too(db_conn, embedder, tmp_path: Path):
    folder = tmp_path / f"types-{db_conn.info.dbname}"
    (folder / "materials").mkdir(parents=True)
    (folder / "materials" / "exam.md").write_text(
        "# 期末試験\n\n期末試験は7月30日に W-405 で行う。持ち込みは A4 用紙1枚まで。\n",
        encoding="utf-8",
    )
    (folder / "materials" / "lab.md").write_text(
        "# Lab 3\n\nThe Lab 3 report is due on 2 June and may be at most 4 pages.\n",
        encoding="utf-8",
    )
    rows = [
        ("f1", "期末試験はいつですか？", "7月30日", "exam.md", "fact"),
        ("f2", "Lab 3 のレポートは何ページまで？", "4 pages", "lab.md", "cross_lingual"),
        ("f3", "When is the Lab 3 report due?", "2 June", "lab.md", "fact"),
    ]
    (folder / "queries.jsonl").write_text(
        "\n".join(
            json.dumps(
                {"qid": q, "question": t, "answers": [a], "gold_materials": [g], "type": y},
                ensure_ascii=False,
            )
            for q, t, a, g, y in rows
        ),
        encoding="utf-8",
    )
    sset = from_materials(folder, folder / "queries.jsonl")
    report = evaluate(db_conn, sset, embedder, [("hybrid", DEFAULT_FUSION)])
    by_type = report["by_type"]["hybrid"]
    assert sorted(by_type) == ["cross_lingual", "fact"]
    assert by_type["fact"]["n"] == 2 and by_type["cross_lingual"]["n"] == 1
    # two chunks in all, k = 5: every question's chunk is found, in every type
    assert by_type["fact"]["hit@k"] == 1.0 and by_type["cross_lingual"]["hit@k"] == 1.0
    assert report["systems"]["hybrid"]["hit@k"] == 1.0
