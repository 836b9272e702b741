"""HTML → ``Block``s with heading paths: a page's own text (not its menus, footer or
layout tables), its tables, lists, code and formulas, as a reader sees them.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from services.ingestor.chunking import Block
from services.ingestor.parsing import HeadingStack, image_text, join_cjk_lines, scripted

# Page furniture (a site's menus and footer) is skipped with what holds no text.
_SKIPPED = {
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "head",
    "iframe",
    "object",
    "nav",
    "footer",
    "button",  # an LMS's controls ("完了マークする"), no text of the page
}
_BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "aside",
    "header",
    "footer",
    "nav",
    "blockquote",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "figure",
    "figcaption",
    "hr",
    "form",
    "address",
    "details",
    "summary",
    "caption",
}
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
# Where a page's own content sits: a <header> outside them is the site's banner.
_CONTENT = {"main", "article"}
# A link that only jumps past the page's menus ("本文へスキップ", "Skip to content") is furniture
# too; sites mark it with a class.
_SKIP_LINK = re.compile(r"skip", re.I)
# ARIA landmarks a reader passes over like <nav> and <footer> (a Sphinx theme's sidebar is a
# <div role="navigation">), and classes generated pages give to what is not their text: a
# heading's permalink mark (¶: Sphinx, MkDocs), the line numbers beside a code listing
# (Pygments, Rouge), CodeMirror's measuring line in a Typora export ("xxxxxxxxxx") and a
# theme's footer ("Powered by Sphinx"). A footnote's mark and its way back (Pandoc, Quarto:
# doc-noteref, doc-backlink) are no text either: the mark's digit ran into the sentence
# ("行います1。"), and the note itself is read where the page prints it.
_FURNITURE_ROLES = {"navigation", "search", "contentinfo", "doc-noteref", "doc-backlink"}
_FURNITURE_CLASSES = {"headerlink", "linenodiv", "lineno", "CodeMirror-measure", "footer"}
_LINE_BREAK = "\u2028"  # <br> survives whitespace collapsing as this, then becomes "\n"


class _LayoutTables(HTMLParser):
    """Which tables of a page, by their order in it, lay the page out instead of tabulating:
    those holding another table or a heading (an LMS page's two-column frame), or a <pre>
    (Pygments and Rouge set a listing beside its line numbers in a table)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.layout: set[int] = set()
        self._count = 0
        self._open: list[int] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.layout.update(self._open)
            self._open.append(self._count)
            self._count += 1
        elif (tag in _HEADINGS or tag == "pre") and self._open:
            self.layout.add(self._open[-1])

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self._open:
            self._open.pop()


class _HtmlToBlocks(HTMLParser):
    """Headings become the heading path; paragraphs, list items, tables and pre become blocks.
    A layout table's cells are read as the page's sections, each in turn."""

    def __init__(self, layout_tables: set[int]) -> None:
        super().__init__(convert_charrefs=True)
        self._layout_tables = layout_tables
        self._tables_opened = 0
        self._tables: list[bool] = []  # per open table: is it a layout table?
        self.blocks: list[Block] = []
        self.title: str | None = None
        self.h1: str | None = None
        self._headings = HeadingStack()
        self._text: list[str] = []
        self._title_text: list[str] = []
        self._heading_level = 0
        self._pre = 0
        self._lists: list[list[int]] = []  # per open list: [ordered?, counter]
        self._row: list[str] | None = None
        self._rows: list[tuple[list[str], bool]] = []
        self._cell: list[str] | None = None
        self._cell_span = (1, 1)  # (rowspan, colspan) of the open cell
        self._spanned: dict[int, list] = {}  # column -> [text, rows still to fill] (rowspan)
        self._row_has_th = False
        self._content = 0  # open <main> and <article> elements
        self._skipped: list = []  # [tag, depth] of the element being left out, if any
        self._in = ""  # "title" or "style" while inside one
        self._hidden_classes: set[str] = set()  # classes the page's style sheet hides
        self._term: str | None = None  # a <dt> waiting for its <dd>'s first paragraph
        # per open <sup>, <sub> or <span>: where it began, links opened by then, raised or
        # lowered (None: a span on the line)
        self._scripts: list[tuple[list[str], int, int, bool | None]] = []
        self._raised_classes: dict[str, bool] = {}  # class -> raised (True) or lowered
        self._links = 0  # <a> elements opened so far, and how many are open
        self._open_links = 0

    def _raised(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool | None:
        """<sup> is raised, <sub> lowered, and so is a span its class or style sets so."""
        if tag != "span":
            return tag == "sup"
        style = dict(attrs).get("style") or ""
        if _RAISED.search(style):
            return True
        if _LOWERED.search(style):
            return False
        return next(
            (self._raised_classes[c] for c in _classes(attrs) if c in self._raised_classes), None
        )

    def _leaves_out(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        """Page furniture (navigation landmarks, permalinks, line numbers: _FURNITURE_*), the
        site's banner (a <header> outside <main> and <article>, but for a Pandoc title
        block), a skip link, and what the page hides (the hidden attribute, display:none)."""
        if tag in _SKIPPED or (tag == "header" and not self._content and not _title_block(attrs)):
            return True
        if tag == "a" and _is_skip_link(attrs):
            return True
        # an element whose end tag may be left out (<p>, <li>) could hide the rest of the page
        return tag not in _END_OPTIONAL and (
            _hidden(attrs, self._hidden_classes) or _furniture(attrs)
        )

    def _in_layout(self, tag: str) -> bool:
        """A tag of a layout table (its rows and cells are only the page's frame)."""
        return tag in ("table", "tr", "td", "th") and bool(self._tables) and self._tables[-1]

    # text sinks, innermost first
    def _sink(self) -> list[str]:
        return self._cell if self._cell is not None else self._text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("title", "style"):
            self._in = tag
        if tag in _CONTENT:
            self._content += 1
        if self._skipped:  # inside an element left out: only its own tag nests
            if tag == self._skipped[0]:
                self._skipped[1] += 1
        elif self._leaves_out(tag, attrs):
            self._skipped = [tag, 1]
        if tag == "table":  # counted as the layout scan counted them, skipped or not
            self._tables.append(self._tables_opened in self._layout_tables)
            self._tables_opened += 1
        if self._skipped:
            return
        if self._in_layout(tag):
            self._flush()
            return
        if tag in _HEADINGS:
            self._flush()
            if not _byline(attrs):
                self._heading_level = _HEADINGS[tag]
        elif tag in _BLOCK:
            self._flush()
            if tag == "dt":
                self._emit_term()  # the one before it had no <dd>
            if tag in ("ul", "ol"):
                self._lists.append([tag == "ol", 0])
        elif tag == "li":
            self._flush()
            marker = "- "
            if self._lists and self._lists[-1][0]:
                self._lists[-1][1] += 1
                marker = f"{self._lists[-1][1]}. "
            self._text.append(marker)
        elif tag == "pre":
            if not self._pre:  # a <pre> inside one is a line of it (CodeMirror writes so)
                self._flush()
                self._text.append("```\n")
            self._pre += 1
        elif tag == "br":
            self._sink().append("\n" if self._pre else _LINE_BREAK)
        elif tag == "tr":
            self._row, self._row_has_th = [], False
        elif tag in ("td", "th"):
            self._cell = []
            self._cell_span = (_span(attrs, "rowspan"), _span(attrs, "colspan"))
            self._row_has_th |= tag == "th"
        elif tag == "code" and not self._pre:
            self._sink().append("`")
        elif tag in ("strong", "b"):
            self._sink().append("**")
        elif tag == "a":
            self._links += 1
            self._open_links += 1
        elif tag in ("sup", "sub", "span") and not self._pre:
            sink = self._sink()
            links = -1 if self._open_links else self._links
            self._scripts.append((sink, len(sink), links, self._raised(tag, attrs)))
        elif tag == "table":
            self._flush()
            self._rows = []
        elif tag == "img":
            # what a reader who cannot see the image is told of it ("成績の内訳を示す円グラフ")
            alt = image_text(_collapse(dict(attrs).get("alt") or ""))
            if alt:
                self._sink().append(f" {alt} ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._in == "title":
            self.title = _collapse("".join(self._title_text)) or None
        if tag == self._in:
            self._in = ""
        layout = self._in_layout(tag)
        if tag == "table" and self._tables:
            self._tables.pop()
        if tag in _CONTENT:
            self._content = max(0, self._content - 1)
        if self._skipped:
            if tag == self._skipped[0]:
                self._skipped[1] -= 1
                if not self._skipped[1]:
                    self._skipped = []
            return
        if layout:
            self._flush()
            return
        if tag in _HEADINGS and self._heading_level:
            name = _collapse("".join(self._text))
            self._text.clear()
            if name:
                self._headings.open(self._heading_level, name)
                if self._heading_level == 1 and self.h1 is None:
                    self.h1 = name
            self._heading_level = 0
        elif tag in _HEADINGS:  # a byline set as a heading: a paragraph
            self._flush()
        elif tag == "dt":
            self._term = _collapse("".join(self._text)) or None
            self._text.clear()
        elif tag in _BLOCK or tag == "li":
            self._flush()
            if tag == "dl":
                self._emit_term()
            if tag in ("ul", "ol") and self._lists:
                self._lists.pop()
        elif tag == "pre" and self._pre:
            self._pre -= 1
            if self._pre:
                self._text.append("\n")
            else:
                self._text[:] = ["".join(self._text).rstrip("\n"), "\n```"]
                self._flush(keep_whitespace=True)
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            cell = _collapse("".join(self._cell)).replace("\n", " ")  # a row is one line
            self._place(cell.replace("|", "\\|"), *self._cell_span)
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self._place_spanned()
            if any(self._row):
                self._rows.append((self._row, self._row_has_th))
            self._row = None
        elif tag == "table":
            self._emit_table()
        elif tag == "code" and not self._pre:
            self._sink().append("`")
        elif tag in ("strong", "b"):
            self._sink().append("**")
        elif tag == "a":
            self._open_links = max(0, self._open_links - 1)
        elif tag in ("sup", "sub", "span") and not self._pre and self._scripts:
            sink, start, links, raised = self._scripts.pop()
            # a footnote's mark is a link: it stays as it reads
            if raised is not None and links == self._links:
                sink[start:] = [scripted("".join(sink[start:]), above=raised)]

    def handle_data(self, data: str) -> None:
        if self._in == "title":
            self._title_text.append(data)
        elif self._in == "style":
            self._hidden_classes |= _classes_styled(data, _DISPLAY_NONE)
            self._raised_classes |= dict.fromkeys(_classes_styled(data, _RAISED), True)
            self._raised_classes |= dict.fromkeys(_classes_styled(data, _LOWERED), False)
        if self._skipped:
            return
        self._sink().append(data)

    def close(self) -> None:
        super().close()
        self._emit_table()
        self._flush()
        self._emit_term()

    def _flush(self, keep_whitespace: bool = False) -> None:
        raw = "".join(self._text)
        self._text.clear()
        if self._pre and not keep_whitespace:
            self._text.append(raw)  # still inside <pre>: keep collecting
            return
        text = raw.strip("\n") if keep_whitespace else _word_list_item(_tex_math(_collapse(raw)))
        if re.fullmatch(r"-|\d+\.", text):
            self._text.append(text + " ")  # a list marker waits for the item's first paragraph
        elif text and text != "```\n```":
            if self._term is not None:  # a term and its definition read as one line
                text = f"{self._term}{'' if self._term.endswith((':', '：')) else ':'} {text}"
                self._term = None
            self.blocks.append(Block(text, self._headings.path))

    def _emit_term(self) -> None:
        if self._term is not None:
            self.blocks.append(Block(self._term, self._headings.path))
            self._term = None

    def _place(self, cell: str, rowspan: int, colspan: int) -> None:
        """A cell in its columns: the cells of rows above that span down come first; a cell
        spanning columns or rows stands in each of them, so every row reads whole."""
        if self._row is None:
            return
        self._place_spanned()
        for _ in range(colspan):
            if rowspan > 1:
                self._spanned[len(self._row)] = [cell, rowspan - 1]
            self._row.append(cell)
            self._place_spanned()

    def _place_spanned(self) -> None:
        while self._row is not None and (column := len(self._row)) in self._spanned:
            span = self._spanned[column]
            self._row.append(span[0])
            span[1] -= 1
            if not span[1]:
                del self._spanned[column]

    def _emit_table(self) -> None:
        self._spanned = {}
        if not self._rows:
            return
        width = max(len(cells) for cells, _ in self._rows)
        lines = []
        for n, (cells, header) in enumerate(self._rows):
            if width > 1 and len(cells) == width and len(set(cells)) == 1:
                cells = cells[:1]  # one cell across the table (a footnote row): said once
            cells = cells + [""] * (width - len(cells))
            lines.append("| " + " | ".join(cells) + " |")
            if n == 0 and header:
                lines.append("|" + "---|" * width)
        self._rows = []
        self.blocks.append(Block("\n".join(lines), self._headings.path))


# MathJax's delimiters, as the Markdown the rest of the pipeline reads: a paragraph that
# is one \[ … \] display is a formula block, \( … \) inline math is $ … $.
_TEX_DISPLAY = re.compile(r"\\\[\s*(.+?)\s*\\\]", re.S)
_TEX_INLINE = re.compile(r"\\\((.+?)\\\)")


# Word's "Save as Web Page" writes a list item as a paragraph that opens with its marker and
# a run of no-break spaces ("1.\u00a0\u00a0\u00a0 IF", a Symbol-font bullet "·\u00a0\u00a0 …").
_WORD_LIST_MARK = re.compile(r"^(?:([·•▪§o])|(\d{1,2}[.)]|[a-z][.)]))[\u00a0 ]*\u00a0[\u00a0 ]*")


def _word_list_item(text: str) -> str:
    """Such a paragraph as a Markdown item: "- …" for a bullet, "1. …" for a number."""
    mark = _WORD_LIST_MARK.match(text)
    if mark is None:
        return text
    return f"{'- ' if mark.group(1) else mark.group(2) + ' '}{text[mark.end() :]}"


def _tex_math(text: str) -> str:
    if display := _TEX_DISPLAY.fullmatch(text):
        return f"$$\n{display.group(1)}\n$$"
    return _TEX_INLINE.sub(lambda m: f"${m.group(1).strip()}$", text)


# Elements whose end tag HTML lets a page leave out, or that have none (<img hidden>): hiding
# one could hide all after it.
_END_OPTIONAL = {
    *"p li dt dd tr td th thead tbody tfoot option".split(),
    *"img input br hr meta link area base col embed source track wbr".split(),
}
_DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.I)
_MEDIA_RULES = re.compile(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", re.I)
_CLASS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")


# Text set above or below the line by a style (Google Docs writes .c5{vertical-align:super}).
_RAISED = re.compile(r"vertical-align\s*:\s*super", re.I)
_LOWERED = re.compile(r"vertical-align\s*:\s*sub\b", re.I)


def _classes_styled(style: str, declaration: re.Pattern) -> set[str]:
    """Classes a style sheet gives the declaration on screen (.print-only{display:none} hides
    them); rules for print or other media only are not the screen's."""
    found: set[str] = set()
    for selectors, body in _CLASS_RULE.findall(_MEDIA_RULES.sub("", style)):
        if declaration.search(body):
            found.update(re.findall(r"^\s*\.([\w-]+)\s*$", selectors.replace(",", "\n"), re.M))
    return found


def _classes(attrs: list[tuple[str, str | None]]) -> set[str]:
    return set((dict(attrs).get("class") or "").split())


def _hidden(attrs: list[tuple[str, str | None]], hidden_classes: set[str]) -> bool:
    values = dict(attrs)
    return (
        "hidden" in values
        or _DISPLAY_NONE.search(values.get("style") or "") is not None
        or bool(_classes(attrs) & hidden_classes)
    )


def _title_block(attrs: list[tuple[str, str | None]]) -> bool:
    """Pandoc's and Quarto's <header id="title-block-header">: the page's own title, author
    and date, no site banner."""
    return dict(attrs).get("id") == "title-block-header"


def _byline(attrs: list[tuple[str, str | None]]) -> bool:
    """A heading element that holds a page's author, date or subtitle (R Markdown sets them
    as <h4 class="author">): a line of the page, no section of it."""
    return bool(_classes(attrs) & {"author", "date", "subtitle"})


def _furniture(attrs: list[tuple[str, str | None]]) -> bool:
    return dict(attrs).get("role") in _FURNITURE_ROLES or bool(_classes(attrs) & _FURNITURE_CLASSES)


def _is_skip_link(attrs: list[tuple[str, str | None]]) -> bool:
    values = dict(attrs)
    marks = f"{values.get('class') or ''} {values.get('id') or ''}"
    return (values.get("href") or "").startswith("#") and _SKIP_LINK.search(marks) is not None


def _span(attrs: list[tuple[str, str | None]], name: str) -> int:
    """A cell's rowspan or colspan: 1 when absent or not a number, at most 50."""
    value = dict(attrs).get(name) or "1"
    return min(50, max(1, int(value))) if value.strip().isdigit() else 1


def _collapse(text: str) -> str:
    """HTML whitespace rules: runs become one space, except <br> which stays a line break."""
    text = re.sub(r"[ \t\r\f\v\n]+", " ", join_cjk_lines(text))
    return re.sub(rf" ?{_LINE_BREAK} ?", "\n", text).strip()


def parse_html(text: str) -> tuple[str | None, list[Block]]:
    scan = _LayoutTables()
    scan.feed(text)
    scan.close()
    parser = _HtmlToBlocks(scan.layout)
    parser.feed(text)
    parser.close()
    return parser.title or parser.h1, parser.blocks
