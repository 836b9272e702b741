"""The extractive planner: questions become tasks with keywords, by rules written for each
shape of question. Every case below was written for its phenomenon."""

from __future__ import annotations

import pytest

from services.common.errors import InvalidInput
from services.reasoning.extractive import ExtractiveLLM
from services.reasoning.extractive.question import (
    gives,
    holds_measure,
    measure_asked,
    wants_of,
)
from services.reasoning.extractive.text import terms


@pytest.fixture(scope="module")
def engine() -> ExtractiveLLM:
    return ExtractiveLLM()


@pytest.mark.parametrize(
    "question, items",
    [
        ("主キーと外部キーの違いは何ですか？", ["主キー", "外部キー"]),
        ("What is the difference between recall and precision?", ["recall", "precision"]),
        ("How does BM25 differ from TF-IDF?", ["BM25", "TF-IDF"]),
    ],
)
def test_a_comparison_is_one_task_per_item_and_one_for_the_difference(engine, question, items):
    plan = engine.plan(question)
    assert [t.keywords[0] for t in plan.tasks[:-1]] == items
    assert plan.complexity == 2.0
    assert "UNAMBIGUITY" in [kind for kind, _ in plan.stop_conditions]


@pytest.mark.parametrize(
    "question, items, asked",
    [
        ("Paging vs segmentation: which one fragments memory?", ["Paging", "segmentation"],
         "fragments memory"),
        ("ヒープとスタックの違い：どちらが速い？", ["ヒープ", "スタック"], "速い"),
    ],
)  # fmt: skip
def test_what_a_comparison_asks_of_its_items_is_its_last_task(engine, question, items, asked):
    plan = engine.plan(question)
    assert [t.description.rstrip("?").removeprefix("What is ") for t in plan.tasks[:-1]] == [
        i if i.isascii() else f"{i}とは何か" for i in items
    ]
    last = plan.tasks[-1]
    assert asked in last.description and asked in " ".join(last.keywords)


def test_a_question_with_a_comparison_in_it_is_asked_as_it_stands(engine):
    # "X compared to Y" where X is itself a question: no task "What is How fast is …?"
    plan = engine.plan("How fast is a hash join compared to a nested loop?")
    assert [t.description for t in plan.tasks] == [
        "How fast is a hash join compared to a nested loop"
    ]
    assert {"hash join", "nested loop"} <= set(plan.tasks[0].keywords)
    assert [t.keywords[0] for t in engine.plan("BM25 compared to TF-IDF?").tasks[:-1]] == [
        "BM25",
        "TF-IDF",
    ]


def test_a_sentence_saying_what_answer_will_do_shapes_the_question_before_it(engine):
    # "コードでもいいです" asks nothing new: no task of its own, no section "■ コードでもいいです"
    for follow_up in ("コードでもいいです。", "1台目の例でいいです。", "答えが知りたいです"):
        plan = engine.plan(f"ワーカーを再起動するコマンドは？{follow_up}")
        assert len(plan.tasks) == 1 and "再起動" in plan.tasks[0].keywords
    # but a second question stays a task of its own
    assert len(engine.plan("レポートの締切は？英語でもいいですか？").tasks) == 2


def test_an_aside_after_the_question_qualifies_it_and_asks_nothing(engine):
    # a parenthetical names where to look, a trailing remark comments: no task of their own
    for aside in ("（演習4）", "(Lab 4)", "シラバスには載っていなかったんですが。"):
        plan = engine.plan(f"ワーカーを再起動するコマンドは？{aside}")
        assert len(plan.tasks) == 1 and "再起動" in plan.tasks[0].keywords
    assert "演習4" in engine.plan("ワーカーを再起動するコマンドは？（演習4）").tasks[0].keywords


def test_a_request_for_the_comparison_asks_nothing_more(engine):
    plan = engine.plan("ヒープとスタックの違いを教えてください")
    assert plan.tasks[-1].description == "ヒープとスタックの違い"


@pytest.mark.parametrize(
    "question, keyword",
    [("正規化とは何ですか？", "正規化"), ("トランザクションって何？", "トランザクション"),
     ("What is a write-ahead log?", "write-ahead log")],
)  # fmt: skip
def test_a_definition_is_one_task_on_its_concept(engine, question, keyword):
    plan = engine.plan(question)
    assert len(plan.tasks) == 1 and plan.tasks[0].keywords == [keyword]


