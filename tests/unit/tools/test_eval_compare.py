"""eval compare: two eval answers runs, the questions a change gained and lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.common.errors import InvalidInput
from tools.evaluation.compare import compare_reports


def write_run(folder: Path, dataset: str, rights: dict[str, bool]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    report = folder / f"{dataset}.json"
    report.write_text(json.dumps({"dataset": dataset}), encoding="utf-8")
    lines = [
        {
            "qid": qid,
            "type": "unanswerable" if qid.startswith("u") else "fact",
            "question": f"question {qid}",
            "right": right,
        }
        for qid, right in rights.items()
    ]
    report.with_suffix(".details.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8"
    )
    return report


def test_two_runs_give_the_scores_and_every_question_that_changed(tmp_path):
    before = write_run(tmp_path / "a", "course", {"q1": True, "q2": False, "u1": True, "u2": False})
    after = write_run(tmp_path / "b", "course", {"q1": False, "q2": True, "u1": True, "u2": True})
    [c] = compare_reports(before, after)
    assert (c.dataset, c.questions, c.right_before, c.right_after) == ("course", 4, 2, 3)
    assert (c.unanswerable, c.refused_before, c.refused_after) == (2, 1, 2)
    assert [q.qid for q in c.gained] == ["q2", "u2"] and [q.qid for q in c.lost] == ["q1"]


def test_two_folders_compare_the_datasets_they_share(tmp_path):
    write_run(tmp_path / "a", "course", {"q1": True})
    write_run(tmp_path / "a", "course_ml", {"q1": True})
    write_run(tmp_path / "b", "course", {"q1": False})
    [c] = compare_reports(tmp_path / "a", tmp_path / "b")
    assert c.dataset == "course" and [q.qid for q in c.lost] == ["q1"]


def test_runs_of_different_questions_are_refused(tmp_path):
    before = write_run(tmp_path / "a", "course", {"q1": True})
    after = write_run(tmp_path / "b", "course", {"q9": True})
    with pytest.raises(InvalidInput, match="different questions"):
        compare_reports(before, after)
    with pytest.raises(InvalidInput, match="two report files or two folders"):
        compare_reports(before, tmp_path / "b")
