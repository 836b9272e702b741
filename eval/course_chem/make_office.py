"""Build the Office materials of course_chem from Python data.

Sub- and superscripts are written the way each tool stores them; in the data below they are
marked `_{...}` (subscript) and `^{...}` (superscript).

- 01_thermochem_hess_ja.docx: Lectures 1-3, python-docx runs with font.subscript /
  font.superscript, one Word equation (OMML), a table of standard data.
- 02_entropy_gibbs_en.pptx: Lectures 4-5 (Dr. Wielgosz), runs with `baseline="-25000"` /
  `"30000"` on a:rPr, a table, speaker notes.
- 03_equilibrium_handout_ja.docx -> .pdf: Lectures 6-7 handout, converted by LibreOffice
  (`soffice --headless --convert-to pdf`); the .docx itself is not a material.
- 07_lab_workbook_ja.xlsx: lab sheets; formulas with cached values patched in (as Excel
  saves them), number formats, merged titles, rich-text sub/superscripts in header cells.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import parse_xml
from docx.shared import Pt
from openpyxl import Workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.styles import Alignment, Font
from pptx import Presentation
from pptx.util import Inches
from pptx.util import Pt as PPt

HERE = Path(__file__).resolve().parent
MATERIALS = HERE / "materials"
TOKEN = re.compile(r"(_\{[^}]*\}|\^\{[^}]*\})")


def pieces(text: str):
    """(text, kind) with kind None, 'sub' or 'sup'."""
    for part in TOKEN.split(text):
        if not part:
            continue
        if part.startswith("_{"):
            yield part[2:-1], "sub"
        elif part.startswith("^{"):
            yield part[2:-1], "sup"
        else:
            yield part, None


# ---------------------------------------------------------------------------------------------
# Word: Lectures 1-3 (Japanese)
# ---------------------------------------------------------------------------------------------


def docx_rich(paragraph, text: str, bold: bool = False) -> None:
    for chunk, kind in pieces(text):
        run = paragraph.add_run(chunk)
        run.bold = bold or None
        if kind == "sub":
            run.font.subscript = True
        elif kind == "sup":
            run.font.superscript = True


M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"'


def m_run(text: str) -> str:
    return f'<m:r><m:t xml:space="preserve">{text}</m:t></m:r>'


def m_sub(base: str, sub: str) -> str:
    return f"<m:sSub><m:e>{m_run(base)}</m:e><m:sub>{m_run(sub)}</m:sub></m:sSub>"


def m_subsup(base: str, sub: str, sup: str) -> str:
    return (
        f"<m:sSubSup><m:e>{m_run(base)}</m:e><m:sub>{m_run(sub)}</m:sub>"
        f"<m:sup>{m_run(sup)}</m:sup></m:sSubSup>"
    )


def hess_equation_xml() -> str:
    """Δ_rH° = Σ ν Δ_fH°(生成物) − Σ ν Δ_fH°(反応物), as Word's equation editor stores it."""
    nary = (
        '<m:nary><m:naryPr><m:chr m:val="∑"/><m:limLoc m:val="undOvr"/>'
        '<m:subHide m:val="1"/><m:supHide m:val="1"/></m:naryPr><m:sub/><m:sup/>'
        "<m:e>{body}</m:e></m:nary>"
    )
    prod = m_run("ν") + m_subsup("Δ", "f", "°") + m_run("H(生成物)")
    reac = m_run("ν") + m_subsup("Δ", "f", "°") + m_run("H(反応物)")
    body = (
        m_subsup("Δ", "r", "°")
        + m_run("H = ")
        + nary.format(body=prod)
        + m_run(" − ")
        + nary.format(body=reac)
    )
    return f"<m:oMathPara {M}><m:oMath>{body}</m:oMath></m:oMathPara>"


def q_equation_xml() -> str:
    """q = m c ΔT, inline equation paragraph."""
    body = m_run("q = m") + m_run("c") + m_run("Δ") + m_run("T")
    return f"<m:oMathPara {M}><m:oMath>{body}</m:oMath></m:oMathPara>"


def add_equation(doc, xml: str) -> None:
    p = doc.add_paragraph()
    p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    p._p.append(parse_xml(xml))


def add_table(doc, rows: list[list[str]], style: str = "Table Grid") -> None:
    table = doc.add_table(rows=len(rows), cols=len(rows[0]))
    table.style = style
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            cell = table.cell(r, c)
            cell.text = ""
            docx_rich(cell.paragraphs[0], value, bold=(r == 0))


