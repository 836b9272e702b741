"""Follow-up questions are restated with their thread's topic; standalone ones are not."""

from __future__ import annotations

import pytest

from services.reasoning.extractive import ExtractiveLLM
from services.reasoning.extractive.followup import points_back, standalone
from services.reasoning.llm import Turn

MEDIAN = [Turn("中央値とは何ですか？", "中央値とは…[1]", ["第1回 記述統計"])]
PEARSON = [Turn("What is Pearson's correlation coefficient?")]


@pytest.mark.parametrize(
    ("history", "question", "restated"),
    [
        (MEDIAN, "それはなぜ？", "中央値はなぜ?"),
        (MEDIAN, "その計算方法は？", "中央値の計算方法は?"),
        (MEDIAN, "なぜ？", "中央値について、なぜ?"),
        (PEARSON, "Why does it matter?", "Why does Pearson's correlation coefficient matter?"),
        (PEARSON, "why?", "why (Pearson's correlation coefficient)?"),
    ],
)
def test_a_question_pointing_back_gets_the_previous_topic(history, question, restated):
    assert standalone(question, history) == restated


@pytest.mark.parametrize(
    ("history", "question"),
    [
        (MEDIAN, "標準誤差とは何ですか？"),
        (MEDIAN, "それぞれの値の平均は？"),  # それぞれ (each) points at nothing
        (PEARSON, "What is the standard error of the mean?"),
        ([], "それはなぜ？"),  # nothing to refer to: planned as asked
    ],
)
def test_standalone_questions_are_left_as_asked(history, question):
    assert standalone(question, history) == question


def test_a_chain_of_follow_ups_keeps_the_first_topic():
    history = [*MEDIAN, Turn("それはなぜ？")]
    assert standalone("その例は？", history) == "中央値の例は?"


def test_pointer_detection():
    assert points_back("それはなぜ？") and points_back("why is that?") and points_back("なぜ？")
    assert not points_back("中央値とは何ですか？")
    assert not points_back("What is the probability that the test rejects a true null?")


def test_the_engine_plans_a_follow_up_with_the_topic_and_says_how_it_read_it():
    engine = ExtractiveLLM()
    plan = engine.plan("それはなぜ？", MEDIAN)
    assert plan.question == "中央値はなぜ?"
    assert "中央値" in plan.tasks[0].keywords
    assert any("中央値" in q for q in plan.text_queries)
    alone = engine.plan("それはなぜ？")
    assert alone.question == "" and "中央値" not in " ".join(alone.text_queries)


def test_gemini_planning_sees_the_turns_and_its_restatement_is_kept():
    from services.reasoning.gemini import prompts
    from services.reasoning.gemini.llm import _plan_from

    prompt = prompts.plan_prompt("それはなぜ？", MEDIAN)
    assert "中央値とは何ですか？" in prompt and "第1回 記述統計" in prompt
    assert prompt.rstrip().endswith("それはなぜ？")
    assert prompts.plan_prompt("それはなぜ？") == "Question:\nそれはなぜ？"
    data = {
        "language": "ja",
        "complexity": 1.5,
        "tasks": [
            {"task_id": "T1", "description": "中央値が外れ値に強い理由", "keywords": ["中央値"]}
        ],
        "stop_conditions": [],
        "text_queries": ["中央値 外れ値"],
        "vector_query": "中央値はなぜ外れ値に強いのか",
        "standalone_question": "中央値はなぜ外れ値に強いのか？",
    }
    assert _plan_from(data, "それはなぜ？").question == "中央値はなぜ外れ値に強いのか？"
    assert (
        _plan_from({**data, "standalone_question": "それはなぜ？"}, "それはなぜ？").question == ""
    )
