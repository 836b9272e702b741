"""OpenDocument materials, as LibreOffice saves them: text (.odt), slides (.odp) and
spreadsheets (.ods).

They are read into the Markdown the rest of ingestion understands, as ``office.py`` reads
Word, PowerPoint and Excel:

- Text: the Title paragraph is the document's title and ``text:h`` headings open
  sections a level below it at their outline level (as Word's are read), as do headings
  made by hand (a short line, wholly bold and set large), lists are items
  (indented by level, numbered where the list's style numbers them), paragraphs in a
  preformatted or source style, or set wholly in a monospace font, are a code block,
  tables are GFM tables, formulas (LibreOffice Math objects) LaTeX (``mathml.py``: a
  formula alone in its paragraph is a ``$$`` display), footnotes follow the paragraph that
  refers to them in parentheses (as Word's); a generated table of contents is left out
  (every entry is a heading of the document).
- Slides: each slide is a section named by its title and cited by its number as the page;
  the outline's paragraphs are list items, other text boxes prose, tables GFM tables, a
  chart its title and the table of its numbers, in reading order (top to bottom, then left
  to right); the speaker notes follow under a line that says so, as for PowerPoint. A
  hidden slide is left out.
- Spreadsheets: each visible sheet is read as Excel's are (``office.sheet_chunks``): its
  tables under the sheet's name and their titles, Q/A rows where a question and an answer
  column are named, notes between tables as prose. A cell gives the text LibreOffice shows
  for it (a formula's last value, as formatted); a cell merged down stands in each row.

The XML is read with the standard library (expat 2.5, which bounds entity expansion;
external entities are never fetched).
"""

from __future__ import annotations

import dataclasses
import functools
import io
import re
import zipfile
from collections.abc import Iterator
from xml.etree import ElementTree

from services.common.errors import InvalidInput
from services.common.materials import Chunk
from services.ingestor.chunking import Block, ChunkLimits
from services.ingestor.markdown import markdown_table, parse_markdown
from services.ingestor.mathml import is_math, to_latex
from services.ingestor.office import (
    MONOSPACE,
    PAGE_NUMBER,
    hand_made_heading,
    sheet_chunks,
    speaker_notes,
)
from services.ingestor.parsing import scripted

_NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "presentation": "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "svg": "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
    "chart": "urn:oasis:names:tc:opendocument:xmlns:chart:1.0",
}
_XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
_XLINK = "http://www.w3.org/1999/xlink"
_CODE_STYLE = re.compile(r"preformatted|source|code|コード", re.I)
# A sheet's trailing blank rows and columns are written as one element repeated up to the
# sheet's size (1,048,576 rows): a repeat this long is blank space, not data.
_MAX_REPEAT = 1000


def _q(name: str) -> str:
    """``text:p`` → ``{urn:…:text:1.0}p``."""
    prefix, local = name.split(":")
    return f"{{{_NS[prefix]}}}{local}"


