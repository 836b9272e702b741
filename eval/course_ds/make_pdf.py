"""Build the two slide decks "exported as PDF" of the course_ds eval set.

    .venv/bin/python eval/course_ds/make_pdf.py      (from the repository root)

writes, under eval/course_ds/materials/:

- 01_statistics_slides_en.pdf - Lectures 3-4 (English-taught module), 15 landscape 16:9 pages,
                                one slide per page: a big title line, bullets (levels 0-1),
                                small tables, a formula box, the course name and "n / 15" in the
                                footer. DejaVu Sans (TrueType) for the Greek letters and the math
                                signs.
- 02_pandas_sql_slides_ja.pdf - Lectures 2, 5 and 6, 15 landscape pages in Japanese, the same
                                layout, code in Noto Sans Mono CJK JP, text in Noto Sans CJK JP.

The pages are the size PowerPoint uses when it saves a 13.33 x 7.5 inch deck as PDF. The Noto
CJK faces are CFF-flavoured; as in eval/course_se/make_pdf.py each face is subset to the deck's
characters and converted to TrueType outlines with fontTools before fpdf2 embeds it, so that the
PDF uses CIDFontType2 + /Identity-H and its text layer extracts. Creation dates are fixed, so two
runs write byte-identical files (fpdf2 2.8.9, fontTools 4.68.0).
"""

# ruff: noqa: E501  (the hand-written slide content: a wide character counts as two columns)

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable
from fpdf import FPDF
from fpdf.fonts import FontFace

OUT = Path(__file__).parent / "materials"
NOTO = Path("/usr/share/fonts/opentype/noto")
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
PAGE = (190.5, 338.67)  # 7.5 x 13.33 inch, in mm (height, width for fpdf's landscape tuple)

