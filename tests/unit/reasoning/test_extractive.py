"""The extractive engine: rule plans, evidence scoring, quoted answers, citation review."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from services.common.errors import InvalidInput
from services.common.settings import LLMSettings
from services.reasoning import make_llm
from services.reasoning.extractive import ExtractiveLLM
from services.reasoning.extractive.answerer import INSUFFICIENT
from services.reasoning.llm import Passage, PlannedTask

JA_PASSAGES = [
    Passage(
        0,
        "## 相関\n相関係数は二つの変数の直線的な関係の強さを表す指標である。"
        "値は-1から1の範囲をとる。散布図と合わせて確認するとよい。",
    ),
    Passage(
        1,
        "回帰分析では説明変数から目的変数を予測する。決定係数は回帰モデルが目的変数の"
        "ばらつきをどれだけ説明できるかを表す。決定係数は0から1の値をとり、1に近いほど当てはまりがよい。",
    ),
    Passage(2, "最小二乗法は残差の二乗和を最小にするようにパラメータを決める方法である。"),
]

EN_PASSAGES = [
    Passage(
        3,
        "Gradient descent is an iterative method that updates parameters against the gradient "
        "of the loss. The learning rate sets the size of each step.",
    ),
    Passage(
        4,
        "Overfitting happens when a model learns noise in the training data. "
        "Regularization adds a penalty on large weights to reduce overfitting.",
    ),
]


@pytest.fixture(scope="module")
def engine() -> ExtractiveLLM:
    return ExtractiveLLM()


# -- plan ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question, items",
    [
        ("決定係数と相関係数の違いは何ですか？", ["決定係数", "相関係数"]),
        ("What is the difference between TCP and UDP?", ["TCP", "UDP"]),
        ("How does a mutex differ from a semaphore?", ["mutex", "semaphore"]),
    ],
)
def test_plan_splits_a_comparison_into_items_and_a_difference(engine, question, items):
    plan = engine.plan(question)
    assert plan.complexity == 2.0
    assert len(plan.tasks) == len(items) + 1
    for task, item in zip(plan.tasks, items, strict=False):
        assert task.keywords == [item]
    assert set(items) <= set(plan.tasks[-1].keywords)
    kinds = [kind for kind, _ in plan.stop_conditions]
    assert kinds[0] == "SUFFICIENCY" and "UNAMBIGUITY" in kinds
    assert plan.vector_query == question
    assert all(item in " ".join(plan.text_queries) for item in items)


@pytest.mark.parametrize(
    "question, keyword, language",
    [
        ("決定係数とは何ですか？", "決定係数", "ja"),
        ("量子もつれとは？", "量子もつれ", "ja"),
        ("What is gradient descent?", "gradient descent", "en"),
        ("Define overfitting.", "overfitting", "en"),
    ],
)
def test_plan_keeps_a_definition_as_one_task(engine, question, keyword, language):
    plan = engine.plan(question)
    assert plan.language == language
    assert plan.complexity == 1.0
    assert [t.keywords for t in plan.tasks] == [[keyword]]
    assert [kind for kind, _ in plan.stop_conditions] == ["SUFFICIENCY"]


def test_plan_strips_question_words_and_particles(engine):
    plan = engine.plan("南西諸島が梅雨前線の影響を受け始めるのはいつですか？")
    assert plan.tasks[0].keywords == ["南西諸島", "梅雨前線", "影響"]
    english = engine.plan("When did the Apollo program end?")
    assert "when" not in " ".join(english.tasks[0].keywords).lower()
    assert "Apollo program" in " ".join(english.tasks[0].keywords)


@pytest.mark.parametrize(
    "question, expected",
    [
        ("サケの鱗は何に使われる？", ["サケ", "鱗"]),  # 鱗 is the topic, 使 a verb stem
        ("ラオスには港がある？", ["ラオス", "港"]),
        ("梅雨の事を中国では何というか。", ["梅雨", "中国"]),  # 事 is a formal noun
        ("水は何度で沸騰するか", ["水", "沸騰"]),  # 何度 asks; 度 is its counter
    ],
)
def test_plan_keeps_a_lone_kanji_noun_as_a_keyword(engine, question, expected):
    assert engine.plan(question).tasks[0].keywords == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("独占禁止法違反で大林組笑った罰金はいくらですか？", ["独占禁止法違反", "大林組", "罰金"]),
        ("どこの油田で石油湧いてるか", ["油田", "石油"]),
    ],
)
def test_plan_cuts_a_keyword_before_the_stem_of_a_verb(engine, question, expected):
    # a run of kanji can end in a verb's stem (石油湧いてる): the stem is not part of the noun
    assert engine.plan(question).tasks[0].keywords == expected


def test_plan_splits_several_questions_and_enumerations(engine):
    two = engine.plan("回帰分析とは何ですか？また、最小二乗法はなぜ使われるのですか？")
    assert [t.keywords for t in two.tasks] == [["回帰分析"], ["最小二乗法"]]
    assert two.complexity == 1.5
    listed = engine.plan("Explain overfitting, regularization and dropout.")
    assert [t.keywords for t in listed.tasks] == [["overfitting"], ["regularization"], ["dropout"]]


def test_plan_keeps_a_statement_with_the_question_that_points_back_to_it(engine):
    plan = engine.plan("交響曲は世界中で演奏される。その理由を述べたのは誰か。")
    assert len(plan.tasks) == 1


@pytest.mark.parametrize(
    "question, visual",
    [
        ("図3のグラフは何を示していますか？", True),
        ("What does the table in lecture 2 show?", True),
        ("梅雨明けの発表はいつですか？", False),  # 発表 is no table
    ],
)
def test_plan_asks_for_a_visual_check_only_for_figures(engine, question, visual):
    kinds = [kind for kind, _ in engine.plan(question).stop_conditions]
    assert ("VISUAL_CHECK" in kinds) is visual


def test_plan_refuses_an_empty_question(engine):
    with pytest.raises(InvalidInput):
        engine.plan("  ")


# -- evaluate -----------------------------------------------------------------------------


def test_evaluate_finds_the_sentence_for_each_task_verbatim(engine):
    question = "決定係数と相関係数の違いは何ですか？"
    plan = engine.plan(question)
    judgement = engine.evaluate(question, plan.tasks, JA_PASSAGES)
    best = {}
    for finding in judgement.findings:
        passage = next(p for p in JA_PASSAGES if p.index == finding.index)
        assert finding.snippet in passage.text
        assert 0.0 <= finding.score <= 1.0 and finding.reason
        best.setdefault(finding.task_id, finding)
    assert best["T1"].index == 1 and "決定係数は回帰モデル" in best["T1"].snippet
    assert best["T2"].index == 0 and best["T2"].snippet.startswith("相関係数は二つの変数")
    assert {"T1", "T2"} <= set(judgement.satisfied_task_ids)
    assert "T1 satisfied" in judgement.reason


def test_evaluate_english_picks_the_matching_sentence(engine):
    question = "What does regularization add?"
    plan = engine.plan(question)
    judgement = engine.evaluate(question, plan.tasks, EN_PASSAGES)
    top = judgement.findings[0]
    assert top.index == 4
    assert "Regularization adds a penalty on large weights" in top.snippet
    assert top.snippet in EN_PASSAGES[1].text
    assert "regularization" in top.reason
    assert judgement.satisfied_task_ids == ["T1"]


@pytest.mark.parametrize(
    "question, passages",
    [
        ("量子もつれとは何ですか？", JA_PASSAGES),
        # shares "coefficient" with the materials but asks about something they never mention
        (
            "What is the coefficient of friction?",
            [Passage(0, "The coefficient of determination measures how well a regression fits.")],
        ),
        ("相関係数と摩擦係数の違いは？", JA_PASSAGES),
    ],
)
def test_evaluate_does_not_satisfy_a_topic_absent_from_the_materials(engine, question, passages):
    plan = engine.plan(question)
    judgement = engine.evaluate(question, plan.tasks, passages)
    absent = [
        t.task_id
        for t in plan.tasks
        if not any(k in "".join(p.text for p in passages) for k in t.keywords)
    ]
    assert absent, "the test needs a task about something absent"
    assert not set(absent) & set(judgement.satisfied_task_ids)
    assert "not satisfied" in judgement.reason


def test_evaluate_needs_every_term_of_a_named_concept(engine):
    held = engine.evaluate("q", engine.plan("What is the learning rate?").tasks, EN_PASSAGES)
    assert held.satisfied_task_ids == ["T1"]
    plan = engine.plan("What is a learning rate schedule?")
    absent = engine.evaluate("q", plan.tasks, EN_PASSAGES)
    assert absent.satisfied_task_ids == []
    assert "missing schedul" in absent.reason


def test_evaluate_keeps_the_search_first_passage_beside_better_scored_sentences():
    question = "What is the middle value of a sorted sample called?"
    # Five passages define it outright; the search ranked one that only touches it first.
    passages = [Passage(0, "Chapter 3 explains the middle value of a sample in detail.")] + [
        Passage(i, f"Definition {i}: the median of a sorted sample is its middle value.")
        for i in range(1, 6)
    ]
    engine = ExtractiveLLM(max_findings_per_task=2, max_complete_findings=0)  # this rule alone
    tasks = engine.plan(question).tasks
    assert [f.index for f in engine.evaluate(question, tasks, passages).findings] == [1, 2, 0]
    # a first passage that never mentions the task is not kept
    passages[0] = Passage(0, "Office hours are on Friday.")
    assert [f.index for f in engine.evaluate(question, tasks, passages).findings] == [1, 2]


def test_evaluate_keeps_the_first_two_of_each_retriever_when_they_speak_to_the_task():
    question = "What is the middle value of a sorted sample called?"
    strong = [
        Passage(
            i,
            f"Definition {i}: the median of a sorted sample is its middle value.",
            ranks={"bm25": i + 1},
        )
        for i in range(3)
    ]
    # a paraphrase the dense retriever ranked second, and one it ranked fifth
    weak = [
        Passage(3, "Half the observations lie below this sample value.", ranks={"vector": 2}),
        Passage(4, "Half the observations lie above this sample value.", ranks={"vector": 5}),
    ]
    engine = ExtractiveLLM(max_findings_per_task=2, max_complete_findings=0)  # this rule alone
    tasks = engine.plan(question).tasks
    kept = [f.index for f in engine.evaluate(question, tasks, strong + weak).findings]
    assert kept == [0, 1, 3]  # bm25 #2 is passage 1, already kept; vector #5 is not a head
    unranked = [Passage(p.index, p.text) for p in strong + weak]
    assert [f.index for f in engine.evaluate(question, tasks, unranked).findings] == [0, 1]


def test_evaluate_keeps_past_its_cap_only_passages_holding_every_key_term():
    question = "What is the middle value of a sorted sample called?"
    passages = [
        Passage(i, f"Definition {i}: the median of a sorted sample is its middle value.")
        for i in range(5)
    ]
    passages.append(Passage(5, "A sorted sample, see chapter 3."))  # lacks "middle value"
    engine = ExtractiveLLM(max_findings_per_task=2, max_complete_findings=4)
    found = [
        f.index for f in engine.evaluate(question, engine.plan(question).tasks, passages).findings
    ]
    assert found == [0, 1, 2, 3]


def test_evaluate_reads_the_heading_a_paragraph_sits_under(engine):
    question = "天治はいつからいつまでか。"
    tasks = engine.plan(question).tasks
    text = "1124年から1126年までの期間を指す。この時代の天皇は崇徳天皇。"
    assert engine.evaluate(question, tasks, [Passage(0, text)]).satisfied_task_ids == []
    judgement = engine.evaluate(question, tasks, [Passage(0, text, heading="天治")])
    assert judgement.satisfied_task_ids == ["T1"]
    assert "天治" not in judgement.findings[0].snippet  # the heading is context, never quoted


def test_evaluate_with_an_embedder_batches_and_caches(monkeypatch):
    embedder = CountingEmbedder()
    engine = ExtractiveLLM(embedder)
    question = "What does regularization add?"
    plan = engine.plan(question)
    first = engine.evaluate(question, plan.tasks, EN_PASSAGES)
    assert len(embedder.calls) == 1  # one batch for the task and its top sentences
    assert "similarity" in first.findings[0].reason
    second = engine.evaluate(question, plan.tasks, EN_PASSAGES)
    assert len(embedder.calls) == 1  # everything came from the cache
    assert second == first


class CountingEmbedder:
    name, dimension = "counting", 8

    def __init__(self):
        self.calls: list[list[str]] = []

    def embed(self, texts):
        self.calls.append(list(texts))
        rows = []
        for text in texts:
            seed = sum(text.encode("utf-8")) % 97
            row = np.arange(1, self.dimension + 1, dtype=np.float32) * (seed + 1) % 7 + 1
            rows.append(row / np.linalg.norm(row))
        return np.asarray(rows, dtype=np.float32)


# -- answer -------------------------------------------------------------------------------


def test_answer_quotes_and_cites_the_evidence(engine):
    question = "決定係数とは何ですか？"
    pieces = list(engine.answer(question, "ja", JA_PASSAGES))
    assert len(pieces) >= 2  # streamed: the opening, then one piece per quote
    answer = "".join(pieces)
    assert answer.startswith("資料から該当箇所を引用します")
    assert "抽出型" in answer
    assert "「決定係数は回帰モデルが目的変数のばらつきをどれだけ説明できるかを表す。" in answer
    assert "[2]" in answer  # passage index 1 -> [2]
    assert "[3]" not in answer  # the least-squares passage does not answer


def test_answer_in_english_cites_index_plus_one(engine):
    answer = "".join(engine.answer("What is gradient descent?", "en", EN_PASSAGES))
    assert answer.startswith("From the course materials")
    assert "“Gradient descent is an iterative method" in answer
    assert "[4]" in answer and "[5]" not in answer


def test_answer_groups_a_comparison_by_task(engine):
    answer = "".join(engine.answer("決定係数と相関係数の違いは何ですか？", "ja", JA_PASSAGES))
    assert "■ 決定係数とは何か" in answer and "■ 相関係数とは何か" in answer
    assert answer.index("[2]") < answer.index("■ 相関係数とは何か") < answer.index("[1]")


def test_answer_says_so_when_there_is_no_evidence(engine):
    assert "".join(engine.answer("決定係数とは？", "ja", [])) == INSUFFICIENT["ja"]
    unrelated = [Passage(0, "The weather was sunny all week.")]
    assert "".join(engine.answer("What is entropy?", "en", unrelated)) == INSUFFICIENT["en"]


# -- review -------------------------------------------------------------------------------


def test_review_keeps_its_own_quoted_answer(engine):
    question = "決定係数と相関係数の違いは何ですか？"
    draft = "".join(engine.answer(question, "ja", JA_PASSAGES))
    review = engine.review(question, "ja", draft, JA_PASSAGES)
    assert review.dropped == []
    assert review.answer == draft.strip()


def test_review_drops_unsupported_sentences_without_renumbering(engine):
    draft = (
        "決定係数は0から1の値をとる[2]。"
        "決定係数は摩擦の大きさを表す量子力学の指標である[2]。\n"
        "「相関係数は二つの変数の直線的な関係の強さを表す指標である。」[1]\n"
        "「相関係数は常に正である。」[1]\n"
        "最小二乗法は残差の二乗和を最小にする[7]。\n"
        "回帰分析では説明変数から目的変数を予測する。"
    )
    review = engine.review("相関と回帰", "ja", draft, JA_PASSAGES)
    assert review.dropped == [
        "決定係数は摩擦の大きさを表す量子力学の指標である[2]。",
        "「相関係数は常に正である。」[1]",
        "最小二乗法は残差の二乗和を最小にする[7]。",
        "回帰分析では説明変数から目的変数を予測する。",
    ]
    assert review.answer == (
        "決定係数は0から1の値をとる[2]。\n「相関係数は二つの変数の直線的な関係の強さを表す指標である。」[1]"
    )
    assert "4 dropped" in review.critique and "[7]" in review.critique


def test_review_of_nothing_supported_is_the_insufficient_message(engine):
    review = engine.review("x", "en", "The moon is made of cheese [1].", EN_PASSAGES)
    assert review.answer == INSUFFICIENT["en"]
    assert review.dropped == ["The moon is made of cheese [1]."]


# -- refine -------------------------------------------------------------------------------


def test_refine_strategies(engine):
    question = "決定係数と相関係数の違いは何ですか？"
    tasks = engine.plan(question).tasks
    missing = engine.refine(question, tasks, ["T2"], "missing", [])
    assert missing.text_queries == ["相関係数"] and "相関係数" in missing.vector_query
    broader = engine.refine(question, tasks, ["T3"], "broader", [])
    assert "決定係数" not in broader.text_queries  # the most specific term is dropped
    assert {"相関", "係数"} <= set(broader.text_queries)
    found = ["## 回帰分析\n決定係数は回帰モデルの当てはまりを表す。"]
    neighbours = engine.refine(question, tasks, ["T3"], "neighbours", found)
    assert "回帰分析" in neighbours.text_queries
    assert any("回帰モデル" in q for q in neighbours.text_queries)
    with pytest.raises(InvalidInput):
        engine.refine(question, tasks, ["T3"], "sideways", [])


def test_plain_english_task_list_is_accepted(engine):
    tasks = [PlannedTask("A", "learning rate", ["learning rate"])]
    judgement = engine.evaluate("learning rate", tasks, EN_PASSAGES)
    assert judgement.satisfied_task_ids == ["A"]
    assert judgement.findings[0].snippet.startswith("Gradient descent is")  # with its neighbour
    assert "The learning rate sets the size of each step." in judgement.findings[0].snippet


# -- determinism and wiring ---------------------------------------------------------------

_RUN_ALL = """
import json, sys
from services.reasoning.extractive import ExtractiveLLM
from services.reasoning.llm import Passage
passages = [Passage(**p) for p in json.loads(sys.argv[1])]
engine = ExtractiveLLM()
out = []
for q in ["決定係数と相関係数の違いは何ですか？", "What does regularization add?"]:
    plan = engine.plan(q)
    judgement = engine.evaluate(q, plan.tasks, passages)
    answer = "".join(engine.answer(q, plan.language, passages))
    out.append([repr(plan), repr(judgement), answer])
