"""``eduanima eval answers``: the whole question loop per query, scored strictly.

A dataset is a folder with ``queries.jsonl`` and either

- ``materials/``: course files, stored through the real parser and chunker
  (``ingest_path``); gold is a material filename; or
- ``corpus.jsonl``: one paragraph per record (the public QA sets), stored one chunk per
  paragraph; gold is a paragraph id, and its material is the paragraph's title.

Every question runs through the loop's stage functions in this process (``--direct``:
the code the services run, minus Kafka). Scoring is strict:

- an answerable question is right only if it ends ANSWERED, the answer text (not the
  citations) holds one of its gold keys, and a cited passage comes from a gold material;
- an unanswerable question (no gold keys) is right only if it ends INSUFFICIENT.

Beside the score: per question type, the statuses, iterations and latency, how often
a gold passage was among the passages the answer step received, how often one holding a
gold key was (overall and per type: whether the search or the answer step lost a
question), and where in a right answer its gold key starts (a reader should meet the
answer first, not after context).

A course folder is also asked the questions of ``off_topic.txt``: general knowledge no
course here covers (photosynthesis, Hamlet, game theory), which must end INSUFFICIENT. The
sets' own unanswerable questions are near misses (the notes give the default where the
upper limit is asked); a student also asks about things the course never mentions. (A
course on biology or literature would rightly answer some of them.)
"""

from __future__ import annotations

import hashlib
import json
import re
import statistics
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from services.common import db
from services.common.errors import InvalidInput
from services.loop_runtime import direct_loop, question_event
from services.professor.settings import ProfessorSettings
from services.professor.stages import select_evidence
from services.reasoning import make_llm
from services.reasoning.embedders import CachedEmbedder, Embedder, UseM3Embedder
from tools.bench.machine import percentile, write_report
from tools.evaluation.ingest_path import ingest_files, read_files, stored_form_version
from tools.evaluation.retrieval import EVAL_USER, load_dataset, store_dataset

console = Console(stderr=True)

# Questions on topics none of the course sets covers, in both languages; written for this
# project, asked of every course folder's subject.
OFF_TOPIC = Path(__file__).with_name("off_topic.txt")


@dataclass(frozen=True)
class EvalQuestion:
    qid: str
    question: str
    type: str
    answers: tuple[str, ...]  # gold keys: any one must appear in the answer text
    gold: frozenset[str]  # gold units: material filenames, or paragraph ids

    @property
    def answerable(self) -> bool:
        return bool(self.answers)


@dataclass(frozen=True)
class StoredSet:
    name: str
    subject_id: str
    unit_of: dict[str, str]  # chunk_id -> gold unit (material filename or paragraph id)
    material_of: dict[str, str]  # gold unit -> its material (the unit itself for materials)


