"""The ``gemini`` LLM engine: google-genai with structured JSON output per phase.

Models per phase come from settings (PROFESSOR_GEMINI_MODEL_PLANNING,
LIBRARIAN_GEMINI_MODEL_SEARCH, PROFESSOR_GEMINI_MODEL_ANSWER); thinking levels
follow seed 001 (planning medium, search low, answer and review medium).
Model output is validated, never trusted: findings that cite an index not
shown or a snippet that is not in the passage are dropped (and logged), and
answer sentences citing evidence that does not exist are removed.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import httpx
from google.genai import types

from services.common.errors import EngineError
from services.common.settings import LLMSettings
from services.reasoning.extractive.planner import rule_refine
from services.reasoning.extractive.review import split_claims
from services.reasoning.extractive.text import detect_language
from services.reasoning.gemini import prompts
from services.reasoning.gemini.client import LazyClient, engine_errors
from services.reasoning.llm import (
    Finding,
    Judgement,
    Passage,
    PlanDraft,
    PlannedTask,
    QueryDraft,
    Review,
    Turn,
)

logger = logging.getLogger(__name__)

DEFAULT_THINKING: Mapping[str, types.ThinkingLevel] = {
    "plan": types.ThinkingLevel.MEDIUM,
    "evaluate": types.ThinkingLevel.LOW,
    "refine": types.ThinkingLevel.LOW,
    "answer": types.ThinkingLevel.MEDIUM,
    "review": types.ThinkingLevel.MEDIUM,
}
_STOP_KINDS = ("SUFFICIENCY", "UNAMBIGUITY", "VISUAL_CHECK")
# Reflection rounds (critique → revise → re-check) before the answer is published.
REVIEW_ROUNDS = 2
# Gemini 3 Pro accepts only LOW and HIGH; the nearest accepted level replaces the others.
_PRO_LEVELS = {
    types.ThinkingLevel.MINIMAL: types.ThinkingLevel.LOW,
    types.ThinkingLevel.MEDIUM: types.ThinkingLevel.HIGH,
}


def thinking_level(model: str, wanted: types.ThinkingLevel) -> types.ThinkingLevel:
    if "gemini-3-pro" in model:
        return _PRO_LEVELS.get(wanted, wanted)
    return wanted


class GeminiLLM:
    name = "gemini"

    def __init__(
        self,
        settings: LLMSettings,
        *,
        transport: httpx.BaseTransport | None = None,
        client: LazyClient | None = None,
        thinking: Mapping[str, types.ThinkingLevel] | None = None,
    ):
        self._client = client or LazyClient(settings, transport)
        self.models = {
            "plan": settings.professor_gemini_model_planning,
            "evaluate": settings.librarian_gemini_model_search,
            "refine": settings.librarian_gemini_model_search,
            "answer": settings.professor_gemini_model_answer,
            "review": settings.professor_gemini_model_answer,
        }
        self.thinking = {**DEFAULT_THINKING, **(thinking or {})}
        self.answer_context_chars = settings.gemini_answer_context_chars

    # -- phases --------------------------------------------------------------------------

    def plan(self, question: str, history: Sequence[Turn] = ()) -> PlanDraft:
        data = self._json(
            "plan",
            prompts.PLAN_SYSTEM,
            prompts.plan_prompt(question, history),
            prompts.PLAN_SCHEMA,
        )
        return _plan_from(data, question)

    def evaluate(
        self,
        question: str,
        tasks: Sequence[PlannedTask],
        passages: Sequence[Passage],
        stop_conditions: Sequence[tuple[str, str]] = (),
    ) -> Judgement:
        if not passages:
            return Judgement([], [], "no passages to evaluate")
        prompt = prompts.evaluate_prompt(question, tasks, passages, stop_conditions)
        data = self._json("evaluate", prompts.EVALUATE_SYSTEM, prompt, prompts.EVALUATE_SCHEMA)
        return _judgement_from(data, tasks, passages, {kind for kind, _ in stop_conditions})

    def refine(
        self,
        question: str,
        tasks: Sequence[PlannedTask],
        missing_task_ids: Sequence[str],
        strategy: str,
        found: Sequence[str],
    ) -> QueryDraft:
        prompt = prompts.refine_prompt(question, tasks, missing_task_ids, strategy, found)
        data = self._json("refine", prompts.REFINE_SYSTEM, prompt, prompts.REFINE_SCHEMA)
        queries = [q.strip() for q in _strings(data.get("text_queries")) if q.strip()]
        vector = str(data.get("vector_query") or "").strip()
        if not queries and not vector:
            logger.warning(
                "gemini refine returned no queries; using the rule-based %s queries", strategy
            )
            return rule_refine(question, tasks, missing_task_ids, strategy, found)
        return QueryDraft(text_queries=queries, vector_query=vector or question)

    def answer(
        self,
        question: str,
        language: str,
        evidence: Sequence[Passage],
        complete: bool = True,
        missing: Sequence[str] = (),
    ) -> Iterator[str]:
        config = types.GenerateContentConfig(
            system_instruction=prompts.ANSWER_SYSTEM,
            thinking_config=types.ThinkingConfig(
                thinking_level=thinking_level(self.models["answer"], self.thinking["answer"])
            ),
        )
        prompt = prompts.answer_prompt(
            question, language, evidence, complete, self.answer_context_chars, missing
        )
        with engine_errors(f"gemini answer ({self.models['answer']})"):
            stream = self._client.get().models.generate_content_stream(
                model=self.models["answer"], contents=prompt, config=config
            )
            for chunk in stream:
                if chunk.text:
                    yield chunk.text

    def review(
        self, question: str, language: str, draft: str, evidence: Sequence[Passage]
    ) -> Review:
        """Reflection: critique → revise → check the revision again, at most
        ``REVIEW_ROUNDS`` rounds; it stops as soon as a round changes nothing."""
        answer, critiques, dropped = draft, [], []
        for round_ in range(1, REVIEW_ROUNDS + 1):
            prompt = prompts.review_prompt(question, language, answer, evidence)
            data = self._json("review", prompts.REVIEW_SYSTEM, prompt, prompts.REVIEW_SCHEMA)
            revised, unknown = drop_unknown_citations(str(data.get("answer") or ""), evidence)
            removed = _strings(data.get("dropped")) + unknown
            critique = str(data.get("critique") or "").strip()
            if unknown:
                critique += (
                    f" Removed {len(unknown)} sentence(s) citing evidence that does not exist."
                )
            changed = revised.strip() != answer.strip()
            if critique and changed:
                critiques.append(f"round {round_}: {critique.strip()}")
            answer = revised.strip()
            dropped = list(dict.fromkeys(dropped + removed))
            if not changed:
                break
        return Review(answer=answer, critique=" ".join(critiques), dropped=dropped)

    # -- transport -----------------------------------------------------------------------

    def _json(self, phase: str, system: str, prompt: str, schema: dict[str, Any]) -> dict[str, Any]:
        model = self.models[phase]
        config = types.GenerateContentConfig(
            system_instruction=system,
            response_mime_type="application/json",
            response_schema=schema,
            thinking_config=types.ThinkingConfig(
                thinking_level=thinking_level(model, self.thinking[phase])
            ),
        )
        with engine_errors(f"gemini {phase} ({model})"):
            response = self._client.get().models.generate_content(
                model=model, contents=prompt, config=config
            )
        text = response.text or ""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise EngineError(
                f"gemini {phase} ({model}) returned invalid JSON: {text[:200]!r}"
            ) from exc
        if not isinstance(data, dict):
            raise EngineError(
                f"gemini {phase} ({model}) returned {type(data).__name__}, not an object"
            )
        return data


# -- validation of model output (pure) --------------------------------------------------------


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _plan_from(data: dict[str, Any], question: str) -> PlanDraft:
    tasks: list[PlannedTask] = []
    for n, raw in enumerate(data.get("tasks") or [], start=1):
        if not isinstance(raw, dict) or not str(raw.get("description") or "").strip():
            continue
        task_id = str(raw.get("task_id") or f"T{n}").strip()
        if any(t.task_id == task_id for t in tasks):
            task_id = f"T{n}"
        keywords = [k.strip() for k in _strings(raw.get("keywords")) if k.strip()]
        description = str(raw["description"]).strip()
        tasks.append(
            PlannedTask(
                task_id, description, keywords or [description], bool(raw.get("required", True))
            )
        )
    if not tasks:
        raise EngineError("gemini plan returned no usable task")
    conditions = [
        (str(c["kind"]), str(c.get("description") or ""))
        for c in data.get("stop_conditions") or []
        if isinstance(c, dict) and c.get("kind") in _STOP_KINDS
    ]
    if not any(kind == "SUFFICIENCY" for kind, _ in conditions):
        conditions.insert(0, ("SUFFICIENCY", "every task has cited evidence"))
    try:
        complexity = min(2.0, max(1.0, float(data.get("complexity", 1.0))))
    except (TypeError, ValueError):
        complexity = 1.0
    language = data.get("language")
    queries = [q.strip() for q in _strings(data.get("text_queries")) if q.strip()]
    restated = str(data.get("standalone_question") or "").strip()
    return PlanDraft(
        tasks=tasks,
        stop_conditions=conditions,
        complexity=complexity,
        language=language if language in ("ja", "en") else detect_language(question),
        text_queries=queries or [" ".join(t.keywords) for t in tasks],
        vector_query=str(data.get("vector_query") or "").strip() or question,
        question=restated if restated and restated != question else "",
    )


def _judgement_from(
    data: dict[str, Any],
    tasks: Sequence[PlannedTask],
    passages: Sequence[Passage],
    conditions: set[str] = frozenset(),
) -> Judgement:
    by_index = {p.index: p for p in passages}
    task_ids = {t.task_id for t in tasks}
    findings: list[Finding] = []
    for raw in data.get("findings") or []:
        if not isinstance(raw, dict):
            continue
        finding = _valid_finding(raw, by_index, task_ids)
        if finding is not None:
            findings.append(finding)
    evidenced = {f.task_id for f in findings}
    claimed = _strings(data.get("satisfied_task_ids"))
    satisfied = [t.task_id for t in tasks if t.task_id in claimed and t.task_id in evidenced]
    for task_id in claimed:
        if task_id not in satisfied:
            logger.info(
                "gemini evaluate: %s claimed satisfied without a valid finding; not counted",
                task_id,
            )
    unmet = [kind for kind in _strings(data.get("unmet_conditions")) if kind in conditions]
    return Judgement(
        findings=findings,
        satisfied_task_ids=satisfied,
        reason=str(data.get("reason") or ""),
        unmet_conditions=unmet,
    )


def _valid_finding(
    raw: dict[str, Any], by_index: dict[int, Passage], task_ids: set[str]
) -> Finding | None:
    try:
        index = int(raw.get("index"))
    except (TypeError, ValueError):
        logger.info(
            "gemini evaluate: dropped a finding without an integer index: %r", raw.get("index")
        )
        return None
    if index not in by_index:
        logger.info("gemini evaluate: dropped a finding for index %d, which was not shown", index)
        return None
    task_id = str(raw.get("task_id") or "")
    if task_id not in task_ids:
        logger.info("gemini evaluate: dropped a finding for unknown task %r", task_id)
        return None
    snippet = verbatim(str(raw.get("snippet") or ""), by_index[index].text)
    if snippet is None:
        logger.info(
            "gemini evaluate: dropped a finding whose snippet is not in passage [%d]", index
        )
        return None
    try:
        score = min(1.0, max(0.0, float(raw.get("score", 0.0))))
    except (TypeError, ValueError):
        score = 0.0
    return Finding(index, task_id, snippet, score, str(raw.get("reason") or ""))


def verbatim(snippet: str, passage: str) -> str | None:
    """The snippet as it occurs in the passage (whitespace may differ), or None if it does not."""
    snippet = snippet.strip()
    if not snippet:
        return None
    if snippet in passage:
        return snippet
    pattern = r"\s*".join(re.escape(piece) for piece in snippet.split())
    match = re.search(pattern, passage)
    return match.group(0) if match else None


def drop_unknown_citations(answer: str, evidence: Sequence[Passage]) -> tuple[str, list[str]]:
    """Remove claims citing [n] for which no evidence passage exists; renumber nothing."""
    known = {p.index + 1 for p in evidence}
    kept_lines: list[str] = []
    dropped: list[str] = []
    for line in answer.splitlines():
        kept: list[str] = []
        for unit in split_claims(line) or [line]:
            cited = {int(n) for n in re.findall(r"\[(\d+)\]", unit)}
            if cited - known:
                dropped.append(unit.strip())
            else:
                kept.append(unit)
        if kept or not line.strip():
            kept_lines.append("".join(kept).rstrip())
    return "\n".join(kept_lines), dropped
