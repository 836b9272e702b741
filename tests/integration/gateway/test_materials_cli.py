"""`eduanima materials …` and `eduanima unanswered` against the real stack (acceptance 2):
the CLI goes through the gateway (real HTTP) with the user's token, the ingestor and the
loop run on the real broker and database, files sit in the GCS emulator."""

from __future__ import annotations

import json
import uuid

import pytest
from typer.testing import CliRunner

from services.cli import app as cli
from services.common import db
from services.common.blobstore import BlobStore
from services.common.events import MaterialChanged
from services.common.kafka_io import codec_for, make_consumer, read_to_end
from services.common.materials import enroll, ensure_subject
from services.searcher.engine import SearchQuery, search
from topics.registry import MATERIALS_CHANGES, full_name

pytestmark = pytest.mark.integration


@pytest.fixture
def course(pipeline, subject_id) -> str:
    with db.connect(pipeline.db) as conn:
        ensure_subject(conn, subject_id, "Sampling")
        enroll(conn, subject_id, "teacher-1", "teacher")
        enroll(conn, subject_id, "student-1", "student")
        conn.commit()
    return subject_id


def run(gateway, user: str, *args: str, ok: bool = True):
    result = CliRunner().invoke(
        cli, [*args, "--gateway", gateway.url, "--token", gateway.token(user)]
    )
    if ok:
        assert result.exit_code == 0, result.output
    return result


def run_json(gateway, user: str, *args: str):
    return json.loads(run(gateway, user, *args, "--json").stdout)


def material_changes(settings, subject: str) -> list[MaterialChanged]:
    topic = full_name(MATERIALS_CHANGES, settings.eduanima_topic_prefix)
    consumer = make_consumer(settings, f"test-{uuid.uuid4()}")
    codec = codec_for(settings)
    try:
        events = [
            codec.decode(MaterialChanged, m.value(), m.topic(), m.partition(), m.offset())
            for m in read_to_end(consumer, topic, give_up_after_s=10)
        ]
    finally:
        consumer.close()
    return [e for e in events if e.subject_id == subject]


def chunk_ids_found(pipeline, subject: str, user: str, query: str) -> set[str]:
    with db.connect(pipeline.db) as conn:
        outcome = search(conn, SearchQuery(subject, user, [query], query, mode="bm25"), None)
    return {str(c.material_id) for c in outcome.candidates}


def test_a_folder_uploads_its_material_files_and_none_of_the_environment_beside_them(
    live_gateway, pipeline, course, tmp_path
):
    lab = tmp_path / "lab3"
    (lab / ".venv" / "lib").mkdir(parents=True)
    (lab / ".venv" / "lib" / "flask.py").write_text("def route(): pass\n")
    (lab / "notes.md").write_text("# 演習3\n\n貸出の上限は1人5冊である。\n")
    (lab / "app.py").write_text('"""貸出 API。"""\n\nMAX_LOANS = 5\n')
    result = run(live_gateway, "teacher-1", "materials", "upload", str(lab), "-s", course, "--wait")
    assert "flask.py" not in result.output
    listing = run_json(live_gateway, "teacher-1", "materials", "list", "-s", course)
    stored = {(m["filename"], m["ingest_status"]) for m in listing["materials"]}
    assert stored == {("app.py", "STORED"), ("notes.md", "STORED")}


