"""Search benchmark: latency of hybrid k=20 and vector recall under exclusion, at 100,000 chunks.

Synthetic corpus, built through ``store_material`` like real ingest:

- 20 subjects: ``bench-search-s00`` holds 30,000 chunks (above the exact-scan
  threshold, so its vector retrieval goes through HNSW), the other 19 share
  70,000 (exact scans). 50 chunks per material.
- Texts are the real paragraphs of the eval corpora (jsquad_ja + xquad_en),
  reused; each copy's embedding is the paragraph's real USE-m3 vector plus
  Gaussian noise (norm ~0.35) and re-normalised, so copies are close but
  distinct neighbours, as in a corpus of similar lecture notes.
- Queries: the eval questions with their real embeddings (query embedding
  time is not part of search latency and is excluded). 50 other queries run
  untimed first, so no variant is timed on a cold cache.

Measured in one run: hybrid k=20 p50/p95/qps with the engine's vector strategy
(BM25 and vector in parallel on two connections, as the searcher runs them), the
same on one connection, an exact-scan-everywhere baseline, the engine's strategy with
the query words translated into the other script (``translation.py``) and without the
rerank after fusion (``rerank.py``), the five taking turns on each query (the machine may
be shared: the JSON notes the load average);
vector top-20 recall against an exact float scan with 1,000 seen IDs excluded (half
of them the query's own nearest neighbours), and whether exactly k rows came back
whenever >= k were eligible; and the HNSW path's own recall on the large subject,
with 0 and 40 seen IDs (the engine takes the exact scan past ``limit`` seen IDs).
"""

from __future__ import annotations

import logging
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psycopg

from services.common.ids import sha256_hex
from services.common.materials import Chunk, NewMaterial, enroll, ensure_subject, store_material
from services.reasoning.embedders import Embedder, normalise
from services.searcher import dense
from services.searcher.engine import SearchQuery, search
from services.searcher.rerank import RerankConfig
from tools.bench.machine import machine, percentile
from tools.bench.machine import write_report as machine_report
from tools.evaluation.retrieval import load_dataset

logger = logging.getLogger(__name__)

BENCH_USER = "bench-user"
N_SUBJECTS = 20
LARGE_SUBJECT_CHUNKS = 30_000
TOTAL_CHUNKS = 100_000
CHUNKS_PER_MATERIAL = 50
NOISE_NORM = 0.35
K = 20
N_SEEN = 1_000
N_WARMUP = 50
NO_RERANK = RerankConfig()


def subject_name(i: int) -> str:
    return f"bench-search-s{i:02d}"


