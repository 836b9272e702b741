"""Build the Office materials of the course_ds eval set from the hand-written content below.

    .venv/bin/python eval/course_ds/make_office.py      (from the repository root)

writes, under eval/course_ds/materials/:

- 04_ab_testing_ja.docx     - Lectures 9-10 notes written "the Google Docs way": every paragraph
                              is Normal, the section titles are bold 14 pt runs (no Heading
                              styles), a results table, a numbered list (numPr on Normal
                              paragraphs), three footnotes (footnotes.xml + footnoteReference)
- 03_visualisation_en.pptx  - Lecture 7 deck in English on blank slides: titles and bullets in
                              ordinary text boxes (no placeholders), a table, two text boxes side
                              by side, a Consolas code box, speaker notes
- 06_group_project_ja.xlsx  - sheet 1: the team table (A-E) and the milestone table (G-K) side by
                              side, separated by the empty column F, dates as date cells; sheet 2:
                              plain notes in column A

Core properties carry fixed dates and every ZIP entry gets a fixed timestamp, so two runs
write byte-identical files (python-docx 1.2.0, python-pptx 1.0.2, openpyxl 3.1.5).
"""

# ruff: noqa: E501  (the hand-written Japanese content: a wide character counts as two columns)

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import docx
import openpyxl
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Pt
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.writer.excel import ExcelWriter
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.util import Inches
from pptx.util import Pt as PptPt

OUT = Path(__file__).parent / "materials"
ZIP_TIME = (2026, 6, 1, 9, 0, 0)

