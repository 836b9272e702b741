"""Write the encoded text materials of the course_se eval set.

    .venv/bin/python eval/course_se/make_text.py      (from the repository root)

writes, under eval/course_se/materials/:

- 07_refactoring_notes_ja.txt   - Lecture 12 plain-text notes, Shift_JIS (cp932) with CRLF line
                                  endings, as saved by a Windows text editor
- faq.csv                       - course FAQ, columns category,question,answer, UTF-8 with BOM
                                  (as Excel's "CSV UTF-8" saves it), CRLF, RFC 4180 quoting
- 05_lab3_testing_ja.ipynb      - Lab 3 walkthrough notebook (nbformat 4.5); the outputs of the
                                  two analysis cells are computed here by running their code, the
                                  pytest/coverage outputs are the recorded runs from the lab PC

All three are pure functions of the content below, so two runs write identical bytes.
"""

# ruff: noqa: E501  (the hand-written Japanese content: a wide character counts as two columns)

from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path

OUT = Path(__file__).parent / "materials"

# =====================================================================================
# 07: plain-text lecture notes (Shift_JIS, CRLF)
# =====================================================================================
NOTES = """\
SE-3320 ソフトウェア工学　第12回 講義メモ
「リファクタリングとコード品質」
2026年6月25日（木）2限　B-204　相馬 圭介

※スライドは配りません。このメモと板書が資料です。

1. リファクタリングとは
  (1) 定義：外から見た振る舞いを変えずに、内部の構造を改善すること。
      「速くする」「バグを直す」はリファクタリングではない（振る舞いが変わるから）。
  (2) 機能追加とリファクタリングを同じコミットに混ぜない。
      ケント・ベックの「2つの帽子」：いまどちらの帽子をかぶっているかを意識する。
  (3) 前提はテストがあること。
      テストがないコードは、まず特性テスト（今の振る舞いをそのまま記録するテスト）を書いてから触る。

2. コードの臭い（この授業で扱う7つ）
  (1) 長すぎる関数 …… コースのルールでは50行を超えたら分割を検討する
  (2) 重複したコード …… 同じ修正を2か所以上にする羽目になる
  (3) 巨大なクラス …… 責務が多すぎる（単一責任の原則違反）
  (4) 長い引数リスト …… 引数が4つ以上
  (5) 変更の分散（ショットガン手術） …… 1つの変更のために多くのファイルを少しずつ直す
  (6) 特性の横恋慕 …… 自分のデータより他クラスのデータばかり使うメソッド
  (7) 基本データ型への執着 …… 日時を文字列で、金額を素の int で持ち回る

3. 代表的な手法
  (1) 関数の抽出（Extract Function）
  (2) 変数の抽出／変数のインライン化
  (3) 名前の変更（関数・変数・クラス）
  (4) 引数オブジェクトの導入
        例：reserve(room, date, start, end, user) の (date, start, end) を ReservationSlot にまとめる
  (5) ポリモーフィズムによる条件記述の置き換え
        利用者の種類で分岐する if/elif の連鎖 → 第6回の Strategy パターン
  (6) ガード節による入れ子条件の置き換え
        異常な場合を先に return して、本筋の処理の字下げを浅くする

4. 安全に進める手順
  1. テストが全部通ることを確認する
  2. 小さな変更を1つだけ行う
  3. テストを実行する
  4. 通ったらコミットする（メッセージは refactor: で始める）
  5. 落ちたら直前の変更を捨てる（git restore）。その場で直そうとしない

5. サイクロマティック複雑度
  (1) 制御フローグラフから求める：M = E - N + 2P
        E：辺の数、N：ノードの数、P：連結成分の数（関数1つなら P = 1）
  (2) 簡便法：M = 判定（if, for, while, except など）の数 + 1
        M は、すべての分岐を通すのに必要な独立な経路の数でもある
        → 分岐網羅に必要なテストケース数の目安になる
  (3) 目安
        1～10　　単純。テストしやすい
        11～20 　やや複雑
        21～50 　複雑。分割を検討
        51以上 　事実上テスト不能
  (4) コースのルール：関数の複雑度は10以下。pyproject.toml に次を書く
        [tool.ruff.lint]
        select = ["E", "F", "C90"]

        [tool.ruff.lint.mccabe]
        max-complexity = 10
  (5) 実例：チーム07の reserve() は M = 17、112行あった。
      関数の抽出で validate_slot()（M = 5）、check_quota()（M = 4）、apply_fee()（M = 3）、
      save_and_notify()（M = 3）に分けた結果、reserve() 自体は M = 2、18行になった。
      分割前後でテストは1本も変えずに全部通った。

6. 技術的負債
  (1) 「今は早く済むが、後で利息を払う」選択のこと。締切前の手抜きは借金である
  (2) 負債は見える場所に記録する：Kawasemi Git のイシューに「tech-debt」ラベルを付ける
  (3) コースのルール：各スプリントの作業時間の15%程度をリファクタリングと負債の返済にあてる
  (4) 返さない負債の例：コメントアウトしたまま残したコード、TODO のまま半年

7. 演習4（個人課題）
  ・配布コード legacy_booking.py（約300行、テストなし）をリファクタリングする
  ・最初に特性テストを書き、最後に全関数の複雑度を10以下にする
  ・提出物：リポジトリのURL、複雑度の before／after の表、手順の説明（A4で2枚以内）
  ・締切：7月1日（水）23:59　Hibari LMS

質問は Hibari LMS の掲示板へ。メールの場合は k-soma@se.shirakabadai-it.example（件名に「SE-3320」）。
"""

