"""Build the Office materials of course_hci from Python data.

- 04_heuristics_testing_en.pptx: Lectures 5-6 (Marsh), speaker notes, a grouped-shape
  diagram in the style of SmartArt, a line chart and two tables.
- 05_sus_prototyping_ja.docx: Lectures 9-10, shaped like a Google Docs "Download as .docx":
  a table of contents in a content control with links to `_heading=h.` bookmarks, two
  comments and one suggested edit (tracked insertion and deletion).
- 08_ta_results_ja.xlsx: TA Asano's workbook: two-row headers with merged cells, a
  pivot-like summary sheet, values only (computed here with NumPy).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Pt
from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.dml.color import RGBColor
from pptx.enum.chart import XL_CHART_TYPE, XL_LEGEND_POSITION
from pptx.enum.shapes import MSO_SHAPE
from pptx.util import Emu, Inches
from pptx.util import Pt as PPt

HERE = Path(__file__).resolve().parent
MATERIALS = HERE / "materials"
STAMP = dt.datetime(2026, 7, 10, 9, 0, 0)

# ---------------------------------------------------------------------------------------------
# PowerPoint: Lectures 5-6 (English)
# ---------------------------------------------------------------------------------------------

HEURISTICS = [
    "Visibility of system status",
    "Match between the system and the real world",
    "User control and freedom",
    "Consistency and standards",
    "Error prevention",
    "Recognition rather than recall",
    "Flexibility and efficiency of use",
    "Aesthetic and minimalist design",
    "Help users recognise, diagnose and recover from errors",
    "Help and documentation",
]

SLIDES = [
    {
        "layout": 0,
        "title": "Usability Heuristics, Human Error and Usability Testing",
        "subtitle": "HCI-2210 · Lectures 5–6 · 20 and 27 May 2026 · Dr. Elin Marsh",
        "notes": "Team project: register your team of 3–4 on Moodle. The registration form closes on 29 May (Fri) at noon; after that Priya assigns the remaining students to teams.",
    },
    {
        "title": "Ten usability heuristics (Nielsen)",
        "bullets": [f"H{i}  {h}" for i, h in enumerate(HEURISTICS, 1)],
        "notes": "I number them H1 to H10 and we will use these numbers in the project reports: every problem you list must name the heuristic it violates, e.g. 'H4 Consistency'. If a problem violates two, give the main one first.",
    },
    {
        "title": "Heuristic evaluation: procedure",
        "bullets": [
            "3–5 evaluators inspect the interface independently",
            "Two passes: first to get the feel of the flow, second to inspect each screen",
            "Each problem: where, which heuristic, why it is a problem, severity",
            "Only then merge the lists and agree on severities together",
            "An evaluation session usually takes 1–2 hours per evaluator",
        ],
        "notes": "Why independently? Because a single evaluator finds only about 35 % of the problems on average, and different evaluators find different problems. Merging after independent work is what makes the method pay off.",
    },
    {
        "title": "Severity ratings",
        "table": [
            ["Rating", "Meaning", "Action"],
            ["0", "Not a usability problem at all", "None"],
            ["1", "Cosmetic problem only", "Fix if time allows"],
            ["2", "Minor usability problem", "Low priority"],
            ["3", "Major usability problem", "High priority, fix before release"],
            ["4", "Usability catastrophe", "Must fix before release"],
        ],
        "notes": "Severity combines frequency, impact and persistence. In the project report, sort your problem list by severity, highest first.",
    },
    {
        "title": "Types of human error",
        "diagram": True,
        "notes": "This taxonomy follows James Reason. The key distinction for designers: slips and lapses happen when the intention is right but the execution goes wrong; mistakes happen when the intention itself is wrong. Violations are deliberate and we do not design against them in this course.",
    },
    {
        "title": "Slips, lapses and mistakes in interfaces",
        "table": [
            ["Type", "Example", "Design response"],
            [
                "Capture slip",
                "Typing last year's password out of habit",
                "Avoid similar start sequences",
            ],
            ["Mode error (slip)", "Typing with Caps Lock on", "Show the mode clearly; avoid modes"],
            [
                "Lapse",
                "Sending an e-mail without the attachment",
                "Reminders, checks before sending",
            ],
            [
                "Rule-based mistake",
                "Applying the right rule in the wrong situation",
                "Clear feedback about the situation",
            ],
            [
                "Knowledge-based mistake",
                "Wrong mental model of the system",
                "Visible system model, good conceptual design",
            ],
        ],
        "notes": "Confirmation dialogs are a weak defence against slips: people confirm out of habit. Prefer undo, which lets users recover after the slip, over asking 'Are you sure?' before it.",
    },
    {
        "title": "Planning a usability test",
        "bullets": [
            "Goal: what do we want to learn? (not 'is it usable?')",
            "Participants: representative of the personas; about 5 per iteration",
            "Tasks: realistic, with a clear end state; no hints in the wording",
            "Measures: task success, time on task, errors, SUS afterwards",
            "Roles: facilitator, note-taker, observers (silent)",
            "Pilot the whole session once with a classmate",
        ],
        "notes": "Recording in the usability lab S-210 uses LabCap 3.2 on the observation PC; it records the screen and the facilitator camera together. The Kestrel ET-60 eye tracker in the lab is not used in this course.",
    },
    {
        "title": "Think-aloud protocol",
        "bullets": [
            "Concurrent think-aloud: the participant talks while doing the task",
            "Retrospective think-aloud: talks afterwards while watching the recording",
            "Give a short warm-up task first (e.g. count the windows in your home)",
            "Neutral prompts only: 'Please keep talking', 'What are you looking for?'",
            "Never help, never explain the design, never say 'good'",
            "Concurrent talking slows people down, so do not compare its task times with silent sessions",
        ],
        "notes": "If a participant is silent for about 15 seconds, give the neutral prompt. In the lab we use the concurrent version because retrospective sessions take twice as long.",
    },
    {
        "title": "Measuring task success",
        "table": [
            ["Outcome", "Code", "Counts as"],
            ["Completed without help", "S", "Success"],
            ["Completed after one neutral prompt", "S*", "Success (note it)"],
            ["Completed with a hint about the design", "H", "Failure"],
            ["Gave up, or wrong end state", "F", "Failure"],
            ["Time limit reached", "T", "Failure; log the limit as the time"],
        ],
        "notes": "Set the time limit before the test, not afterwards. For the team project the limit is three times the time a team member needs for the task, rounded up to the next full minute.",
    },
    {
        "title": "Ethics and consent",
        "bullets": [
            "Test the design, not the person: say so at the start",
            "Written consent before recording (template on Moodle)",
            "Participants may stop at any time without giving a reason",
            "Store recordings only on the lab server, never on personal cloud drives",
            "Report participants by code (P01, P02 …), never by name",
        ],
        "notes": "Recordings from classmates are personal data. Our faculty's rule is that recordings made for teaching are deleted at the end of the term; the syllabus gives the date.",
    },
    {
        "title": "How many test users?",
        "chart": True,
        "notes": "The curve is 1 − (1 − L)^n with L = 0.31, the average share of problems one user reveals in the classic studies. With 5 users you find about 84 %; with 3 about 67 %. The point is not 'five is enough' but 'test with five, fix, and test again'.",
    },
    {
        "title": "Reporting test results",
        "bullets": [
            "Success rate per task (with the number of participants)",
            "Time on task: report the median as well as the mean, task times are skewed",
            "Top problems with severity and a short quote from the think-aloud",
            "SUS score: mean and median (see Lecture 9)",
            "Recommendations, each linked to a problem",
        ],
        "notes": "Next week is Lab 2 in S-210 on 3 June. The lab door opens with your student ID card, so bring it.",
    },
]


def add_diagram(slide) -> None:
    """A SmartArt-like hierarchy built from grouped shapes."""
    group = slide.shapes.add_group_shape()
    group.name = "Error taxonomy (grouped)"

    def box(text, left, top, width, fill):
        shape = group.shapes.add_shape(
            MSO_SHAPE.ROUNDED_RECTANGLE, Inches(left), Inches(top), Inches(width), Inches(0.7)
        )
        shape.fill.solid()
        shape.fill.fore_color.rgb = RGBColor.from_string(fill)
        shape.line.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
        tf = shape.text_frame
        tf.word_wrap = True
        tf.text = text
        for p in tf.paragraphs:
            for r in p.runs:
                r.font.size = PPt(14)
                r.font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
        return shape

    box("Unsafe acts", 3.9, 1.6, 2.2, "1A5FB4")
    box("Unintended actions", 1.2, 2.8, 3.0, "3584E4")
    box("Intended actions", 5.8, 2.8, 3.0, "3584E4")
    box("Slip: attention failure", 0.3, 4.1, 2.2, "62A0EA")
    box("Lapse: memory failure", 2.7, 4.1, 2.2, "62A0EA")
    box("Mistake: rule- or knowledge-based", 5.1, 4.1, 2.4, "62A0EA")
    box("Violation: deliberate", 7.7, 4.1, 2.0, "62A0EA")
    for x1, y1, x2, y2 in [
        (5.0, 2.3, 2.7, 2.8),
        (5.0, 2.3, 7.3, 2.8),
        (2.7, 3.5, 1.4, 4.1),
        (2.7, 3.5, 3.8, 4.1),
        (7.3, 3.5, 6.3, 4.1),
        (7.3, 3.5, 8.7, 4.1),
    ]:
        group.shapes.add_connector(1, Inches(x1), Inches(y1), Inches(x2), Inches(y2))


def add_chart(slide) -> None:
    users = list(range(1, 11))
    found = [round(1 - (1 - 0.31) ** n, 3) for n in users]
    data = CategoryChartData()
    data.categories = [str(n) for n in users]
    data.add_series("Share of problems found (L = 0.31)", found)
    frame = slide.shapes.add_chart(
        XL_CHART_TYPE.LINE_MARKERS, Inches(0.8), Inches(1.5), Inches(8.4), Inches(4.6), data
    )
    chart = frame.chart
    chart.has_legend = True
    chart.legend.position = XL_LEGEND_POSITION.BOTTOM
    chart.legend.include_in_layout = False
    chart.value_axis.maximum_scale = 1.0
    chart.value_axis.tick_labels.number_format = "0%"
    chart.value_axis.tick_labels.number_format_is_linked = False
    chart.category_axis.has_title = True
    chart.category_axis.axis_title.text_frame.text = "Number of test users"
    chart.has_title = True
    chart.chart_title.text_frame.text = "Problems found vs. number of users"


def add_table(slide, rows, top=1.5) -> None:
    shape = slide.shapes.add_table(
        len(rows), len(rows[0]), Inches(0.5), Inches(top), Inches(9.0), Inches(0.4 * len(rows))
    )
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            cell = shape.table.cell(r, c)
            cell.text = value
            for p in cell.text_frame.paragraphs:
                for run in p.runs:
                    run.font.size = PPt(13)


def build_pptx() -> None:
    prs = Presentation()
    prs.slide_width = Emu(9144000)
    prs.slide_height = Emu(6858000)
    for data in SLIDES:
        layout = prs.slide_layouts[data.get("layout", 5 if "bullets" not in data else 1)]
        slide = prs.slides.add_slide(layout)
        slide.shapes.title.text = data["title"]
        if "subtitle" in data:
            slide.placeholders[1].text = data["subtitle"]
        if "bullets" in data:
            body = slide.placeholders[1].text_frame
            body.text = data["bullets"][0]
            for item in data["bullets"][1:]:
                body.add_paragraph().text = item
            for p in body.paragraphs:
                for r in p.runs:
                    r.font.size = PPt(18 if len(data["bullets"]) > 6 else 20)
        if "table" in data:
            add_table(slide, data["table"])
        if data.get("diagram"):
            add_diagram(slide)
        if data.get("chart"):
            add_chart(slide)
        slide.notes_slide.notes_text_frame.text = data["notes"]
    prs.core_properties.author = "Elin Marsh"
    prs.core_properties.title = "Lectures 5-6: Heuristics, error, testing"
    prs.core_properties.created = STAMP
    prs.core_properties.modified = STAMP
    prs.core_properties.last_modified_by = "Elin Marsh"
    prs.save(MATERIALS / "04_heuristics_testing_en.pptx")


# ---------------------------------------------------------------------------------------------
# Word: Lectures 9-10 (Japanese), shaped like a Google Docs export
# ---------------------------------------------------------------------------------------------

SUS_ITEMS = [
    "このシステムをしばしば使いたいと思う",
    "このシステムは不必要に複雑だと思う",
    "このシステムは使いやすいと思う",
    "このシステムを使うには技術に詳しい人の助けが必要だと思う",
    "このシステムの機能はよくまとまっていると思う",
    "このシステムには一貫性のないところが多すぎると思う",
    "たいていの人はこのシステムの使い方をすぐ覚えると思う",
    "このシステムはとても扱いにくいと思う",
    "このシステムを使いこなせる自信がある",
    "このシステムを使い始める前に多くのことを学ぶ必要があった",
]
EXAMPLE = [4, 2, 5, 1, 4, 2, 4, 2, 5, 1]

HEADINGS = [
    ("h.3znysh7", "1. 質問紙調査の基本"),
    ("h.2et92p0", "2. SUS（System Usability Scale）"),
    ("h.tyjcwt", "3. そのほかの質問紙"),
    ("h.3dy6vkm", "4. プロトタイピング"),
    ("h.1t3h5sf", "5. 第10回の演習：ペーパープロトタイプ"),
]


def _run(text: str, **attrs) -> OxmlElement:
    r = OxmlElement("w:r")
    t = OxmlElement(attrs.get("tag", "w:t"))
    t.set(qn("xml:space"), "preserve")
    t.text = text
    r.append(t)
    return r


def add_toc(doc) -> None:
    """A Google Docs style TOC: a content control holding one linked paragraph per heading."""
    body = doc.element.body
    sdt = OxmlElement("w:sdt")
    pr = OxmlElement("w:sdtPr")
    part = OxmlElement("w:docPartObj")
    gallery = OxmlElement("w:docPartGallery")
    gallery.set(qn("w:val"), "Table of Contents")
    unique = OxmlElement("w:docPartUnique")
    part.append(gallery)
    part.append(unique)
    pr.append(part)
    sdt.append(pr)
    content = OxmlElement("w:sdtContent")
    for number, (anchor, text) in enumerate(HEADINGS):
        p = OxmlElement("w:p")
        if number == 0:
            begin = OxmlElement("w:r")
            fld = OxmlElement("w:fldChar")
            fld.set(qn("w:fldCharType"), "begin")
            begin.append(fld)
            p.append(begin)
            instr = OxmlElement("w:r")
            it = OxmlElement("w:instrText")
            it.set(qn("xml:space"), "preserve")
            it.text = ' TOC \\h \\u \\z \\t "Heading 1,1,"'
            instr.append(it)
            p.append(instr)
            sep = OxmlElement("w:r")
            fs = OxmlElement("w:fldChar")
            fs.set(qn("w:fldCharType"), "separate")
            sep.append(fs)
            p.append(sep)
        link = OxmlElement("w:hyperlink")
        link.set(qn("w:anchor"), "_heading=" + anchor)
        link.append(_run(text))
        tab = OxmlElement("w:r")
        tab.append(OxmlElement("w:tab"))
        link.append(tab)
        link.append(_run(str(number + 1 if number < 3 else number)))
        p.append(link)
        if number == len(HEADINGS) - 1:
            end = OxmlElement("w:r")
            fe = OxmlElement("w:fldChar")
            fe.set(qn("w:fldCharType"), "end")
            end.append(fe)
            p.append(end)
        content.append(p)
    sdt.append(content)
    body.insert(len(body) - 1, sdt)  # before the final w:sectPr, after the subtitle


def heading(doc, index: int) -> None:
    anchor, text = HEADINGS[index]
    p = doc.add_heading(text, level=1)
    start = OxmlElement("w:bookmarkStart")
    start.set(qn("w:id"), str(index))
    start.set(qn("w:name"), "_heading=" + anchor)
    end = OxmlElement("w:bookmarkEnd")
    end.set(qn("w:id"), str(index))
    p._p.insert(1, start)
    p._p.append(end)


def suggestion(paragraph, before: str, deleted: str, inserted: str, after: str) -> None:
    """A suggested edit as Google Docs exports it: a w:del run and a w:ins run."""
    paragraph.add_run(before)
    d = OxmlElement("w:del")
    d.set(qn("w:id"), "101")
    d.set(qn("w:author"), "浅野 蒼")
    d.set(qn("w:date"), "2026-06-15T10:12:00Z")
    d.append(_run(deleted, tag="w:delText"))
    paragraph._p.append(d)
    i = OxmlElement("w:ins")
    i.set(qn("w:id"), "102")
    i.set(qn("w:author"), "浅野 蒼")
    i.set(qn("w:date"), "2026-06-15T10:12:00Z")
    i.append(_run(inserted))
    paragraph._p.append(i)
    paragraph.add_run(after)


def table(doc, rows) -> None:
    t = doc.add_table(rows=len(rows), cols=len(rows[0]))
    t.style = "Table Grid"
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            t.cell(r, c).text = str(value)
            if r == 0:
                for run in t.cell(r, c).paragraphs[0].runs:
                    run.bold = True


def build_docx() -> None:
    doc = Document()
    doc.styles["Normal"].font.name = "Arial"
    doc.styles["Normal"].font.size = Pt(11)
    doc.add_paragraph("第9・10回　質問紙と SUS／プロトタイピング", style="Title")
    doc.add_paragraph(
        "HCI-2210 ヒューマンコンピュータインタラクション　配布資料（桐谷）", style="Subtitle"
    )
    add_toc(doc)

    heading(doc, 0)
    doc.add_paragraph(
        "ユーザテストでは、タスクの成功率や時間のような「行動の指標」と、ユーザ自身の評価である「主観的な指標」を組み合わせます。"
        "主観的な指標は質問紙で集めます。この授業で使う質問紙はすべてリッカート尺度（「全くそう思わない」〜「強くそう思う」）で答える形式です。"
    )
    doc.add_paragraph("質問紙を作るときの注意：", style="Normal")
    for text in [
        "一つの設問で一つのことだけを聞く（「速くて分かりやすい」は二つ）",
        "肯定文と否定文を交互に混ぜ、何も読まずに同じ列に丸を付ける回答を見分けられるようにする",
        "中立の選択肢（「どちらでもない」）を置くかどうかを決め、クラス内でそろえる",
        "質問紙はタスクの直後、記憶が新しいうちに答えてもらう",
    ]:
        doc.add_paragraph(text, style="List Bullet")

    heading(doc, 1)
    doc.add_paragraph(
        "SUS は 10 問の5段階評価（1＝全くそう思わない、5＝強くそう思う）で、システム全体の使いやすさを 0〜100 の1つの得点にまとめる質問紙です。"
        "短くて無料で使え、少ない人数でも比較的安定した値が出るので、授業のプロジェクトでも標準として使います。"
    )
    table(
        doc,
        [["番号", "項目（授業用の日本語訳）", "向き"]]
        + [[str(i), s, "肯定" if i % 2 else "否定"] for i, s in enumerate(SUS_ITEMS, 1)],
    )
    doc.add_heading("2.1 得点の計算", level=2)
    for text in [
        "奇数番目の項目（肯定文）：回答の値から 1 を引く",
        "偶数番目の項目（否定文）：5 から回答の値を引く",
        "10 問分を合計し（0〜40）、2.5 を掛けて 0〜100 にする",
    ]:
        doc.add_paragraph(text, style="List Number")
    f = doc.add_paragraph()
    f.alignment = WD_ALIGN_PARAGRAPH.CENTER
    r = f.add_run("SUS = 2.5 × { Σ(奇数項目の回答 − 1) + Σ(5 − 偶数項目の回答) }")
    r.italic = True
    odd = sum(EXAMPLE[i] - 1 for i in range(0, 10, 2))
    even = sum(5 - EXAMPLE[i] for i in range(1, 10, 2))
    doc.add_paragraph("例：参加者 P3 の回答")
    table(
        doc,
        [
            ["項目", *[str(i) for i in range(1, 11)]],
            ["回答", *[str(v) for v in EXAMPLE]],
            ["換算", *[str(v - 1 if i % 2 == 0 else 5 - v) for i, v in enumerate(EXAMPLE)]],
        ],
    )
    doc.add_paragraph(
        f"奇数項目の換算の合計は {odd}、偶数項目は {even}、合計 {odd + even}。よって SUS = {odd + even} × 2.5 = {(odd + even) * 2.5:.1f} 点です。"
    )
    p = doc.add_paragraph()
    run = p.add_run(
        "SUS の得点はパーセントではありません。多数の研究の平均はおよそ 68 点で、68 点を上回れば「平均より使いやすい」と読むのが出発点です。"
    )
    doc.add_comment(
        [run],
        text="演習3のレポートでは平均値と中央値の両方を書かせる、でよいですか？ → 桐谷：はい、両方書かせてください。",
        author="浅野 蒼",
        initials="AA",
    )
    s = doc.add_paragraph()
    suggestion(
        s,
        "SUS の回答にかかる時間は1人",
        "約1分",
        "約2分",
        "です。タスクが全部終わってから、まとめて1回だけ答えてもらいます（タスクごとには聞かない）。",
    )
    doc.add_paragraph("よくある計算ミス：", style="Normal")
    for text in [
        "偶数項目も「回答 − 1」で計算してしまう",
        "2.5 を掛け忘れて 0〜40 のまま報告する",
        "未回答の項目がある回答を、そのまま平均に入れてしまう（この授業では未回答に 3 を入れる）",
    ]:
        doc.add_paragraph(text, style="List Bullet")

    heading(doc, 2)
    table(
        doc,
        [
            ["質問紙", "測るもの", "項目数", "いつ使うか"],
            ["SUS", "システム全体の使いやすさ", "10", "テストの最後に1回"],
            ["SEQ", "1つのタスクの難しさ", "1（7段階）", "各タスクの直後"],
            [
                "NASA-TLX",
                "作業負荷（知的・身体的・時間的要求、達成度、努力、不満）",
                "6",
                "負荷の高い作業の後",
            ],
            ["UEQ", "実用面と快楽面の体験", "26", "製品比較のとき"],
        ],
    )
    p = doc.add_paragraph(
        "NASA-TLX は本来、6つの尺度の重みを一対比較で決めますが、この授業では重みを付けない「Raw TLX」（6尺度の単純平均）を使います。"
    )
    doc.add_comment(
        [p.runs[0]],
        text="Raw TLX の話は小テストの範囲外にしましょう。",
        author="桐谷 真央",
        initials="MK",
    )

    heading(doc, 3)
    doc.add_paragraph(
        "プロトタイプは「問いに答えるための道具」です。何を確かめたいかによって、作り込みの程度（忠実度、fidelity）を選びます。"
    )
    table(
        doc,
        [
            ["忠実度", "例", "作る時間", "確かめられること"],
            ["低（lo-fi）", "紙のスケッチ、付箋", "数分〜1時間", "画面の構成、タスクの流れ、用語"],
            ["中", "ワイヤーフレーム（灰色の箱と文字）", "数時間", "情報の配置、画面遷移"],
            [
                "高（hi-fi）",
                "Figma のクリックできるモック、実装の一部",
                "数日",
                "見た目、細かな操作感、作業時間",
            ],
        ],
    )
    doc.add_paragraph("そのほかの分け方：", style="Normal")
    for text in [
        "水平プロトタイプ：多くの機能を浅く（画面はあるが中身は動かない）。全体の構成を確かめる",
        "垂直プロトタイプ：1つの機能だけを深く、実際に動くところまで作る",
        "オズの魔法使い法（Wizard of Oz）：裏で人が操作してシステムが動いているように見せる。音声対話など作るのが高くつく機能の評価に使う",
    ]:
        doc.add_paragraph(text, style="List Bullet")
    doc.add_paragraph(
        "忠実度が高いほど良いわけではありません。見た目が完成していると、参加者は「もう決まったもの」と感じて、構成への根本的な指摘をしなくなります。初期には紙を使いましょう。"
    )

    heading(doc, 4)
    for text in [
        "4人1組。役割は「コンピュータ役」（紙の画面を差し替える）、進行役、記録係、ユーザ役（他チームから借りる）",
        "準備 40 分：A3 用紙、付箋、マーカーで主要3画面を作る",
        "テスト 15 分 × 2 回：ユーザ役を替えて2回行う",
        "振り返り 10 分：見つかった問題を付箋に書き、重大度 0〜4 を付ける",
    ]:
        doc.add_paragraph(text, style="List Number")
    doc.add_paragraph(
        "コンピュータ役は、ユーザ役の操作に対して黙って紙を差し替えるだけで、説明をしてはいけません。説明したくなった箇所が、そのまま設計の問題点です。"
    )

    sec = doc.sections[0]
    sec.header.paragraphs[0].text = "HCI-2210 配布資料 第9・10回"
    doc.core_properties.author = "桐谷 真央"
    doc.core_properties.title = "第9・10回 質問紙と SUS／プロトタイピング"
    doc.core_properties.created = STAMP
    doc.core_properties.modified = STAMP
    doc.save(MATERIALS / "05_sus_prototyping_gdocs_ja.docx")


# ---------------------------------------------------------------------------------------------
# Excel: TA Asano's results workbook (Japanese)
# ---------------------------------------------------------------------------------------------

DISTANCES = [128, 256, 512]
WIDTHS = [16, 32, 64]
# class means (ms) per condition, in the order D x W above
MOUSE_MT = [624, 503, 391, 782, 611, 498, 935, 771, 640]
PAD_MT = [1012, 823, 606, 1236, 1004, 792, 1487, 1219, 1003]
MOUSE_ERR = [0.061, 0.038, 0.021, 0.066, 0.042, 0.025, 0.071, 0.047, 0.029]
PAD_ERR = [0.083, 0.052, 0.030, 0.091, 0.058, 0.033, 0.102, 0.064, 0.037]

PILOT = [
    # id, UI, task1 s, task1 ok, task2 s, task2 ok, SUS
    ("P01", "旧UI", 94, "○", 45, "○", 55.0),
    ("P02", "新UI", 61, "○", 41, "○", 77.5),
    ("P03", "旧UI", 121, "○", 52, "○", 62.5),
    ("P04", "新UI", 58, "○", 39, "○", 85.0),
    ("P05", "旧UI", 88, "○", 60, "×", 47.5),
    ("P06", "新UI", 77, "○", 55, "×", 72.5),
    ("P07", "旧UI", 180, "×", 38, "○", 70.0),
    ("P08", "新UI", 66, "○", 47, "○", 80.0),
]

THIN = Side(style="thin", color="999999")
GRID = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
HEAD = PatternFill("solid", fgColor="DDEBF7")
CENTER = Alignment(horizontal="center", vertical="center", wrap_text=True)


def header_cell(ws, ref, value) -> None:
    ws[ref] = value
    ws[ref].font = Font(bold=True)
    ws[ref].fill = HEAD
    ws[ref].alignment = CENTER
    ws[ref].border = GRID


def build_xlsx() -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "演習2 Fitts"
    ws["A1"] = "演習2（6月3日）Fitts の法則　クラス集計（n = 46、練習試行を除く）"
    ws["A1"].font = Font(bold=True, size=13)
    ws.merge_cells("A1:I1")
    for ref, value in [("A3", "D (px)"), ("B3", "W (px)"), ("C3", "ID (bits)")]:
        header_cell(ws, ref, value)
        ws.merge_cells(f"{ref}:{ref[0]}4")
    header_cell(ws, "D3", "平均 MT (ms)")
    ws.merge_cells("D3:E3")
    header_cell(ws, "F3", "エラー率")
    ws.merge_cells("F3:G3")
    for ref, value in [
        ("D4", "マウス"),
        ("E4", "タッチパッド"),
        ("F4", "マウス"),
        ("G4", "タッチパッド"),
    ]:
        header_cell(ws, ref, value)
    ids = []
    row = 5
    for i, (d, w) in enumerate((d, w) for d in DISTANCES for w in WIDTHS):
        ident = float(np.log2(d / w + 1))
        ids.append(ident)
        values = [d, w, round(ident, 2), MOUSE_MT[i], PAD_MT[i], MOUSE_ERR[i], PAD_ERR[i]]
        for col, value in enumerate(values, 1):
            cell = ws.cell(row=row, column=col, value=value)
            cell.border = GRID
            if col == 3:
                cell.number_format = "0.00"
            if col >= 6:
                cell.number_format = "0.0%"
        row += 1
    ws.cell(
        row=row + 1, column=1, value="回帰（MT = a + b·ID、条件平均9点で最小二乗）"
    ).font = Font(bold=True)
    header_cell(ws, f"A{row + 2}", "デバイス")
    header_cell(ws, f"B{row + 2}", "a (ms)")
    header_cell(ws, f"C{row + 2}", "b (ms/bit)")
    header_cell(ws, f"D{row + 2}", "R²")
    header_cell(ws, f"E{row + 2}", "TP (bits/s)")
    x = np.array(ids)
    r = row + 3
    for name, mt in [("マウス", MOUSE_MT), ("タッチパッド", PAD_MT)]:
        y = np.array(mt, dtype=float)
        b, a = np.polyfit(x, y, 1)
        pred = a + b * x
        r2 = 1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum()
        tp = float(np.mean(x / (y / 1000)))
        for col, value, fmt in [
            (1, name, None),
            (2, round(float(a), 1), "0.0"),
            (3, round(float(b), 1), "0.0"),
            (4, round(float(r2), 3), "0.000"),
            (5, round(tp, 2), "0.00"),
        ]:
            cell = ws.cell(row=r, column=col, value=value)
            cell.border = GRID
            if fmt:
                cell.number_format = fmt
        r += 1
    ws.cell(
        row=r + 1,
        column=1,
        value="※ TP は条件ごとの ID/MT の平均（有効幅 We による補正はしていない）。レポートでは各自のデータで We を使って計算すること。",
    )
    ws.column_dimensions["A"].width = 14
    ws.column_dimensions["E"].width = 13
    ws.freeze_panes = "A5"

    ws2 = wb.create_sheet("プロジェクト予備テスト")
    ws2["A1"] = "評価プロジェクト 予備テスト（学食アプリ「もぐナビ」旧UI vs 新UI、7月6日 S-210）"
    ws2["A1"].font = Font(bold=True, size=13)
    ws2.merge_cells("A1:H1")
    for ref, value in [("A3", "参加者"), ("B3", "条件"), ("G3", "SUS")]:
        header_cell(ws2, ref, value)
        ws2.merge_cells(f"{ref}:{ref[0]}4")
    header_cell(ws2, "C3", "タスク1　今日の定食を予約")
    ws2.merge_cells("C3:D3")
    header_cell(ws2, "E3", "タスク2　混雑状況を確認")
    ws2.merge_cells("E3:F3")
    for ref, value in [("C4", "時間 (秒)"), ("D4", "成功"), ("E4", "時間 (秒)"), ("F4", "成功")]:
        header_cell(ws2, ref, value)
    for i, rec in enumerate(PILOT, 5):
        for col, value in enumerate(rec, 1):
            cell = ws2.cell(row=i, column=col, value=value)
            cell.border = GRID
            if col == 7:
                cell.number_format = "0.0"
    ws2.cell(
        row=14,
        column=1,
        value="失敗したタスクは打ち切り時間（180 秒）で記録。P07 のタスク1はメニュー階層で迷い打ち切り。",
    )
    ws2.cell(row=15, column=1, value="計測：浅野（ストップウォッチ＋LabCap 録画で確認）")

    ws3 = wb.create_sheet("集計（ピボット）")
    ws3["A1"] = "予備テスト　条件別の集計"
    ws3["A1"].font = Font(bold=True, size=13)
    header_cell(ws3, "A3", "行ラベル")
    header_cell(ws3, "B3", "平均 / タスク1 時間")
    header_cell(ws3, "C3", "平均 / タスク2 時間")
    header_cell(ws3, "D3", "成功率（全タスク）")
    header_cell(ws3, "E3", "平均 / SUS")
    header_cell(ws3, "F3", "個数 / 参加者")
    groups = [
        ("新UI", [p for p in PILOT if p[1] == "新UI"]),
        ("旧UI", [p for p in PILOT if p[1] == "旧UI"]),
        ("総計", PILOT),
    ]
    for r, (label, recs) in enumerate(groups, 4):
        t1 = float(np.mean([p[2] for p in recs]))
        t2 = float(np.mean([p[4] for p in recs]))
        ok = sum((p[3] == "○") + (p[5] == "○") for p in recs) / (2 * len(recs))
        sus = float(np.mean([p[6] for p in recs]))
        for col, value, fmt in [
            (1, label, None),
            (2, t1, "0.0"),
            (3, t2, "0.0"),
            (4, ok, "0%"),
            (5, sus, "0.0"),
            (6, len(recs), "0"),
        ]:
            cell = ws3.cell(row=r, column=col, value=value)
            cell.border = GRID
            if fmt:
                cell.number_format = fmt
            if label == "総計":
                cell.font = Font(bold=True)
    ws3.cell(
        row=8,
        column=1,
        value="（Excel のピボットテーブルを値で貼り付けたもの。元データはシート「プロジェクト予備テスト」）",
    )
    wb.properties.creator = "浅野 蒼"
    wb.properties.created = STAMP
    wb.properties.modified = STAMP
    wb.save(MATERIALS / "08_ta_results_ja.xlsx")


def main() -> None:
    build_pptx()
    build_docx()
    build_xlsx()


if __name__ == "__main__":
    main()