# =====================================================================================
# 04: "Google Docs" Word notes, Lectures 9-10 (A/B testing)
# =====================================================================================
# (kind, content): title / meta / section (bold 14 pt Normal) / p / num (numbered item) /
# formula / table; "[^n]" inside a paragraph places footnote n there.
NOTES_TITLE = "A/B テストの設計と分析（第9・10回）"
NOTES: list[tuple[str, object]] = [
    ("title", NOTES_TITLE),
    ("meta", "DS-2140 データサイエンス基礎　講義ノート　葛西 剛　2026年6月16日・23日"),
    ("section", "1. A/B テストとは"),
    (
        "p",
        "A/B テストは、利用者をランダムに2つのグループに分け、一方（A：対照群）には今のままのものを、"
        "もう一方（B：実験群）には変更を加えたものを見せて、指標の差を比べる実験である。"
        "割り付けがランダムなので、2群の違いは「変更の有無」と「偶然」だけになる。だから差の原因を変更に求めることができる。",
    ),
    (
        "p",
        "観察データで「クーポンを使った人は注文額が多い」とわかっても、それは学食をもともとよく使う人ほどクーポンを使うからかもしれない。"
        "このように、原因と結果の両方に関係する第3の要因を交絡因子と呼ぶ。A/B テストはランダム化によって交絡を断ち切る。",
    ),
    ("section", "2. 実験を設計する手順"),
    ("p", "実験はデータを取る前に設計する。この授業では次の7つの手順を守る。"),
    (
        "num",
        "仮説を1文で書く（例：「クーポンをトップ画面に出すと、アプリからの注文率が上がる」）。",
    ),
    ("num", "主要指標（primary metric）を1つだけ決める。"),
    (
        "num",
        "ガードレール指標を決める。悪化してはいけない指標で、例えば1注文あたりの平均注文額やアプリのクラッシュ率。",
    ),
    (
        "num",
        "割り付けの単位を決める。この授業ではユーザー単位とする（ページビュー単位にすると、同じ人が A と B の両方を見てしまう）。",
    ),
    ("num", "有意水準、検出力、検出したい最小の差（MDE）から、必要なサンプルサイズを計算する。"),
    ("num", "実施期間を事前に決める。最低2週間、かつ7日の倍数。"),
    ("num", "結果を見る前に、分析の方法を文書に残しておく（事前登録）。"),
    (
        "p",
        "実施期間を7日の倍数にするのは、曜日によって利用者の行動が違うからである。学食アプリなら、月曜と金曜では注文の時間帯も件数も大きく異なる。",
    ),
    ("section", "3. 必要なサンプルサイズ"),
    (
        "p",
        "指標が割合（注文率、クリック率など）で、有意水準5%（両側）・検出力80%のとき、1群あたりの必要サンプルサイズは次の近似式で見積もれる。[^1]",
    ),
    ("formula", "n ≈ 16 × p × (1 − p) / δ²"),
    (
        "p",
        "p は対照群の割合（ベースライン）、δ は検出したい差（MDE）である。ベースラインが12%で、2ポイントの上昇を検出したいなら、"
        "n = 16 × 0.12 × 0.88 / 0.02² = 4,224 人が1群あたりに必要になる。検出したい差を半分の1ポイントにすると、必要な人数は4倍の16,896人になる。",
    ),
    (
        "p",
        "指標が平均注文額のような連続量なら、n ≈ 16 × σ² / δ² を使う。σ はその指標の標準偏差である。",
    ),
    ("section", "4. 事例：学食アプリ「みなとごはん」のクーポン表示"),
    (
        "p",
        "2025年11月10日（月）から11月23日（日）までの2週間、湊川学院大学生協の学食アプリ「みなとごはん」で、"
        "クーポンをトップ画面に表示する（B）か、これまでどおりメニュー画面の奥に置く（A）かの A/B テストが行われた。[^2]"
        "割り付けは、学籍番号のハッシュ値が偶数か奇数かで決めた。結果は次のとおりである。",
    ),
    (
        "table",
        [
            ["群", "クーポンの位置", "利用者数", "注文した人", "注文率", "平均注文額"],
            ["A（対照群）", "メニュー画面の奥", "2,400", "288", "12.0%", "583円"],
            ["B（実験群）", "トップ画面", "2,400", "324", "13.5%", "571円"],
        ],
    ),
    (
        "p",
        "注文率は B のほうが1.5ポイント高い。ガードレール指標の平均注文額は12円下がったが、事前に決めた許容範囲（30円の低下まで）の中に収まった。",
    ),
    ("section", "5. 2つの割合の差の検定"),
    (
        "p",
        "2群の割合の差は z 検定で調べる。まず2群を合わせた割合（プールした割合）p̂ を求め、次の式で z を計算する。",
    ),
    ("formula", "z = (p̂B − p̂A) / √( p̂ (1 − p̂) (1/nA + 1/nB) )"),
    (
        "p",
        "事例では p̂ = (288 + 324) / 4,800 = 0.1275、標準誤差は 0.00963、z = 0.015 / 0.00963 = 1.56 で、両側 p 値は 0.12 になる。"
        "有意水準5%では「差がある」とは言えない。",
    ),
    (
        "p",
        "差の95%信頼区間は −0.39 ～ 3.39 ポイントで、0 を含む。ただし、これは「効果がない」ことの証明ではない。"
        "1群2,400人で検出できる最小の差はおよそ2.7ポイントで、1.5ポイントの効果は見逃されやすい。この実験は検出力不足だった。"
        "生協には、期間を延ばして1群4,224人以上で再実験することを提案した。",
    ),
    ("p", "Python では statsmodels の proportions_ztest を使うと、同じ z と p 値が得られる。"),
    ("formula", "proportions_ztest(count=[324, 288], nobs=[2400, 2400])"),
    ("section", "6. よくある落とし穴"),
    (
        "p",
        "のぞき見（peeking）：毎日 p 値を確かめて、0.05 を下回った日に実験を止めると、第1種の過誤の確率は5%よりずっと大きくなる。"
        "期間とサンプルサイズは事前に決め、途中で止めない。",
    ),
    (
        "p",
        "サンプル比率のずれ（SRM）：50:50 で割り付けたはずなのに人数が大きくずれていたら、割り付けかログに不具合がある。"
        "カイ二乗適合度検定で p < 0.001 なら、その実験の結果は使わない。[^3]",
    ),
    (
        "p",
        "新奇性効果：新しい画面は物珍しさで最初だけよく使われる。始めの数日の数字だけで判断しない。",
    ),
    (
        "p",
        "多重比較：効果がなくても、指標を10個見ればどれか1つが有意になる確率は約40%（1 − 0.95^10 ≈ 0.40）になる。"
        "主要指標は1つに絞り、複数の指標を検定するときは Bonferroni 補正（有意水準を指標の数 m で割る）を使う。",
    ),
    ("p", "干渉：友人どうしでクーポンを教え合うと、A 群にも効果が漏れて差が小さく見える。"),
    ("section", "7. 演習4（A/B テストの分析）"),
    (
        "p",
        "配布データ ab_reminder_2025.csv は、Umineko LMS の課題リマインダーメールの件名を2種類で比べた実験の記録である（各群3,150人）。"
        "提出率の差を z 検定と95%信頼区間で分析し、結論を文章で書く。レポートは A4 で2ページ以内、締切は6月30日（火）23:59。",
    ),
    (
        "p",
        "評価の観点：仮説と指標の説明 20%、計算の正しさ 40%、結論の書き方 40%（「有意でない」を「効果がない」と書いていないか）。",
    ),
]
FOOTNOTES = {
    1: "係数16は 2 × (1.96 + 0.84)² ≈ 15.7 を切り上げたもの。1.96 は両側5%、0.84 は検出力80%に対応する標準正規分布の値である。",
    2: "データは生協から授業用に提供されたもので、ユーザー ID は仮名化されている。扱い方は第13回「データ倫理とプライバシー」の資料を参照。",
    3: "この事例は2,400人対2,400人なので SRM の問題はない。2024年度の別の実験では2,611人対2,189人となり、アプリの旧バージョンで B 群のログが欠けていたことが後でわかった。",
}