# A slide: {"title": str, "bullets": [(level, text)], "table": [[cells]], "code": [lines],
#           "box": str (a framed formula line)}
STATS_FOOTER = "DS-2140 Data Science Foundations  |  Lectures 3–4  |  H. Whitfield"
STATS_SLIDES: list[dict] = [
    {
        "title": "Statistics for Data Science",
        "subtitle": [
            "Lectures 3–4: describing data, sampling, confidence intervals and tests",
            "DS-2140 Data Science Foundations (English-taught module)",
            "Dr Hannah Whitfield  ·  28 April and 12 May 2026  ·  Room B-204",
        ],
    },
    {
        "title": "Plan for these two lectures",
        "bullets": [
            (0, "Lecture 3 (28 Apr): centre and spread, populations and samples"),
            (0, "Lecture 4 (12 May): standard error, confidence intervals, hypothesis tests"),
            (0, "Quiz 3 and Quiz 4 open on Umineko LMS right after class"),
            (1, "Each quiz closes on the Friday of the same week at 17:00"),
            (1, "You may answer in English or Japanese"),
            (0, "Lab 1 (descriptive statistics notebook) is due 19 May 23:59"),
            (0, "Questions in Japanese are welcome: TA Rahul Mehta speaks Japanese too"),
        ],
    },
    {
        "title": "Centre: mean, median, mode",
        "bullets": [
            (0, "Mean = sum of the values / n; one extreme value pulls it a long way"),
            (0, "Median = the middle value after sorting; robust to outliers"),
            (0, "Mode = the most frequent value; the only one that works for categories"),
            (0, "Course rule: report the median when the skewness is beyond ±1"),
            (0, "Nine Minato Café receipts (yen): 380, 420, 450, 450, 520, 560, 610, 640, 3,200"),
        ],
        "table": [
            ["Statistic", "All 9 receipts", "Without the 3,200 yen receipt"],
            ["Mean", "803.3 yen", "503.8 yen"],
            ["Median", "520 yen", "485 yen"],
            ["Mode", "450 yen", "450 yen"],
        ],
    },
    {
        "title": "Spread: variance, standard deviation, IQR",
        "box": "s² = Σ (xᵢ − x̄)² / (n − 1)          s = √s²",
        "bullets": [
            (
                0,
                "We divide by n − 1 because x̄ is itself estimated from the same data (Bessel's correction)",
            ),
            (0, "The standard deviation s has the same unit as the data (yen, minutes, trips)"),
            (0, "IQR = Q3 − Q1, the width of the middle 50% of the data"),
            (1, "Outlier flag: below Q1 − 1.5 × IQR or above Q3 + 1.5 × IQR"),
            (0, "Careful: pandas .std() uses ddof=1, but numpy.std() uses ddof=0 by default"),
        ],
    },
    {
        "title": "Population and sample",
        "table": [
            ["Quantity", "Population (parameter)", "Sample (statistic)"],
            ["Mean", "μ", "x̄"],
            ["Standard deviation", "σ", "s"],
            ["Proportion", "p", "p̂"],
            ["Size", "N", "n"],
        ],
        "bullets": [
            (
                0,
                "Sampling error: the gap between a statistic and its parameter that comes only from which units were drawn",
            ),
            (0, "Bias: a systematic gap that a larger sample does not fix"),
            (
                1,
                "Example: asking only students who queue at the 1st-floor café about waiting times",
            ),
        ],
    },
    {
        "title": "Standard error (SE)",
        "box": "SE(x̄) = s / √n          SE(p̂) = √( p̂ (1 − p̂) / n )",
        "bullets": [
            (0, "The SE measures how much the estimate would move between samples"),
            (0, "SE shrinks with √n: to halve the SE you need four times the sample"),
            (0, "SD describes the data; SE describes the uncertainty of an estimate"),
            (1, "Plots in your project must say whether error bars are SD, SE or 95% CI"),
        ],
    },
    {
        "title": "Central limit theorem",
        "bullets": [
            (
                0,
                "For large n the sampling distribution of x̄ is close to normal, whatever the shape of the data",
            ),
            (0, 'In this course "large" means n ≥ 30, unless the data are extremely skewed'),
            (0, "Lab demo: 2,000 samples of n = 40 from the skewed café receipts"),
            (1, "Mean of the 2,000 sample means: 802 yen"),
            (1, "SD of the 2,000 sample means: 74 yen, which is the standard error"),
            (1, "The histogram of the means is symmetric although the receipts are not"),
        ],
    },
    {
        "title": "Confidence interval for a mean",
        "box": "x̄ ± t* × s / √n          (df = n − 1)",
        "bullets": [
            (0, "95% is the default confidence level in DS-2140"),
            (
                0,
                "Meaning: if we repeated the sampling many times, about 95% of the intervals built this way would contain μ",
            ),
            (0, 'It is not "a 95% chance that μ lies in this particular interval"'),
        ],
        "table": [
            ["df", "9", "19", "29", "∞ (normal)"],
            ["t* for 95%", "2.262", "2.093", "2.045", "1.960"],
        ],
    },
    {
        "title": "Worked example: waiting time at Minato Café",
        "bullets": [
            (0, "Sample: n = 30 customers at the main-building café, 21 April 2026, 11:30–13:00"),
            (0, "x̄ = 4.2 min, s = 1.8 min"),
            (0, "SE = 1.8 / √30 = 0.329 min"),
            (0, "95% CI = 4.2 ± 2.045 × 0.329 = 4.2 ± 0.67 min"),
            (0, "→ the interval is 3.53 to 4.87 minutes"),
            (0, 'The café\'s target "under 5 minutes on average" is consistent with the data'),
        ],
    },
    {
        "title": "Hypothesis testing in five steps",
        "bullets": [
            (0, "1. State the null hypothesis H0 and the alternative H1"),
            (
                0,
                "2. Fix the significance level α before looking at the data (course default α = 0.05)",
            ),
            (0, "3. Compute the test statistic"),
            (0, "4. Find the p-value"),
            (0, "5. Decide, and write the conclusion in the words of the problem"),
            (1, '"Mean waiting time is below 5 minutes", not just "reject H0"'),
        ],
    },
    {
        "title": "One-sample t test",
        "box": "t = (x̄ − μ₀) / (s / √n)",
        "bullets": [
            (0, "Café example: H0: μ = 5 min, H1: μ ≠ 5 min"),
            (0, "t = (4.2 − 5) / 0.329 = −2.43, df = 29"),
            (0, "Two-sided p-value = 0.021 < 0.05, so we reject H0"),
            (0, "The 95% CI [3.53, 4.87] does not contain 5: the same conclusion"),
        ],
    },
    {
        "title": "Two kinds of error",
        "table": [
            ["Decision", "H0 is true", "H0 is false"],
            ["Reject H0", "Type I error (false positive), probability α", "Correct: power = 1 − β"],
            ["Do not reject H0", "Correct", "Type II error (false negative), probability β"],
        ],
        "bullets": [
            (0, "The power we plan for in DS-2140 is 0.8 (β = 0.2)"),
            (0, "Lowering α makes Type I errors rarer but Type II errors more common"),
        ],
    },
    {
        "title": "Comparing two groups: Welch's t test",
        "box": "t = (x̄₁ − x̄₂) / √( s₁²/n₁ + s₂²/n₂ )",
        "bullets": [
            (0, "Our default for two independent groups: it does not assume equal variances"),
            (0, "In Python: scipy.stats.ttest_ind(a, b, equal_var=False)"),
            (0, "Paired data (the same customers twice) need a paired t test instead"),
            (0, "Report the difference with its 95% CI, not only the p-value"),
        ],
    },
    {
        "title": "What a p-value is not",
        "bullets": [
            (0, "Not the probability that H0 is true"),
            (0, "Not the size or the importance of the effect"),
            (0, "p = 0.049 and p = 0.051 are practically the same evidence"),
            (0, 'With a huge n, a tiny and useless difference becomes "significant"'),
            (0, "So always give the effect size and a confidence interval next to p"),
        ],
    },
    {
        "title": "Summary and next steps",
        "bullets": [
            (0, "Describe: median and IQR for skewed data, mean and SD otherwise"),
            (0, "Estimate: statistic ± t* × SE"),
            (0, "Test: H0, α, statistic, p-value, conclusion in context"),
            (0, "Next English lecture: Data visualisation, 2 June (Lecture 7)"),
            (0, "Office hours: Wednesdays 12:20–13:00, Room C-512, or by e-mail"),
        ],
    },
]