@pytest.mark.parametrize(
    "question",
    ["学生が本を何日間借りられることになっているか教えて", "試験に電卓を持って行ってもいい？"],
)
def test_the_te_form_of_a_verb_is_no_definition(engine, question):
    # 〜って何 asks for a definition; なって / 持って are verbs and keep every keyword
    plan = engine.plan(question)
    assert len(plan.tasks[0].keywords) >= 2


@pytest.mark.parametrize(
    "question, expected",
    [
        ("索引の種類は何がある？", ["索引", "種類"]),
        ("港湾の町の塔は何年のものか", ["港湾", "町", "塔"]),  # 何年 asks; 年 is its counter
        # where the answer stands is said, not asked for: "according" joins no keyword
        ("What is the dew point according to the weather table?", ["dew point", "weather table"]),
        # a contraction is its word: "What's" asks as "what" does; a possessive names
        ("What's the boiling point of the brine?", ["boiling point", "brine"]),
        ("Who's Ohm's successor?", ["Ohm's successor"]),
        ("Don't mutexes sleep?", ["mutexes sleep"]),
    ],
)
def test_question_words_and_particles_are_no_keywords(engine, question, expected):
    assert engine.plan(question).tasks[0].keywords == expected


@pytest.mark.parametrize(
    "question, letter",
    [
        ("正則化の強さ λ はいくつにした？", "λ"),
        ("BM25+ のデルタの推奨値は？", "デルタ"),
        ("Which α did the lab choose?", "α"),
    ],
)
def test_a_greek_letter_or_its_name_is_a_keyword(engine, question, letter):
    assert letter in engine.plan(question).tasks[0].keywords


def test_a_lone_kanji_noun_before_a_particle_is_a_keyword(engine):
    # 港 and 塔 are whole topics; a verb's stem (使われる) is not
    assert engine.plan("この町には港がある？").tasks[0].keywords == ["町", "港"]
    assert "使" not in engine.plan("石造りの塔は何に使われる？").tasks[0].keywords


def test_a_keyword_ends_before_the_stem_of_a_verb_inside_a_kanji_run(engine):
    # 倉庫眠ってる: the run 倉庫眠 holds 倉庫 and the stem of 眠って
    assert engine.plan("どこの倉庫眠ってるか").tasks[0].keywords == ["倉庫"]


@pytest.mark.parametrize(
    "question, identifier",
    [
        ("ef_search の既定値は？", "ef_search"),
        ("isolation.level はどう設定する？", "isolation.level"),
        ("What does the sf-search-api service do?", "sf-search-api"),
        ("How large did the lab set ef_search?", "ef_search"),
    ],
)
def test_a_code_identifier_stays_one_keyword(engine, question, identifier):
    keywords = engine.plan(question).tasks[0].keywords
    assert any(identifier in k for k in keywords)
    words = {w for k in keywords for w in k.split()}
    assert not words & {"sf", "search", "api", "ef", "isolation", "level"}


def test_a_question_counter_inside_a_run_is_cut_out(engine):
    assert engine.plan("最小何レプリカまで減らす？").tasks[0].keywords[:2] == ["最小", "レプリカ"]


@pytest.mark.parametrize(
    "question, keywords",
    [
        # って before a 何 that asks a day, a time or a count asks about X; it defines nothing
        ("図書館の休館日って何曜日の何時から？", ["図書館", "休館日"]),
        ("実験班って何人で組むの？", ["実験班"]),
        ("WAL の fsync の既定値って何 ms だっけ？", ["WAL", "fsync", "既定値", "ms"]),
        ("何故UDPは順序を保証しないの？", ["順序", "保証", "UDP"]),  # 何故 asks why
        # a counter of two characters is the question word's too (how many days, hours)
        ("生のログは何日間残す？", ["生", "ログ"]),
        ("期末試験は何時間？", ["期末試験"]),
        ("ログは何か月保存する？", ["ログ", "保存"]),
        ("勉強時間は何時間？", ["勉強時間"]),  # the word asked about stays
    ],
)
def test_a_question_word_with_its_counter_is_no_keyword_nor_a_definition(
    engine, question, keywords
):
    plan = engine.plan(question)
    assert plan.tasks[0].keywords == keywords
    assert not any(k.startswith(("何", "故", "曜")) for k in plan.tasks[0].keywords)


