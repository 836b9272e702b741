import pytest

from services.reasoning.embedders import UseM3Embedder
from services.reasoning.extractive import ExtractiveLLM
from services.reasoning.extractive.counts import counted, counts, would_name
from services.reasoning.llm import Passage


@pytest.mark.parametrize(
    "question, things",
    [
        ("How many replicas does the API deployment run?", ("replicas",)),
        ("How many distinct error codes are there?", ("codes",)),
        ("How many lab PCs are in the room?", ("PCs",)),
        ("What is the serial number of the certificate?", ()),
        ("What is the default number of shards of the index?", ("shards",)),
        ("この辞書には何語くらい入っていますか？", ("語",)),
        ("評価は何段階で付けますか", ("段階",)),
        ("クラスタのノード数は？", ("ノード",)),
        ("埋め込みの次元数を教えて", ("次元",)),
    ],
)
def test_what_a_question_counts(question, things):
    assert counted(question) == things


@pytest.mark.parametrize(
    "question",
    [
        # no count asked
        "What does the replica do?",
        # words of their own that end in 数: a function, a variable, a frequency
        "この関数の引数は？",
        "遮断周波数はいくつ？",
        # a formula or code asked for is answered by it, not by a count
        "残りのトークン数はどう計算しますか？",
        "How many tokens are left? Give the formula.",
        "サンプルコードでは木を何本作っている？",
    ],
)
def test_questions_that_ask_no_count(question):
    assert counted(question) == ()


@pytest.mark.parametrize(
    "things, text",
    [
        (("replicas",), "The deployment runs 3 replicas behind the load balancer."),
        (("replicas",), "replicas: 3"),
        (("shards",), "Each index has five primary shards."),
        (("codes",), "The API returns 12 distinct error codes."),
        (("couples",), "and 1,388 (0.9%) married couples"),
        (("語",), "辞書には約 70万語が収録されている。"),
        (("段階",), "回答は5段階のリッカート尺度で付ける。"),
        (("ノード",), "ノード数は 6 とする。"),
        (("ノード",), "3つのノードで構成する。"),
        # an English word written in katakana by Japanese notes
        (("partitions",), "トピックは 12 パーティションで作る。"),
    ],
)
def test_a_number_next_to_the_thing_counts_it(things, text):
    assert counts(things, text)


@pytest.mark.parametrize(
    "things, text",
    [
        # the thing named with no number of it, or with a number of something else
        (("replicas",), "Replicas are restarted by the controller within 30 seconds."),
        (("parameters",), "調整すべきパラメータが少ないことが利点である。"),
        (("partitions",), "リバランスでパーティションが別のコンシューマに移る。"),
        (("語",), "辞書にない語（未知語）の分割を誤りやすい。"),
        (("段階",), "評価は授業の最後の段階で行い、3回の課題で決まる。"),
    ],
)
def test_the_thing_without_a_number_of_it_is_no_count(things, text):
    assert not counts(things, text)


def test_a_passage_would_name_the_thing_in_the_notes_word_for_it():
    # the notes call it a partition; a Japanese passage that never says so counts none
    things = ("partitions",)
    elsewhere = ["トピックを分割した単位をパーティションと呼ぶ。"]
    assert would_name(things, "コンパクションは古い値を消す。", elsewhere)
    # English notes that call it so say nothing of what a Japanese passage would call it
    assert not would_name(things, "コンパクションは古い値を消す。", ["A topic has partitions."])
    assert not would_name(("件",), "Pooling takes the top 20 results.", ["上位100件を使う。"])


@pytest.fixture(scope="module")
def engine() -> ExtractiveLLM:
    return ExtractiveLLM(UseM3Embedder())


def test_the_judge_does_not_take_a_passage_that_names_the_thing_for_its_count(engine):
    asked = "検索クラスタのノード数はいくつですか？"
    speaks = Passage(
        0, "## 検索クラスタ\n\n検索クラスタのノードは障害時に自動で入れ替わる。", ranks={"bm25": 1}
    )
    judgement = engine.evaluate(asked, engine.plan(asked).tasks, [speaks])
    assert judgement.satisfied_task_ids == []
    assert "gives no count of ノード" in judgement.reason
    counts_them = Passage(
        0, "## 検索クラスタ\n\n検索クラスタは 6 ノードで構成する。", ranks={"bm25": 1}
    )
    judgement = engine.evaluate(asked, engine.plan(asked).tasks, [counts_them])
    assert "gives no count" not in judgement.reason