@dataclasses.dataclass
class _Package:
    content: ElementTree.Element
    styles: ElementTree.Element | None
    title: str | None
    # how far each list got (by its xml:id, and by its style), for the lists that go on
    counted: dict[str, int] = dataclasses.field(default_factory=dict)
    text_document: bool = False  # not slides nor sheets: headings may be made by hand

    @functools.cached_property
    def _styles_by_name(self) -> dict[str, ElementTree.Element]:
        """Every style, the document's automatic ones last (they win)."""
        return {
            s.get(_q("style:name"), ""): s
            for root in (self.styles, self.content)
            if root is not None
            for s in root.iter(_q("style:style"))
        }

    def style_family(self, name: str) -> list[str]:
        """A style's name and its parents' (an automatic style P3 → "Preformatted Text")."""
        chain: list[str] = []
        while name and name not in chain:
            chain.append(name)
            style = self._styles_by_name.get(name)
            name = style.get(_q("style:parent-style-name"), "") if style is not None else ""
        return [n.replace("_20_", " ") for n in chain]

    def numbered(self, list_style: str, level: int) -> bool:
        """Does the list style number its items at this level (1., 2. …)?"""
        for root in (self.content, self.styles):
            if root is None:
                continue
            for style in root.iter(_q("text:list-style")):
                if style.get(_q("style:name")) == list_style:
                    for child in style:
                        if child.get(_q("text:level")) == str(level):
                            return child.tag == _q("text:list-level-style-number")
        return False

    def look(self, style: str) -> dict[str, str]:
        """What a style sets of its text's look: font, weight and size (font-name or
        font-family, font-weight, font-size), as {name: value}."""
        found = self.automatic(style, "style:text-properties")
        font = found.get("font-name") or found.get("font-family")
        look = {"font": font, "weight": found.get("font-weight"), "size": found.get("font-size")}
        return {k: v for k, v in look.items() if v}

    def automatic(self, name: str, properties: str) -> dict[str, str]:
        """The properties element of a style (``style:text-properties`` …), as {local name:
        value}."""
        style = self._styles_by_name.get(name)
        found = style.find(_q(properties)) if style is not None else None
        return {k.split("}")[-1]: v for k, v in found.attrib.items()} if found is not None else {}


def _open(data: bytes, filename: str, kind: str) -> _Package:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())

        def part(name: str) -> ElementTree.Element | None:
            return ElementTree.fromstring(archive.read(name)) if name in names else None

        content, styles, meta = part("content.xml"), part("styles.xml"), part("meta.xml")
        if content is None:
            raise KeyError("no content.xml")
        objects = {
            name.removesuffix("/content.xml"): _embedded(archive, name)
            for name in names
            if name.endswith("/content.xml") and name != "content.xml"
        }
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, OSError) as exc:
        raise InvalidInput(f"{filename!r} is not a readable {kind} file: {exc}") from exc
    _objects_inline(content, objects)
    title_element = meta.find(f".//{_q('dc:title')}") if meta is not None else None
    title = (title_element.text or "").strip() if title_element is not None else ""
    package = _Package(content, styles, title or None)
    _scripts_marked(package)
    return package


def _embedded(archive: zipfile.ZipFile, name: str) -> ElementTree.Element:
    """An embedded object's XML (a formula, a chart); an unreadable one is none of them."""
    try:
        return ElementTree.fromstring(archive.read(name))
    except (ElementTree.ParseError, OSError, zipfile.BadZipFile):
        return ElementTree.Element("unreadable")


# A formula's frame, once read, is a span of LaTeX marked with this attribute.
_FORMULA = "{urn:eduanima}formula"
# A span set above or below the line (its style's text-position), marked "up" or "down".
_SCRIPT = "{urn:eduanima}script"


def _scripts_marked(package: _Package) -> None:
    """Mark each span its style raises or lowers (``style:text-position``: "super 58%",
    "sub 58%", "33% 58%"), so that it reads as a formula writes it: H_2O, 10^{-3}."""
    for span in package.content.iter(_q("text:span")):
        position = package.automatic(
            span.get(_q("text:style-name"), ""), "style:text-properties"
        ).get("text-position", "")
        shift = position.split()[0] if position.split() else ""
        if shift in ("super", "sub"):
            span.set(_SCRIPT, "up" if shift == "super" else "down")
        elif re.fullmatch(r"-?\d+(?:\.\d+)?%", shift) and float(shift[:-1]):
            span.set(_SCRIPT, "up" if float(shift[:-1]) > 0 else "down")