def test_several_questions_and_enumerations_are_one_task_each(engine):
    two = engine.plan("索引とは何ですか？また、統計情報はなぜ必要ですか？")
    assert [t.keywords[0] for t in two.tasks] == ["索引", "統計情報"]
    listed = engine.plan("Explain sharding, replication and caching.")
    assert [t.keywords for t in listed.tasks] == [["sharding"], ["replication"], ["caching"]]


def test_only_the_particles_to_and_ya_separate_japanese_items(engine):
    # the と of とき and ところ is no separator
    plan = engine.plan("中間レポートの形式と、遅れて出したときの扱いを教えて")
    assert [t.keywords for t in plan.tasks] == [["中間レポートの形式"], ["遅れて出したときの扱い"]]
    plan = engine.plan("ロックや、待っているところのスレッドについて教えて")
    assert [t.keywords[0] for t in plan.tasks] == ["ロック", "待っているところのスレッド"]


@pytest.mark.parametrize(
    "question, keywords",
    [
        ("ハッカソンはどこで開かれて、賞金はいくら？", [["ハッカソン"], ["賞金"]]),
        ("When is the midterm held, and how long does it last?", [["midterm held"], ["long"]]),
    ],
)
def test_a_sentence_that_asks_two_things_is_two_tasks(engine, question, keywords):
    assert [t.keywords[:1] for t in engine.plan(question).tasks] == keywords


@pytest.mark.parametrize(
    "question",
    ["課題Aの締切と、課題Bの提出先はそれぞれどこ？", "Which index did the lab use, and why?"],
)
def test_a_clause_that_asks_nothing_of_its_own_stays_with_its_sentence(engine, question):
    assert len(engine.plan(question).tasks) == 1


@pytest.mark.parametrize(
    "question, keywords",
    [
        (
            "After how many failed logins is an account locked?",
            ["failed logins", "account locked"],
        ),
        ("Which chapters should I read before the lab?", ["chapters", "read", "lab"]),
        ("Why does the producer wait before it takes the lock?", ["producer wait", "lock"]),
    ],
)
def test_words_that_join_clauses_end_a_keyword_and_are_none(engine, question, keywords):
    assert engine.plan(question).tasks[0].keywords == keywords


@pytest.mark.parametrize(
    "question, keywords",
    [
        ("ベイズ推定はこの授業で扱いますか？", ["ベイズ推定"]),
        ("この講義のレポートは何枚まで？", ["レポート"]),
        ("Does the course cover dynamic programming?", ["dynamic programming"]),
        ("Is hashing covered in this class?", ["hashing"]),
        ("Which topics are taught in English?", ["topics", "taught", "English"]),
        ("この科目って何単位？", ["単位"]),
    ],
)
def test_the_course_asked_of_as_itself_is_no_keyword(engine, question, keywords):
    # every passage is the course's: この授業 or "the course" would let its grading table
    # answer whether a topic it never names is taught
    assert engine.plan(question).tasks[0].keywords == keywords


@pytest.mark.parametrize(
    "question, keywords",
    [
        ("第2版ではやらないことは何？", ["第2版", "対象外"]),
        ("このシステムで扱わない業務を教えて", ["システム", "業務", "対象外"]),
        ("スコープから外された機能はどれ？", ["対象外"]),  # the section's items are the answer
        ("Which reports are out of scope for the pilot?", ["reports", "pilot", "out of scope"]),
    ],
)
def test_what_is_left_out_asks_for_the_section_that_says_so(engine, question, keywords):
    # a design names the section 対象外 or "Out of scope"; the question's やらない is a verb
    # the keywords drop, and a search for the rest finds the sections that are in scope
    plan = engine.plan(question)
    assert plan.tasks[0].keywords == keywords
    assert any("対象外" in q and "out of scope" in q for q in plan.text_queries)


def test_what_is_done_asks_for_no_such_section(engine):
    plan = engine.plan("第2版でやることは何？")
    assert "対象外" not in plan.tasks[0].keywords
    assert not any("対象外" in q for q in plan.text_queries)


def test_a_stop_word_in_capitals_is_a_keyword_of_a_language(engine):
    plan = engine.plan("WHERE と HAVING はどう違うの？")
    assert plan.tasks[-1].keywords == ["WHERE", "HAVING"]
    assert "HAVING" in terms("GROUP BY store_id HAVING COUNT(*) >= 100")
    assert "where" not in terms("Where is the lab?")  # in prose it is still a stop word
    assert engine.plan("Where is the lab?").tasks[0].keywords == ["lab"]


