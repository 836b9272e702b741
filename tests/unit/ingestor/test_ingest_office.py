"""Word, PowerPoint and Excel materials: their structure survives into the chunks
(headings, tables, lists, code, equations, slides as pages, speaker notes, sheets), what
the libraries do not read is read, and a file that is not what it claims gets a clear
refusal. The files: ``tests/office_files.py``."""

from __future__ import annotations

import datetime
import io
import zipfile

import docx
import openpyxl
import pptx
import pytest
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from pptx.util import Inches

from services.common.errors import InvalidInput
from services.ingestor.formats import Format, detect_format
from services.ingestor.stages import parse_material
from tests.office_files import IDF_LATEX, saved, slides, word_notes, workbook


def zipped(*names: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in names:
            archive.writestr(name, "<x/>")
    return out.getvalue()


def chunk_with(material, text: str):
    return next(c for c in material.chunks if text in c.text)


# -- Word -------------------------------------------------------------------------------


def test_word_headings_become_the_heading_path_and_the_title():
    material = parse_material(word_notes(), "lecture3.docx")
    assert material.format is Format.DOCX and material.title == "データベース論 第3回"
    chunk = chunk_with(material, "次の観点を確認する")
    assert chunk.heading_path == ("データベース論 第3回", "索引の種類", "索引を足す前に")


def test_a_word_table_stays_whole_with_its_lead_in_and_escaped_pipes():
    chunk = chunk_with(parse_material(word_notes(), "lecture3.docx"), "向き不向き")
    lines = chunk.text.splitlines()
    assert "| 種類 | 向く検索 | 注意点 |" in lines
    assert "| GIN | 全文検索 \\| 配列の包含 | 更新が重い |" in lines
    assert chunk.text.index("向き不向き") < chunk.text.index("| B-tree |")


def test_word_list_paragraphs_are_items_by_level_and_monospace_lines_are_code():
    chunk = chunk_with(parse_material(word_notes(), "lecture3.docx"), "次の観点を確認する")
    assert "- 既存の索引で代用できないか" in chunk.text.splitlines()
    assert "  - 書き込みがどれだけ増えるか" in chunk.text.splitlines()
    assert "```\nCREATE INDEX idx_loans_member\n    ON loans (member_id);\n```" in chunk.text


def test_a_one_cell_word_table_is_a_box_its_listing_a_code_block():
    # handouts set a listing on a shaded ground as a table of one cell
    document = docx.Document()
    document.add_paragraph("次の三番地コードを基本ブロックに分ける。")
    listing = ["L1: t1 = a + b", "    if t1 > 0 goto L3", "L2: t1 = 0"]
    cell = document.add_table(rows=1, cols=1).cell(0, 0)
    cell.paragraphs[0].text = listing[0]
    for line in listing[1:]:
        cell.add_paragraph(line)
    for paragraph in cell.paragraphs:
        paragraph.runs[0].font.name = "Consolas"
    note = document.add_table(rows=1, cols=1).cell(0, 0)
    note.paragraphs[0].text = "注意：ラベルの直後から新しいブロックが始まる。"
    material = parse_material(saved(document), "blocks.docx")
    text = "\n\n".join(c.text for c in material.chunks)
    assert "```\n" + "\n".join(listing) + "\n```" in text
    assert "注意：ラベルの直後から新しいブロックが始まる。" in text.split("\n\n")
    assert "|" not in text


def test_a_word_equation_is_latex_a_display_alone_and_inline_in_a_sentence():
    # python-docx skips Office Math in a paragraph's text: the formula would be lost
    chunk = chunk_with(parse_material(word_notes(), "lecture3.docx"), "次の式で計算する")
    assert f"次の式で計算する。\n\n$$\n{IDF_LATEX}\n$$" in chunk.text
    assert "ここで $N$ は文書数である。" in chunk.text


def test_word_text_the_library_skips_is_kept_and_deleted_text_is_not():
    document = docx.Document()
    w = nsdecls("w")
    # a template's content control (a cover page, a field) holds whole paragraphs
    document.element.body.insert(
        0,
        parse_xml(
            f"<w:sdt {w}><w:sdtContent><w:p><w:r><w:t>表紙：データベース論</w:t></w:r></w:p>"
            "</w:sdtContent></w:sdt>"
        ),
    )
    edited = document.add_paragraph("索引は")
    edited._p.append(
        parse_xml(  # a tracked change not yet accepted
            f'<w:ins {w} w:id="1" w:author="t"><w:r><w:t>読み出しを速くし、</w:t></w:r></w:ins>'
        )
    )
    edited._p.append(
        parse_xml(
            f'<w:del {w} w:id="2" w:author="t"><w:r><w:delText>必ず</w:delText></w:r></w:del>'
        )
    )
    edited.add_run("書き込みを遅くする。")
    (chunk,) = parse_material(saved(document), "draft.docx").chunks
    assert "表紙：データベース論" in chunk.text
    assert "索引は読み出しを速くし、書き込みを遅くする。" in chunk.text


def test_word_s_generated_table_of_contents_is_left_out():
    document = docx.Document()
    w = nsdecls("w")
    document.element.body.insert(
        0,
        parse_xml(
            f'<w:sdt {w}><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/>'
            "</w:docPartObj></w:sdtPr><w:sdtContent><w:p><w:r><w:t>1. 索引の種類</w:t></w:r>"
            "<w:r><w:tab/></w:r><w:r><w:t>2</w:t></w:r></w:p></w:sdtContent></w:sdt>"
        ),
    )
    document.add_heading("1. 索引の種類", level=1)
    document.add_paragraph("B-tree が既定である。")
    (chunk,) = parse_material(saved(document), "db03.docx").chunks
    assert chunk.heading_path == ("1. 索引の種類",)
    assert "\t2" not in chunk.text and chunk.text.count("索引の種類") <= 1


def test_a_footnote_follows_the_paragraph_that_refers_to_it():
    document = docx.Document()
    w = nsdecls("w")
    notes = (
        f'<w:footnotes {w}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/>'
        '</w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:t>PostgreSQL 16 の既定値。'
        "</w:t></w:r></w:p></w:footnote></w:footnotes>"
    )
    part = Part(
        PackURI("/word/footnotes.xml"),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
        notes.encode(),
        document.part.package,
    )
    document.part.relate_to(part, RT.FOOTNOTES)  # python-docx's template has no footnotes
    paragraph = document.add_paragraph("分離レベルは READ COMMITTED である。")
    paragraph._p.append(parse_xml(f'<w:r {w}><w:footnoteReference w:id="1"/></w:r>'))
    document.add_paragraph("次の段落。")
    (chunk,) = parse_material(saved(document), "notes.docx").chunks
    assert "分離レベルは READ COMMITTED である。 (PostgreSQL 16 の既定値。)" in chunk.text
    assert chunk.text.count("既定値") == 1


# -- PowerPoint -------------------------------------------------------------------------


def test_each_slide_is_a_page_under_the_deck_title():
    material = parse_material(slides(), "lecture5.pptx")
    assert material.format is Format.PPTX and material.title == "Vector search"
    assert material.page_count == 6
    chunk = chunk_with(material, "Three parameters")
    assert chunk.page == 2 and chunk.heading_path == ("Vector search", "HNSW parameters")


def test_slide_bullets_keep_their_levels_and_the_speaker_notes_follow():
    chunk = chunk_with(parse_material(slides(), "lecture5.pptx"), "Three parameters")
    lines = chunk.text.splitlines()
    assert "- Three parameters decide recall and speed:" in lines
    assert "  - m: links per node (default 16)" in lines
    notes = chunk.text.index("Speaker notes:")  # marked, so they do not read as the slide's
    assert chunk.text.index("default 40") < notes < chunk.text.index("Raise ef_search first")


def test_japanese_speaker_notes_are_marked_in_japanese():
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "B-tree"
    slide.placeholders[1].text = "ページは既定で 90% まで詰める"
    slide.notes_slide.notes_text_frame.text = "ここで fillfactor の話をする。"
    (chunk,) = parse_material(saved(deck), "btree.pptx").chunks
    assert chunk.text.index("90%") < chunk.text.index("発表者ノート：") < chunk.text.index("ここで")


def test_a_hidden_slide_is_not_read():
    deck = pptx.Presentation()
    for title, hidden in (("Lab 3 (old)", True), ("Lab 3", False)):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = "Due 7 July" if hidden else "Due 14 July"
        if hidden:
            slide._element.set("show", "0")  # Slide Show > Hide Slide
    (chunk,) = parse_material(saved(deck), "lab3.pptx").chunks
    assert "Due 14 July" in chunk.text and "Due 7 July" not in chunk.text


def test_a_slide_equation_is_read_from_office_math_not_its_fallback_picture():
    chunk = chunk_with(parse_material(slides(), "lecture5.pptx"), "two vectors")
    assert chunk.page == 4
    assert "$$\ncos(a,b)=\\frac{a·b}{‖a‖‖b‖}\n$$" in chunk.text


def test_smartart_node_texts_are_list_items_of_their_slide():
    # python-pptx reads no SmartArt: its words live in the diagram's data part
    chunk = chunk_with(parse_material(slides(), "lecture5.pptx"), "- 計画")
    assert chunk.page == 5 and chunk.heading_path == ("Vector search", "Search loop")
    assert [line for line in chunk.text.splitlines() if line.startswith("- ")] == [
        "- 計画", "- 検索", "- 評価", "- 回答",
    ]  # fmt: skip


def test_a_chart_is_the_table_of_its_numbers_under_its_title():
    chunk = chunk_with(parse_material(slides(), "lecture5.pptx"), "Index latency")
    assert chunk.page == 6
    lines = chunk.text.splitlines()
    assert "| HNSW | 2.4 | 400 |" in lines and "| IVFFlat | 6.8 | 45 |" in lines
    assert lines.index("Index latency and build time") < lines.index("| HNSW | 2.4 | 400 |")


def test_a_slide_table_is_a_table_read_after_the_text_above_it():
    chunk = chunk_with(parse_material(slides(), "lecture5.pptx"), "recall@10")
    assert chunk.page == 3
    assert "| HNSW | 0.982 |" in chunk.text.splitlines()
    assert chunk.text.index("Measured on 500,000") < chunk.text.index("| index |")


def test_headings_made_by_hand_in_bold_and_large_are_headings():
    # the Google Docs way: a Normal paragraph, bold, 14 pt; a bold line at body size is not
    document = docx.Document()
    for text, size in (("1. A/B テストとは", 14), ("注意", 11)):
        run = document.add_paragraph().add_run(text)
        run.bold, run.font.size = True, docx.shared.Pt(size)
        document.add_paragraph("利用者をランダムに2つのグループに分ける。")
    chunks = parse_material(saved(document), "ab.docx").chunks
    assert {c.heading_path for c in chunks} == {("1. A/B テストとは",)}
    assert "注意" in chunks[-1].text


def test_a_numbered_word_list_keeps_its_numbers():
    document = docx.Document()
    document.add_paragraph("要求獲得は次の順で進める。")
    for step in ("関係者を洗い出す", "困りごとを集める", "優先順位をつける"):
        document.add_paragraph(step, style="List Number")
    document.add_paragraph("用語:")
    document.add_paragraph("アクター", style="List Bullet")
    chunk = parse_material(saved(document), "requirements.docx").chunks[0]
    lines = [line for line in chunk.text.splitlines() if line]
    assert lines[lines.index("要求獲得は次の順で進める。") + 1 :] == [
        "1. 関係者を洗い出す", "2. 困りごとを集める", "3. 優先順位をつける", "用語:", "- アクター",
    ]  # fmt: skip


def test_a_word_list_numbered_in_parentheses_or_circles_prints_so():
    document = docx.Document()
    numbering = document.part.numbering_part.element
    w = nsdecls("w")
    for abstract, (fmt, text) in enumerate([("decimal", "(%1)"), ("decimalEnclosedCircle", "%1")]):
        numbering.append(parse_xml(
            f'<w:abstractNum {w} w:abstractNumId="{90 + abstract}"><w:lvl w:ilvl="0">'
            f'<w:start w:val="1"/><w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/>'
            "</w:lvl></w:abstractNum>"
        ))  # fmt: skip
        numbering.append(parse_xml(
            f'<w:num {w} w:numId="{90 + abstract}"><w:abstractNumId w:val="{90 + abstract}"/>'
            "</w:num>"
        ))  # fmt: skip
    for num_id, items in ((90, ("集計法", "会計法")), (91, ("挿入", "削除"))):
        for item in items:
            paragraph = document.add_paragraph(item)
            paragraph._p.get_or_add_pPr().append(parse_xml(
                f'<w:numPr {w}><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/></w:numPr>'
            ))  # fmt: skip
    chunk = parse_material(saved(document), "amortised.docx").chunks[0]
    assert [line for line in chunk.text.splitlines() if line] == [
        "(1) 集計法", "(2) 会計法", "① 挿入", "② 削除",
    ]  # fmt: skip


def test_a_slide_of_text_boxes_is_titled_by_its_top_box_and_its_number_is_left_out():
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])  # blank: no title placeholder
    boxes = slide.shapes
    boxes.add_textbox(
        Inches(0.5), Inches(3), Inches(9), Inches(2)
    ).text_frame.text = "Four data sets share their means and yet look nothing alike."
    boxes.add_textbox(
        Inches(0.5), Inches(0.4), Inches(9), Inches(1)
    ).text_frame.text = "Why draw before you compute"
    boxes.add_textbox(Inches(9), Inches(7), Inches(0.5), Inches(0.3)).text_frame.text = "2"
    (chunk,) = parse_material(saved(deck), "charts.pptx").chunks
    assert chunk.heading_path[-1] == "Why draw before you compute"
    assert "\n2\n" not in f"\n{chunk.text}\n"


