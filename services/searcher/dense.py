"""Vector retrieval over pgvector 0.8, returning k correct rows under filters and exclusions.

Both paths rank on ``chunks.embedding_half`` (migration 0005): the 512-d embedding as
``halfvec``, 1 KB stored inline, where the float ``embedding`` (2 KB) is TOASTed and cost a
detoast per row scanned, the floor of the old exact scan. The few rows a path keeps are then
re-ranked on the float ``embedding``, so scores and order are those of full precision.

1. ``exact``: scopes up to ``EXACT_SCAN_MAX`` eligible chunks are ranked by a full distance
   scan of the scope (index scans, no bitmaps: see ``_exact``; top-N sort). Exact by construction.
2. ``hnsw``: larger scopes use the HNSW index with an *iterative* scan (``strict_order``):
   pgvector keeps walking the graph until ``limit`` rows pass the scope filter and the
   seen-ID exclusion, instead of cutting at ``ef_search`` and filtering after. Sorting is
   disabled for the query (SET LOCAL), so the planner cannot swap in a sort of the scope.
   Only while the session has seen at most ``limit`` chunks of the scope: past that, the
   rows asked for lie beyond the nearest ones the walk would find first, where it misses
   (bench search, 30,000-chunk subject, recall@20 vs exact: 0.996 with none seen, 0.989
   with 40 seen (20 of them the nearest), 0.90-0.93 with 1,000 seen (500 the nearest)).
   Such searches take the exact scan.
3. ``hnsw+exact``: if the scan still stopped short (``hnsw.max_scan_tuples``) while enough
   eligible rows exist, the exact scan runs instead. So the caller always gets
   min(limit, eligible) rows.

``EXACT_SCAN_MAX``, ``EF_SEARCH`` and the index's m / ef_construction come from
``eduanima bench search`` (figures in the README of this room).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
import psycopg
from psycopg import sql

from services.searcher.fusion import Hit
from services.searcher.scope import ScopePredicate

logger = logging.getLogger(__name__)

# Exact scan cost ~1 us per in-scope row (halfvec), the iterative HNSW scan 3-6 ms at
# 30% selectivity but more as the scope's share of the index falls: 10,000 rows is ~10 ms.
EXACT_SCAN_MAX = 10_000
# Recall@20 on the 30,000-chunk subject, index m=16 ef_construction=200: 0.92 at 100,
# 0.981 at 400, 0.996 at 1,000 (pgvector's maximum), which costs 6 ms p50 (3 at 400).
EF_SEARCH = 1_000
# Rows taken by halfvec distance before the float re-rank: halfvec rounding can swap
# neighbours whose distances differ in the 4th digit, never ones further apart.
RERANK_MARGIN = 20


@dataclass(frozen=True)
class DenseResult:
    hits: list[Hit]
    path: str  # exact | hnsw | hnsw+exact
    ef_search: int | None = None


# Each statement keeps the nearest ``vec_wide`` rows by halfvec distance, then re-ranks them
# on the float embedding: detoasting 2 KB for each of the few rows kept is cheap.
# The OFFSET 0 fence keeps the planner from ordering through the HNSW index.
_EXACT_SQL = """
WITH near AS MATERIALIZED (
    SELECT chunk_id FROM (
        SELECT c.chunk_id, c.embedding_half <=> %(vec_query)s::halfvec AS distance
        FROM chunks c JOIN materials m ON m.material_id = c.material_id
        WHERE {scope}
        OFFSET 0
    ) AS scoped
    ORDER BY distance, chunk_id
    LIMIT %(vec_wide)s
)
SELECT c.chunk_id, c.embedding <=> %(vec_query)s AS distance
FROM near JOIN chunks c USING (chunk_id)
ORDER BY distance, c.chunk_id
LIMIT %(vec_limit)s
"""

_HNSW_SQL = """
WITH near AS MATERIALIZED (
    SELECT c.chunk_id
    FROM chunks c JOIN materials m ON m.material_id = c.material_id
    WHERE {scope}
    ORDER BY c.embedding_half <=> %(vec_query)s::halfvec
    LIMIT %(vec_wide)s
)
SELECT c.chunk_id, c.embedding <=> %(vec_query)s AS distance
FROM near JOIN chunks c USING (chunk_id)
ORDER BY distance, c.chunk_id
LIMIT %(vec_limit)s
"""


def _exact(
    conn: psycopg.Connection, scope: ScopePredicate, vector: np.ndarray, limit: int
) -> list[Hit]:
    """The exact scan, with bitmap scans off for the statement. The planner joins each of
    the scope's materials to its chunks, and for every one of them it ANDed the material's
    few rows with a bitmap of the whole subject built again from the (subject_id, terms)
    GIN index (its row estimate takes the two conditions as independent): 74 materials of
    a 3,684-chunk subject cost 15.3 ms where the index scans that remain take 2.5 ms
    (bench search's subjects, median of 15 runs); the 30,000-chunk subject, 61 ms either way."""
    params = dict(scope.params, vec_query=vector, vec_wide=limit + RERANK_MARGIN, vec_limit=limit)
    with conn.pipeline():  # setting, search, setting back: one round trip
        conn.execute("SELECT set_config('enable_bitmapscan', 'off', true)")
        found = conn.execute(sql.SQL(_EXACT_SQL).format(scope=scope.clause), params)
        conn.execute("RESET enable_bitmapscan")
    return [Hit(chunk_id, 1.0 - float(distance)) for chunk_id, distance in found.fetchall()]


def _hnsw(
    conn: psycopg.Connection, scope: ScopePredicate, vector: np.ndarray, limit: int
) -> list[Hit]:
    params = dict(scope.params, vec_query=vector, vec_wide=limit + RERANK_MARGIN, vec_limit=limit)
    with conn.pipeline():  # settings, search, settings back: one round trip
        conn.execute(
            "SELECT set_config('hnsw.iterative_scan', 'strict_order', true),"
            " set_config('hnsw.ef_search', %s, true), set_config('enable_sort', 'off', true)",
            (str(EF_SEARCH),),
        )
        found = conn.execute(sql.SQL(_HNSW_SQL).format(scope=scope.clause), params)
        # Back to the session's values before the caller's transaction goes on.
        conn.execute("RESET hnsw.iterative_scan")
        conn.execute("RESET hnsw.ef_search")
        conn.execute("RESET enable_sort")
    return [Hit(chunk_id, 1.0 - float(distance)) for chunk_id, distance in found.fetchall()]


def vector_search(
    conn: psycopg.Connection,
    scope: ScopePredicate,
    vector: np.ndarray,
    limit: int,
    eligible: int,
    *,
    excluded: int = 0,
    exact_scan_max: int | None = None,
) -> DenseResult:
    """Top ``limit`` in-scope chunks by cosine similarity; min(limit, eligible) rows.

    ``eligible`` counts the in-scope chunks left after the seen-ID exclusion, ``excluded``
    the in-scope chunks the exclusion removed.
    """
    if limit <= 0 or eligible <= 0:
        return DenseResult([], "exact")
    wanted = min(limit, eligible)
    exact_scan_max = EXACT_SCAN_MAX if exact_scan_max is None else exact_scan_max
    if eligible <= exact_scan_max or excluded > limit:
        return DenseResult(_exact(conn, scope, vector, limit), "exact")
    hits = _hnsw(conn, scope, vector, limit)
    if len(hits) >= wanted:
        return DenseResult(hits, "hnsw", EF_SEARCH)
    logger.info("hnsw returned %d of %d rows; exact scan", len(hits), wanted)
    return DenseResult(_exact(conn, scope, vector, limit), "hnsw+exact", EF_SEARCH)
