"""The course-set checker: ill-formed rows and keys no reader could see are caught."""

from __future__ import annotations

import json
from pathlib import Path

from tools.evaluation.check import check_course_set

LECTURE = (
    "# 索引\n\nB-tree の **フィルファクタ** は `90` が標準。\n\n"
    "| 索引 | 用途 |\n|---|---|\n| GIN | 全文 |\n"
)


def _course(tmp_path: Path, rows: list[dict]) -> Path:
    (tmp_path / "materials").mkdir()
    (tmp_path / "materials" / "02_index_ja.md").write_text(LECTURE, encoding="utf-8")
    lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    (tmp_path / "queries.jsonl").write_text(lines, encoding="utf-8")
    return tmp_path


def _row(qid: str, answers: list[str], gold: list[str], kind: str = "fact") -> dict:
    return {"qid": qid, "question": "?", "type": kind, "answers": answers, "gold_materials": gold}


def test_keys_are_matched_against_what_a_reader_sees_not_the_markup(tmp_path: Path):
    rows = [
        _row("q1", ["フィルファクタ は 90"], ["02_index_ja.md"]),  # ** and ` are markers
        _row("q2", ["GIN | 全文"], ["02_index_ja.md"], "formula_code"),
        _row("q3", [], [], "unanswerable"),
    ]
    report = check_course_set(_course(tmp_path, rows))
    assert report.errors == []
    assert report.questions["queries.jsonl:fact"] == 1


def test_unquotable_keys_unknown_gold_and_duplicate_ids_are_errors(tmp_path: Path):
    rows = [
        _row("q1", ["フィルファクタ 80"], ["02_index_ja.md"]),
        _row("q1", ["GIN"], ["03_missing.md"]),
        _row("q3", ["x"], [], "unanswerable"),
    ]
    errors = check_course_set(_course(tmp_path, rows)).errors
    assert any("no gold material holds" in e for e in errors)
    assert any("duplicate qid q1" in e for e in errors)
    assert any("unknown gold material" in e for e in errors)
    assert any("unanswerable question has no keys" in e for e in errors)
