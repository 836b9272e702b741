"""Ingestion through the real broker into the real database."""

from __future__ import annotations

import dataclasses
import time
import uuid
from pathlib import Path

import pytest

from services.common import db
from services.common.events import ChunksStored, IngestJob
from services.common.ids import ingest_key, sha256_hex
from services.common.kafka_io import now_ms
from services.common.materials import enroll, ensure_subject
from services.sdk import Client
from tests.office_files import slides, word_notes, workbook
from tests.open_documents import NOTES_ODT, SHEETS_ODS, SLIDES_ODP
from tools.replay import dead_letters

pytestmark = pytest.mark.integration
DEMO = Path(__file__).resolve().parents[3] / "demo" / "stats101"


@pytest.fixture
def course(pipeline, subject_id) -> str:
    with db.connect(pipeline.db) as conn:
        ensure_subject(conn, subject_id)
        enroll(conn, subject_id, "t1", "teacher")
        conn.commit()
    return subject_id


def ingest(pipeline, subject: str, files: list[Path], user: str = "t1"):
    jobs = [
        pipeline.client.upload_and_ingest(f, subject, user, storage=pipeline.storage, flush=False)
        for f in files
    ]
    pipeline.client.publisher.flush()
    outcomes = {
        o.idempotency_key: o
        for o in pipeline.client.wait_for_ingest({j.idempotency_key for j in jobs}, 300)
    }
    return [outcomes[j.idempotency_key] for j in jobs]


def rows(pipeline, query: str, *params):
    with db.connect(pipeline.db) as conn:
        return conn.execute(query, params).fetchall()


def test_markdown_pdf_and_text_are_stored_with_pages_headings_and_vectors(pipeline, course):
    files = [
        DEMO / "01_descriptive_statistics_ja.md",
        DEMO / "04_worked_examples.pdf",
        DEMO / "05_sampling_ja.txt",
    ]
    outcomes = ingest(pipeline, course, files)
    assert [o.status for o in outcomes] == ["STORED"] * 3, [o.error for o in outcomes]
    assert all(o.chunk_count > 0 and o.material_id for o in outcomes)
    md, pdf, txt = outcomes
    md_rows = rows(
        pipeline,
        "SELECT heading_path, vector_dims(embedding) FROM chunks WHERE material_id = %s",
        md.material_id,
    )
    assert any(len(h) >= 2 for h, _ in md_rows), "markdown sections keep their heading path"
    assert {d for _, d in md_rows} == {512}
    pages = rows(
        pipeline,
        "SELECT DISTINCT page FROM chunks WHERE material_id = %s ORDER BY 1",
        pdf.material_id,
    )
    assert len(pages) >= 2 and None not in {p for (p,) in pages}, "PDF chunks keep page numbers"
    assert rows(pipeline, "SELECT embedder, dimension FROM embedding_space") == [("use-m3", 512)]
    txt_rows = rows(
        pipeline, "SELECT heading_path FROM chunks WHERE material_id = %s", txt.material_id
    )
    assert len(txt_rows) == txt.chunk_count
    title = "第4回 標本と推定（講義メモ）"  # the text file's short first paragraph
    assert {tuple(h) for (h,) in txt_rows} == {(title,)}
    assert rows(
        pipeline, "SELECT title FROM materials WHERE material_id = %s", txt.material_id
    ) == [(title,)]


def test_office_files_are_stored_with_sections_slides_sheets_and_vectors(
    pipeline, course, tmp_path
):
    note, deck, book = tmp_path / "lecture3.docx", tmp_path / "lecture5.pptx", tmp_path / "c.xlsx"
    note.write_bytes(word_notes())
    deck.write_bytes(slides())
    book.write_bytes(workbook())
    word, powerpoint, excel = outcomes = ingest(pipeline, course, [note, deck, book])
    assert [o.status for o in outcomes] == ["STORED"] * 3, [o.error for o in outcomes]
    table = rows(
        pipeline,
        "SELECT heading_path, vector_dims(embedding) FROM chunks"
        " WHERE material_id = %s AND text LIKE '%%| GIN |%%'",
        word.material_id,
    )
    assert table == [(["データベース論 第3回", "索引の種類"], 512)]
    pages = rows(
        pipeline,
        "SELECT page, heading_path FROM chunks WHERE material_id = %s ORDER BY page",
        powerpoint.material_id,
    )
    assert [p for p, _ in pages] == [1, 2, 3, 4, 5, 6]
    assert pages[1][1] == ["Vector search", "HNSW parameters"]
    assert rows(
        pipeline, "SELECT title FROM materials WHERE material_id = %s", powerpoint.material_id
    ) == [("Vector search",)]
    sheets = rows(
        pipeline,
        "SELECT heading_path FROM chunks WHERE material_id = %s ORDER BY ordinal",
        excel.material_id,
    )
    assert sheets == [(["試験"],), (["課題"],), (["授業計画"],)]


