"""Evaluations store their documents through the real ingest path: what a service stores."""

from __future__ import annotations

import pytest

from tools.evaluation.ingest_path import ingest_files

pytestmark = pytest.mark.integration

LECTURE = """# 索引

## B-tree

B-tree は範囲検索に向く。次の演算子を扱える。

- `<` と `>`
- `BETWEEN`

| 索引 | 向いている検索 |
|---|---|
| B-tree | 範囲 |
| GIN | 全文 |
"""


def test_files_go_through_the_parser_and_chunker_and_a_rerun_stores_nothing(
    db_conn, embedder, subject_id
):
    files = [
        ("02_indexes_ja.md", LECTURE.encode()),
        ("faq.csv", b"question,answer\nQ?,A.\n"),
    ]
    chunks = ingest_files(db_conn, subject_id, "eval-runner", files, embedder)
    assert {c.filename for c in chunks} == {"02_indexes_ja.md", "faq.csv"}
    lecture = [c for c in chunks if c.filename == "02_indexes_ja.md"]
    # the chunker, not one chunk per paragraph: the heading line leads and the table is kept
    assert lecture[0].text.startswith("## B-tree")
    assert any("| GIN | 全文 |" in c.text for c in lecture)
    faq = [c for c in chunks if c.filename == "faq.csv"]
    assert faq[0].text.startswith("Q: Q?")

    again = ingest_files(db_conn, subject_id, "eval-runner", files, embedder)
    assert [c.chunk_id for c in again] == [c.chunk_id for c in chunks]
    versions = db_conn.execute(
        "SELECT count(*) FROM materials WHERE subject_id = %s", (subject_id,)
    ).fetchone()[0]
    assert versions == 2
