"""Build the LibreOffice materials of course_circ: flat ODF XML written here, then converted by
LibreOffice itself (``soffice --headless --convert-to ...``), so the files are genuinely
LibreOffice 7.4 output.

- 01_dc_circuits_ja.odt: Lectures 1-4 (Japanese): headings, numbered and bulleted lists,
  tables, footnotes and LibreOffice Math formula objects (StarMath annotations; LibreOffice
  rebuilds the MathML and writes each formula as an embedded "Object N").
- 02_transients_en.odp: Lectures 6-7 (Dr. Valcourt, English), an Impress deck with speaker
  notes, a table and one formula object.
- 03_ac_phasors_en.pdf: Lectures 8-9 (English), a Writer document exported to PDF by
  LibreOffice (headings, a table, a footnote, formula objects).
- 05_lab_measurements_ja.ods: the lab sheets (Japanese): four sheets, merged title cells,
  computed columns (formulas with their values), an AVERAGE row.

Needs LibreOffice (``soffice``) on PATH. Run: .venv/bin/python eval/course_circ/make_lo.py
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
MATERIALS = HERE / "materials"

NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
    'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
    'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" '
    'xmlns:math="http://www.w3.org/1998/Math/MathML"'
)

# ---------------------------------------------------------------------------------------------
# inline markup: {fn:...} footnote, {m:...} inline formula (StarMath)
# ---------------------------------------------------------------------------------------------

_counter = {"fn": 0, "obj": 0}


def formula(starmath: str, block: bool = False) -> str:
    _counter["obj"] += 1
    width = f"{max(1.0, 0.22 * len(starmath)):.2f}cm"
    return (
        f'<draw:frame draw:name="Formula{_counter["obj"]}" text:anchor-type="as-char" '
        f'svg:width="{width}" svg:height="0.8cm" draw:z-index="0">'
        f'<draw:object><math:math display="{"block" if block else "inline"}"><math:semantics>'
        f"<math:mrow><math:mtext>{escape(starmath)}</math:mtext></math:mrow>"
        f'<math:annotation encoding="StarMath 5.0">{escape(starmath)}</math:annotation>'
        f"</math:semantics></math:math></draw:object></draw:frame>"
    )


def inline(text: str) -> str:
    out, pos = [], 0
    for m in re.finditer(r"\{(fn|m):((?:[^{}]|\{[^{}]*\})*)\}", text):
        out.append(escape(text[pos : m.start()]))
        kind, body = m.group(1), m.group(2)
        if kind == "fn":
            _counter["fn"] += 1
            n = _counter["fn"]
            out.append(
                f'<text:note text:id="ftn{n}" text:note-class="footnote">'
                f"<text:note-citation>{n}</text:note-citation><text:note-body>"
                f'<text:p text:style-name="Footnote">{escape(body)}</text:p>'
                f"</text:note-body></text:note>"
            )
        else:
            out.append(formula(body))
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def body_xml(blocks: list[tuple]) -> str:
    parts = []
    for block in blocks:
        kind = block[0]
        if kind == "title":
            parts.append(f'<text:p text:style-name="Title">{inline(block[1])}</text:p>')
        elif kind == "sub":
            parts.append(f'<text:p text:style-name="Subtitle">{inline(block[1])}</text:p>')
        elif kind == "h":
            parts.append(
                f'<text:h text:style-name="Heading_20_{block[1]}" text:outline-level="{block[1]}">'
                f"{inline(block[2])}</text:h>"
            )
        elif kind == "p":
            parts.append(f'<text:p text:style-name="Text_20_body">{inline(block[1])}</text:p>')
        elif kind == "math":
            parts.append(f'<text:p text:style-name="Formula_P">{formula(block[1], True)}</text:p>')
        elif kind in ("ol", "ul"):
            style = "LNum" if kind == "ol" else "LBul"
            items = "".join(
                f'<text:list-item><text:p text:style-name="List_P">{inline(i)}</text:p></text:list-item>'
                for i in block[1]
            )
            parts.append(f'<text:list text:style-name="{style}">{items}</text:list>')
        elif kind == "table":
            rows = block[1]
            _counter["obj"] += 0
            cols = len(rows[0])
            xml = [f'<table:table table:name="Table{len(parts)}" table:style-name="Tbl">']
            xml.append(f'<table:table-column table:number-columns-repeated="{cols}"/>')
            xml.append("<table:table-header-rows>")
            xml.append(_row(rows[0], header=True))
            xml.append("</table:table-header-rows>")
            xml.extend(_row(r) for r in rows[1:])
            xml.append("</table:table>")
            parts.append("".join(xml))
        else:
            raise ValueError(kind)
    return "\n".join(parts)


def _row(cells, header=False) -> str:
    style = "Table_20_Heading" if header else "Table_20_Contents"
    return (
        "<table:table-row>"
        + "".join(
            f'<table:table-cell table:style-name="Cell" office:value-type="string">'
            f'<text:p text:style-name="{style}">{inline(c)}</text:p></table:table-cell>'
            for c in cells
        )
        + "</table:table-row>"
    )


WRITER_STYLES = """
<office:styles>
 <style:default-style style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.2cm"/>
  <style:text-properties style:font-name="Liberation Serif" fo:font-size="11pt" style:font-name-asian="Noto Sans CJK JP" style:font-size-asian="10.5pt" fo:language="{lang}" fo:country="{country}" style:language-asian="ja" style:country-asian="JP"/></style:default-style>
 <style:style style:name="Standard" style:family="paragraph" style:class="text"/>
 <style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph" style:parent-style-name="Standard" style:class="text"><style:paragraph-properties fo:margin-bottom="0.25cm" fo:line-height="115%"/></style:style>
 <style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard" style:class="text"><style:paragraph-properties fo:margin-top="0.42cm" fo:margin-bottom="0.21cm" fo:keep-with-next="always"/><style:text-properties style:font-name="Liberation Sans" fo:font-size="14pt" style:font-name-asian="Noto Sans CJK JP" fo:font-weight="bold" style:font-weight-asian="bold"/></style:style>
 <style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="1" style:class="text"><style:text-properties fo:font-size="16pt" style:font-size-asian="16pt"/></style:style>
 <style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="2" style:class="text"><style:text-properties fo:font-size="13pt" style:font-size-asian="13pt"/></style:style>
 <style:style style:name="Title" style:family="paragraph" style:parent-style-name="Heading" style:class="chapter"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="22pt" style:font-size-asian="22pt"/></style:style>
 <style:style style:name="Subtitle" style:family="paragraph" style:parent-style-name="Heading" style:class="chapter"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="12pt" fo:font-weight="normal" style:font-size-asian="12pt" style:font-weight-asian="normal"/></style:style>
 <style:style style:name="Footnote" style:family="paragraph" style:parent-style-name="Standard" style:class="extra"><style:text-properties fo:font-size="9pt" style:font-size-asian="9pt"/></style:style>
 <style:style style:name="Table_20_Contents" style:display-name="Table Contents" style:family="paragraph" style:parent-style-name="Standard" style:class="extra"/>
 <style:style style:name="Table_20_Heading" style:display-name="Table Heading" style:family="paragraph" style:parent-style-name="Table_20_Contents" style:class="extra"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-weight="bold" style:font-weight-asian="bold"/></style:style>
 <style:style style:name="List_P" style:family="paragraph" style:parent-style-name="Text_20_body"/>
