"""Writes 03_lr_parsing_ja.pdf: a Japanese LR-parsing deck with the look of a LaTeX Beamer PDF
(4:3 frames, coloured frame-title bar, three-part footline with page x / y, navigation symbols).
Content is Python data; fpdf2 with Noto Sans CJK JP faces from the system .ttc. Deterministic.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fpdf import FPDF

OUT = Path(__file__).parent / "materials" / "03_lr_parsing_ja.pdf"
REG = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
BOLD = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
W, H = 128.0, 96.0  # beamer's default 4:3 paper size in mm
BLUE = (51, 51, 179)

TITLE = (
    "LR 構文解析",
    "第6〜7回　LR(0)・SLR・LR(1)・LALR と umiyacc",
    "榊原 諒",
    "潮見工業大学 情報工学科　コンパイラ構成論（CC-2270）",
    "2026年11月17日・24日",
)

SLIDES = [
    (
        "今日の流れ",
        [
            ("b", "ボトムアップ構文解析：入力を左から読み、右端導出を逆にたどる"),
            ("b", "シフト（shift）と還元（reduce）だけで動く"),
            ("b", "LR(0) 項と正準集成 → SLR 表"),
            ("b", "LR(1) 項 → LALR(1)、umiyacc が作るのは LALR(1) 表"),
            ("b", "衝突（conflict）の読み方と、優先順位・結合性による解消"),
        ],
    ),
    (
        "LR 構文解析器の構成",
        [
            ("b", "スタック（状態と記号を交互に積む）、入力、構文解析表"),
            ("b", "表は ACTION[状態, 終端記号] と GOTO[状態, 非終端記号] の2つ"),
            ("b", "ACTION の値は4種類：", 0),
            ("b", "sn：入力を1つ読み、状態 n を積む", 1),
            ("b", "rk：規則 k の右辺の長さ × 2 個をスタックから降ろし、GOTO で次の状態を積む", 1),
            ("b", "acc：受理", 1),
            ("b", "空欄：構文エラー", 1),
            (
                "b",
                "LL(1) と違い、左再帰の文法をそのまま扱える（むしろ左再帰のほうがスタックが浅い）",
            ),
        ],
    ),
    (
        "例題の文法 G2",
        [
            (
                "code",
                ["(0) S' → E", "(1) E  → E + T", "(2) E  → T", "(3) T  → id", "(4) T  → ( E )"],
            ),
            ("b", "S' → E は拡大文法のために加えた規則（受理の判定に使う）"),
            ("b", "LR(0) 項：規則の右辺のどこまで読んだかを・で表す。例：E → E ・+ T"),
        ],
    ),
    (
        "closure と goto",
        [
            (
                "b",
                "closure(I)：項 A → α・Bβ が I にあれば、B の全規則 B → ・γ を I に加える。増えなくなるまで繰り返す",
            ),
            (
                "b",
                "goto(I, X)：I の中で・の直後が X の項をすべて選び、・を X の後ろに進めた集合の closure",
            ),
            ("math", "I0 = closure({ S' → ・E })"),
            ("math", "   = { S' → ・E,  E → ・E + T,  E → ・T,  T → ・id,  T → ・( E ) }"),
            ("b", "G2 の LR(0) 項集合は I0〜I8 の 9 個になる（次のスライド）"),
        ],
    ),
    (
        "G2 の LR(0) 項集合",
        [
            (
                "code",
                [
                    "I1 = goto(I0, E) : S' → E・ ,  E → E・+ T",
                    "I2 = goto(I0, T) : E → T・",
                    "I3 = goto(I0, id): T → id・",
                    "I4 = goto(I0, ( ): T → (・E ) と closure",
                    "I5 = goto(I1, +) : E → E +・T と closure",
                    "I6 = goto(I4, E) : T → ( E・) ,  E → E・+ T",
                    "I7 = goto(I5, T) : E → E + T・",
                    "I8 = goto(I6, ) ): T → ( E )・",
                ],
            ),
            ("b", "I4 から ( で I4 に戻る、id で I3、T で I2 に行く"),
        ],
    ),
    (
        "SLR 構文解析表",
        [
            ("b", "還元 A → α・ は FOLLOW(A) の列にだけ書く（LR(0) なら全列に書いてしまう）"),
            ("b", "FOLLOW(E) = FOLLOW(T) = { +, ), $ }"),
            (
                "table",
                [
                    ["状態", "id", "+", "(", ")", "$", "E", "T"],
                    ["0", "s3", "", "s4", "", "", "1", "2"],
                    ["1", "", "s5", "", "", "acc", "", ""],
                    ["2", "", "r2", "", "r2", "r2", "", ""],
                    ["3", "", "r3", "", "r3", "r3", "", ""],
                    ["4", "s3", "", "s4", "", "", "6", "2"],
                    ["5", "s3", "", "s4", "", "", "", "7"],
                    ["6", "", "s5", "", "s8", "", "", ""],
                    ["7", "", "r1", "", "r1", "r1", "", ""],
                    ["8", "", "r4", "", "r4", "r4", "", ""],
                ],
            ),
        ],
    ),
    (
        "解析の動き：id + id",
        [
            (
                "table",
                [
                    ["スタック", "入力", "動作"],
                    ["0", "id + id $", "s3"],
                    ["0 id 3", "+ id $", "r3（T → id）"],
                    ["0 T 2", "+ id $", "r2（E → T）"],
                    ["0 E 1", "+ id $", "s5"],
                    ["0 E 1 + 5", "id $", "s3"],
                    ["0 E 1 + 5 id 3", "$", "r3（T → id）"],
                    ["0 E 1 + 5 T 7", "$", "r1（E → E + T）"],
                    ["0 E 1", "$", "acc"],
                ],
            ),
            (
                "b",
                "還元のあと GOTO[スタック先頭の状態, 左辺] の状態を積む。例：r3 の後は GOTO[5, T] = 7",
            ),
        ],
    ),
    (
        "衝突（conflict）",
        [
            ("b", "1つの欄に2つ以上の動作が入ったら、その文法はその方式では解析できない"),
            ("b", "シフト／還元衝突：shift してよいか還元すべきか決まらない", 0),
            ("b", "例：dangling else。if (c) S ・else … で shift か還元か", 1),
            ("b", "還元／還元衝突：2つの規則のどちらで還元するか決まらない", 0),
            ("b", "例：関数呼び出しと配列参照を同じ形の規則で書いたとき", 1),
            ("b", "曖昧な文法は、どの LR(k) でも必ず衝突が出る"),
        ],
    ),
    (
        "LR(1) 項と LALR(1)",
        [
            ("b", "LR(1) 項 [A → α・β, a]：先読み記号 a を持つ。還元は先読みが a のときだけ"),
            ("b", "正準 LR(1) は強力だが状態数が非常に多い"),
            ("b", "LALR(1)：核（先読みを除いた部分）が同じ LR(1) 状態を併合する", 0),
            ("b", "状態数は LR(0) と同じ", 1),
            (
                "b",
                "併合で新たに生じうるのは還元／還元衝突だけ。シフト／還元衝突は新たには生じない",
                1,
            ),
            ("b", "強さの順：LR(0) ⊂ SLR(1) ⊂ LALR(1) ⊂ LR(1)"),
            ("b", "MiniC-S の文法（演習2）では LALR 212 状態、正準 LR(1) 1,147 状態だった"),
        ],
    ),
    (
        "umiyacc の仕様ファイル",
        [
            (
                "code",
                [
                    "%token NUM ID",
                    "%left '+' '-'",
                    "%left '*' '/'",
                    "%right UMINUS",
                    "%%",
                    "expr : expr '+' expr   { $$ = mk_bin('+', $1, $3); }",
                    "     | expr '*' expr   { $$ = mk_bin('*', $1, $3); }",
                    "     | '-' expr %prec UMINUS { $$ = mk_neg($2); }",
                    "     | NUM             { $$ = mk_num($1); }",
                    "     ;",
                ],
            ),
            ("b", "後に書いた %left ほど優先順位が高い。同じ行の演算子は同じ優先順位"),
            ("b", "%prec UMINUS：その規則の優先順位を UMINUS のものにする"),
        ],
    ),
    (
        "umiyacc の衝突メッセージ",
        [
            (
                "code",
                [
                    "$ umiyacc -v minic.y",
                    "minic.y: conflicts: 1 shift/reduce",
                    "minic.y: 212 states, 68 rules",
                ],
            ),
            ("b", "-v を付けると parse.umi.output に全状態と衝突の場所が出る"),
            (
                "b",
                "dangling else の 1 個は既定（shift を選ぶ）で正しい。%expect 1 と書けば警告が消える",
            ),
            ("b", "還元／還元衝突は既定では先に書いた規則が選ばれるが、演習2 では 0 個にすること"),
        ],
    ),
    (
        "まとめと演習2",
        [
            ("b", "SLR 表は FOLLOW を使って還元の列を絞る"),
            ("b", "LALR は LR(1) の状態を核で併合したもの、umiyacc も bison も LALR(1)"),
            ("b", "演習2：umiyacc で MiniC-S の構文解析器と AST を作る。締切 12月7日（月）23:59"),
            ("b", "中間小テスト（12月1日）は第2〜7回が範囲。SLR 表を作る問題を1問出す"),
        ],
    ),
]


class Beamer(FPDF):
    def __init__(self) -> None:
        super().__init__(unit="mm", format=(W, H))
        self.set_auto_page_break(False)
        self.set_creation_date(dt.datetime(2026, 11, 16, 20, 5, tzinfo=dt.UTC))
        self.set_producer("pdfTeX-1.40.26")
        self.set_creator("LaTeX with Beamer class")
        self.set_title("LR 構文解析")
        self.set_author("榊原 諒")
        self.add_font("jp", fname=REG, collection_font_number=0)
        self.add_font("jp", style="B", fname=BOLD, collection_font_number=0)
        self.add_font("mono", fname=REG, collection_font_number=5)
        self.total = len(SLIDES) + 1

    def footline(self) -> None:
        y = H - 4.2
        parts = [
            ((30, 30, 120), "榊原 諒（潮見工大）"),
            ((45, 45, 150), "LR 構文解析"),
            ((60, 60, 170), f"{self.page_no()} / {self.total}"),
        ]
        x = 0.0
        for color, text in parts:
            self.set_fill_color(*color)
            self.rect(x, y, W / 3, 4.2, style="F")
            self.set_text_color(255, 255, 255)
            self.set_font("jp", size=5.5)
            self.set_xy(x, y + 0.4)
            self.cell(W / 3, 3.4, text, align="C")
            x += W / 3
        # navigation symbols: small grey triangles and bars, drawn, not text
        self.set_fill_color(190, 190, 210)
        for i in range(4):
            bx = W - 26 + i * 6
            self.polygon([(bx, y - 2.4), (bx + 1.6, y - 3.4), (bx + 1.6, y - 1.4)], style="F")
            self.rect(bx + 2.0, y - 3.2, 1.2, 1.6, style="F")

    def frame(self, title: str, items: list) -> None:
        self.add_page()
        self.set_fill_color(*BLUE)
        self.rect(0, 0, W, 10, style="F")
        self.set_text_color(255, 255, 255)
        self.set_font("jp", "B", 10)
        self.set_xy(4, 2)
        self.cell(W - 8, 6, title)
        self.set_text_color(0, 0, 0)
        y = 14.0
        for item in items:
            kind = item[0]
            if kind == "b":
                level = item[2] if len(item) > 2 else 0
                self.set_font("jp", size=7 if level == 0 else 6.4)
                x = 6 + level * 6
                self.set_text_color(*BLUE)
                self.set_xy(x, y)
                self.cell(3, 3.8, "▶" if level == 0 else "–")
                self.set_text_color(0, 0, 0)
                self.set_xy(x + 3.5, y)
                self.multi_cell(W - x - 10, 3.8, item[1])
                y = self.get_y() + 1.2
            elif kind == "code":
                self.set_font("mono", size=6)
                self.set_fill_color(235, 235, 245)
                h = 3.2 * len(item[1]) + 2
                self.rect(8, y, W - 16, h, style="F")
                for i, line in enumerate(item[1]):
                    self.set_xy(10, y + 1 + 3.2 * i)
                    self.cell(W - 20, 3.2, line)
                y += h + 2
            elif kind == "math":
                self.set_font("jp", size=6.8)
                self.set_xy(14, y)
                self.cell(W - 28, 3.8, item[1])
                y += 4.6
            elif kind == "table":
                self.set_font("jp", size=6)
                rows = item[1]
                width = min(W - 16, 12.0 * len(rows[0])) if len(rows[0]) > 3 else W - 24
                self.set_xy((W - width) / 2, y)
                with self.table(
                    width=width, line_height=3.6, text_align="CENTER", first_row_as_headings=True
                ) as table:
                    for row in rows:
                        r = table.row()
                        for cell in row:
                            r.cell(cell)
                y = self.get_y() + 2
            if y > H - 8:
                raise SystemExit(f"slide overflows: {title}")
        self.footline()

    def title_page(self) -> None:
        self.add_page()
        self.set_fill_color(*BLUE)
        self.rect(10, 18, W - 20, 16, style="F")
        self.set_text_color(255, 255, 255)
        self.set_font("jp", "B", 13)
        self.set_xy(10, 20)
        self.cell(W - 20, 7, TITLE[0], align="C")
        self.set_font("jp", size=7.5)
        self.set_xy(10, 27)
        self.cell(W - 20, 5, TITLE[1], align="C")
        self.set_text_color(0, 0, 0)
        for i, line in enumerate(TITLE[2:]):
            self.set_font("jp", size=8 if i == 0 else 6.5)
            self.set_xy(10, 44 + i * 7)
            self.cell(W - 20, 5, line, align="C")
        self.footline()


def main() -> None:
    pdf = Beamer()
    pdf.title_page()
    for title, items in SLIDES:
        pdf.frame(title, items)
    pdf.output(str(OUT))


if __name__ == "__main__":
    main()