def test_open_documents_are_stored_with_sections_slides_sheets_and_vectors(
    pipeline, course, tmp_path
):
    files = [tmp_path / "db03.odt", tmp_path / "lecture07.odp", tmp_path / "faq.ods"]
    for path, data in zip(files, (NOTES_ODT, SLIDES_ODP, SHEETS_ODS), strict=True):
        path.write_bytes(data)
    text, deck, book = outcomes = ingest(pipeline, course, files)
    assert [o.status for o in outcomes] == ["STORED"] * 3, [o.error for o in outcomes]
    assert rows(
        pipeline,
        "SELECT m.title, m.mime_type, vector_dims(c.embedding) FROM chunks c"
        " JOIN materials m USING (material_id) WHERE material_id = %s AND c.text LIKE '%%```%%'",
        text.material_id,
    ) == [("データベース 第3回", "application/vnd.oasis.opendocument.text", 512)]
    pages = rows(
        pipeline, "SELECT DISTINCT page FROM chunks WHERE material_id = %s", deck.material_id
    )
    assert sorted(p for (p,) in pages) == [1, 3]  # slide 2 is hidden
    sheets = rows(
        pipeline,
        "SELECT heading_path, text FROM chunks WHERE material_id = %s ORDER BY ordinal",
        book.material_id,
    )
    assert "追試はありますか" in sheets[0][1]  # a Q/A row
    assert sheets[1][0] == ["集計"] and "| A | 8.1 |" in sheets[1][1]
    assert len(sheets) == 2  # the hidden sheet is not read


LATEX_NOTES = r"""\documentclass{ltjsarticle}
\title{分散システム 第3回}
\begin{document}
\section{クォーラム}
読み取りと書き込みのクォーラムは\textbf{必ず重なる}ように選ぶ。
\[ R + W > N \]
\end{document}
"""
LAB_CODE = '''"""演習5 の Web サービス。"""

RATE_LIMIT = 20


def handle(request):
    return 200
'''


def test_latex_notes_and_source_files_are_stored_with_their_headings(pipeline, course, tmp_path):
    notes, code = tmp_path / "lec03.tex", tmp_path / "app.py"
    notes.write_text(LATEX_NOTES, encoding="utf-8")
    code.write_text(LAB_CODE, encoding="utf-8")
    latex, source = outcomes = ingest(pipeline, course, [notes, code])
    assert [o.status for o in outcomes] == ["STORED"] * 2, [o.error for o in outcomes]
    assert rows(
        pipeline,
        "SELECT m.title, m.mime_type, c.heading_path FROM chunks c"
        " JOIN materials m USING (material_id) WHERE material_id = %s",
        latex.material_id,
    ) == [("分散システム 第3回", "application/x-tex", ["分散システム 第3回", "クォーラム"])]
    headed = rows(
        pipeline,
        "SELECT heading_path, text FROM chunks WHERE material_id = %s ORDER BY ordinal",
        source.material_id,
    )
    named = "app.py: 演習5 の Web サービス。"  # the file, with its docstring's first line
    assert [h for h, _ in headed] == [[named], [named, "def handle(request)"]]
    assert "```python\ndef handle(request):\n    return 200\n```" in headed[1][1]


