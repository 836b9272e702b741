"""The engine against a real PostgreSQL: BM25 statistics, exact k under exclusion, neighbours."""

from __future__ import annotations

import math
import uuid
from collections import Counter

import numpy as np
import pytest

from services.common.materials import enroll, ensure_subject
from services.common.text import lexical_terms
from services.searcher.engine import SearchQuery, search
from services.searcher.lexical import K1, B
from services.searcher.rerank import RerankConfig
from services.searcher.scope import SearchFilters

from .conftest import HashEmbedder, add_material

pytestmark = pytest.mark.integration

TEXTS = [
    "梅雨は東アジアの雨季で、梅雨前線が停滞する。",
    "台風は熱帯低気圧が発達したもので、夏から秋に多い。",
    "梅雨前線は小笠原気団とオホーツク海気団の間にできる。",
    "The Rhine flows from the Alps to the North Sea.",
    "Steam engines drove the industrial revolution in Britain.",
    "オホーツク海気団は冷たく湿った気団である。",
]


def reference_bm25(docs: list[list[str]], query: list[str]) -> list[float]:
    n = len(docs)
    avg = sum(len(d) for d in docs) / n
    df = Counter(t for d in docs for t in set(d))
    scores = []
    for d in docs:
        tf = Counter(d)
        s = 0.0
        for t, qtf in Counter(query).items():
            if tf[t]:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                s += qtf * idf * tf[t] * (K1 + 1) / (tf[t] + K1 * (1 - B + B * len(d) / avg))
        scores.append(s)
    return scores


def test_bm25_scores_equal_reference_over_the_callers_corpus(db_conn, subject_id):
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    enroll(db_conn, subject_id, "bob")
    add_material(db_conn, subject_id, "teacher", "a.md", TEXTS[:3])
    add_material(db_conn, subject_id, "teacher", "b.md", TEXTS[3:])
    # bob's private notes are outside alice's corpus: they must not move her IDF
    add_material(
        db_conn, subject_id, "bob", "bob.md", ["梅雨 梅雨 梅雨 前線"] * 5, visibility="private"
    )
    question = "梅雨前線はどこにできる気団の間？"
    outcome = search(db_conn, SearchQuery(subject_id, "alice", [question], mode="bm25"), None)
    # store_material indexes the heading path with the text (add_material: "h", "sec<i % 3>")
    docs = [lexical_terms(f"h\nsec{i % 3}\n{t}") for i, t in enumerate(TEXTS)]
    expected = reference_bm25(docs, lexical_terms(question))
    want = sorted(((s, TEXTS[i]) for i, s in enumerate(expected) if s > 0), reverse=True)
    got = [(c.score, c.text) for c in outcome.candidates]
    assert [t for _, t in got] == [t for _, t in want][: len(got)]
    for (gs, _), (ws, _) in zip(got, want, strict=False):
        assert gs == pytest.approx(ws, rel=1e-6)
    assert outcome.n_scope == len(TEXTS)
    assert all(c.ranks == {"bm25": i + 1} for i, c in enumerate(outcome.candidates))


def test_statistics_follow_new_versions_of_a_material(db_conn, subject_id):
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    add_material(db_conn, subject_id, "t", "a.md", ["量子 力学", "量子 計算"])
    add_material(db_conn, subject_id, "t", "a.md", ["古典 力学"])  # version 2 replaces version 1
    stats = dict(
        db_conn.execute(
            "SELECT term, df FROM search_term_df WHERE subject_id = %s", (subject_id,)
        ).fetchall()
    )
    assert stats.get("量子", 0) == 0 and stats["古典"] == 1 and stats["力学"] == 1
    outcome = search(db_conn, SearchQuery(subject_id, "alice", ["量子"], mode="bm25"), None)
    assert outcome.candidates == [] and outcome.n_scope == 1


