"""``eduanima eval check DIR``: is a course eval set well formed and answerable by quoting?

A course set is ``materials/`` (the files a teacher would upload) and ``queries.jsonl``
(and optionally ``identifiers.jsonl``) with ``qid``, ``question``, ``type``, ``answers``
(gold keys) and ``gold_materials``. Besides field types and unique ids, every gold
key must occur in the text a reader of a gold material sees: the file as the ingest
path parses it (PDF text layer, HTML without tags, CSV rows), with Markdown markers
and blank runs removed. A key that no chunk holds could never be quoted.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from services.ingestor.stages import parse_material
from services.reasoning.extractive.markdown import plain_text
from tools.evaluation.answers import normalised

FIELDS = {"qid": str, "question": str, "type": str, "answers": list, "gold_materials": list}


@dataclass
class CheckReport:
    questions: Counter = field(default_factory=Counter)  # per file: type counts
    material_bytes: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def material_texts(folder: Path) -> dict[str, str]:
    """Filename -> what a reader sees of it, as one normalised string."""
    texts = {}
    for path in sorted(folder.iterdir()):
        if path.is_file():
            parsed = parse_material(path.read_bytes(), path.name)
            texts[path.name] = normalised("\n".join(plain_text(c.text) for c in parsed.chunks))
    return texts


def check_course_set(folder: Path) -> CheckReport:
    report = CheckReport()
    materials = folder / "materials"
    if not materials.is_dir():
        report.errors.append(f"{materials} is missing")
        return report
    report.material_bytes = {p.name: p.stat().st_size for p in sorted(materials.iterdir())}
    texts = material_texts(materials)
    seen: set[str] = set()
    for name in ("queries.jsonl", "identifiers.jsonl"):
        path = folder / name
        if not path.is_file():
            if name == "queries.jsonl":
                report.errors.append(f"{path} is missing")
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                _check_row(f"{name}:{number}", line, texts, seen, report)
    return report


def _check_row(where: str, line: str, texts: dict[str, str], seen: set[str], report) -> None:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        report.errors.append(f"{where}: not JSON ({exc})")
        return
    wrong = [k for k, kind in FIELDS.items() if not isinstance(row.get(k), kind)]
    if wrong:
        report.errors.append(f"{where}: missing or mistyped field(s) {', '.join(wrong)}")
        return
    if row["qid"] in seen:
        report.errors.append(f"{where}: duplicate qid {row['qid']}")
    seen.add(row["qid"])
    report.questions[f"{where.split(':')[0]}:{row['type']}"] += 1
    answers, gold = row["answers"], row["gold_materials"]
    if row["type"] == "unanswerable":
        if answers or gold:
            report.errors.append(f"{where}: an unanswerable question has no keys and no gold")
        return
    if not answers or not gold:
        report.errors.append(f"{where}: an answerable question needs keys and gold materials")
        return
    missing = [g for g in gold if g not in texts]
    if missing:
        report.errors.append(f"{where}: unknown gold material(s) {', '.join(missing)}")
        return
    unquotable = [a for a in answers if not any(normalised(a) in texts[g] for g in gold)]
    if unquotable:
        report.errors.append(f"{where}: key(s) no gold material holds: {unquotable}")
