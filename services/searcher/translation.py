"""Query words in the other script: an English question's BM25 finds Japanese notes, and the
reverse.

BM25 matches terms as written, so "overlap" never meets 重ねる and an English question over
Japanese notes found only what the vector list brought. The multilingual embedder puts a
word near its translation (submits ↔ 提出 0.81, validation ↔ 検証 0.74), so each word of the
question in its own script (``query_words``) looks up its nearest words of the other script
among the words of the caller's scope: the subject's active materials plus the caller's own
private ones, read through ``search_term_df`` like BM25's statistics. Their vectors were
stored at ingest (``term_vectors``, ``services.common.materials``). The words found close
enough join the BM25 query, when enough of the scope is written in their script.

`eduanima eval retrieval` under service conditions (hit@5 / MRR@5), before → after:
eval/course 0.856 / 0.736 → 0.928 / 0.788, eval/course_ml 0.816 / 0.678 → 0.882 / 0.777;
jsquad_ja and xquad_en, where no chunk is in the other script, unchanged.

A scope's words and vectors are loaded once and kept (``Vocabularies``) until a material of
the subject changes: the nearest-word search in SQL took 0.3-1.7 s per question (a scan of
every vector of the scope per query word), against a few milliseconds in memory.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import psycopg

from services.common.text import script_of

# Cosine similarity a word of the scope needs to stand for a query word. Translations and
# inflections of the course sets' words sit at 0.65-0.94 (submits ↔ 提出 0.81, loans ↔ 貸し出し
# 0.69); below 0.65 the nearest words are mostly unrelated. 0.60 and 0.70 did no better on
# either course set's first search.
MIN_SIMILARITY = 0.65
# Nearest words taken per query word: a word and its inflection (indexes, indexer).
PER_WORD = 2
# A found word must have the query word among its nearest words of the query's script:
# words of no clear meaning to the embedder (rare names, foreign words: ehci, distrito) sit
# near hundreds of words and would otherwise be found for many.
MUTUAL_K = 10
# A script the query is translated into must be that of at least this share of the scope's
# chunks: into a language nobody wrote the notes in, a translation only meets stray words
# (建築家 → architect lifted Japanese paragraphs naming an English institute: jsquad_ja nDCG@10
# 0.921 → 0.913; no chunk of jsquad_ja is in Latin script, 28 % of each course set's are).
MIN_SCRIPT_SHARE = 0.05
# Vocabularies kept in memory (a subject's words: about 2 MB per 1,000 words).
KEPT_VOCABULARIES = 16

_WORDS = """
SELECT v.term, v.script, v.embedding FROM term_vectors v
WHERE v.term IN (
    SELECT d.term FROM search_term_df d
    WHERE d.subject_id = %(subject)s AND d.owner_key = %(owner)s AND d.df > 0)
"""
# How many active chunks are written in each script (``chunks.script``, migration 0006).
_SCRIPTS = """
SELECT c.script, count(*) FROM chunks c JOIN materials m ON m.material_id = c.material_id
WHERE c.subject_id = %(subject)s AND c.is_active
  AND search_owner_key(m.visibility, m.owner_id) = %(owner)s
GROUP BY c.script
"""
# Any store or deactivation of a material of the subject, or words embedded afterwards
# (`eduanima db words`), moves the stamp; the last column says whether the caller has
# private materials there (most have none).
_STAMP = """
SELECT count(*), max(updated_at), (SELECT max(stored_at) FROM term_vectors),
       count(*) FILTER (WHERE visibility = 'private' AND owner_id = %(user)s AND is_active)