FOOTNOTES_XML = (
    f"<w:footnotes {nsdecls('w')}>"
    '<w:footnote w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
    "<w:r><w:separator/></w:r></w:p></w:footnote>"
    '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
    "<w:r><w:continuationSeparator/></w:r></w:p></w:footnote>"
    "{notes}</w:footnotes>"
)
FOOTNOTE_XML = (
    '<w:footnote w:id="{n}"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
    '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r>'
    '<w:r><w:rPr><w:sz w:val="20"/></w:rPr><w:t xml:space="preserve"> {text}</w:t></w:r></w:p></w:footnote>'
)


def _numbering(document) -> int:
    """Add a decimal list ("1." "2." ...) to numbering.xml, as Google Docs writes it; its numId."""
    numbering = document.part.numbering_part.element
    abstract = parse_xml(
        f'<w:abstractNum {nsdecls("w")} w:abstractNumId="90"><w:multiLevelType w:val="hybridMultilevel"/>'
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/>'
        '<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>'
    )
    numbering.insert(0, abstract)
    numbering.append(
        parse_xml(f'<w:num {nsdecls("w")} w:numId="7"><w:abstractNumId w:val="90"/></w:num>')
    )
    return 7


def _footnote_reference(paragraph, n: int) -> None:
    run = paragraph.add_run()
    run._r.append(parse_xml(f'<w:rPr {nsdecls("w")}><w:vertAlign w:val="superscript"/></w:rPr>'))
    run._r.append(parse_xml(f'<w:footnoteReference {nsdecls("w")} w:id="{n}"/>'))


def _add_text(paragraph, text: str, size: float = 11, bold: bool = False) -> None:
    """Add text to a paragraph, turning "[^n]" markers into footnote references."""
    while text:
        head, marker, rest = text.partition("[^")
        if head:
            run = paragraph.add_run(head)
            run.font.size, run.font.bold = Pt(size), bold or None
        if not marker:
            break
        number, _, text = rest.partition("]")
        _footnote_reference(paragraph, int(number))


