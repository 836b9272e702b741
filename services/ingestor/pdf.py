"""PDF with a text layer → ``Block``s, page by page, with headings from the outline.

pypdf's plain extraction follows the content stream (so columns stay in order)
but loses paragraph breaks; a paragraph is taken to end at a line clearly
shorter than the page's full lines. Bookmarks (the outline) give the heading
path: a bookmark's title line on its page opens that heading there; a PDF without
bookmarks (most printed from a browser, exported slides) has its headings read from the
type size instead: a short line set clearly larger than the body text. Lines set
wholly in a monospaced font (Courier, a "Mono" face, LaTeX's typewriter) are a
code listing or printed output: they become one fenced block, their indentation
and column spacing as printed. A composite font whose codes are two bytes is read
so even when its encoding is an embedded CMap pypdf does not read.
"""

from __future__ import annotations

import io
import itertools
import logging
import math
import re
import textwrap
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from pypdf import PageObject, PdfReader
from pypdf.errors import PyPdfError
from pypdf.generic import NameObject, StreamObject

from services.common.errors import InvalidInput
from services.common.text import LIST_ITEM, fenced
from services.ingestor.chunking import Block
from services.ingestor.parsing import join_cjk_lines
from services.ingestor.plaintext import SENTENCE_END

logger = logging.getLogger(__name__)

MIN_PAGE_CHARS = 8  # fewer visible characters (a page number, a stamp): no usable text layer
# Font names of monospaced faces whose descriptor does not say so (the standard Courier has
# no descriptor; LaTeX's typewriter faces are CMTT / LMMono).
_MONOSPACED_NAME = re.compile(
    r"courier|mono|consol|menlo|inconsolata|typewriter|cmtt|lmtt|sourcecode|firacode", re.I
)
_FIXED_PITCH = 1  # bit 1 of a font descriptor's /Flags


class Line(NamedTuple):
    """A text line as pypdf extracts it."""

    text: str
    mono: bool  # set wholly in a monospaced font
    size: float = 0.0  # its largest type size on the page, in points


Lines = list[Line]


@dataclass
class PdfText:
    title: str | None
    blocks: list[Block]
    page_count: int
    pages_without_text: list[int] = field(default_factory=list)  # 1-based

    @property
    def has_text_layer(self) -> bool:
        # Mostly scanned: let the vision engine read the whole file instead.
        return self.page_count > 0 and len(self.pages_without_text) * 2 <= self.page_count


@dataclass(frozen=True)
class _Bookmark:
    page: int  # 0-based
    level: int
    title: str


def parse_pdf(data: bytes, filename: str) -> PdfText:
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise InvalidInput(f"{filename!r} is a password-protected PDF")
        for page in reader.pages:
            _read_two_byte_codes(page)
        pages = _without_monospaced_body(
            _without_running_lines([_page_lines(page) for page in reader.pages])
        )
        page_texts = ["\n".join(line.text for line in lines) for lines in pages]
        bookmarks = _bookmarks(reader)
        meta_title = (reader.metadata.title if reader.metadata else None) or None
    except InvalidInput:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise InvalidInput(f"{filename!r} is a corrupt or unreadable PDF: {exc}") from exc

    if not page_texts:
        raise InvalidInput(f"{filename!r} is a PDF without pages")
    empty = [n + 1 for n, text in enumerate(page_texts) if len(_visible(text)) < MIN_PAGE_CHARS]
    blocks = _blocks(pages, bookmarks)
    title = meta_title.strip() if meta_title and meta_title.strip() else None
    if empty and len(empty) < len(page_texts):
        logger.warning("pdf pages without text layer", extra={"pdf": filename, "pages": empty})
    return PdfText(title, blocks, len(page_texts), empty)


def _page_lines(page: PageObject) -> Lines:
    """The page's lines, each with whether every character of it is set in a monospaced
    font, and its largest type size."""
    parts: list[tuple[str, bool, float]] = []  # what pypdf wrote, piece by piece
    fonts: dict[int, bool] = {}

    def visit(text, cm, tm, font, size) -> None:
        if text:
            key = id(font)
            if key not in fonts:
                fonts[key] = _monospaced(font)
            parts.append((text, fonts[key], _printed_size(size, cm, tm)))

    text = page.extract_text(visitor_text=visit) or ""
    if "".join(t for t, _, _ in parts) != text:  # the pieces do not spell the text: no fonts
        return [Line(line, False) for line in text.split("\n")]
    lines: Lines = []
    line, mono, size = "", True, 0.0
    for piece, monospaced, piece_size in parts:
        for i, segment in enumerate(piece.split("\n")):
            if i:
                lines.append(Line(line, mono and bool(line.strip()), size))
                line, mono, size = "", True, 0.0
            line += segment
            mono = mono and (monospaced or not segment.strip())
            if segment.strip():
                size = max(size, piece_size)
    lines.append(Line(line, mono and bool(line.strip()), size))
    return lines