def _exact_top(vectors: np.ndarray, ids: list, query: np.ndarray, allowed: set, k: int) -> list:
    sims = vectors @ query
    order = sorted(
        (i for i in range(len(ids)) if ids[i] in allowed), key=lambda i: (-sims[i], ids[i])
    )
    return [ids[i] for i in order[:k]]


@pytest.mark.parametrize(
    ("exact_scan_max", "n_seen", "paths"),
    [
        (0, 30, ("hnsw",)),  # 0 sends any scope to the index; few seen: the iterative scan
        (0, 120, ("exact",)),  # more seen than rows asked: the exact scan even so
        (None, 120, ("exact",)),  # a small scope: always exact
    ],
)
def test_exactly_k_rows_matching_exact_search_under_heavy_exclusion(
    db_conn, exact_scan_max, n_seen, paths
):
    rng = np.random.default_rng(3)
    subjects = [f"subj-k-{uuid.uuid4().hex[:6]}" for _ in range(3)]
    ids, vecs, material_of = [], [], {}
    for s in subjects:
        ensure_subject(db_conn, s)
        enroll(db_conn, s, "u")
        for m in range(6):
            v = rng.normal(size=(50, 512)).astype(np.float32)
            v /= np.linalg.norm(v, axis=1, keepdims=True)
            stored = add_material(
                db_conn, s, "t", f"m{m}.md", [f"{s} m{m} c{i}" for i in range(50)], vectors=v
            )
            ids += stored.chunk_ids
            vecs.append(v)
            material_of.update({c: (s, stored.material_id) for c in stored.chunk_ids})
    db_conn.commit()
    vectors = np.vstack(vecs)
    target = subjects[1]
    materials = sorted({m for c, (s, m) in material_of.items() if s == target})[:3]  # 150 chunks
    in_filter = [c for c, (s, m) in material_of.items() if s == target and m in materials]
    query = vectors[ids.index(in_filter[0])] + 0.01
    query = query / np.linalg.norm(query)
    # exclude the nearest eligible chunks: the neighbours an HNSW scan would find first
    seen = set(_exact_top(vectors, ids, query, set(in_filter), n_seen))
    request = SearchQuery(
        target,
        "u",
        [],
        "q",
        mode="vector",
        seen_ids=frozenset(seen),
        filters=SearchFilters(material_ids=frozenset(materials)),
        diversify=False,
    )
    outcome = search(
        db_conn,
        request,
        None,
        k_override=20,
        query_vector=query,
        vector_exact_scan_max=exact_scan_max,
    )
    expected = _exact_top(vectors, ids, query, set(in_filter) - seen, 20)
    assert [c.chunk_id for c in outcome.candidates] == expected
    assert outcome.n_scope == 150 and outcome.n_excluded == n_seen
    assert outcome.vector_path in paths
    # how near the materials come: the nearest unseen chunk's cosine (halfvec precision)
    assert outcome.nearest == pytest.approx(
        float(vectors[ids.index(expected[0])] @ query), abs=1e-3
    )
    # asking for 50 returns min(50, eligible): with 120 seen, all 30 left, never more
    outcome = search(
        db_conn,
        request,
        None,
        k_override=50,
        query_vector=query,
        vector_exact_scan_max=exact_scan_max,
    )
    assert len(outcome.candidates) == min(50, 150 - n_seen)