def _objects_inline(content: ElementTree.Element, objects: dict[str, ElementTree.Element]) -> None:
    """Each embedded object read in place, where its frame stands: a LibreOffice Math
    formula as its LaTeX between $ signs (in a paragraph, inline; on a slide, a text box of
    its own), a chart as its title and the table of its numbers (as ``office.py`` reads
    PowerPoint's). Pictures and other objects stay frames, which are not read."""
    if not objects:
        return
    for parent in list(content.iter()):
        for at, child in enumerate(list(parent)):
            shown = child.find(_q("draw:object")) if child.tag == _q("draw:frame") else None
            href = shown.get(f"{{{_XLINK}}}href", "") if shown is not None else ""
            embedded = objects.get(href.removeprefix("./"))
            if embedded is None:
                continue
            chart = embedded.find(f"{_q('office:body')}/{_q('office:chart')}/{_q('chart:chart')}")
            if is_math(embedded):
                latex = to_latex(embedded)
                span = ElementTree.Element(_q("text:span"), {_FORMULA: latex})
                span.text = f"${latex}$"
                if parent.tag.startswith(f"{{{_NS['text']}}}"):  # in a paragraph
                    span.tail = child.tail
                    parent.remove(child)
                    parent.insert(at, span)
                    continue
                blocks = [ElementTree.Element(_q("text:p"))]
                blocks[0].append(span)
            elif chart is not None:
                blocks = [_paragraph(_line(" ".join(map(_inline, _paragraphs(title)))))
                          for title in chart.findall(_q("chart:title"))]  # fmt: skip
                blocks += chart.findall(_q("table:table"))
            else:
                continue
            box = ElementTree.SubElement(child, _q("draw:text-box"))
            box.extend(blocks)
            child.remove(shown)


def _paragraph(text: str) -> ElementTree.Element:
    paragraph = ElementTree.Element(_q("text:p"))
    paragraph.text = text
    return paragraph


# Marks with no text of their own, and reviewers' comments (which the Word reader leaves
# out too: they are about the notes, not in them).
_NOT_TEXT = {
    _q("text:bookmark"),
    _q("text:soft-page-break"),
    _q("office:annotation"),
    _q("office:annotation-end"),
}
_DRAWING = f"{{{_NS['draw']}}}"  # a shape or text box anchored in a paragraph: read after it


def _inline(element: ElementTree.Element, notes: list[str] | None = None) -> str:
    """The text of a paragraph as a reader sees it: spans and links read through, ``text:s``
    spaces, tabs and line breaks kept, a footnote's mark left out and its text collected in
    ``notes``, for the caller to put after the paragraph."""
    parts = [element.text or ""]
    for child in element:
        tag = child.tag
        if tag == _q("text:s"):
            parts.append(" " * int(child.get(_q("text:c"), "1")))
        elif tag == _q("text:tab"):
            parts.append("\t")
        elif tag == _q("text:line-break"):
            parts.append("\n")
        elif tag == _q("text:note"):
            body = child.find(_q("text:note-body"))
            if notes is not None and body is not None:
                notes.append(_line(" ".join(_inline(p) for p in _paragraphs(body))))
        elif child.get(_SCRIPT):
            parts.append(scripted(_inline(child, notes), above=child.get(_SCRIPT) == "up"))
        elif tag not in _NOT_TEXT and not tag.startswith(_DRAWING):
            parts.append(_inline(child, notes))
        parts.append(child.tail or "")
    return "".join(parts)


def _paragraphs(element: ElementTree.Element) -> Iterator[ElementTree.Element]:
    """The paragraphs inside an element (a cell, a frame), in order, a comment's left out."""
    for child in element:
        if child.tag in (_q("text:p"), _q("text:h")):
            yield child
        elif child.tag != _q("office:annotation"):
            yield from _paragraphs(child)


def _line(text: str) -> str:
    return " ".join(text.split())