def _printed_size(size: float, cm: list[float], tm: list[float]) -> float:
    """The type size as printed: the font size scaled by the text and the page matrix
    (vertically: a PDF writer may set size 1 and scale the matrix, as Keynote does)."""
    try:
        scale = math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3])
        return round(float(size) * scale, 1)
    except (TypeError, ValueError, IndexError):
        return 0.0


_TWO_BYTE_CODES = re.compile(rb"begincodespacerange\s*<0000>\s*<FFFF>\s*endcodespacerange", re.I)


def _read_two_byte_codes(page: PageObject) -> None:
    """A composite font whose encoding is an embedded CMap of two-byte codes (fpdf2 writes
    its CFF fonts so) is read as Identity-H: pypdf does not read such a CMap and splits the
    text into single bytes ("テ ス ト", then garbage past 255 glyphs), though the font's
    ToUnicode map, keyed by the same two-byte codes, tells every character."""
    try:
        for reference in page["/Resources"]["/Font"].values():
            font = reference.get_object()
            if font.get("/Subtype") != "/Type0" or "/ToUnicode" not in font:
                continue
            encoding = font.get("/Encoding")
            cmap = encoding.get_object() if encoding is not None else None
            if isinstance(cmap, StreamObject) and _TWO_BYTE_CODES.search(cmap.get_data()):
                font[NameObject("/Encoding")] = NameObject("/Identity-H")
    except (KeyError, AttributeError, TypeError, PyPdfError):
        return  # fonts unreadable here: extraction goes on as it can


def _without_running_lines(pages: list[Lines]) -> list[Lines]:
    """Without the running header and footer: a line among the first two or last two of
    its page that stands there, the same but for the page's own number ("3 / 15", "- 4 -"),
    on three pages or more and three in five, or on both pages of two. Slides exported as
    PDF carry the course, the lecture and the page so; a page a browser printed, its date,
    title and address ("2026/06/03 22:14 notes.md", "file:///…/notes.md 1/2")."""

    def edges(lines: Lines) -> set[int]:
        printed = [i for i, line in enumerate(lines) if line.text.strip()]
        return set(printed[:2] + printed[-2:])

    def shape(raw: str, page: int) -> str:
        """The line with its page number as "#": "3 / 15", or a number opening or ending it."""
        text = re.sub(rf"(?<!\d){page}\s*/\s*{len(pages)}(?!\d)", "#/#", _norm(raw))
        text = re.sub(rf"^([\s\-–—(]*){page}(?!\d)", r"\1#", text)
        return re.sub(rf"(?<!\d){page}([\s\-–—)]*)$", r"#\1", text)

    if len(pages) < 2:
        return pages
    shapes = [
        {i: shape(lines[i].text, page) for i in edges(lines)}
        for page, lines in enumerate(pages, start=1)
    ]
    seen = Counter(s for found in shapes for s in set(found.values()))
    needed = min(3, len(pages))
    running = {s for s, n in seen.items() if n >= needed and n * 5 >= len(pages) * 3}
    return [
        [line for i, line in enumerate(lines) if found.get(i) not in running]
        for lines, found in zip(pages, shapes, strict=True)
    ]


def _without_monospaced_body(pages: list[Lines]) -> list[Lines]:
    """A document set in a monospaced font nearly throughout (a text file printed to PDF,
    perhaps with a page header in another font) has no listings: that font is its body."""
    printed = [line.mono for lines in pages for line in lines if line.text.strip()]
    if sum(printed) < 0.9 * len(printed):
        return pages
    return [[line._replace(mono=False) for line in lines] for lines in pages]


def _monospaced(font) -> bool:
    """The font is fixed-pitch: by its descriptor's flag, or by its name."""
    try:
        font = font.get_object() if font is not None else None
        if not font:
            return False
        described = font
        if "/DescendantFonts" in font:  # a composite font: its one descendant describes it
            described = font["/DescendantFonts"].get_object()[0].get_object()
        descriptor = described.get("/FontDescriptor")
        flags = int(descriptor.get_object().get("/Flags", 0)) if descriptor else 0
        name = str(font.get("/BaseFont", ""))
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return False
    return bool(flags & _FIXED_PITCH) or bool(_MONOSPACED_NAME.search(name))