FROM materials WHERE subject_id = %(subject)s
"""


@dataclass(frozen=True)
class Vocabulary:
    """One scope's words of one script and their unit vectors (rows)."""

    words: tuple[str, ...]
    vectors: np.ndarray
    _bars: dict[int, float] = field(default_factory=dict, compare=False, repr=False)

    def nearest(self, vectors: np.ndarray, source: Vocabulary | None = None) -> list[str]:
        """The words close enough to any of ``vectors`` (unit rows), PER_WORD at most each.
        With ``source`` (the scope's words of the query's script), a word is taken only if
        the query word would be among its MUTUAL_K nearest source words."""
        if not self.words or not len(vectors):
            return []
        similarity = vectors @ self.vectors.T
        take = min(PER_WORD, len(self.words))
        best = np.argpartition(-similarity, take - 1, axis=1)[:, :take]
        found = []
        for row, columns in enumerate(best):
            for i in sorted(columns, key=lambda c: -similarity[row, c]):
                close = similarity[row, i] >= MIN_SIMILARITY
                if close and (source is None or similarity[row, i] >= self._bar(i, source)):
                    found.append(self.words[i])
        return found

    def _bar(self, i: int, source: Vocabulary) -> float:
        """How close word i's MUTUAL_K-th nearest source word is (kept per word)."""
        if i not in self._bars:
            similarity = source.vectors @ self.vectors[i]
            k = min(MUTUAL_K, len(similarity))
            self._bars[i] = float(np.partition(similarity, -k)[-k]) if k else -1.0
        return self._bars[i]


@dataclass(frozen=True)
class Part:
    """The words of one owner key of a subject (its shared materials, or one user's
    private ones), by script, and how many of its chunks are written in each script."""

    words: dict[str, Vocabulary]
    chunks: dict[str, int]


class Vocabularies:
    """Vocabularies by script of (subject, owner key), kept until the subject's materials
    change: one for the subject's shared materials, one per user with private ones."""

    def __init__(self, kept: int = KEPT_VOCABULARIES):
        self.kept = kept
        self._held: OrderedDict[tuple[str, str], tuple[tuple, Part]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, conn: psycopg.Connection, subject_id: str, user_id: str) -> list[Part]:
        """The parts the caller's scope is made of."""
        *stamp, private = conn.execute(_STAMP, {"subject": subject_id, "user": user_id}).fetchone()
        owners = ["subject", f"private:{user_id}"] if private else ["subject"]
        return [self._one(conn, subject_id, owner, tuple(stamp)) for owner in owners]

    def _one(self, conn: psycopg.Connection, subject_id: str, owner: str, stamp: tuple) -> Part:
        key = (subject_id, owner)
        with self._lock:
            held = self._held.get(key)
            if held is not None and held[0] == stamp:
                self._held.move_to_end(key)
                return held[1]
        params = {"subject": subject_id, "owner": owner}
        part = Part(_load(conn, params), dict(conn.execute(_SCRIPTS, params).fetchall()))
        with self._lock:
            self._held[key] = (stamp, part)
            self._held.move_to_end(key)
            while len(self._held) > self.kept:
                self._held.popitem(last=False)
        return part


VOCABULARIES = Vocabularies()


def other_script_words(
    conn: psycopg.Connection,
    subject_id: str,
    user_id: str,
    words: Sequence[str],
    embed: Callable[[list[str]], np.ndarray],
    vocabularies: Vocabularies = VOCABULARIES,
) -> list[str]:
    """The scope's nearest words of the other script to each query word, close enough, into
    a script the scope's notes are written in."""
    scope = vocabularies.of(conn, subject_id, user_id)
    chunks: Counter[str] = Counter()
    for part in scope:
        chunks.update(part.chunks)
    total = sum(chunks.values())
    scripts = [script_of(w) for w in words]
    wanted = [
        (script, other)
        for script, other in (("ja", "latin"), ("latin", "ja"))
        if total and chunks[other] >= MIN_SCRIPT_SHARE * total and script in scripts
    ]
    if not wanted:
        return []
    unit = _unit(embed(list(words)))
    found: dict[str, None] = {}
    for script, other in wanted:
        rows = unit[[i for i, s in enumerate(scripts) if s == script]]
        for part in scope:
            if other in part.words:
                target = part.words[other]
                found.update(dict.fromkeys(target.nearest(rows, part.words.get(script))))
    return list(found)


def _load(conn: psycopg.Connection, params: dict) -> dict[str, Vocabulary]:
    rows: dict[str, tuple[list[str], list[np.ndarray]]] = {}
    for term, script, embedding in conn.execute(_WORDS, params):
        words, vectors = rows.setdefault(script, ([], []))
        words.append(term)
        vectors.append(embedding.to_numpy().astype(np.float32))
    return {
        script: Vocabulary(tuple(words), _unit(np.vstack(vectors)))
        for script, (words, vectors) in rows.items()
    }


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Rows (or one vector) scaled to length 1, so a dot product is the cosine."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)