THERMO_DOC = [
    ("title", "基礎化学Ⅱ 講義ノート 第1〜3回：熱化学とヘスの法則"),
    ("p", "CHEM-1120 ／ 担当：篠原 絢子 ／ 2026年10月2日・9日・16日 ／ 理学棟 C-204"),
    ("h1", "1. 系・外界とエネルギー"),
    (
        "p",
        "化学でいう「系」は注目している物質の集まり、「外界」はそれ以外のすべてです。系と外界の間では熱 q と仕事 w がやりとりされ、内部エネルギーの変化は ΔU = q + w と書けます（この講義では、系が受け取る向きを正とします）。",
    ),
    (
        "p",
        "多くの反応はビーカーの中、つまり大気圧のもとで起こります。圧力一定で出入りする熱を扱いやすくするために定義した状態量がエンタルピー H = U + pV で、圧力一定・膨張仕事のみなら ΔH = q_{p} が成り立ちます。ΔH < 0 なら発熱反応、ΔH > 0 なら吸熱反応です。",
    ),
    (
        "note",
        "ポイント：エンタルピーは状態量なので、ΔH は始めと終わりの状態だけで決まり、途中の経路によりません。これが第2回のヘスの法則の根拠です。",
    ),
    ("h1", "2. 熱量測定（カロリメトリー）"),
    (
        "p",
        "溶液中の反応熱はコーヒーカップ熱量計で、燃焼熱はボンベ熱量計で測ります。水溶液の温度変化から熱量を求める式は次のとおりです（m は質量、c は比熱容量）。",
    ),
    ("eq_q", ""),
    (
        "p",
        "水の比熱容量は 4.18 J g^{−1} K^{−1} として計算します。例：水 100 g の温度が 2.50 K 上がったとき、q = 100 × 4.18 × 2.50 = 1045 J ≒ 1.05 kJ です。",
    ),
    (
        "p",
        "ボンベ熱量計は体積一定なので、測れるのは ΔU です。装置全体の熱容量（この講義の演習では 10.2 kJ K^{−1}）に温度上昇をかけて熱量を出し、気体の物質量の変化が小さい反応では ΔH ≈ ΔU とみなします。",
    ),
    (
        "p",
        "演習例（第2回）：安息香酸 0.500 g をボンベ熱量計で燃焼させたところ、温度が 22.15 °C から 23.44 °C に上がった（ΔT = 1.29 K）。q = 10.2 kJ K^{−1} × 1.29 K = 13.2 kJ。安息香酸のモル質量 122.1 g mol^{−1} より物質量は 4.10 × 10^{−3} mol なので、1 mol あたりの燃焼の ΔU は −3.21 × 10^{3} kJ mol^{−1} となる（発熱なので負）。",
    ),
    (
        "note",
        "第2回の板書で「ΔT = 1.92 K」と書いたのは 1.29 K の誤りです。MizuLearn の訂正版を見てください。",
    ),
    ("h1", "3. 標準生成エンタルピー"),
    (
        "p",
        "標準状態（1 bar、通常は 298.15 K）で、単体から化合物 1 mol ができるときのエンタルピー変化を標準生成エンタルピー Δ_{f}H° といいます。最も安定な単体（O_{2}(g)、H_{2}(g)、C(黒鉛) など）の Δ_{f}H° は定義により 0 です。",
    ),
    ("table_hf", ""),
    ("p", "表の値を使うと、反応エンタルピーは次の式で求められます（ν は化学反応式の係数）。"),
    ("eq_hess", ""),
    (
        "p",
        "例：メタンの燃焼 CH_{4}(g) + 2O_{2}(g) → CO_{2}(g) + 2H_{2}O(l) では、Δ_{r}H° = (−393.5) + 2 × (−285.8) − (−74.8) = −890.3 kJ mol^{−1} となります。",
    ),
    (
        "note",
        "よくある間違い：H_{2}O(l) と H_{2}O(g) の取り違え。差の 44.0 kJ mol^{−1} は水の蒸発エンタルピーにあたります。燃焼熱の問題では、特に断りがなければ液体の水を使ってください。",
    ),
    ("h1", "4. ヘスの法則"),
    (
        "p",
        "ヘスの法則：反応をいくつかの段階に分けても、各段階の反応エンタルピーの和は全体の反応エンタルピーに等しい。直接測りにくい反応の ΔH を、測れる反応の組み合わせから求めるのに使います。",
    ),
    (
        "p",
        "例：C(黒鉛) + ½O_{2}(g) → CO(g) は CO_{2} が混じるので直接は測れません。次の2式を使います。",
    ),
    ("p", "　(1) C(黒鉛) + O_{2}(g) → CO_{2}(g)　ΔH_{1} = −393.5 kJ mol^{−1}"),
    ("p", "　(2) CO(g) + ½O_{2}(g) → CO_{2}(g)　ΔH_{2} = −283.0 kJ mol^{−1}"),
    (
        "p",
        "(1) − (2) より、ΔH = ΔH_{1} − ΔH_{2} = −110.5 kJ mol^{−1} です。式を逆向きにしたら ΔH の符号を変え、係数を n 倍したら ΔH も n 倍することを忘れないでください。",
    ),
    ("h1", "5. 結合エンタルピーによる見積もり"),
    (
        "p",
        "気相反応では、切れる結合の結合エンタルピーの和から、できる結合の和を引いて ΔH を見積もれます。平均値なので誤差は数％〜10％程度あり、表の Δ_{f}H° が使えるときはそちらを優先します。",
    ),
    ("table_bond", ""),
    ("h1", "6. 第1〜3回の課題"),
    (
        "p",
        "課題1（第3回終了時に配布）：NH_{3}(g) の生成反応 ½N_{2}(g) + 3/2 H_{2}(g) → NH_{3}(g) の ΔH を、結合エンタルピーから見積もり、表の Δ_{f}H° と比べなさい。提出は MizuLearn、締切は10月22日（木）17:00。",
    ),
    (
        "note",
        "単位の書き方：kJ mol^{−1} のように負の指数で書くか、kJ/mol と書いてください。「kJ」だけの答えは単位不備で1点減点です。濃度 1.0 × 10^{−3} mol L^{−1} のような小さい数は指数表記で。",
    ),
]

HF_TABLE = [
    ["物質", "状態", "Δ_{f}H° (kJ mol^{−1})"],
    ["H_{2}O", "l", "−285.8"],
    ["H_{2}O", "g", "−241.8"],
    ["CO_{2}", "g", "−393.5"],
    ["CO", "g", "−110.5"],
    ["CH_{4}", "g", "−74.8"],
    ["NH_{3}", "g", "−46.1"],
    ["C_{2}H_{5}OH", "l", "−277.7"],
    ["NH_{4}^{+}", "aq", "−132.5"],
    ["SO_{4}^{2−}", "aq", "−909.3"],
]

BOND_TABLE = [
    ["結合", "平均結合エンタルピー (kJ mol^{−1})"],
    ["H–H", "436"],
    ["N≡N", "945"],
    ["N–H", "391"],
    ["O=O", "498"],
    ["C–H", "413"],
]