def test_a_text_box_in_a_monospace_font_is_a_listing_with_its_indentation():
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Strategy"
    box = slide.shapes.add_textbox(Inches(1), Inches(1.5), Inches(8), Inches(3)).text_frame
    listing = ["class StudentFee:", "    def fee(self, hours):", "        return 0"]
    box.text = listing[0]
    for line in listing[1:]:
        box.add_paragraph().text = line
    for paragraph in box.paragraphs:
        paragraph.runs[0].font.name = "Consolas"
    chunk = chunk_with(parse_material(saved(deck), "patterns.pptx"), "StudentFee")
    assert "```\n" + "\n".join(listing) + "\n```" in chunk.text


# -- Excel -----------------------------------------------------------------------------


def test_a_q_a_sheet_is_q_a_rows_and_another_sheet_a_table_under_its_name():
    material = parse_material(workbook(), "course.xlsx")
    assert material.format is Format.XLSX
    assert [(c.ordinal, c.heading_path, c.text) for c in material.chunks[:2]] == [
        (0, ("試験",), "Q: 電卓は使えますか？\nA: 関数電卓は使えます。"),
        (1, ("課題",), "Q: 締め切りは？\nA: 翌週水曜 23:59 です。"),
    ]
    (schedule,) = material.chunks[2:]  # the empty sheet gives nothing
    assert schedule.heading_path == ("授業計画",)
    # cells as a reader sees them: a date without its midnight time, 1 not 1.0
    assert "| 1 | 2025-10-02 | 関係モデル | 1 |" in schedule.text.splitlines()
    assert "| 2 | 2025-10-09 | SQL と索引 | 2.5 |" in schedule.text.splitlines()