SQL_FOOTER = "DS-2140 データサイエンス基礎　第2・5・6回　小野寺 美紀"
SQL_SLIDES: list[dict] = [
    {
        "title": "pandas と SQL によるデータ集計",
        "subtitle": [
            "第2回（4月21日）・第5回（5月19日）・第6回（5月26日）",
            "DS-2140 データサイエンス基礎",
            "小野寺 美紀（データサイエンス教育センター）",
        ],
    },
    {
        "title": "この3回で学ぶこと",
        "bullets": [
            (0, "第2回：pandas の DataFrame で表データを読む・選ぶ・集計する"),
            (0, "第5回：SQL の SELECT 文で同じ集計をデータベース側で行う"),
            (0, "第6回：表の結合（merge / JOIN）と、pandas と SQL の使い分け"),
            (0, "教材データ：湊川カフェ POS データ 2025（cafe_pos_2025.csv、18,240行）"),
            (1, "2025年10月～12月の3店舗の注文。1行が1回の注文"),
        ],
    },
    {
        "title": "DataFrame を読み込んで眺める",
        "code": [
            "import pandas as pd",
            'df = pd.read_csv("cafe_pos_2025.csv", parse_dates=["ordered_at"])',
            "df.head()      # 先頭5行",
            "df.info()      # 列の型と、欠損でない値の件数",
            "df.describe()  # 数値列の要約統計量",
        ],
        "bullets": [
            (0, "DataFrame は行ラベルと列名のついた表、Series はその1列"),
            (0, "describe() は count, mean, std, min, 25%, 50%, 75%, max の8つを出す"),
            (0, "まず shape（行数・列数）と型を確認してから分析を始める"),
        ],
    },
    {
        "title": "行と列の選び方",
        "table": [
            ["書き方", "意味"],
            ['df["amount"]', "1列を Series として取り出す"],
            ['df[["store", "amount"]]', "複数列を DataFrame として取り出す"],
            ['df.loc[10:20, "amount"]', "ラベルで指定（終わりの20を含む）"],
            ["df.iloc[0:5, 1:3]", "位置で指定（終わりの5と3を含まない）"],
            ['df[df["amount"] >= 500]', "条件に合う行だけを残す"],
        ],
        "bullets": [
            (0, "条件の組み合わせは & と | を使い、条件ごとに括弧で囲む（and / or は使えない）"),
        ],
    },
    {
        "title": "欠損値（NaN）の扱い",
        "bullets": [
            (0, "df.isna().sum() で列ごとの欠損数を数える"),
            (0, "dropna() で行を捨てる／fillna(値) で埋める"),
            (0, "POS データの member_id は31.6%が欠損：会員証を出さなかった購入"),
            (1, "欠損そのものが「非会員」という意味を持つので、埋めずにフラグ列を作る"),
            (0, "欠損をどう扱ったかは、レポートに必ず書くこと"),
        ],
    },
    {
        "title": "groupby：分割・適用・結合",
        "code": [
            'df.groupby("store")["amount"].agg(["count", "mean"])',
        ],
        "table": [
            ["store", "count", "mean（円）"],
            ["本館店", "9,812", "612"],
            ["図書館店", "5,240", "488"],
            ["工学部店", "3,188", "701"],
        ],
        "bullets": [
            (0, "as_index=False を付けると、store が普通の列として残る"),
        ],
    },
    {
        "title": "merge：2つの表を結合する",
        "code": [
            'items = pd.merge(order_items, products, on="product_id",',
            '                 how="left", validate="many_to_one")',
        ],
        "bullets": [
            (0, 'how="inner"：両方の表にキーがある行だけ（既定値）'),
            (0, 'how="left"：左の表の行はすべて残し、相手がなければ NaN'),
            (0, 'how="outer"：どちらか一方にでもある行をすべて残す'),
            (0, 'validate="many_to_one" で、右の表のキーの重複をエラーにできる'),
            (0, "結合後に行数が増えていたら、まずキーの重複を疑う"),
        ],
    },
    {
        "title": "SQL の基本形",
        "code": [
            "SELECT store_id,",
            "       COUNT(*)    AS n_orders,",
            "       AVG(amount) AS avg_amount",
            "FROM cafe.orders",
            "WHERE ordered_at >= '2025-11-01'",
            "GROUP BY store_id",
            "HAVING COUNT(*) >= 100",
            "ORDER BY avg_amount DESC;",
        ],
        "bullets": [
            (0, "キーワードは大文字、列名・表名は小文字で書くのがこの授業の書き方"),
        ],
    },
    {
        "title": "SQL が評価される順序",
        "table": [
            ["順番", "句", "すること"],
            ["1", "FROM / JOIN", "対象の表を決め、結合する"],
            ["2", "WHERE", "行を絞る（集計の前）"],
            ["3", "GROUP BY", "グループに分ける"],
            ["4", "HAVING", "グループを絞る（集計の後）"],
            ["5", "SELECT", "列を計算し、別名を付ける"],
            ["6", "ORDER BY", "並べ替える"],
            ["7", "LIMIT", "先頭から件数を制限する"],
        ],
        "bullets": [
            (0, "だから WHERE の中では SELECT で付けた別名（avg_amount など）は使えない"),
        ],
    },
    {
        "title": "JOIN の種類と NULL",
        "bullets": [
            (0, "INNER JOIN：両方に一致する行だけ"),
            (0, "LEFT JOIN：左の表の行をすべて残す。一致しなければ右の列は NULL"),
            (0, "NULL は「値がない」印。= NULL では比べられないので IS NULL を使う"),
            (0, "COUNT(*) は NULL の行も数えるが、COUNT(列) は NULL を数えない"),
            (0, "例：一度も注文のない商品を探す"),
        ],
        "code": [
            "SELECT p.product_name",
            "FROM cafe.products AS p",
            "LEFT JOIN cafe.order_items AS i ON i.product_id = p.product_id",
            "WHERE i.product_id IS NULL;",
        ],
    },
    {
        "title": "pandas と SQL の対応表",
        "table": [
            ["SQL", "pandas"],
            ["WHERE 条件", "df[条件] または df.query()"],
            ["GROUP BY", "groupby()"],
            ["HAVING", "集計結果に対する条件（filter）"],
            ["JOIN", "merge()"],
            ["ORDER BY x DESC", 'sort_values("x", ascending=False)'],
            ["LIMIT 10", "head(10)"],
            ["COUNT(DISTINCT x)", "nunique()"],
        ],
    },
    {
        "title": "pandas か SQL か",
        "bullets": [
            (0, "データが DB にあって大きい（数百万行以上）→ SQL で集計してから取り出す"),
            (0, "細かい前処理・可視化・統計の検定 → pandas"),
            (0, "pd.read_sql(query, conn) で SQL の結果を DataFrame として受け取れる"),
            (0, "迷ったら「データを動かさず、計算を DB に持っていく」"),
        ],
    },
    {
        "title": "演習用データベース dsdb",
        "bullets": [
            (0, "PostgreSQL 16、ホスト ds-db.minatogawa-u.example、ポート 5432"),
            (0, "データベース名 dsdb、スキーマ cafe（orders, order_items, products, stores）"),
            (0, "学内ネットワークか学内 VPN から接続する"),
            (0, "ユーザー名は学籍番号（小文字）。初期パスワードは Umineko LMS のお知らせを参照"),
            (0, "権限は読み取り専用。1つのクエリは30秒で打ち切られる（statement_timeout）"),
        ],
    },
    {
        "title": "演習2（SQL 集計）",
        "bullets": [
            (0, "課題：月別・店舗別の売上合計と注文件数を1つの SELECT 文で求める"),
            (0, "追加課題：一度も注文されなかった商品の一覧（LEFT JOIN を使う）"),
            (0, "提出物：SQL ファイル（.sql）と結果のスクリーンショット"),
            (0, "締切：6月2日（火）23:59、Umineko LMS に提出"),
            (0, "質問は TA の今井 ののかさん（月曜4限、情報演習室2）へ"),
        ],
    },
    {
        "title": "まとめ",
        "bullets": [
            (0, "pandas：読む（read_csv）→ 選ぶ（loc / iloc / 条件）→ 集計する（groupby）"),
            (0, "SQL：FROM → WHERE → GROUP BY → HAVING → SELECT → ORDER BY の順に評価される"),
            (0, "結合は merge / JOIN。結合の前後で行数を必ず確かめる"),
            (0, "次回（第7回、6月2日）は英語の回：Data visualisation"),
        ],
    },
]


