"""Names a question gives and no passage holds: the judge does not take a passage about
the topic for an answer about a thing it never names. Cases written for each spelling a
reader accepts as the same name."""

from __future__ import annotations

import pytest

from services.reasoning.embedders import UseM3Embedder
from services.reasoning.extractive import ExtractiveLLM
from services.reasoning.extractive.names import (
    PassageNames,
    absent_names,
    glosses_in,
    identifiers_in,
    names_in,
    settings_in,
)
from services.reasoning.llm import Passage


@pytest.mark.parametrize(
    "question, names",
    [
        ("Linux の SCHED_DEADLINE の既定の周期は？", [["Linux"], ["SCHED_DEADLINE"]]),
        ("What's the default vm.swappiness on Debian?", [["vm.swappiness"], ["Debian"]]),
        ("Did Grace Hopper work on the Harvard Mark?", [["Grace", "Hopper"], ["Harvard", "Mark"]]),
        # a sentence's first word, stop words, contractions and units name nothing
        ("If I'm late, where is the Room?", [["Room"]]),
        ("ジャーナルは何 MB で、書き込みは何 ms かかる？", []),
        ("What is a write-ahead log?", []),
        # a numbered part and a date are written 演習3 and 2月 in Japanese notes: no names
        ("What did the simulation in Lab 3 print, and is there class on February 11?", []),
    ],
)
def test_the_names_a_question_gives(question, names):
    assert names_in(question) == names


def held(question: str, text: str, embed=None) -> bool:
    return absent_names(question, [Passage(0, text)], embed) == []


@pytest.mark.parametrize(
    "question, text",
    [
        ("Which setting changed for SSDs?", "On an SSD the planner's random_page_cost is 1.1."),
        ("What sports are Kenyans active in?", "Kenya is known for its runners."),
        ("What does Sky+HD use?", "Sky+ HD material is broadcast using MPEG-4."),
        ("What does UserDatagram Protocol promise?", "The User Datagram Protocol is simple."),
        ("According to the AAA, how many ran out?", "The American Automobile Association said"),
        ("What does Graham Twigg propose?", "Twigg suggested that the cause was anthrax."),
        ("What party is favoured in Bedigo?", "Labor holds Bendigo and Geelong."),
        ("When did Galor and Zeria publish?", "Galor and Zeira showed new evidence in 1993."),
        ("What is the ARC size on ZFS?", "zfs keeps its arc in memory."),  # another case
        # in a formula, as typeset: \mathrm{HKDF\text{-}Extract} reads HKDF-Extract
        ("What does HKDF-Extract take?", r"$$\mathrm{HKDF\text{-}Extract}(\mathrm{salt}, k)$$"),
        # a dotted name as code defines it, or under the module's full name
        ("What does LateFine.amount return?", "class LateFine:\n    def amount(self, d): ..."),
        ("What does np.fft.rfft return?", "numpy.fft.rfft returns the positive half."),
    ],
)
def test_a_name_is_held_in_any_spelling_a_reader_accepts(question, text):
    assert held(question, text)


def test_a_name_nothing_holds_is_absent_even_beside_its_topic():
    text = "PostgreSQL は WAL を書いてからデータファイルを更新する。既定の間隔は 5 分である。"
    asked = "PostgreSQL の checkpoint_completion_target の既定値は？"
    assert absent_names(asked, [Passage(0, text)], None) == ["checkpoint_completion_target"]
    assert not held("How does Timsort merge runs?", "Tim Peters wrote the sort.")
    # a typo keeps a short name's length: a letter more or less makes another word
    assert not held("How do I process the trips with Spark?", "Bikes wait at Harbour Park.")
    # a typo is in letters: another number names another thing
    assert not held("How fast is aes-192-gcm here?", "aes-128-gcm runs at 6.1 GB/s.")
    assert held("How fast is aes-128-gmc here?", "aes-128-gcm runs at 6.1 GB/s.")
    # a dotted name's parts are held each, or it is absent: the class without the method
    assert not held("What does LateFine.total return?", "class LateFine:\n    def amount(")