def test_a_hidden_sheet_is_not_read():
    book = openpyxl.Workbook()
    book.active.title = "成績"
    book.active.append(["項目", "割合"])
    book.active.append(["演習", "40%"])
    memo = book.create_sheet("TA用メモ")
    memo.append(["学生には見せない", "採点の目安"])
    memo.sheet_state = "hidden"
    material = parse_material(saved(book), "grading.xlsx")
    assert {c.heading_path[0] for c in material.chunks} == {"成績"}


def test_a_sheet_reads_as_its_teacher_laid_it_out():
    # a title merged across the table, an owner merged down two rows, numbers in their
    # cells' formats, notes under a blank row
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "見積もり"
    sheet.append(["スプリント2 見積もり（単位：時間）"])
    sheet.merge_cells("A1:D1")
    sheet.append(["ID", "期待値", "達成率", "担当"])
    sheet.append(["T-01", 7.0, 0.62, "小川"])
    sheet.append(["T-02", 5.5, 0.945, None])
    sheet.merge_cells("D3:D4")
    sheet["B3"].number_format = sheet["B4"].number_format = "0.0"
    sheet["C3"].number_format = sheet["C4"].number_format = "0%"
    sheet.append([])
    sheet.append([None, "期待値 E = (O + 4M + P) / 6"])
    chunks = parse_material(saved(book), "plan.xlsx").chunks
    assert [(c.heading_path, c.text.split("\n")[2:]) for c in chunks] == [
        (
            ("見積もり", "スプリント2 見積もり（単位：時間）"),
            [
                "| ID | 期待値 | 達成率 | 担当 |",
                "| --- | --- | --- | --- |",
                "| T-01 | 7.0 | 62% | 小川 |",
                "| T-02 | 5.5 | 95% | 小川 |",  # Excel rounds half away from zero,
            ],
        ),
        (("見積もり",), ["期待値 E = (O + 4M + P) / 6"]),
    ]