def build_notes(path: Path) -> None:
    document = docx.Document()
    normal = document.styles["Normal"]
    normal.font.name, normal.font.size = "Arial", Pt(11)
    normal.element.rPr.rFonts.set(qn("w:eastAsia"), "Noto Sans JP")
    num_id = _numbering(document)
    for kind, content in NOTES:
        if kind == "table":
            rows = content
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = document.styles["Table Grid"]
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    cell = table.cell(r, c)
                    cell.text = ""
                    run = cell.paragraphs[0].add_run(value)
                    run.font.size, run.font.bold = Pt(10), (r == 0) or None
            document.add_paragraph()
            continue
        paragraph = document.add_paragraph()
        if kind == "title":
            _add_text(paragraph, content, size=20, bold=True)
        elif kind == "meta":
            _add_text(paragraph, content, size=10)
        elif kind == "section":
            paragraph.paragraph_format.space_before = Pt(14)
            _add_text(paragraph, content, size=14, bold=True)
        elif kind == "formula":
            paragraph.paragraph_format.left_indent = Pt(36)
            run = paragraph.add_run(content)
            run.font.name, run.font.size = "Cambria Math", Pt(12)
        elif kind == "num":
            ppr = paragraph._p.get_or_add_pPr()
            ppr.append(
                parse_xml(
                    f'<w:numPr {nsdecls("w")}><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>'
                )
            )
            _add_text(paragraph, content)
        else:
            _add_text(paragraph, content)
    notes = "".join(FOOTNOTE_XML.format(n=n, text=text) for n, text in FOOTNOTES.items())
    part = Part(
        PackURI("/word/footnotes.xml"),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
        FOOTNOTES_XML.format(notes=notes).encode("utf-8"),
        document.part.package,
    )
    document.part.relate_to(part, RT.FOOTNOTES)
    props = document.core_properties
    props.title, props.author, props.last_modified_by = NOTES_TITLE, "葛西 剛", "葛西 剛"
    props.created = props.modified = dt.datetime(2026, 6, 15, 22, 10, 0)
    props.revision = 1
    _save_normalised(document.save, path)