def _all_text(slides: list[dict], footer: str) -> str:
    parts = [footer, "0123456789 / "]
    for slide in slides:
        parts.append(slide["title"])
        parts.extend(slide.get("subtitle", []))
        parts.extend(text for _, text in slide.get("bullets", []))
        parts.extend(cell for row in slide.get("table", []) for cell in row)
        parts.extend(slide.get("code", []))
        parts.append(slide.get("box", ""))
    return "".join(parts) + " •–"


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


class SlidePDF(FPDF):
    def __init__(self, footer: str, fonts: tuple[str, str], total: int):
        super().__init__(orientation="L", unit="mm", format=PAGE)
        self.footer_text, (self.sans, self.mono), self.total = footer, fonts, total
        self.set_auto_page_break(auto=False)
        self.set_margins(18, 12, 18)

    def footer(self) -> None:
        self.set_draw_color(0, 84, 147)
        self.set_line_width(0.4)
        self.line(18, self.h - 13, self.w - 18, self.h - 13)
        self.set_xy(18, self.h - 11.5)
        self.set_font(self.sans, "", 9)
        self.set_text_color(110, 110, 110)
        self.cell(200, 5, self.footer_text)
        self.set_xy(self.w - 58, self.h - 11.5)
        self.cell(40, 5, f"{self.page_no()} / {self.total}", align="R")
        self.set_text_color(0, 0, 0)


