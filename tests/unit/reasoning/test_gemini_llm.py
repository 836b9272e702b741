"""The gemini engine against canned REST bodies (httpx MockTransport): no network."""

from __future__ import annotations

import json

import httpx
import pytest

from services.common.errors import EngineError
from services.common.settings import LLMSettings
from services.reasoning.gemini.llm import GeminiLLM
from services.reasoning.llm import Passage, PlannedTask

BASE_URL = "http://gemini.test"

PASSAGES = [
    Passage(3, "決定係数は回帰モデルの当てはまりを表す。値は0から1をとる。"),
    Passage(4, "相関係数は二つの変数の直線的な関係の強さを表す。", heading="第2回 › 相関"),
]
TASKS = [
    PlannedTask("T1", "決定係数とは何か", ["決定係数"]),
    PlannedTask("T2", "相関係数とは何か", ["相関係数"]),
]


def settings(**overrides) -> LLMSettings:
    fields = dict(
        gemini_api_key="test-key",
        gemini_base_url=BASE_URL,
        gemini_timeout_ms=5_000,
        gemini_attempts=1,
        professor_gemini_model_planning="plan-model",
        librarian_gemini_model_search="search-model",
        professor_gemini_model_answer="answer-model",
    )
    return LLMSettings(**{**fields, **overrides})


class Canned:
    """Serves one JSON object (generateContent) or SSE chunks (streamGenerateContent)."""

    def __init__(self, payload=None, *, chunks=(), status=200, raw_text=None, sequence=()):
        self.payload, self.chunks, self.status, self.raw_text = payload, chunks, status, raw_text
        self.sequence = list(sequence)  # one payload per call, in order, when given
        self.requests: list[tuple[str, dict]] = []

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self._handle)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append((str(request.url), json.loads(request.content or b"{}")))
        if self.status != 200:
            error = {"code": self.status, "message": "canned failure", "status": "INTERNAL"}
            return httpx.Response(self.status, json={"error": error})
        if "streamGenerateContent" in str(request.url):
            body = "".join(f"data: {json.dumps(_candidate(text))}\r\n\r\n" for text in self.chunks)
            return httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})
        payload = self.sequence.pop(0) if self.sequence else self.payload
        text = self.raw_text if self.raw_text is not None else json.dumps(payload)
        return httpx.Response(200, json=_candidate(text))

    def config(self, i: int = -1) -> dict:
        return self.requests[i][1]["generationConfig"]

    def prompt(self, i: int = -1) -> str:
        return self.requests[i][1]["contents"][0]["parts"][0]["text"]


def _candidate(text: str) -> dict:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}
        ]
    }


def _thinking_level(config: dict) -> str:
    thinking = config["thinkingConfig"]
    return thinking.get("thinkingLevel") or thinking.get("thinking_level")


def engine_for(canned: Canned) -> GeminiLLM:
    return GeminiLLM(settings(), transport=canned.transport())


def test_plan_asks_for_json_with_a_schema_and_medium_thinking():
    canned = Canned(
        {
            "language": "ja",
            "complexity": 2.0,
            "tasks": [
                {"task_id": "T1", "description": "決定係数とは何か", "keywords": ["決定係数"]},
                {"task_id": "T2", "description": "相関係数とは何か", "keywords": ["相関係数"]},
                {"task_id": "T3", "description": "違い", "keywords": ["決定係数", "相関係数"]},
            ],
            "stop_conditions": [
                {"kind": "SUFFICIENCY", "description": "all tasks cited"},
                {"kind": "UNAMBIGUITY", "description": "not confused"},
                {"kind": "MADE_UP", "description": "dropped"},
            ],
            "text_queries": ["決定係数", "相関係数"],
            "vector_query": "決定係数と相関係数の違い",
        }
    )
    plan = engine_for(canned).plan("決定係数と相関係数の違いは？")
    url, body = canned.requests[0]
    assert "plan-model:generateContent" in url
    config = canned.config()
    assert config["responseMimeType"] == "application/json"
    assert "tasks" in config["responseSchema"]["properties"]
    assert _thinking_level(config) == "MEDIUM"
    assert "決定係数と相関係数の違いは？" in canned.prompt()
    assert body["systemInstruction"]["parts"][0]["text"].startswith("You plan the search")
    assert [t.task_id for t in plan.tasks] == ["T1", "T2", "T3"]
    assert plan.complexity == 2.0 and plan.language == "ja"
    assert [kind for kind, _ in plan.stop_conditions] == ["SUFFICIENCY", "UNAMBIGUITY"]
    assert plan.vector_query == "決定係数と相関係数の違い"


def test_plan_without_tasks_is_an_engine_error():
    canned = Canned(
        {
            "language": "en",
            "complexity": 1,
            "tasks": [],
            "stop_conditions": [],
            "text_queries": [],
            "vector_query": "",
        }
    )
    with pytest.raises(EngineError, match="no usable task"):
        engine_for(canned).plan("?")


