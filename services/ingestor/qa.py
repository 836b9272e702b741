"""Q/A tables (CSV or JSONL) → one chunk per row: "Q: …\\nA: …".

This is the data-registration path of seed 003: a teacher uploads a table of
questions and answers. Column names are matched loosely, in English or Japanese;
an optional category column becomes the heading path.
"""

from __future__ import annotations

import csv
import io
import json

from services.common.errors import InvalidInput
from services.common.materials import Chunk
from services.ingestor.chunking import ChunkLimits, split_long

QUESTION_COLUMNS = ("question", "q", "query", "質問", "問題", "問い", "設問")
ANSWER_COLUMNS = ("answer", "a", "response", "回答", "答え", "解答", "答")
CATEGORY_COLUMNS = (
    "category",
    "topic",
    "section",
    "heading",
    "カテゴリ",
    "カテゴリー",
    "分類",
    "見出し",
)


def parse_qa_csv(text: str, filename: str, limits: ChunkLimits) -> list[Chunk]:
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",\t;")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = list(csv.reader(io.StringIO(text), dialect))
    except csv.Error as exc:
        raise InvalidInput(f"{filename!r} is not valid CSV: {exc}") from exc
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    if not rows:
        raise InvalidInput(f"{filename!r} has no rows")
    header = [_key(cell) for cell in rows[0]]
    question = _column(header, QUESTION_COLUMNS, filename, "question")
    answer = _column(header, ANSWER_COLUMNS, filename, "answer")
    category = next((header.index(c) for c in CATEGORY_COLUMNS if c in header), None)
    records = []
    for line, row in enumerate(rows[1:], start=2):

        def cell(index: int | None, row: list[str] = row) -> str:
            return row[index].strip() if index is not None and index < len(row) else ""

        records.append((f"row {line}", cell(question), cell(answer), cell(category)))
    return _chunks(records, filename, limits)


def parse_qa_jsonl(text: str, filename: str, limits: ChunkLimits) -> list[Chunk]:
    records = []
    for line_no, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{filename!r} line {line_no} is not JSON: {exc.msg}") from exc
        if not isinstance(obj, dict):
            raise InvalidInput(f"{filename!r} line {line_no} is not a JSON object")
        fields = {_key(k): v for k, v in obj.items()}
        keys = list(fields)
        q = fields[keys[_column(keys, QUESTION_COLUMNS, filename, "question", line_no)]]
        a = fields[keys[_column(keys, ANSWER_COLUMNS, filename, "answer", line_no)]]
        c = next((fields[k] for k in CATEGORY_COLUMNS if k in fields), "")
        records.append((f"line {line_no}", _str(q), _str(a), _str(c)))
    if not records:
        raise InvalidInput(f"{filename!r} has no rows")
    return _chunks(records, filename, limits)


def _key(name: str) -> str:
    return str(name).strip().lower().lstrip("\ufeff")


def _str(value: object) -> str:
    return "" if value is None else str(value).strip()


def _column(
    header: list[str], names: tuple[str, ...], filename: str, what: str, line: int | None = None
) -> int:
    for name in names:
        if name in header:
            return header.index(name)
    where = f" line {line}" if line else ""
    raise InvalidInput(
        f"{filename!r}{where} has no {what} column (found {', '.join(header) or 'none'};"
        f" expected one of {', '.join(names)})"
    )


def _chunks(
    records: list[tuple[str, str, str, str]], filename: str, limits: ChunkLimits
) -> list[Chunk]:
    chunks: list[Chunk] = []
    for where, question, answer, category in records:
        if not question and not answer:
            continue
        if not question or not answer:
            missing = "question" if not question else "answer"
            raise InvalidInput(f"{filename!r} {where}: the {missing} is empty")
        path = (category,) if category else ()
        prefix = f"Q: {question}\nA: "
        # A long answer is split; each part repeats the question so it reads on its own.
        for part in split_long(answer, max(limits.max_chars - len(prefix), limits.min_chars)):
            chunks.append(Chunk(len(chunks), prefix + part, None, path))
    return chunks