@pytest.mark.parametrize(
    "question, keywords",
    [
        ("Can I hand in the essay by e-mail?", ["essay", "e-mail"]),
        ("Where did the final match take place?", ["final match"]),
        ("模範解答はどこで手に入る？", ["模範解答"]),
        ("手の骨は何本ある？", ["手", "骨"]),  # 手 alone is still a hand
        ("ダッシュボードの機能を一通り教えて", ["ダッシュボード", "機能"]),  # 一通り: all of them
        ("申請書は一通だけ出せばいい？", ["申請書", "一通"]),  # one copy is a thing asked
    ],
)
def test_the_noun_of_an_idiom_is_no_keyword(engine, question, keywords):
    assert engine.plan(question).tasks[0].keywords == keywords


def test_a_sentence_pointing_back_joins_the_one_before(engine):
    plan = engine.plan("この講義では索引を扱う。その利点を説明したのは誰か。")
    assert len(plan.tasks) == 1


@pytest.mark.parametrize(
    "question, tasks",
    [
        ("索引はこの授業で使いますか？作り方を教えてください", [["索引"]]),
        ("課題2の締切はいつ？何を出せばいい？", [["課題2", "締切"]]),
        ("索引とは？正規化とは？", [["索引"], ["正規化"]]),  # each names its own topic
    ],
)
def test_a_sentence_that_names_nothing_asks_more_of_the_one_before(engine, question, tasks):
    assert [t.keywords for t in engine.plan(question).tasks] == tasks


@pytest.mark.parametrize(
    "question, keywords",
    [
        ("索引を作るときの注意点は？いくつか挙げて。", ["索引", "注意点"]),
        ("バックアップはどう取ればいい？順番に教えて。", ["バックアップ"]),
        ("How is a B-tree page split? List the steps.", ["B-tree page split"]),
    ],
)
def test_a_sentence_that_only_says_how_to_answer_joins_the_question(engine, question, keywords):
    plan = engine.plan(question)
    assert [t.keywords for t in plan.tasks] == [keywords]
    assert wants_of(plan.tasks[0].description).listing  # the answer quotes the list whole


def test_how_to_answer_is_no_keyword(engine):
    assert engine.plan("正規化の手順を全部具体的に教えて").tasks[0].keywords == ["正規化", "手順"]
    assert engine.plan("List the steps of a checkpoint").tasks[0].keywords == ["checkpoint"]


@pytest.mark.parametrize(
    "question, visual",
    [("図2のグラフは何を示す？", True), ("What does the table in lecture 5 show?", True),
     ("発表はいつですか？", False)],
)  # fmt: skip
def test_a_visual_check_only_for_figures_and_tables(engine, question, visual):
    kinds = [kind for kind, _ in engine.plan(question).stop_conditions]
    assert ("VISUAL_CHECK" in kinds) is visual


def test_an_empty_question_is_refused(engine):
    with pytest.raises(InvalidInput):
        engine.plan("  ")


@pytest.mark.parametrize("question", ["What is it?", "Why?", "それは何ですか？", "どうして？"])
def test_a_question_of_question_words_only_has_no_keyword(engine, question):
    (task,) = engine.plan(question).tasks
    assert task.keywords == []


@pytest.mark.parametrize(
    "question, shape",
    [
        ("ハッシュ値の計算式を教えて", "formula"),
        ("How is the score computed?", "formula"),
        ("索引を作るSQLは？", "code"),
        ("Which setting controls the batch size?", "code"),
        ("正規化の手順を全部挙げて", "listing"),
        ("正規化で使う関数をひととおり見せて", "listing"),
        ("What are the steps of the protocol?", "listing"),
        ("なぜ代理キーを使うの？", "reason"),
        ("代理キーを使うのはなんで？", "reason"),  # spoken なぜ; not なんですか
        ("排他制約を選んだ決め手は？", "reason"),
        ("What percentage of pages is filled?", "number"),
        ("何ミリ秒で打ち切る？", "number"),
        ("試験にメモを持ち込んでもいい？", "yes_no"),
        ("発表会は何月何日？", "date"),
        ("On which dates are the labs held?", "date"),
        ("線形代数の授業って何曜日の何限？", "slot"),
        ("What day is the lab session?", "slot"),
    ],
)
def test_the_shape_of_answer_a_question_asks_for(question, shape):
    assert getattr(wants_of(question), shape) is True


