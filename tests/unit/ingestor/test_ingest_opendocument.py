"""OpenDocument materials (LibreOffice): text, slides and spreadsheets keep their structure
(headings, lists, code, tables, footnotes, slides as pages, speaker notes, sheets), what a
reader does not see is left out, and a damaged file gets a clear refusal. The files are
written here as LibreOffice writes them: a ZIP of content.xml, styles.xml and meta.xml."""

from __future__ import annotations

import io
import zipfile

import pytest

from services.common.errors import InvalidInput
from services.ingestor.formats import Format, detect_format
from services.ingestor.stages import parse_material

NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/"'
)


def package(kind: str, body: str, automatic: str = "", styles: str = "", title: str = "") -> bytes:
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {NAMESPACES}>'
        f"<office:automatic-styles>{automatic}</office:automatic-styles>"
        f"<office:body><office:{kind}>{body}</office:{kind}></office:body>"
        "</office:document-content>"
    )
    meta = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-meta {NAMESPACES}>'
        f"<office:meta><dc:title>{title}</dc:title></office:meta></office:document-meta>"
    )
    style_part = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-styles {NAMESPACES}>'
        f"<office:styles>{styles}</office:styles></office:document-styles>"
    )
    mime = {"text": "text", "presentation": "presentation", "spreadsheet": "spreadsheet"}[kind]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("mimetype", f"application/vnd.oasis.opendocument.{mime}")
        archive.writestr("content.xml", content)
        archive.writestr("styles.xml", style_part)
        archive.writestr("meta.xml", meta)
    return out.getvalue()


def texts(material) -> list[str]:
    return [c.text for c in material.chunks]


NOTES_ODT = package(
    "text",
    "<text:table-of-content><text:index-body><text:p>1 索引の種類 ..... 2</text:p>"
    "</text:index-body></text:table-of-content>"
    '<text:h text:outline-level="1">索引</text:h>'
    '<text:h text:outline-level="2">索引の種類</text:h>'
    "<text:p>索引には次の種類がある<text:note><text:note-citation>1</text:note-citation>"
    "<text:note-body><text:p>PostgreSQL 18 の場合。</text:p></text:note-body></text:note>"
    "。</text:p>"
    '<text:list text:style-name="L1"><text:list-item><text:p>B-tree</text:p>'
    '<text:list><text:list-item><text:p>範囲検索に<text:s text:c="2"/>強い</text:p>'
    "</text:list-item></text:list></text:list-item>"
    "<text:list-item><text:p>GIN</text:p></text:list-item></text:list>"
    "<text:p>作成の手順：</text:p>"
    '<text:list text:style-name="L2"><text:list-item><text:p>表を選ぶ</text:p></text:list-item>'
    "<text:list-item><text:p>列を選ぶ</text:p></text:list-item></text:list>"
    '<text:p text:style-name="P1">CREATE INDEX idx ON loans (loaned_at);</text:p>'
    '<text:p text:style-name="P1">  -- 既定は B-tree</text:p>'
    "<table:table><table:table-row><table:table-cell><text:p>種類</text:p></table:table-cell>"
    "<table:table-cell><text:p>用途</text:p></table:table-cell></table:table-row>"
    "<table:table-row><table:table-cell><text:p>BRIN</text:p></table:table-cell>"
    "<table:table-cell><text:p>時系列</text:p></table:table-cell>"
    '<table:table-cell table:number-columns-repeated="1000"/></table:table-row></table:table>',
    automatic='<style:style style:name="P1" style:family="paragraph" '
    'style:parent-style-name="Preformatted_20_Text"/>'
    '<text:list-style style:name="L2"><text:list-level-style-number text:level="1"/>'
    "</text:list-style>"
    '<text:list-style style:name="L1"><text:list-level-style-bullet text:level="1"/>'
    "</text:list-style>",
    title="データベース 第3回",
)


def test_a_text_document_keeps_its_headings_lists_code_tables_and_notes():
    material = parse_material(NOTES_ODT, "db03.odt")
    assert material.format is Format.ODT and material.title == "データベース 第3回"
    whole = "\n\n".join(texts(material))
    # the footnote follows the paragraph that refers to it (its mark left out)
    assert whole.index("索引には次の種類がある。") < whole.index("(PostgreSQL 18 の場合。)")
    assert "種類がある。1" not in whole
    assert "- B-tree\n  - 範囲検索に 強い\n- GIN" in whole
    assert "1. 表を選ぶ\n2. 列を選ぶ" in whole  # the list style numbers them
    assert "```\nCREATE INDEX idx ON loans (loaned_at);\n  -- 既定は B-tree\n```" in whole
    assert "| 種類 | 用途 |" in whole and "| BRIN | 時系列 |" in whole
    assert "....." not in whole  # the generated table of contents
    assert all(c.heading_path[:2] == ("索引", "索引の種類") for c in material.chunks)


