"""The character list against a real PostgreSQL (pg_trgm): exact strings, inside the scope."""

from __future__ import annotations

import math

import pytest

from services.common.materials import enroll, ensure_subject
from services.searcher.chars import chars_search, literal_spans
from services.searcher.engine import SearchQuery, search
from services.searcher.fusion import FusionConfig
from services.searcher.scope import SearchFilters, scope_predicate

from .conftest import HashEmbedder, add_material

pytestmark = pytest.mark.integration

TEXTS = [
    "SET hnsw.iterative_scan = relaxed_order; で反復インデックススキャンを有効にする。",
    "HNSW の探索は iterative な手順で scan を繰り返す。hnsw の iterative scan の一般論。",
    "scan, iterative, hnsw: 索引の用語集。iterativeXscan は別物。",
    "エラー SF-E5003 は在庫 API のタイムアウトを表す。",
    "エラーコード一覧: SF-E5004 と SF-W2004。",
]


def test_chunks_holding_the_identifier_come_first_and_only_in_scope(db_conn, subject_id):
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    stored = add_material(db_conn, subject_id, "t", "a.md", TEXTS)
    # someone else's private note with the same identifier stays out of alice's results
    add_material(
        db_conn,
        subject_id,
        "bob",
        "b.md",
        ["bob: hnsw.iterative_scan を試す"],
        visibility="private",
    )
    db_conn.commit()
    scope = scope_predicate(subject_id, "alice", SearchFilters())

    spans = literal_spans(["hnsw.iterative_scan は何のために有効にするの？"])
    hits = chars_search(db_conn, scope, spans, n_scope=5, limit=10)
    assert [h.key for h in hits] == [stored.chunk_ids[0]]  # "_" is no wildcard: not chunk 2

    hits = chars_search(db_conn, scope, literal_spans(["SF-E5003 とは"]), n_scope=5, limit=10)
    assert [h.key for h in hits] == [stored.chunk_ids[3]]
    assert chars_search(db_conn, scope, [], n_scope=5, limit=10) == []

    # fused into the default hybrid, the chunk with the identifier leads; without the list the
    # chunk repeating its pieces (hnsw, iterative, scan) wins on BM25
    query = SearchQuery(subject_id, "alice", ["hnsw.iterative_scan"], "hnsw.iterative_scan とは")
    outcome = search(db_conn, query, HashEmbedder(), k_override=3)
    assert outcome.candidates[0].chunk_id == stored.chunk_ids[0]
    assert "chars" in outcome.candidates[0].ranks
    without = FusionConfig("convex", {"bm25": 0.85, "vector": 0.15})
    outcome = search(db_conn, query, HashEmbedder(), fusion=without, k_override=3)
    assert outcome.candidates[0].chunk_id == stored.chunk_ids[1]


def test_an_identifier_in_more_chunks_than_the_list_holds_is_left_to_bm25(db_conn, subject_id):
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    common = [f"第{i}節でも BM25 に触れる。" for i in range(4)]
    rare = "BM25 の長さ正規化は K = k1 x (1 - b + b x dl / avg_dl) で計算する。"
    stored = add_material(db_conn, subject_id, "t", "a.md", [*common, rare])
    db_conn.commit()
    scope = scope_predicate(subject_id, "alice", SearchFilters())
    spans = literal_spans(["BM25 の avg_dl は？"])
    assert spans == ["bm25", "avg_dl"]
    # bm25 is in all five chunks, more than a list of three can choose among: only avg_dl counts
    hits = chars_search(db_conn, scope, spans, n_scope=5, limit=3)
    assert [h.key for h in hits] == [stored.chunk_ids[4]]
    # a list of five holds every chunk with bm25, so there it still counts
    hits = chars_search(db_conn, scope, spans, n_scope=5, limit=5)
    assert len(hits) == 5 and hits[0].key == stored.chunk_ids[4]
    # scores on the rarity scale: a string only one chunk holds gives 1 (the cap), one that
    # all five hold ln(2) / ln(6)
    assert [h.score for h in hits] == pytest.approx([1.0] + [math.log(2) / math.log(6)] * 4)
