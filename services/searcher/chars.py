"""Character candidates: chunks that contain the query's identifiers as written (seed 004).

Morphological BM25 splits what a course names by its spelling: ``hnsw.iterative_scan``
becomes ``hnsw`` / ``iterative`` / ``scan``, ``SF-E5003`` becomes ``sf`` / ``e5003``, and
each piece also matches every chunk about iterating or scanning. This list finds the chunks
holding the whole string, case-insensitively, through a ``pg_trgm`` GIN index on the chunk
text (migration 0005): the trigrams of the string's alphanumeric runs narrow the rows, then
``ILIKE`` checks the exact substring. Scored by the strings' rarity in the scope,
ln(1 + N / df) summed over the strings a chunk holds, over ln(1 + N) and capped at 1: a
string only one chunk holds scores 1, one a material keeps repeating much less, so that the
fusion can take the score as it is (``FusionConfig.absolute``). A string held by more chunks
than the list returns (BM25 in a search course) cannot choose among them, only fill the list
with an arbitrary part of a tie: it is left to BM25.

Only identifier-like strings take part: three or more characters of ASCII letters and digits,
with at least one letter, and an inner ``.``, ``_``, ``-``, ``/`` or ``:``, or a digit, or
an inner capital (``ShelfFinder``). Plain words and plain numbers are BM25's; Japanese
text is too (the server's C locale gives ``pg_trgm`` no trigrams for it).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import psycopg
from psycopg import sql

from services.searcher.fusion import Hit
from services.searcher.scope import ScopePredicate

_TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._\-/:]*[A-Za-z0-9])?")
_JOINED = re.compile(r"[A-Za-z0-9][._\-/:][A-Za-z0-9]")
MIN_CHARS = 3
MAX_SPANS = 8


def identifier_like(token: str) -> bool:
    letters, digits = any(c.isalpha() for c in token), any(c.isdigit() for c in token)
    if len(token) < MIN_CHARS or not letters:  # 0.4, 3-2 and 1,000 are numbers
        return False
    return bool(_JOINED.search(token)) or digits or bool(re.search(r"[a-z][A-Z]", token))


def literal_spans(texts: Sequence[str]) -> list[str]:
    """The identifier-like strings of the queries, lower-cased, first seen first."""
    spans: dict[str, None] = {}
    for text in texts:
        for token in _TOKEN.findall(text):
            if identifier_like(token):
                spans.setdefault(token.lower(), None)
    return list(spans)[:MAX_SPANS]


def _like_pattern(span: str) -> str:
    escaped = span.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


_CHARS_SQL = """
WITH s(span, pattern) AS (
    SELECT * FROM unnest(%(chars_spans)s::text[], %(chars_patterns)s::text[])
), hits AS MATERIALIZED (
    SELECT c.chunk_id, s.span
    FROM chunks c JOIN materials m ON m.material_id = c.material_id
    JOIN s ON c.text ILIKE s.pattern
    WHERE {scope} AND c.text ILIKE ANY(%(chars_patterns)s::text[])
), df AS (
    SELECT span, count(*) AS n FROM hits GROUP BY span HAVING count(*) <= %(chars_limit)s
)
SELECT hits.chunk_id,
       least(1.0, sum(ln(1 + %(chars_n)s::float8 / df.n)) / ln(1 + %(chars_n)s::float8)) AS score
FROM hits JOIN df USING (span)
GROUP BY hits.chunk_id
ORDER BY score DESC, hits.chunk_id
LIMIT %(chars_limit)s
"""


def chars_search(
    conn: psycopg.Connection,
    scope: ScopePredicate,
    spans: Sequence[str],
    n_scope: int,
    limit: int,
) -> list[Hit]:
    """Top ``limit`` in-scope chunks holding the spans; [] when there are none."""
    if not spans or limit <= 0:
        return []
    params = dict(
        scope.params,
        chars_spans=list(spans),
        chars_patterns=[_like_pattern(s) for s in spans],
        chars_n=max(n_scope, 1),
        chars_limit=limit,
    )
    rows = conn.execute(sql.SQL(_CHARS_SQL).format(scope=scope.clause), params).fetchall()
    return [Hit(chunk_id, float(score)) for chunk_id, score in rows if math.isfinite(score)]