</office:styles>
<office:automatic-styles>
 <style:style style:name="Formula_P" style:family="paragraph" style:parent-style-name="Text_20_body"><style:paragraph-properties fo:text-align="center"/></style:style>
 <style:style style:name="Tbl" style:family="table"><style:table-properties style:width="16cm" table:align="center"/></style:style>
 <style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties fo:padding="0.1cm" fo:border="0.5pt solid #000000"/></style:style>
 <text:list-style style:name="LNum"><text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="1"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" fo:text-indent="-0.635cm" fo:margin-left="1.27cm"/></style:list-level-properties></text:list-level-style-number></text:list-style>
 <text:list-style style:name="LBul"><text:list-level-style-bullet text:level="1" text:bullet-char="•"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" fo:text-indent="-0.635cm" fo:margin-left="1.27cm"/></style:list-level-properties></text:list-level-style-bullet></text:list-style>
 <style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2cm" fo:margin-bottom="2cm" fo:margin-left="2.2cm" fo:margin-right="2.2cm"/></style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/></office:master-styles>
"""


def writer_doc(title: str, blocks: list[tuple], lang: str, country: str, author: str) -> str:
    _counter["fn"] = 0
    _counter["obj"] = 0
    body = body_xml(blocks)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS} office:version="1.3" '
        f'office:mimetype="application/vnd.oasis.opendocument.text">\n'
        f"<office:meta><dc:title>{escape(title)}</dc:title><meta:initial-creator>{escape(author)}"
        f"</meta:initial-creator><dc:creator>{escape(author)}</dc:creator></office:meta>\n"
        + WRITER_STYLES.replace("{lang}", lang).replace("{country}", country)
        + f"<office:body><office:text>\n{body}\n</office:text></office:body></office:document>\n"
    )


# ---------------------------------------------------------------------------------------------
# 01: Lectures 1-4, Japanese (.odt)
# ---------------------------------------------------------------------------------------------

DC_BLOCKS = [
    ("title", "電気回路Ⅰ 講義ノート（第1回〜第4回）"),
    ("sub", "直流回路の基礎 ― EE-2104 霧ヶ丘工業大学 電気電子工学科 2年 ／ 担当 宇佐見 恒一"),
    ("h", 1, "第1回 電圧・電流・抵抗とオームの法則"),
    (
        "p",
        "電流は単位時間あたりに導体の断面を通過する電荷の量で、単位はアンペア（A）です。1 A は毎秒 1 クーロンの電荷が流れることを意味します。電圧（電位差）は単位電荷あたりのエネルギーの差で、単位はボルト（V）です。本講義では、電流の向きは正電荷が移動する向き（慣習的な向き）で表します{fn:電子は負電荷なので、実際の電子の移動方向は慣習的な電流の向きと逆になる。回路解析ではこの違いを気にする必要はない。}。",
    ),
    (
        "p",
        "抵抗に流れる電流と両端の電圧は比例し、その比例定数が抵抗 R です。これがオームの法則です。",
    ),
    ("math", "V = R I"),
    (
        "p",
        "抵抗の逆数をコンダクタンス G と呼び、単位はジーメンス（S）です。並列回路の計算ではコンダクタンスで考えると見通しがよくなります。",
    ),
    ("p", "抵抗で消費される電力は、オームの法則と組み合わせると三通りに書けます。"),
    ("math", "P = V I = I^2 R = {V^2} over {R}"),
    (
        "p",
        "例：100 Ω の抵抗に 0.2 A 流れると、消費電力は 4 W です。実験で使う炭素皮膜抵抗の定格は 1/4 W なので、この使い方をすると焼損します{fn:実験1で配る抵抗はすべて定格 1/4 W、許容差 ±5 %（第4色帯が金色）である。}。",
    ),
    ("h", 2, "抵抗のカラーコード"),
    (
        "p",
        "4本帯の抵抗は、第1・第2帯が有効数字、第3帯が乗数、第4帯が許容差を表します。主な色と数字の対応は次の表のとおりです。",
    ),
    (
        "table",
        [
            ["色", "数字", "乗数"],
            ["黒", "0", "×1"],
            ["茶", "1", "×10"],
            ["赤", "2", "×100"],
            ["橙", "3", "×1 k"],
            ["黄", "4", "×10 k"],
            ["緑", "5", "×100 k"],
            ["青", "6", "×1 M"],
            ["紫", "7", "—"],
        ],
    ),
    ("p", "例えば「黄・紫・赤・金」は 47 × 100 = 4.7 kΩ、許容差 ±5 % です。"),
    ("h", 1, "第2回 キルヒホッフの法則"),
    (
        "p",
        "キルヒホッフの電流則（KCL）は、任意の節点に流れ込む電流の総和が 0 であることを述べます。電荷が節点にたまらないことの言い換えです。",
    ),
    ("math", "sum from{k} I_k = 0"),
    (
        "p",
        "キルヒホッフの電圧則（KVL）は、任意の閉路を一周したときの電圧の総和が 0 であることを述べます。電位が場所だけで決まることの言い換えです。",
    ),
    ("math", "sum from{k} V_k = 0"),
    ("p", "回路方程式を立てるときは、次の手順で進めます。"),
    (
        "ol",
        [
            "各枝に電流の向きを仮定し、名前（I1, I2, …）を付ける（向きは適当でよい。結果が負なら逆向き）。",
            "節点の数を n とし、n − 1 個の節点で KCL を書く。",
            "独立な閉路（網目）ごとに KVL を書く。閉路をたどる向きも最初に決めておく。",
            "未知数と式の数が一致することを確かめてから連立方程式を解く。",
            "求めた電流で、電源が供給する電力と抵抗の消費電力の合計が一致するか検算する。",
        ],
    ),
    (
        "p",
        "網目電流法（メッシュ法）では各網目に仮想的な電流を置くので KCL が自動的に満たされ、式の数は網目の数だけで済みます。節点電位法では基準節点（グラウンド）を1つ決め、残りの節点電位を未知数にします{fn:基準節点は、最も多くの枝がつながる節点に選ぶと式が簡単になることが多い。試験ではどの節点を選んでも正答とする。}。",
    ),
    ("h", 2, "例題 2-1（網目電流法）"),
    (
        "p",
        "12 V の電源 E1 と 6 V の電源 E2 が、共通の 2 Ω の抵抗 R3 を挟んで2つの網目を作っている。左の網目には 4 Ω の R1、右の網目には 2 Ω の R2 がある。左右の網目電流を時計回りに I_a, I_b とおくと、次の連立方程式になる。",
    ),
    ("math", "left lbrace stack{ 6 I_a - 2 I_b = 12 # -2 I_a + 4 I_b = -6 } right none"),
    (
        "p",
        "これを解くと I_a = 1.8 A、I_b = −0.6 A となり、R3 を流れる電流は I_a − I_b = 2.4 A である。I_b が負なので、右の網目の電流は実際には反時計回りに流れている。",
    ),
    (
        "p",
        "検算：電源が供給する電力は 12 × 1.8 + 6 × 0.6 = 25.2 W、抵抗の消費電力は 4 × 1.8² + 2 × 0.6² + 2 × 2.4² = 12.96 + 0.72 + 11.52 = 25.2 W で一致する。",
    ),
    ("h", 1, "第3回 直列・並列回路と分圧・分流"),
    ("p", "直列に接続した抵抗の合成抵抗は各抵抗の和です。"),
    ("math", "R_s = R_1 + R_2 + dotsaxis + R_n"),
    (
        "p",
        "並列に接続した抵抗の合成抵抗は、逆数の和の逆数になります。2本の場合は「和分の積」で覚えるとよいでしょう。",
    ),
    ("math", "R_p = {R_1 R_2} over {R_1 + R_2}"),
    (
        "p",
        "例：6 kΩ と 3 kΩ の並列は 18/9 = 2 kΩ。並列の合成抵抗は必ず最小の抵抗より小さくなる、という性質は検算に便利です。",
    ),
    ("h", 2, "分圧の式と分流の式"),
    ("p", "直列の2抵抗の接続点の電圧は、抵抗の比で電源電圧を分けたものになります（分圧）。"),
    ("math", 'V_{out} = V_{"in"} {R_2} over {R_1 + R_2}'),
    (
        "p",
        "例：V_in = 12 V、R1 = 4 kΩ、R2 = 6 kΩ のとき、V_out = 12 × 6/10 = 7.2 V です。並列の2抵抗に流れる電流は、相手側の抵抗に比例して分かれます（分流）。",
    ),
    ("math", "I_1 = I {R_2} over {R_1 + R_2}"),
    (
        "p",
        "分圧回路の出力に負荷をつなぐと、負荷が R2 と並列になるため出力電圧は下がります。これを負荷効果と呼びます。実験1では、R2 と同じ大きさの負荷をつないだときの電圧低下も測定します。",
    ),
    (
        "ul",
        [
            "直列：電流が共通、電圧が分かれる。",
            "並列：電圧が共通、電流が分かれる。",
            "分圧の式は、出力側に電流が流れない（無負荷）ときだけ正確に成り立つ。",
            "電圧計は内部抵抗が大きいほど、回路への影響（負荷効果）が小さい。",
        ],
    ),
    ("h", 1, "第4回 テブナンの定理・ノートンの定理と重ね合わせの理"),
    (
        "p",
        "線形な回路は、ある2端子から見ると、電圧源 V_th と直列抵抗 R_th の組（テブナン等価回路）に置き換えられます。V_th は端子を開放したときの電圧、R_th は独立電源を取り除いた（電圧源は短絡、電流源は開放）ときに端子から見た抵抗です{fn:従属電源を含む回路では電源を取り除くことはできない。その場合は開放電圧と短絡電流の比 V_th / I_N から R_th を求める（本講義の範囲外）。}。",
    ),
    (
        "p",
        "ノートン等価回路は、電流源 I_N と並列抵抗 R_N の組です。両者は次の関係で互いに変換できます。",
    ),
    ("math", "I_N = {V_th} over {R_th}, ~~ R_N = R_th"),
    ("h", 2, "例題 4-1"),
    (
        "p",
        "10 V の電源に R1 = 3 kΩ と R2 = 2 kΩ を直列に接続し、R2 の両端を端子 a-b とする。端子 a-b から見たテブナン等価回路と、a-b に 0.8 kΩ の負荷をつないだときの負荷電流を求めよ。",
    ),
    (
        "table",
        [
            ["量", "求め方", "値"],
            ["V_th", "開放電圧＝分圧 10 × 2/5", "4 V"],
            ["R_th", "電源を短絡して 3 kΩ ∥ 2 kΩ", "1.2 kΩ"],
            ["I_N", "V_th / R_th", "3.33 mA"],
            ["負荷電流", "4 V / (1.2 kΩ + 0.8 kΩ)", "2 mA"],
        ],
    ),
    (
        "p",
        "負荷で消費される電力が最大になるのは、負荷抵抗が R_th に等しいときです（最大電力供給の定理）。例題 4-1 では負荷を 1.2 kΩ にしたとき最大となり、そのとき負荷電力は 3.33 mW です。",
    ),
    ("h", 2, "重ね合わせの理"),
    (
        "p",
        "独立電源が複数ある線形回路では、各電源が単独で働いたときの応答を足し合わせれば全体の応答が得られます。ほかの電源を取り除くときは、電圧源は短絡、電流源は開放に置き換えます。",
    ),
    (
        "ul",
        [
            "重ね合わせが使えるのは電圧と電流だけで、電力には使えない（電力は電流の2乗に比例するため）。",
            "ダイオードなど非線形素子を含む回路には使えない。",
            "電源が3個以上でも手順は同じだが、計算量は増えるので、網目電流法と使い分ける。",
        ],
    ),
    ("h", 2, "例題 4-2（重ね合わせ）"),
    (
        "p",
        "9 V の電圧源が 6 kΩ の抵抗 R1 を通して節点 a につながり、節点 a には 3 mA の電流源も電流を流し込んでいる。節点 a と接地の間にある 3 kΩ の抵抗 R を流れる電流を、重ね合わせで求める。",
    ),
    (
        "table",
        [
            ["働かせる電源", "ほかの電源の扱い", "R を流れる電流"],
            ["9 V の電圧源だけ", "電流源を開放", "1.0 mA"],
            ["3 mA の電流源だけ", "電圧源を短絡", "2.0 mA"],
            ["両方", "—", "3.0 mA"],
        ],
    ),
    (
        "p",
        "R で消費される電力は 3 kΩ × (3.0 mA)² = 27 mW であり、各電源単独のときの電力の和 3 mW + 12 mW = 15 mW とは一致しない。電力に重ね合わせが使えないことの具体例である。",
    ),
    (
        "p",
        "中間小テスト（10月29日）の範囲は第1回から第4回までです。重ね合わせの理の問題は必ず1問出します{fn:小テストは30分、関数電卓の持ち込み可。過去の小テストは配布しない。}。",
    ),
]

# ---------------------------------------------------------------------------------------------
# 03: Lectures 8-9, English (.fodt -> .pdf)
# ---------------------------------------------------------------------------------------------

AC_BLOCKS = [
    ("title", "Sinusoidal Steady State: Phasors and Impedance"),
    (
        "sub",
        "EE-2104 Electric Circuits I · Lectures 8–9 (19 and 26 November 2026) · Dr. Ines Valcourt, visiting lecturer",
    ),
    ("h", 1, "1. Why phasors?"),
    (
        "p",
        "When a linear circuit is driven by a sinusoidal source and every transient has died away, every voltage and current in it is a sinusoid of the same frequency. Only two numbers per quantity remain unknown: an amplitude and a phase. A phasor packs exactly these two numbers into one complex number, and turns the differential equations of the circuit into algebra.",
    ),
    ("p", "Euler's formula links the two pictures:"),
    ("math", "e^{j %theta} = cos %theta + j sin %theta"),
    (
        "p",
        "We write j for the imaginary unit because i is already taken by current.{fn:Mathematics courses at Kirigaoka use i; in this course, answers written with i instead of j are accepted in the exam as long as the meaning is clear.}",
    ),
    ("h", 1, "2. Amplitude, RMS value and the phasor"),
    (
        "p",
        "A sinusoid v(t) = V_m sin(ωt + φ) has peak value V_m, angular frequency ω = 2πf and phase φ. Its RMS (effective) value is V_m/√2. Convention in this course: the magnitude of a phasor is the RMS value, not the peak. So v(t) = 141.4 sin(ωt + 30°) V becomes the phasor V = 100∠30° V.",
    ),
    ("math", "V_{rms} = {V_m} over {sqrt 2}"),
    (
        "p",
        "Differentiation in time becomes multiplication by jω, and integration becomes division by jω. This is the whole trick: a capacitor's i = C dv/dt turns into I = jωC V.",
    ),
    ("h", 1, "3. Impedance of R, L and C"),
    (
        "p",
        "The impedance Z = V/I is the ratio of the voltage phasor to the current phasor. Its real part is the resistance and its imaginary part the reactance X.",
    ),
    (
        "table",
        [
            ["Element", "Impedance Z", "Phase of V relative to I"],
            ["Resistor R", "R", "0° (in phase)"],
            ["Inductor L", "jωL", "+90° (current lags)"],
            ["Capacitor C", "1/(jωC) = −j/(ωC)", "−90° (current leads)"],
        ],
    ),
    ("p", "A series RLC branch therefore has the impedance"),
    ("math", "Z = R + j %omega L + {1} over {j %omega C}"),
    (
        "p",
        "Impedances combine exactly like resistances: in series they add, in parallel the reciprocals (admittances Y = 1/Z) add. Kirchhoff's laws, voltage and current dividers, Thevenin and superposition all carry over unchanged, only with complex numbers.",
    ),
    ("h", 1, "4. Worked example 8-1"),
    (
        "p",
        "A series circuit with R = 100 Ω, L = 10 mH and C = 1 µF is driven by a 10 V (RMS) source at f = 1 kHz. Find Z, the current and the phase.",
    ),
    (
        "table",
        [
            ["Quantity", "Computation", "Result"],
            ["ω", "2π × 1000", "6283 rad/s"],
            ["X_L", "ωL", "62.83 Ω"],
            ["X_C", "1/(ωC)", "159.15 Ω"],
            ["Z", "100 + j(62.83 − 159.15)", "100 − j96.32 Ω"],
            ["|Z|", "√(100² + 96.32²)", "138.8 Ω"],
            ["phase of Z", "arctan(−96.32/100)", "−43.9°"],
            ["|I|", "10 V / 138.8 Ω", "72.0 mA"],
        ],
    ),
    (
        "p",
        "The reactance is negative, so at 1 kHz the circuit behaves capacitively and the current leads the source voltage by 43.9°. Below the resonant frequency a series RLC circuit is always capacitive; above it, inductive. Lecture 10 (Prof. Usami, in Japanese) continues from here with resonance.",
    ),
    ("h", 1, "5. Phasor diagrams"),
    (
        "p",
        "Draw the current phasor of a series circuit along the real axis first, since it is common to all elements. Then add V_R in phase with it, V_L rotated by +90° and V_C rotated by −90°. The source voltage is the vector sum. In a parallel circuit start instead with the common voltage.",
    ),
    (
        "ul",
        [
            "Label every phasor with its magnitude and angle.",
            "Use the same scale for all voltages.",
            "State whether the circuit is inductive or capacitive.",
        ],
    ),
    ("h", 1, "6. Admittance and parallel circuits (Lecture 9)"),
    (
        "p",
        "For parallel branches it is easier to work with the admittance Y = 1/Z, measured in siemens. Its real part is the conductance G and its imaginary part the susceptance B. A capacitor has the admittance jωC, an inductor 1/(jωL).",
    ),
    ("math", "Y = G + jB = {1} over {Z}"),
    (
        "p",
        "Example 9-1: a 1 kΩ resistor in parallel with a 0.1 µF capacitor at f = 1 kHz. Then G = 1 mS and B = ωC = 0.628 mS, so Y = 1 + j0.628 mS, |Y| = 1.18 mS, and |Z| = 1/|Y| = 847 Ω with a phase of −32.1°.",
    ),
    ("h", 2, "AC voltage divider"),
    (
        "p",
        "The divider rule of Lecture 3 holds with impedances. For an RC low-pass filter (R in series, C to ground) the output is V_out = V_in / (1 + jωRC). At the corner frequency f_c = 1/(2πRC) the output magnitude is 1/√2 of the input, i.e. −3 dB, and the phase is −45°. With R = 10 kΩ and C = 100 nF, as in Lab 2, f_c ≈ 159 Hz.",
    ),
    ("h", 2, "Thevenin in AC"),
    (
        "p",
        "Thevenin's theorem carries over with Z_th instead of R_th. One difference from DC: maximum power is delivered to a load equal to the complex conjugate of Z_th, not to Z_th itself. We only state this result; it is not examined.",
    ),
    ("h", 1, "Measuring phase on the oscilloscope"),
    (
        "p",
        "Phasor angles can be measured directly. Show the source voltage on CH1 and the voltage across a series resistor (proportional to the current) on CH2. Measure the time shift Δt between two corresponding zero crossings; the phase difference is then φ = 360° × Δt / T, where T is the period. At 1 kHz a shift of 0.122 ms corresponds to 43.9°, the angle of worked example 8-1.",
    ),
    (
        "p",
        "Which trace is ahead? If the CH2 zero crossing comes earlier than the CH1 crossing, the current leads the voltage and the load is capacitive. Use the scope's built-in phase measurement only as a check: with noisy signals it can jump by 180°.",
    ),
    ("h", 1, "Common mistakes in phasor problems"),
    (
        "ol",
        [
            "Mixing peak and RMS values: if the source is given as 141.4 sin(ωt), its phasor magnitude is 100 V, not 141.4 V.",
            "Forgetting to convert f to ω: the reactance of a 10 mH inductor at 1 kHz is 62.8 Ω, not 10 Ω.",
            "Adding magnitudes instead of complex numbers: |Z_1 + Z_2| is in general smaller than |Z_1| + |Z_2|.",
            "Using degrees in one step and radians in the next; set your calculator once and check it.",
            "Writing the capacitor impedance as +j/(ωC): the sign is negative.",
        ],
    ),
    (
        "p",
        "Last year the first mistake alone cost the class an average of four marks in the AC problem of the final exam.",
    ),
    ("h", 1, "7. Homework 4"),
    (
        "p",
        "Homework 4 (phasors and impedance, five problems) is due on 3 December 2026 (Thu) before the lecture starts, on Moodle. Hand-written answers scanned to a single PDF are fine. Use three significant figures throughout.",
    ),
]

# ---------------------------------------------------------------------------------------------
# 02: Lectures 6-7, English (.fodp -> .odp)
# ---------------------------------------------------------------------------------------------

ODP_SLIDES = [
    {
        "title": "First-Order Transients: RC and RL Circuits",
        "body": [
            "EE-2104 Electric Circuits I · Lectures 6–7",
            "5 and 12 November 2026",
            "Dr. Ines Valcourt (visiting lecturer, Université de Lorvenne)",
        ],
        "notes": "Welcome. I teach Lectures 6 to 9 in English. My office hours: Tuesdays 15:00–16:30 in room E-309, or write to i.valcourt@kirigaoka-it.example. You may ask questions in Japanese; Lukas (TA) will help translate when needed.",
    },
    {
        "title": "Why transients?",
        "body": [
            "Until now: DC circuits, everything constant in time",
            "Capacitors and inductors store energy, so the circuit needs time to reach a new steady state",
            "Switching a source on or off starts a transient",
            "First-order circuit: one energy-storage element, described by one first-order differential equation",
        ],
        "notes": "Ask the class: what happens at the moment a camera flash fires? Link to everyday examples before the maths.",
    },
    {
        "title": "Capacitor and inductor: the two rules",
        "body": [
            "Capacitor: i = C dv/dt — the capacitor voltage cannot jump",
            "Inductor: v = L di/dt — the inductor current cannot jump",
            "In DC steady state: a capacitor acts as an open circuit, an inductor as a short circuit",
        ],
        "notes": "Exam tip: almost every transient problem starts by finding the value just before the switch moves (t = 0−) and using continuity to get t = 0+. Half of the marks in last year's exam were lost here.",
    },
    {
        "title": "RC circuit: charging",
        "body": [
            "Step from 0 to V_s at t = 0 through R into C (initially uncharged)",
            "Capacitor voltage rises exponentially towards V_s",
            "Time constant τ = RC (ohms × farads = seconds)",
        ],
        "formula": "v_C (t) = V_s left( 1 - e^{-t / %tau} right)",
        "notes": "In Lab 2 you will measure tau as the time the capacitor voltage needs to reach 63.2 percent of its final value. Read it with the oscilloscope cursors, not by eye.",
    },
    {
        "title": "How fast is “fast”?",
        "table": [
            ["t / τ", "v_C / V_s (charging)", "v_C / V_0 (discharging)"],
            ["1", "63.2 %", "36.8 %"],
            ["2", "86.5 %", "13.5 %"],
            ["3", "95.0 %", "5.0 %"],
            ["4", "98.2 %", "1.8 %"],
            ["5", "99.3 %", "0.7 %"],
        ],
        "notes": "Rule for this course: after 5 tau we treat the transient as finished. Use 5 tau in the quiz and in the exam unless a problem says otherwise.",
    },
    {
        "title": "RC circuit: discharging and a worked example",
        "body": [
            "Discharging from V_0: v_C(t) = V_0 e^(−t/τ)",
            "Example: R = 10 kΩ, C = 100 nF → τ = 1 ms",
            "Charging to V_s = 5 V: after 2 ms, v_C = 4.32 V",
            "The current i = (V_s / R) e^(−t/τ) starts at 0.5 mA and decays",
        ],
        "notes": "These are exactly the Lab 2 component values, so your measured tau should be close to 1 ms. The capacitors in the kit are film capacitors with 10 percent tolerance, so anything between 0.9 and 1.1 ms is fine.",
    },
    {
        "title": "RL circuit",
        "body": [
            "Time constant τ = L / R",
            "Current rises as i(t) = (V / R)(1 − e^(−t/τ))",
            "Example: L = 50 mH, R = 100 Ω → τ = 0.5 ms",
            "Opening the switch suddenly: L tries to keep the current flowing → large voltage spike",
        ],
        "notes": "Safety: never break an inductor circuit abruptly on the bench. In Lab 3 the TA will show you the 1N4007 flyback diode that gives the current a path.",
    },
    {
        "title": "Worked example: switching on an RL circuit",
        "body": [
            "V = 10 V, R = 100 Ω, L = 50 mH, switch closed at t = 0",
            "Final current V/R = 100 mA, τ = 0.5 ms",
            "After 1 ms (2τ): i = 86.5 mA",
            "Energy stored at the end: ½ L I² = 0.25 mJ",
        ],
        "notes": "Ask students to predict the current at t = 0+ before showing the answer. It is zero, because the inductor current cannot jump. Many answer 100 mA.",
    },
    {
        "title": "RC and RL side by side",
        "table": [
            ["", "RC", "RL"],
            ["Energy stored in", "electric field (½CV²)", "magnetic field (½LI²)"],
            ["Continuous quantity", "capacitor voltage", "inductor current"],
            ["Time constant", "τ = RC", "τ = L/R"],
            ["DC steady state", "open circuit", "short circuit"],
        ],
        "notes": "A larger resistor makes the RC circuit slower but the RL circuit faster. Students mix this up every year.",
    },
    {
        "title": "Capacitor initially charged: a switching problem",
        "body": [
            "C = 2 µF charged to 9 V, switch connects it to R = 3 kΩ at t = 0",
            "v_C(0+) = 9 V (continuity), τ = 6 ms",
            "After 12 ms: v_C = 9 e^(−2) ≈ 1.22 V",
            "Energy turned into heat in R: ½CV² = 81 µJ",
        ],
        "notes": "This is Homework 3, problem 2 with different numbers. Do not hand out the solution slides before the homework deadline.",
    },
    {
        "title": "Measuring τ with the oscilloscope",
        "body": [
            "Drive the circuit with a square wave from the function generator",
            "Half-period at least 5τ, so the capacitor settles each time",
            "Timebase about 0.5 ms/div for τ = 1 ms; trigger on the rising edge",
            "Use the cursors: 0 % and 100 % levels, then the 63.2 % point",
        ],
        "notes": "Set the probe to x10 and compensate it with the 1 kHz calibration output of the scope before you measure. An uncompensated probe makes the edge look rounded and your tau wrong.",
    },
    {
        "title": "Summary and homework",
        "body": [
            "τ = RC or L/R sets the speed of every first-order transient",
            "Find t = 0− values, then use continuity",
            "Homework 3: six transient problems on Moodle, due 17 November (Tue) 23:59",
            "Next: sinusoidal sources and phasors (Lecture 8)",
        ],
        "notes": "Next week we start AC. If you own a scientific calculator with complex-number mode, bring it; it saves a lot of time with phasors.",
    },
]


JA_SLIDES = [
    {
        "title": "第10〜12回 共振・Q値・交流電力",
        "body": ["電気回路Ⅰ（EE-2104）", "2026年12月3日・10日・17日", "宇佐見 恒一"],
        "notes": "第9回までの英語の回の内容（フェーザとインピーダンス）を前提にする。最初の5分で Z = R + jωL + 1/(jωC) を復習すること。",
    },
    {
        "title": "直列共振とは",
        "body": [
            "ωL = 1/(ωC) となる周波数で、リアクタンスが打ち消し合う",
            "インピーダンスは最小（= R）、電流は最大",
            "電源電圧と電流が同相になる",
            "共振周波数より低いと容量性、高いと誘導性",
        ],
        "formula": "f_0 = {1} over {2 %pi sqrt{L C}}",
        "notes": "黒板で L = 10 mH、C = 1 µF の例を計算する（約 1.59 kHz）。演習プリントの問題1と同じ値なので、答えはまだ言わない。",
    },
    {
        "title": "Q値（尖鋭度）",
        "body": [
            "Q = ω0 L / R = (1/R)√(L/C)",
            "帯域幅 B = f0 / Q（電流が最大値の 1/√2 になる2点の間隔）",
            "共振時、L と C の電圧はそれぞれ電源電圧の Q 倍",
            "Q が大きい＝共振曲線が鋭い＝選択性がよい",
        ],
        "notes": "Q は quality factor の頭文字。無効電力の記号 Q と紛らわしいので、この講義では無効電力を Q_r と書く、と必ず言うこと。",
    },
    {
        "title": "直列共振と並列共振の比較",
        "table": [
            ["", "直列共振", "並列共振"],
            ["共振時のインピーダンス", "最小（R）", "最大"],
            ["共振時の電流（電源から）", "最大", "最小"],
            ["Q 値", "(1/R)√(L/C)", "R√(C/L)"],
            ["主な用途", "選局回路、フィルタ", "発振回路、トラップ回路"],
        ],
        "notes": "並列共振は第10回の後半で扱うが、期末試験では直列共振だけを出題する。並列共振は考え方だけ理解しておけばよい。",
    },
    {
        "title": "交流の電力：3種類",
        "body": [
            "有効電力 P = VI cosθ [W]：実際に消費される",
            "無効電力 Q_r = VI sinθ [var]：L と C の間を行き来する",
            "皮相電力 S = VI [VA]：電源の容量を決める",
            "S² = P² + Q_r²（電力三角形）",
        ],
        "notes": "電力会社との契約や変圧器の定格が VA（皮相電力）で書かれている理由を説明する。学生に自宅のブレーカーの表示を見てくるよう宿題にする（提出不要）。",
    },
    {
        "title": "力率と力率改善",
        "body": [
            "力率 cosθ = P / S",
            "誘導性負荷（モータなど）は遅れ力率",
            "並列にコンデンサを入れて無効電力を打ち消す",
            "有効電力は変わらず、電源電流が減る → 配線の損失が減る",
        ],
        "notes": "計算例は演習プリントの力率改善の節（95.5 µF）を使う。時間が足りなければ第12回の最後に回す。",
    },
    {
        "title": "期末試験について",
        "body": [
            "範囲：第1回〜第12回（三相交流は出題しない）",
            "英語の回（第6〜9回）の問題も日本語で出題する",
            "大問5題、試験時間 90 分",
        ],
        "notes": "英語で受けたい留学生には英語の問題冊子も用意する。希望者は1月14日までに宇佐見へメールで申し出ること。",
    },
]


def odp_doc(slides: list[dict], title: str, author: str) -> str:
    pages = []
    for n, slide in enumerate(slides, 1):
        shapes = [
            '<draw:frame presentation:style-name="pr1" draw:layer="layout" svg:width="25.2cm" svg:height="2.6cm" svg:x="1.4cm" svg:y="0.8cm" presentation:class="title">'
            f"<draw:text-box><text:p>{escape(slide['title'])}</text:p></draw:text-box></draw:frame>"
        ]
        if "body" in slide:
            items = "".join(
                f"<text:list-item><text:p>{escape(b)}</text:p></text:list-item>"
                for b in slide["body"]
            )
            height = "8cm" if "formula" in slide else "11cm"
            shapes.append(
                f'<draw:frame presentation:style-name="pr2" draw:layer="layout" svg:width="25.2cm" svg:height="{height}" svg:x="1.4cm" svg:y="3.8cm" presentation:class="outline">'
                f"<draw:text-box><text:list>{items}</text:list></draw:text-box></draw:frame>"
            )
        if "formula" in slide:
            shapes.append(
                '<draw:frame draw:layer="layout" svg:width="12cm" svg:height="2cm" svg:x="8cm" svg:y="12.2cm">'
                '<draw:object><math:math display="block"><math:semantics>'
                f"<math:mrow><math:mtext>{escape(slide['formula'])}</math:mtext></math:mrow>"
                f'<math:annotation encoding="StarMath 5.0">{escape(slide["formula"])}</math:annotation>'
                "</math:semantics></math:math></draw:object></draw:frame>"
            )
        if "table" in slide:
            rows = slide["table"]
            xml = [
                '<draw:frame draw:layer="layout" svg:width="22cm" svg:height="9cm" svg:x="2.8cm" svg:y="4.2cm"><table:table table:use-first-row-styles="true">'
            ]
            xml.append(f'<table:table-column table:number-columns-repeated="{len(rows[0])}"/>')
            for r in rows:
                xml.append(
                    "<table:table-row>"
                    + "".join(
                        f"<table:table-cell><text:p>{escape(c)}</text:p></table:table-cell>"
                        for c in r
                    )
                    + "</table:table-row>"
                )
            xml.append("</table:table></draw:frame>")
            shapes.append("".join(xml))
        notes = (
            '<presentation:notes draw:style-name="dp1"><draw:page-thumbnail draw:layer="layout" svg:width="14cm" svg:height="7.9cm" svg:x="3.5cm" svg:y="2.2cm" '
            f'draw:page-number="{n}" presentation:class="page"/>'
            '<draw:frame presentation:style-name="pr3" draw:layer="layout" svg:width="16.8cm" svg:height="12.6cm" svg:x="2.1cm" svg:y="11.3cm" presentation:class="notes">'
            f"<draw:text-box><text:p>{escape(slide['notes'])}</text:p></draw:text-box></draw:frame></presentation:notes>"
        )
        pages.append(
            f'<draw:page draw:name="Slide{n}" draw:style-name="dp1" draw:master-page-name="Default" '
            f'presentation:presentation-page-layout-name="AL1T1">{"".join(shapes)}{notes}</draw:page>'
        )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS} office:version="1.3" '
        'office:mimetype="application/vnd.oasis.opendocument.presentation">\n'
        f"<office:meta><dc:title>{escape(title)}</dc:title><meta:initial-creator>{escape(author)}</meta:initial-creator></office:meta>\n"
        "<office:styles>"
        '<style:style style:name="standard" style:family="graphic"><style:text-properties style:font-name="Liberation Sans" style:font-name-asian="Noto Sans CJK JP" fo:font-size="18pt"/></style:style>'
        "</office:styles>"
        "<office:automatic-styles>"
        '<style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="28cm" fo:page-height="15.75cm" style:print-orientation="landscape"/></style:page-layout>'
        '<style:style style:name="dp1" style:family="drawing-page"/>'
        '<style:style style:name="pr1" style:family="presentation"><style:text-properties fo:font-size="30pt" fo:font-weight="bold"/></style:style>'
        '<style:style style:name="pr2" style:family="presentation"><style:text-properties fo:font-size="20pt"/></style:style>'
        '<style:style style:name="pr3" style:family="presentation"><style:text-properties fo:font-size="12pt"/></style:style>'
        "</office:automatic-styles>"
        '<office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1" draw:style-name="dp1"/></office:master-styles>\n'
        f"<office:body><office:presentation>\n{chr(10).join(pages)}\n</office:presentation></office:body></office:document>\n"
    )


# ---------------------------------------------------------------------------------------------
# 05: lab sheets, Japanese (.fods -> .ods)
# ---------------------------------------------------------------------------------------------

LAB1 = [  # group, R1 kΩ, R2 kΩ, Vin V, Vout measured V, Vout loaded measured V
    ("A01", 4.7, 10.0, 10.0, 6.77, 5.14),
    ("A02", 4.7, 10.0, 10.0, 6.84, 5.19),
    ("A03", 10.0, 10.0, 10.0, 4.97, 3.31),
    ("A04", 10.0, 10.0, 10.0, 5.02, 3.36),
    ("A05", 2.2, 4.7, 5.0, 3.43, 2.59),
    ("A06", 2.2, 4.7, 5.0, 3.38, 2.55),
    ("A07", 1.0, 3.3, 12.0, 9.12, 7.44),
    ("A08", 1.0, 3.3, 12.0, 9.26, 7.52),
]
LAB2 = [  # group, R kΩ, C nF, tau measured ms
    ("A01", 10.0, 100.0, 1.04),
    ("A02", 10.0, 100.0, 0.97),
    ("A03", 10.0, 100.0, 1.08),
    ("A04", 10.0, 100.0, 1.02),
    ("A05", 4.7, 220.0, 1.01),
    ("A06", 4.7, 220.0, 1.09),
    ("A07", 22.0, 47.0, 0.99),
    ("A08", 22.0, 47.0, 1.06),
]
LAB3 = [  # f kHz, V_R amplitude V (R = 47 Ω, L = 10 mH, C = 100 nF, 2.0 V source), group A03
    (2.0, 0.27),
    (3.0, 0.46),
    (4.0, 0.86),
    (4.5, 1.27),
    (4.8, 1.62),
    (5.0, 1.71),
    (5.2, 1.60),
    (5.5, 1.31),
    (6.0, 0.93),
    (7.0, 0.56),
    (8.0, 0.41),
]
EQUIPMENT = [
    (
        "デジタルマルチメータ",
        "Kadoya KD-305",
        "24",
        "2026年3月",
        "電圧・抵抗測定。電流測定時は 10 A 端子を使わないこと",
    ),
    ("オシロスコープ", "Orbis DS-1104（4ch, 100 MHz）", "12", "2026年4月", "2班で1台を共用"),
    ("ファンクションジェネレータ", "Orbis FG-220", "12", "2026年4月", "出力インピーダンス 50 Ω"),
    (
        "直流安定化電源",
        "Seiryo PW-18（0〜18 V, 2 A）",
        "24",
        "2026年3月",
        "実験中は 15 V 以下で使用",
    ),
    ("ブレッドボード", "830穴", "30", "—", "予備 6 枚は TA が保管"),
]


def _cell(value, *, kind="string", formula=None, span=None, style=None, fmt=None) -> str:
    attrs = []
    if style:
        attrs.append(f'table:style-name="{style}"')
    if span:
        attrs.append(f'table:number-columns-spanned="{span}" table:number-rows-spanned="1"')
    if formula:
        attrs.append(f'table:formula="{escape(formula)}"')
    if fmt:  # a number format: 2 decimals or a whole percentage
        attrs.append(f'table:style-name="{fmt}"')
    if kind == "float" and fmt == "cePct":
        attrs.append(f'office:value-type="percentage" office:value="{value!r}"')
        text = f"{value * 100:.0f}%"
    elif kind == "float":
        attrs.append(f'office:value-type="float" office:value="{value!r}"')
        text = f"{value:.2f}" if fmt == "ce2" else f"{value:g}"
    else:
        attrs.append('office:value-type="string"')
        text = str(value)
    cell = f"<table:table-cell {' '.join(attrs)}><text:p>{escape(text)}</text:p></table:table-cell>"
    if span:
        cell += "<table:covered-table-cell/>" * (span - 1)
    return cell


def _sheet(name: str, rows: list[str], cols: int) -> str:
    return (
        f'<table:table table:name="{escape(name)}"><table:table-column table:number-columns-repeated="{cols}" table:style-name="co1"/>'
        + "".join(f"<table:table-row>{r}</table:table-row>" for r in rows)
        + "</table:table>"
    )


def ods_doc() -> str:
    sheets = []
    # sheet 1
    rows = [
        _cell(
            "実験1 分圧回路と負荷効果 測定結果（2026年10月20日(火) 3・4限, E-115）",
            span=8,
            style="title",
        ),
        "".join(
            _cell(h, style="head")
            for h in [
                "班",
                "R1 公称 (kΩ)",
                "R2 公称 (kΩ)",
                "V_in (V)",
                "V_out 測定 (V)",
                "V_out 理論 (V)",
                "誤差 (%)",
                "負荷接続時 V_out (V)",
            ]
        ),
    ]
    for i, (g, r1, r2, vin, vout, vload) in enumerate(LAB1, start=3):
        theory = round(vin * r2 / (r1 + r2), 4)
        err = round((vout - theory) / theory * 100, 4)
        rows.append(
            _cell(g)
            + _cell(r1, kind="float")
            + _cell(r2, kind="float")
            + _cell(vin, kind="float")
            + _cell(vout, kind="float", fmt="ce2")
            + _cell(
                theory, kind="float", formula=f"of:=[.D{i}]*[.C{i}]/([.B{i}]+[.C{i}])", fmt="ce2"
            )
            + _cell(err, kind="float", formula=f"of:=([.E{i}]-[.F{i}])/[.F{i}]*100", fmt="ce2")
            + _cell(vload, kind="float", fmt="ce2")
        )
    rows.append(
        _cell(
            "注：負荷は R2 と同じ公称値の抵抗を出力端子に並列接続した。V_out 理論は無負荷時の分圧の式による。",
            span=8,
        )
    )
    sheets.append(_sheet("実験1_分圧", rows, 8))
    # sheet 2
    rows = [
        _cell("実験2 RC回路の過渡応答（2026年11月24日(火) 3・4限, E-115）", span=6, style="title"),
        "".join(
            _cell(h, style="head")
            for h in ["班", "R (kΩ)", "C (nF)", "τ 理論 (ms)", "τ 測定 (ms)", "差 (%)"]
        ),
    ]
    for i, (g, r, c, tau) in enumerate(LAB2, start=3):
        theory = round(r * c / 1000, 4)
        diff = round((tau - theory) / theory * 100, 4)
        rows.append(
            _cell(g)
            + _cell(r, kind="float")
            + _cell(c, kind="float")
            + _cell(theory, kind="float", formula=f"of:=[.B{i}]*[.C{i}]/1000", fmt="ce2")
            + _cell(tau, kind="float", fmt="ce2")
            + _cell(diff, kind="float", formula=f"of:=([.E{i}]-[.D{i}])/[.D{i}]*100", fmt="ce2")
        )
    last = 2 + len(LAB2)
    mean = round(sum(t for *_, t in LAB2) / len(LAB2), 4)
    rows.append(
        _cell("平均")
        + _cell("")
        + _cell("")
        + _cell("")
        + _cell(mean, kind="float", formula=f"of:=AVERAGE([.E3:.E{last}])", fmt="ce2")
        + _cell("")
    )
    rows.append(
        _cell(
            "τ 測定は、方形波（周期 10 ms）入力に対する C の電圧が最終値の 63.2 % に達する時間をカーソルで読んだ値。",
            span=6,
        )
    )
    sheets.append(_sheet("実験2_RC", rows, 6))
    # sheet 3
    rows = [
        _cell("実験3 直列RLC共振 周波数特性（A03班, 2026年12月15日）", span=4, style="title"),
        _cell("R = 47 Ω, L = 10 mH, C = 100 nF, 電源振幅 2.0 V", span=4),
        "".join(
            _cell(h, style="head")
            for h in ["f (kHz)", "V_R 振幅 (V)", "電流振幅 (mA)", "V_R / 最大値"]
        ),
    ]
    vmax = max(v for _, v in LAB3)
    for i, (f, v) in enumerate(LAB3, start=4):
        cur = round(v / 47 * 1000, 4)
        ratio = round(v / vmax, 4)
        rows.append(
            _cell(f, kind="float")
            + _cell(v, kind="float", fmt="ce2")
            + _cell(cur, kind="float", formula=f"of:=[.B{i}]/47*1000", fmt="ce2")
            + _cell(
                ratio,
                kind="float",
                formula=f"of:=[.B{i}]/MAX([.B$4:.B${3 + len(LAB3)}])",
                fmt="cePct",
            )
        )
    rows.append(
        _cell(
            "測定された共振周波数は 5.0 kHz 付近（理論値 5.03 kHz）。半値幅（0.707 倍）の読み取りは各自レポートで行うこと。",
            span=4,
        )
    )
    sheets.append(_sheet("実験3_共振", rows, 4))
    # sheet 4
    rows = [
        _cell("実験室 E-115 測定器一覧（貸出は TA 仲代に申し出ること）", span=5, style="title"),
        "".join(_cell(h, style="head") for h in ["機器", "型番", "台数", "最終校正", "備考"]),
    ]
    for e in EQUIPMENT:
        rows.append("".join(_cell(x) for x in e))
    sheets.append(_sheet("測定器一覧", rows, 5))
    # sheet 5: report rubric
    rubric = [
        ("目的・原理", "2", "原理の式に出典（講義ノートの回）を書いているか"),
        ("方法", "1", "回路図と使用機器（型番）を書いているか"),
        ("結果", "3", "測定値と理論値の比較表と誤差 (%) があるか。グラフの軸に名前と単位があるか"),
        ("考察", "3", "誤差の原因を、素子の許容差・測定器の内部抵抗など具体的に論じているか"),
        ("体裁", "1", "ファイル名・ページ番号・参考文献"),
    ]
    rows = [
        _cell("実験レポート 採点基準（各レポート10点満点）", span=3, style="title"),
        "".join(_cell(h, style="head") for h in ["項目", "配点", "チェックする点"]),
    ]
    for r in rubric:
        rows.append("".join(_cell(x) for x in r))
    rows.append(
        _cell("考察が班の相手と同一の場合は、両者とも0点（実験の手引き 4. 参照）。", span=3)
    )
    sheets.append(_sheet("採点基準", rows, 3))
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {NS} office:version="1.3" '
        'office:mimetype="application/vnd.oasis.opendocument.spreadsheet">\n'
        "<office:meta><dc:title>電気回路Ⅰ 実験データ 2026</dc:title><meta:initial-creator>仲代 遼</meta:initial-creator></office:meta>\n"
        "<office:automatic-styles>"
        '<number:number-style style:name="N2"><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1"/></number:number-style>'
        '<number:percentage-style style:name="N10"><number:number number:decimal-places="0" number:min-decimal-places="0" number:min-integer-digits="1"/><number:text>%</number:text></number:percentage-style>'
        '<style:style style:name="ce2" style:family="table-cell" style:data-style-name="N2"/>'
        '<style:style style:name="cePct" style:family="table-cell" style:data-style-name="N10"/>'
        '<style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="3.2cm"/></style:style>'
        '<style:style style:name="title" style:family="table-cell"><style:text-properties fo:font-size="13pt" fo:font-weight="bold" style:font-weight-asian="bold"/></style:style>'
        '<style:style style:name="head" style:family="table-cell"><style:table-cell-properties fo:background-color="#dddddd" fo:border="0.5pt solid #000000"/><style:text-properties fo:font-weight="bold" style:font-weight-asian="bold"/></style:style>'
        "</office:automatic-styles>\n"
        f"<office:body><office:spreadsheet>\n{chr(10).join(sheets)}\n</office:spreadsheet></office:body></office:document>\n"
    )


# ---------------------------------------------------------------------------------------------


def convert(flat: Path, fmt: str, out_dir: Path) -> Path:
    profile = Path(tempfile.mkdtemp(prefix="lo_profile_"))
    try:
        subprocess.run(
            ["soffice", f"-env:UserInstallation=file://{profile}", "--headless",
             "--convert-to", fmt, "--outdir", str(out_dir), str(flat)],
            check=True, capture_output=True,
        )  # fmt: skip
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return out_dir / f"{flat.stem}.{fmt.split(':')[0]}"


def main() -> None:
    assert math.isclose(10 * 2 / 5, 4.0)
    MATERIALS.mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="circ_flat_"))
    jobs = [
        (
            "01_dc_circuits_ja.fodt",
            writer_doc("電気回路Ⅰ 講義ノート 第1回〜第4回", DC_BLOCKS, "ja", "JP", "宇佐見 恒一"),
            "odt",
        ),
        (
            "02_transients_en.fodp",
            odp_doc(ODP_SLIDES, "First-Order Transients", "Ines Valcourt"),
            "odp",
        ),
        (
            "09_resonance_power_slides_ja.fodp",
            odp_doc(JA_SLIDES, "第10〜12回 共振と交流電力", "宇佐見 恒一"),
            "odp",
        ),
        (
            "03_ac_phasors_en.fodt",
            writer_doc("Phasors and Impedance", AC_BLOCKS, "en", "GB", "Ines Valcourt"),
            "pdf:writer_pdf_Export",
        ),
        ("05_lab_measurements_ja.fods", ods_doc(), "ods"),
    ]
    for name, xml, fmt in jobs:
        flat = work / name
        flat.write_text(xml, encoding="utf-8")
        out = convert(flat, fmt, work)
        shutil.copy(out, MATERIALS / out.name)
        print("wrote", out.name, out.stat().st_size)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