def test_materials_commands_list_history_deactivate_delete(
    live_gateway, pipeline, course, tmp_path
):
    marker = f"zq{uuid.uuid4().hex[:6]}"
    path = tmp_path / "sampling.md"
    path.write_text(f"# 標本\n\n層化抽出とは母集団を層に分けて抽出する方法である。{marker}\n")
    run(live_gateway, "teacher-1", "materials", "upload", str(path), "-s", course, "--wait")
    path.write_text(
        f"# 標本\n\n層化抽出とは母集団を層に分け、各層から抽出する方法である。{marker}\n"
    )
    run(live_gateway, "teacher-1", "materials", "upload", str(path), "-s", course, "--wait")

    listing = run_json(live_gateway, "teacher-1", "materials", "list", "-s", course)
    (doc,) = listing["materials"]
    assert (doc["filename"], doc["version"], doc["versions"], doc["is_active"]) == (
        "sampling.md",
        2,
        2,
        True,
    )
    assert doc["chunk_count"] >= 1 and doc["ingest_status"] == "STORED"
    history = run_json(live_gateway, "teacher-1", "materials", "history", doc["material_id"])
    assert [(v["version"], v["is_active"]) for v in history] == [(2, True), (1, False)]
    v1 = history[1]["material_id"]

    # a student may neither deactivate nor delete it (exit 1, 403), and sees it unchanged
    refused = run(
        live_gateway, "student-1", "materials", "deactivate", doc["material_id"], ok=False
    )
    assert refused.exit_code == 1 and "403" in refused.output
    assert chunk_ids_found(pipeline, course, "student-1", marker) == {doc["material_id"]}

    off = run_json(live_gateway, "teacher-1", "materials", "deactivate", doc["material_id"])
    assert off["is_active"] is False
    assert chunk_ids_found(pipeline, course, "student-1", marker) == set()
    on = run_json(live_gateway, "teacher-1", "materials", "reactivate", v1)
    assert (on["version"], on["is_active"]) == (1, True)
    assert chunk_ids_found(pipeline, course, "student-1", marker) == {v1}

    with db.connect(pipeline.db) as conn:
        blobs = [
            r[0]
            for r in conn.execute(
                "SELECT blob_uri FROM materials WHERE material_key = %s", (doc["material_key"],)
            )
        ]
    store = BlobStore(pipeline.storage)
    assert len(blobs) == 2 and all(store.exists(uri) for uri in blobs)
    deleted = run_json(live_gateway, "teacher-1", "materials", "delete", v1, "--yes")
    assert len(deleted["deleted_versions"]) == 2 and deleted["deleted_blobs"] == 2
    assert chunk_ids_found(pipeline, course, "teacher-1", marker) == set()
    assert not any(store.exists(uri) for uri in blobs)
    with db.connect(pipeline.db) as conn:
        left = conn.execute(
            "SELECT (SELECT count(*) FROM materials WHERE material_key = %s),"
            " (SELECT count(*) FROM chunks c WHERE c.subject_id = %s)",
            (doc["material_key"], course),
        ).fetchone()
    assert left == (0, 0)
    assert run_json(live_gateway, "teacher-1", "materials", "list", "-s", course)["materials"] == []

    # who changed what, on materials.changes
    changes = material_changes(pipeline.kafka, course)
    assert [(c.action, c.version, c.user_id) for c in changes] == [
        ("STORED", 1, "teacher-1"),
        ("STORED", 2, "teacher-1"),
        ("DEACTIVATED", 2, "teacher-1"),
        ("REACTIVATED", 1, "teacher-1"),
        ("DELETED", 1, "teacher-1"),
        ("DELETED", 2, "teacher-1"),
    ]


def test_reread_stores_a_new_version_only_where_todays_parser_chunks_differently(
    live_gateway, pipeline, course, tmp_path
):
    path = tmp_path / "indexes.md"
    path.write_text("# 索引\n\n測定結果を次に示す。\n方式 | recall\n--- | ---\nHNSW | 0.98\n")
    run(live_gateway, "teacher-1", "materials", "upload", str(path), "-s", course, "--wait")
    (doc,) = run_json(live_gateway, "teacher-1", "materials", "list", "-s", course)["materials"]
    # as a parser from before tables without outer pipes got them stored it
    with db.connect(pipeline.db) as conn:
        conn.execute(
            "UPDATE chunks SET text = regexp_replace(text, '^\\| (.*) \\|$', '\\1', 'gn')"
            " WHERE material_id = %s",
            (doc["material_id"],),
        )
        conn.commit()

    refused = run(live_gateway, "student-1", "materials", "reread", doc["material_id"], ok=False)
    assert refused.exit_code == 1 and "403" in refused.output

    reread = run(live_gateway, "teacher-1", "materials", "reread", "-s", course, "--wait")
    assert "1 material(s)" in reread.output and "indexes.md: STORED" in reread.output
    history = run_json(live_gateway, "teacher-1", "materials", "history", doc["material_id"])
    assert [(v["version"], v["is_active"]) for v in history] == [(2, True), (1, False)]
    with db.connect(pipeline.db) as conn:
        (text,) = conn.execute(
            "SELECT text FROM chunks WHERE material_id = %s", (history[0]["material_id"],)
        ).fetchone()
    assert "| HNSW | 0.98 |" in text

    # read again, today's parser makes the same chunks: nothing new is stored
    again = run(
        live_gateway, "teacher-1", "materials", "reread", history[0]["material_id"], "--wait"
    )
    assert "indexes.md: DUPLICATE" in again.output
    history = run_json(live_gateway, "teacher-1", "materials", "history", doc["material_id"])
    assert len(history) == 2
    stale = run(
        live_gateway, "teacher-1", "materials", "reread", history[1]["material_id"], ok=False
    )
    assert stale.exit_code == 1 and "not the active one" in stale.output