print(json.dumps(out, ensure_ascii=False))
"""


def test_same_inputs_give_the_same_outputs_whatever_the_hash_seed():
    passages = json.dumps([{"index": p.index, "text": p.text} for p in JA_PASSAGES + EN_PASSAGES])
    root = Path(__file__).resolve().parents[3]
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", _RUN_ALL, passages],
            capture_output=True,
            text=True,
            env=env,
            cwd=root,
            check=True,
        )
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    assert "T1" in outputs[0]


def test_make_llm_defaults_to_extractive_without_a_key():
    assert make_llm(LLMSettings(gemini_api_key=None)).name == "extractive"
    assert make_llm(LLMSettings(gemini_api_key="k")).name == "gemini"
    assert make_llm(LLMSettings(gemini_api_key="k", llm_engine="extractive")).name == "extractive"


def test_answer_quotes_from_the_chunk_and_once_per_sentence(engine):
    chunk = (
        "打楽器は打つ、こする、振るなどして音を出す楽器の総称である。"
        "弦楽器や管楽器と比べて原始的で、長い歴史を持つと考えられている。"
    )
    snippet = "弦楽器や管楽器と比べて原始的で、長い歴史を持つと考えられている。"
    evidence = [Passage(0, snippet, context=chunk), Passage(1, snippet, context=chunk)]
    answer = "".join(engine.answer("弦楽器や管楽器より原始的な楽器とは何か", "ja", evidence))
    assert "打楽器" in answer  # the neighbour sentence from the chunk names it
    assert answer.count("長い歴史を持つ") == 1  # two evidence items, one chunk: quoted once
    review = engine.review("q", "ja", answer, evidence)
    assert review.dropped == []