def test_a_note_merged_across_under_a_table_is_a_note_not_a_row():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "実験2"
    sheet.append(["班", "τ 測定 (ms)"])
    sheet.append(["A01", "1.04"])
    sheet.append(["A02", "0.97"])
    sheet.append(["τ はカーソルで読んだ値。"])
    sheet.merge_cells("A4:B4")
    chunks = parse_material(saved(book), "lab.xlsx").chunks
    assert [c.text.split("\n\n")[1:] for c in chunks] == [
        ["| 班 | τ 測定 (ms) |\n| --- | --- |\n| A01 | 1.04 |\n| A02 | 0.97 |"],
        ["τ はカーソルで読んだ値。"],
    ]


def test_tables_side_by_side_are_two_tables_and_dates_read_as_formatted():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "計画"
    sheet.append(["チーム", "人数", None, "締切", "提出物"])
    sheet.append(["T1", 5, None, datetime.datetime(2026, 6, 9), "申請書"])
    sheet.append(["T2", 6, None, datetime.datetime(2026, 6, 23), "チェックリスト"])
    sheet["D2"].number_format = sheet["D3"].number_format = 'm"月"d"日"'
    tables = [c.text.split("\n")[2:] for c in parse_material(saved(book), "plan.xlsx").chunks]
    assert tables == [
        ["| チーム | 人数 |", "| --- | --- |", "| T1 | 5 |", "| T2 | 6 |"],
        [
            "| 締切 | 提出物 |",
            "| --- | --- |",
            "| 6月9日 | 申請書 |",
            "| 6月23日 | チェックリスト |",
        ],
    ]