def build_docx_lecture(path: Path) -> None:
    doc = Document()
    style = doc.styles["Normal"]
    style.font.name = "Yu Mincho"
    style.font.size = Pt(10.5)
    for kind, text in THERMO_DOC:
        if kind == "title":
            doc.add_heading(text, level=0)
        elif kind == "h1":
            doc.add_heading(text, level=1)
        elif kind == "p":
            docx_rich(doc.add_paragraph(), text)
        elif kind == "note":
            p = doc.add_paragraph(style="Intense Quote")
            docx_rich(p, text)
        elif kind == "eq_q":
            add_equation(doc, q_equation_xml())
        elif kind == "eq_hess":
            add_equation(doc, hess_equation_xml())
        elif kind == "table_hf":
            p = doc.add_paragraph()
            docx_rich(p, "表1　25 °C における標準生成エンタルピー（講義用の値）", bold=True)
            add_table(doc, HF_TABLE)
        elif kind == "table_bond":
            add_table(doc, BOND_TABLE)
    doc.core_properties.title = "基礎化学Ⅱ 第1〜3回 熱化学"
    doc.core_properties.author = "篠原 絢子"
    doc.save(path)


# ---------------------------------------------------------------------------------------------
# Word -> PDF: Lectures 6-7 handout (Japanese)
# ---------------------------------------------------------------------------------------------

EQUIL_DOC = [
    ("title", "第6・7回 配布資料　化学平衡と平衡定数"),
    ("p", "基礎化学Ⅱ（CHEM-1120）　2026年11月6日・13日　篠原"),
    ("h1", "1. 平衡定数と反応商"),
    (
        "p",
        "可逆反応 aA + bB ⇌ cC + dD が平衡にあるとき、濃度平衡定数は K_{c} = [C]^{c}[D]^{d} / ([A]^{a}[B]^{b}) です。純粋な固体や液体（溶媒の水など）は式に入れません。気体反応では分圧で書いた K_{p} も使い、K_{p} = K_{c}(RT)^{Δn} の関係があります（Δn は気体の係数の増加分）。",
    ),
    (
        "p",
        "平衡に達していない混合物について同じ形で計算した値を反応商 Q と呼びます。Q < K なら正反応が進み、Q > K なら逆反応が進み、Q = K なら平衡です。",
    ),
    (
        "p",
        "例：N_{2}O_{4}(g) ⇌ 2NO_{2}(g) の 25 °C での K_{c} は 4.6 × 10^{−3} です。[N_{2}O_{4}] = 0.050 mol L^{−1}、[NO_{2}] = 0.020 mol L^{−1} の混合物では Q = (0.020)^{2}/0.050 = 8.0 × 10^{−3} > K_{c} なので、NO_{2} が減る向き（逆反応）に進みます。",
    ),
    ("h1", "2. 標準ギブズエネルギーと平衡定数"),
    (
        "p",
        "第5回（Wielgosz 先生）の ΔG = ΔH − TΔS を受けて、平衡定数との関係を扱います。標準反応ギブズエネルギーと平衡定数は ΔG° = −RT ln K で結ばれます。R = 8.314 J K^{−1} mol^{−1} です。ΔG° < 0 なら K > 1（生成物側に偏る）、ΔG° > 0 なら K < 1 です。",
    ),
    (
        "p",
        "例：アンモニア合成 N_{2}(g) + 3H_{2}(g) ⇌ 2NH_{3}(g) では 298 K で ΔG° = −33.0 kJ mol^{−1}。ln K = 33000 / (8.314 × 298) = 13.32 より、K = 6.1 × 10^{5} となります。",
    ),
    (
        "p",
        "計算の注意：ΔG° を kJ のまま R（J 単位）で割ると 1000 倍ずれます。ln と log_{10} の取り違えにも注意してください（ln K = 2.303 log_{10} K）。",
    ),
    ("h1", "2.5 平衡組成の計算（ICE 表）"),
    (
        "p",
        "例：H_{2}(g) + I_{2}(g) ⇌ 2HI(g)、700 K で K_{c} = 54。H_{2} と I_{2} を 0.100 mol ずつ 1.00 L の容器に入れたときの平衡組成を求めます。",
    ),
    ("table_ice", ""),
    (
        "p",
        "(2x)^{2} / (0.100 − x)^{2} = 54 の両辺の平方根をとると 2x / (0.100 − x) = 7.35、x = 0.0786 mol L^{−1}。平衡では [HI] = 0.157 mol L^{−1}、[H_{2}] = [I_{2}] = 0.021 mol L^{−1} です。二次方程式を解かずに済むのは両辺が完全平方になるこの形のときだけなので、一般には解の公式を使ってください。",
    ),
    (
        "p",
        "不均一平衡の例：CaCO_{3}(s) ⇌ CaO(s) + CO_{2}(g) では固体が式に入らないので K_{p} = p_{CO2} です。温度が決まれば CO_{2} の分圧が決まり、固体の量にはよりません。",
    ),
    ("h1", "3. ルシャトリエの原理"),
    (
        "p",
        "平衡にある系に変化を加えると、その変化をやわらげる向きに平衡が移動します。下の表は 2SO_{2}(g) + O_{2}(g) ⇌ 2SO_{3}(g)（Δ_{r}H° = −197.8 kJ mol^{−1}、発熱）の場合です。",
    ),
    ("table_lc", ""),
    (
        "p",
        "温度を変えたときだけは K そのものが変わります。ほかの変化（濃度・圧力）では K は一定のまま、Q が K からずれるために平衡の位置が移動します。触媒は正反応と逆反応を同じ割合で速めるので、平衡に達するまでの時間は短くなりますが、平衡の位置は変わりません。",
    ),
    ("h1", "4. 温度と平衡定数（ファントホッフの式）"),
    (
        "p",
        "ΔG° = −RT ln K と ΔG° = ΔH° − TΔS° を組み合わせると ln K = −ΔH°/(RT) + ΔS°/R となり、ln K を 1/T に対してプロットすると傾きが −ΔH°/R の直線になります。発熱反応では温度を上げると K が小さくなります。",
    ),
    ("h1", "5. 演習（第7回の小テスト範囲）"),
    (
        "p",
        "問1　H_{2}(g) + I_{2}(g) ⇌ 2HI(g) の 700 K での K_{c} は 54 である。[H_{2}] = [I_{2}] = 0.10 mol L^{−1}、[HI] = 0.50 mol L^{−1} のとき、反応はどちら向きに進むか。（答：Q = 25 < 54 なので正反応の向き）",
    ),
    (
        "p",
        "問2　ある反応の K が 298 K で 1.0 × 10^{−2} のとき ΔG° を求めよ。（答：+11.4 kJ mol^{−1}）",
    ),
    (
        "p",
        "第7回の小テストは11月13日の授業の最後15分で行います。関数電卓を持参してください（スマートフォンの電卓は使用不可）。",
    ),
]