def load_questions(folder: Path) -> list[EvalQuestion]:
    path = folder / "queries.jsonl"
    if not path.is_file():
        raise InvalidInput(f"{path} is missing")
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            gold = row.get("gold_materials", row.get("gold_doc_ids"))
            questions.append(
                EvalQuestion(
                    qid=row["qid"],
                    question=row["question"],
                    type=row.get("type", "qa"),
                    answers=tuple(row["answers"]),
                    gold=frozenset(gold),
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise InvalidInput(f"{path}:{number}: not a question record ({exc})") from exc
    if not questions:
        raise InvalidInput(f"{path} holds no questions")
    return questions


def store_set(conn, folder: Path, embedder: Embedder, progress: Callable[[int], None]) -> StoredSet:
    """Store the dataset's documents once (idempotent) and map chunks to gold units."""
    materials = folder / "materials"
    if materials.is_dir():
        files = read_files(materials)
        digest = hashlib.sha256()
        for name, data in files:
            digest.update(name.encode() + b"\0" + data)
        # a change to the ingest code or the stored terms stores the files afresh
        digest.update(stored_form_version().encode())
        subject = f"eval-{folder.name}-{digest.hexdigest()[:12]}"
        chunks = ingest_files(conn, subject, EVAL_USER, files, embedder, progress=progress)
        unit_of = {str(c.chunk_id): c.filename for c in chunks}
        return StoredSet(folder.name, subject, unit_of, {name: name for name, _ in files})
    dataset = load_dataset(folder)
    doc_of = store_dataset(conn, dataset, embedder, progress)
    title_of = {d.doc_id: d.title for d in dataset.documents}
    unit_of = {str(chunk): doc for chunk, doc in doc_of.items()}
    return StoredSet(dataset.name, dataset.subject_id, unit_of, title_of)


def normalised(text: str) -> str:
    """What key matching compares: NFKC, lower case, runs of blanks as one space."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).lower().strip()


@dataclass(frozen=True)
class Outcome:
    qid: str
    type: str
    status: str
    right: bool
    holds_key: bool
    cites_gold: bool
    gold_reached_answer: bool  # a gold passage was among the passages the answer step got
    iterations: int
    latency_s: float
    key_at: int | None = None  # where the first gold key starts in the answer (characters)
    # a gold passage that holds a gold key, as written, was among those the answer step got
    key_reached_answer: bool = False


def judge(
    q: EvalQuestion,
    final,
    answered_from: list[tuple[str, str]],
    cited: list[str],
    stored: StoredSet,
    latency_s: float,
) -> Outcome:
    """Strict scoring of one final answer (see the module docstring); ``answered_from``
    holds the gold unit and the text of each passage the answer step received."""
    gold_materials = {stored.material_of.get(u, u) for u in q.gold}
    keys = [normalised(key) for key in q.answers]
    answer = normalised(final.answer)
    found = [answer.find(key) for key in keys if key in answer]
    holds_key = bool(found)
    cites_gold = any(stored.material_of.get(u, u) in gold_materials for u in cited)
    reached = any(u in q.gold for u, _ in answered_from)
    key_reached = any(
        u in q.gold and any(key in normalised(text) for key in keys) for u, text in answered_from
    )
    if q.answerable:
        right = final.status == "ANSWERED" and holds_key and cites_gold
    else:
        right = final.status == "INSUFFICIENT"
    return Outcome(
        q.qid,
        q.type,
        final.status,
        right,
        holds_key,
        cites_gold,
        reached,
        final.iterations,
        latency_s,
        min(found) if found else None,
        key_reached,
    )


def summarise(outcomes: list[Outcome]) -> dict:
    def share(items: list[Outcome], test) -> float:
        return round(sum(map(test, items)) / len(items), 4) if items else 0.0

    def key_reached(items: list[Outcome]) -> float:
        return share(items, lambda o: o.key_reached_answer)

    answerable = [o for o in outcomes if o.type != "unanswerable"]
    answered = [o for o in answerable if o.status == "ANSWERED"]
    by_type: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_type[outcome.type].append(outcome)
    reached = [o for o in outcomes if o.gold_reached_answer]
    # how far a reader gets into a right answer before its gold key starts
    key_at = [o.key_at for o in outcomes if o.right and o.key_at is not None]
    latencies = sorted(o.latency_s for o in outcomes)
    return {
        "questions": len(outcomes),
        "strict_right": share(outcomes, lambda o: o.right),
        "per_type": {
            kind: {
                "n": len(items),
                "strict_right": share(items, lambda o: o.right),
                **({} if kind == "unanswerable" else {"key_reached": key_reached(items)}),
            }
            for kind, items in sorted(by_type.items())
        },
        "statuses": dict(Counter(o.status for o in outcomes)),
        "answered_holds_key": share(answered, lambda o: o.holds_key),
        "gold_reached_answer_step": share(answerable, lambda o: o.gold_reached_answer),
        "key_reached_answer_step": key_reached(answerable),
        "insufficient_when_gold_reached": share(reached, lambda o: o.status == "INSUFFICIENT"),
        "gold_key_position": {
            "median_chars": statistics.median(key_at) if key_at else None,
            "within_100_chars": round(sum(k < 100 for k in key_at) / len(key_at), 4)
            if key_at
            else 0.0,
        },
        "mean_iterations": round(statistics.mean(o.iterations for o in outcomes), 2),
        "latency_s": {
            "p50": round(statistics.median(latencies), 3),
            "p95": round(percentile(latencies, 95), 3),
            "max": round(max(latencies), 3),
        },
    }


def ask_off_topic(loop, subject_id: str, progress: Progress) -> dict | None:
    """Ask the subject ``OFF_TOPIC``'s questions: the share refused, and those answered."""
    questions = [q for q in OFF_TOPIC.read_text(encoding="utf-8").splitlines() if q.strip()]
    if not questions:
        return None
    task = progress.add_task("off topic", total=len(questions))
    answered = []
    for question in questions:
        if loop.run(question_event(subject_id, EVAL_USER, question))[-1].status == "ANSWERED":
            answered.append(question)
        progress.advance(task)
    return {
        "asked": len(questions),
        "refused": round(1 - len(answered) / len(questions), 4),
        "answered": answered,
    }


def run_answer_eval(
    dataset_dir: str,
    limit: int = 0,
    out: str = "bench-results/eval-answers.json",
    only_types: tuple[str, ...] = (),
) -> dict:
    folder = Path(dataset_dir)
    settings = ProfessorSettings()
    db.migrate(settings)
    questions = load_questions(folder)
    if only_types:
        questions = [q for q in questions if q.type in only_types]
    questions = questions[:limit] if limit else questions
    embedder = CachedEmbedder(UseM3Embedder(), Path(settings.eduanima_home) / "embed-cache")
    with db.connect(settings) as conn, Progress(console=console) as progress:
        task = progress.add_task("storing documents", total=None)
        stored = store_set(conn, folder, embedder, lambda n: progress.advance(task, n))
    loop, close = direct_loop(
        settings, engine=make_llm(settings, embedder=embedder), embedder=embedder, record=False
    )
    outcomes: list[Outcome] = []
    details = []
    try:
        with Progress(console=console) as progress:
            task = progress.add_task("asking", total=len(questions))
            for q in questions:
                start = time.perf_counter()
                events = loop.run(question_event(stored.subject_id, EVAL_USER, q.question))
                latency = time.perf_counter() - start
                final = events[-1]
                state = loop.last_states.get(final.session_id)
                answered_from = (
                    [
                        (stored.unit_of.get(e.chunk_id, ""), e.chunk_text)
                        for e in select_evidence(state)
                    ]
                    if state
                    else []
                )
                cited = [stored.unit_of.get(c.chunk_id, "") for c in final.citations]
                outcome = judge(q, final, answered_from, cited, stored, latency)
                outcomes.append(outcome)
                details.append(
                    {
                        **outcome.__dict__,
                        "question": q.question,
                        "answer": final.answer,
                        "cited": cited,
                    }
                )
                progress.advance(task)
            off_topic = (
                ask_off_topic(loop, stored.subject_id, progress)
                if (folder / "materials").is_dir()
                else None
            )
    finally:
        close()
    report = write_report(
        out,
        {
            "benchmark": "eval-answers",
            "dataset": stored.name,
            "mode": "direct (the loop's stage functions in one process, no Kafka)",
            "engine": loop.engine.name,
            "embedder": embedder.name,
            "scoring": "strict: ANSWERED + a gold key in the answer text + a cited gold material;"
            " unanswerable: INSUFFICIENT",
            **summarise(outcomes),
            **({"off_topic": off_topic} if off_topic else {}),
        },
    )
    Path(out).with_suffix(".details.jsonl").write_text(
        "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in details), encoding="utf-8"
    )
    console.print_json(data=report)
    return report