# =====================================================================================
# 03: PowerPoint, Lecture 7 (data visualisation), text boxes on blank slides
# =====================================================================================
DECK_TITLE = "Data Visualisation"
SLIDES: list[dict] = [
    {
        "title": "Data Visualisation",
        "body": [
            "Lecture 7  ·  DS-2140 Data Science Foundations",
            "Dr Hannah Whitfield  ·  2 June 2026  ·  Room B-204",
        ],
        "notes": "Bring your laptop: the last 30 minutes are a hands-on exercise on Shiosai Hub. "
        "Remind them that Lab 3 (exploratory analysis) is next week, 9 June, in PC Room 2.",
    },
    {
        "title": "Why draw before you compute",
        "body": [
            "Anscombe's quartet: four small data sets of 11 points each",
            "Almost the same summary statistics in all four:",
            "- mean of x = 9, mean of y ≈ 7.50",
            "- correlation r ≈ 0.816",
            "- fitted line y ≈ 3.00 + 0.500 x",
            "Yet the scatter plots look nothing alike: a line with noise, a curve, a line with one outlier, and a vertical stack with one far point",
        ],
        "notes": "Ask the class which of the four plots the summary statistics describe; the answer is all of them. "
        "The lesson for the project: every number you report must come with a plot of the data behind it.",
    },
    {
        "title": "Choosing a chart",
        "table": [
            ["Your question", "Use", "Avoid"],
            [
                "Compare amounts across categories",
                "Bar chart (horizontal if labels are long)",
                "3D bars",
            ],
            ["Show change over time", "Line chart", "Pie charts per year"],
            [
                "Show the distribution of one variable",
                "Histogram or box plot",
                "Bar chart of the mean only",
            ],
            [
                "Show the relation of two numeric variables",
                "Scatter plot",
                "Line chart over unsorted x",
            ],
            [
                "Show parts of a whole",
                "Stacked bar; pie only with ≤ 4 slices",
                "Donut with 10 slices",
            ],
        ],
        "notes": "If a chart needs more than a sentence of explanation, it is probably the wrong chart. "
        "For the project, line charts are allowed only when the x-axis is time or another ordered variable.",
    },
    {
        "title": "Honest axes",
        "body": [
            "Bar charts start at zero: the length of the bar is the value",
            "Line charts may start elsewhere, but label the axis clearly",
            "Avoid two y-axes: with two scales you can draw any relation you like",
            'Log scale? Write "(log scale)" in the axis label',
            "Small multiples share the same y scale (sharey=True)",
        ],
        "notes": "From last year's poster session: a bar chart whose axis started at 90% made a 2-point difference look like a doubling. "
        "6 of the 31 posters had a truncated bar axis, and each lost 2 points under the figure criterion of the rubric.",
    },
    {
        "title": "Colour",
        "body": [
            "Use a colour-blind-safe palette; the course default is Okabe–Ito",
            "At most 6 distinct colours in one chart",
            "Colour should carry meaning, not decoration",
            "Never rely on red versus green alone: add shapes or direct labels",
            "Sequential values: one-hue ramp or viridis; diverging values: two hues around a meaningful midpoint",
        ],
        "notes": "The Okabe–Ito palette has eight colours including black; we use the first six. "
        "Last year 9 of 31 posters separated groups only by red and green.",
    },
    {
        "title": "Histogram or box plot?",
        "columns": [
            (
                "Histogram",
                [
                    "Shows the shape: skew, gaps, several peaks",
                    "The bin width changes the story, so try several",
                    "Lab default: bins=20",
                ],
            ),
            (
                "Box plot",
                [
                    "Box from Q1 to Q3, line at the median",
                    "Whiskers reach the furthest point within 1.5 × IQR",
                    "Points beyond the whiskers are drawn one by one as outliers",
                    "Good for comparing many groups side by side",
                ],
            ),
        ],
        "notes": "A box plot hides a bimodal distribution completely. When in doubt, overlay the points (a strip plot) on the box.",
    },
    {
        "title": "Too many points: overplotting",
        "body": [
            "With tens of thousands of points a scatter plot turns into a solid blob",
            "Make points transparent (alpha=0.1) and smaller (s=4)",
            "Or bin them in two dimensions: ax.hexbin(x, y, gridsize=40)",
            "Or plot a random sample of 2,000 points, and say so in the caption",
        ],
        "notes": "The cleaned trip table of Lab 3 has 47,127 rows; hexbin with gridsize=40 gives a readable picture in about a second on Shiosai Hub.",
    },
    {
        "title": "Anatomy of a good figure",
        "body": [
            'A title that states the finding ("Trips rise with temperature"), not just the variable names',
            "Axis labels with units",
            "A caption with the data source, the period and n",
            "A legend only when direct labels do not fit",
            "Figures numbered (Figure 1, Figure 2, …) and referred to in the text",
        ],
    },
    {
        "title": "A matplotlib template",
        "code": [
            "import matplotlib.pyplot as plt",
            "",
            "fig, ax = plt.subplots(figsize=(8, 4.5))",
            'ax.scatter(daily["temp_max"], daily["trips"], s=12, color="#0072B2")',
            'ax.set_xlabel("Daily maximum temperature (°C)")',
            'ax.set_ylabel("Trips per day")',
            'ax.set_title("Bike-share trips rise with temperature")',
            'fig.savefig("fig1.png", dpi=200, bbox_inches="tight")',
        ],
        "notes": "#0072B2 is the blue of the Okabe–Ito palette. Save figures for posters at dpi=200 or more; screenshots of figures are not accepted.",
    },
    {
        "title": "Common mistakes and fixes",
        "columns": [
            (
                "Misleading",
                [
                    "3D pie chart with 9 slices",
                    "Bar axis that starts at 90%",
                    "Rainbow colour map",
                    "Two y-axes in one panel",
                ],
            ),
            (
                "Better",
                [
                    "Sorted horizontal bar chart",
                    "Start at zero, or plot the difference itself",
                    "viridis",
                    "Two panels that share the x-axis",
                ],
            ),
        ],
    },
    {
        "title": "Reading a chart critically",
        "body": [
            "What is on each axis, and where does each axis start?",
            "What are the units, the period and the n?",
            "Has something been left out: years, groups, the denominator?",
            "Would a different chart of the same data tell a different story?",
        ],
        "notes": "Use these four questions in the peer review of the mid-term presentations on 21 July.",
    },
    {
        "title": "Poster rules for the group project",
        "body": [
            "Size A1, portrait",
            "Body text at least 24 pt, titles at least 48 pt",
            "At most 5 figures, each numbered and captioned",
            "Print at the Print Centre (Building A, 1F) by 21 July 17:00",
            "One free print per team; reprints are paid by the team",
        ],
        "notes": "The final poster session is on 28 July in the atrium of Building B, 13:00–14:30. "
        "Each team presents for 6 minutes and answers questions for 3 minutes.",
    },
    {
        "title": "Exercise (last 30 minutes)",
        "body": [
            "Open lab_viz.ipynb on Shiosai Hub",
            "Redraw the three misleading charts in it",
            "Upload the notebook to Umineko LMS by 9 June 23:59",
            "It counts as Quiz 7",
        ],
        "notes": "TA Rahul Mehta checks the notebooks. Two of the three charts redrawn correctly already gives full marks.",
    },
]


