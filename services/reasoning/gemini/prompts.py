"""Gemini prompts and JSON response schemas, one pair per phase.

Passages appear only as ``[index] text`` (temp indexes, never chunk or
material IDs: ARCHITECTURE invariant 3). The answer step shows evidence as
``[n]`` with n = index + 1, the number the reader sees in citations.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.reasoning.llm import Passage, PlannedTask, Turn

# -- schemas (OpenAPI subset accepted by response_schema) ------------------------------------

_STRINGS = {"type": "ARRAY", "items": {"type": "STRING"}}

PLAN_SCHEMA = {
    "type": "OBJECT",
    "properties": {
        "language": {"type": "STRING", "enum": ["ja", "en"]},
        "complexity": {"type": "NUMBER", "minimum": 1.0, "maximum": 2.0},
        "tasks": {
            "type": "ARRAY",
            "minItems": 1,
            "items": {
                "type": "OBJECT",
                "properties": {
                    "task_id": {"type": "STRING"},
                    "description": {"type": "STRING"},
                    "keywords": _STRINGS,
                    "required": {"type": "BOOLEAN"},
                },
                "required": ["task_id", "description", "keywords"],
            },
        },
        "stop_conditions": {
            "type": "ARRAY",
            "items": {
                "type": "OBJECT",
                "properties": {
                    "kind": {
                        "type": "STRING",
                        "enum": ["SUFFICIENCY", "UNAMBIGUITY", "VISUAL_CHECK"],
                    },
                    "description": {"type": "STRING"},
                },
                "required": ["kind", "description"],
            },
        },
        "text_queries": _STRINGS,
        "vector_query": {"type": "STRING"},
        "standalone_question": {"type": "STRING"},
    },
    "required": [
        "language",
        "complexity",
        "tasks",
        "stop_conditions",
        "text_queries",
        "vector_query",
    ],
}

EVALUATE_SCHEMA = {
    "type": "OBJECT",
    "properties": {
        "findings": {
            "type": "ARRAY",
            "items": {
                "type": "OBJECT",
                "properties": {
                    "index": {"type": "INTEGER"},
                    "task_id": {"type": "STRING"},
                    "snippet": {"type": "STRING"},
                    "score": {"type": "NUMBER", "minimum": 0.0, "maximum": 1.0},
                    "reason": {"type": "STRING"},
                },
                "required": ["index", "task_id", "snippet", "score", "reason"],
            },
        },
        "satisfied_task_ids": _STRINGS,
        "unmet_conditions": _STRINGS,
        "reason": {"type": "STRING"},
    },
    "required": ["findings", "satisfied_task_ids", "unmet_conditions", "reason"],
}

REFINE_SCHEMA = {
    "type": "OBJECT",
    "properties": {
        "text_queries": _STRINGS,
        "vector_query": {"type": "STRING"},
        "reasoning": {"type": "STRING"},
    },
    "required": ["text_queries", "vector_query"],
}

REVIEW_SCHEMA = {
    "type": "OBJECT",
    "properties": {
        "critique": {"type": "STRING"},
        "answer": {"type": "STRING"},
        "dropped": _STRINGS,
    },
    "required": ["critique", "answer", "dropped"],
}

# -- system instructions -------------------------------------------------------------------

PLAN_SYSTEM = """You plan the search for a question about course materials (Phase 2).
Split the question into minimal tasks: one per thing that must be found. A comparison
gets one task per compared item plus one task for the difference; a definition is one task.
Give each task content keywords (terms the materials would contain, no question words).
Stop conditions: always SUFFICIENCY; UNAMBIGUITY when near concepts could be confused;
VISUAL_CHECK when the question is about a figure, table or chart.
complexity: 1.0 for a definition or a single fact, 1.5 for an explanation or several
facts, 2.0 for a comparison across materials. language: ja if the question is Japanese, else en.
text_queries: keyword queries (one per task and one for the whole question);
vector_query: one natural sentence that states what is sought.
When earlier turns of the conversation are given, the question may point back to them
("why is that?", "その例は？"): plan it with the topic it refers to, and give the question
restated so it stands alone as standalone_question (else the question as asked).
Output JSON only."""

EVALUATE_SYSTEM = """You are a librarian judging new search results for a question.
Passages are shown as [index] text, some as [index] (section: heading) text: the
section tells what the text is about, but snippets come from the text only.
For each passage that serves a task, report a finding:
the passage index, the task_id, a snippet copied character for character from that passage
(the core sentence, at most two sentences), a score from 0 to 1, and a short reason.
Never invent or paraphrase snippets; never cite an index that is not shown.
A task is satisfied only when a finding actually states what the task asks; sharing a few
words with the question is not enough. When the plan's stop conditions are given, list in
unmet_conditions the kind of each one the evidence does not meet yet (UNAMBIGUITY: the
compared items are told apart, each by its own evidence; VISUAL_CHECK: what the figure or
table shows is available as text). Output JSON only."""

REFINE_SYSTEM = """You rewrite search queries for course materials after a search fell short.
Strategies: missing = target only the tasks still missing; broader = fewer, more general
terms (drop the most specific term, use synonyms); neighbours = use headings and terms from
the evidence already found to reach nearby sections. Avoid repeating what was already found.
Output JSON only: text_queries (keyword queries) and vector_query (one sentence)."""

ANSWER_SYSTEM = """You are a professor answering a student's question from course materials only.
Evidence passages are shown as [n] text. Use only what the evidence states; cite every
sentence with the [n] of the passage that supports it. If the evidence does not answer
(part of) the question, say so plainly instead of guessing. Answer in the requested language,
concisely, in plain text or simple Markdown."""

REVIEW_SYSTEM = """You review a draft answer against its evidence (critique, then revise).
Evidence passages are shown as [n] text. Check every sentence of the draft: it must carry a
citation [n], and passage n must actually support it (quoted text must occur in it).
Revise a sentence that says more than its passage (an overstatement, a wrong number, a
missing qualification) so that it says exactly what the passage supports, keeping its [n].
Remove a sentence no passage supports and list it verbatim in "dropped". Do not renumber
citations and do not add claims the evidence does not make. Return the critique (empty
when the draft needed no change), the revised answer and the dropped sentences.
Output JSON only."""

# -- prompts --------------------------------------------------------------------------------


def _tasks_block(tasks: Sequence[PlannedTask]) -> str:
    return "\n".join(
        f"- {t.task_id}: {t.description} (keywords: {', '.join(t.keywords) or '-'})" for t in tasks
    )


def _passages_block(passages: Sequence[Passage], *, offset: int = 0) -> str:
    return "\n\n".join(
        f"[{p.index + offset}] "
        + (f"(section: {p.heading}) " if p.heading else "")
        + p.text.strip()
        for p in passages
    )


def plan_prompt(question: str, history: Sequence[Turn] = ()) -> str:
    if not history:
        return f"Question:\n{question}"
    turns = "\n\n".join(
        f"Earlier question {n}: {t.question}\nAnswer: {t.answer.strip()[:600] or '(none)'}"
        + (f"\nCited materials: {', '.join(t.cited_titles)}" if t.cited_titles else "")
        for n, t in enumerate(history, start=1)
    )
    return (
        f"Conversation so far:\n{turns}\n\nQuestion (a follow-up in this conversation):\n{question}"
    )


def evaluate_prompt(
    question: str,
    tasks: Sequence[PlannedTask],
    passages: Sequence[Passage],
    stop_conditions: Sequence[tuple[str, str]] = (),
) -> str:
    conditions = "\n".join(f"- {kind}: {text}" for kind, text in stop_conditions)
    return (
        f"Question:\n{question}\n\nTasks:\n{_tasks_block(tasks)}\n\n"
        + (f"Stop conditions of the plan:\n{conditions}\n\n" if conditions else "")
        + f"New passages:\n{_passages_block(passages)}"
    )


def refine_prompt(
    question: str,
    tasks: Sequence[PlannedTask],
    missing_task_ids: Sequence[str],
    strategy: str,
    found: Sequence[str],
) -> str:
    missing = [t for t in tasks if t.task_id in set(missing_task_ids)] or list(tasks)
    held = "\n".join(f"- {s.strip()}" for s in found) or "- (nothing yet)"
    return (
        f"Question:\n{question}\n\nAll tasks:\n{_tasks_block(tasks)}\n\n"
        f"Tasks still missing:\n{_tasks_block(missing)}\n\nStrategy: {strategy}\n\n"
        f"Evidence already found:\n{held}"
    )


INCOMPLETE_NOTE = (
    "The search ended without enough evidence. Do not answer from what is missing: in one "
    "sentence say that the materials do not cover it, then quote at most three passages that "
    "come closest, each with its [n], or none if none is relevant."
)


PARTIAL_NOTE = (
    "The evidence answers only part of the question. It does not answer: {missing}. Answer "
    "the rest; for each of these, say in one sentence that the materials do not cover it, and "
    "do not answer it from anything else."
)


def answer_prompt(
    question: str,
    language: str,
    evidence: Sequence[Passage],
    complete: bool = True,
    budget_chars: int = 24_000,
    missing: Sequence[str] = (),
) -> str:
    lang = "Japanese" if language == "ja" else "English"
    note = "" if complete else f"{INCOMPLETE_NOTE}\n\n"
    if complete and missing:
        note = PARTIAL_NOTE.format(missing="; ".join(missing)) + "\n\n"
    return (
        f"Answer in {lang}.\n\n{note}Question:\n{question}\n\n"
        f"Evidence (each passage's whole section, then what stands around it):\n"
        f"{_full_passages_block(evidence, budget_chars)}"
    )


def _full_passages_block(evidence: Sequence[Passage], budget_chars: int) -> str:
    """Every selected passage's whole chunk, then its neighbours, best evidence first,
    within ``budget_chars``: the chunks first (cut at the budget), neighbours with what
    is left, so a long neighbourhood never crowds out another passage's own text."""
    sections = [(p, (p.context or p.text).strip()) for p in evidence]
    left = budget_chars - sum(len(text) for _, text in sections)
    blocks = []
    for passage, text in sections:
        if left < 0:  # even the chunks do not fit: each gets its share
            text = text[: max(200, budget_chars // max(1, len(sections)))] + "…"
        block = (
            f"[{passage.index + 1}] "
            + (f"(section: {passage.heading}) " if passage.heading else "")
            + text
        )
        if passage.neighbours and left > 0:
            around = passage.neighbours.strip()[:left]
            left -= len(around)
            block += f"\n(around it) {around}"
        blocks.append(block)
    return "\n\n".join(blocks)


def review_prompt(question: str, language: str, draft: str, evidence: Sequence[Passage]) -> str:
    lang = "Japanese" if language == "ja" else "English"
    return (
        f"The answer is in {lang}.\n\nQuestion:\n{question}\n\nDraft answer:\n{draft}\n\n"
        f"Evidence:\n{_passages_block(evidence, offset=1)}"
    )
