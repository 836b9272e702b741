"""Office course materials written with python-docx, python-pptx and openpyxl, for the
ingestion tests: a lecture note with headings, a table, a list, a code listing and
equations; a deck with bullets, speaker notes, a table, an equation and a SmartArt
process, a chart; a workbook with a Q/A sheet and a schedule."""

from __future__ import annotations

import datetime
import io

import docx
import openpyxl
import pptx
from docx.oxml import parse_xml
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.opc.package import Part
from pptx.opc.packuri import PackURI
from pptx.util import Inches

M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
DIAGRAM_DATA = "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml"
# IDF(t) = log((N - n_t + 0.5) / (n_t + 0.5)) as Word writes it (Office Math, OMML)
N_T = "<m:sSub><m:e><m:r><m:t>n</m:t></m:r></m:e><m:sub><m:r><m:t>t</m:t></m:r></m:sub></m:sSub>"
IDF = (
    f'<m:oMath xmlns:m="{M}"><m:r><m:t>IDF(t)=</m:t></m:r>'
    "<m:func><m:fName><m:r><m:t>log</m:t></m:r></m:fName><m:e><m:f>"
    f"<m:num><m:r><m:t>N-</m:t></m:r>{N_T}<m:r><m:t>+0.5</m:t></m:r></m:num>"
    f"<m:den>{N_T}<m:r><m:t>+0.5</m:t></m:r></m:den>"
    "</m:f></m:e></m:func></m:oMath>"
)
IDF_LATEX = r"IDF(t)=\log \frac{N-{n}_{t}+0.5}{{n}_{t}+0.5}"
# A slide keeps an equation beside a picture of it for readers without Office Math.
SLIDE_EQUATION = (
    '<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
    '<mc:Choice xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main" Requires="a14">'
    f'<a14:m><m:oMathPara xmlns:m="{M}"><m:oMath><m:r><m:t>cos(a,b)=</m:t></m:r>'
    "<m:f><m:num><m:r><m:t>a·b</m:t></m:r></m:num><m:den><m:r><m:t>‖a‖‖b‖</m:t></m:r></m:den>"
    "</m:f></m:oMath></m:oMathPara></a14:m></mc:Choice>"
    '<mc:Fallback><a:r xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
    "<a:t> </a:t></a:r></mc:Fallback></mc:AlternateContent>"
)


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
    document.add_heading("IDF", level=1)
    document.add_paragraph("語の重みは次の式で計算する。")
    document.add_paragraph()._p.append(parse_xml(f'<m:oMathPara xmlns:m="{M}">{IDF}</m:oMathPara>'))
    inline = document.add_paragraph("ここで ")
    inline._p.append(parse_xml(f'<m:oMath xmlns:m="{M}"><m:r><m:t>N</m:t></m:r></m:oMath>'))
    inline.add_run(" は文書数である。")
    return saved(document)


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
    cosine = deck.slides.add_slide(deck.slide_layouts[5])
    cosine.shapes.title.text = "Cosine similarity"
    box = cosine.shapes.add_textbox(Inches(1), Inches(1.5), Inches(8), Inches(2)).text_frame
    box.text = "The similarity of two vectors:"
    box.add_paragraph()._p.append(parse_xml(SLIDE_EQUATION))
    _add_smartart(deck, "Search loop", ["計画", "検索", "評価", "回答"])
    latency = deck.slides.add_slide(deck.slide_layouts[5])
    latency.shapes.title.text = "Latency"
    data = CategoryChartData()
    data.categories = ["HNSW", "IVFFlat"]
    data.add_series("p95 ms", (2.4, 6.8))
    data.add_series("build s", (400, 45))
    chart = latency.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1.5), Inches(8), Inches(4), data
    ).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "Index latency and build time"
    return saved(deck)


def _add_smartart(deck, title: str, steps: list[str]) -> None:
    """A slide with a SmartArt process: python-pptx writes no SmartArt, so its diagram
    data part and the graphic frame naming it are written here as PowerPoint does."""
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = title
    points = "".join(
        f'<dgm:pt modelId="{n}"><dgm:t><a:bodyPr/><a:p><a:r><a:t>{step}</a:t></a:r></a:p>'
        "</dgm:t></dgm:pt>"
        for n, step in enumerate(steps, start=1)
    )
    data = (
        f'<dgm:dataModel xmlns:dgm="{DGM}" xmlns:a="{A}"><dgm:ptLst>'
        f'<dgm:pt modelId="0" type="doc"><dgm:t><a:p><a:r><a:t>doc</a:t></a:r></a:p></dgm:t>'
        f'</dgm:pt>{points}<dgm:pt modelId="9" type="parTrans"/></dgm:ptLst></dgm:dataModel>'
    )
    part = Part(PackURI("/ppt/diagrams/data1.xml"), DIAGRAM_DATA, deck.part.package, data.encode())
    rid = slide.part.relate_to(part, RT.DIAGRAM_DATA)
    slide.shapes._spTree.append(
        parse_xml(
            f'<p:graphicFrame xmlns:p="{P}" xmlns:a="{A}"><p:nvGraphicFramePr>'
            '<p:cNvPr id="10" name="Diagram 1"/><p:cNvGraphicFramePr/><p:nvPr/>'
            "</p:nvGraphicFramePr>"
            '<p:xfrm><a:off x="914400" y="1828800"/><a:ext cx="7315200" cy="2743200"/></p:xfrm>'
            f'<a:graphic><a:graphicData uri="{DGM}"><dgm:relIds xmlns:dgm="{DGM}" xmlns:r="{R}"'
            f' r:dm="{rid}" r:lo="" r:qs="" r:cs=""/></a:graphicData></a:graphic></p:graphicFrame>'
        )
    )


def saved(document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def workbook() -> bytes:
    book = openpyxl.Workbook()
    faq = book.active
    faq.title = "FAQ"
    faq.append(["分類", "質問", "回答"])
    faq.append(["試験", "電卓は使えますか？", "関数電卓は使えます。"])
    faq.append([None, None, None])
    faq.append(["課題", "締め切りは？", "翌週水曜 23:59 です。"])
    schedule = book.create_sheet("授業計画")
    schedule.append(["回", "日付", "内容", "演習"])
    schedule.append([1, datetime.datetime(2025, 10, 2), "関係モデル", 1.0])
    schedule.append([2, datetime.datetime(2025, 10, 9), "SQL と索引", 2.5])
    book.create_sheet("空")
    return saved(book)