ICE_TABLE = [
    ["", "H_{2}", "I_{2}", "HI"],
    ["初期 (mol L^{−1})", "0.100", "0.100", "0"],
    ["変化", "−x", "−x", "+2x"],
    ["平衡", "0.100 − x", "0.100 − x", "2x"],
]

LC_TABLE = [
    ["加える変化", "平衡の移動", "K の変化"],
    ["O_{2} を加える", "右（SO_{3} が増える）", "変わらない"],
    ["SO_{3} を取り除く", "右", "変わらない"],
    ["体積を半分にする（加圧）", "右（気体分子が減る向き）", "変わらない"],
    ["温度を上げる", "左（吸熱の向き）", "小さくなる"],
    ["V_{2}O_{5} 触媒を加える", "移動しない", "変わらない"],
    ["一定体積で Ar を加える", "移動しない", "変わらない"],
]


def build_docx_handout(path: Path) -> None:
    doc = Document()
    doc.styles["Normal"].font.size = Pt(10.5)
    for kind, text in EQUIL_DOC:
        if kind == "title":
            doc.add_heading(text, level=0)
        elif kind == "h1":
            doc.add_heading(text, level=1)
        elif kind == "p":
            docx_rich(doc.add_paragraph(), text)
        elif kind == "table_lc":
            add_table(doc, LC_TABLE)
        elif kind == "table_ice":
            add_table(doc, ICE_TABLE)
    doc.core_properties.title = "第6・7回 化学平衡"
    doc.core_properties.author = "篠原 絢子"
    doc.save(path)