# =====================================================================================
# faq.csv
# =====================================================================================
FAQ = [
    (
        "履修",
        "チームは自分で選べますか？",
        "チームは第7回（5月21日）に教員が決めます。希望調査は5月14日まで Hibari LMS で受け付け、一緒になりたい相手を書けるのは1人までです。",
    ),
    (
        "履修",
        "Can I take this course if I have not passed PG-2210?",
        "Talk to Prof. Soma before the first lecture on April 9. You may still attend, but you need his approval to register.",
    ),
    (
        "演習",
        "演習レポートはどんな形式で出せばいい？",
        "PDF 1つにまとめて Hibari LMS に提出してください。ファイル名は ex番号_学籍番号.pdf（例: ex3_s2301045.pdf）です。",
    ),
    (
        "演習",
        "締切に間に合いそうにありません",
        "締切後24時間以内なら20%減点で受理します。それ以降は受理しません。病気などの場合は証明書を添えて1週間以内に相馬先生へ。",
    ),
    (
        "Git",
        "push したら rejected (non-fast-forward) と出ます",
        "リモートに手元にないコミットがあります。git pull --rebase で取り込んでから、もう一度 push してください。--force は使わないこと。",
    ),
    (
        "Git",
        "間違えて .env をコミットしてしまった",
        "push 前なら git reset --soft HEAD~1 で取り消せます。push してしまった場合は、中のパスワードやトークンをすぐに無効化して再発行し、担当TAに連絡してください。履歴から消すだけでは不十分です。",
    ),
    (
        "Git",
        "Kawasemi Git のリポジトリに容量制限はありますか？",
        "1チームあたり2 GBまでです。画像や動画などの大きなファイルは Git LFS で管理してください。",
    ),
    (
        "CI",
        "CI のジョブが途中で止まって失敗になる",
        "tobi のジョブは15分で打ち切られます。テストの中で sleep していないか、外部のAPIを呼んでいないかを確認してください。",
    ),
    (
        "CI",
        "Why does my pipeline pass on my laptop but fail on tobi?",
        "The runner starts from a clean python:3.12-slim container. The usual causes are a package missing from requirements.txt, a test that reads a file only you have, and time zones: without TZ the container runs in UTC.",
    ),
    (
        "テスト",
        "カバレッジが80%に届きません",
        "まず --cov-report=term-missing で実行されていない行を確認してください。例外処理の分岐が抜けていることが多いです。測る意味のないコードに # pragma: no cover を付けてもよいですが、MR の説明に理由を書いてください。",
    ),
    (
        "テスト",
        "Is 100% coverage required?",
        "No. The team project needs 80% branch coverage on main, and exercise 3 targets 90%. Chasing 100% tends to produce tests that assert nothing.",
    ),
    (
        "Scrum",
        "スクラムマスターはずっと同じ人？",
        "2スプリントごとに交代します（スプリント1・2とスプリント3・4）。プロダクトオーナーは相馬先生が全チーム共通で務めます。",
    ),
    (
        "Scrum",
        "見積もりがいつも外れます",
        "外れること自体は問題ではありません。スプリントレビューで計画ポイントと完了ポイントの差とその理由を説明できれば十分です。3スプリント分の実績がたまると、平均ベロシティで計画が立てやすくなります。",
    ),
    (
        "試験",
        "期末試験に電卓は持ち込めますか？",
        "持ち込めません。計算問題は手で計算できる数値にしてあります。持ち込めるのは手書きのA4用紙1枚（両面可）だけです。",
    ),
    (
        "ピア評価",
        "ピア評価はどう成績に入りますか？",
        "チームメンバーからの5段階評価の平均を10点満点に換算します。平均が2.0未満の場合は、チームプロジェクトの成果物点（20%分）も半分になります。",
    ),
    (
        "Misc",
        "Are the design-pattern lectures recorded?",
        "Yes. Lectures 5 and 6 (Oliver Brandt, in English) are recorded and stay on Hibari LMS until the end of the exam period; the other lectures are not recorded.",
    ),
]

