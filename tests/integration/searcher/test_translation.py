"""Query words in the other script, against a real PostgreSQL and the multilingual embedder:
an English question's BM25 reaches Japanese notes (and the reverse), only through words of
the caller's own scope.

The chunks' own vectors are hash vectors (this database's embedding space) and every search
here is BM25 only, so the vector list cannot be what finds a chunk: the words' vectors
(USE-m3, stored at ingest and embedded at query time alike) are what is tested.
"""

from __future__ import annotations

import pytest

from services.common.materials import (
    backfill_term_vectors,
    enroll,
    ensure_subject,
    store_term_vectors,
)
from services.common.text import query_words, vocabulary_terms
from services.searcher.engine import SearchQuery, search
from services.searcher.translation import Vocabularies, other_script_words

from .conftest import HashEmbedder, add_material

pytestmark = pytest.mark.integration

NOTES_JA = [
    "レポートの提出期限は金曜日の正午である。",
    "講義室は3号館の201教室である。",
    "検証用の分割には全体の2割を使う。",
]
NOTES_EN = ["The validation split holds a fifth of the data."]


@pytest.fixture
def notes(db_conn, subject_id, embedder):
    ensure_subject(db_conn, subject_id)
    for user in ("alice", "bob"):
        enroll(db_conn, subject_id, user)
    ja = add_material(db_conn, subject_id, "t", "ja.md", NOTES_JA, embed_terms=embedder.embed)
    en = add_material(db_conn, subject_id, "t", "en.md", NOTES_EN, embed_terms=embedder.embed)
    db_conn.commit()
    return ja, en


def bm25(conn, subject_id, user, question, embedder):
    query = SearchQuery(subject_id, user, [question], question, mode="bm25")
    return search(conn, query, embedder, k_override=3).candidates


def test_an_english_question_finds_the_japanese_note(db_conn, subject_id, notes, embedder):
    ja, _ = notes
    question = "When do we submit reports?"
    found = bm25(db_conn, subject_id, "alice", question, embedder)
    assert found and found[0].chunk_id == ja.chunk_ids[0]
    # without the embedder no word is translated, and no English word is in the notes
    assert all(
        c.chunk_id != ja.chunk_ids[0] for c in bm25(db_conn, subject_id, "alice", question, None)
    )


def test_a_course_rule_asked_in_english_finds_the_japanese_syllabus_line(
    db_conn, subject_id, notes
):
    ja, _ = notes
    # no embedder: the deadline is found by the table of a course's rules (締切, 期限)
    found = bm25(db_conn, subject_id, "alice", "What is our submission deadline?", None)
    assert found and found[0].chunk_id == ja.chunk_ids[0]


def test_a_japanese_question_finds_the_english_note(db_conn, subject_id, notes, embedder):
    _, en = notes
    words = query_words("検証は？")
    found = other_script_words(db_conn, subject_id, "alice", words, embedder.embed)
    assert "validation" in found
    hits = bm25(db_conn, subject_id, "alice", "検証", embedder)
    assert en.chunk_ids[0] in {c.chunk_id for c in hits}


def test_words_come_only_from_the_callers_scope(db_conn, subject_id, notes, embedder):
    # bob's private note holds 試験; alice may not have it suggested, bob may
    add_material(
        db_conn, subject_id, "bob", "mine.md", ["試験は持ち込み不可。"],
        visibility="private", embed_terms=embedder.embed,
    )  # fmt: skip
    db_conn.commit()
    words = ["exam"]
    assert "試験" not in other_script_words(db_conn, subject_id, "alice", words, embedder.embed)
    assert "試験" in other_script_words(db_conn, subject_id, "bob", words, embedder.embed)


def test_a_new_material_is_seen_without_a_restart(db_conn, subject_id, notes, embedder):
    vocabularies = Vocabularies()
    words = ["teacher"]
    before = other_script_words(db_conn, subject_id, "alice", words, embedder.embed, vocabularies)
    add_material(
        db_conn, subject_id, "t", "more.md", ["教員は二人である。"], embed_terms=embedder.embed
    )
    db_conn.commit()
    after = other_script_words(db_conn, subject_id, "alice", words, embedder.embed, vocabularies)
    assert "教員" not in before and "教員" in after


