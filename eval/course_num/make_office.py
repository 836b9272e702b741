"""Writes the Office materials of course_num: a Word handout shaped like a LibreOffice save
(05), a deck shaped like a Google Slides PPTX export (06) and the TA workbook whose results are
formula cells with cached values (08). Content is Python data; ZIP timestamps are fixed."""

from __future__ import annotations

import io
import math
import re
import zipfile
from pathlib import Path

from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt
from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill
from pptx import Presentation
from pptx.util import Emu
from pptx.util import Pt as PPt

OUT = Path(__file__).parent / "materials"
FIXED = (2026, 6, 11, 9, 0, 0)


def _rezip(data: bytes, patch=None) -> bytes:
    """Same parts in the same order, fixed timestamps, optional per-part rewrite."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if patch is not None:
                body = patch(info.filename, body)
            dst.writestr(zipfile.ZipInfo(info.filename, FIXED), body, zipfile.ZIP_DEFLATED)
    return out.getvalue()


# ------------------------------------------------------------------ 05 LibreOffice-style DOCX
DOC = [
    ("Title", "数値計算法　第10回　連立一次方程式の反復法"),
    ("Subtitle", "ヤコビ法・ガウス・ザイデル法・SOR法と収束条件（2026年6月11日／演習回）"),
    ("H1", "1. なぜ反復法か"),
    (
        "P",
        "ガウス消去法や LU 分解（直接法）は、n 元の密行列に対しておよそ (2/3)n^3 回の演算が必要です。"
        "偏微分方程式を差分化して出てくる行列は、n が数万〜数百万と大きく、しかもほとんどの成分が 0 の疎行列です。"
        "直接法では消去の途中で 0 だった成分が非零になる「フィルイン」が起き、メモリが足りなくなります。"
        "反復法は行列とベクトルの積だけを繰り返すので、行列の疎な構造をそのまま使えます。",
    ),
    ("H1", "2. 3つの反復法"),
    (
        "P",
        "A = D − L − U と分解します（D は対角部分、−L は狭義下三角部分、−U は狭義上三角部分）。"
        "以下、上付きの (k) は反復の番号です。",
    ),
    ("H2", "2.1 ヤコビ法"),
    ("Formula", "x_i^(k+1) = ( b_i − Σ_{j≠i} a_ij x_j^(k) ) / a_ii"),
    (
        "P",
        "行列の形では x^(k+1) = D^{-1}(L + U) x^(k) + D^{-1} b です。反復行列を M_J = D^{-1}(L + U) と書きます。"
        "各成分の更新は互いに独立なので、並列化しやすいのが利点です。",
    ),
    ("H2", "2.2 ガウス・ザイデル法"),
    ("Formula", "x_i^(k+1) = ( b_i − Σ_{j<i} a_ij x_j^(k+1) − Σ_{j>i} a_ij x_j^(k) ) / a_ii"),
    (
        "P",
        "すでに更新した成分 x_1^(k+1), …, x_{i−1}^(k+1) をすぐに使います。配列を1本で済ませられ、"
        "収束も多くの場合ヤコビ法より速くなります。反復行列は M_GS = (D − L)^{-1} U です。",
    ),
    ("H2", "2.3 SOR 法（逐次過緩和法）"),
    ("Formula", "x_i^(k+1) = (1 − ω) x_i^(k) + ω · x̃_i^(GS)"),
    (
        "P",
        "x̃_i^(GS) はガウス・ザイデル法で計算した更新値、ω は緩和係数です。ω = 1 ならガウス・ザイデル法そのもの、"
        "ω > 1 を過緩和、ω < 1 を不足緩和といいます。",
    ),
    ("H1", "3. 収束条件"),
    (
        "P",
        "反復 x^(k+1) = M x^(k) + c が任意の初期値から収束するための必要十分条件は、"
        "反復行列 M のスペクトル半径 ρ(M)（固有値の絶対値の最大）が 1 より小さいことです。"
        "誤差は1回あたりおよそ ρ(M) 倍になるので、誤差を 10^{-d} にするにはおよそ d / (−log10 ρ(M)) 回かかります。",
    ),
    (
        "Num",
        "A が狭義優対角（各行で |a_ii| > Σ_{j≠i} |a_ij|）なら、ヤコビ法もガウス・ザイデル法も収束する。",
    ),
    (
        "Num",
        "A が対称正定値なら、ガウス・ザイデル法は収束する。SOR 法は 0 < ω < 2 のとき、かつそのときに限り収束する。",
    ),
    ("Num", "SOR 法が収束するには 0 < ω < 2 が必要（Kahan の定理）。これは A の種類によらない。"),
    (
        "P",
        "三重対角行列などで ρ(M_GS) = ρ(M_J)^2 が成り立つ場合、最適な緩和係数は次の式で与えられます。",
    ),
    ("Formula", "ω_opt = 2 / ( 1 + sqrt(1 − ρ(M_J)^2) )"),
    ("H1", "4. 実験：三重対角行列での比較"),
    (
        "P",
        "n = 20 の行列 A = tridiag(−1, 2, −1)、b = (1, …, 1)^T、初期値 0、停止条件 ‖x^(k+1) − x^(k)‖_∞ < 1e-8 で比べました。"
        "この行列では ρ(M_J) = cos(π/21) = 0.9888、ρ(M_GS) = 0.9778、ω_opt = 1.7406 です。",
    ),
    (
        "Table",
        [
            ["手法", "ω", "反復回数"],
            ["ヤコビ法", "—", "1601"],
            ["ガウス・ザイデル法", "1.0", "832"],
            ["SOR", "1.5", "282"],
            ["SOR", "1.74（ω_opt を丸めた値）", "86"],
            ["SOR", "1.9", "204"],
        ],
    ),
    (
        "P",
        "ガウス・ザイデル法はヤコビ法のほぼ半分の回数で収束しています（ρ(M_GS) = ρ(M_J)^2 なので、"
        "log ρ が2倍になるため）。ω を最適値に近づけると反復回数は1桁減りますが、最適値を超えると再び増えます。"
        "ω を大きめに外す方が、小さめに外すより損が少ない、というのが経験則です。",
    ),
    ("H1", "5. NumPy による実装例"),
    (
        "Code",
        "def sor(A, b, omega, tol=1e-8, maxiter=10000):\n"
        "    n = len(b)\n"
        "    x = np.zeros(n)\n"
        "    for k in range(1, maxiter + 1):\n"
        "        x_old = x.copy()\n"
        "        for i in range(n):\n"
        "            s = b[i] - A[i, :i] @ x[:i] - A[i, i+1:] @ x_old[i+1:]\n"
        "            x[i] = (1 - omega) * x_old[i] + omega * s / A[i, i]\n"
        "        if np.max(np.abs(x - x_old)) < tol:\n"
        "            return x, k\n"
        '    raise RuntimeError("SOR did not converge")',
    ),
    (
        "P",
        "内側の i のループは Python では遅いので、演習2では n = 200 までで構いません。"
        "ヤコビ法だけは i のループを使わずにベクトル演算で書けます（各自考えること）。",
    ),
    ("H1", "6. よくある間違い（昨年度の演習2から）"),
    (
        "Bullet",
        "ヤコビ法で、更新済みの成分を同じ配列に上書きしてしまう（それはガウス・ザイデル法になる）。x_old を必ずコピーすること。",
    ),
    (
        "Bullet",
        "停止条件に残差 ‖b − Ax‖ を使うのは正しいが、毎回計算すると1反復あたりの費用が倍になる。10回に1回でよい。",
    ),
    (
        "Bullet",
        "ω = 2 以上を試して「発散した」と報告する。0 < ω < 2 の外では収束しないことは理論からわかる。",
    ),
    (
        "Bullet",
        "対角成分が 0 の行列にそのまま使う。行を入れ替えて対角成分を非零にしてから始めること。",
    ),
    ("H1", "7. 演習2について"),
    (
        "Bullet",
        "課題：n = 50, 100, 200 の tridiag(−1, 2, −1) について、LU 分解（自作）とヤコビ法・ガウス・ザイデル法・SOR 法の計算時間と反復回数を比較する。",
    ),
    ("Bullet", "SOR 法の ω は 1.0〜1.9 を 0.1 刻みで調べ、反復回数が最小の ω を報告する。"),
    ("Bullet", "締切：6月22日（月）23:59。Kiri-Learn に .ipynb と PDF を提出。"),
    ("Bullet", "TA 質問会：6月19日（金）16:30〜18:00、第3計算機演習室。"),
]

LO_APP = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" '
    'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
    "<Template></Template><TotalTime>47</TotalTime>"
    "<Application>LibreOffice/24.2.5.2$Linux_X86_64 LibreOffice_project/420$Build-2</Application>"
    "<AppVersion>15.0000</AppVersion><Pages>3</Pages><Words>912</Words><Characters>4318</Characters>"
    "<CharactersWithSpaces>4795</CharactersWithSpaces><Paragraphs>44</Paragraphs></Properties>"
)


def make_docx() -> bytes:
    doc = Document()
    styles = doc.styles
    body = styles.add_style("Text Body", WD_STYLE_TYPE.PARAGRAPH)
    body.base_style = styles["Normal"]
    body.paragraph_format.space_after = Pt(7)
    pre = styles.add_style("Preformatted Text", WD_STYLE_TYPE.PARAGRAPH)
    pre.font.name = "Liberation Mono"
    pre.font.size = Pt(9)
    pre.paragraph_format.space_after = Pt(0)
    tc = styles.add_style("Table Contents", WD_STYLE_TYPE.PARAGRAPH)
    tc.base_style = styles["Normal"]
    th = styles.add_style("Table Heading", WD_STYLE_TYPE.PARAGRAPH)
    th.base_style = tc
    th.font.bold = True
    section = doc.sections[0]
    footer = section.footer.paragraphs[0]
    footer.text = "NM-2310 数値計算法　第10回　— 宮路"
    footer.alignment = WD_ALIGN_PARAGRAPH.CENTER
    for kind, value in DOC:
        if kind == "Title":
            doc.add_paragraph(value, style="Title")
        elif kind == "Subtitle":
            doc.add_paragraph(value, style="Subtitle")
        elif kind == "H1":
            doc.add_paragraph(value, style="Heading 1")
        elif kind == "H2":
            doc.add_paragraph(value, style="Heading 2")
        elif kind == "P":
            doc.add_paragraph(value, style="Text Body")
        elif kind == "Formula":
            p = doc.add_paragraph(style="Text Body")
            p.alignment = WD_ALIGN_PARAGRAPH.CENTER
            run = p.add_run(value)
            run.italic = True
            run.font.name = "DejaVu Serif"
        elif kind == "Num":
            doc.add_paragraph(value, style="List Number")
        elif kind == "Bullet":
            doc.add_paragraph(value, style="List Bullet")
        elif kind == "Code":
            for line in value.split("\n"):
                doc.add_paragraph(
                    line.replace("    ", "\u00a0\u00a0\u00a0\u00a0"), style="Preformatted Text"
                )
        elif kind == "Table":
            table = doc.add_table(rows=len(value), cols=len(value[0]))
            table.style = "Table Grid"
            for r, row in enumerate(value):
                for c, text in enumerate(row):
                    cell = table.cell(r, c)
                    cell.text = ""
                    cell.paragraphs[0].style = "Table Heading" if r == 0 else "Table Contents"
                    cell.paragraphs[0].add_run(text)
    props = doc.core_properties
    props.author = "宮路 千尋"
    props.title = ""
    props.last_modified_by = "宮路 千尋"
    props.revision = 6
    import datetime as dt

    props.created = dt.datetime(2026, 6, 8, 14, 2, 11)
    props.modified = dt.datetime(2026, 6, 11, 8, 47, 30)
    buf = io.BytesIO()
    doc.save(buf)

    def patch(name: str, body: bytes) -> bytes:
        if name == "docProps/app.xml":
            return LO_APP.encode("utf-8")
        return body

    return _rezip(buf.getvalue(), patch)


# ------------------------------------------------------------------ 06 Google Slides-style PPTX
GS_LAYOUTS = [
    "TITLE",
    "TITLE_AND_BODY",
    "TITLE_ONLY",
    "SECTION_HEADER",
    "TITLE_AND_TWO_COLUMNS",
    "BIG_NUMBER",
    "BLANK",
    "CAPTION_ONLY",
    "MAIN_POINT",
    "ONE_COLUMN_TEXT",
    "SECTION_TITLE_AND_DESCRIPTION",
]

SLIDES = [
    {
        "layout": "TITLE",
        "title": "Least Squares, QR and the Power Method",
        "body": [
            "NM-2310 Numerical Methods — Lectures 11 & 12",
            "Dr Helena Lindqvist · 18 and 25 June 2026",
        ],
        "notes": "Welcome back. Office hours for the English lectures: Tuesdays 15:00–16:30 in B-722, "
        "no booking needed. In the exam week I hold them on Monday 27 July instead.",
    },
    {
        "layout": "TITLE_AND_BODY",
        "title": "Overdetermined systems",
        "body": [
            "m equations, n unknowns, m > n: Ax = b has in general no solution",
            "Least squares: minimise ‖Ax − b‖₂",
            "Example: fit y ≈ c₀ + c₁t to six measurements from the heat-sink lab",
            "Residual r = b − Ax is orthogonal to the column space of A",
        ],
        "notes": "The six measurements are from the 2025 heat-sink lab in building B; "
        "t is time in minutes, y is temperature rise in kelvin.",
    },
    {
        "layout": "TITLE_AND_BODY",
        "title": "Normal equations",
        "body": [
            "Setting the gradient to zero gives AᵀA x = Aᵀb",
            "AᵀA is symmetric positive definite if A has full column rank → Cholesky",
            "Cost ≈ mn² + n³/3 flops",
            "Problem: κ(AᵀA) = κ(A)²",
        ],
        "notes": "Students always ask why we don't just use the normal equations. The next slide is the answer.",
    },
    {
        "layout": "BIG_NUMBER",
        "title": "2.140e+10",
        "body": ["κ(AᵀA) for a 10 × 8 Vandermonde matrix on [0, 1], while κ(A) = 1.463e+05"],
        "notes": "Squaring the condition number means we lose twice as many digits. With about 16 digits "
        "available, ten are gone before we even start.",
    },
    {
        "layout": "TITLE_AND_BODY",
        "title": "QR factorisation",
        "body": [
            "A = QR, Q (m × n) with orthonormal columns, R (n × n) upper triangular",
            "Then ‖Ax − b‖ is minimised by solving Rx = Qᵀb (back substitution)",
            "No squaring of κ: works with κ(A) directly",
            "Householder reflections: stable, ≈ 2mn² − 2n³/3 flops",
            "Classical Gram–Schmidt loses orthogonality; modified Gram–Schmidt is better",
        ],
        "notes": "numpy.linalg.qr uses Householder reflections through LAPACK. numpy.linalg.lstsq actually "
        "uses the SVD, which is even more robust but slower.",
    },
    {
        "layout": "TITLE_AND_TWO_COLUMNS",
        "title": "Worked example: straight-line fit",
        "left": ["t = 0, 1, 2, 3, 4, 5", "y = 1.1, 2.9, 5.2, 7.1, 8.8, 11.2"],
        "right": [
            "c₀ = 1.0429, c₁ = 2.0029",
            "‖r‖₂ = 0.3672",
            "R = [[−2.4495, −6.1237], [0, 4.1833]]",
        ],
        "notes": "The signs in R come from numpy's Householder convention; a negative diagonal is fine. "
        "The fit says the sink warms up by about 2 K per minute.",
    },
    {
        "layout": "SECTION_HEADER",
        "title": "Part 2: Eigenvalues",
        "body": ["Lecture 12 · 25 June"],
        "notes": "",
    },
    {
        "layout": "TITLE_AND_BODY",
        "title": "The power method",
        "body": [
            "Start with x₀ ≠ 0; repeat y = Ax_k, x_{k+1} = y / ‖y‖",
            "Rayleigh quotient λ_k = x_kᵀAx_k / x_kᵀx_k estimates the dominant eigenvalue",
            "Converges if |λ₁| > |λ₂| and x₀ has a component along v₁",
            "Error in x shrinks like |λ₂/λ₁|^k; for symmetric A, λ_k converges like |λ₂/λ₁|^{2k}",
        ],
        "notes": "Google's PageRank is the famous example of the power method, with a damping factor so "
        "that the second eigenvalue is bounded away from the first.",
    },
    {
        "layout": "TITLE_ONLY",
        "title": "Power method in NumPy",
        "code": "def power_method(A, x, iters):\n"
        "    for k in range(iters):\n"
        "        y = A @ x\n"
        "        lam = x @ y / (x @ x)   # Rayleigh quotient\n"
        "        x = y / np.linalg.norm(y)\n"
        "    return lam, x",
        "notes": "Note that lam is computed before normalising, so after iters steps it belongs to the previous x.",
    },
    {
        "layout": "TITLE_ONLY",
        "title": "Example: A = [[4, 1, 0], [1, 3, 1], [0, 1, 2]], x₀ = (1, 1, 1)",
        "table": [
            ["k", "λ_k", "|λ_k − λ₁|"],
            ["1", "4.3333333333", "3.99e-01"],
            ["2", "4.6271186441", "1.05e-01"],
            ["5", "4.7260097208", "6.04e-03"],
            ["10", "4.7319872949", "6.35e-05"],
            ["20", "4.7320508006", "6.99e-09"],
            ["30", "4.7320508076", "7.68e-13"],
        ],
        "notes": "The eigenvalues are 3 + √3 = 4.7321, 3 and 3 − √3 = 1.2679. The ratio λ₂/λ₁ is 0.634, "
        "and its square 0.402 is the factor per step you see in the last column.",
    },
    {
        "layout": "TITLE_AND_BODY",
        "title": "Variants",
        "body": [
            "Inverse iteration: apply the power method to A⁻¹ → smallest |λ|",
            "Shifted inverse iteration: (A − σI)⁻¹ → eigenvalue closest to σ",
            "Rayleigh quotient iteration: update σ every step, cubic convergence for symmetric A",
            "Never form A⁻¹: factor A − σI = LU once and solve in each step",
        ],
        "notes": "The QR algorithm used by numpy.linalg.eig is beyond this course; we only mention that it exists.",
    },
    {
        "layout": "TITLE_AND_BODY",
        "title": "Before next week",
        "body": [
            "Exercise sheet 12 on Kiri-Learn (counts towards the mini-report mark)",
            "Read the Japanese summary by TA Hojo",
            "Lecture 13 (ODEs) is taught by Prof. Miyaji in Japanese",
        ],
        "notes": "This is my last lecture before the lab in week 14. Thank you for the questions in English!",
    },
]


def make_pptx() -> bytes:
    prs = Presentation()
    prs.slide_width = Emu(9144000)
    prs.slide_height = Emu(5143500)
    layouts = list(prs.slide_layouts)
    # rename the template's layouts as Google Slides names them
    pick = {
        "TITLE": 0,
        "TITLE_AND_BODY": 1,
        "SECTION_HEADER": 2,
        "TITLE_AND_TWO_COLUMNS": 3,
        "TITLE_ONLY": 5,
        "BLANK": 6,
        "BIG_NUMBER": 1,
    }
    names = {
        0: "TITLE",
        1: "TITLE_AND_BODY",
        2: "SECTION_HEADER",
        3: "TITLE_AND_TWO_COLUMNS",
        4: "ONE_COLUMN_TEXT",
        5: "TITLE_ONLY",
        6: "BLANK",
        7: "CAPTION_ONLY",
        8: "MAIN_POINT",
    }
    for i, layout in enumerate(layouts):
        layout._element.cSld.set("name", names.get(i, GS_LAYOUTS[min(i, len(GS_LAYOUTS) - 1)]))
    counter = 50
    for n, spec in enumerate(SLIDES, 1):
        slide = prs.slides.add_slide(layouts[pick[spec["layout"]]])
        for shape in slide.shapes:
            counter += 1
            shape.name = f"Google Shape;{counter};p{n}"
        ph = {p.placeholder_format.idx: p for p in slide.placeholders}
        if slide.shapes.title is not None:
            slide.shapes.title.text = spec["title"]
            if spec["layout"] == "BIG_NUMBER":
                for r in slide.shapes.title.text_frame.paragraphs[0].runs:
                    r.font.size = PPt(60)
        if "body" in spec and 1 in ph:
            tf = ph[1].text_frame
            tf.text = spec["body"][0]
            for line in spec["body"][1:]:
                tf.add_paragraph().text = line
        if "left" in spec:
            for idx, key in ((1, "left"), (2, "right")):
                tf = ph[idx].text_frame
                tf.text = spec[key][0]
                for line in spec[key][1:]:
                    tf.add_paragraph().text = line
        if "code" in spec:
            box = slide.shapes.add_textbox(Emu(457200), Emu(1200000), Emu(8229600), Emu(3400000))
            counter += 1
            box.name = f"Google Shape;{counter};p{n}"
            tf = box.text_frame
            lines = spec["code"].split("\n")
            tf.text = lines[0]
            for line in lines[1:]:
                tf.add_paragraph().text = line
            for p in tf.paragraphs:
                for r in p.runs:
                    r.font.name = "Courier New"
                    r.font.size = PPt(14)
        if "table" in spec:
            rows = spec["table"]
            gt = slide.shapes.add_table(
                len(rows), len(rows[0]), Emu(914400), Emu(1150000), Emu(7315200), Emu(3200000)
            )
            counter += 1
            gt.name = f"Google Shape;{counter};p{n}"
            for r, row in enumerate(rows):
                for c, text in enumerate(row):
                    gt.table.cell(r, c).text = text
        # drop empty placeholders (Google Slides does not export unused ones)
        for shape in list(slide.placeholders):
            if shape.has_text_frame and not shape.text_frame.text.strip():
                shape._element.getparent().remove(shape._element)
        if spec["notes"]:
            slide.notes_slide.notes_text_frame.text = spec["notes"]
    prs.core_properties.title = "Least Squares, QR and the Power Method"
    prs.core_properties.author = ""
    buf = io.BytesIO()
    prs.save(buf)
    return _rezip(buf.getvalue())


# ------------------------------------------------------------------ 08 TA workbook with formulas
SECANT_ERR = [
    0.12450195860793789,
    0.024514457045633264,
    0.0015984905501302826,
    1.9783906353154634e-05,
    1.58536495042938e-08,
]
NEWTON_DX = [
    0.8,
    0.20750853242320821,
    0.023270770999823887,
    0.0002742557962560621,
    3.772832890547306e-08,
]
SOR = [
    (1.0, 832),
    (1.1, 687),
    (1.2, 564),
    (1.3, 458),
    (1.4, 365),
    (1.5, 282),
    (1.6, 206),
    (1.7, 130),
    (1.8, 97),
    (1.9, 204),
]
ASSIGN = [  # name, enrolled, submitted, late, mean, max, min
    ("演習1", 84, 81, 6, 76.4, 100, 31),
    ("演習2", 84, 78, 9, 71.8, 98, 22),
    ("演習3", 84, 80, 4, 79.2, 100, 40),
]


def make_xlsx() -> bytes:
    wb = Workbook()
    bold = Font(bold=True)
    head_fill = PatternFill("solid", fgColor="DDEBF7")
    cached: dict[tuple[str, str], float | str] = {}

    ws = wb.active
    ws.title = "課題集計"
    ws["A1"] = "NM-2310 数値計算法 2026 演習課題集計（TA 北條）"
    ws["A1"].font = Font(bold=True, size=13)
    ws.merge_cells("A1:H1")
    heads = ["課題", "受講者数", "提出数", "提出率", "遅延提出", "平均点", "最高点", "最低点"]
    for c, h in enumerate(heads, 1):
        cell = ws.cell(row=3, column=c, value=h)
        cell.font, cell.fill = bold, head_fill
    for r, (name, enrolled, sub, late, mean, mx, mn) in enumerate(ASSIGN, 4):
        ws.cell(row=r, column=1, value=name)
        ws.cell(row=r, column=2, value=enrolled)
        ws.cell(row=r, column=3, value=sub)
        ws.cell(row=r, column=4, value=f"=C{r}/B{r}").number_format = "0.0%"
        cached[("課題集計", f"D{r}")] = sub / enrolled
        ws.cell(row=r, column=5, value=late)
        ws.cell(row=r, column=6, value=mean).number_format = "0.0"
        ws.cell(row=r, column=7, value=mx)
        ws.cell(row=r, column=8, value=mn)
    ws["A8"] = "3課題平均"
    ws["A8"].font = bold
    ws["F8"] = "=AVERAGE(F4:F6)"
    ws["F8"].number_format = "0.0"
    cached[("課題集計", "F8")] = sum(a[4] for a in ASSIGN) / 3
    ws["E8"] = "=SUM(E4:E6)"
    cached[("課題集計", "E8")] = sum(a[3] for a in ASSIGN)
    ws["A10"] = (
        "※ 演習2の最低点 22 点は、ノートブックが途中のセルで止まっていたもの（再提出不可）。遅延提出は減点後の点数で集計。"
    )
    ws.column_dimensions["A"].width = 14

    ws2 = wb.create_sheet("収束次数の推定")
    ws2["A1"] = "演習1 参考解：f(x) = x^3 + 2x - 7、真の根 1.5689464030523823"
    ws2["A1"].font = bold
    for c, h in enumerate(
        ["k", "割線法 誤差 e_k", "推定次数 p", "", "k", "ニュートン 更新量", "比 d_k/d_{k-1}^2"], 1
    ):
        ws2.cell(row=3, column=c, value=h).font = bold
    for i, e in enumerate(SECANT_ERR):
        r = 4 + i
        ws2.cell(row=r, column=1, value=i + 1)
        ws2.cell(row=r, column=2, value=e).number_format = "0.00E+00"
        if i >= 2:
            ws2.cell(
                row=r, column=3, value=f"=LN(B{r}/B{r - 1})/LN(B{r - 1}/B{r - 2})"
            ).number_format = "0.000"
            cached[("収束次数の推定", f"C{r}")] = math.log(e / SECANT_ERR[i - 1]) / math.log(
                SECANT_ERR[i - 1] / SECANT_ERR[i - 2]
            )
    for i, d in enumerate(NEWTON_DX):
        r = 4 + i
        ws2.cell(row=r, column=5, value=i + 1)
        ws2.cell(row=r, column=6, value=d).number_format = "0.00E+00"
        if i >= 1:
            ws2.cell(row=r, column=7, value=f"=F{r}/F{r - 1}^2").number_format = "0.000"
            cached[("収束次数の推定", f"G{r}")] = d / NEWTON_DX[i - 1] ** 2
    ws2["A10"] = (
        "ニュートン法の比 d_k/d_{k-1}^2 はほぼ一定（理論値 |f''(α)/(2f'(α))| = 0.5015）になる。"
    )
    cached_note = abs(6 * 1.5689464030523823 / (2 * (3 * 1.5689464030523823**2 + 2)))
    assert f"{cached_note:.4f}" == "0.5015", cached_note

    ws3 = wb.create_sheet("SOR ω探索")
    ws3["A1"] = "tridiag(-1, 2, -1)、n = 20、tol = 1e-8 での反復回数"
    ws3["A1"].font = bold
    ws3["A3"], ws3["B3"] = "ω", "反復回数"
    ws3["A3"].font = ws3["B3"].font = bold
    for i, (w, k) in enumerate(SOR):
        ws3.cell(row=4 + i, column=1, value=w).number_format = "0.0"
        ws3.cell(row=4 + i, column=2, value=k)
    last = 3 + len(SOR)
    ws3["D3"] = "最小反復回数"
    ws3["E3"] = f"=MIN(B4:B{last})"
    cached[("SOR ω探索", "E3")] = min(k for _, k in SOR)
    ws3["D4"] = "そのときの ω"
    ws3["E4"] = f"=INDEX(A4:A{last},MATCH(E3,B4:B{last},0))"
    ws3["E4"].number_format = "0.0"
    cached[("SOR ω探索", "E4")] = min(SOR, key=lambda p: p[1])[0]
    ws3["D5"] = "GS 比の短縮率"
    ws3["E5"] = "=1-E3/B4"
    ws3["E5"].number_format = "0.0%"
    cached[("SOR ω探索", "E5")] = 1 - min(k for _, k in SOR) / SOR[0][1]
    ws3["D7"] = (
        "注：0.1 刻みの最良は 1.8。理論上の最適値 1.7406 を 1.74 に丸めると 86 回（第10回資料）。"
    )
    for col in "ADE":
        ws3.column_dimensions[col].width = 16
    ws3.freeze_panes = "A4"

    buf = io.BytesIO()
    wb.save(buf)
    sheet_files = {}

    def patch(name: str, body: bytes) -> bytes:
        if name == "docProps/core.xml":  # openpyxl stamps the save time; pin it
            text = re.sub(
                r"(<dcterms:(?:created|modified)[^>]*>)[^<]*",
                r"\g<1>2026-07-24T09:00:00Z",
                body.decode("utf-8"),
            )
            return text.encode("utf-8")
        m = re.fullmatch(r"xl/worksheets/sheet(\d+)\.xml", name)
        if not m:
            return body
        title = wb.sheetnames[int(m.group(1)) - 1]
        text = body.decode("utf-8")

        def add_value(match: re.Match) -> str:
            ref, formula = match.group(1), match.group(3)
            value = cached.get((title, ref))
            if value is None:
                return match.group(0)
            return f'<c r="{ref}"{match.group(2)}><f>{formula}</f><v>{value!r}</v></c>'

        text = re.sub(
            r'<c r="([A-Z]+\d+)"([^>]*)><f>([^<]*)</f><v\s*/?>(?:</v>)?</c>', add_value, text
        )
        sheet_files[title] = text.count("<f>")
        return text.encode("utf-8")

    data = _rezip(buf.getvalue(), patch)
    assert sum(sheet_files.values()) == len(cached), (sheet_files, len(cached))
    return data


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "05_iterative_methods_ja.docx").write_bytes(make_docx())
    (OUT / "06_least_squares_eigen_en.pptx").write_bytes(make_pptx())
    (OUT / "08_ta_results_ja.xlsx").write_bytes(make_xlsx())


if __name__ == "__main__":
    main()