def _slide(pdf: SlidePDF, slide: dict) -> None:
    pdf.add_page()
    if "subtitle" in slide:  # title slide
        pdf.set_fill_color(0, 84, 147)
        pdf.rect(0, 0, pdf.w, 70, style="F")
        pdf.set_xy(24, 34)
        pdf.set_text_color(255, 255, 255)
        pdf.set_font(pdf.sans, "B", 36)
        pdf.cell(0, 16, slide["title"])
        pdf.set_text_color(0, 0, 0)
        pdf.set_xy(24, 90)
        for n, line in enumerate(slide["subtitle"]):
            pdf.set_font(pdf.sans, "B" if n == 0 else "", 20 if n == 0 else 16)
            pdf.set_x(24)
            pdf.cell(0, 12, line, new_x="LMARGIN", new_y="NEXT")
        return
    pdf.set_xy(18, 12)
    pdf.set_font(pdf.sans, "B", 28)
    pdf.set_text_color(0, 84, 147)
    pdf.cell(0, 16, slide["title"], new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    pdf.set_draw_color(0, 84, 147)
    pdf.set_line_width(0.8)
    pdf.line(18, 30, 120, 30)
    pdf.set_y(36)
    order = ["box", "code", "bullets", "table"]
    if slide.get("table_first"):
        order = ["table", "bullets"]
    elif (
        "table" in slide and "bullets" in slide and slide["table"][0][0] in ("Quantity", "Decision")
    ):
        order = ["table", "bullets"]
    for part in order:
        if part not in slide:
            continue
        if part == "box":
            pdf.set_font(pdf.sans, "", 20)
            pdf.set_fill_color(234, 242, 250)
            pdf.set_x(30)
            pdf.cell(pdf.w - 60, 16, slide["box"], border=1, fill=True, align="C")
            pdf.ln(22)
        elif part == "code":
            pdf.set_font(pdf.mono, "", 15)
            pdf.set_fill_color(243, 243, 243)
            for line in slide["code"]:
                pdf.set_x(24)
                pdf.cell(pdf.w - 48, 7.4, line, fill=True, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(5)
        elif part == "bullets":
            for level, text in slide["bullets"]:
                indent = 22 + 12 * level
                pdf.set_font(pdf.sans, "", 20 if level == 0 else 17)
                pdf.set_x(indent)
                pdf.cell(7, 10.5, "•" if level == 0 else "–")
                pdf.multi_cell(pdf.w - indent - 7 - 18, 10.5, text, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(1.2)
            pdf.ln(3)
        elif part == "table":
            pdf.set_font(pdf.sans, "", 15)
            heading = FontFace(emphasis="BOLD", color=(255, 255, 255), fill_color=(0, 84, 147))
            columns = len(slide["table"][0])
            width = min(pdf.w - 44, 70 * columns)
            with pdf.table(
                headings_style=heading,
                line_height=8.5,
                width=width,
                align="LEFT",
                padding=1.5,
            ) as table:
                for row in slide["table"]:
                    cells = table.row()
                    for value in row:
                        cells.cell(value)
            pdf.ln(4)
    if pdf.get_y() > pdf.h - 16:
        raise SystemExit(
            f"slide {pdf.page_no()} ({slide['title']}) overflows: y = {pdf.get_y():.1f}"
        )


def build_stats(path: Path) -> None:
    pdf = SlidePDF(STATS_FOOTER, ("DejaVu", "DejaVuMono"), len(STATS_SLIDES))
    pdf.add_font("DejaVu", "", DEJAVU / "DejaVuSans.ttf")
    pdf.add_font("DejaVu", "B", DEJAVU / "DejaVuSans-Bold.ttf")
    pdf.add_font("DejaVuMono", "", DEJAVU / "DejaVuSansMono.ttf")
    pdf.set_title("Statistics for Data Science (Lectures 3-4)")
    pdf.set_author("Hannah Whitfield")
    pdf.set_creator("PowerPoint")
    pdf.set_creation_date(dt.datetime(2026, 4, 27, 18, 5, tzinfo=dt.UTC))
    for slide in STATS_SLIDES:
        _slide(pdf, slide)
    path.write_bytes(bytes(pdf.output()))


def build_sql(path: Path) -> None:
    pdf = SlidePDF(SQL_FOOTER, ("NotoJP", "NotoMonoJP"), len(SQL_SLIDES))
    text = _all_text(SQL_SLIDES, SQL_FOOTER)
    faces = {
        ("NotoJP", ""): ("NotoSansCJK-Regular.ttc", 0),
        ("NotoJP", "B"): ("NotoSansCJK-Bold.ttc", 0),
        ("NotoMonoJP", ""): ("NotoSansCJK-Regular.ttc", 5),
    }
    with tempfile.TemporaryDirectory() as scratch:
        for n, ((family, style), (filename, number)) in enumerate(faces.items()):
            converted = Path(scratch) / f"face{n}.ttf"
            _truetype_subset(NOTO / filename, number, text, converted)
            pdf.add_font(family, style, converted)
        pdf.set_title("pandas と SQL によるデータ集計（第2・5・6回）")
        pdf.set_author("小野寺 美紀")
        pdf.set_creator("PowerPoint")
        pdf.set_creation_date(dt.datetime(2026, 4, 20, 9, 30, tzinfo=dt.UTC))
        for slide in SQL_SLIDES:
            _slide(pdf, slide)
        path.write_bytes(bytes(pdf.output()))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    build_stats(OUT / "01_statistics_slides_en.pdf")
    build_sql(OUT / "02_pandas_sql_slides_ja.pdf")
    for name in ("01_statistics_slides_en.pdf", "02_pandas_sql_slides_ja.pdf"):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