def test_dynamic_k_neighbours_and_fallbacks(db_conn, subject_id):
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    stored = add_material(db_conn, subject_id, "t", "a.md", TEXTS, pages=[1, 1, 2, 2, 3, 3])
    # keywords only: the vector side embeds the keywords (fallback), hybrid still runs both
    outcome = search(db_conn, SearchQuery(subject_id, "alice", ["気団"]), HashEmbedder())
    assert outcome.k == 5 and outcome.n_scope == 6 and len(outcome.candidates) == 5
    by_ordinal = {c.ordinal: c for c in outcome.candidates}
    middle = next(c for c in outcome.candidates if 0 < c.ordinal < 5)
    assert (
        middle.prev.text == TEXTS[middle.ordinal - 1]
        and middle.next.text == TEXTS[middle.ordinal + 1]
    )
    if 0 in by_ordinal:
        assert by_ordinal[0].prev is None
    # sentence only: BM25 uses the sentence's terms (fallback)
    outcome = search(
        db_conn, SearchQuery(subject_id, "alice", [], "台風はいつ多い？", mode="bm25"), None
    )
    assert outcome.candidates[0].text == TEXTS[1]
    # complexity doubles k; a retry would widen it, but not past the first search's k in a
    # 6-chunk scope (3 x sqrt(6) is 7.3)
    outcome = search(
        db_conn, SearchQuery(subject_id, "alice", ["気団"], retry=1, complexity=2.0), HashEmbedder()
    )
    assert outcome.k == 10 and len(outcome.candidates) == 6
    # page filter narrows N
    outcome = search(
        db_conn,
        SearchQuery(subject_id, "alice", ["気団"], filters=SearchFilters(page_from=3)),
        HashEmbedder(),
    )
    assert outcome.n_scope == 2 and {c.page for c in outcome.candidates} == {3}
    assert stored.chunk_ids


def test_no_enrollment_means_nothing(db_conn, subject_id):
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    add_material(db_conn, subject_id, "t", "a.md", TEXTS)
    outcome = search(db_conn, SearchQuery(subject_id, "mallory", ["梅雨"]), HashEmbedder())
    assert outcome.candidates == [] and outcome.k == 0 and outcome.n_scope == 0


def test_vector_side_on_a_second_connection_gives_the_same_result(
    db_conn, subject_id, search_db_settings
):
    from services.common import db as common_db

    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    add_material(db_conn, subject_id, "t", "a.md", TEXTS)
    add_material(db_conn, subject_id, "bob", "bob.md", ["梅雨前線の私的メモ"], visibility="private")
    db_conn.commit()  # the second connection sees only committed rows
    query = SearchQuery(subject_id, "alice", ["梅雨前線"], "梅雨前線はどこにできる？")
    one = search(db_conn, query, HashEmbedder())
    with common_db.connect(search_db_settings) as other:
        two = search(db_conn, query, HashEmbedder(), vector_conn=other)
    assert [(c.chunk_id, c.ranks) for c in two.candidates] == [
        (c.chunk_id, c.ranks) for c in one.candidates
    ]
    assert any("vector" in c.ranks for c in two.candidates) and any(
        "bm25" in c.ranks for c in two.candidates
    )
    assert all(c.text != "梅雨前線の私的メモ" for c in two.candidates), "bob's private note leaked"


def test_hybrid_search_ranks_the_chunk_holding_the_question_together_first(db_conn, subject_id):
    ensure_subject(db_conn, subject_id)
    enroll(db_conn, subject_id, "alice")
    filler = " ".join(f"word{i}" for i in range(30))
    together = f"ef_search recall latency {filler} {filler}"
    scattered = f"ef_search {filler} recall {filler} latency"
    # one vector for both: only the rerank can tell them apart
    same = np.tile(HashEmbedder().embed(["ef_search recall latency"]), (2, 1))
    add_material(db_conn, subject_id, "teacher", "a.md", [scattered, together], vectors=same)
    query = SearchQuery(subject_id, "alice", ["ef_search recall latency"], "ef_search recall")
    reranked = search(db_conn, query, HashEmbedder())
    plain = search(db_conn, query, HashEmbedder(), rerank_config=RerankConfig())
    assert [c.text for c in reranked.candidates] == [together, scattered]
    bonus = {c.text: c.score for c in reranked.candidates}
    for c in plain.candidates:
        assert bonus[c.text] > c.score  # each got its proximity added to the fused score
    assert bonus[together] - bonus[scattered] > 0.1