def to_pdf(docx_path: Path, out_dir: Path) -> Path:
    subprocess.run(
        ["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(out_dir), str(docx_path)],
        check=True,
        capture_output=True,
    )
    return out_dir / (docx_path.stem + ".pdf")


# ---------------------------------------------------------------------------------------------
# PowerPoint: Lectures 4-5 (English, Dr. Wielgosz)
# ---------------------------------------------------------------------------------------------

PPTX_SLIDES = [
    {
        "title": "Entropy and Gibbs Energy",
        "subtitle": "CHEM-1120 General Chemistry II · Lectures 4–5 · 23 and 30 October 2026 · Dr. Tomasz Wielgosz",
        "notes": "Welcome slide. My office hours while I am visiting: Thursdays 12:15–13:00 in room C-415, no appointment needed. Outside those hours, write to me through MizuLearn messages rather than e-mail.",
    },
    {
        "title": "Why do things happen by themselves?",
        "bullets": [
            "A spontaneous process happens without continuous outside help — it may still be slow",
            "Many spontaneous reactions are exothermic, but not all: NH_{4}NO_{3} dissolving in water absorbs heat",
            "Enthalpy alone cannot predict direction; we also need entropy S",
        ],
        "notes": "Demo: I dissolve ammonium nitrate in a plastic cup and pass it around — the cup gets cold. Do not taste or touch the solution. Spontaneous does not mean fast: diamond turning into graphite is spontaneous but unmeasurably slow.",
    },
    {
        "title": "Entropy: counting the ways",
        "bullets": [
            "Boltzmann: S = k_{B} ln W, where W is the number of microstates",
            "For a reversible process at constant T: ΔS = q_{rev} / T",
            "S(gas) ≫ S(liquid) > S(solid); S rises with temperature and with the number of gas molecules",
            "Units: J K^{−1} mol^{−1} (note: joules, not kilojoules)",
        ],
        "notes": "k_B is 1.381 × 10^-23 J/K. The typical exam trap is unit mixing: ΔH is in kJ mol^-1 but ΔS is in J K^-1 mol^-1, so divide ΔS by 1000 before you put it into ΔG = ΔH − TΔS.",
    },
    {
        "title": "Standard molar entropies at 298 K",
        "table": [
            ["Substance", "S° / J K^{−1} mol^{−1}"],
            ["H_{2}(g)", "130.7"],
            ["N_{2}(g)", "191.6"],
            ["O_{2}(g)", "205.2"],
            ["NH_{3}(g)", "192.5"],
            ["H_{2}O(l)", "69.9"],
            ["H_{2}O(g)", "188.8"],
            ["CO_{2}(g)", "213.8"],
            ["CaCO_{3}(s)", "92.9"],
        ],
        "notes": "These are the values we use in this course; other tables differ in the last digit. Unlike enthalpies of formation, standard entropies of elements are NOT zero — a frequent mistake on the quiz last year.",
    },
    {
        "title": "Example: melting ice",
        "bullets": [
            "H_{2}O(s) → H_{2}O(l) at 273.15 K, Δ_{fus}H = 6.01 kJ mol^{−1}",
            "ΔS = q_{rev}/T = 6010 J mol^{−1} / 273.15 K = 22.0 J K^{−1} mol^{−1}",
            "Second law: ΔS_{univ} = ΔS_{sys} + ΔS_{surr} > 0 for a spontaneous process",
        ],
        "notes": "At exactly 273.15 K the ice–water system is at equilibrium, so ΔS_univ = 0 there. Above it, the entropy gain of the system wins; below it, the entropy lost by the surroundings wins.",
    },
    {
        "title": "Gibbs energy",
        "bullets": [
            "G = H − TS; at constant T and p: ΔG = ΔH − TΔS",
            "ΔG < 0: spontaneous; ΔG = 0: equilibrium; ΔG > 0: non-spontaneous (reverse is spontaneous)",
            "Standard Gibbs energy of formation Δ_{f}G° of an element in its standard state is zero",
        ],
        "notes": "Mnemonic I use: G for 'go'. If ΔG is negative the reaction can go. Lecture 6 (Prof. Shinohara) connects ΔG° to the equilibrium constant.",
    },
    {
        "title": "The four sign cases",
        "table": [
            ["ΔH", "ΔS", "ΔG = ΔH − TΔS", "Example"],
            ["−", "+", "always negative", "2H_{2}O_{2}(l) → 2H_{2}O(l) + O_{2}(g)"],
            ["+", "−", "always positive", "3O_{2}(g) → 2O_{3}(g)"],
            ["−", "−", "negative at low T", "N_{2}(g) + 3H_{2}(g) → 2NH_{3}(g)"],
            ["+", "+", "negative at high T", "CaCO_{3}(s) → CaO(s) + CO_{2}(g)"],
        ],
        "notes": "For the two mixed cases the crossover temperature is T = ΔH/ΔS. For limestone, with ΔH° = +178.3 kJ mol^-1 and ΔS° = +160.6 J K^-1 mol^-1, the crossover is about 1110 K, which is why lime kilns run at around 900 °C or hotter.",
    },
    {
        "title": "Predicting the sign of ΔS for a reaction",
        "bullets": [
            "More moles of gas on the product side → ΔS > 0 (e.g. CaCO_{3}(s) → CaO(s) + CO_{2}(g))",
            "Fewer moles of gas → ΔS < 0 (e.g. N_{2}(g) + 3H_{2}(g) → 2NH_{3}(g): 4 mol gas → 2 mol gas)",
            "Dissolving a solid usually increases S, but ions such as Mg^{2+} or Al^{3+} order water around them and can make ΔS negative",
            "Δ_{r}S° = Σ ν S°(products) − Σ ν S°(reactants) — same pattern as Hess's law",
        ],
        "notes": "Quick check before every calculation: count the gas moles on each side. If your calculated ΔS has the opposite sign to the gas count, look for an arithmetic slip first. Highly charged small ions such as Al3+ are the main exception you should remember for the exam.",
    },
    {
        "title": "Third law and absolute entropies",
        "bullets": [
            "Third law: the entropy of a perfect crystal at 0 K is zero",
            "So, unlike H, we can tabulate absolute values of S (not just changes)",
            "S° is measured by integrating C_{p}/T from close to 0 K, adding ΔH/T at each phase change",
        ],
        "notes": "Students ask why the S° table has no zeros for elements while the ΔfH° table in Prof. Shinohara's notes does. The answer is on this slide: ΔfH° is a change relative to the elements, but S° is an absolute value measured from 0 K. Residual entropy of CO crystals is a nice exception but it is not examined.",
    },
    {
        "title": "Worked example: ammonia synthesis at 298 K",
        "bullets": [
            "Δ_{r}H° = 2(−46.1) = −92.2 kJ mol^{−1}",
            "Δ_{r}S° = 2(192.5) − 191.6 − 3(130.7) = −198.7 J K^{−1} mol^{−1}",
            "Δ_{r}G° = −92.2 − 298 × (−0.1987) = −33.0 kJ mol^{−1}",
            "Spontaneous at 298 K; becomes non-spontaneous above T = 92.2/0.1987 ≈ 464 K",
        ],
        "notes": "The industrial process still runs at 400–450 °C because at room temperature it is far too slow. Thermodynamics says whether, kinetics says how fast: that is Lecture 8.",
    },
    {
        "title": "Lecture 5 exercise",
        "bullets": [
            "Use the tables to find Δ_{r}G° at 298 K for CH_{4}(g) + 2O_{2}(g) → CO_{2}(g) + 2H_{2}O(l)",
            "S°(CH_{4}, g) = 186.3 J K^{−1} mol^{−1}",
            "Submit on MizuLearn by 5 November (Thu) 17:00",
        ],
        "notes": "Answer for checking: Δ_rS° = −242.8 J K^-1 mol^-1 and Δ_rG° = −817.9 kJ mol^-1. Please do not post the answer in the course forum before the deadline.",
    },
]

BASELINE = {"sub": "-25000", "sup": "30000"}


def pptx_rich(paragraph, text: str, size: int | None = None) -> None:
    for chunk, kind in pieces(text):
        run = paragraph.add_run()
        run.text = chunk
        if size:
            run.font.size = PPt(size)
        if kind:
            run._r.get_or_add_rPr().set("baseline", BASELINE[kind])


def build_pptx(path: Path) -> None:
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(13.333), Inches(7.5)
    for n, spec in enumerate(PPTX_SLIDES):
        if n == 0:
            slide = prs.slides.add_slide(prs.slide_layouts[0])
            slide.shapes.title.text = spec["title"]
            slide.placeholders[1].text = spec["subtitle"]
        elif "table" in spec:
            slide = prs.slides.add_slide(prs.slide_layouts[5])
            slide.shapes.title.text = spec["title"]
            rows = spec["table"]
            shape = slide.shapes.add_table(
                len(rows),
                len(rows[0]),
                Inches(0.8),
                Inches(1.6),
                Inches(11.5),
                Inches(0.45) * len(rows),
            )
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    tf = shape.table.cell(r, c).text_frame
                    tf.text = ""
                    pptx_rich(tf.paragraphs[0], value, size=18)
        else:
            slide = prs.slides.add_slide(prs.slide_layouts[1])
            slide.shapes.title.text = spec["title"]
            tf = slide.placeholders[1].text_frame
            for i, bullet in enumerate(spec["bullets"]):
                para = tf.paragraphs[0] if i == 0 else tf.add_paragraph()
                pptx_rich(para, bullet, size=22)
        slide.notes_slide.notes_text_frame.text = spec["notes"]
    prs.core_properties.title = "Entropy and Gibbs Energy"
    prs.core_properties.author = "Tomasz Wielgosz"
    prs.save(path)


# ---------------------------------------------------------------------------------------------
# Excel: lab workbook (Japanese)
# ---------------------------------------------------------------------------------------------

KHP_M = 204.22  # g/mol
TITRATION = [  # 班, KHP (g), buret start (mL), buret end (mL)
    ("A1", 0.5105, 0.40, 25.35),
    ("A2", 0.5032, 1.10, 25.85),
    ("A3", 0.4987, 0.25, 24.70),
    ("B1", 0.5120, 0.80, 25.90),
    ("B2", 0.5064, 0.55, 25.55),
    ("B3", 0.4951, 0.30, 24.65),
]
VINEGAR = [  # 班, 食酢 10.00 mL を 100 mL に希釈し 10.00 mL 採取, NaOH (mL)
    ("A1", 6.85), ("A2", 6.92), ("A3", 6.80), ("B1", 6.88), ("B2", 6.95), ("B3", 6.83),
]  # fmt: skip
KINETICS_T = [0, 60, 120, 180, 240, 300, 420, 600]
KINETICS_C = [12.0, 9.58, 7.79, 6.24, 4.93, 4.05, 2.49, 1.41]  # [CV+] in 10^-6 mol/L


def font_block(text: str, kind: str | None, bold: bool = False) -> TextBlock | str:
    if kind is None and not bold:
        return text
    va = {"sub": "subscript", "sup": "superscript"}.get(kind)
    return TextBlock(InlineFont(vertAlign=va, b=bold or None), text)


def xl_rich(text: str, bold: bool = False) -> CellRichText | str:
    parts = list(pieces(text))
    if all(kind is None for _, kind in parts) and not bold:
        return text
    return CellRichText(*[font_block(t, k, bold) for t, k in parts])


def build_xlsx(path: Path) -> dict[str, dict[str, float]]:
    """Write formulas; return cached values per sheet for patching."""
    cached: dict[str, dict[str, float]] = {}
    wb = Workbook()
    bold = Font(bold=True)

    # Sheet 1: titration
    ws = wb.active
    ws.title = "実験1 中和滴定"
    ws.merge_cells("A1:G1")
    ws["A1"] = "実験1　NaOH 水溶液の標定と食酢中の酢酸の定量（2026年11月27日・化学実験室 C-B1）"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = (
        "一次標準物質：フタル酸水素カリウム（KHP, 式量 204.22）／指示薬：フェノールフタレイン"
    )
    headers = [
        "班",
        "KHP 質量 (g)",
        "ビュレット始め (mL)",
        "ビュレット終わり (mL)",
        "滴定量 (mL)",
        "c_{NaOH} (mol L^{−1})",
        "ファクター f",
    ]
    for c, h in enumerate(headers, 1):
        ws.cell(row=4, column=c, value=xl_rich(h, bold=True))
    vals = cached.setdefault(ws.title, {})
    for i, (team, m, v0, v1) in enumerate(TITRATION):
        r = 5 + i
        ws.cell(row=r, column=1, value=team)
        ws.cell(row=r, column=2, value=m).number_format = "0.0000"
        ws.cell(row=r, column=3, value=v0).number_format = "0.00"
        ws.cell(row=r, column=4, value=v1).number_format = "0.00"
        ws.cell(row=r, column=5, value=f"=D{r}-C{r}").number_format = "0.00"
        vol = v1 - v0
        vals[f"E{r}"] = vol
        ws.cell(row=r, column=6, value=f"=B{r}/{KHP_M}/(E{r}/1000)").number_format = "0.0000"
        conc = m / KHP_M / (vol / 1000)
        vals[f"F{r}"] = conc
        ws.cell(row=r, column=7, value=f"=F{r}/0.1").number_format = "0.000"
        vals[f"G{r}"] = conc / 0.1
    last = 4 + len(TITRATION)
    r = last + 1
    ws.cell(row=r, column=5, value="平均").font = bold
    mean_c = sum(vals[f"F{i}"] for i in range(5, last + 1)) / len(TITRATION)
    ws.cell(row=r, column=6, value=f"=AVERAGE(F5:F{last})").number_format = "0.0000"
    vals[f"F{r}"] = mean_c
    ws.cell(row=r, column=7, value=f"=AVERAGE(G5:G{last})").number_format = "0.000"
    vals[f"G{r}"] = mean_c / 0.1
    ws.cell(
        row=r + 1,
        column=1,
        value="注1：滴定量の差が 0.10 mL を超えた班は再滴定すること。終点は薄い赤紫色が30秒消えない点。",
    )
    ws.cell(
        row=r + 2,
        column=1,
        value="注2：NaOH は空気中の CO₂ を吸うので、調製した当日に標定する。ビュレットの目盛りは 0.01 mL まで読む。",
    )

    r0 = r + 4
    ws.cell(
        row=r0, column=1, value="食酢の定量（食酢 10.00 mL → 100 mL に希釈、その 10.00 mL を滴定）"
    ).font = bold
    h2 = [
        "班",
        "NaOH 滴定量 (mL)",
        "希釈液中の酢酸 (mol L^{−1})",
        "食酢中の酢酸 (mol L^{−1})",
        "酢酸 (g / 100 mL)",
    ]
    for c, h in enumerate(h2, 1):
        ws.cell(row=r0 + 1, column=c, value=xl_rich(h, bold=True))
    fr = 5 + len(TITRATION)  # row of the mean NaOH concentration
    for i, (team, v) in enumerate(VINEGAR):
        rr = r0 + 2 + i
        ws.cell(row=rr, column=1, value=team)
        ws.cell(row=rr, column=2, value=v).number_format = "0.00"
        ws.cell(row=rr, column=3, value=f"=$F${fr}*B{rr}/10").number_format = "0.00000"
        c_dil = mean_c * v / 10
        vals[f"C{rr}"] = c_dil
        ws.cell(row=rr, column=4, value=f"=C{rr}*10").number_format = "0.0000"
        vals[f"D{rr}"] = c_dil * 10
        ws.cell(row=rr, column=5, value=f"=D{rr}*60.05/10").number_format = "0.00"
        vals[f"E{rr}"] = c_dil * 10 * 60.05 / 10
    rr = r0 + 2 + len(VINEGAR)
    ws.cell(row=rr, column=4, value="平均").font = bold
    ws.cell(row=rr, column=5, value=f"=AVERAGE(E{r0 + 2}:E{rr - 1})").number_format = "0.00"
    vals[f"E{rr}"] = sum(vals[f"E{r0 + 2 + i}"] for i in range(len(VINEGAR))) / len(VINEGAR)
    ws.cell(
        row=rr + 1,
        column=1,
        value="注3：ラベル表示の酸度は 4.2%。酢酸の分子量 60.05。食酢の密度は 1.00 g mL⁻¹ とみなす。",
    )
    for col, width in zip("ABCDEFG", (8, 14, 18, 20, 14, 20, 12), strict=True):
        ws.column_dimensions[col].width = width

    # Sheet 2: kinetics
    ws2 = wb.create_sheet("実験2 反応速度")
    vals2 = cached.setdefault(ws2.title, {})
    ws2.merge_cells("A1:E1")
    ws2["A1"] = "実験2　クリスタルバイオレットのアルカリ退色（擬一次反応）　2026年12月11日"
    ws2["A1"].font = Font(bold=True, size=13)
    ws2["A2"] = xl_rich(
        "条件：[OH^{−}]_{0} = 0.020 mol L^{−1}（大過剰）、25.0 °C、吸光度は 590 nm で測定し検量線で濃度に換算"
    )
    heads = [
        "t (s)",
        "[CV^{+}] (10^{−6} mol L^{−1})",
        "ln([CV^{+}]/10^{−6})",
        "1/[CV^{+}] (10^{6} L mol^{−1})",
    ]
    for c, h in enumerate(heads, 1):
        ws2.cell(row=4, column=c, value=xl_rich(h, bold=True))
    for i, (t, cval) in enumerate(zip(KINETICS_T, KINETICS_C, strict=True)):
        r = 5 + i
        ws2.cell(row=r, column=1, value=t)
        ws2.cell(row=r, column=2, value=cval).number_format = "0.00"
        ws2.cell(row=r, column=3, value=f"=LN(B{r})").number_format = "0.000"
        vals2[f"C{r}"] = math.log(cval)
        ws2.cell(row=r, column=4, value=f"=1/B{r}").number_format = "0.000"
        vals2[f"D{r}"] = 1 / cval
    lr = 4 + len(KINETICS_T)
    n = len(KINETICS_T)
    xs, ys = KINETICS_T, [math.log(c) for c in KINETICS_C]
    mx, my = sum(xs) / n, sum(ys) / n
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    r2num = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) ** 2
    r2 = r2num / (sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))
    k = -slope
    s = lr + 2
    ws2.cell(row=s, column=1, value="解析").font = bold
    ws2.cell(row=s + 1, column=1, value="傾き (s⁻¹)")
    ws2.cell(row=s + 1, column=2, value=f"=SLOPE(C5:C{lr},A5:A{lr})").number_format = "0.00E+00"
    vals2[f"B{s + 1}"] = slope
    ws2.cell(row=s + 2, column=1, value=xl_rich("k' (s^{−1})"))
    ws2.cell(row=s + 2, column=2, value=f"=-B{s + 1}").number_format = "0.00E+00"
    vals2[f"B{s + 2}"] = k
    ws2.cell(row=s + 3, column=1, value="R²（ln プロット）")
    ws2.cell(row=s + 3, column=2, value=f"=RSQ(C5:C{lr},A5:A{lr})").number_format = "0.0000"
    vals2[f"B{s + 3}"] = r2
    ws2.cell(row=s + 4, column=1, value="半減期 t½ (s)")
    ws2.cell(row=s + 4, column=2, value=f"=LN(2)/B{s + 2}").number_format = "0"
    vals2[f"B{s + 4}"] = math.log(2) / k
    ws2.cell(row=s + 5, column=1, value="k = k'/[OH⁻]₀ (L mol⁻¹ s⁻¹)")
    ws2.cell(row=s + 5, column=2, value=f"=B{s + 2}/0.02").number_format = "0.000"
    vals2[f"B{s + 5}"] = k / 0.02
    ws2.cell(
        row=s + 7,
        column=1,
        value="注：ln プロットが直線（R² が 0.999 以上）なら CV⁺ について一次。1/[CV⁺] プロットは比較用で、レポートには両方のグラフを載せること。",
    )
    ws2.cell(
        row=s + 8,
        column=1,
        value="注：420 s 以降は吸光度が 0.05 を下回り誤差が大きいので、レポートでは t ≤ 300 s だけで解析してもよい（その旨を書く）。",
    )
    for col, width in zip("ABCD", (18, 26, 22, 26), strict=True):
        ws2.column_dimensions[col].width = width

    # Sheet 3: groups and bench plan
    ws4 = wb.create_sheet("班分け・日程")
    ws4.merge_cells("A1:E1")
    ws4["A1"] = "実験の班分けと担当 TA（学籍番号順、1班4名）"
    ws4["A1"].font = Font(bold=True, size=13)
    plan = [
        ["班", "学籍番号", "実験台", "実験1 担当 TA", "実験2 担当 TA"],
        ["A1", "26S1001〜26S1004", "1番", "三宅", "Haddad"],
        ["A2", "26S1005〜26S1008", "2番", "三宅", "Haddad"],
        ["A3", "26S1009〜26S1012", "3番", "三宅", "Haddad"],
        ["B1", "26S1013〜26S1016", "4番", "篠原", "三宅"],
        ["B2", "26S1017〜26S1020", "5番", "篠原", "三宅"],
        ["B3", "26S1021〜26S1024", "6番", "篠原", "三宅"],
    ]
    for r, row in enumerate(plan, 3):
        for c, value in enumerate(row, 1):
            cell = ws4.cell(row=r, column=c, value=value)
            if r == 3:
                cell.font = bold
    ws4.cell(
        row=11,
        column=1,
        value="注：実験2の温度変化の追加測定（15・20・30・35・40 °C）は、A1〜A3・B1・B2 の5班と、希望した B3 班が1温度ずつ担当する。水浴の設定は TA が行う。",
    )
    ws4.cell(
        row=12,
        column=1,
        value="注：分光光度計は4台（実験台1・3・5 と窓側）。1台を2班で交互に使う。セルは石英ではなくポリスチレン製の使い捨て。",
    )
    for col, width in zip("ABCDE", (8, 22, 10, 16, 16), strict=True):
        ws4.column_dimensions[col].width = width

    # Sheet 4: safety and waste
    ws3 = wb.create_sheet("安全・廃液")
    ws3.merge_cells("A1:C1")
    ws3["A1"] = "実験室の安全と廃液の分別（必ず実験前に読むこと）"
    ws3["A1"].font = Font(bold=True, size=13)
    rows = [
        ["対象", "どこへ / どうする", "備考"],
        [
            "滴定後の溶液（NaOH・酢酸・KHP）",
            "無機廃液タンク「酸・アルカリ」",
            "流しに流さない。中和は不要",
        ],
        [
            "クリスタルバイオレットを含む溶液",
            "有機廃液タンク「色素」",
            "セルの洗浄液（1回目）も同じタンクへ",
        ],
        ["使用済みのパスツールピペット", "ガラス廃棄箱（黄色）", "紙くずと混ぜない"],
        [
            "NaOH が皮膚・目に付いたとき",
            "すぐに流水で15分以上洗う",
            "TA に知らせ、目の場合は洗眼器を使う",
        ],
        [
            "保護メガネ（ゴーグル）",
            "入室から退室まで常に着用",
            "眼鏡の上から掛けられるものを貸し出す",
        ],
        ["服装", "白衣・長ズボン・かかとのある靴", "サンダル・ヒールは入室不可"],
        ["緊急連絡先", "理学部事務 内線 5119", "夜間・休日は守衛室 内線 5000"],
    ]
    for r, row in enumerate(rows, 3):
        for c, value in enumerate(row, 1):
            cell = ws3.cell(row=r, column=c, value=value)
            cell.alignment = Alignment(wrap_text=True, vertical="top")
            if r == 3:
                cell.font = bold
    ws3.cell(
        row=len(rows) + 4,
        column=1,
        value="注：ゴーグルを忘れた人は 1回目は貸し出し、2回目以降は実験に参加できず欠席扱いとなります。",
    )
    for col, width in zip("ABC", (30, 32, 36), strict=True):
        ws3.column_dimensions[col].width = width

    wb.properties.creator = "三宅 悠真"
    wb.save(path)
    return cached