def test_evaluate_keeps_only_findings_that_quote_a_shown_passage():
    canned = Canned(
        {
            "findings": [
                {
                    "index": 3,
                    "task_id": "T1",
                    "snippet": "決定係数は回帰モデルの当てはまりを表す。",
                    "score": 0.9,
                    "reason": "defines it",
                },
                # whitespace differs: recovered as the passage's own text
                {
                    "index": 4,
                    "task_id": "T2",
                    "snippet": "相関係数は 二つの変数の直線的な関係の強さを表す。",
                    "score": 1.4,
                    "reason": "defines it",
                },
                {
                    "index": 9,
                    "task_id": "T1",
                    "snippet": "決定係数",
                    "score": 0.5,
                    "reason": "not shown",
                },
                {
                    "index": 3,
                    "task_id": "T2",
                    "snippet": "相関係数は負にならない。",
                    "score": 0.8,
                    "reason": "invented",
                },
                {
                    "index": 3,
                    "task_id": "T7",
                    "snippet": "値は0から1をとる。",
                    "score": 0.5,
                    "reason": "unknown task",
                },
            ],
            "satisfied_task_ids": ["T1", "T2", "T7"],
            "reason": "both defined",
        }
    )
    judgement = engine_for(canned).evaluate("違いは？", TASKS, PASSAGES)
    url, _ = canned.requests[0]
    assert "search-model:generateContent" in url
    assert _thinking_level(canned.config()) == "LOW"
    assert canned.config()["responseMimeType"] == "application/json"
    assert "findings" in canned.config()["responseSchema"]["properties"]
    prompt = canned.prompt()
    assert (
        "[3] 決定係数は回帰モデル" in prompt and "[4] (section: 第2回 › 相関) 相関係数は" in prompt
    )
    assert [(f.index, f.task_id) for f in judgement.findings] == [(3, "T1"), (4, "T2")]
    assert judgement.findings[1].snippet == "相関係数は二つの変数の直線的な関係の強さを表す。"
    assert judgement.findings[1].score == 1.0
    assert judgement.satisfied_task_ids == ["T1", "T2"]


def test_evaluate_does_not_count_a_task_claimed_without_evidence():
    canned = Canned(
        {
            "findings": [
                {"index": 3, "task_id": "T2", "snippet": "made up", "score": 1, "reason": ""}
            ],
            "satisfied_task_ids": ["T2"],
            "reason": "",
        }
    )
    judgement = engine_for(canned).evaluate("q", TASKS, PASSAGES)
    assert judgement.findings == [] and judgement.satisfied_task_ids == []


def test_refine_sends_the_strategy_and_returns_queries():
    canned = Canned(
        {"text_queries": ["相関", "係数"], "vector_query": "相関の強さ", "reasoning": "wider"}
    )
    draft = engine_for(canned).refine(
        "q", TASKS, ["T2"], "broader", ["決定係数は回帰モデルの当てはまりを表す。"]
    )
    assert draft.text_queries == ["相関", "係数"] and draft.vector_query == "相関の強さ"
    prompt = canned.prompt()
    assert "Strategy: broader" in prompt and "- T2: 相関係数とは何か" in prompt
    assert _thinking_level(canned.config()) == "LOW"
    assert "search-model" in canned.requests[0][0]


def test_answer_streams_with_citations_numbered_from_one():
    canned = Canned(
        chunks=["決定係数は当てはまりを", "表す[1]。", "相関係数は関係の強さを表す[2]。"]
    )
    pieces = list(engine_for(canned).answer("違いは？", "ja", PASSAGES))
    assert pieces == ["決定係数は当てはまりを", "表す[1]。", "相関係数は関係の強さを表す[2]。"]
    url, body = canned.requests[0]
    assert "answer-model:streamGenerateContent" in url
    assert _thinking_level(body["generationConfig"]) == "MEDIUM"
    prompt = canned.prompt()
    assert "Answer in Japanese" in prompt
    assert (
        "[4] 決定係数は" in prompt and "[5] (section: 第2回 › 相関) 相関係数は" in prompt
    )  # n = index + 1


def test_review_removes_claims_citing_evidence_that_does_not_exist():
    canned = Canned(
        {
            "critique": "One sentence lacked support.",
            "answer": "決定係数は当てはまりを表す[4]。相関係数は常に正である[9]。\n"
            "相関係数は関係の強さを表す[5]。",
            "dropped": ["相関係数は因果を表す[5]。"],
        }
    )
    review = engine_for(canned).review("違いは？", "ja", "draft", PASSAGES)
    assert review.answer == "決定係数は当てはまりを表す[4]。\n相関係数は関係の強さを表す[5]。"
    assert review.dropped == ["相関係数は因果を表す[5]。", "相関係数は常に正である[9]。"]
    assert "does not exist" in review.critique
    assert "answer-model:generateContent" in canned.requests[0][0]
    assert "responseSchema" in canned.config()