# =====================================================================================
# 05: Lab 3 notebook
# =====================================================================================
RULES_V1 = """\
from datetime import datetime, timedelta

CANCEL_LIMIT = timedelta(hours=24)
EXTERNAL_RATE = 750  # 30分あたり（円）
NIGHT_START = 18


def can_cancel(start: datetime, now: datetime, status: str) -> bool:
    if status != "confirmed":
        return False
    if now >= start:
        return False
    return start - now > CANCEL_LIMIT


def calc_fee(minutes: int, external: bool, night: bool) -> int:
    if minutes <= 0 or minutes > 180:
        raise ValueError("利用時間は30分以上180分以下")
    if minutes % 30 != 0:
        raise ValueError("利用時間は30分単位")
    if not external:
        return 0
    fee = EXTERNAL_RATE * (minutes // 30)
    if night:
        fee = fee * 12 // 10
    return fee
"""
RULES_V2 = RULES_V1.replace(
    "return start - now > CANCEL_LIMIT", "return start - now >= CANCEL_LIMIT"
)

TESTS_V1 = """\
from datetime import datetime

from reservation_rules import calc_fee, can_cancel

START = datetime(2026, 6, 10, 13, 0)


def test_cancel_two_days_before():
    assert can_cancel(START, datetime(2026, 6, 8, 13, 0), "confirmed")


def test_fee_internal_is_free():
    assert calc_fee(60, external=False, night=False) == 0


def test_fee_external_60_minutes():
    assert calc_fee(60, external=True, night=False) == 1500
"""

TESTS_V2 = """\
from datetime import datetime

import pytest

from reservation_rules import calc_fee, can_cancel

START = datetime(2026, 6, 10, 13, 0)


@pytest.mark.parametrize(
    ("now", "status", "expected"),
    [
        pytest.param(datetime(2026, 6, 8, 13, 0), "confirmed", True, id="2days"),
        pytest.param(datetime(2026, 6, 9, 13, 0), "confirmed", True, id="exactly_24h"),
        pytest.param(datetime(2026, 6, 9, 13, 1), "confirmed", False, id="23h59m"),
        pytest.param(datetime(2026, 6, 8, 13, 0), "cancelled", False, id="already_cancelled"),
        pytest.param(datetime(2026, 6, 10, 13, 30), "confirmed", False, id="after_start"),
    ],
)
def test_can_cancel(now, status, expected):
    assert can_cancel(START, now, status) == expected


@pytest.mark.parametrize(
    ("minutes", "external", "night", "expected"),
    [
        (60, False, False, 0),
        (60, True, False, 1500),
        (90, True, False, 2250),
        (60, True, True, 1800),
        (180, True, True, 5400),
    ],
)
def test_calc_fee(minutes, external, night, expected):
    assert calc_fee(minutes, external, night) == expected


@pytest.mark.parametrize("minutes", [0, 210, 45])
def test_calc_fee_rejects(minutes):
    with pytest.raises(ValueError):
        calc_fee(minutes, True, False)
"""

