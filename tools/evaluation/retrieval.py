"""Retrieval evaluation on a dataset of the ``eval fetch`` layout (corpus.jsonl + queries.jsonl).

The dataset is stored into its own subject through the ingest path
(``store_material``: one material per title, one chunk per paragraph), so the
engine is measured on exactly the rows a service would search. Reported per
system: recall@1/5/10/20, MRR@10 and nDCG@10 against ``gold_doc_ids``.

Systems: ``bm25`` and ``vector`` (the engine, one retriever), ``hybrid`` (the
engine's default fusion), ``rrf`` (plain equal-weight RRF, c=60) and ``bm25s``
(the PyPI library on the same tokens, an outside baseline for our BM25).
``fusion_sweep`` fuses the engine's two lists with other configurations; it
is how ``fusion.DEFAULT_FUSION`` was chosen (figures in the report/README).
"""

from __future__ import annotations

import json
import logging
import math
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import psycopg

from services.common.errors import InvalidInput
from services.common.ids import sha256_hex
from services.common.materials import Chunk, NewMaterial, enroll, ensure_subject, store_material
from services.common.text import lexical_terms
from services.reasoning.embedders import Embedder
from services.searcher.engine import SearchQuery, retrieval_depth, search
from services.searcher.fusion import DEFAULT_FUSION, PLAIN_RRF, FusionConfig, Hit, fuse
from tools.evaluation.ingest_path import stored_form_version

logger = logging.getLogger(__name__)

CUTOFFS = (1, 5, 10, 20)
EVAL_K = 20
EVAL_USER = "eval-runner"
SYSTEMS = ("bm25", "vector", "hybrid", "rrf", "bm25s")
LAYOUT = "v2: one material per title, chunk per paragraph, heading = title"


@dataclass(frozen=True)
class Document:
    doc_id: str
    title: str
    text: str


@dataclass(frozen=True)
class Question:
    qid: str
    question: str
    gold: frozenset[str]
    answers: tuple[str, ...] = ()


@dataclass
class Dataset:
    name: str
    documents: list[Document]
    questions: list[Question]

    @property
    def subject_id(self) -> str:
        # LAYOUT names how paragraphs are stored and stored_form_version the terms stored
        # beside them, so a change to either gets a fresh subject.
        body = "\n".join(d.doc_id + "\t" + d.title + "\t" + d.text for d in self.documents)
        digest = sha256_hex((LAYOUT + stored_form_version() + body).encode())
        return f"eval-{self.name}-{digest[:12]}"


def _jsonl(path: Path) -> list[dict]:
    if not path.is_file():
        raise InvalidInput(f"{path} is missing: a dataset has corpus.jsonl and queries.jsonl")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{path}:{number} is not JSON: {exc}") from exc
    return rows


def load_dataset(directory: Path) -> Dataset:
    try:
        documents = [
            Document(r["doc_id"], r["title"], r["text"]) for r in _jsonl(directory / "corpus.jsonl")
        ]
        questions = [
            Question(
                r["qid"], r["question"], frozenset(r["gold_doc_ids"]), tuple(r.get("answers", ()))
            )
            for r in _jsonl(directory / "queries.jsonl")
        ]
    except KeyError as exc:
        raise InvalidInput(f"{directory}: a record lacks the field {exc}") from exc
    if not documents or not questions:
        raise InvalidInput(f"{directory}: empty corpus or queries")
    return Dataset(directory.name, documents, questions)


def by_title(documents: Sequence[Document]) -> dict[str, list[Document]]:
    groups: dict[str, list[Document]] = {}
    for doc in documents:
        groups.setdefault(doc.title, []).append(doc)
    return groups


def material_filename(index: int, title: str) -> str:
    return f"{index:05d}.md"  # titles may hold any character; the index is stable per corpus


def embedding_text(doc: Document) -> str:
    """What is embedded for a paragraph: its heading (the title) and its text, as the
    lexical terms are (``store_material`` indexes heading_path + text)."""
    return f"{doc.title}\n{doc.text}"


def store_dataset(
    conn: psycopg.Connection,
    dataset: Dataset,
    embedder: Embedder,
    progress: Callable[[int], None] = lambda n: None,
) -> dict[uuid.UUID, str]:
    """Store the corpus (idempotent: a re-run stores nothing) and map chunk_id -> doc_id."""
    subject = dataset.subject_id
    ensure_subject(conn, subject, f"eval {dataset.name}")
    enroll(conn, subject, EVAL_USER, role="teacher")
    for index, (title, docs) in enumerate(by_title(dataset.documents).items()):
        body = "\n\n".join(d.text for d in docs)
        material = NewMaterial(
            subject_id=subject,
            owner_id=EVAL_USER,
            title=title,
            filename=material_filename(index, title),
            mime_type="text/markdown",
            sha256=sha256_hex(body.encode("utf-8")),
            blob_uri=f"eval://{dataset.name}/{index}",
        )
        chunks = [Chunk(ordinal=i, text=d.text, heading_path=(title,)) for i, d in enumerate(docs)]
        vectors = embedder.embed([embedding_text(d) for d in docs])
        store_material(
            conn, material, chunks, vectors, embedder=embedder.name, embed_terms=embedder.embed
        )
        conn.commit()
        progress(len(docs))
    position = {}
    for index, (_title, docs) in enumerate(by_title(dataset.documents).items()):
        for i, doc in enumerate(docs):
            position[(material_filename(index, _title), i)] = doc.doc_id
    rows = conn.execute(
        "SELECT c.chunk_id, m.filename, c.ordinal"
        " FROM chunks c JOIN materials m USING (material_id)"
        " WHERE c.subject_id = %s AND c.is_active AND m.is_active",
        (subject,),
    ).fetchall()
    return {chunk_id: position[(filename, ordinal)] for chunk_id, filename, ordinal in rows}