def test_an_operator_rereads_a_subjects_materials_each_as_its_owner(
    live_gateway, pipeline, course, tmp_path
):
    shared, note = tmp_path / "indexes.md", tmp_path / "my-notes.md"
    shared.write_text("# 索引\n\n測定結果を次に示す。\n方式 | recall\n--- | ---\nHNSW | 0.98\n")
    note.write_text("# メモ\n\n索引は検索を速くする。\n")
    gone = tmp_path / "gone.md"
    gone.write_text("# 消えた原本\n\nこの原本はストレージから消されている。\n")
    for path in (shared, gone):
        run(live_gateway, "teacher-1", "materials", "upload", str(path), "-s", course, "--wait")
    run(
        live_gateway, "student-1", "materials", "upload", str(note), "-s", course, "--private",
        "--wait",
    )  # fmt: skip
    with db.connect(pipeline.db) as conn:  # as a parser before piped tables stored it
        (gone_uri,) = conn.execute(
            "SELECT blob_uri FROM materials WHERE subject_id = %s AND filename = 'gone.md'",
            (course,),
        ).fetchone()
        conn.execute(
            "UPDATE chunks SET text = regexp_replace(text, '^\\| (.*) \\|$', '\\1', 'gn')"
            " WHERE subject_id = %s",
            (course,),
        )
        conn.commit()
    operator_env = {
        "KAFKA_BOOTSTRAP_SERVERS": pipeline.kafka.kafka_bootstrap_servers,
        "EDUANIMA_TOPIC_PREFIX": pipeline.kafka.eduanima_topic_prefix,
        "DATABASE_URL": pipeline.db.database_url.get_secret_value(),
        "STORAGE_EMULATOR_HOST": pipeline.storage.storage_emulator_host or "",
        "GCS_BUCKET": pipeline.storage.gcs_bucket,
    }

    assert BlobStore(pipeline.storage).delete(gone_uri)

    result = CliRunner().invoke(cli, ["db", "reread", "-s", course, "--wait"], env=operator_env)

    assert result.exit_code == 1, result.output  # one original could not be read again
    assert "not read again:" in result.output and "gone.md" in result.output
    assert "published 2 re-read job(s)" in result.output  # the others, of this subject only
    assert "indexes.md" in result.output and "STORED" in result.output
    assert "my-notes.md" in result.output and "DUPLICATE" in result.output
    with db.connect(pipeline.db) as conn:
        rows = conn.execute(
            "SELECT filename, version, owner_id, visibility FROM materials"
            " WHERE subject_id = %s AND is_active ORDER BY filename",
            (course,),
        ).fetchall()
        (text,) = conn.execute(
            "SELECT c.text FROM chunks c JOIN materials m USING (material_id)"
            " WHERE m.subject_id = %s AND m.filename = 'indexes.md' AND m.is_active",
            (course,),
        ).fetchone()
    assert rows == [
        ("gone.md", 1, "teacher-1", "subject"),
        ("indexes.md", 2, "teacher-1", "subject"),
        ("my-notes.md", 1, "student-1", "private"),
    ]
    assert "| HNSW | 0.98 |" in text


def test_unanswered_log_groups_by_missing_task_and_resolves(
    live_gateway, pipeline, course, tmp_path
):
    path = tmp_path / "intro.md"
    path.write_text("# 導入\n\n標本平均とは標本の値の平均である。\n")
    run(live_gateway, "teacher-1", "materials", "upload", str(path), "-s", course, "--wait")
    student = live_gateway.client("student-1")
    asked = student.ask(course, "量子色力学のゲージ対称性とは何ですか？")
    final = list(pipeline.client.follow(asked["session_id"], timeout=180))[-1]
    assert final.status == "INSUFFICIENT"

    refused = run(live_gateway, "student-1", "unanswered", "-s", course, ok=False)
    assert refused.exit_code == 1 and "403" in refused.output
    log = run_json(live_gateway, "teacher-1", "unanswered", "-s", course)
    assert log["total"] == 1
    (group,) = log["groups"]
    assert "量子色力学" in group["task"] or "ゲージ" in group["task"]
    (entry,) = group["entries"]
    assert (entry["session_id"], entry["user_id"]) == (asked["session_id"], "student-1")
    assert entry["missing_tasks"] == [group["task"]] and entry["resolved_at"] is None

    run(
        live_gateway,
        "teacher-1",
        "unanswered",
        "-s",
        course,
        "--resolve",
        entry["session_id"],
        "--note",
        "not in this course",
    )
    assert run_json(live_gateway, "teacher-1", "unanswered", "-s", course)["total"] == 0
    everything = run_json(live_gateway, "teacher-1", "unanswered", "-s", course, "--all")
    (resolved,) = everything["groups"][0]["entries"]
    assert (resolved["resolved_by"], resolved["resolution"]) == ("teacher-1", "not in this course")