RUN_COMMAND = "!pytest -q --cov=reservation_rules --cov-branch --cov-report=term-missing {}"
COV_HEADER = (
    "\n---------- coverage: platform linux, python 3.12.3-final-0 -----------\n"
    "Name                   Stmts   Miss Branch BrPart  Cover   Missing\n"
    "------------------------------------------------------------------\n"
)
RUN_V1 = (
    "...                                                                      [100%]\n"
    + COV_HEADER
    + "reservation_rules.py      21      5     12      5    70%   10, 12, 18, 20, 25\n"
    "------------------------------------------------------------------\n"
    "TOTAL                     21      5     12      5    70%\n"
    "\n3 passed in 0.04s\n"
)
RUN_V2_BUGGY = (
    ".F...........                                                            [100%]\n"
    "=================================== FAILURES ===================================\n"
    "_______________________ test_can_cancel[exactly_24h] _______________________\n"
    "\n"
    "now = datetime.datetime(2026, 6, 9, 13, 0), status = 'confirmed', expected = True\n"
    "\n"
    "    @pytest.mark.parametrize(\n"
    "    ...\n"
    "    def test_can_cancel(now, status, expected):\n"
    ">       assert can_cancel(START, now, status) == expected\n"
    "E       AssertionError: assert False == True\n"
    "E        +  where False = can_cancel(datetime.datetime(2026, 6, 10, 13, 0), datetime.datetime(2026, 6, 9, 13, 0), 'confirmed')\n"
    "\n"
    "test_rules_v2.py:21: AssertionError\n"
    + COV_HEADER
    + "reservation_rules.py      21      0     12      0   100%\n"
    "------------------------------------------------------------------\n"
    "TOTAL                     21      0     12      0   100%\n"
    "=========================== short test summary info ============================\n"
    "FAILED test_rules_v2.py::test_can_cancel[exactly_24h] - AssertionError: assert False == True\n"
    "1 failed, 12 passed in 0.09s\n"
)
RUN_V2_FIXED = (
    ".............                                                            [100%]\n"
    + COV_HEADER
    + "reservation_rules.py      21      0     12      0   100%\n"
    "------------------------------------------------------------------\n"
    "TOTAL                     21      0     12      0   100%\n"
    "\n13 passed in 0.06s\n"
)

COMPLEXITY_CELL = '''\
import ast


def complexity(source: str) -> dict[str, int]:
    """関数ごとの M = 判定の数 + 1（if / for / while / except / 条件式。and・or は数えない）"""
    kinds = (ast.If, ast.For, ast.While, ast.ExceptHandler, ast.IfExp)
    result = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            decisions = sum(isinstance(n, kinds) for n in ast.walk(node))
            result[node.name] = decisions + 1
    return result


with open("reservation_rules.py", encoding="utf-8") as f:
    source = f.read()
for name, m in complexity(source).items():
    print(f"{name:<12} M = {m}")

# can_cancel の制御フローグラフを手で書いて、M = E - N + 2P でも確かめる
edges = [
    ("if status", "return False (1)"),
    ("if status", "if now >= start"),
    ("if now >= start", "return False (2)"),
    ("if now >= start", "return start - now >= LIMIT"),
    ("return False (1)", "exit"),
    ("return False (2)", "exit"),
    ("return start - now >= LIMIT", "exit"),
]
nodes = {n for edge in edges for n in edge}
print(f"can_cancel: N = {len(nodes)}, E = {len(edges)}, P = 1 -> M = E - N + 2P = {len(edges) - len(nodes) + 2}")
'''

RATIO_CELL = """\
# coverage の表の Cover は「命令と分岐を合わせた」割合。分岐網羅率（C1）だけを出してみる
runs = {
    "v1 (3 tests)": {"stmts": 21, "miss": 5, "branches": 12, "branches_hit": 7},
    "v2 (13 tests)": {"stmts": 21, "miss": 0, "branches": 12, "branches_hit": 12},
}
for label, r in runs.items():
    c0 = (r["stmts"] - r["miss"]) / r["stmts"]
    c1 = r["branches_hit"] / r["branches"]
    combined = (r["stmts"] - r["miss"] + r["branches_hit"]) / (r["stmts"] + r["branches"])
    print(f"{label}: C0 = {c0:.1%}  C1 = {c1:.1%}  Cover = {combined:.1%}")
"""


def _run(code: str, files: dict[str, str]) -> str:
    """Run a notebook cell's code with ``open`` reading ``files`` and return what it prints."""

    def fake_open(name, *args, **kwargs):
        return io.StringIO(files[name])

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<cell>", "exec"), {"open": fake_open, "__name__": "__main__"})
    return out.getvalue()


def _md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text.splitlines(keepends=True)}


def _code(source: str, count: int, output: str | None) -> dict:
    outputs = []
    if output is not None:
        outputs.append(
            {"name": "stdout", "output_type": "stream", "text": output.splitlines(keepends=True)}
        )
    return {
        "cell_type": "code",
        "execution_count": count,
        "metadata": {},
        "outputs": outputs,
        "source": source.rstrip("\n").splitlines(keepends=True),
    }