def subject_sizes(total: int = TOTAL_CHUNKS, large: int = LARGE_SUBJECT_CHUNKS) -> list[int]:
    rest = total - large
    small = [rest // (N_SUBJECTS - 1)] * (N_SUBJECTS - 1)
    small[-1] += rest - sum(small)
    return [large, *small]


@dataclass
class Corpus:
    texts: list[str]
    vectors: np.ndarray
    questions: list[str]
    question_vectors: np.ndarray


def load_corpus(eval_dirs: list[Path], embedder: Embedder) -> Corpus:
    texts, questions = [], []
    for directory in eval_dirs:
        data = load_dataset(directory)
        texts += [d.text for d in data.documents]
        questions += [q.question for q in data.questions]
    return Corpus(texts, embedder.embed(texts), questions, embedder.embed(questions))


def ensure_loaded(
    conn: psycopg.Connection,
    corpus: Corpus,
    embedder: Embedder,
    progress: Callable[[int], None] = lambda n: None,
    sizes: list[int] | None = None,
) -> None:
    """Store the synthetic subjects that are not complete yet (re-runs reuse them)."""
    rng = np.random.default_rng(20251122)
    for s, size in enumerate(sizes or subject_sizes()):
        subject = subject_name(s)
        have = conn.execute(
            "SELECT count(*) FROM chunks WHERE subject_id = %s AND is_active", (subject,)
        ).fetchone()[0]
        if have >= size:
            progress(size)
            continue
        ensure_subject(conn, subject, f"bench subject {s}")
        enroll(conn, subject, BENCH_USER)
        offset = s * 997
        for start in range(0, size, CHUNKS_PER_MATERIAL):
            count = min(CHUNKS_PER_MATERIAL, size - start)
            picks = [(offset + start + i) % len(corpus.texts) for i in range(count)]
            noise = rng.normal(size=(count, corpus.vectors.shape[1])).astype(np.float32)
            noise *= NOISE_NORM / np.linalg.norm(noise, axis=1, keepdims=True)
            vectors = normalise(corpus.vectors[picks] + noise)
            chunks = [
                Chunk(ordinal=i, text=corpus.texts[p], page=i // 5 + 1) for i, p in enumerate(picks)
            ]
            filename = f"m{start // CHUNKS_PER_MATERIAL:05d}.md"
            material = NewMaterial(
                subject_id=subject,
                owner_id="bench-teacher",
                title=f"{subject} {filename}",
                filename=filename,
                mime_type="text/markdown",
                sha256=sha256_hex(f"{subject}/{filename}/{size}".encode()),
                blob_uri="bench://",
            )
            store_material(
                conn, material, chunks, vectors, embedder=embedder.name, embed_terms=embedder.embed
            )
            conn.commit()
            progress(count)
    conn.execute("ANALYZE chunks")
    conn.commit()


def query_plan(n_questions: int, n_queries: int, seed: int) -> list[tuple[int, int]]:
    """(question, subject) pairs: a quarter hit the large subject (HNSW path), the rest
    the small ones (exact scans)."""
    rng = random.Random(seed)
    return [
        (rng.randrange(n_questions), 0 if i % 4 == 0 else rng.randrange(1, N_SUBJECTS))
        for i in range(n_queries)
    ]


@dataclass(frozen=True)
class Variant:
    name: str
    exact_scan_max: int
    parallel: bool  # the vector retrieval on a second connection, as the searcher runs it
    translated: bool = False  # query words translated into the other script, as the searcher does
    reranked: bool = True  # the second look after fusion (``rerank``), as the searcher does


VARIANTS = (
    Variant("hybrid_k20", dense.EXACT_SCAN_MAX, parallel=True),
    Variant("hybrid_k20_without_rerank", dense.EXACT_SCAN_MAX, parallel=True, reranked=False),
    Variant("hybrid_k20_one_connection", dense.EXACT_SCAN_MAX, parallel=False),
    Variant("hybrid_k20_exact_scan_baseline", 10**9, parallel=True),
    Variant("hybrid_k20_translated", dense.EXACT_SCAN_MAX, parallel=True, translated=True),
)


def _latency(
    conn: psycopg.Connection,
    corpus: Corpus,
    plan: list[tuple[int, int]],
    vector_conn: psycopg.Connection,
    embedder: Embedder,
    variants: tuple[Variant, ...] = VARIANTS,
) -> dict[str, dict]:
    """Each query of the plan through every variant, in an order that rotates per query, so
    a busy moment of the machine lands on all variants alike."""
    timings: dict[str, list[float]] = {v.name: [] for v in variants}
    paths: dict[str, dict[str, int]] = {v.name: {} for v in variants}
    walls = dict.fromkeys(timings, 0.0)
    for i, (q, s) in enumerate(plan):
        query = SearchQuery(subject_name(s), BENCH_USER, [corpus.questions[q]], corpus.questions[q])
        for v in variants[i % len(variants) :] + variants[: i % len(variants)]:
            t0 = time.perf_counter()
            outcome = search(
                conn,
                query,
                embedder if v.translated else None,
                k_override=K,
                query_vector=corpus.question_vectors[q],
                vector_exact_scan_max=v.exact_scan_max,
                vector_conn=vector_conn if v.parallel else None,
                rerank_config=None if v.reranked else NO_RERANK,
            )
            elapsed = time.perf_counter() - t0
            timings[v.name].append(elapsed * 1000)
            walls[v.name] += elapsed
            path = paths[v.name]
            path[outcome.vector_path] = path.get(outcome.vector_path, 0) + 1
            conn.rollback()
            vector_conn.rollback()
    return {
        name: {
            "queries": len(plan),
            "p50_ms": round(statistics.median(t), 2),
            "p95_ms": round(percentile(t, 95), 2),
            "mean_ms": round(statistics.fmean(t), 2),
            "qps": round(len(plan) / walls[name], 1),
            "vector_paths": paths[name],
        }
        for name, t in timings.items()
    }


def _exact_ids(conn, subject: str, vector: np.ndarray, exclude: list, limit: int) -> list:
    rows = conn.execute(
        "SELECT chunk_id FROM (SELECT chunk_id, embedding <=> %s AS d FROM chunks"
        " WHERE subject_id = %s AND is_active AND NOT (chunk_id = ANY(%s::uuid[])) OFFSET 0) x"
        " ORDER BY d, chunk_id LIMIT %s",
        (vector, subject, exclude, limit),
    ).fetchall()
    return [r[0] for r in rows]


def _recall(
    conn: psycopg.Connection, corpus: Corpus, plan: list[tuple[int, int]], n_seen: int = N_SEEN
) -> dict:
    """Vector top-20 against an exact float scan, with ``n_seen`` in-scope IDs excluded, half
    of them the query's own nearest neighbours (what a later iteration has already seen)."""
    rng = random.Random(7)
    recalls, exact_k, by_subject, paths = [], 0, {}, {}
    for q, s in plan:
        subject, vector = subject_name(s), corpus.question_vectors[q]
        nearest = _exact_ids(conn, subject, vector, [], n_seen // 2)
        pool = [
            r[0]
            for r in conn.execute(
                "SELECT chunk_id FROM chunks WHERE subject_id = %s AND is_active", (subject,)
            )
        ]
        near = set(nearest)
        others = [c for c in rng.sample(pool, n_seen + len(near)) if c not in near]
        seen = near | set(others[: n_seen - len(near)])
        truth = _exact_ids(conn, subject, vector, list(seen), K)
        query = SearchQuery(
            subject,
            BENCH_USER,
            [],
            corpus.questions[q],
            mode="vector",
            seen_ids=frozenset(seen),
            diversify=False,
        )
        outcome = search(conn, query, None, k_override=K, query_vector=vector)
        got = [c.chunk_id for c in outcome.candidates]
        recall = len(set(got) & set(truth)) / max(len(truth), 1)
        recalls.append(recall)
        exact_k += len(got) == min(K, len(pool) - len(seen & set(pool)))
        key = "large (30,000 chunks)" if s == 0 else "small (3,684 chunks)"
        by_subject.setdefault(key, []).append(recall)
        paths[outcome.vector_path] = paths.get(outcome.vector_path, 0) + 1
        conn.rollback()
    return {
        "queries": len(plan),
        "seen_ids_excluded": n_seen,
        "vector_paths": paths,
        "recall_at_20_mean": round(statistics.fmean(recalls), 4),
        "recall_at_20_min": round(min(recalls), 4),
        "by_scope": {k: round(statistics.fmean(v), 4) for k, v in by_subject.items()},
        "exactly_k_rows": f"{exact_k}/{len(plan)}",
    }


def machine_info(conn: psycopg.Connection) -> dict:
    """The machine, plus the database versions the figures depend on."""
    return {
        **machine(),
        "postgres": conn.execute("SELECT version()").fetchone()[0],
        "pgvector": conn.execute(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
        ).fetchone()[0],
    }


def run_bench(
    conn: psycopg.Connection,
    vector_conn: psycopg.Connection,
    corpus: Corpus,
    embedder: Embedder,
    *,
    n_queries: int = 200,
    n_recall_queries: int = 40,
    progress: Callable[[str, int, int], None] = lambda stage, done, total: None,
) -> dict:
    loaded = [0]

    def on_load(n: int) -> None:
        loaded[0] += n
        progress("load", loaded[0], TOTAL_CHUNKS)

    ensure_loaded(conn, corpus, embedder, on_load)
    plan = query_plan(len(corpus.questions), n_queries, seed=11)
    progress("latency", 0, 3)
    # Untimed: other queries first, so the first timed variant does not pay for a cold cache.
    _latency(
        conn, corpus, query_plan(len(corpus.questions), N_WARMUP, seed=5), vector_conn, embedder
    )
    progress("latency", 1, 3)
    load_before = os.getloadavg()[0]
    latency = _latency(conn, corpus, plan, vector_conn, embedder)
    load_after = os.getloadavg()[0]
    progress("latency", 2, 3)
    recall = _recall(conn, corpus, plan[:n_recall_queries])
    # The HNSW path's own recall: the large subject, with as few seen IDs as it serves.
    large = [(q, 0) for q, _ in query_plan(len(corpus.questions), n_recall_queries, seed=13)]
    recall_hnsw = {f"{n}_seen": _recall(conn, corpus, large, n) for n in (0, 2 * K)}
    progress("latency", 3, 3)
    return {
        "benchmark": "search",
        "corpus": {
            "chunks": TOTAL_CHUNKS,
            "subjects": N_SUBJECTS,
            "sizes": subject_sizes(),
            "synthetic": "eval paragraphs reused; real USE-m3 vectors + noise (norm 0.35)",
        },
        "warmup_queries": N_WARMUP,
        **latency,
        "retrievals": "BM25 and vector in parallel on two connections, as the searcher runs them; "
        "hybrid_k20_one_connection runs them one after the other; the exact-scan baseline "
        "ranks every in-scope row by distance (halfvec, float re-rank of the kept rows); "
        "hybrid_k20_translated adds the query words' translations into the other script "
        "(embedding the words included; the subjects mix Japanese and English paragraphs); "
        "hybrid_k20_without_rerank leaves out the proximity rerank after fusion; "
        "the five variants take turns on each query",
        "load_average_1min_during_latency": [round(load_before, 2), round(load_after, 2)],
        "vector_recall_vs_exact": recall,
        "vector_recall_vs_exact_large_subject": recall_hnsw,
        "machine": machine_info(conn),
    }


def write_report(report: dict, directory: Path) -> Path:
    """One file per run: earlier runs stay for comparison."""
    path = directory / f"search-{time.strftime('%Y%m%dT%H%M%S')}.json"
    machine_report(str(path), report)  # the report's own "machine" (with the DB versions) wins
    return path