def test_the_same_job_three_times_stores_one_material(pipeline, course, tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# 分散\n\n分散とは、偏差の二乗の平均である。\n", encoding="utf-8")
    job = pipeline.client.upload_and_ingest(path, course, "t1", storage=pipeline.storage)
    for _ in range(2):
        pipeline.client.publish_ingest_job(job)
    outcome = next(pipeline.client.wait_for_ingest({job.idempotency_key}, 120))
    assert outcome.status in ("STORED", "DUPLICATE")
    deadline = time.monotonic() + 60
    while (
        time.monotonic() < deadline
        and rows(
            pipeline,
            "SELECT attempts FROM ingest_jobs WHERE idempotency_key = %s",
            job.idempotency_key,
        )[0][0]
        < 3
    ):
        time.sleep(0.2)  # the two extra deliveries are acknowledged in the jobs table
    materials = rows(pipeline, "SELECT material_id FROM materials WHERE subject_id = %s", course)
    assert len(materials) == 1
    assert (
        rows(pipeline, "SELECT count(*) FROM chunks WHERE material_id = %s", materials[0][0])[0][0]
        == outcome.chunk_count
    )


def test_a_changed_file_becomes_a_new_version_and_deactivates_the_old(pipeline, course, tmp_path):
    path = tmp_path / "week1.md"
    path.write_text("# Week 1\n\nThe mean is the sum divided by the count.\n", encoding="utf-8")
    (first,) = ingest(pipeline, course, [path])
    path.write_text(
        "# Week 1\n\nThe mean is the sum divided by the count.\n\n"
        "The median is the middle value.\n",
        encoding="utf-8",
    )
    (second,) = ingest(pipeline, course, [path])
    assert (first.version, second.version) == (1, 2)
    active = rows(
        pipeline,
        "SELECT material_id, version FROM materials WHERE subject_id = %s AND is_active",
        course,
    )
    assert active == [(uuid.UUID(second.material_id), 2)]
    assert rows(
        pipeline, "SELECT bool_or(is_active) FROM chunks WHERE material_id = %s", first.material_id
    ) == [(False,)]


def test_a_new_version_reuses_the_vectors_of_its_unchanged_chunks(pipeline, course, tmp_path):
    path = tmp_path / "week2.md"
    mean = "## Mean\n\nThe mean is the sum of the values divided by how many values there are.\n"
    path.write_text(f"# Week 2\n\n{mean}\n## Median\n\nThe median is the middle value.\n")
    (first,) = ingest(pipeline, course, [path])
    path.write_text(f"# Week 2\n\n{mean}\n## Median\n\nThe median halves the sorted data.\n")
    (second,) = ingest(pipeline, course, [path])
    assert (first.status, second.status, second.version) == ("STORED", "STORED", 2), second.error
    vectors = rows(
        pipeline,
        "SELECT c.material_id, c.embedding::text FROM chunks c"
        " WHERE c.material_id IN (%s, %s) AND c.text LIKE '%%sum of the values%%'",
        first.material_id,
        second.material_id,
    )
    assert len(vectors) == 2 and vectors[0][1] == vectors[1][1]


def test_a_file_uploaded_after_every_version_was_deactivated_is_the_next_version(
    pipeline, course, tmp_path
):
    path = tmp_path / "week4.md"
    path.write_text("# Week 4\n\nA sample is part of a population.\n")
    (first,) = ingest(pipeline, course, [path])
    with db.connect(pipeline.db) as conn:
        conn.execute(
            "UPDATE materials SET is_active = false WHERE material_id = %s", (first.material_id,)
        )
        conn.commit()
    path.write_text("# Week 4\n\nA sample is a part of the population that is observed.\n")
    (second,) = ingest(pipeline, course, [path])
    assert (second.status, second.version) == ("STORED", 2), second.error
    assert rows(
        pipeline,
        "SELECT version, is_active FROM materials WHERE subject_id = %s ORDER BY version",
        course,
    ) == [(1, False), (2, True)]


def test_a_reread_never_brings_back_a_version_taken_out_of_search(pipeline, course, tmp_path):
    path = tmp_path / "week3.md"
    path.write_text("# Week 3\n\nThe variance is the mean squared deviation.\n")
    job = pipeline.client.upload_and_ingest(path, course, "t1", storage=pipeline.storage)
    (stored,) = pipeline.client.wait_for_ingest({job.idempotency_key}, 120)

    def reread() -> ChunksStored:
        again = dataclasses.replace(
            job, job_id=str(uuid.uuid4()), idempotency_key=f"reread:{uuid.uuid4()}", reread=True
        )
        pipeline.client.publish_ingest_job(again)
        return next(pipeline.client.wait_for_ingest({again.idempotency_key}, 120))

    assert (reread().status, stored.status) == ("DUPLICATE", "STORED")  # same parser, same chunks
    with db.connect(pipeline.db) as conn:
        conn.execute(
            "UPDATE materials SET is_active = false WHERE material_id = %s", (stored.material_id,)
        )
        conn.commit()
    refused = reread()
    assert refused.status == "FAILED" and "no longer the active one" in refused.error
    assert rows(
        pipeline, "SELECT count(*), bool_or(is_active) FROM materials WHERE subject_id = %s", course
    ) == [(1, False)]


BAD_FILES = {
    "empty.md": (b"", "empty"),
    "virus.exe": (b"MZ\x90\x00\x03\x00\x00\x00binary", "unsupported"),
    "broken.pdf": (b"%PDF-1.4\n1 0 obj <</Type /Catalog>> garbage without xref", "pdf"),
    "grades.xlsx": (b"PK\x03\x04 a damaged container", "zip"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_files_fail_readably_and_store_nothing(pipeline, course, tmp_path, name):
    data, word = BAD_FILES[name]
    path = tmp_path / name
    path.write_bytes(data)
    (outcome,) = ingest(pipeline, course, [path])
    assert outcome.status == "FAILED" and word in outcome.error.lower(), outcome.error
    assert rows(pipeline, "SELECT count(*) FROM materials WHERE subject_id = %s", course) == [(0,)]


def test_oversized_file_fails(pipeline, course, tmp_path):
    path = tmp_path / "huge.txt"
    path.write_bytes(b"statistics " * (21 * 1024 * 1024 // 11 + 1))
    (outcome,) = ingest(pipeline, course, [path])
    assert outcome.status == "FAILED" and "limit" in outcome.error.lower(), outcome.error


def test_unknown_subject_and_unenrolled_user_fail(pipeline, course, tmp_path):
    path = tmp_path / "a.md"
    path.write_text("# A\n\ntext about variance\n", encoding="utf-8")
    (unknown,) = ingest(pipeline, "no-such-subject-" + uuid.uuid4().hex[:6], [path])
    assert unknown.status == "FAILED" and "unknown subject" in unknown.error
    (stranger,) = ingest(pipeline, course, [path], user="stranger")
    assert stranger.status == "FAILED" and "not enrolled" in stranger.error


def test_missing_blob_fails_and_undecodable_bytes_go_to_the_dlq(pipeline, course, tmp_path):
    data = b"# Ghost\n\nthis blob was never uploaded\n"
    job = IngestJob(
        job_id=str(uuid.uuid4()),
        idempotency_key=ingest_key(course, data),
        subject_id=course,
        user_id="t1",
        blob_uri=f"gs://{pipeline.storage.gcs_bucket}/{course}/missing/ghost.md",
        filename="ghost.md",
        mime_type="text/markdown",
        sha256=sha256_hex(data),
        size_bytes=len(data),
        submitted_at_ms=now_ms(),
    )
    pipeline.client.publish_ingest_job(job)
    topic = pipeline.kafka.eduanima_topic_prefix + "ingest.jobs"
    key = f"garbage-{uuid.uuid4().hex[:6]}"
    pipeline.client.publisher.producer.produce(
        topic, key=key.encode(), value=b"\x00not avro at all"
    )
    pipeline.client.publisher.flush()
    outcome = next(pipeline.client.wait_for_ingest({job.idempotency_key}, 120))
    assert outcome.status == "FAILED" and "not found" in outcome.error
    # the consumer kept going: a good file after the garbage is stored
    good = tmp_path / "after.md"
    good.write_text(
        "# After\n\nThe standard deviation is the square root of the variance.\n", encoding="utf-8"
    )
    (after,) = ingest(pipeline, course, [good])
    assert after.status == "STORED"
    letters = [r for r in dead_letters("ingest.jobs", pipeline.kafka) if r["key"] == key]
    assert len(letters) == 1
    assert letters[0]["headers"]["error.class"] == "AvroDecodeError"
    assert letters[0]["value"] == b"\x00not avro at all"


@pytest.mark.slow
def test_sigkill_with_50_files_in_flight_loses_and_duplicates_nothing(
    service_processes, isolated_kafka, db_settings, storage_settings, tmp_path, subject_id
):
    with db.connect(db_settings) as conn:
        ensure_subject(conn, subject_id)
        enroll(conn, subject_id, "t1", "teacher")
        conn.commit()
    client = Client(isolated_kafka)
    files = []
    for i in range(50):
        path = tmp_path / f"lecture-{i:02d}.md"
        path.write_text(
            f"# Lecture {i}\n\nTopic number {i} covers estimator {i * 7} in detail.\n\n"
            f"## Part two\n\nMore about case {i} and its variance {i * 3}.\n",
            encoding="utf-8",
        )
        files.append(path)
    jobs = [
        client.upload_and_ingest(p, subject_id, "t1", storage=storage_settings, flush=False)
        for p in files
    ]
    client.publisher.flush()
    service_processes.start("ingestor")
    first = []
    for outcome in client.wait_for_ingest({j.idempotency_key for j in jobs}, 300):
        first.append(outcome)
        if len(first) >= 5:
            break
    service_processes.kill("ingestor")
    service_processes.start("ingestor")
    outcomes = {
        o.idempotency_key: o for o in client.wait_for_ingest({j.idempotency_key for j in jobs}, 600)
    }
    assert len(outcomes) == 50
    assert {o.status for o in outcomes.values()} <= {"STORED", "DUPLICATE"}
    with db.connect(db_settings) as conn:
        per_file = conn.execute(
            "SELECT filename, count(*) FROM materials WHERE subject_id = %s GROUP BY filename",
            (subject_id,),
        ).fetchall()
        orphans = conn.execute(
            "SELECT count(*) FROM chunks c WHERE c.subject_id = %s AND NOT EXISTS"
            " (SELECT 1 FROM materials m WHERE m.material_id = c.material_id)",
            (subject_id,),
        ).fetchone()[0]
    assert sorted(per_file) == sorted((f.name, 1) for f in files)
    assert orphans == 0