def notebook() -> dict:
    complexity_out = _run(COMPLEXITY_CELL, {"reservation_rules.py": RULES_V2})
    ratio_out = _run(RATIO_CELL, {})
    cells = [
        _md(
            "# 演習3 ウォークスルー：テストとカバレッジ\n"
            "\n"
            "SE-3320 ソフトウェア工学　第10回（2026年6月11日）演習　TA 野々村 あかり\n"
            "\n"
            "演習室 C-301 の PC（Python 3.12、pytest 8.2、pytest-cov 5.0）で実行した記録です。"
            "演習3本番の `reservation_rules.py` とは別の、説明用の小さな版を使います。\n"
        ),
        _md(
            "## 1. テスト対象\n"
            "\n"
            "予約の取消可否 `can_cancel` と料金 `calc_fee`。仕様は配布資料のとおり：\n"
            "\n"
            "- 開始の **24時間前まで** なら取り消せる（ちょうど24時間前は取り消せる）\n"
            "- 利用時間は30分単位で30～180分。学外利用者は30分750円、18時以降開始は20%増し\n"
        ),
        _code("%%writefile reservation_rules.py\n" + RULES_V1, 1, "Writing reservation_rules.py\n"),
        _md("## 2. 最初のテスト（3本）\n\nまずは思いついた「正常な場合」だけを書いてみる。\n"),
        _code("%%writefile test_rules_v1.py\n" + TESTS_V1, 2, "Writing test_rules_v1.py\n"),
        _code(RUN_COMMAND.format("test_rules_v1.py"), 3, RUN_V1),
        _md(
            "3本とも通るが、`Missing` 欄の行（異常系の `return False`、2つの `raise`、夜間割増）が一度も実行されていない。"
            "`BrPart` は「片側しか通っていない分岐」の数で、5つある。\n"
        ),
        _md(
            "## 3. 境界値を足す（13本）\n"
            "\n"
            "同値分割と境界値分析で、`can_cancel` に5ケース、`calc_fee` の正常系に5ケース、異常系に3ケース（0分・210分・45分）を用意した。\n"
        ),
        _code("%%writefile test_rules_v2.py\n" + TESTS_V2, 4, "Writing test_rules_v2.py\n"),
        _code(RUN_COMMAND.format("test_rules_v2.py"), 5, RUN_V2_BUGGY),
        _md(
            "**ちょうど24時間前** のケースが落ちた。仕様は「24時間前まで取り消せる」なのに、実装が `>` で比較していたのが原因。"
            "カバレッジは100%だったのにバグが残っていた、という点が大事。網羅率はテストの量の目安であって、期待値の正しさは保証しない。\n"
            "\n"
            "`>` を `>=` に直して再実行する。\n"
        ),
        _code(
            "%%writefile reservation_rules.py\n" + RULES_V2, 6, "Overwriting reservation_rules.py\n"
        ),
        _code(RUN_COMMAND.format("test_rules_v2.py"), 7, RUN_V2_FIXED),
        _md("## 4. 分岐網羅率だけを取り出す\n"),
        _code(RATIO_CELL, 8, ratio_out),
        _md(
            "## 5. サイクロマティック複雑度\n"
            "\n"
            "$M$ は分岐を全部通すのに必要な独立な経路の数なので、テストケース数の下限の目安になる。\n"
        ),
        _code(COMPLEXITY_CELL, 9, complexity_out),
        _md(
            "## レポートに書くこと\n"
            "\n"
            "1. テストケースの表（入力・期待値・どの同値クラス／境界値か）\n"
            "2. `pytest` の実行結果とカバレッジ報告（分岐網羅率90%以上が目標）\n"
            "3. 見つけたバグと、それを見つけたテストケース\n"
            "\n"
            "レポートの締切は 6月17日（水）23:59、提出は Hibari LMS。このノートブック自体は提出不要。\n"
        ),
    ]
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            },
            "language_info": {
                "codemirror_mode": {"name": "ipython", "version": 3},
                "file_extension": ".py",
                "mimetype": "text/x-python",
                "name": "python",
                "nbconvert_exporter": "python",
                "pygments_lexer": "ipython3",
                "version": "3.12.3",
            },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _with_ids(nb: dict) -> dict:
    for n, cell in enumerate(nb["cells"]):
        cell["id"] = f"se3320-lab3-{n:02d}"
    return nb


def main() -> None:
    OUT.mkdir(exist_ok=True)
    notes = OUT / "07_refactoring_notes_ja.txt"
    notes.write_bytes(NOTES.replace("\n", "\r\n").encode("cp932"))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["category", "question", "answer"])
    writer.writerows(FAQ)
    (OUT / "faq.csv").write_bytes(buffer.getvalue().encode("utf-8-sig"))
    text = json.dumps(_with_ids(notebook()), ensure_ascii=False, indent=1) + "\n"
    (OUT / "05_lab3_testing_ja.ipynb").write_text(text, encoding="utf-8")
    for name in ("07_refactoring_notes_ja.txt", "faq.csv", "05_lab3_testing_ja.ipynb"):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