def _text_box(slide, left, top, width, height, lines, size, bold_first=False, font=None):
    box = slide.shapes.add_textbox(Inches(left), Inches(top), Inches(width), Inches(height))
    frame = box.text_frame
    frame.word_wrap = True
    for n, line in enumerate(lines):
        paragraph = frame.paragraphs[0] if n == 0 else frame.add_paragraph()
        level = 1 if line.startswith("- ") else 0
        paragraph.text = line[2:] if level else line
        paragraph.level = level
        paragraph.font.size = PptPt(size - 3 * level)
        if font:
            paragraph.font.name = font
        if bold_first and n == 0:
            paragraph.font.bold = True
    return box


def build_deck(path: Path) -> None:
    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(13.333), Inches(7.5)
    blank = deck.slide_layouts[6]
    for number, spec in enumerate(SLIDES, 1):
        slide = deck.slides.add_slide(blank)
        if number == 1:
            title = _text_box(slide, 0.9, 2.4, 11.5, 1.4, [spec["title"]], 54, bold_first=True)
            title.text_frame.paragraphs[0].font.color.rgb = RGBColor(0x00, 0x54, 0x93)
            _text_box(slide, 0.9, 4.0, 11.5, 1.6, spec["body"], 24)
        else:
            title = _text_box(slide, 0.6, 0.4, 12.1, 1.0, [spec["title"]], 36, bold_first=True)
            title.text_frame.paragraphs[0].font.color.rgb = RGBColor(0x00, 0x54, 0x93)
            if "body" in spec:
                lines = [line if line.startswith("- ") else "• " + line for line in spec["body"]]
                _text_box(slide, 0.8, 1.6, 11.8, 5.3, lines, 24)
            if "table" in spec:
                rows = spec["table"]
                frame = slide.shapes.add_table(
                    len(rows),
                    len(rows[0]),
                    Inches(0.6),
                    Inches(1.6),
                    Inches(12.1),
                    Inches(0.7) * len(rows),
                )
                for r, row in enumerate(rows):
                    for c, value in enumerate(row):
                        frame.table.cell(r, c).text = value
                        frame.table.cell(r, c).text_frame.paragraphs[0].font.size = PptPt(18)
            if "columns" in spec:
                for n, (heading, lines) in enumerate(spec["columns"]):
                    _text_box(
                        slide,
                        0.8 + 6.1 * n,
                        1.7,
                        5.8,
                        4.8,
                        [heading] + ["• " + x for x in lines],
                        22,
                        bold_first=True,
                    )
            if "code" in spec:
                _text_box(slide, 0.8, 1.6, 11.8, 5.0, spec["code"], 18, font="Consolas")
            _text_box(slide, 11.6, 6.9, 1.4, 0.4, [str(number)], 12)  # slide number as a text box
        if "notes" in spec:
            slide.notes_slide.notes_text_frame.text = spec["notes"]
    props = deck.core_properties
    props.title, props.author, props.last_modified_by = (
        DECK_TITLE,
        "Hannah Whitfield",
        "Hannah Whitfield",
    )
    props.created = props.modified = dt.datetime(2026, 6, 1, 20, 15, 0)
    props.revision = 5
    _save_normalised(deck.save, path)


