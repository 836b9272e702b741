"""OpenDocument materials (LibreOffice): text, slides and spreadsheets keep their structure
(headings, lists, code, tables, footnotes, slides as pages, speaker notes, sheets), what a
reader does not see is left out, and a damaged file gets a clear refusal. The files:
``tests/open_documents.py``."""

from __future__ import annotations

import io
import zipfile

import pytest

from services.common.errors import InvalidInput
from services.ingestor.formats import Format, detect_format
from services.ingestor.mathml import to_latex
from services.ingestor.stages import parse_material
from tests.open_documents import MONO, NOTES_ODT, SHEETS_ODS, SLIDES_ODP, package, row


def texts(material) -> list[str]:
    return [c.text for c in material.chunks]


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


def test_a_spreadsheet_is_q_a_rows_and_tables_and_its_hidden_sheet_is_left_out():
    material = parse_material(SHEETS_ODS, "faq.ods")
    assert material.format is Format.ODS
    whole = "\n\n".join(texts(material))
    assert "追試はありますか" in whole and "診断書があれば8月6日に行います。" in whole
    assert "| 班 | 平均点 |" in whole and "| A | 8.1 |" in whole
    assert "採点基準" not in whole
    assert [c.ordinal for c in material.chunks] == list(range(len(material.chunks)))


def test_a_sheet_s_lines_of_one_cell_are_its_title_and_notes_not_rows_of_its_table():
    sheet = (
        '<table:table table:name="実験3">'
        + row("実験3 共振の周波数特性（A03班）")
        + row("R = 47 Ω, L = 10 mH, C = 100 nF")
        + row("f (kHz)", "V_R (V)")
        + row("4.8", "1.62")
        + row("5", "1.71")
        + row("測定された共振周波数は 5.0 kHz 付近。")
        + "</table:table>"
    )
    chunks = parse_material(package("spreadsheet", sheet), "lab.ods").chunks
    assert {c.heading_path for c in chunks} == {("実験3", "実験3 共振の周波数特性（A03班）")}
    assert [c.text.split("\n\n")[1:] for c in chunks] == [
        ["R = 47 Ω, L = 10 mH, C = 100 nF"],
        ["| f (kHz) | V_R (V) |\n| --- | --- |\n| 4.8 | 1.62 |\n| 5 | 1.71 |"],
        ["測定された共振周波数は 5.0 kHz 付近。"],
    ]


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


def math(inner: str) -> str:
    """A formula's content.xml as LibreOffice Math writes it, StarMath source beside it."""
    return (
        '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics>'
        f'{inner}<annotation encoding="StarMath 5.0">x over y</annotation></semantics></math>'
    )


@pytest.mark.parametrize(
    ("mathml", "latex"),
    [
        ("<mfrac><mi>a</mi><mrow><mn>2</mn><mi>b</mi></mrow></mfrac>", r"\frac{a}{2b}"),
        (
            "<msub><mi>x</mi><mrow><mi>k</mi><mo>+</mo><mn>1</mn></mrow></msub>"
            "<msubsup><mi>e</mi><mi>k</mi><mn>2</mn></msubsup>",
            "x_{k+1}e_{k}^{2}",
        ),
        (
            "<munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi>"
            "</munderover><msqrt><mi>a</mi></msqrt><mroot><mi>b</mi><mn>3</mn></mroot>",
            r"\sum_{i=1}^{n}\sqrt{a}\sqrt[3]{b}",
        ),
        ("<mover><mi>x</mi><mo>¯</mo></mover>", r"\bar{x}"),
        (
            "<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr>"
            "<mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable>",
            r"\begin{matrix} 1 & 0 \\ 0 & 1 \end{matrix}",
        ),
        # a system of equations (left lbrace stack{…} right none): the brace is written \{
        (
            '<mrow><mo fence="true" form="prefix" stretchy="true">{</mo><mtable><mtr><mtd>'
            '<mi>x</mi><mo>=</mo><mn>1</mn></mtd></mtr></mtable><mo fence="true"/></mrow>',
            r"\{\begin{matrix} x=1 \end{matrix}",
        ),
    ],
)
def test_libreoffice_math_reads_as_latex_without_its_starmath_source(mathml, latex):
    from xml.etree import ElementTree

    assert to_latex(ElementTree.fromstring(math(mathml))) == latex


def test_a_formula_is_latex_a_display_alone_and_inline_in_a_sentence():
    frame = (
        '<draw:frame draw:name="{0}" text:anchor-type="as-char">'
        '<draw:object xlink:href="./{0}"/><draw:image xlink:href="./ObjectReplacements/{0}"/>'
        "</draw:frame>"
    )
    body = (
        "<text:p>更新式は次のとおり。</text:p>"
        f"<text:p>{frame.format('Object 1')}</text:p>"
        f"<text:p>誤差は {frame.format('Object 2')} で減る。</text:p>"
    )
    parts = {
        "Object 1/content.xml": math("<mi>x</mi><mo>=</mo><mfrac><mi>a</mi><mi>b</mi></mfrac>"),
        "Object 2/content.xml": math("<msup><mi>h</mi><mn>2</mn></msup>"),
        "Object 3/content.xml": "<chart/>",  # another kind of object: no formula
    }
    (chunk,) = parse_material(package("text", body, parts=parts), "newton.odt").chunks
    assert "$$\nx=\\frac{a}{b}\n$$" in chunk.text
    assert "誤差は $h^{2}$ で減る。" in chunk.text
    assert "StarMath" not in chunk.text and "x over y" not in chunk.text