def _visible(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _bookmarks(reader: PdfReader) -> list[_Bookmark]:
    found: list[_Bookmark] = []

    def walk(items: list, level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            page = reader.get_destination_page_number(item)
            title = _norm(str(getattr(item, "title", "") or ""))
            if page is not None and page >= 0 and title:
                found.append(_Bookmark(page, level, title))

    try:
        walk(reader.outline, 1)
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError):
        logger.warning("unreadable pdf outline; continuing without headings")
        return []
    return sorted(found, key=lambda b: b.page)  # stable: document order within a page


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class _HeadingStack:
    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def open(self, mark: _Bookmark) -> None:
        while self._stack and self._stack[-1][0] >= mark.level:
            self._stack.pop()
        self._stack.append((mark.level, mark.title))

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(title for _, title in self._stack)


def _blocks(pages: list[Lines], bookmarks: list[_Bookmark]) -> list[Block]:
    headings = _HeadingStack()
    levels = {} if bookmarks else _heading_levels(pages)
    blocks: list[Block] = []
    for index, lines in enumerate(pages):
        pending = [b for b in bookmarks if b.page == index]
        blocks.extend(_page_blocks(lines, index + 1, pending, headings, levels))
        for mark in pending:  # bookmark whose title is not printed: it opens at the page end
            headings.open(mark)
    return blocks


# A heading is set this much larger than the body text, at least: a body of 10.5 pt takes
# 12 pt headings. Calibrated on the eight PDFs without bookmarks of the course sets (a
# browser print, a Word print, a LaTeX handout, slides from three tools): their headings
# are 1.2 to 2.5 times the body; the other lines that large are titles, subtitles and
# bylines, and a slide's big number.
HEADING_SCALE = 1.15
# A document whose larger lines hold this share of its characters or more (a poster, a
# deck of big type) has no headings to tell apart by size.
MAX_HEADING_SHARE = 0.4


def _heading_levels(pages: list[Lines]) -> dict[float, int]:
    """Type size -> heading level (1 the largest), for a PDF without bookmarks: the sizes of
    short lines set clearly larger than the body, whose size is the one most characters
    are set in."""
    printed = [line for lines in pages for line in lines if line.text.strip() and not line.mono]
    body = Counter()
    for line in printed:
        body[line.size] += len(line.text)
    if not body:
        return {}
    body_size = body.most_common(1)[0][0]
    larger = [
        line
        for line in printed
        if line.size >= HEADING_SCALE * body_size > 0 and _reads_as_heading(_norm(line.text))
    ]
    if not larger or _chars(larger) >= MAX_HEADING_SHARE * _chars(printed):
        return {}
    sizes = sorted({line.size for line in larger}, reverse=True)
    return {size: level for level, size in enumerate(sizes, start=1)}


def _chars(lines: Lines) -> int:
    return sum(len(line.text.strip()) for line in lines)


def _reads_as_heading(text: str) -> bool:
    """Short, with a word in it (not a slide's big number), and no sentence (a heading ends
    in no full stop)."""
    return (
        _width(text) <= 80
        and len(re.findall(r"[^\W\d_]", text)) >= 2
        and not re.search(r"(?:。|[^\W\d_]\.)$", text)
    )


def _page_blocks(
    page_lines: Lines,
    page: int,
    pending: list[_Bookmark],
    headings: _HeadingStack,
    levels: dict[float, int],
) -> list[Block]:
    """Paragraph and code blocks of one page; consumes the bookmarks whose titles it finds,
    or opens a heading at each line set in a heading's size (``levels``)."""
    code = _listing_lines(page_lines)
    kept = [
        (_norm(line.text), line.text.rstrip(), c, _level(line, c, levels))
        for line, c in zip(page_lines, code, strict=True)
    ]
    kept = [k for k in kept if k[0] or k[2]]
    lines = [line for line, _, _, _ in kept]
    full = _full_line_length([line for line in lines if line])
    blocks: list[Block] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            blocks.append(Block(_join_lines(paragraph), headings.path, page))
            paragraph.clear()

    i = 0
    while i < len(kept):
        if kept[i][2]:  # a listing: every line as printed, up to the next line of prose
            flush()
            j = i
            while j < len(kept) and kept[j][2]:
                j += 1
            listing = textwrap.dedent("\n".join(raw for _, raw, _, _ in kept[i:j]))
            blocks.append(Block(fenced(listing), headings.path, page))
            i = j
            continue
        if consumed := _match_heading(lines, i, pending):
            flush()
            headings.open(pending.pop(0))
            i += consumed
            continue
        if level := kept[i][3]:
            flush()
            j = i + 1  # a heading wrapped over full lines of its size is one heading
            while j < len(kept) and kept[j][3] == level and _width(lines[j - 1]) >= 0.8 * full:
                j += 1
            headings.open(_Bookmark(page - 1, level, _norm(" ".join(lines[i:j]))))
            # a line of its size right after it is a subtitle or a byline: text under it
            for k in range(j, len(kept)):
                if kept[k][3] != level:
                    break
                kept[k] = (*kept[k][:3], None)
            i = j
            continue
        if LIST_ITEM.match(lines[i]):  # a bullet or a number opens an item of its own
            flush()
        paragraph.append(lines[i])
        following = lines[i + 1] if i + 1 < len(lines) else ""
        # a short line ends its paragraph, unless the next line cannot open one
        if _width(lines[i]) < 0.8 * full and not _runs_on(lines[i], following):
            flush()
        i += 1
    flush()
    return blocks


def _level(line: Line, code: bool, levels: dict[float, int]) -> int | None:
    if code or line.size not in levels or not _reads_as_heading(_norm(line.text)):
        return None
    return levels[line.size]


def _listing_lines(page_lines: Lines) -> list[bool]:
    """Which lines belong to a listing: the monospaced ones, and a blank line between two
    of them (the blank lines of the code as printed); but not a run of them that is mostly
    Japanese, since Japanese fonts are fixed-pitch too (MS Gothic, MS Mincho): a heading
    set in one is no code, and a Japanese comment inside a listing stays in it."""
    printed = [(i, line.mono) for i, line in enumerate(page_lines) if line.text.strip()]
    code = [line.mono for line in page_lines]
    for (i, before), (j, after) in itertools.pairwise(printed):
        if before and after:
            code[i + 1 : j] = [True] * (j - i - 1)
    start = None
    for i, is_code in enumerate([*code, False]):
        if is_code and start is None:
            start = i
        elif not is_code and start is not None:
            text = "".join(line.text for line in page_lines[start:i]).replace(" ", "")
            wide = sum(1 for c in text if unicodedata.east_asian_width(c) in "WF")
            if wide * 2 >= len(text):
                code[start:i] = [False] * (i - start)
            start = None
    return code


def _match_heading(lines: list[str], i: int, pending: list[_Bookmark]) -> int:
    """How many lines from ``i`` spell the next bookmark's title (0 if they do not)."""
    if not pending:
        return 0
    title, text = pending[0].title, ""
    for j in range(i, min(i + 4, len(lines))):  # a long title wraps over a few lines
        text = _norm(f"{text} {lines[j]}") if text else lines[j]
        if text == title:
            return j - i + 1
        if not title.startswith(text):
            return 0
    return 0


# What no paragraph opens with: a lower-case word, a closing bracket or mark, a particle
# (は, が, を …) before anything but kana ("と整列済みの", "で行う"; "では、" may open one).
_GOES_ON = re.compile(r"[a-z）)」』】、。，．,.]|[はがのをにへでとも](?![ぁ-ゖ])")


def _runs_on(line: str, following: str) -> bool:
    """The sentence goes on into the next line, though this one was printed short (a line
    broken before a word that did not fit: "二分探索木（binary search" / "tree）は")."""
    return not SENTENCE_END.search(line) and _GOES_ON.match(following) is not None


def _full_line_length(lines: list[str]) -> int:
    """Width of a full line on this page (``_width``).

    The 90th percentile of line lengths ignores a stray overlong line (a URL) on a
    full page; a page of a few lines has too few samples for that, so its longest counts.
    """
    if not lines:
        return 0
    lengths = sorted(_width(line) for line in lines)
    if len(lengths) < 10:
        return lengths[-1]
    return lengths[int(0.9 * (len(lengths) - 1))]


def _width(line: str) -> int:
    """A line's printed width in half-width cells: a Japanese character takes two, so a full
    line of Japanese with a Latin word in it is as wide as one without."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def _join_lines(lines: list[str]) -> str:
    text = ""
    for line in lines:
        if not text:
            text = line
        elif re.search(r"[A-Za-z]-$", text) and line[:1].islower():
            text = text[:-1] + line  # hyphenated word across lines
        else:
            text = f"{text}\n{line}"
    # CJK lines join without a space; Latin lines with one.
    return join_cjk_lines(text).replace("\n", " ")