def _cell_line(text: str) -> str:
    """A cell's paragraph on one line; an ideographic space (全角スペース) stays, as a cell
    shows it."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip()


def _table(element: ElementTree.Element, sheet: bool = False) -> list[list[str]]:
    """A table's cells as shown, row by row; a cell merged down the rows stands in each row
    it covers (as ``office.py`` reads Excel's), one merged across the columns in each column
    in a document's table (as Word's read) but not in a sheet's (where a title merged
    across a table stays one cell), and a run of blank rows is one blank row."""
    rows: list[list[str]] = []
    spanning: dict[int, tuple[str, int]] = {}  # column -> (its text, rows below still covered)
    for row in element.iter(_q("table:table-row")):
        cells: list[str] = []
        merged_across: dict[int, str] = {}
        for cell in row:
            if cell.tag not in (_q("table:table-cell"), _q("table:covered-table-cell")):
                continue
            text = " ".join(_cell_line(_inline(p)) for p in _paragraphs(cell))
            repeat = min(int(cell.get(_q("table:number-columns-repeated"), "1")), _MAX_REPEAT)
            across = 1 if sheet else int(cell.get(_q("table:number-columns-spanned"), "1"))
            for _ in range(repeat):
                column, shown = len(cells), text
                if cell.tag == _q("table:covered-table-cell") and column in merged_across:
                    shown = merged_across.pop(column)  # a merged cell stands in each column
                for c in range(column + 1, column + across):
                    merged_across[c] = shown
                if cell.tag == _q("table:covered-table-cell") and column in spanning:
                    shown, below = spanning.pop(column)
                    if below > 1:
                        spanning[column] = (shown, below - 1)
                down = int(cell.get(_q("table:number-rows-spanned"), "1"))
                if down > 1:
                    spanning[column] = (shown, down - 1)
                cells.append(shown)
        while cells and not cells[-1]:
            cells.pop()
        if any(cells):
            repeat = min(int(row.get(_q("table:number-rows-repeated"), "1")), _MAX_REPEAT)
            rows += [cells] * repeat
        elif rows and rows[-1]:
            rows.append([])
    while rows and not any(rows[-1]):
        rows.pop()
    return rows


def _body_lines(
    package: _Package, element: ElementTree.Element, shapes: bool = True
) -> Iterator[str]:
    """Markdown lines for the blocks of a document body, a text box or a shape (with
    ``shapes``, a frame or text box among them is read in place)."""
    code: list[str] = []
    for child in element:
        tag = child.tag
        if tag == _q("text:p") and (
            _is_code(package, child) or (code and not _inline(child).strip())
        ):
            code.append(_inline(child).rstrip())  # a blank line inside a listing is its own
            continue
        if code:
            yield from _fenced(code)
            code = []
        if tag == _q("text:h"):
            # one level below the document's title, as Word's Heading 1 is read
            level = min(int(child.get(_q("text:outline-level"), "1")) + 1, 6)
            yield from ("", f"{'#' * level} {_line(_inline(child))}", "")
        elif tag == _q("text:p") and "Title" in package.style_family(_style(child)):
            yield from ("", f"# {_line(_inline(child))}", "")
        elif tag == _q("text:p") and (level := _styled_heading(package, child)):
            yield from ("", f"{'#' * level} {_line(_inline(child))}", "")
        elif tag == _q("text:p") and (latex := _formula_alone(child)):
            yield from ("", "$$", latex, "$$", "")  # a formula alone in its paragraph
        elif tag == _q("text:p"):
            notes: list[str] = []
            text = _inline(child, notes).strip()
            if text:
                yield from ("", " ".join([text, *(f"({n})" for n in notes)]), "")
            for shape in _anchored(child):  # a text box anchored in it, read after it
                yield from _frame_lines(package, shape)
        elif tag == _q("text:list"):
            yield from ("", *_list_lines(package, child, "", 1), "")
        elif tag == _q("table:table") and (box := _one_cell(child)) is not None:
            yield from _body_lines(package, box)  # a box around a listing or a note
        elif tag == _q("table:table"):
            yield from ("", *markdown_table(_table(child)), "")
        elif tag == _q("text:section") or (
            shapes and tag in (_q("draw:frame"), _q("draw:text-box"))
        ):
            yield from _body_lines(package, child)
        # text:table-of-content and other generated indexes: their entries are headings
    if code:
        yield from _fenced(code)


def _formula_alone(paragraph: ElementTree.Element) -> str:
    """The LaTeX of the one formula a paragraph holds with no other text, or ""."""
    spans = [c for c in paragraph if c.get(_FORMULA)]
    others = (paragraph.text or "") + "".join(c.tail or "" for c in spans)
    if len(spans) != 1 or len(paragraph) != 1 or others.strip():
        return ""
    return spans[0].get(_FORMULA, "")


def _anchored(paragraph: ElementTree.Element) -> Iterator[ElementTree.Element]:
    """The shapes and frames anchored in a paragraph (a box of notes beside the text), the
    outermost of each; a group opened."""
    for child in paragraph:
        if child.tag == _q("draw:g"):
            yield from _shapes(child)
        elif child.tag.startswith(_DRAWING):
            yield child
        elif child.tag != _q("office:annotation"):
            yield from _anchored(child)


def _one_cell(table: ElementTree.Element) -> ElementTree.Element | None:
    """The cell of a table of one cell: a box drawn around a listing or a note, read as
    what it holds (as ``office.py`` reads Word's)."""
    cells = list(table.iter(_q("table:table-cell")))
    return cells[0] if len(cells) == 1 else None


def _fenced(code: list[str]) -> list[str]:
    while code and not code[-1]:
        code = code[:-1]
    return ["", "```", *code, "```", ""]


def _style(element: ElementTree.Element) -> str:
    return element.get(_q("text:style-name"), "")


def _is_code(package: _Package, paragraph: ElementTree.Element) -> bool:
    """A paragraph in a code or preformatted style, or whose text is all set in a monospace
    font (a listing pasted into a slide's text box)."""
    if any(_CODE_STYLE.search(name) for name in package.style_family(_style(paragraph))):
        return True
    fonts = {look.get("font", "") for look in _runs(package, paragraph)}
    return bool(fonts) and all(font and MONOSPACE.search(font) for font in fonts)


def _styled_heading(package: _Package, paragraph: ElementTree.Element) -> int:
    """The level of a heading made by hand in a text document, read as ``office.py`` reads
    Word's: a short line, no sentence, wholly bold and set large (18 pt and up: a title,
    13 pt and up: a section). 0 for anything else, and on slides, where bold large text is
    what slides are made of."""
    if not package.text_document:
        return 0
    looks = list(_runs(package, paragraph))
    sizes = {_points(look.get("size", "")) for look in looks}  # a run with none: 0
    bold = bool(looks) and all(look.get("weight") == "bold" for look in looks)
    return hand_made_heading(_line(_inline(paragraph)), sizes, bold)


def _points(size: str) -> float:
    """A font size such as "14pt", in points; 0 for none or another unit."""
    points = re.fullmatch(r"([\d.]+)pt", size)
    return float(points.group(1)) if points else 0.0


def _runs(
    package: _Package, element: ElementTree.Element, look: dict[str, str] | None = None
) -> Iterator[dict[str, str]]:
    """The look of each run of text of a paragraph: a span's own font, weight and size over
    what its paragraph or outer span sets."""
    if look is None:
        look = package.look(_style(element))
    if (element.text or "").strip():
        yield look
    for child in element:
        if child.tag == _q("text:span"):
            yield from _runs(package, child, {**look, **package.look(_style(child))})
        elif child.tag != _q("text:note"):
            yield from _runs(package, child, look)
        if (child.tail or "").strip():
            yield look


def _list_lines(
    package: _Package, element: ElementTree.Element, list_style: str, level: int
) -> Iterator[str]:
    """A list's items, indented by level, numbered where its style numbers them: from where
    the list it continues stopped (a list broken by a paragraph goes on 4., 5. …), or from
    an item's own start value. A heading inside a list (outline numbering) stays a heading."""
    list_style = element.get(_q("text:style-name"), list_style)
    number = 0
    if level == 1:
        continued = element.get(_q("text:continue-list"))
        if continued in package.counted:
            number = package.counted[continued]
        elif element.get(_q("text:continue-numbering")) == "true":
            number = package.counted.get(f"style {list_style}", 0)
    for item in element.findall(_q("text:list-item")):
        if (start := item.get(_q("text:start-value"))) and start.isdigit():
            number = int(start) - 1
        for child in item:
            if child.tag == _q("text:list"):
                yield from _list_lines(package, child, list_style, level + 1)
            elif child.tag == _q("text:h"):
                heading = min(int(child.get(_q("text:outline-level"), "1")) + 1, 6)
                yield from ("", f"{'#' * heading} {_line(_inline(child))}", "")
            elif child.tag == _q("text:p") and (text := _line(_inline(child))):
                number += 1
                marker = f"{number}." if package.numbered(list_style, level) else "-"
                yield f"{'  ' * (level - 1)}{marker} {text}"
    if level == 1:
        package.counted[f"style {list_style}"] = number
        if (list_id := element.get(_XML_ID)) is not None:
            package.counted[list_id] = number


def parse_odt(data: bytes, filename: str) -> tuple[str | None, list[Block]]:
    package = _open(data, filename, "OpenDocument text")
    package.text_document = True
    body = package.content.find(f"{_q('office:body')}/{_q('office:text')}")
    if body is None:
        raise InvalidInput(f"{filename!r} is an OpenDocument file but not a text document")
    title, blocks = parse_markdown("\n".join(_body_lines(package, body)))
    return package.title or title, blocks


def parse_odp(data: bytes, filename: str) -> tuple[str | None, list[Block]]:
    package = _open(data, filename, "OpenDocument presentation")
    body = package.content.find(f"{_q('office:body')}/{_q('office:presentation')}")
    if body is None:
        raise InvalidInput(f"{filename!r} is an OpenDocument file but not a presentation")
    pages = body.findall(_q("draw:page"))
    titles = [_title_shape(page) for page in pages]
    headings = [
        _line(" ".join(map(_inline, _paragraphs(t)))) if t is not None else "" for t in titles
    ]
    title = package.title or next((h for h in headings if h), None)
    blocks: list[Block] = []
    slides = zip(pages, titles, headings, strict=True)
    for number, (page, title_shape, heading) in enumerate(slides, start=1):
        page_style = page.get(_q("draw:style-name"), "")
        style = package.automatic(page_style, "style:drawing-page-properties")
        if style.get("visibility") == "hidden":
            continue  # a hidden slide is not shown: often an old version kept aside
        lines = [f"# {title}", ""] if title and heading != title else []
        lines += [f"## {heading or f'Slide {number}'}", ""]
        shapes = [f for f in _shapes(page) if f is not title_shape and not _furniture(f)]
        for shape in sorted(shapes, key=lambda f: (_length(f, "svg:y"), _length(f, "svg:x"))):
            lines += _frame_lines(package, shape)
        notes_page = page.find(_q("presentation:notes"))
        if notes_page is not None:
            lines += speaker_notes(
                "\n".join(
                    _inline(p)
                    for frame in notes_page.findall(_q("draw:frame"))
                    if _role(frame) == "notes"
                    for p in _paragraphs(frame)
                )
            )
        _, slide_blocks = parse_markdown("\n".join(lines))
        blocks += [
            Block(b.text, b.heading_path, page=number) for b in slide_blocks if b.text.strip()
        ]
    return title, blocks


# The master's page furniture: on every slide, about none of them.
_FURNITURE = {"page-number", "footer", "date-time", "header"}


def _furniture(shape: ElementTree.Element) -> bool:
    """A slide number, footer or date, by its class or as text ("2", "3 / 15")."""
    if _role(shape) in _FURNITURE:
        return True
    text = " ".join(_inline(p) for p in _paragraphs(shape)).strip()
    return PAGE_NUMBER.fullmatch(text) is not None


def _role(frame: ElementTree.Element) -> str:
    return frame.get(_q("presentation:class"), "")


def _shapes(container: ElementTree.Element) -> Iterator[ElementTree.Element]:
    """The frames and the shapes that hold text (a box drawn as a rectangle or a custom
    shape, as PowerPoint's text boxes come out of LibreOffice), groups opened."""
    for child in container:
        if child.tag == _q("draw:g"):
            yield from _shapes(child)
        elif child.tag.startswith(_DRAWING):
            yield child


def _title_shape(page: ElementTree.Element) -> ElementTree.Element | None:
    """The slide's title frame; on a slide without one (a blank layout with text boxes, as
    Keynote and Google Slides export), its topmost text when that is one short line, as
    ``office.py`` titles PowerPoint's."""
    shapes = [f for f in _shapes(page) if not _furniture(f)]
    for shape in shapes:
        if _role(shape) == "title":
            return shape
    texts = [(f, "\n".join(_inline(p) for p in _paragraphs(f)).strip()) for f in shapes]
    texts = [(f, t) for f, t in texts if t]
    if not texts:
        return None
    top, text = min(texts, key=lambda ft: (_length(ft[0], "svg:y"), _length(ft[0], "svg:x")))
    return top if "\n" not in text and len(text) <= 80 else None


def _frame_lines(package: _Package, frame: ElementTree.Element) -> list[str]:
    """A slide's frame or shape: the outline's paragraphs as items, a table, or the prose
    (or code) of a text box or of a shape's own paragraphs."""
    table = frame.find(_q("table:table"))
    if table is not None:
        return ["", *markdown_table(_table(table)), ""]
    box = frame.find(_q("draw:text-box"))
    if box is None:
        return list(_body_lines(package, frame, shapes=False))
    if _role(frame) == "outline":
        lines = []
        for child in box:
            if child.tag == _q("text:list"):
                lines += _list_lines(package, child, "", 1)
            elif child.tag == _q("text:p") and (text := _line(_inline(child))):
                lines.append(f"- {text}")
        return ["", *lines, ""]
    return list(_body_lines(package, box))


def _length(frame: ElementTree.Element, attribute: str) -> float:
    """A position such as svg:y="2.5cm", in centimetres (only the order matters)."""
    value = frame.get(_q(attribute), "0")
    match = re.match(r"(-?[\d.]+)\s*(cm|mm|in|pt)?", value)
    if not match:
        return 0.0
    scale = {"mm": 0.1, "in": 2.54, "pt": 2.54 / 72}.get(match.group(2) or "cm", 1.0)
    return float(match.group(1)) * scale


def parse_ods(data: bytes, filename: str, limits: ChunkLimits) -> tuple[str | None, list[Chunk]]:
    package = _open(data, filename, "OpenDocument spreadsheet")
    body = package.content.find(f"{_q('office:body')}/{_q('office:spreadsheet')}")
    if body is None:
        raise InvalidInput(f"{filename!r} is an OpenDocument file but not a spreadsheet")
    chunks: list[Chunk] = []
    for sheet in body.findall(_q("table:table")):
        style = package.automatic(sheet.get(_q("table:style-name"), ""), "style:table-properties")
        if style.get("display") == "false":
            continue  # a hidden sheet is the author's (a TA's notes, lookups)
        rows = _table(sheet, sheet=True)
        if rows:
            name = sheet.get(_q("table:name"), "")
            chunks += sheet_chunks(rows, name, f"{filename} (sheet {name!r})", limits)
    return package.title, [dataclasses.replace(c, ordinal=n) for n, c in enumerate(chunks)]