@pytest.mark.parametrize(
    "question, upper, lower",
    [
        ("アップロードできるファイルサイズの上限はいくつ？", True, False),
        ("What's the maximum number of retries?", True, False),
        ("ワーカーは最小何台まで減らせる？", False, True),
        ("How many votes are needed at minimum?", False, True),
        # a name that holds the word asks no bound
        ("最小二乗法で求めた傾きはいくつ？", False, False),
        ("What is min.insync.replicas set to?", False, False),
        ("What is the weight of the minimum spanning tree?", False, False),
        ("最大の輸入相手国はどこ？", False, False),  # the largest, not a bound
    ],
)  # fmt: skip
def test_a_bound_asked_for(question, upper, lower):
    wants = wants_of(question)
    assert (wants.upper_bound, wants.lower_bound) == (upper, lower)


def test_a_question_said_with_nandesu_asks_no_reason():
    assert wants_of("留学生なんですが、英語で書いてもいいですか？").reason is False
    assert wants_of("何台くらい置く計画なんでしょう？").reason is False


@pytest.mark.parametrize("question", ["何日間借りられる？", "試験はいつ？", "When was it built?"])
def test_a_duration_or_a_when_asks_for_no_date(question):
    # いつ and "when" are answered by a weekday, a time, a year or an era as well
    assert wants_of(question).date is False


@pytest.mark.parametrize(
    "text, dated",
    [
        ("発表は 7月21日（火）に行う。", True),
        ("締切: 2027-01-27 23:59", True),
        ("Due 12/31/2026 at noon.", True),
        ("The poster session is on 21 July.", True),
        ("Submit by Aug. 4.", True),
        ("試験日から1週間以内に申請する。", False),
        ("Scores above 1/2/3 of the range", False),
        ("It takes 3 months.", False),
    ],
)
def test_the_ways_notes_write_a_date(text, dated):
    assert gives("date", text) is dated


@pytest.mark.parametrize(
    "text, slot",
    [
        ("開講 | 2027年度 後期 木曜2限", True),
        ("Office hours are on Tuesdays, 16:30-18:00.", True),
        ("第3回は 11月25日（水）3限に行う。", False),  # one lecture's date, not the class's slot
        ("The lab is held on 4 May.", False),
    ],
)
def test_the_ways_notes_give_the_weekday_a_class_meets(text, slot):
    assert gives("slot", text) is slot


@pytest.mark.parametrize(
    "question, measure",
    [
        ("延長は何日までできますか？", "length of time"),
        ("How long is the grace period?", "length of time"),
        ("ログは何分ごとに集計される？", "frequency"),  # 何分ごと asks how often, not how long
        ("How often is the cache flushed?", "frequency"),
        ("コピー機は1枚いくらで使えますか", "amount of money"),
        ("How much does the campus parking permit cost?", "amount of money"),
        ("What is the late fee for a lost lab key?", "amount of money"),
        ("実験には何人参加しましたか", "count of people"),
        ("How many students passed the oral exam?", "count of people"),
        ("認証は何回まで失敗できる？", "count of times"),
        ("窓口は何時に閉まりますか", "time of day"),
        ("What time does the reading room open?", "time of day"),
        ("合格するには何割取ればいい？", "share"),
        ("アップロードできるファイルは何MBまで？", "size in bytes"),
        ("採点サーバは何の言語で書かれていますか", "programming language"),  # of software
        ("Which programming languages can we submit in?", "programming language"),
        ("v2 で提出できるプログラミング言語は？", "programming language"),
        ("What language is the booking service written in?", "programming language"),
        ("通知ワーカーは何の言語で実装されていますか", "programming language"),
        ("What language is the exam paper written in?", "language"),  # no software
        ("プログラミング言語によって採点時間は違いますか", ""),
        ("この論文はもともと何語で書かれた？", "language"),
        # a question word that asks for no measure
        ("課題はいくらでも提出し直せますか？", ""),  # いくらでも: as often as you like
        ("Which cost model does the optimizer use?", ""),
        ("Is it fine to hand in the report by e-mail?", ""),
        ("When staff waive a fine, which field is required?", ""),
        ("What time slice does a thread get?", ""),
        ("何回目の授業で扱いますか？", ""),  # 何回目 asks which lecture
        ("辞書には何語くらい入っていますか？", ""),  # 何語くらい counts words
        ("言語モデルの学習率はいくつ？", ""),
    ],
)
def test_the_kind_of_measure_a_question_asks_for(question, measure):
    assert measure_asked(question) == measure


