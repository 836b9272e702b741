"""Retrieval under service conditions: the documents go through the real parser and chunker,
and k comes from dynamic k, as a search in the service gets it.

Beside the ideal report of ``retrieval`` (one stored chunk per gold paragraph, fixed k=20),
this one asks what a student's search returns when a teacher uploads the same text:

- QA sets (``corpus.jsonl``): each title's paragraphs become one Markdown file (``# title``,
  then the paragraphs, as a lecture note would hold them) stored by
  ``ingest_path.ingest_files``; the chunker packs short paragraphs together and splits long
  ones. A retrieved chunk is a hit when it holds the gold paragraph's text whole, or, when
  the chunker split the paragraph, when it is a piece of it that holds one of the answers
  (whitespace ignored in both tests).
- Course folders (``materials/`` + a queries file with ``gold_materials`` and ``answers``):
  a retrieved chunk is a hit when it comes from a gold material and holds one of the
  answers (Markdown ``**`` and backticks ignored).

Per configuration: hit@k and MRR@k with k = ``choose_k(N)`` of the stored subject, and for a
course folder whose questions carry types, the same per type (``by_type``): an English
question over Japanese notes meets them through the vector list and translated words only,
and the overall figure hides that.
"""

from __future__ import annotations

import dataclasses
import json
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psycopg

from services.common.errors import InvalidInput
from services.common.ids import sha256_hex
from services.ingestor.chunking import DEFAULT_LIMITS
from services.reasoning.embedders import Embedder
from services.searcher.engine import SearchQuery, search
from services.searcher.fusion import DEFAULT_FUSION, FusionConfig
from tools.evaluation.ingest_path import (
    StoredChunk,
    ingest_files,
    read_files,
    stored_form_version,
)
from tools.evaluation.retrieval import EVAL_USER, Dataset, by_title

LAYOUT = "service v1: one Markdown file per title, '# title' then the paragraphs"
Judge = Callable[[StoredChunk], bool]


@dataclass(frozen=True)
class ServiceQuestion:
    qid: str
    question: str
    judge: Judge
    type: str = "qa"


@dataclass
class ServiceSet:
    name: str
    files: list[tuple[str, bytes]]
    questions: list[ServiceQuestion]

    @property
    def subject_id(self) -> str:
        """Names what is stored: the files, and the parser and chunker that stored them (a
        changed chunker must not be measured on chunks its predecessor made)."""
        digest = sha256_hex(
            (LAYOUT + repr(DEFAULT_LIMITS) + stored_form_version()).encode()
            + b"".join(name.encode() + sha256_hex(data).encode() for name, data in self.files)
        )
        return f"eval-{self.name}-svc-{digest[:12]}"


_SPACE = re.compile(r"\s+")


def squeeze(text: str) -> str:
    """Text with whitespace and Markdown emphasis marks removed, for containment tests."""
    return _SPACE.sub("", text.replace("**", "").replace("`", ""))


def body(chunk_text: str) -> str:
    """A chunk's text without the heading lines the chunker puts above it."""
    return "\n".join(line for line in chunk_text.splitlines() if not line.startswith("#"))


def holds_paragraph(chunk: StoredChunk, paragraph: str, answers: Sequence[str]) -> bool:
    text, gold = squeeze(body(chunk.text)), squeeze(paragraph)
    if gold in text:
        return True
    # a piece of a paragraph the chunker split: it counts when it holds an answer
    return len(text) >= 20 and text in gold and any(squeeze(a) in text for a in answers if a)


def qa_files(dataset: Dataset) -> list[tuple[str, bytes]]:
    files = []
    for i, (title, docs) in enumerate(by_title(dataset.documents).items()):
        text = f"# {title}\n\n" + "\n\n".join(d.text for d in docs) + "\n"
        files.append((f"{i:05d}.md", text.encode("utf-8")))
    return files


def from_qa(dataset: Dataset) -> ServiceSet:
    text_of = {d.doc_id: d.text for d in dataset.documents}
    questions = []
    for q in dataset.questions:
        golds = [text_of[g] for g in q.gold if g in text_of]

        def judge(chunk: StoredChunk, golds=golds, answers=q.answers) -> bool:
            return any(holds_paragraph(chunk, g, answers) for g in golds)

        questions.append(ServiceQuestion(q.qid, q.question, judge))
    return ServiceSet(dataset.name, qa_files(dataset), questions)