@dataclass
class Metrics:
    recall: dict[int, float] = field(default_factory=dict)
    mrr10: float = 0.0
    ndcg10: float = 0.0

    def as_dict(self) -> dict:
        out = {f"recall@{c}": round(v, 4) for c, v in self.recall.items()}
        out.update({"mrr@10": round(self.mrr10, 4), "ndcg@10": round(self.ndcg10, 4)})
        return out


def score_rankings(rankings: Sequence[Sequence[str]], questions: Sequence[Question]) -> Metrics:
    """Mean metrics over questions; ``rankings[i]`` are doc ids, best first."""
    recall = {c: 0.0 for c in CUTOFFS}
    mrr = ndcg = 0.0
    for ranked, q in zip(rankings, questions, strict=True):
        for c in CUTOFFS:
            recall[c] += len(q.gold & set(ranked[:c])) / len(q.gold)
        mrr += next((1.0 / (i + 1) for i, d in enumerate(ranked[:10]) if d in q.gold), 0.0)
        dcg = sum(1.0 / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if d in q.gold)
        ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(q.gold), 10)))
        ndcg += dcg / ideal
    n = len(questions)
    return Metrics({c: v / n for c, v in recall.items()}, mrr / n, ndcg / n)


def bm25s_rankings(dataset: Dataset, k: int = EVAL_K) -> list[list[str]]:
    """The PyPI ``bm25s`` library on our tokens (same tokenizer, Lucene BM25, k1=1.5, b=0.75)."""
    import bm25s

    retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    # the same terms store_material keeps: heading (title) + text
    docs = [lexical_terms(f"{d.title}\n{d.text}") or [""] for d in dataset.documents]
    retriever.index(docs, show_progress=False)
    queries = [lexical_terms(q.question) or [""] for q in dataset.questions]
    found, _ = retriever.retrieve(queries, k=min(k, len(dataset.documents)), show_progress=False)
    return [[dataset.documents[j].doc_id for j in row] for row in found]


@dataclass
class EngineLists:
    """Per question, the engine's own bm25 and vector lists (doc ids + raw scores)."""

    bm25: list[list[Hit]] = field(default_factory=list)
    vector: list[list[Hit]] = field(default_factory=list)


def run_engine(
    conn: psycopg.Connection,
    dataset: Dataset,
    doc_of: dict[uuid.UUID, str],
    query_vectors: np.ndarray,
    system: str,
    progress: Callable[[int], None] = lambda n: None,
    k: int = EVAL_K,
    embedder: Embedder | None = None,
) -> tuple[list[list[str]], list[list[Hit]]]:
    """The engine's ranking of each question; with ``embedder``, BM25 also gets the query
    words' translations (``services/searcher/translation.py``) as in the services."""
    mode = "hybrid" if system in ("hybrid", "rrf") else system
    fusion = PLAIN_RRF if system == "rrf" else DEFAULT_FUSION
    rankings, hits = [], []
    for q, vector in zip(dataset.questions, query_vectors, strict=True):
        query = SearchQuery(
            dataset.subject_id, EVAL_USER, [q.question], q.question, mode=mode, diversify=False
        )
        outcome = search(conn, query, embedder, fusion=fusion, k_override=k, query_vector=vector)
        rankings.append([doc_of[c.chunk_id] for c in outcome.candidates])
        hits.append([Hit(doc_of[c.chunk_id], c.score) for c in outcome.candidates])
        progress(1)
    return rankings, hits


def fusion_sweep(
    lists: EngineLists, questions: Sequence[Question], configs: Iterable[tuple[str, FusionConfig]]
) -> dict[str, Metrics]:
    out = {}
    for name, config in configs:
        rankings = [
            [f.key for f in fuse({"bm25": b, "vector": v}, config)][:EVAL_K]
            for b, v in zip(lists.bm25, lists.vector, strict=True)
        ]
        out[name] = score_rankings(rankings, questions)
    return out


def sweep_configs() -> list[tuple[str, FusionConfig]]:
    configs = [("rrf c=60", PLAIN_RRF)]
    for w in (1.5, 2.0, 3.0):
        for c in (10.0, 60.0):
            configs.append(
                (f"rrf bm25x{w} c={c:g}", FusionConfig("rrf", {"bm25": w, "vector": 1.0}, c))
            )
    for alpha in (0.5, 0.6, 0.7, 0.8, 0.85, 0.9):
        configs.append(
            (f"convex bm25={alpha}", FusionConfig("convex", {"bm25": alpha, "vector": 1 - alpha}))
        )
    return configs


def sweep_depth() -> int:
    """The depth hybrid search uses per retriever at k=20, so the sweep fuses the same lists."""
    return retrieval_depth(EVAL_K)