SLIDES_ODP = package(
    "presentation",
    '<draw:page draw:name="p1" draw:style-name="dp1">'
    '<draw:frame presentation:class="outline" svg:x="1cm" svg:y="4cm"><draw:text-box>'
    "<text:list><text:list-item><text:p>Vectors live in the heap</text:p>"
    "<text:list><text:list-item><text:p>one row per chunk</text:p></text:list-item>"
    "</text:list></text:list-item></text:list></draw:text-box></draw:frame>"
    '<draw:frame presentation:class="title" svg:y="1cm"><draw:text-box>'
    "<text:p>HNSW in pgvector</text:p></draw:text-box></draw:frame>"
    '<draw:frame svg:x="1cm" svg:y="2.5cm"><draw:text-box><text:p>Lab 4 uses m = 16.</text:p>'
    "</draw:text-box></draw:frame>"
    '<presentation:notes><draw:frame presentation:class="notes"><draw:text-box>'
    "<text:p>Stress that ef_search is per session.</text:p></draw:text-box></draw:frame>"
    "</presentation:notes></draw:page>"
    '<draw:page draw:name="p2" draw:style-name="dp2">'
    '<draw:frame presentation:class="title"><draw:text-box><text:p>Old results</text:p>'
    "</draw:text-box></draw:frame></draw:page>"
    '<draw:page draw:name="p3" draw:style-name="dp1">'
    '<draw:frame presentation:class="title"><draw:text-box><text:p>まとめ</text:p>'
    "</draw:text-box></draw:frame>"
    '<draw:frame svg:y="3cm"><table:table><table:table-row><table:table-cell><text:p>m'
    "</text:p></table:table-cell><table:table-cell><text:p>16</text:p></table:table-cell>"
    "</table:table-row></table:table></draw:frame>"
    '<presentation:notes><draw:frame presentation:class="notes"><draw:text-box>'
    "<text:p>次回は IVFFlat を扱う。</text:p></draw:text-box></draw:frame></presentation:notes>"
    "</draw:page>",
    automatic='<style:style style:name="dp2" style:family="drawing-page">'
    '<style:drawing-page-properties presentation:visibility="hidden"/></style:style>',
    title="Vector search",
)


def test_slides_are_pages_in_reading_order_with_their_notes_and_hidden_ones_left_out():
    material = parse_material(SLIDES_ODP, "lecture07.odp")
    assert material.format is Format.ODP and material.title == "Vector search"
    first = [c for c in material.chunks if c.page == 1]
    assert first and all(c.heading_path == ("Vector search", "HNSW in pgvector") for c in first)
    text = "\n\n".join(c.text for c in first)
    assert text.index("Lab 4 uses m = 16.") < text.index("- Vectors live in the heap")
    assert "  - one row per chunk" in text
    assert "Speaker notes:\n\nStress that ef_search is per session." in text
    assert {c.page for c in material.chunks} == {1, 3}  # slide 2 is hidden
    last = "\n\n".join(c.text for c in material.chunks if c.page == 3)
    assert "| m | 16 |" in last and "発表者ノート：\n\n次回は IVFFlat を扱う。" in last


def row(*cells: str, repeated: int = 1) -> str:
    inner = "".join(f"<table:table-cell><text:p>{c}</text:p></table:table-cell>" for c in cells)
    return f'<table:table-row table:number-rows-repeated="{repeated}">{inner}</table:table-row>'


SHEETS_ODS = package(
    "spreadsheet",
    '<table:table table:name="FAQ">'
    + row("質問", "回答")
    + row("追試はありますか", "診断書があれば8月6日に行います。")
    + '<table:table-row table:number-rows-repeated="1048570"><table:table-cell '
    'table:number-columns-repeated="1024"/></table:table-row></table:table>'
    '<table:table table:name="集計">' + row("班", "平均点") + row("A", "8.1") + "</table:table>"
    '<table:table table:name="TAメモ" table:style-name="ta1">'
    + row("秘密", "採点基準の下書き")
    + "</table:table>",
    automatic='<style:style style:name="ta1" style:family="table">'
    '<style:table-properties table:display="false"/></style:style>',
)


def test_a_spreadsheet_is_q_a_rows_and_tables_and_its_hidden_sheet_is_left_out():
    material = parse_material(SHEETS_ODS, "faq.ods")
    assert material.format is Format.ODS
    whole = "\n\n".join(texts(material))
    assert "追試はありますか" in whole and "診断書があれば8月6日に行います。" in whole
    assert "| 班 | 平均点 |" in whole and "| A | 8.1 |" in whole
    assert "採点基準" not in whole
    assert [c.ordinal for c in material.chunks] == list(range(len(material.chunks)))