def patch_cached_values(path: Path, cached: dict[str, dict[str, float]]) -> None:
    """Give every formula cell its cached value, as Excel does when it saves."""
    with zipfile.ZipFile(path) as zin:
        items = {name: zin.read(name) for name in zin.namelist()}
    workbook = items["xl/workbook.xml"].decode()
    sheet_names = re.findall(r'<sheet [^>]*name="([^"]+)"', workbook)
    for index, name in enumerate(sheet_names, 1):
        part = f"xl/worksheets/sheet{index}.xml"
        xml = items[part].decode()
        values = cached.get(name, {})

        xml = re.sub(
            r'<c r="([A-Z]+\d+)"((?: [a-z]+="[^"]*")*)><f>([^<]*)</f><v\s*/?>(?:</v>)?</c>',
            lambda m, values=values: fill_m(m, values),
            xml,
        )
        items[part] = xml.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in items.items():
            zout.writestr(name, data)


def fill_m(match, values) -> str:
    ref, attrs, formula = match.group(1), match.group(2), match.group(3)
    return f'<c r="{ref}"{attrs}><f>{formula}</f><v>{values[ref]!r}</v></c>'


def main() -> None:
    MATERIALS.mkdir(exist_ok=True)
    build_docx_lecture(MATERIALS / "01_thermochem_hess_ja.docx")
    build_pptx(MATERIALS / "02_entropy_gibbs_en.pptx")
    with tempfile.TemporaryDirectory() as tmp:
        handout = Path(tmp) / "03_equilibrium_handout_ja.docx"
        build_docx_handout(handout)
        pdf = to_pdf(handout, Path(tmp))
        shutil.copy(pdf, MATERIALS / pdf.name)
    xlsx = MATERIALS / "07_lab_workbook_ja.xlsx"
    cached = build_xlsx(xlsx)
    patch_cached_values(xlsx, cached)


if __name__ == "__main__":
    main()
