"""Two `eval answers` runs side by side: what a change gained and lost, question by question.

A run writes its report (``--out``, JSON) and, beside it, one line per question
(``*.details.jsonl``). Given two reports of one dataset, or two folders of reports (each
dataset under the same file name), this says per dataset the strict score before and after,
the unanswerable questions refused, and every question whose outcome changed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from services.common.errors import InvalidInput


@dataclass(frozen=True)
class Changed:
    qid: str
    type: str
    question: str


@dataclass(frozen=True)
class Comparison:
    dataset: str
    questions: int
    right_before: int
    right_after: int
    unanswerable: int
    refused_before: int
    refused_after: int
    gained: list[Changed]
    lost: list[Changed]


def compare_reports(before: Path, after: Path) -> list[Comparison]:
    """One comparison for two reports, or one per report name the two folders share."""
    if before.is_dir() != after.is_dir():
        raise InvalidInput("give two report files or two folders of reports, not one of each")
    if not before.is_dir():
        return [compare_runs(before, after)]
    names = sorted(
        p.name for p in before.glob("*.json") if (after / p.name).is_file() and _has_details(p)
    )
    if not names:
        raise InvalidInput(f"{before} and {after} share no eval answers report")
    return [compare_runs(before / name, after / name) for name in names]


def compare_runs(before: Path, after: Path) -> Comparison:
    old, new = _details(before), _details(after)
    if old.keys() != new.keys():
        raise InvalidInput(
            f"{before} and {after} asked different questions: compare runs of one dataset"
        )
    unanswerable = [q for q, d in new.items() if d["type"] == "unanswerable"]

    def changed(was: bool) -> list[Changed]:
        return [
            Changed(q, new[q]["type"], new[q]["question"])
            for q in new
            if old[q]["right"] == was and new[q]["right"] != was
        ]

    return Comparison(
        dataset=_dataset_name(after),
        questions=len(new),
        right_before=sum(d["right"] for d in old.values()),
        right_after=sum(d["right"] for d in new.values()),
        unanswerable=len(unanswerable),
        refused_before=sum(old[q]["right"] for q in unanswerable),
        refused_after=sum(new[q]["right"] for q in unanswerable),
        gained=changed(False),
        lost=changed(True),
    )


def _has_details(report: Path) -> bool:
    return report.with_suffix(".details.jsonl").is_file()


def _details(report: Path) -> dict[str, dict]:
    path = report.with_suffix(".details.jsonl")
    if not path.is_file():
        raise InvalidInput(f"no {path.name} beside {report}: is it an eval answers report?")
    rows: dict[str, dict] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            row = json.loads(line)
            rows[row["qid"]] = {k: row[k] for k in ("type", "question", "right")}
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise InvalidInput(f"{path}:{number}: not an eval answers detail ({exc})") from exc
    return rows


def _dataset_name(report: Path) -> str:
    try:
        return json.loads(report.read_text(encoding="utf-8"))["dataset"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError):
        return report.stem
