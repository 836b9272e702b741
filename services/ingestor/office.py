"""Word (.docx), PowerPoint (.pptx) and Excel (.xlsx) materials.

Teachers keep lecture notes in Word and slides in PowerPoint. Both are read into the
Markdown the rest of ingestion already understands, so a table stays a table, a bulleted
list a list and a code listing a fenced block, each with its heading path, and the
chunker keeps each whole with the sentence that introduces it:

- Word: ``Heading n`` (見出し n) paragraphs open sections, list paragraphs are items
  (indented by level, numbered as Word numbers them), paragraphs in a code or
  preformatted style, or set wholly in a monospace font, are a code block, tables are GFM
  tables, equations LaTeX (``omml.py``: an equation alone in its paragraph is a ``$$``
  display); body order is kept. Text the library's own reading leaves out is kept:
  paragraphs inside content controls, tracked insertions not yet accepted, text boxes
  (``omml.paragraph_text``), footnotes and endnotes (in parentheses after the paragraph that
  refers to them); deleted text is not, nor the generated table of contents.
- PowerPoint: each slide is a section named by its title and cited by its number as the
  page; the body placeholder's paragraphs are list items (indented by level), other text
  boxes prose, tables and charts' numbers GFM tables, a SmartArt diagram's nodes list
  items (python-pptx does not read them), a text box set in a monospace font a code
  listing, shapes read top to bottom, then left to right; the speaker notes follow the
  slide's own text under a line that says so ("Speaker notes:", 発表者ノート：), since that is
  where many teachers write what they say. A hidden slide is left out, as the show leaves it.
- Excel: each sheet is a table (``qa.table_chunks``): Q/A rows when its header names a
  question and an answer column, else its rows under the sheet's name; a formula cell
  gives the value Excel last computed, a number shows as its cell's format shows it, a
  cell merged down stands in each row, a lone cell above the header is the table's title,
  and lines of notes under a blank row are prose. A hidden sheet is left out.
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import re
import textwrap
import zipfile
from collections.abc import Iterable, Iterator
from decimal import ROUND_HALF_UP, Decimal
from xml.etree import ElementTree

import docx
import openpyxl
import pptx
from docx.oxml import parse_xml
from docx.oxml.ns import qn
from docx.table import Table as WordTable
from docx.text.paragraph import Paragraph as WordParagraph
from openpyxl.utils.cell import range_boundaries
from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER
from pptx.oxml import parse_xml as parse_slide_xml

from services.common.errors import InvalidInput
from services.common.materials import Chunk
from services.common.text import LIST_ITEM
from services.ingestor.chunking import Block, ChunkLimits, chunk_blocks
from services.ingestor.markdown import markdown_table, parse_markdown
from services.ingestor.omml import paragraph_text, run_raised
from services.ingestor.parsing import scripted
from services.ingestor.qa import table_chunks

_WORD_HEADING = re.compile(r"^(?:heading|見出し)\s*(\d)$", re.I)
_WORD_CODE_STYLE = re.compile(r"code|preformatted|source|コード", re.I)
MONOSPACE = re.compile(r"courier|consolas|menlo|monaco|mono|ｺﾞｼｯｸ|ゴシック.*等幅|MS Gothic", re.I)
_HIRAGANA = re.compile(r"[\u3041-\u309f]")
_BULLET_PLACEHOLDERS = {PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT}
_DIAGRAM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_DRAWING = "http://schemas.openxmlformats.org/drawingml/2006/main"
_RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def parse_docx(data: bytes, filename: str) -> tuple[str | None, list[Block]]:
    document = _open(docx.Document, data, filename, "a Word")
    # python-docx resolves a paragraph's style by scanning every style, each time it is asked
    names = {style.style_id: style.name for style in document.styles}
    notes = _word_notes(document)
    numbering = _Numbering(document)
    lines: list[str] = []
    code: list[str] = []
    for element in _word_body(document.element.body):
        paragraph = WordParagraph(element, document) if element.tag == qn("w:p") else None
        style = names.get(element.style, "") if paragraph is not None else ""
        if paragraph is not None and _is_code(paragraph, style):
            code.append(paragraph_text(element)[0].rstrip())  # its indentation is meaning
            continue
        if code:
            lines += ["", "```", *code, "```", ""]
            code = []
        if paragraph is None:
            table = WordTable(element, document)
            lines += [
                "",
                *markdown_table([[_cell(c) for c in row.cells] for row in table.rows]),
                "",
            ]
        else:
            lines += _word_paragraph(paragraph, style, notes, numbering)
    if code:
        lines += ["", "```", *code, "```", ""]
    title, blocks = parse_markdown("\n".join(lines))
    return document.core_properties.title or title, blocks


def speaker_notes(text: str) -> list[str]:
    """A slide's speaker notes as Markdown lines: what the teacher says, set apart from what
    the slide shows (in its chunk) under a line that says so; none when they are blank."""
    notes = _prose(text)
    if not any(line.strip() for line in notes):
        return []
    marker = "発表者ノート：" if _written_in_japanese(notes) else "Speaker notes:"
    return ["", marker, "", *notes, ""]


def _written_in_japanese(lines: list[str]) -> bool:
    """Japanese sentences hold hiragana, however many English terms they name; English
    notes hold none, even where they name a Japanese term in kanji."""
    return any(_HIRAGANA.search(line) for line in lines)


def parse_pptx(data: bytes, filename: str) -> tuple[str | None, list[Block]]:
    deck = _open(pptx.Presentation, data, filename, "a PowerPoint")
    # each slide's title shape, looked up once (python-pptx searches the placeholders)
    titles = [slide.shapes.title or _title_box(slide) for slide in deck.slides]
    headings = [_one_line(shape.text) if shape is not None else "" for shape in titles]
    title = deck.core_properties.title or next((h for h in headings if h), None)
    blocks: list[Block] = []
    slides = zip(deck.slides, titles, headings, strict=True)
    for number, (slide, title_shape, heading) in enumerate(slides, start=1):
        if slide._element.get("show") in ("0", "false"):
            continue  # a hidden slide is not shown: often an old version kept aside
        # a slide's section sits under the deck's title, as a Markdown file's under its H1
        lines = [f"# {title}", ""] if title and heading != title else []
        lines += [f"## {heading or f'Slide {number}'}", ""]
        body = [s for s in _shapes(slide.shapes) if s != title_shape and not _page_furniture(s)]
        for shape in sorted(body, key=lambda s: (s.top or 0, s.left or 0)):
            lines += _slide_shape(shape)
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            lines += speaker_notes(slide.notes_slide.notes_text_frame.text)
        _, slide_blocks = parse_markdown("\n".join(lines))
        blocks += [
            Block(b.text, b.heading_path, page=number) for b in slide_blocks if b.text.strip()
        ]
    return title, blocks


def parse_xlsx(data: bytes, filename: str, limits: ChunkLimits) -> tuple[str | None, list[Chunk]]:
    workbook = _open(
        lambda f: openpyxl.load_workbook(f, read_only=True, data_only=True),
        data,
        filename,
        "an Excel",
    )
    chunks: list[Chunk] = []
    rich = _rich_texts(data)
    try:
        for sheet in workbook.worksheets:
            if sheet.sheet_state != "visible":
                continue  # a hidden sheet is the author's (a TA's notes, lookups)
            where = f"{filename} (sheet {sheet.title!r})"
            chunks += sheet_chunks(_sheet_rows(sheet, rich), sheet.title, where, limits)
        return workbook.properties.title or None, [
            dataclasses.replace(chunk, ordinal=n) for n, chunk in enumerate(chunks)
        ]
    finally:
        workbook.close()


def sheet_chunks(
    rows: list[list[str]], sheet_name: str, where: str, limits: ChunkLimits
) -> list[Chunk]:
    """A sheet's cells (as shown, a cell merged down standing in each row) as chunks: each
    table under the sheet's name and its title, Q/A rows where it names a question and an
    answer column (``qa.table_chunks``), and the lines of notes between tables, one to a
    row, packed together. Excel's and LibreOffice's sheets alike."""
    chunks: list[Chunk] = []
    notes: list[Block] = []
    for part, table in sheet_tables(rows):
        heading = (sheet_name, *part)
        if not _tabular(table):
            notes += [Block(c, heading) for row in table for c in row if c]
            continue
        chunks += chunk_blocks(notes, limits) + table_chunks(table, where, limits, heading)
        notes = []
    return chunks + chunk_blocks(notes, limits)


def _sheet_rows(sheet, rich: dict[str, str] | None = None) -> list[list[str]]:
    """An Excel sheet's cells as shown, a cell merged down the rows standing in each row,
    a text with raised or lowered runs as ``_rich_texts`` writes it."""
    rich = rich or {}
    rows = [
        [_value(c.value, getattr(c, "number_format", "")) for c in row] for row in sheet.iter_rows()
    ]
    rows = [[rich.get(cell, cell) for cell in row] for row in rows]
    for top, left, bottom in _merged_down(sheet):
        for r in range(top + 1, min(bottom + 1, len(rows))):
            if top < len(rows) and left < len(rows[top]):
                rows[r] += [""] * (left + 1 - len(rows[r]))
                rows[r][left] = rows[top][left]
    return rows


def sheet_tables(rows: list[list[str]]) -> Iterator[tuple[tuple[str, ...], list[list[str]]]]:
    """A sheet's tables as a reader sees them: a lone cell above a table (often merged
    across it) is its title, not its header, and further lone cells under the title
    introduce the table (the conditions it was measured under); a lone first cell that
    holds a sentence under a table is a note on it, not a row; a blank row sets apart notes
    under a table, or a table with a title of its own, and is otherwise a gap inside one
    table."""
    parts: list[list[list[str]]] = [[]]
    for row in rows:
        if any(row):
            parts[-1].append(row)
        elif parts[-1]:
            parts.append([])
    merged_parts: list[list[list[str]]] = []
    for part in (p for p in parts if p):
        if merged_parts and _tabular(merged_parts[-1]) and _tabular(part) and not _titled(part):
            merged_parts[-1] += part
        else:
            merged_parts.append(part)
    for table in (side for part in merged_parts for side in _side_by_side(part)):
        if not _tabular(table):
            yield (), table
            continue
        above = next(i for i, row in enumerate(table) if _filled(row) > 1)
        below = len(table)
        while below > above + 2 and _note(table[below - 1]):
            below -= 1
        title = (next(c for c in table[0] if c),) if above else ()
        if above > 1:
            yield title, table[1:above]
        yield title, table[above:below]
        if below < len(table):
            yield title, table[below:]


def _side_by_side(rows: list[list[str]]) -> list[list[list[str]]]:
    """Tables laid side by side, an empty column between them, as tables of their own."""
    width = max(len(row) for row in rows)
    rows = [row + [""] * (width - len(row)) for row in rows]
    used = [any(row[c] for row in rows) for c in range(width)]
    groups: list[list[int]] = []
    for column, filled in enumerate(used):
        if filled and groups and used[column - 1]:
            groups[-1].append(column)
        elif filled:
            groups.append([column])
    tables = [[[row[c] for c in group] for row in rows] for group in groups]
    return [[row for row in table if any(row)] for table in tables]


_MERGE_CELL = re.compile(rb"<(?:\w+:)?mergeCell\b[^>]*?\bref=\"([A-Z]+[0-9]+:[A-Z]+[0-9]+)\"")


# The parts of a workbook that hold texts: the shared strings, and a sheet's own cells.
_TEXT_PARTS = re.compile(r"xl/(?:sharedStrings|worksheets/sheet\d+)\.xml")


def _rich_texts(data: bytes) -> dict[str, str]:
    """Texts with raised or lowered runs (Excel's rich text: kJ mol⁻¹, CO₂ in a header),
    from their plain text, which is all a read-only workbook gives (read-only keeps a large
    one's memory small), to the text as ``parsing.scripted`` writes it: the runs had read
    flattened, 10⁶ as 106. A part is parsed, as a stream, only when it marks a run so."""
    found: dict[str, str] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in (n for n in archive.namelist() if _TEXT_PARTS.fullmatch(n)):
            if not _holds(archive, name, b"vertAlign"):
                continue
            with archive.open(name) as part:
                for _, element in ElementTree.iterparse(part):
                    if _local(element) in ("si", "is"):
                        runs = [_run_text(run) for run in element if _local(run) == "r"]
                        if any(up is not None for _, up in runs):
                            shown = [t if up is None else scripted(t, above=up) for t, up in runs]
                            found["".join(t for t, _ in runs)] = "".join(shown)
                        element.clear()
                    elif _local(element) == "row":
                        element.clear()  # a large sheet's rows read are let go
    return found


def _holds(archive: zipfile.ZipFile, name: str, mark: bytes) -> bool:
    """Does the part hold ``mark``? Read a megabyte at a time."""
    with archive.open(name) as part:
        tail = b""
        while block := part.read(1 << 20):
            if mark in tail + block:
                return True
            tail = block[-len(mark) :]
    return False


def _run_text(run: ElementTree.Element) -> tuple[str, bool | None]:
    """A rich-text run's text, and whether it is raised (True), lowered (False) or neither."""
    return "".join(t.text or "" for t in run if _local(t) == "t"), run_raised(run)


def _local(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _merged_down(sheet) -> Iterator[tuple[int, int, int]]:
    """(top row, column, bottom row), 0-based, of each merged range spanning rows. A
    read-only sheet (which keeps a large workbook's memory small) does not list its merged
    cells, so they are found in the sheet's XML, read a megabyte at a time."""
    try:
        source = sheet._get_source()
    except (AttributeError, KeyError):
        return  # merged cells unknown: each stays in its top row only
    refs: list[bytes] = []
    with source:
        tail = b""
        while block := source.read(1 << 20):
            text = tail + block
            cut = max(0, len(text) - 200)  # a tag across the cut is read with the next block
            refs += [m.group(1) for m in _MERGE_CELL.finditer(text) if m.start() < cut]
            tail = text[cut:]
        refs += [m.group(1) for m in _MERGE_CELL.finditer(tail)]
    for ref in refs:
        left, top, _, bottom = range_boundaries(ref.decode())
        if bottom > top:
            yield top - 1, left - 1, bottom - 1


def _filled(row: list[str]) -> int:
    return sum(1 for cell in row if cell)


def _tabular(rows: list[list[str]]) -> bool:
    return any(_filled(row) > 1 for row in rows)


def _titled(rows: list[list[str]]) -> bool:
    return len(rows) > 1 and _filled(rows[0]) == 1 and _filled(rows[1]) > 1


def _note(row: list[str]) -> bool:
    """A row whose one cell, the first, holds a sentence: a note under a table (often
    merged across it), not a row of it."""
    text = row[0].strip()
    return _filled(row) == 1 and (text.endswith(("。", "．", ".", ")", "）")) or len(text) >= 30)


_SCIENTIFIC = re.compile(r"^0(?:\.(0+))?E\+0+$", re.I)
_DECIMALS = re.compile(r"^[#,]*0(?:\.(0+))?(%?)$")
# A number format with text around the number: #,##0.0 "ms", "¥"#,##0, 0"点"
_LITERAL = r'(?:"[^"]*"|\\.|\s)*'
_AROUND = re.compile(rf"^({_LITERAL})([#,0.%]+)({_LITERAL})$")


def _value(value: object, number_format: str = "General") -> str:
    """A cell as a reader sees it: 3 not 3.0, a date without a midnight time, a number in
    its cell's format (7.0 in a "0.0" cell, 62% in a "0%" one, 1.98E-05 in a "0.00E+00")."""
    if value is None:
        return ""
    around = _AROUND.match(number_format or "")
    if around and re.search(r'["\\]', around.group(1) + around.group(3)):
        number = _value(value, around.group(2))
        return f"{_literal(around.group(1))}{number}{_literal(around.group(3))}"
    shown = _DECIMALS.match(number_format or "")
    if shown and isinstance(value, int | float) and not isinstance(value, bool):
        decimals, percent = len(shown.group(1) or ""), shown.group(2)
        number = Decimal(str(value)) * (100 if percent else 1)
        # rounded as Excel rounds, half away from zero (0.945 in a "0%" cell is 95%)
        number = number.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        thousands = "," if "," in number_format else ""
        return f"{number:{thousands}.{decimals}f}{percent}"
    scientific = _SCIENTIFIC.match(number_format or "")
    if scientific and isinstance(value, int | float) and not isinstance(value, bool):
        # Excel's 0.00E+00: two digits of exponent at least, its sign always shown
        mantissa, exponent = f"{value:.{len(scientific.group(1) or '')}E}".split("E")
        return f"{mantissa}E{int(exponent):+03d}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return _date_shown(value.date(), number_format or "")
    return str(value)


def _literal(part: str) -> str:
    """A format's text as shown: "ms" is ms, \\円 is 円."""
    return re.sub(r'"([^"]*)"|\\(.)', lambda m: m.group(1) or m.group(2) or "", part)


_DATE_SEPARATORS = "/-.年月日 ()（）"  # shown as written between a date's fields
_DATE_PART = re.compile(
    rf'yyyy|yy|m{{3,}}|mm|m|dddd|ddd|dd|d|aaaa|aaa|"[^"]*"|\\.|[{re.escape(_DATE_SEPARATORS)}]|.',
    re.I,
)
_WEEKDAYS_JA = "月火水木金土日"
# the weekday names Excel shows, not the process locale's
_WEEKDAYS_EN = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()


def _date_shown(day: datetime.date, number_format: str) -> str:
    """A date as its cell's format writes it (m"月"d"日" is 6月9日, yyyy/m/d 2026/6/9, with
    (aaa) 6月9日(火)); ISO when the format holds more than days, weekdays, months and years."""
    ja, en = _WEEKDAYS_JA[day.weekday()], _WEEKDAYS_EN[day.weekday()]
    fields = {"yyyy": f"{day.year}", "yy": f"{day.year % 100:02d}", "mm": f"{day.month:02d}",
              "m": f"{day.month}", "dd": f"{day.day:02d}", "d": f"{day.day}",
              "ddd": en[:3], "dddd": en, "aaa": ja, "aaaa": f"{ja}曜日"}  # fmt: skip
    out, dated = [], False
    for part in _DATE_PART.findall(number_format):
        key = part.lower()
        if key in fields:
            out.append(fields[key])
            dated = True
        elif part.startswith('"') or part.startswith("\\"):
            out.append(part.strip('"').removeprefix("\\"))
        elif part in _DATE_SEPARATORS:
            out.append(part)
        else:  # hours, weekdays, colours, "General": not a plain date format
            return day.isoformat()
    return "".join(out) if dated else day.isoformat()


def _open(reader, data: bytes, filename: str, kind: str):
    # Whatever the library raises on opening (a missing part, broken XML, a damaged ZIP)
    # means the same to the teacher: this file must be saved again.
    try:
        return reader(io.BytesIO(data))
    except Exception as exc:
        raise InvalidInput(f"{filename!r} cannot be read as {kind} file: {exc}") from exc


# -- Word -------------------------------------------------------------------------------


def _word_body(container) -> Iterator:
    """The body's paragraphs and tables in order, those inside content controls (a
    template's fields, a cover page) and one-cell tables included: python-docx's own walk
    skips the former, and reads the latter as tables."""
    for child in container.iterchildren():
        cells = child.findall(f"{qn('w:tr')}/{qn('w:tc')}") if child.tag == qn("w:tbl") else []
        if len(cells) == 1:
            # a table of one cell is a box (a listing on a shaded ground, a note), no table:
            # its paragraphs are read as the body's, a listing's lines as a code block
            yield from _word_body(cells[0])
        elif child.tag in (qn("w:p"), qn("w:tbl")):
            yield child
        elif child.tag in (qn("w:sdt"), qn("w:customXml")) and not _is_contents(child):
            content = child.find(qn("w:sdtContent"))
            yield from _word_body(content if content is not None else child)


def _is_contents(control) -> bool:
    """A content control that holds Word's generated table of contents: every entry is a
    heading of the document with its page number, as Markdown, HTML and OpenDocument
    readers also leave theirs out."""
    gallery = control.find(f"{qn('w:sdtPr')}/{qn('w:docPartObj')}/{qn('w:docPartGallery')}")
    return gallery is not None and gallery.get(qn("w:val")) == "Table of Contents"


def _cell(cell) -> str:
    return " ".join(paragraph_text(p)[0] for p in cell._tc.iter(qn("w:p")))


def _word_notes(document) -> dict[str, str]:
    """Footnote and endnote texts by reference, e.g. ``footnote 1``. python-docx does not
    read them; each is kept after the paragraph that refers to it."""
    texts = {}
    for part in document.part.package.iter_parts():
        kind = {"/word/footnotes.xml": "footnote", "/word/endnotes.xml": "endnote"}.get(
            str(part.partname)
        )
        for note in parse_xml(part.blob).iterchildren(qn(f"w:{kind}")) if kind else ():
            if note.get(qn("w:type")) is None:  # separators carry no words
                text = " ".join(paragraph_text(p)[0].strip() for p in note.iter(qn("w:p")))
                texts[f"{kind} {note.get(qn('w:id'))}"] = _one_line(text)
    return texts


def _word_paragraph(
    paragraph: WordParagraph, style: str, notes: dict[str, str], numbering: _Numbering
) -> list[str]:
    text, display = _text(paragraph)
    referred = [
        f"({notes[key]})"
        for kind in ("footnote", "endnote")
        for reference in paragraph._p.iter(qn(f"w:{kind}Reference"))
        if (key := f"{kind} {reference.get(qn('w:id'))}") in notes
    ]
    if display:
        return [*_formula(text), *referred]
    text = " ".join([text, *referred]).strip()
    if not text:
        return [""]
    if style == "Title":
        return ["", f"# {_one_line(text)}", ""]
    if heading := _WORD_HEADING.match(style):
        return ["", f"{'#' * min(6, int(heading.group(1)) + 1)} {_one_line(text)}", ""]
    if level := _styled_heading(paragraph, text):
        return ["", f"{'#' * level} {_one_line(text)}", ""]
    if (level := _list_level(paragraph, style)) is not None:
        return [f"{'  ' * level}{numbering.marker(paragraph, style, level)} {_one_line(text)}"]
    return ["", *_prose(text), ""]


class _Numbering:
    """A Word list item's marker as printed: "3." in a numbered list (Word counts the
    items of each list and level), "(3)" or "③" where the list's level text says so, "-"
    in a bulleted one."""

    def __init__(self, document) -> None:
        # (numId, level) -> (numFmt, lvlText: "%1." "(%1)")
        self._formats: dict[tuple[str, int], tuple[str, str]] = {}
        self._counts: dict[str, list[int]] = {}  # numId -> count per level
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError):  # a document without lists
            return
        abstract = {
            a.get(qn("w:abstractNumId")): {
                int(lvl.get(qn("w:ilvl"), "0")): (
                    fmt.get(qn("w:val"), ""),
                    text.get(qn("w:val"), "")
                    if (text := lvl.find(qn("w:lvlText"))) is not None
                    else "",
                )
                for lvl in a.findall(qn("w:lvl"))
                if (fmt := lvl.find(qn("w:numFmt"))) is not None
            }
            for a in root.findall(qn("w:abstractNum"))
        }
        for num in root.findall(qn("w:num")):
            reference = num.find(qn("w:abstractNumId"))
            levels = abstract.get(reference.get(qn("w:val")) if reference is not None else "", {})
            for level, fmt in levels.items():
                self._formats[(num.get(qn("w:numId")), level)] = fmt

    def marker(self, paragraph: WordParagraph, style: str, level: int) -> str:
        properties = paragraph._p.pPr
        numbered = properties.numPr if properties is not None else None
        num_id = (
            str(numbered.numId.val)
            if numbered is not None and numbered.numId is not None
            else style
        )
        default = ("decimal" if "Number" in style else "bullet", "")
        fmt, text = self._formats.get((num_id, level), default)
        counts = self._counts.setdefault(num_id, [0] * 10)
        level = min(level, 9)
        counts[level] += 1
        counts[level + 1 :] = [0] * (9 - level)  # a deeper list starts again under each item
        count = counts[level]
        if fmt == "decimalEnclosedCircle" and count <= 20:
            return chr(0x2460 + count - 1)  # ①
        if fmt.startswith("decimal"):
            printed = text.replace(f"%{level + 1}", str(count))
            # "(%1)" prints "(3)"; a level text naming other levels ("%1.%2") is no marker
            marker = "%" not in printed and LIST_ITEM.match(f"{printed} x") is not None
            return printed if marker else f"{count}."
        if fmt == "lowerLetter" and count <= 26:
            return f"{chr(ord('a') + count - 1)})"
        return "-"


def _styled_heading(paragraph: WordParagraph, text: str) -> int:
    runs = [r for r in paragraph.runs if r.text.strip()]
    sizes = {r.font.size.pt for r in runs if r.font.size is not None}
    return hand_made_heading(text, sizes, bool(runs) and all(r.bold for r in runs))


def hand_made_heading(text: str, sizes: set[float], all_bold: bool) -> int:
    """The level of a heading made by hand, as Google Docs and many teachers make them: a
    short line, no sentence, wholly bold (``all_bold``) and set large in one size (18 pt and
    up: a title, 13 pt and up: a section). 0 for anything else. Word's and OpenDocument's."""
    if not all_bold or len(sizes) != 1:
        return 0
    if len(text) > 80 or "\n" in text or re.search(r"[。.!?！？]$", text):
        return 0
    size = next(iter(sizes))
    return 1 if size >= 18 else 2 if size >= 13 else 0


def _list_level(paragraph: WordParagraph, style: str) -> int | None:
    properties = paragraph._p.pPr
    numbering = properties.numPr if properties is not None else None
    if numbering is not None and numbering.numId is not None and numbering.numId.val != 0:
        return numbering.ilvl.val if numbering.ilvl is not None else 0
    if not style.startswith("List"):
        return None
    nested = re.search(r"(\d)$", style)  # List Bullet 2 is the second level
    return int(nested.group(1)) - 1 if nested else 0


def _is_code(paragraph: WordParagraph, style: str) -> bool:
    if _WORD_CODE_STYLE.search(style):
        return True
    runs = [r for r in paragraph.runs if r.text.strip()]
    return bool(runs) and all(MONOSPACE.search(r.font.name or "") for r in runs)


# -- PowerPoint -------------------------------------------------------------------------


def _shapes(shapes: Iterable) -> Iterator:
    """Every shape, the members of groups included."""
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from _shapes(shape.shapes)
        else:
            yield shape


def _title_box(slide):
    """A slide without a title placeholder (a blank layout with text boxes) is titled by
    its topmost text box when that box is one short line."""
    boxes = [
        s
        for s in _shapes(slide.shapes)
        if s.has_text_frame and s.text_frame.text.strip() and not _page_furniture(s)
    ]
    top = min(boxes, key=lambda s: (s.top or 0, s.left or 0), default=None)
    text = top.text_frame.text.strip() if top is not None else ""
    return top if text and "\n" not in text and "\v" not in text and len(text) <= 80 else None


_FURNITURE = {PP_PLACEHOLDER.SLIDE_NUMBER, PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.DATE}
PAGE_NUMBER = re.compile(r"\d{1,3}(?:\s*/\s*\d{1,3})?")


def _page_furniture(shape) -> bool:
    """A slide number, footer or date: on every slide, about none of them ("2", "3 / 15")."""
    if shape.is_placeholder and shape.placeholder_format.type in _FURNITURE:
        return True
    text = shape.text_frame.text.strip() if shape.has_text_frame else ""
    return PAGE_NUMBER.fullmatch(text) is not None


def _slide_shape(shape) -> list[str]:
    if _is_smartart(shape):
        return ["", *(f"- {text}" for text in _smartart_texts(shape)), ""]
    if shape.has_table:
        rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
        return ["", *markdown_table(rows), ""]
    if shape.has_chart:
        return _chart(shape.chart)
    if not shape.has_text_frame:
        return []
    if _is_code_box(shape.text_frame):  # a listing set in a monospace font: lines as typed
        code = [p.text.replace("\v", "\n").rstrip() for p in shape.text_frame.paragraphs]
        return ["", "```", *textwrap.dedent("\n".join(code)).strip("\n").split("\n"), "```", ""]
    bullets = shape.is_placeholder and shape.placeholder_format.type in _BULLET_PLACEHOLDERS
    lines = [""]
    for paragraph in shape.text_frame.paragraphs:
        text, display = _text(paragraph)
        text = _one_line(text)
        if not text:
            continue
        if display:
            lines += _formula(text)
        elif bullets:
            lines.append(f"{'  ' * paragraph.level}- {text}")
        else:
            lines += [*_prose(text), ""]
    return [*lines, ""]


def _is_code_box(frame) -> bool:
    """Every run with text is set in a monospace font (its own, or its paragraph's)."""
    fonts = [
        r.font.name or p.font.name or "" for p in frame.paragraphs for r in p.runs if r.text.strip()
    ]
    return bool(fonts) and all(MONOSPACE.search(font) for font in fonts)


def _chart(chart) -> list[str]:
    """A chart's numbers as the table they were typed into: a row per category, a column
    per series, under the chart's title."""
    title = _one_line(chart.chart_title.text_frame.text) if chart.has_title else ""
    series = [s for plot in chart.plots for s in plot.series]
    categories = list(chart.plots[0].categories) if len(chart.plots) else []
    length = max((len(s.values) for s in series), default=0)
    labels = [str(c) for c in categories] + [str(n + 1) for n in range(len(categories), length)]
    rows = [["", *(s.name for s in series)]]
    rows += [
        [label, *(_value(s.values[i]) if i < len(s.values) else "" for s in series)]
        for i, label in enumerate(labels)
    ]
    return ["", *([title, ""] if title else []), *markdown_table(rows), ""]


def _is_smartart(shape) -> bool:
    uri = getattr(shape.element, "graphicData_uri", None)
    return uri == _DIAGRAM


def _smartart_texts(shape) -> list[str]:
    """A SmartArt diagram's node texts in order. python-pptx does not read them: they live
    in the diagram's data part, which the graphic frame names by relationship."""
    relation = shape.element.graphicData.find(f"{{{_DIAGRAM}}}relIds")
    if relation is None:
        return []
    data = shape.part.related_part(relation.get(f"{{{_RELATIONSHIPS}}}dm"))
    points = parse_slide_xml(data.blob).iter(f"{{{_DIAGRAM}}}pt")
    texts = []
    for point in points:
        if point.get("type", "node") != "node":
            continue  # the diagram's document, transitions and connections hold no words
        body = point.find(f"{{{_DIAGRAM}}}t")
        paragraphs = [] if body is None else body.iter(f"{{{_DRAWING}}}p")
        texts += [t for p in paragraphs if (t := _one_line(paragraph_text(p)[0]))]
    return texts


# -- shared -----------------------------------------------------------------------------


def _text(paragraph) -> tuple[str, bool]:
    """A Word or slide paragraph's text, and whether it is one display equation."""
    text, display = paragraph_text(paragraph._p)
    return text.strip(), display


def _formula(latex: str) -> list[str]:
    return ["", "$$", latex, "$$", ""]


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\v", " ")).strip()


def _prose(text: str) -> list[str]:
    """A paragraph's lines: a soft line break (Shift+Enter, a vertical tab in slides) stays
    a break, which the Markdown reader joins between two Japanese characters; a blank line
    (between a text box's paragraphs) still parts two paragraphs."""
    lines = [line.strip() for line in text.replace("\v", "\n").split("\n")]
    kept = [line for n, line in enumerate(lines) if line or (n and lines[n - 1])]
    return "\n".join(kept).strip("\n").split("\n") if any(kept) else []