# =====================================================================================
# 06: workbook - group project teams and milestones side by side, plus a notes sheet
# =====================================================================================
TEAM_HEADER = ["チーム", "テーマ", "使用データ", "担当TA", "人数"]
TEAM_ROWS = [
    ["T1", "学食の混雑予測", "湊川カフェ POS データ 2025", "今井 ののか", 5],
    ["T2", "雨の日のシェアサイクル", "Minato Bike trips 2025", "Rahul Mehta", 6],
    ["T3", "図書館の利用時間帯", "図書館入館ログ（仮名化済み）", "今井 ののか", 5],
    ["T4", "リマインダーメールの件名と提出率", "LMS 通知ログ（集計済み）", "今井 ののか", 5],
    ["T5", "気温とアイスドリンクの売上", "湊川カフェ POS データ 2025", "Rahul Mehta", 5],
    ["T6", "Course choices of exchange students", "履修データ（集計済み）", "Rahul Mehta", 6],
    ["T7", "ステーションの配置と空車", "Minato Bike trips 2025", "今井 ののか", 5],
    [
        "T8",
        "講義動画の視聴と小テストの得点",
        "Umineko LMS 視聴ログ（仮名化済み）",
        "Rahul Mehta",
        5,
    ],
    ["合計", None, None, None, 42],
]
MILESTONE_HEADER = ["マイルストーン", "締切", "時刻", "提出物", "配点"]
MILESTONE_ROWS = [
    ["M1 テーマとデータの申請", dt.datetime(2026, 6, 9), "23:59", "申請書（A4 1枚）", 5],
    [
        "M2 データ倫理チェックリスト",
        dt.datetime(2026, 6, 23),
        "23:59",
        "チェックリスト（全12項目）",
        5,
    ],
    ["M3 中間発表", dt.datetime(2026, 7, 21), "13:00", "スライド5枚以内・発表5分", 10],
    ["M4 最終ポスター発表", dt.datetime(2026, 7, 28), "13:00", "A1ポスターと分析ノートブック", 15],
    ["合計", None, None, None, 35],
]
RUBRIC_HEADER = ["観点", "配点", "満点の目安"]
RUBRIC_ROWS = [
    ["問いの明確さ", 3, "問いが1文で書かれ、誰にとって役に立つかが説明されている"],
    ["データと前処理", 3, "データの出どころ、期間、件数、除外した行とその理由が書かれている"],
    [
        "分析の妥当性",
        4,
        "問いに合った方法を使い、推定には95%信頼区間を付けている。相関と因果を区別している",
    ],
    [
        "図の質",
        3,
        "第7回のチェックリストを満たす（結論を述べるタイトル、単位つきの軸ラベル、出典と n のキャプション）",
    ],
    ["結論と限界", 2, "結論がデータで支えられ、分析の限界と次に調べることが書かれている"],
    ["合計", 15, "M4 の配点。質疑応答の内容は「分析の妥当性」に含めて評価する"],
]
PROJECT_NOTES = [
    "グループプロジェクトの進め方（担当：葛西 剛）",
    "",
    "・チーム分けは5月26日に Umineko LMS で発表済み。1チーム5～6人、全8チーム42人。",
    "・プロジェクトの点数（35点）はチームで共通。ただし相互評価で、貢献度がチーム平均の60%未満とされたメンバーはチーム点の半分とする。",
    "・相互評価は最終発表の翌日、7月29日（水）17:00 までに Umineko LMS のアンケートで行う。",
    "・使うデータは「使用データ」の列のものに限る。ほかのデータを使いたいときは M1 の申請書に書き、小野寺先生の許可を得ること。",
    "・図書館入館ログと LMS 視聴ログは仮名化済みデータで、Shiosai Hub の /shared/ds2140/restricted/ からだけ読める。ダウンロードは禁止。",
    "・T6 は発表もポスターも英語で行う。ほかのチームも英語で発表してよい（加点はない）。",
    "・中間発表の順番は当日のくじ引きで決める。",
    "・ノートブックは「上から順にすべて実行して同じ結果が出る」状態で提出すること（Restart & Run All で確認）。",
    "・相談窓口：葛西（水曜5限、C-410）、TA 今井（月曜4限、情報演習室2）、TA Mehta（木曜昼休み、C-514）",
]