@pytest.mark.parametrize(
    "measure, text, gives",
    [
        ("length of time", "レポートは提出から10日後に返却する。", True),
        ("length of time", "One build takes about 90 s on the CI runners.", True),
        ("length of time", "サイズ | 処理時間 (ms)\n1000 | 18", True),  # the unit in the header
        ("length of time", "days: 30", True),  # a label and its value, as a notebook prints
        ("length of time", "刻み幅 h = 0.1 で解いた。", False),  # h is a step, not hours
        ("length of time", "キューから一度に 20件 ずつ取り出す。", False),
        ("amount of money", "機材の購入には 300万円 を見込む。", True),
        ("amount of money", "A replacement kit costs $120.", True),
        ("amount of money", "The kit is lent for the term.", False),
        ("count of people", "町の人口は約3万人で、年に 2 thousand people が転入する。", True),
        ("count of people", "Between 2 and 3 thousand workers joined the strike.", True),
        ("count of people", "The drone's first flight was unmanned.", True),
        ("count of people", "参加者の平均は 4.2 点だった。", False),
        ("count of times", "その雑誌は年4刊で出ている。", True),
        ("count of times", "反復回数: 12", True),
        ("count of times", "at most 100 requests per hour", True),
        ("count of times", "再提出は LMS から行う。", False),
        ("time of day", "受付は 9:30 に開く。", True),
        ("time of day", "終了15分前を過ぎたら入室できない。", False),
        ("language", "score-api | 採点API | Go 1.22 | 2台", True),  # a component table's row
        ("language", "集計バッチは Python と SQL で書く。", True),
        ("language", "原典はポルトガル語で出版された。", True),
        ("language", "Let's go over the grading rules first.", False),
        ("language", "用語の定義は付録にまとめる。", False),
        ("programming language", "The design documents are written in Japanese.", False),
        ("programming language", "採点サーバはGoで実装し、集計はPythonで書く。", True),  # no spaces
        ("programming language", "課題はC言語で書くこと。", True),
        ("programming language", "形態素解析器は Cモードで分割する。", False),  # a mode, not C
    ],
)
def test_the_ways_notes_write_a_measure(measure, text, gives):
    assert holds_measure(measure, text) is gives


def test_a_word_that_holds_a_question_cue_is_no_cue():
    assert not wants_of("損失関数と目的関数を式で書いて").reason  # 目的関数 asks for no purpose
    assert wants_of("この索引を作る目的は？").reason
    # いくつか, いつか and いくらか are "some", "someday", "somewhat": no number is asked for
    assert not wants_of("索引の種類をいくつか挙げて").number
    assert not wants_of("いつか使う設定をいくらか教えて").number
    assert wants_of("索引はいくつ作れる？").number and wants_of("いつ公開される？").number


def test_refine_targets_what_is_missing_then_widens_then_looks_around(engine):
    question = "主キーと外部キーの違いは何ですか？"
    tasks = engine.plan(question).tasks
    missing = engine.refine(question, tasks, ["T2"], "missing", [])
    assert missing.text_queries == ["外部キー"] and "外部キー" in missing.vector_query
    broader = engine.refine(question, tasks, ["T3"], "broader", [])
    assert "外部キー" not in broader.text_queries  # the most specific term is dropped
    found = ["## 参照整合性\n外部キーは他の表の主キーを参照する。"]
    neighbours = engine.refine(question, tasks, ["T3"], "neighbours", found)
    assert "参照整合性" in neighbours.text_queries
    with pytest.raises(InvalidInput):
        engine.refine(question, tasks, ["T3"], "sideways", [])


def test_widening_splits_a_compound_into_its_nouns_never_a_word_into_syllables(engine):
    question = "プロジェクトの決定係数の目標値は？"
    tasks = engine.plan(question).tasks
    broader = engine.refine(question, tasks, [tasks[0].task_id], "broader", [])
    assert {"決定", "係数"} <= set(broader.text_queries)  # 決定係数 in its nouns
    question = "テンプレートで使う層化交差検証法は？"  # the longest keyword is dropped
    tasks = engine.plan(question).tasks
    broader = engine.refine(question, tasks, [tasks[0].task_id], "broader", [])
    assert broader.text_queries == ["テンプレート"]  # one word, never テン + ート