def test_open_documents_are_told_by_their_mimetype_entry():
    assert detect_format(NOTES_ODT, "upload", "")[0] is Format.ODT
    assert detect_format(SLIDES_ODP, "x.bin", "")[0] is Format.ODP
    assert detect_format(SHEETS_ODS, "faq.ods", "")[0] is Format.ODS


@pytest.mark.parametrize(
    ("data", "filename", "message"),
    [
        (b"just text", "notes.odt", "named as a .odt but is not one"),
        (NOTES_ODT[:200], "notes.odt", "damaged ZIP"),
    ],
)
def test_a_file_that_is_no_open_document_is_refused_clearly(data, filename, message):
    with pytest.raises(InvalidInput, match=message):
        parse_material(data, filename)


def test_an_open_document_without_its_content_is_refused_clearly():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
    with pytest.raises(InvalidInput, match="not a readable OpenDocument text file"):
        parse_material(out.getvalue(), "notes.odt")


MONO = (
    '<style:style style:name="T1" style:family="text">'
    '<style:text-properties style:font-name="Courier New"/></style:style>'
)


def test_a_document_reads_as_its_reader_sees_it():
    """Comments left out, a box anchored in a paragraph read after it, a one-cell table
    read as what it holds, a cell merged across standing in each column, a numbered list
    broken by a paragraph going on where it stopped, and the Title paragraph the title."""
    body = (
        '<text:p text:style-name="Title">オペレーティングシステム</text:p>'
        '<text:h text:outline-level="1">スケジューリング</text:h>'
        "<text:p>CFS は公平に配る。<office:annotation><text:p>TA: 要確認</text:p>"
        "</office:annotation>"
        "<draw:custom-shape><text:p>ポイント：vruntime の小さい順。</text:p></draw:custom-shape>"
        "</text:p>"
        '<text:list xml:id="l1" text:style-name="N"><text:list-item><text:p>準備</text:p>'
        "</text:list-item><text:list-item><text:p>検知</text:p></text:list-item></text:list>"
        "<text:p>（途中の注記）</text:p>"
        '<text:list text:continue-list="l1" text:style-name="N"><text:list-item><text:p>封じ込め'
        "</text:p></text:list-item></text:list>"
        "<table:table><table:table-row><table:table-cell><text:p>"
        '<text:span text:style-name="T1">$ nice -n 10 make</text:span></text:p>'
        "</table:table-cell></table:table-row></table:table>"
        "<table:table><table:table-row>"
        '<table:table-cell table:number-columns-spanned="2"><text:p>記法</text:p>'
        "</table:table-cell><table:covered-table-cell/></table:table-row>"
        "<table:table-row><table:table-cell><text:p>汎化</text:p></table:table-cell>"
        "<table:table-cell><text:p>白抜き三角</text:p></table:table-cell></table:table-row>"
        "</table:table>"
    )
    numbered = '<text:list-style style:name="N"><text:list-level-style-number text:level="1"/>'
    odt = package("text", body, automatic=MONO + numbered + "</text:list-style>")
    material = parse_material(odt, "os05.odt")
    whole = "\n\n".join(texts(material))
    assert material.title == "オペレーティングシステム"
    assert "TA: 要確認" not in whole
    assert whole.index("CFS は公平に配る。") < whole.index("ポイント：vruntime の小さい順。")
    assert "1. 準備\n2. 検知" in whole and "3. 封じ込め" in whole
    assert "```\n$ nice -n 10 make\n```" in whole
    assert "| 記法 | 記法 |" in whole and "| 汎化 | 白抜き三角 |" in whole


def test_a_slide_without_a_title_frame_is_titled_by_its_top_line_and_code_stays_whole():
    slide = (
        '<draw:page draw:name="p1">'
        '<draw:custom-shape svg:y="5cm"><text:p><text:span text:style-name="T1">def f(x):'
        '</text:span></text:p><text:p/><text:p><text:span text:style-name="T1">'
        '<text:s text:c="4"/>return x</text:span></text:p></draw:custom-shape>'
        '<draw:frame svg:y="1cm"><draw:text-box><text:p>Recursion</text:p></draw:text-box>'
        "</draw:frame>"
        '<draw:frame svg:y="18cm"><draw:text-box><text:p>7</text:p></draw:text-box></draw:frame>'
        "</draw:page>"
    )
    material = parse_material(package("presentation", slide, automatic=MONO), "l3.odp")
    (chunk,) = material.chunks
    assert chunk.heading_path == ("Recursion",) and chunk.page == 1
    assert chunk.text.endswith("```\ndef f(x):\n\n    return x\n```")  # the slide number: none