def from_materials(folder: Path, queries: Path) -> ServiceSet:
    """A course folder: ``materials/`` and a queries file (qid, question, answers,
    gold_materials); questions without answers or gold materials are skipped."""
    if not (folder / "materials").is_dir():
        raise InvalidInput(f"{folder} has no materials/ folder")
    if not queries.is_file():
        raise InvalidInput(f"{queries} is missing")
    questions = []
    for number, line in enumerate(queries.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            qid, text, answers, gold = r["qid"], r["question"], r["answers"], r["gold_materials"]
        except (json.JSONDecodeError, KeyError) as exc:
            raise InvalidInput(f"{queries}:{number}: {exc}") from exc
        if not answers or not gold:
            continue
        keys = [squeeze(a) for a in answers]

        def judge(chunk: StoredChunk, gold=frozenset(gold), keys=keys) -> bool:
            return chunk.filename in gold and any(k and k in squeeze(chunk.text) for k in keys)

        questions.append(ServiceQuestion(qid, text, judge, str(r.get("type", "qa"))))
    if not questions:
        raise InvalidInput(f"{queries}: no answerable questions")
    return ServiceSet(f"{folder.name}-{queries.stem}", read_files(folder / "materials"), questions)


def evaluate(
    conn: psycopg.Connection,
    sset: ServiceSet,
    embedder: Embedder,
    configs: Sequence[tuple[str, FusionConfig]],
    progress: Callable[[str, int, int], None] = lambda stage, done, total: None,
) -> dict:
    subject = sset.subject_id
    done = [0]

    def stored_one(n: int) -> None:
        done[0] += n
        progress("storing", done[0], len(sset.files))

    stored = ingest_files(conn, subject, EVAL_USER, sset.files, embedder, progress=stored_one)
    by_id = {c.chunk_id: c for c in stored}
    vectors = embedder.embed([q.question for q in sset.questions])
    located = sum(any(q.judge(c) for c in stored) for q in sset.questions)
    report: dict = {
        "dataset": sset.name,
        "questions": len(sset.questions),
        "files": len(sset.files),
        "chunks": len(stored),
        "subject_id": subject,
        # a question whose answer no stored chunk holds cannot score: the parser and
        # chunker's share of the misses
        "questions_with_a_hit_in_the_store": located,
        "systems": {},
    }
    for name, config in configs:
        hits, rranks, ks = [], [], []
        by_type: dict[str, list[tuple[bool, float]]] = {}
        for i, (q, vector) in enumerate(zip(sset.questions, vectors, strict=True)):
            query = SearchQuery(subject, EVAL_USER, [q.question], q.question, mode="hybrid")
            outcome = search(conn, query, embedder, fusion=config, query_vector=np.asarray(vector))
            ranked = [by_id[c.chunk_id] for c in outcome.candidates if c.chunk_id in by_id]
            first = next((r for r, chunk in enumerate(ranked, start=1) if q.judge(chunk)), None)
            hits.append(first is not None)
            rranks.append(1.0 / first if first else 0.0)
            ks.append(outcome.k)
            by_type.setdefault(q.type, []).append((hits[-1], rranks[-1]))
            progress(name, i + 1, len(sset.questions))
        conn.rollback()
        report["systems"][name] = {
            "hit@k": round(statistics.fmean(hits), 4),
            "mrr@k": round(statistics.fmean(rranks), 4),
            "k_mean": round(statistics.fmean(ks), 2),
        }
        if len(by_type) > 1:
            report.setdefault("by_type", {})[name] = {
                t: _type_figures(by_type[t]) for t in sorted(by_type)
            }
    return report


def _type_figures(results: list[tuple[bool, float]]) -> dict:
    return {
        "n": len(results),
        "hit@k": round(statistics.fmean(h for h, _ in results), 4),
        "mrr@k": round(statistics.fmean(r for _, r in results), 4),
    }


def chars_sweep() -> list[tuple[str, FusionConfig]]:
    """The default hybrid, and the character list fused at other weights (0 = without it)."""
    weights = {k: v for k, v in DEFAULT_FUSION.weights.items() if k != "chars"}
    configs = [("hybrid", DEFAULT_FUSION)]
    for w in (0.0, 0.15, 0.3, 0.5, 0.7, 1.0):
        if w != DEFAULT_FUSION.weights.get("chars", 0.0):
            config = dataclasses.replace(DEFAULT_FUSION, weights={**weights, "chars": w})
            configs.append((f"hybrid, chars {w:g}", config))
    # the list min-max normalised, as before its scores were on an absolute scale
    relative = dataclasses.replace(DEFAULT_FUSION, absolute=frozenset())
    configs.append(("hybrid, chars min-max", relative))
    return configs
