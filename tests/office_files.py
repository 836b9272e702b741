"""Word and PowerPoint course materials written with python-docx / python-pptx, for the
ingestion tests: a lecture note with headings, a table, a list and a code listing, and a
three-slide deck with bullets, speaker notes and a table."""

from __future__ import annotations

import io

import docx
import pptx
from pptx.util import Inches


def word_notes() -> bytes:
    document = docx.Document()
    document.add_heading("データベース論 第3回", level=0)
    document.add_heading("索引の種類", level=1)
    document.add_paragraph("主な索引の向き不向きを次の表にまとめる。")
    table = document.add_table(rows=3, cols=3)
    rows = [
        ["種類", "向く検索", "注意点"],
        ["B-tree", "範囲検索と並べ替え", "中間一致には使えない"],
        ["GIN", "全文検索 | 配列の包含", "更新が重い"],
    ]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    document.add_heading("索引を足す前に", level=2)
    document.add_paragraph("新しい索引を足す前に、次の観点を確認する。")
    document.add_paragraph("その問い合わせが実際にどれだけ遅いか", style="List Bullet")
    document.add_paragraph("既存の索引で代用できないか", style="List Bullet")
    document.add_paragraph("書き込みがどれだけ増えるか", style="List Bullet 2")
    document.add_paragraph("演習では次の文で索引を作る。")
    for line in ("CREATE INDEX idx_loans_member", "    ON loans (member_id);"):
        document.add_paragraph().add_run(line).font.name = "Courier New"
    document.add_paragraph("索引は書き込みを遅くする。")
    return _saved(document)


def slides() -> bytes:
    deck = pptx.Presentation()
    cover = deck.slides.add_slide(deck.slide_layouts[0])
    cover.shapes.title.text = "Vector search"
    cover.placeholders[1].text = "Lecture 5"
    bullets = deck.slides.add_slide(deck.slide_layouts[1])
    bullets.shapes.title.text = "HNSW parameters"
    body = bullets.placeholders[1].text_frame
    body.text = "Three parameters decide recall and speed:"
    for text in ("m: links per node (default 16)", "ef_search: candidates (default 40)"):
        paragraph = body.add_paragraph()
        paragraph.text, paragraph.level = text, 1
    bullets.notes_slide.notes_text_frame.text = "Raise ef_search first when recall is low."
    bench = deck.slides.add_slide(deck.slide_layouts[5])
    bench.shapes.title.text = "Benchmark"
    shape = bench.shapes.add_table(3, 2, Inches(1), Inches(3), Inches(6), Inches(1.5))
    for r, row in enumerate([["index", "recall@10"], ["HNSW", "0.982"], ["IVFFlat", "0.953"]]):
        for c, text in enumerate(row):
            shape.table.cell(r, c).text = text
    caption = bench.shapes.add_textbox(Inches(1), Inches(1.5), Inches(8), Inches(1))
    caption.text_frame.text = "Measured on 500,000 chunks with 1,000 queries."
    return _saved(deck)


def _saved(document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