def test_no_translation_into_a_script_the_notes_are_not_written_in(db_conn, subject_id, embedder):
    # Japanese notes that mention an English word in passing: a Japanese question's words
    # are not translated into English, which would only meet that stray word
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    japanese = [f"第{i}回の講義では教員が試験の範囲を説明する。" for i in range(1, 20)]
    japanese.append("出席（attendance）は取らない。")
    add_material(db_conn, subject_id, "t", "ja.md", japanese, embed_terms=embedder.embed)
    db_conn.commit()
    words = ["出席"]
    assert other_script_words(db_conn, subject_id, "alice", words, embedder.embed) == []
    # once part of the notes is in English, the same word is
    english = ["Attendance is not recorded.", "Lectures are recorded on video."]
    add_material(db_conn, subject_id, "t", "en.md", english, embed_terms=embedder.embed)
    db_conn.commit()
    assert "attendance" in other_script_words(db_conn, subject_id, "alice", words, embedder.embed)


def test_materials_stored_before_the_word_vectors_get_them_from_the_backfill(
    db_conn, subject_id, embedder
):
    # stored as a release before migration 0006 did: chunks, no word vectors
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    add_material(db_conn, subject_id, "t", "ja.md", ["図書館の開館時間は九時からである。"] * 3)
    db_conn.execute(
        "DELETE FROM term_vectors WHERE term = ANY(%s)", (vocabulary_terms("図書館の開館時間"),)
    )
    add_material(db_conn, subject_id, "t", "en.md", ["Opening hours are posted online."])
    db_conn.commit()
    words = ["library"]
    assert "図書" not in other_script_words(db_conn, subject_id, "alice", words, embedder.embed)

    new = backfill_term_vectors(db_conn, HashEmbedder.name, HashEmbedder.dimension, embedder.embed)
    db_conn.commit()
    assert new >= 3  # 図書, 開館, 時間 at least
    assert "図書" in other_script_words(db_conn, subject_id, "alice", words, embedder.embed)
    assert (
        backfill_term_vectors(db_conn, HashEmbedder.name, HashEmbedder.dimension, embedder.embed)
        == 0
    )  # nothing left to do


def test_scopes_past_the_budget_are_dropped_least_recent_first(
    db_conn, subject_id, notes, embedder
):
    other = f"{subject_id}-b"
    ensure_subject(db_conn, other)
    enroll(db_conn, other, "alice")
    add_material(db_conn, other, "t", "b.md", ["講義は水曜日である。"], embed_terms=embedder.embed)
    db_conn.commit()
    vocabularies = Vocabularies(kept_scopes=1)
    _, (first,) = vocabularies.of(db_conn, subject_id, "alice")
    assert vocabularies.of(db_conn, subject_id, "alice")[1][0] is first  # kept
    vocabularies.of(db_conn, other, "alice")
    assert vocabularies.of(db_conn, subject_id, "alice")[1][0] is not first  # listed again


def test_a_question_most_of_whose_words_have_no_counterpart_gets_no_translation(
    db_conn, subject_id, notes, embedder
):
    # "deadline" has a counterpart in the notes (期限), the physics words have none: the
    # question is about something else, and 期限 would only lead the search astray
    assert "期限" in other_script_words(db_conn, subject_id, "alice", ["deadline"], embedder.embed)
    words = query_words("What is the deadline of quantum chromodynamics gauge symmetry?")
    assert other_script_words(db_conn, subject_id, "alice", words, embedder.embed) == []


def test_a_word_stored_under_an_earlier_rule_is_no_translation(
    db_conn, subject_id, notes, embedder
):
    """term_vectors only grows: a short word an earlier rule translated stays there. It is
    no translation now, even where its vector is that of the question's word."""
    add_material(db_conn, subject_id, "t", "api.md", ["The api is versioned."])
    store_term_vectors(db_conn, ["api"], lambda words: embedder.embed(["検証"] * len(words)))
    db_conn.commit()
    found = other_script_words(db_conn, subject_id, "alice", ["検証"], embedder.embed)
    assert "validation" in found
    assert "api" not in found