def test_a_formula_on_a_slide_is_a_display_where_it_stands():
    slide = (
        '<draw:page draw:name="p1"><draw:frame presentation:class="title"><draw:text-box>'
        "<text:p>Euler</text:p></draw:text-box></draw:frame>"
        '<draw:frame svg:y="6cm"><draw:text-box><text:p>Stable when h is small.</text:p>'
        '</draw:text-box></draw:frame><draw:frame svg:y="3cm"><draw:object '
        'xlink:href="./Object 1"/></draw:frame></draw:page>'
    )
    parts = {"Object 1/content.xml": math("<mi>y</mi><mo>=</mo><msup><mi>e</mi><mi>t</mi></msup>")}
    (chunk,) = parse_material(package("presentation", slide, parts=parts), "l9.odp").chunks
    assert chunk.text.index("$$\ny=e^{t}\n$$") < chunk.text.index("Stable when h is small.")


def test_a_chart_is_its_title_and_the_table_of_its_numbers():
    chart = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
        "<office:chart><chart:chart><chart:title><text:p>Problems found</text:p></chart:title>"
        '<chart:plot-area><chart:axis chart:dimension="x"><chart:title><text:p>Users</text:p>'
        "</chart:title></chart:axis></chart:plot-area><table:table><table:table-header-rows>"
        "<table:table-row><table:table-cell/><table:table-cell><text:p>Share</text:p>"
        "</table:table-cell></table:table-row></table:table-header-rows><table:table-rows>"
        "<table:table-row><table:table-cell><text:p>1</text:p></table:table-cell>"
        "<table:table-cell><text:p>0.31</text:p></table:table-cell></table:table-row>"
        "</table:table-rows></table:table></chart:chart></office:chart></office:body>"
        "</office:document-content>"
    )
    slide = (
        '<draw:page draw:name="p1"><draw:frame presentation:class="title"><draw:text-box>'
        "<text:p>How many users?</text:p></draw:text-box></draw:frame>"
        '<draw:frame svg:y="3cm"><draw:object xlink:href="./Object 1"/></draw:frame></draw:page>'
    )
    parts = {"Object 1/content.xml": chart}
    (chunk,) = parse_material(package("presentation", slide, parts=parts), "l6.odp").chunks
    assert "Problems found\n\n|  | Share |\n| --- | --- |\n| 1 | 0.31 |" in chunk.text
    assert "Users" not in chunk.text  # an axis title is no title of the chart


def test_headings_made_by_hand_in_bold_and_large_are_headings_in_a_text_not_on_a_slide():
    looks = (
        '<style:style style:name="Big" style:family="text"><style:text-properties '
        'fo:font-size="20pt" fo:font-weight="bold"/></style:style>'
        '<style:style style:name="Mid" style:family="text"><style:text-properties '
        'fo:font-size="14pt" fo:font-weight="bold"/></style:style>'
    )
    body = (
        '<text:p><text:span text:style-name="Big">A/B テストの設計</text:span></text:p>'
        '<text:p><text:span text:style-name="Mid">1. A/B テストとは</text:span></text:p>'
        "<text:p>ランダム化で交絡を断ち切る。</text:p>"
        '<text:p><text:span text:style-name="Mid">太字で大きな文も、文は文である。</text:span>'
        "</text:p>"
    )
    (chunk,) = parse_material(package("text", body, automatic=looks), "ab.odt").chunks
    assert chunk.heading_path == ("A/B テストの設計", "1. A/B テストとは")
    assert "太字で大きな文も、文は文である。" in chunk.text  # a sentence: no heading
    slide = (
        '<draw:page draw:name="p1"><draw:frame presentation:class="title"><draw:text-box>'
        "<text:p>Testing</text:p></draw:text-box></draw:frame><draw:frame><draw:text-box>"
        '<text:p><text:span text:style-name="Mid">Big claim</text:span></text:p>'
        "</draw:text-box></draw:frame></draw:page>"
    )
    (chunk,) = parse_material(package("presentation", slide, automatic=looks), "t.odp").chunks
    assert chunk.heading_path == ("Testing",) and "Big claim" in chunk.text


def test_a_span_set_above_or_below_the_line_reads_as_the_page_shows_it():
    styles = (
        '<style:style style:name="T1" style:family="text">'
        '<style:text-properties style:text-position="sub 58%"/></style:style>'
        '<style:style style:name="T2" style:family="text">'
        '<style:text-properties style:text-position="33% 58%"/></style:style>'
    )
    body = (
        '<text:p>H<text:span text:style-name="T1">2</text:span>O at 10'
        '<text:span text:style-name="T2">−3</text:span> mol</text:p>'
    )
    (chunk,) = parse_material(package("text", body, automatic=styles), "n.odt").chunks
    assert chunk.text == "H₂O at 10⁻³ mol"