def build_workbook(path: Path) -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "チームと締切"
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="DDEBF7")
    for c, value in enumerate(TEAM_HEADER, 1):
        cell = sheet.cell(row=1, column=c, value=value)
        cell.font, cell.fill = bold, fill
    for r, row in enumerate(TEAM_ROWS, 2):
        for c, value in enumerate(row, 1):
            sheet.cell(row=r, column=c, value=value)
    for c, value in enumerate(MILESTONE_HEADER, 7):  # column F stays empty
        cell = sheet.cell(row=1, column=c, value=value)
        cell.font, cell.fill = bold, PatternFill("solid", fgColor="FCE4D6")
    for r, row in enumerate(MILESTONE_ROWS, 2):
        for c, value in enumerate(row, 7):
            cell = sheet.cell(row=r, column=c, value=value)
            if isinstance(value, dt.datetime):
                cell.number_format = 'm"月"d"日"'
    for row in (len(TEAM_ROWS) + 1,):
        for c in range(1, 6):
            sheet.cell(row=row, column=c).font = bold
    for c in range(7, 12):
        sheet.cell(row=len(MILESTONE_ROWS) + 1, column=c).font = bold
    for column, width in zip("ABCDEFGHIJK", (7, 30, 32, 14, 6, 3, 28, 10, 8, 28, 6), strict=True):
        sheet.column_dimensions[column].width = width
    sheet["E2"].alignment = Alignment(horizontal="right")

    rubric = workbook.create_sheet("ポスター評価基準")
    rubric.append(RUBRIC_HEADER)
    for cell in rubric[1]:
        cell.font, cell.fill = bold, PatternFill("solid", fgColor="E2EFDA")
    for row in RUBRIC_ROWS:
        rubric.append(row)
    for column, width in zip("ABC", (26, 6, 90), strict=True):
        rubric.column_dimensions[column].width = width

    notes = workbook.create_sheet("メモ")
    for line in PROJECT_NOTES:
        notes.append([line or None])
    notes["A1"].font = Font(bold=True, size=13)
    notes.column_dimensions["A"].width = 120

    props = workbook.properties
    props.title, props.creator, props.lastModifiedBy = (
        "DS-2140 グループプロジェクト",
        "葛西 剛",
        "今井 ののか",
    )
    props.created = props.modified = dt.datetime(2026, 5, 26, 18, 0, 0)

    def save(target) -> None:
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            ExcelWriter(workbook, archive).save()

    _save_normalised(save, path)


# =====================================================================================


def _save_normalised(save, path: Path) -> None:
    """Save through ``save(file)``, then rewrite the ZIP with fixed entry timestamps."""
    buffer = io.BytesIO()
    save(buffer)
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            entry = zipfile.ZipInfo(item.filename, date_time=ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            out.writestr(entry, source.read(item.filename))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    build_deck(OUT / "03_visualisation_en.pptx")
    build_notes(OUT / "04_ab_testing_ja.docx")
    build_workbook(OUT / "06_group_project_ja.xlsx")
    for name in ("03_visualisation_en.pptx", "04_ab_testing_ja.docx", "06_group_project_ja.xlsx"):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
