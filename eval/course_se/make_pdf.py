"""Build 04_testing_ja.pdf, the Japanese lecture handout on testing, for the course_se eval set.

    .venv/bin/python eval/course_se/make_pdf.py      (from the repository root)

The handout is typeset with fpdf2 in Noto Sans CJK JP (body and headings, from the system's
Noto CJK .ttc collections, face 0 = JP) and Noto Sans Mono CJK JP (code listings, face 5 of the
same collection), with one bookmark per section, three tables and three code listings. The
creation date is fixed, so two runs write byte-identical files (fpdf2 2.8.9, fontTools 4.68.0).

Why the faces are converted first: the Noto CJK faces are CFF-flavoured OpenType. For such a
face fpdf2 writes a Type0 font whose /Encoding is an embedded CMap stream (two-byte codes,
``begincidchar``) instead of the name /Identity-H, and pypdf 7.1.0 - which the ingest path uses -
decodes that font's strings one byte at a time: a NUL "space" appears between all characters and
every glyph code above 0xFF becomes two wrong characters. So this script subsets each face to the
characters of the handout and converts its CFF outlines to TrueType (quadratic) outlines with
fontTools; fpdf2 then writes CIDFontType2 + /Identity-H, which every reader decodes. The glyph
shapes are the same Noto faces. ``--cff OUT.pdf`` writes the unconverted variant, to reproduce
the extraction problem.
"""

# ruff: noqa: E501  (the hand-written Japanese content: a wide character counts as two columns)

from __future__ import annotations

import datetime as dt
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable
from fpdf import FPDF
from fpdf.fonts import FontFace

OUT = Path(__file__).parent / "materials" / "04_testing_ja.pdf"
FONTS = Path("/usr/share/fonts/opentype/noto")
TITLE = "第10–11回 ソフトウェアテスト"
SUBTITLE = "SE-3320 ソフトウェア工学　講義資料　真鍋 由紀　2026年6月11日・18日"