@pytest.mark.parametrize(
    ("value", "number_format", "shown"),
    [
        (3240, '#,##0.0 "ms"', "3,240.0 ms"),  # a unit written into the format
        (1500, '"¥"#,##0', "¥1,500"),
        (7, '0"点"', "7点"),
        (datetime.datetime(2026, 5, 12), 'm"月"d"日"(aaa)', "5月12日(火)"),
        (datetime.datetime(2026, 5, 12), "yyyy/m/d (ddd)", "2026/5/12 (Tue)"),
        (1.978390635315463e-05, "0.00E+00", "1.98E-05"),  # an error as the sheet shows it
        (12345.678, "0.0E+00", "1.2E+04"),
    ],
)
def test_a_cell_reads_as_its_format_shows_it(value, number_format, shown):
    book = openpyxl.Workbook()
    book.active.append(["項目", "値"])
    book.active.append(["計測", value])
    book.active["B2"].number_format = number_format
    (chunk,) = parse_material(saved(book), "sheet.xlsx").chunks
    assert f"| 計測 | {shown} |" in chunk.text.splitlines()


# -- what the file is -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "filename", "expected"),
    [
        (word_notes(), "upload.bin", Format.DOCX),  # the part inside decides, not the name
        (slides(), "slides.docx", Format.PPTX),
        (workbook(), "grades", Format.XLSX),
    ],
)
def test_office_files_are_told_by_their_main_part(data, filename, expected):
    assert detect_format(data, filename)[0] is expected


