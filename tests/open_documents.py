"""OpenDocument course materials written as LibreOffice writes them (a ZIP of content.xml,
styles.xml and meta.xml), for the ingestion tests: lecture notes with headings, a footnote,
lists, a code listing and a table; a deck with an outline, a text box, a table, speaker
notes and a hidden slide; a workbook with a Q/A sheet, a table and a hidden sheet."""

from __future__ import annotations

import io
import zipfile

NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:xlink="http://www.w3.org/1999/xlink"'
)


def package(
    kind: str,
    body: str,
    automatic: str = "",
    styles: str = "",
    title: str = "",
    parts: dict[str, str] | None = None,
) -> bytes:
    """An OpenDocument file; ``parts`` are more entries (an embedded formula's content.xml)."""
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
        for name, data in (parts or {}).items():
            archive.writestr(name, data)
    return out.getvalue()


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


MONO = (
    '<style:style style:name="T1" style:family="text">'
    '<style:text-properties style:font-name="Courier New"/></style:style>'
)