# A section: (title, [blocks]); a block is a paragraph (str), ("code", [lines]) or ("table", [[cells]])
SECTIONS: list[tuple[str, list]] = [
    (
        "1. テストの目的とテストレベル",
        [
            "テストの目的は、欠陥を見つけ、品質についての情報を得ることである。テストは欠陥が「ある」ことは示せるが、"
            "欠陥が「ない」ことは示せない。だからこそ、限られた時間でどこをどうテストするかを設計する必要がある。",
            "テストは対象の大きさによって4つのレベルに分けられる。",
            (
                "table",
                [
                    ["レベル", "対象", "主に誰が", "Yadorigi での例"],
                    ["単体テスト", "関数・クラス1つ", "開発者", "料金計算 calc_fee の境界値"],
                    ["結合テスト", "複数モジュールの連携", "開発者", "予約API と DB の読み書き"],
                    [
                        "システムテスト",
                        "システム全体",
                        "開発チーム",
                        "ブラウザから予約して取り消す",
                    ],
                    ["受入れテスト", "要求を満たすか", "利用者・PO", "受入れ基準（Gherkin）の確認"],
                ],
            ),
            "V字モデルでは、左側の各工程に右側のテストレベルが対応する。要求定義には受入れテスト、基本設計にはシステムテスト、"
            "詳細設計には結合テスト、実装には単体テストが対応し、右側のテストの計画は左側の工程と同時に立てる。",
            "テストピラミッドは、速くて安い単体テストを土台に多く、遅くて壊れやすい E2E テストを頂上に少なく置くという考え方である。"
            "チームプロジェクトでは、テストの本数の目安を単体70%・結合20%・E2E 10%とする。",
        ],
    ),
    (
        "2. テスト設計技法",
        [
            "同値分割では、入力を「同じように扱われるはずの値の集まり」（同値クラス）に分け、各クラスから代表値を1つずつ選ぶ。"
            "境界値分析では、クラスの境目の値とそのすぐ外側の値を選ぶ。バグは境目に集まりやすいからである。",
            "例：Yadorigi の演習室は1回の予約で1～8人まで使える。有効同値クラスは1～8人、無効同値クラスは0人以下と9人以上である。"
            "境界値分析で選ぶ値は 0, 1, 8, 9 の4つになる。",
            "例：利用時間は30分単位で、30分以上180分以下。境界値は 0, 30, 180, 210 分に加え、30分単位でない値（例えば45分）も無効クラスとして試す。",
            "デシジョンテーブルは、条件の組み合わせと結果を表にしたものである。条件が n 個で、それぞれ真か偽なら、組み合わせは 2^n 通りになる。"
            "料金規則（学内利用者は無料。学外利用者は1時間1,500円、30分単位で750円。18時以降に始まる学外利用は20%増し）を表にすると次のようになる。",
            (
                "table",
                [
                    ["条件／結果", "規則1", "規則2", "規則3", "規則4"],
                    ["学外利用者か", "N", "N", "Y", "Y"],
                    ["18時以降の開始か", "N", "Y", "N", "Y"],
                    ["料金（60分の場合）", "0円", "0円", "1,500円", "1,800円"],
                ],
            ),
        ],
    ),
    (
        "3. カバレッジ",
        [
            "カバレッジ（網羅率）は、テストがコードのどれだけを実行したかを表す指標である。よく使われるのは次の3つである。",
            "C0（命令網羅）：すべての命令を少なくとも1回実行したか。",
            "C1（分岐網羅）：すべての分岐の真と偽の両方を少なくとも1回通ったか。",
            "C2（条件網羅）：複合条件の中の個々の条件が、真と偽の両方をとったか。",
            "分岐網羅率の計算式は次のとおり。",
            ("code", ["分岐網羅率(%) = 実行された分岐の数 / 分岐の総数 × 100"]),
            "例えば if 文が5つ（分岐は10本）ある関数で、テストが7本の分岐を通れば 7 / 10 × 100 = 70% である。"
            "C0 が100%でも C1 は100%にならないことがある。else のない if で、条件が真になる入力しか試していない場合がその例である。",
            "チームプロジェクトでは、CI で分岐網羅率（C1）80%以上を必須とし、下回った MR はマージできない。"
            "ただし、網羅率はテストの「量」の指標であって「質」の指標ではない。100%でも、期待値の確認（assert）が誤っていればバグは見逃される。",
            "航空機のソフトウェアなどでは、より厳しい MC/DC（改良条件判定網羅）が求められる。この授業の試験範囲には含めない。",
        ],
    ),
    (
        "4. テストダブル",
        [
            "テスト対象が依存している部品（DB、メール送信、現在時刻など）を、テスト用の代役に置き換えることがある。この代役をテストダブルと呼ぶ。",
            (
                "table",
                [
                    ["種類", "何をするか", "Yadorigi での例"],
                    ["ダミー", "引数を埋めるだけで使われない", "使わないロガー"],
                    ["スタブ", "決まった値を返す", "常に 6月9日 12:00 を返す Clock"],
                    ["スパイ", "呼ばれ方を記録する", "送信されたメールを記録する Notifier"],
                    [
                        "モック",
                        "期待する呼ばれ方を事前に設定して検証する",
                        "send() が1回呼ばれたことを検証",
                    ],
                    ["フェイク", "簡易だが動く実装", "SQLite のインメモリ DB"],
                ],
            ),
            "テストダブルを入れやすくするには、依存する部品をコンストラクタ引数で受け取る設計（依存性の注入）にしておく。"
            "datetime.now() を関数の中で直接呼んでいると、24時間ルールのテストが実行した時刻によって通ったり落ちたりする。",
        ],
    ),
    (
        "5. テスト駆動開発（TDD）",
        [
            "TDD では、次の3つの段階を短く繰り返す。",
            "(1) Red：まだ存在しない機能のテストを書き、失敗することを確かめる。",
            "(2) Green：テストが通る最小限のコードを書く。",
            "(3) Refactor：テストが通る状態を保ったまま、重複を除き設計を整える。",
            "1サイクルは10分以内を目安にする。それ以上かかるなら、テストが大きすぎるので小さく分ける。"
            "TDD の利点は、テストしやすい設計が自然に得られることと、リファクタリングの安全網が最初からあることである。",
        ],
    ),
    (
        "6. pytest の基本",
        [
            "Python のテストには pytest を使う。test_ で始まるファイルの test_ で始まる関数がテストとして集められる。"
            "同じテストを入力だけ変えて繰り返すときは parametrize を使う。",
            (
                "code",
                [
                    "import pytest",
                    "",
                    "from yadorigi.fee import calc_fee",
                    "",
                    "",
                    "@pytest.mark.parametrize(",
                    '    ("minutes", "external", "night", "expected"),',
                    "    [",
                    "        (60, False, False, 0),",
                    "        (60, True, False, 1500),",
                    "        (90, True, False, 2250),",
                    "        (60, True, True, 1800),",
                    "    ],",
                    ")",
                    "def test_calc_fee(minutes, external, night, expected):",
                    "    assert calc_fee(minutes, external, night) == expected",
                    "",
                    "",
                    "def test_rejects_45_minutes():",
                    "    with pytest.raises(ValueError):",
                    "        calc_fee(45, True, False)",
                ],
            ),
            "よく使うオプションは次のとおり。",
            (
                "code",
                [
                    "pytest -q                      # 結果を簡潔に表示",
                    "pytest -k cancel               # 名前に cancel を含むテストだけ実行",
                    "pytest -x                      # 最初の失敗で止める",
                    "pytest --lf                    # 前回失敗したテストだけ再実行",
                    "pytest --cov=yadorigi --cov-branch --cov-report=term-missing",
                ],
            ),
            "最後の行は pytest-cov で分岐を含むカバレッジを測り、実行されなかった行番号を表示する。CI でも同じコマンドを使う。",
        ],
    ),
    (
        "7. 演習3（個人課題）",
        [
            "配布する reservation_rules.py の関数 can_cancel と calc_fee に対して、同値分割と境界値分析でテストケースを設計し、pytest で実装する。"
            "レポートには、テストケースの表、pytest の実行結果、カバレッジの報告を含めること。",
            "目標は分岐網羅率90%以上（チームプロジェクトの80%より高い）。締切は6月17日（水）23:59、提出は Hibari LMS。",
        ],
    ),
]


