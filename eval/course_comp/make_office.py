"""Writes the Office materials of course_comp: 04 (English deck shaped like a Keynote export:
blank layouts, titles and bodies as free text boxes, a slide-number box, speaker notes), 06
(Japanese Word handout with a page header, code in shaded one-cell tables, a reviewer comment)
and 09 (TA's results workbook: several tables stacked on one sheet, plus a second sheet).
Content is Python data. ZIP timestamps differ between runs; the content does not.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Pt, RGBColor
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from pptx import Presentation
from pptx.util import Emu
from pptx.util import Pt as PPt

OUT = Path(__file__).parent / "materials"

# ------------------------------------------------------------------ 04 Keynote-like deck
DECK = [
    (
        "Semantic Analysis and Type Checking",
        [
            "Lectures 9–10 · CC-2270 Compiler Construction",
            "Dr Aoife Brennan",
            "8 and 15 December 2026",
        ],
        "Welcome back after the quiz. The marked quiz papers are returned in Lecture 9; the class average was not final when these slides were made.",
    ),
    (
        "Getting help",
        [
            "Office hours: Thursdays 10:30–12:00, room E-512 (visitors' office)",
            "E-mail: a.brennan@shiomi-tech.example – please put [CC-2270] in the subject",
            "Questions in Japanese are fine in class; I will answer in English and Dr Sakakibara can help with translation",
            "My last lecture in this course is Lecture 11 (22 December)",
        ],
        "From January I am back at my home university, so after 22 December please send questions about Lectures 4, 5 and 9–11 to Dr Sakakibara or to the Q&A forum.",
    ),
    (
        "Parse tree vs. AST",
        [
            "A parse tree records every step of the derivation, including E', T' and the punctuation",
            "An abstract syntax tree keeps only what later phases need: operators, operands, statements",
            "Precedence and associativity are already in the shape of the AST, so parentheses disappear",
            "Every AST node carries its source line for error messages",
        ],
        "Example on the board: for a = b * 2 + c the AST has 7 nodes, while the parse tree with grammar G1 has more than 20. The reference parser of Assignment 2 uses 14 AST node kinds.",
    ),
    (
        "An AST node in C",
        [
            "typedef enum { N_NUM, N_ID, N_BIN, N_ASSIGN, N_IF, N_WHILE, N_CALL } NodeKind;",
            "typedef struct Node {",
            "    NodeKind kind;",
            "    int line;",
            "    Type *type;         /* filled in by the type checker */",
            "    union {",
            "        int ival;",
            "        Symbol *sym;",
            "        struct { int op; struct Node *lhs, *rhs; } bin;",
            "    } u;",
            "} Node;",
        ],
        "The union keeps nodes small. In Assignment 2 you must fill in line for every node; the autograder checks the line numbers in your error messages.",
    ),
    (
        "Symbol tables and scopes",
        [
            "One hash table per scope; the scopes form a stack",
            "enter_scope() at '{', exit_scope() at '}'",
            "lookup(name) searches from the innermost scope outwards; insert(name) only touches the innermost one",
            "MiniC-S: a name may be declared once per block",
            "Shadowing an outer name is legal, but the checker prints warning W104",
        ],
        "Why a stack of tables and not one table with a scope number on each entry? Both work. The stack makes exit_scope cheap: you drop the whole innermost table at once instead of deleting entries one by one.",
    ),
    (
        "What the semantic checker reports",
        [
            "E201 undeclared identifier",
            "E202 redeclaration in the same block",
            "E205 wrong number of arguments in a call",
            "E207 break or continue outside a loop",
            "E212 narrowing assignment (float to int) without a cast",
            "E215 return type does not match the function",
        ],
        "These are the codes used by the reference checker and the autograder. Print them exactly in the format 'line 12: E201 undeclared identifier x'.",
    ),
    (
        "Type rules as inference rules",
        [
            "Premises above the line, conclusion below; Γ maps names to types",
            "(T-Var)   Γ(x) = τ   ⟹   Γ ⊢ x : τ",
            "(T-Add)   Γ ⊢ e1 : int,  Γ ⊢ e2 : int   ⟹   Γ ⊢ e1 + e2 : int",
            "(T-AddF)  Γ ⊢ e1 : τ1,  Γ ⊢ e2 : τ2,  float ∈ {τ1, τ2}   ⟹   Γ ⊢ e1 + e2 : float",
            "(T-If)    Γ ⊢ c : int,  Γ ⊢ s1 ok,  Γ ⊢ s2 ok   ⟹   Γ ⊢ if (c) s1 else s2 ok",
        ],
        "MiniC-S has no bool type: conditions are int, as in C. That is why T-If asks for c : int.",
    ),
    (
        "Coercions in MiniC-S",
        ["TABLE"],
        "The inserted conversion instruction is called i2f in our three-address code; you will see it again in Lecture 11.",
    ),
    (
        "A type checker in a few lines",
        [
            "def check(e, env):",
            "    match e:",
            "        case Num():",
            "            return INT",
            "        case Var(name):",
            "            if name not in env:",
            '                raise TypeErr(f"E201 undeclared identifier {name}", e.line)',
            "            return env[name]",
            "        case Bin(op, l, r):",
            "            tl, tr = check(l, env), check(r, env)",
            "            return FLOAT if FLOAT in (tl, tr) else INT",
        ],
        "The checker is a post-order walk: check the children first, then decide the type of the node. It is also where the i2f nodes are inserted.",
    ),
    (
        "Type equivalence",
        [
            "Name equivalence: two types are equal only if they have the same name",
            "Structural equivalence: equal if they are built the same way from the same parts",
            "MiniC-S uses name equivalence for struct types",
            "and structural equivalence for arrays: same element type and same length",
        ],
        "Exercise answer: struct P {int x;} and struct Q {int x;} are different types in MiniC-S, even though they look the same.",
    ),
    (
        "Summary",
        [
            "AST: the tree the later phases work on",
            "Symbol tables: a stack of scopes",
            "Type checking: a post-order walk that applies the type rules and inserts coercions",
            "Next: Lecture 11, intermediate representation (three-address code, basic blocks, SSA)",
        ],
        "The first 20 minutes of Lecture 10 were not recorded because of a microphone fault; the slides are complete, so use them for that part.",
    ),
]

COERCE = [
    ["Operation", "Operand types", "Result", "What the compiler does"],
    ["a + b", "int, int", "int", "nothing"],
    ["a + b", "int, float", "float", "widens the int operand (i2f)"],
    ["x = e", "x: float, e: int", "float", "widens e (i2f)"],
    ["x = e", "x: int, e: float", "—", "error E212"],
    ["a < b", "any numeric", "int", "result is 0 or 1"],
]


def _textbox(slide, x, y, w, h, lines, size, bold=False, font="Helvetica Neue", bullets=False):
    box = slide.shapes.add_textbox(Emu(x), Emu(y), Emu(w), Emu(h))
    tf = box.text_frame
    tf.word_wrap = True
    for i, line in enumerate(lines):
        p = tf.paragraphs[0] if i == 0 else tf.add_paragraph()
        run = p.add_run()
        run.text = line
        run.font.size = PPt(size)
        run.font.bold = bold
        run.font.name = font
        if bullets:
            ppr = p._p.get_or_add_pPr()
            ppr.set("marL", "342900")
            ppr.set("indent", "-342900")
            bu = OxmlElement("a:buChar")
            bu.set("char", "•")
            ppr.append(bu)
    return box


def make_deck() -> None:
    prs = Presentation()
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)
    blank = prs.slide_layouts[6]
    for n, (title, body, notes) in enumerate(DECK, 1):
        s = prs.slides.add_slide(blank)
        if n == 1:
            _textbox(s, 900000, 2000000, 10400000, 1200000, [title], 40, bold=True)
            _textbox(s, 900000, 3400000, 10400000, 1600000, body, 20)
        else:
            _textbox(s, 600000, 350000, 11000000, 900000, [title], 32, bold=True)
            if body == ["TABLE"]:
                shape = s.shapes.add_table(
                    len(COERCE), 4, Emu(600000), Emu(1500000), Emu(11000000), Emu(3000000)
                )
                for r, row in enumerate(COERCE):
                    for c, val in enumerate(row):
                        shape.table.cell(r, c).text = val
            elif body[0].startswith(("typedef", "def ")):
                _textbox(s, 600000, 1400000, 11000000, 4800000, body, 14, font="Menlo")
            else:
                _textbox(s, 600000, 1400000, 11000000, 4800000, body, 20, bullets=True)
            _textbox(s, 11300000, 6300000, 700000, 400000, [str(n)], 12)
        s.notes_slide.notes_text_frame.text = notes
    prs.core_properties.author = "Aoife Brennan"
    prs.core_properties.title = "Semantic Analysis and Type Checking"
    prs.core_properties.last_modified_by = "Keynote"
    prs.save(OUT / "04_semantics_types_en.pptx")


# ------------------------------------------------------------------ 06 Word handout
DOC = [
    ("title", "第12〜14回　データフロー解析・レジスタ割付・コード生成"),
    ("p", "コンパイラ構成論（CC-2270）配布資料06　2027年1月12日／19日／26日　榊原 諒"),
    ("h1", "1. データフロー解析の考え方"),
    (
        "p",
        "データフロー解析は、プログラムの各点で成り立つ事実（どの定義が届くか、どの変数が後で使われるか）を、制御フローグラフ（CFG）の上で求める方法です。基本ブロック B ごとに入口の集合 IN[B] と出口の集合 OUT[B] を考え、ブロック内の効果を gen と kill（生存変数では use と def）で表します。",
    ),
    ("p", "どの解析も、次の3つを決めれば同じ枠組み（反復による不動点の計算）で解けます。"),
    ("num", "向き：前向き（入口から出口へ）か、後ろ向き（出口から入口へ）か"),
    ("num", "合流演算：複数の辺が合流するところで和集合（∪）を取るか、積集合（∩）を取るか"),
    ("num", "初期値：反復を始める前の IN / OUT の値"),
    (
        "table",
        [
            ["解析", "向き", "合流", "初期値", "用途"],
            ["到達定義", "前向き", "∪", "OUT[B] = ∅", "定数伝播、未初期化変数の検出"],
            ["生存変数", "後ろ向き", "∪", "IN[B] = ∅", "レジスタ割付、不要コード削除"],
            ["利用可能式", "前向き", "∩", "OUT[B] = 全式（入口以外）", "共通部分式の削除"],
        ],
    ),
    ("h2", "1.1 到達定義（reaching definitions）"),
    (
        "p",
        "定義 d: x = … が点 p に「到達する」とは、d から p への経路があり、その途中で x が再定義されないことです。",
    ),
    ("eq", "OUT[B] = gen[B] ∪ (IN[B] − kill[B])　　IN[B] = ∪_{P ∈ pred(B)} OUT[P]"),
    ("h2", "1.2 生存変数（liveness）"),
    (
        "p",
        "変数 x が点 p で「生きている」とは、p から始まるある経路で、x が再定義される前に使われることです。向きは後ろ向きです。",
    ),
    ("eq", "IN[B] = use[B] ∪ (OUT[B] − def[B])　　OUT[B] = ∪_{S ∈ succ(B)} IN[S]"),
    (
        "p",
        "use[B] は B の中で定義より前に使われる変数、def[B] は B の中で使われるより前に定義される変数です。",
    ),
    ("h2", "1.3 例題プログラム P"),
    ("p", "講義と演習3で使う例です（三番地コード）。"),
    (
        "code",
        "B1: a = 0\n    b = 1\nB2: c = a + b\n    d = c * 2\n    if c > 100 goto B4\nB3: a = b\n    b = d\n    goto B2\nB4: return d",
    ),
    (
        "table",
        [
            ["ブロック", "use", "def", "後続"],
            ["B1", "∅", "{a, b}", "B2"],
            ["B2", "{a, b}", "{c, d}", "B3, B4"],
            ["B3", "{b, d}", "{a, b}", "B2"],
            ["B4", "{d}", "∅", "（なし）"],
        ],
    ),
    (
        "p",
        "IN / OUT の反復計算の結果は、TA の演習ノートブック（08）に出力があります。手で計算して一致するか確かめてください。",
    ),
    ("h1", "2. レジスタ割付"),
    ("h2", "2.1 干渉グラフ"),
    (
        "p",
        "2つの変数が同時に生きている点があるとき、その2つは同じレジスタに置けません。変数を頂点とし、同時に生きている変数の間に辺を張ったものが干渉グラフです。実際には「x を定義する命令の直後に生きている変数 y（y ≠ x）」との間に辺を張れば十分です。ただし移動命令 x = y では、x と y の間に辺を張りません（同じレジスタにできれば移動命令を消せるため）。",
    ),
    ("h2", "2.2 グラフ彩色（Chaitin 方式）"),
    ("p", "使えるレジスタが k 個のとき、次の手順で彩色します。"),
    (
        "num2",
        "単純化：次数が k 未満の頂点を1つ選んでグラフから取り除き、スタックに積む。これを繰り返す。",
    ),
    (
        "num2",
        "スピル：次数 k 未満の頂点がなくなったら、スピルコストが最も小さい頂点をスピル候補として取り除き、スタックに積む。",
    ),
    (
        "num2",
        "選択：スタックから1つずつ取り出してグラフに戻し、隣接頂点と違う色（レジスタ）を割り当てる。",
    ),
    (
        "num2",
        "実スピル：色が残っていなければその変数をメモリに置き、ロード・ストアを挿入して最初からやり直す。",
    ),
    (
        "p",
        "スピルコストは「使用回数と定義回数の和を、ループの深さに応じて重み付けしたもの」を次数で割った値を使います。演習3では、ループの中の出現を 10 倍に数えます。",
    ),
    ("eq", "cost(v) = ( Σ_{v の出現 i} 10^{depth(i)} ) / degree(v)"),
    (
        "p",
        "例題プログラム P の干渉グラフには b, c, d の三角形があるので、2 色では塗れません（k = 2 では必ずスピルが出ます）。",
    ),
    ("h1", "3. コード生成と簡単な最適化"),
    (
        "p",
        "MiniC-S コンパイラの後段は、三番地コードを仮想機械 SVM-16 のアセンブリに変換します。SVM-16 は汎用レジスタ r0〜r15 を持ち、r0 は常に 0、r14 はスタックポインタ、r15 は戻り番地です。割付に使えるのは r1〜r11 の 11 個です。",
    ),
    (
        "code",
        "# t1 = a + b ; t2 = t1 * 4 ; x = t2   （a→r1, b→r2, t1→r3, t2→r3, x→r4）\nadd  r3, r1, r2\nshli r3, r3, 2        # * 4 を左シフトに強さの低減\nmov  r4, r3",
    ),
    ("p", "第14回で扱う最適化は次のとおりです。"),
    ("bul", "定数畳み込み（constant folding）：2 * 8 をコンパイル時に 16 にする"),
    (
        "bul",
        "定数伝播（constant propagation）：到達定義を使い、定数が代入された変数の使用を定数に置き換える",
    ),
    ("bul", "共通部分式の削除（CSE）：利用可能式を使い、同じ式の再計算を省く"),
    ("bul", "不要コード削除（dead code elimination）：生存変数を使い、結果が使われない代入を消す"),
    ("bul", "強さの低減（strength reduction）：乗算を加算やシフトに置き換える"),
    (
        "p",
        "これらは互いに機会を作り合うので、演習ではパスを「定数伝播 → 定数畳み込み → CSE → 不要コード削除」の順に、変化がなくなるまで最大 4 回繰り返します。",
    ),
]

COMMENT_ON = "スピルコストは「使用回数と定義回数の和を、ループの深さに応じて重み付けしたもの」を次数で割った値を使います。演習3では、ループの中の出現を 10 倍に数えます。"
COMMENT = "三宅（TA）：演習3 の自動採点では、スピルコストが同じ頂点が複数あるときは変数名の辞書順で最初のものを選ぶ前提です。"


def _shade(cell, fill: str) -> None:
    tcpr = cell._tc.get_or_add_tcPr()
    shd = OxmlElement("w:shd")
    shd.set(qn("w:val"), "clear")
    shd.set(qn("w:color"), "auto")
    shd.set(qn("w:fill"), fill)
    tcpr.append(shd)


def make_doc() -> None:
    doc = Document()
    doc.styles["Normal"].font.name = "Yu Mincho"
    doc.styles["Normal"].element.rPr.rFonts.set(qn("w:eastAsia"), "游明朝")
    doc.sections[0].header.paragraphs[
        0
    ].text = "CC-2270 コンパイラ構成論　配布資料06（2026年度後期）"
    for kind, val in DOC:
        if kind == "title":
            doc.add_heading(val, level=0)
        elif kind == "h1":
            doc.add_heading(val, level=1)
        elif kind == "h2":
            doc.add_heading(val, level=2)
        elif kind == "p":
            p = doc.add_paragraph(val)
            if val == COMMENT_ON:
                doc.add_comment(p.runs, text=COMMENT, author="三宅 悠斗", initials="YM")
        elif kind == "num":
            doc.add_paragraph(val, style="List Number")
        elif kind == "num2":
            doc.add_paragraph(val, style="List Number 2")
        elif kind == "bul":
            doc.add_paragraph(val, style="List Bullet")
        elif kind == "eq":
            p = doc.add_paragraph()
            p.alignment = WD_ALIGN_PARAGRAPH.CENTER
            r = p.add_run(val)
            r.italic = True
        elif kind == "code":
            t = doc.add_table(rows=1, cols=1)
            t.style = "Table Grid"
            cell = t.cell(0, 0)
            _shade(cell, "EDEDED")
            cell.paragraphs[0].text = ""
            for i, line in enumerate(val.split("\n")):
                p = cell.paragraphs[0] if i == 0 else cell.add_paragraph()
                r = p.add_run(line)
                r.font.name = "Consolas"
                r.font.size = Pt(9.5)
                r.font.color.rgb = RGBColor(0x20, 0x20, 0x20)
        elif kind == "table":
            t = doc.add_table(rows=len(val), cols=len(val[0]))
            t.style = "Table Grid"
            for r, row in enumerate(val):
                for c, v in enumerate(row):
                    t.cell(r, c).text = v
                    if r == 0:
                        t.cell(r, c).paragraphs[0].runs[0].bold = True
    doc.core_properties.author = "榊原 諒"
    doc.core_properties.created = dt.datetime(2027, 1, 8, 9, 0)
    doc.save(OUT / "06_dataflow_regalloc_ja.docx")


# ------------------------------------------------------------------ 09 TA workbook
def make_book() -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "課題2・3 集計"
    bold = Font(bold=True)
    head = PatternFill("solid", fgColor="DDEBF7")
    rows = [
        ["課題2（umiyacc 構文解析器）自動採点の集計　2026/12/09 三宅"],
        [],
        ["テスト区分", "テスト数", "全員の平均通過率", "満点の人数", "備考"],
        ["式・優先順位", 12, 0.94, 71, ""],
        ["文（if / while / return）", 10, 0.88, 62, "dangling else で失敗が多い"],
        ["関数定義・呼び出し", 8, 0.81, 55, ""],
        ["エラー回復", 6, 0.47, 19, "error トークン未使用が多数"],
        ["AST の出力形式", 4, 0.9, 66, ""],
        [],
        ["提出者数", 84, None, None, "受講登録 91 名"],
        ["締切後の提出（減点対象）", 7, None, None, ""],
        ["衝突が残っていた提出", 13, None, None, "うち還元／還元衝突を含むもの 4"],
        [],
        ["課題3（レジスタ割付）参考解の測定　cc-build にて 2027/01/27"],
        [],
        [
            "プログラム",
            "k",
            "スピルした変数の数",
            "ロード・ストア追加数",
            "実行サイクル（-O0）",
            "実行サイクル（-O1）",
        ],
        ["fib.mc", 4, 0, 0, 1840, 1512],
        ["sieve.mc", 4, 2, 9, 52410, 38770],
        ["matmul.mc", 4, 5, 23, 418200, 301650],
        ["matmul.mc", 8, 1, 4, 352900, 247300],
        ["qsort.mc", 6, 1, 6, 96880, 80115],
        [],
        [
            "※ サイクル数は SVM-16 シミュレータ svmsim 1.3 の出力。-O1 は定数伝播・畳み込み・CSE・不要コード削除を有効にしたもの。"
        ],
    ]
    for r in rows:
        ws.append(r)
    for cell in ws[1] + ws[14]:
        cell.font = Font(bold=True, size=12)
    for rr in (3, 16):
        for cell in ws[rr]:
            if cell.value is not None:
                cell.font = bold
                cell.fill = head
                cell.alignment = Alignment(horizontal="center", wrap_text=True)
    for r in range(4, 9):
        ws.cell(r, 3).number_format = "0%"
    for r in range(17, 22):
        for c in (5, 6):
            ws.cell(r, c).number_format = "#,##0"
    ws.merge_cells("A1:F1")
    ws.merge_cells("A14:F14")
    ws.merge_cells("A23:F23")
    for col, width in zip("ABCDEF", (26, 10, 18, 16, 20, 20), strict=True):
        ws.column_dimensions[col].width = width

    ws2 = wb.create_sheet("中間小テスト")
    for r in [
        ["中間小テスト（12月1日）結果　満点 15 点"],
        [],
        ["設問", "内容", "配点", "平均点", "正答率"],
        ["問1", "正規表現 → DFA", 4, 3.1, 0.78],
        ["問2", "FIRST / FOLLOW", 5, 3.4, 0.68],
        ["問3", "SLR 表の作成", 6, 3.2, 0.53],
        ["合計", "", 15, 9.7, None],
        [],
        ["受験者 86 名、最高点 15、最低点 3。問3 は状態 I5 の GOTO を書き落とした答案が多かった。"],
    ]:
        ws2.append(r)
    for r in range(4, 7):
        ws2.cell(r, 5).number_format = "0%"
    ws2.merge_cells("A1:E1")
    wb.properties.creator = "三宅 悠斗"
    wb.properties.created = dt.datetime(2026, 12, 9, 18, 0)
    wb.properties.modified = dt.datetime(2027, 1, 27, 17, 30)
    wb.save(OUT / "09_ta_results_ja.xlsx")


if __name__ == "__main__":
    make_deck()
    make_doc()
    make_book()