def test_a_term_a_question_glosses_is_held_only_whole_in_either_spelling():
    asked = "赤黒木（red-black tree）で回転が必要になるのはどんなとき？"
    assert glosses_in(asked) == [("赤黒木", "red-black tree")]
    assert held(asked, "赤黒木は、挿入のあと回転と色の塗り替えで平衡を保つ。")
    assert held(asked, "Red-black trees keep their height logarithmic.")
    assert held(asked, "A red black tree is a binary search tree.")
    # its words apart are other things: a tree, a red node
    notes = "二分探索木の回転は、左の子を根に持ち上げる操作である。red の節点は描かない。"
    assert absent_names(asked, [Passage(0, notes)], None) == ["赤黒木（red-black tree）"]
    # a capitalised gloss is a name already (Git), a Japanese one none (2番目の場合)
    assert glosses_in("演習2（Git）の締切は？ 解は（2番目の場合）どうなる？") == []


@pytest.fixture(scope="module")
def engine() -> ExtractiveLLM:
    return ExtractiveLLM(UseM3Embedder())


def test_a_name_written_in_japanese_is_held_across_scripts(engine):
    text = "見学会ではロンドンの図書館を三つ訪ねる。"  # USE-m3: London ↔ ロンドン 0.93
    assert held("Which libraries in London does the visit include?", text, engine.scorer.embed)
    assert not held("Which libraries in London does the visit include?", text)  # as written


def test_the_judge_does_not_take_a_passage_on_the_topic_for_one_naming_the_thing(engine):
    notes = (
        "## チェックポイント\n\nPostgreSQL は WAL を書いてからデータファイルを更新する。"
        "チェックポイントの既定の間隔は 5 分である。"
    )
    asked = "チェックポイントの checkpoint_timeout の既定値は何分？"
    plan = engine.plan(asked)
    judgement = engine.evaluate(asked, plan.tasks, [Passage(0, notes, ranks={"bm25": 1})])
    assert judgement.satisfied_task_ids == []
    assert "no passage names checkpoint_timeout" in judgement.reason
    plan = engine.plan("チェックポイントの既定の間隔は何分？")  # the same passage, no name
    judgement = engine.evaluate("q", plan.tasks, [Passage(0, notes, ranks={"bm25": 1})])
    assert judgement.satisfied_task_ids == [plan.tasks[0].task_id]


def test_an_insufficient_answer_says_which_name_no_passage_holds(engine):
    notes = (
        "## チェックポイント\n\nPostgreSQL は WAL を書いてからデータファイルを更新する。"
        "チェックポイントの既定の間隔は 5 分である。"
    )
    evidence = [Passage(0, notes, context=notes)]
    asked = "チェックポイントの checkpoint_timeout の既定値は？"
    draft = "".join(engine.answer(asked, "ja", evidence, False))
    assert draft.startswith("見つかった資料の箇所に「checkpoint_timeout」は出てきません。\n")
    review = engine.review("q", "ja", draft, evidence)  # said of the passages, not quoted
    assert review.dropped == [] and review.answer == draft.strip()


@pytest.mark.parametrize(
    "text, settings",
    [
        ("Train with batch_size = 1,024 and lr=0.5.", [("batch_size", "1024"), ("lr", "0.5")]),
        ("shared_buffers = 4GB", []),  # a value with a unit is not read as a number
        ("if a == b then x.y=-2", [("x.y", "-2")]),
        ("With p = 0.9 and n = 8, what is the speedup?", []),  # a worked example's variables
    ],
)
def test_the_settings_a_text_states(text, settings):
    assert settings_in(text) == settings


@pytest.mark.parametrize(
    "text",
    [
        "The lab trains with batch_size=64 for ten epochs.",  # other spacing
        "The lab trains with batch_size = 64.0 for ten epochs.",  # another way to write it
        "演習では batch_size を 64 にして10エポック学習する。",  # in prose
        "| optimizer | batch_size | epochs |\n|---|---|---|\n| SGD | 64 | 10 |",
        "```text\n  batch_size   accuracy\n          32      0.912\n          64      0.918\n```",
    ],
)
def test_a_setting_is_held_where_a_passage_states_or_tabulates_it(text):
    assert held("What accuracy did the lab reach with batch_size = 64?", text)