FACES = {  # family, style -> (collection file, face number in it)
    ("NotoJP", ""): ("NotoSansCJK-Regular.ttc", 0),
    ("NotoJP", "B"): ("NotoSansCJK-Bold.ttc", 0),
    ("NotoMonoJP", ""): ("NotoSansCJK-Regular.ttc", 5),
}


def _all_text() -> str:
    parts = [TITLE, SUBTITLE]
    for title, blocks in SECTIONS:
        parts.append(title)
        for block in blocks:
            if isinstance(block, str):
                parts.append(block)
            else:
                parts.extend(
                    str(cell)
                    for row in block[1]
                    for cell in (row if isinstance(row, list) else [row])
                )
    return "".join(parts) + " "


def _truetype_subset(source: Path, number: int, text: str, target: Path) -> None:
    """Subset one face of a CFF .ttc to ``text`` and save it with TrueType outlines."""
    font = TTFont(source, fontNumber=number, lazy=False, recalcTimestamp=False)
    options = subset.Options()
    options.name_IDs, options.notdef_outline, options.layout_features = ["*"], True, []
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    glyph_set, order = font.getGlyphSet(), font.getGlyphOrder()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, glyphs
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for attribute in (
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
    ):
        setattr(maxp, attribute, 0)
    maxp.maxZones = 1
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font.sfntVersion = "\x00\x01\x00\x00"
    font.save(target)


def build(cff: bool = False) -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_title(TITLE)
    pdf.set_author("真鍋 由紀")
    pdf.set_creator("SE-3320 teaching team (eduanima eval)")
    pdf.set_creation_date(dt.datetime(2026, 6, 10, 17, 0, tzinfo=dt.UTC))  # reproducible bytes
    with tempfile.TemporaryDirectory() as scratch:
        text = _all_text()
        for n, ((family, style), (filename, number)) in enumerate(FACES.items()):
            if cff:
                pdf.add_font(family, style, FONTS / filename, collection_font_number=number)
            else:
                converted = Path(scratch) / f"face{n}.ttf"
                _truetype_subset(FONTS / filename, number, text, converted)
                pdf.add_font(family, style, converted)
        return _typeset(pdf)


def _typeset(pdf: FPDF) -> bytes:
    pdf.set_auto_page_break(auto=True, margin=18)
    pdf.add_page()
    pdf.set_font("NotoJP", "B", 17)
    pdf.multi_cell(0, 10, TITLE, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("NotoJP", "", 10)
    pdf.multi_cell(0, 6, SUBTITLE, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    for title, blocks in SECTIONS:
        pdf.set_font("NotoJP", "B", 13)
        pdf.start_section(title, level=0)
        pdf.multi_cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)
        for block in blocks:
            if isinstance(block, str):
                pdf.set_font("NotoJP", "", 10.5)
                pdf.multi_cell(0, 6, block, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(1.5)
            elif block[0] == "code":
                pdf.set_font("NotoMonoJP", "", 9)
                pdf.set_fill_color(242, 242, 242)
                for line in block[1]:
                    pdf.multi_cell(0, 4.6, line or " ", fill=True, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(3)
            elif block[0] == "table":
                pdf.set_font("NotoJP", "", 9.5)
                heading = FontFace(emphasis="BOLD", fill_color=(217, 226, 243))
                with pdf.table(headings_style=heading, line_height=6) as table:
                    for row in block[1]:
                        cells = table.row()
                        for value in row:
                            cells.cell(value)
                pdf.ln(3)
        pdf.ln(2)
    return bytes(pdf.output())


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--cff":
        target = Path(sys.argv[2])
        target.write_bytes(build(cff=True))
    else:
        target = OUT
        target.write_bytes(build())
    print(f"wrote {target} ({target.stat().st_size:,d} bytes)")