@pytest.mark.parametrize(
    ("data", "filename", "message"),
    [
        (zipped("lecture.md"), "materials.zip", "upload the files inside it one by one"),
        (b"PK\x03\x04 not really a zip", "notes.docx", "damaged ZIP"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "old.ppt", "save it as .docx or .pptx"),
        (b"plain text", "notes.docx", "is named as a .docx but is not one"),
    ],
)
def test_other_containers_are_refused_saying_what_to_do(data, filename, message):
    with pytest.raises(InvalidInput, match=message):
        detect_format(data, filename)


@pytest.mark.parametrize(
    ("part", "kind"),
    [("word/document.xml", "a Word"), ("ppt/presentation.xml", "a PowerPoint"),
     ("xl/workbook.xml", "an Excel")],
)  # fmt: skip
def test_an_office_file_without_its_parts_is_refused_clearly(part, kind):
    with pytest.raises(InvalidInput, match=f"cannot be read as {kind} file"):
        parse_material(zipped(part), "broken")


def test_raised_and_lowered_runs_read_as_the_page_shows_them():
    document = docx.Document()
    paragraph = document.add_paragraph("H")
    for text, raised in (("2", False), ("O at 10", None), ("−3", True), (" mol, the 1", None),
                         ("st", True)):  # fmt: skip
        run = paragraph.add_run(text)
        run.font.superscript, run.font.subscript = raised is True, raised is False
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Rates"
    line = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(5), Inches(1)).text_frame
    for text, baseline in (("NH", None), ("4", "-25000"), ("+", "30000")):
        run = line.paragraphs[0].add_run()
        run.text = text
        if baseline:
            run._r.get_or_add_rPr().set("baseline", baseline)
    # a raised 3 had read "103"; a raised ordinal ending stays a word
    (word,) = parse_material(saved(document), "notes.docx").chunks
    assert word.text == "H₂O at 10⁻³ mol, the 1st"
    (deck_chunk,) = parse_material(saved(deck), "rates.pptx").chunks
    assert deck_chunk.text.endswith("NH₄⁺")


def test_a_cell_s_raised_and_lowered_runs_read_as_the_page_shows_them():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(
        [
            CellRichText(["1/[CV", TextBlock(InlineFont(vertAlign="superscript"), "+"), "]"]),
            CellRichText(["(10", TextBlock(InlineFont(vertAlign="superscript"), "6"), " L)"]),
        ]
    )
    sheet.append(["CO2", "0.5"])
    # read-only reading gives a cell's runs flattened: the raised 6 had read "(106 L)"
    (chunk,) = parse_material(saved(book), "lab.xlsx").chunks
    assert "| 1/[CV⁺] | (10⁶ L) |" in chunk.text and "| CO2 | 0.5 |" in chunk.text