def test_a_setting_at_another_value_is_absent():
    text = "| optimizer | batch_size | accuracy |\n|---|---|---|\n| SGD | 32 | 0.912 |"
    asked = "What accuracy did the lab reach with batch_size = 64?"
    assert absent_names(asked, [Passage(0, text)], None) == ["batch_size = 64"]
    # the value in another column is no setting of that name
    assert not held("Which run used epochs = 32?", text)
    # nor is a number further on in the sentence
    prose = "We trained with batch_size set to 32 on 64 GPUs."
    assert not held("What accuracy did the lab reach with batch_size = 64?", prose)


def test_the_judge_does_not_take_a_result_at_another_setting_for_the_one_asked(engine):
    notes = (
        "## Lab results\n\nWith batch_size = 32 the classifier reached an accuracy of 0.912 "
        "on the validation split."
    )
    passages = [Passage(0, notes, ranks={"bm25": 1})]
    for value, taken in (("32", True), ("64", False)):
        asked = f"What accuracy did the classifier reach with batch_size = {value}?"
        judgement = engine.evaluate(asked, engine.plan(asked).tasks, passages)
        assert bool(judgement.satisfied_task_ids) is taken, judgement.reason


@pytest.mark.parametrize(
    "question, text",
    [
        # English notes name the term the question writes in katakana
        (
            "ダイクストラ法の計算量は？",
            "Dijkstra's algorithm with a binary heap runs in O(m log n).",
        ),
        ("バンカーズアルゴリズムの例では？", "In the Banker's algorithm example, P1 goes first."),
        ("アーリーデータの危険は？", "The client may send data in its first flight (early data)."),
        # a compound held word by word, around its common words
        ("エフェメラルポートの範囲は？", "Its default ephemeral range gives 28,232 client ports."),
        ("スキップリストの計算量は？", "スキップ・リストは確率的なデータ構造である。"),
    ],
)
def test_a_katakana_term_is_held_in_katakana_or_in_the_english_it_writes(question, text):
    assert held(question, text)


def test_a_katakana_term_no_passage_writes_is_absent_even_beside_its_topic():
    text = "Unit tests check one function; coverage counts the lines the tests run."
    assert absent_names("ミューテーションテストのツールは？", [Passage(0, text)], None) == [
        "ミューテーションテスト"
    ]
    # a common katakana word may be paraphrased: 規則 for ルール, no name
    assert absent_names("提出のルールは？", [Passage(0, "提出の規則は次の通り。")], None) == []


@pytest.mark.parametrize(
    "question, identifiers",
    [
        ("How long is audit_log kept?", ["audit_log"]),
        ("config.toml の retries はいくつ？", ["config.toml"]),
        ("What does feature_importances_ measure?", ["feature_importances_"]),
        # a subscript, a number, an abbreviation: no identifiers
        ("W_i の式は？ 0.5 のとき、e.g. x_1 は？", []),
    ],
)
def test_the_identifiers_a_question_names(question, identifiers):
    assert identifiers_in(question) == identifiers


def test_an_identifier_another_passage_holds_is_missing_from_the_one_that_never_names_it():
    elsewhere = Passage(0, "The audit_log table keeps one row per login.")
    other = Passage(1, "The sessions table is kept for 30 days, then purged.")
    names = PassageNames([elsewhere, other], None)
    assert names.only_elsewhere("How long is audit_log kept?", 1) == "audit_log"
    assert names.only_elsewhere("How long is audit_log kept?", 0) == ""
    # no passage names it: that is a name absent altogether, said otherwise
    assert PassageNames([other], None).only_elsewhere("How long is audit_log kept?", 1) == ""
    # its heading names the table its rows speak of
    headed = Passage(1, "Kept for 90 days.", heading="audit_log")
    assert (
        PassageNames([elsewhere, headed], None).only_elsewhere("audit_log の保存期間は？", 1) == ""
    )


def test_the_judge_does_not_take_another_tables_retention_for_the_one_asked(engine):
    named = Passage(
        0, "## テーブル\n\naudit_log はログインごとに1行を記録する。", ranks={"bm25": 1}
    )
    kept = Passage(
        1, "## 保存期間\n\nsessions テーブルは30日間保存し、その後削除する。", ranks={"vector": 1}
    )
    asked = "audit_log は何日間保存されますか？"
    judgement = engine.evaluate(asked, engine.plan(asked).tasks, [named, kept])
    assert judgement.satisfied_task_ids == []
    assert "never names audit_log" in judgement.reason
