"""Tables (CSV, JSONL, spreadsheet sheets) → chunks.

A table whose header names a question and an answer column is the data-registration
path of seed 003: one chunk per row, "Q: …\\nA: …". Column names are matched loosely,
in English or Japanese; an optional category column becomes the heading path. Any other
table (a schedule, a grading scheme, measurements) is kept as a table: GFM rows that the
chunker splits at row boundaries, each part repeating the header.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Sequence

from services.common.errors import InvalidInput
from services.common.materials import Chunk
from services.ingestor.chunking import Block, ChunkLimits, chunk_blocks, split_long
from services.ingestor.markdown import markdown_table

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


def parse_csv(
    text: str, filename: str, limits: ChunkLimits, heading: tuple[str, ...] = ()
) -> list[Chunk]:
    try:
        rows = list(csv.reader(io.StringIO(text), csv.excel, delimiter=_delimiter(text[:4096])))
    except csv.Error as exc:
        raise InvalidInput(f"{filename!r} is not valid CSV: {exc}") from exc
    if not any(cell.strip() for row in rows for cell in row):
        raise InvalidInput(f"{filename!r} has no rows")
    return table_chunks(rows, filename, limits, heading)


def _delimiter(sample: str) -> str:
    """The delimiter (comma, tab or semicolon) that cuts the sample's rows into the same
    number of columns most often. Quoting is always the standard double quote: guessing it
    (``csv.Sniffer``) took the apostrophes of "'<' and '>'" for quotes and cut a row's
    answer at its first comma."""
    best, most = ",", 0
    for delimiter in ",\t;":
        rows = [r for r in csv.reader(io.StringIO(sample), delimiter=delimiter) if r]
        rows = rows[:-1] or rows  # the sample may end inside its last row
        width, count = Counter(len(r) for r in rows).most_common(1)[0] if rows else (0, 0)
        if width > 1 and count > most:
            best, most = delimiter, count
    return best


def table_chunks(
    rows: Sequence[Sequence[str]], where: str, limits: ChunkLimits, heading: tuple[str, ...] = ()
) -> list[Chunk]:
    """Q/A chunks when the first row names a question and an answer column, else the
    table's rows under ``heading``. ``where`` names the table in errors."""
    numbered = [(n, row) for n, row in enumerate(rows, start=1) if any(c.strip() for c in row)]
    header = [_key(cell) for cell in numbered[0][1]]
    question = next((header.index(c) for c in QUESTION_COLUMNS if c in header), None)
    answer = next((header.index(c) for c in ANSWER_COLUMNS if c in header), None)
    if question is None or answer is None:
        table = "\n".join(markdown_table([row for _, row in numbered]))
        return chunk_blocks([Block(table, heading)], limits)
    category = next((header.index(c) for c in CATEGORY_COLUMNS if c in header), None)
    records = []
    for line, row in numbered[1:]:

        def cell(index: int | None, row: Sequence[str] = row) -> str:
            return row[index].strip() if index is not None and index < len(row) else ""

        records.append((f"row {line}", cell(question), cell(answer), cell(category)))
    return _chunks(records, where, limits)


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