def test_server_errors_and_bad_json_become_engine_errors():
    with pytest.raises(EngineError, match="gemini plan"):
        engine_for(Canned(status=500)).plan("q")
    with pytest.raises(EngineError, match="invalid JSON"):
        engine_for(Canned(raw_text="not json")).evaluate("q", TASKS, PASSAGES)
    with pytest.raises(EngineError, match="gemini answer"):
        list(engine_for(Canned(status=500)).answer("q", "en", PASSAGES))


def test_constructing_needs_no_key_but_calling_does():
    engine = GeminiLLM(settings(gemini_api_key=None))
    with pytest.raises(EngineError, match="GEMINI_API_KEY"):
        engine.plan("q")


def test_gemini_3_pro_gets_the_nearest_thinking_level_it_accepts():
    canned = Canned(chunks=["ok [1]"])
    engine = GeminiLLM(
        settings(professor_gemini_model_answer="gemini-3-pro-preview"), transport=canned.transport()
    )
    list(engine.answer("q", "en", PASSAGES))
    assert _thinking_level(canned.config()) == "HIGH"  # MEDIUM is not offered by 3 Pro


def test_answer_sees_each_passage_whole_then_its_neighbours_within_the_budget():
    evidence = [
        Passage(
            0,
            "中央値は頑健。",
            context="## 中央値\n中央値は頑健。外れ値に強い。",
            neighbours="前の節：平均の定義。",
        ),
        Passage(
            1, "平均は合計÷個数。", context="平均は合計÷個数。", neighbours="後ろの節：" + "x" * 500
        ),
    ]
    canned = Canned(chunks=["ok [1]"])
    engine = GeminiLLM(settings(gemini_answer_context_chars=80), transport=canned.transport())
    list(engine.answer("中央値は？", "ja", evidence))
    prompt = canned.prompt()
    assert (
        "[1] ## 中央値\n中央値は頑健。外れ値に強い。" in prompt
    )  # the whole chunk, not the snippet
    assert "(around it) 前の節：平均の定義。" in prompt
    assert "[2] 平均は合計÷個数。" in prompt
    assert "x" * 100 not in prompt  # the second neighbourhood is cut at the budget


def test_answer_without_enough_evidence_is_told_so():
    canned = Canned(chunks=["資料にありません。"])
    list(engine_for(canned).answer("?", "ja", PASSAGES, complete=False))
    assert "without enough evidence" in canned.prompt()


def test_an_answer_to_part_of_the_question_is_told_which_part_is_missing():
    canned = Canned(chunks=["中央値は真ん中の値です [1]。標準誤差は資料にありません。"])
    list(engine_for(canned).answer("中央値と標準誤差は？", "ja", PASSAGES, missing=["標準誤差"]))
    assert "It does not answer: 標準誤差." in canned.prompt()
    assert "without enough evidence" not in canned.prompt()


def test_evaluate_reports_the_stop_conditions_the_evidence_does_not_meet():
    canned = Canned(
        {
            "findings": [
                {
                    "index": 3,
                    "task_id": "T1",
                    "snippet": "決定係数は回帰モデルの当てはまりを表す。",
                    "score": 0.9,
                    "reason": "defines it",
                }
            ],
            "satisfied_task_ids": ["T1"],
            "unmet_conditions": ["UNAMBIGUITY", "MADE_UP"],
            "reason": "the two coefficients are not told apart",
        }
    )
    conditions = [("SUFFICIENCY", "each task has evidence"), ("UNAMBIGUITY", "told apart")]
    judgement = engine_for(canned).evaluate("違いは？", TASKS, PASSAGES, conditions)
    assert judgement.unmet_conditions == ["UNAMBIGUITY"]  # unknown kinds are not trusted
    assert "UNAMBIGUITY: told apart" in canned.prompt()
    assert "unmet_conditions" in canned.config()["responseSchema"]["required"]


def test_review_revises_then_checks_the_revision_again_at_most_two_rounds():
    first = {
        "critique": "The range is overstated.",
        "answer": "値は0から1をとる[4]。",
        "dropped": ["値は常に1である[4]。"],
    }
    second = {"critique": "", "answer": "値は0から1をとる[4]。", "dropped": []}
    canned = Canned(
        sequence=[first, second, {"critique": "never asked", "answer": "x", "dropped": []}]
    )
    review = engine_for(canned).review("範囲は？", "ja", "値は常に1である[4]。", PASSAGES)
    assert len(canned.requests) == 2  # the second round changed nothing: no third call
    assert review.answer == "値は0から1をとる[4]。"
    assert review.dropped == ["値は常に1である[4]。"]
    assert "値は0から1をとる[4]。" in canned.prompt(1)  # round 2 checks the revision
    assert review.critique.startswith("round 1: The range is overstated.")

    endless = Canned(sequence=[first, {**first, "answer": "値は0から1[4]。"}, first])
    engine_for(endless).review("範囲は？", "ja", "値は常に1である[4]。", PASSAGES)
    assert len(endless.requests) == 2  # never more than two rounds
