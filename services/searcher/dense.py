"""Vector retrieval over pgvector, returning k correct rows under filters and exclusions.

pgvector 0.6.2 has no iterative index scan: an HNSW scan yields at most
``hnsw.ef_search`` neighbours, *then* the scope filter and the seen-ID
exclusion remove rows, so a filtered query can come back short. Strategy,
decided per request from the eligible row count (measured in ``bench``):

1. ``exact``: scopes up to ``EXACT_SCAN_MAX`` eligible chunks are ranked by a
   full distance scan of the scope (bitmap on ``chunks_subject``, top-N sort).
   Exact by construction, and fast at this size.
2. ``hnsw``: larger scopes use the HNSW index with ``ef_search`` raised (SET
   LOCAL, so it never leaks) to over-fetch in proportion to how much of the
   index the filter removes.
3. ``hnsw+exact``: if the index still returned fewer rows than asked while
   enough eligible rows exist, the exact scan runs instead. So the caller always
   gets min(limit, eligible) rows.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

import numpy as np
import psycopg
from psycopg import sql

from services.searcher.fusion import Hit
from services.searcher.scope import ScopePredicate

logger = logging.getLogger(__name__)

EXACT_SCAN_MAX = 20_000
EF_SEARCH_MIN, EF_SEARCH_MAX = 40, 1000  # pgvector's own bounds are 1..1000
OVERFETCH_MARGIN = 2.0


@dataclass(frozen=True)
class DenseResult:
    hits: list[Hit]
    path: str  # exact | hnsw | hnsw+exact
    ef_search: int | None = None


# The OFFSET 0 fence keeps the planner from ordering through the HNSW index,
# which would filter *after* the ef_search cut-off.
_EXACT_SQL = """
SELECT chunk_id, distance FROM (
    SELECT c.chunk_id, c.embedding <=> %(vec_query)s AS distance
    FROM chunks c JOIN materials m ON m.material_id = c.material_id
    WHERE {scope}
    OFFSET 0
) AS scoped
ORDER BY distance, chunk_id
LIMIT %(vec_limit)s
"""

_HNSW_SQL = """
SELECT c.chunk_id, c.embedding <=> %(vec_query)s AS distance
FROM chunks c JOIN materials m ON m.material_id = c.material_id
WHERE {scope}
ORDER BY c.embedding <=> %(vec_query)s
LIMIT %(vec_limit)s
"""


def _run(
    conn: psycopg.Connection, template: str, scope: ScopePredicate, vector: np.ndarray, limit: int
) -> list[Hit]:
    params = dict(scope.params, vec_query=vector, vec_limit=limit)
    rows = conn.execute(sql.SQL(template).format(scope=scope.clause), params).fetchall()
    return [Hit(chunk_id, 1.0 - float(distance)) for chunk_id, distance in rows]


def indexed_rows(conn: psycopg.Connection) -> int:
    """Rows in the HNSW index (all chunks, any subject or state): planner estimate, no scan."""
    row = conn.execute(
        "SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = 'chunks'::regclass"
    ).fetchone()
    return int(row[0]) if row else 0


def ef_search_for(limit: int, eligible: int, indexed: int) -> int | None:
    """ef_search expected to leave ``limit`` rows after filtering; None if beyond reach."""
    selectivity = eligible / max(indexed, eligible, 1)
    wanted = math.ceil(limit / selectivity * OVERFETCH_MARGIN)
    if wanted > EF_SEARCH_MAX:
        return None
    return max(EF_SEARCH_MIN, wanted)


def vector_search(
    conn: psycopg.Connection,
    scope: ScopePredicate,
    vector: np.ndarray,
    limit: int,
    eligible: int,
    *,
    exact_scan_max: int | None = None,
) -> DenseResult:
    """Top ``limit`` in-scope chunks by cosine similarity; min(limit, eligible) rows."""
    if limit <= 0 or eligible <= 0:
        return DenseResult([], "exact")
    wanted = min(limit, eligible)
    exact_scan_max = EXACT_SCAN_MAX if exact_scan_max is None else exact_scan_max
    ef = None if eligible <= exact_scan_max else ef_search_for(limit, eligible, indexed_rows(conn))
    if ef is None:
        return DenseResult(_run(conn, _EXACT_SQL, scope, vector, limit), "exact")
    with conn.transaction():
        # NULL when pgvector's settings are not loaded yet in this backend; 40 is its default.
        previous = (
            conn.execute("SELECT current_setting('hnsw.ef_search', true)").fetchone()[0] or "40"
        )
        conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(ef),))
        hits = _run(conn, _HNSW_SQL, scope, vector, limit)
        conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (previous,))
    if len(hits) >= wanted:
        return DenseResult(hits, "hnsw", ef)
    logger.info("hnsw returned %d of %d rows at ef_search=%d; exact scan", len(hits), wanted, ef)
    return DenseResult(_run(conn, _EXACT_SQL, scope, vector, limit), "hnsw+exact", ef)
