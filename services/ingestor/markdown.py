"""Markdown → ``Block``s with heading paths: CommonMark's blocks (ATX and setext headings,
fences and indented code, lists, tables, quotes), front matter, and what editors and wikis
add to it (Obsidian's callouts and comments, HTML blocks, reference links, footnotes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from services.ingestor.chunking import Block
from services.ingestor.parsing import HeadingStack, image_text, join_cjk_lines
from services.ingestor.webpage import parse_html

ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n(?:---|\.\.\.)\n", re.DOTALL)


def parse_markdown(text: str) -> tuple[str | None, list[Block]]:
    front = _FRONT_MATTER.match(text)
    named = _FRONT_TITLE.search(front.group(0)) if front else None
    text = text[front.end() :] if front else text
    # a Marp deck's comments are its speaker notes; another page's are hidden from readers
    notes = front is not None and _MARP.search(front.group(0)) is not None
    text = _images_read(_without_contents(_links_inline(_TOC_MARKER.sub("", text))))
    text = _with_footnotes_inline(_html_blocks_read(_obsidian_read(text), notes))
    headings = HeadingStack()
    blocks: list[Block] = []
    title: str | None = None
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            lines = with_outer_pipes(paragraph)
            blocks.append(Block(join_cjk_lines("\n".join(lines)), headings.path))
            paragraph.clear()

    def heading(level: int, name: str) -> None:
        nonlocal title
        flush()
        headings.open(level, name)
        if level == 1 and title is None:
            title = name

    lines = text.split("\n")
    item_indent = 0  # where the text of the list item being read starts (3 for "1. ")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip():
            marker = _MARKDOWN_ITEM.match(line)
            if marker:
                item_indent = len(marker.group(0).expandtabs(4))
            elif not line[:1].isspace():
                item_indent = 0
        if not paragraph and (code := _indented_code(lines, i, item_indent)):
            flush()
            listing, i = code
            blocks.append(Block(listing, headings.path))
        elif fence := FENCE.match(line):
            flush()
            marker, body = fence.group(1), [line]
            i += 1
            while i < len(lines):
                body.append(lines[i])
                if lines[i].strip().startswith(marker):
                    break
                i += 1
            blocks.append(Block("\n".join(body), headings.path))
        elif atx := ATX_HEADING.match(line):
            item_indent = 0
            heading(len(atx.group(1)), atx.group(2).strip())
        elif (setext := _SETEXT.match(line)) and len(paragraph) == 1:
            name = paragraph.pop()
            heading(1 if setext.group(1)[0] == "=" else 2, name.strip())
        elif not line.strip():
            flush()
        elif _SETEXT.match(line) and not paragraph:
            pass  # a thematic break (---) separates blocks; it carries no text
        else:
            paragraph.append(line.rstrip())
        i += 1
    flush()
    return title or (named.group(1).strip() if named else None), blocks


_MARP = re.compile(r"^marp:[ \t]*true[ \t]*$", re.M)
# A wiki's "table of contents here" marker (GitLab [[_TOC_]], Python-Markdown [TOC],
# kramdown {:toc}): the rendered page shows the headings there, which the chunks have.
_TOC_MARKER = re.compile(r"^ {0,3}(?:\[\[_?TOC_?\]\]|\[TOC\]|\{:toc\}|\* TOC)[ \t]*$", re.M | re.I)
_MARKDOWN_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")
# A list item that is only a link to a heading of the same page ("- [2. ペルソナ](#2-ペルソナ)",
# "   - 1.1 [目的](#11-目的)"): a line of a hand-written table of contents. Hand-written
# ones lose a bracket now and then ("- 4.3 qdrant_service.py](#43-qdrant_servicepy)").
_CONTENTS_ITEM = re.compile(
    r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:[\d.]+[ \t]+)?\[?[^\[\]\n]+\]\(#[^)\s]*\)[ \t]*$"
)


def _indented_code(lines: list[str], i: int, item_indent: int) -> tuple[str, int] | None:
    """An indented code block opening at line ``i`` (after a blank line): its lines set four
    spaces in from the text they belong to, the page's or a list item's ("1. 再実行する。"
    then a blank line and the command under it), as a fenced block at the item's depth,
    and the index of its last line; None if line ``i`` opens none."""
    need = item_indent + 4
    if i > 0 and lines[i - 1].strip() or not _indented(lines[i], need):
        return None
    end = i
    while end + 1 < len(lines) and (not lines[end + 1].strip() or _indented(lines[end + 1], need)):
        end += 1
    while not lines[end].strip():
        end -= 1
    body = [line.expandtabs(4)[need:] if line.strip() else "" for line in lines[i : end + 1]]
    prefix = " " * item_indent
    return "\n".join(prefix + line if line else "" for line in ["```", *body, "```"]), end


def _indented(line: str, need: int) -> bool:
    expanded = line.expandtabs(4)
    return bool(line.strip()) and len(expanded) - len(expanded.lstrip(" ")) >= need


_FRONT_TITLE = re.compile(r"""^title:[ \t]*["']?(.+?)["']?[ \t]*$""", re.M)
_HTML_TABLE = re.compile(r"^ {0,3}<table\b", re.I)
_DETAILS = re.compile(r"^ {0,3}</?details\b[^>]*>\s*$", re.I)
# A line that only opens or closes a box (a Notion callout's <aside>, a <div>): the box's
# lines are its text, the tags none.
_BOX_TAG = re.compile(r"^ {0,3}</?(?:aside|div|section|center)\b[^>]*>\s*$", re.I)
# A comment that only sets a slide's look (Marp: <!-- _class: lead -->, <!-- paginate: true -->)
_DIRECTIVE = re.compile(r"_?[A-Za-z][\w-]*:[^\n]{0,60}")
_SUMMARY = re.compile(r"^ {0,3}<summary\b[^>]*>(.*?)</summary>\s*$", re.I)
_FOOTNOTE = re.compile(r"^\[\^([^\]\s]+)\]:[ \t]?(.*)$")


# Obsidian's own Markdown: %% a private comment %%, [[note|alias]] links, ![[embeds]],
# ==highlights== and > [!type] Title callouts.
_WIKILINK = re.compile(r"(!?)\[\[([^\[\]|]+)(?:\|([^\[\]]+))?\]\]")
_HIGHLIGHT = re.compile(r"==(?=\S)([^=\n]+?)(?<=\S)==")
_CALLOUT = re.compile(r"^(\s*>\s*)\[!([\w-]+)\][+-]?[ \t]*(.*)$")
_CODE_SPAN = re.compile(r"(`+).+?\1")


def _obsidian_read(text: str) -> str:
    """Obsidian's Markdown as its reading view shows it: a comment is not shown, a link shows
    its alias (or the note's name), an embed is not text, a highlight is emphasis and a
    callout's marker gives way to its title (or its type). Code is left alone: a notebook's
    ``%%writefile`` cell magic is no comment, nor is `%%` in a code span ("仕様ファイルは
    `%%` で3部に分かれる" opened a comment that took the rest of a lex spec's notes). A %%
    that no later %% closes opens no comment, so nothing after it is dropped."""
    if not any(mark in text for mark in ("%%", "[[", "==", "[!")):
        return text
    lines = text.split("\n")
    out, open_since = _obsidian_lines(lines, comments=True)
    if open_since is not None:
        out = _obsidian_lines(lines[:open_since], comments=True)[0]
        out += _obsidian_lines(lines[open_since:], comments=False)[0]
    return "\n".join(out)


def _obsidian_lines(lines: list[str], comments: bool) -> tuple[list[str], int | None]:
    """The lines as the reading view shows them, and the line where a comment still open at
    the end began (None when every comment closed). Fences are followed here, not through
    ``_prose_lines``: a fence inside a %% comment is hidden with it and opens no code."""
    out: list[str] = []
    fence: str | None = None
    commented = False  # inside a %% comment that spans lines
    open_since: int | None = None
    for number, line in enumerate(lines):
        if fence is None and not commented and (marker := FENCE.match(line)):
            fence = marker.group(1)
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
        else:
            if comments:
                was_commented = commented
                line, commented = _without_comments(line, commented)
                if commented and not was_commented:
                    open_since = number
            if callout := _CALLOUT.match(line):
                quote, kind, title = callout.groups()
                line = f"{quote}**{title.strip() or kind.capitalize()}**"
            line = _outside_code_spans(line, _obsidian_inline)
        out.append(line)
    return out, (open_since if commented else None)


def _without_comments(line: str, commented: bool) -> tuple[str, bool]:
    """A line without its %% comments (a %% in a code span is none), and whether a comment
    is still open at its end."""
    spans = [m.span() for m in _CODE_SPAN.finditer(line)]
    kept, at = "", 0
    for mark in (m.start() for m in re.finditer("%%", line)):
        if any(start <= mark < end for start, end in spans):
            continue
        if not commented:
            kept += line[at:mark]
        at, commented = mark + 2, not commented
    return (kept if commented else kept + line[at:]), commented


def _obsidian_inline(text: str) -> str:
    def link(m: re.Match) -> str:
        embed, target, alias = m.groups()
        return "" if embed else (alias or target.split("#")[0]).strip()

    return _HIGHLIGHT.sub(r"**\1**", _WIKILINK.sub(link, text))


def _outside_code_spans(line: str, change) -> str:
    parts, at = [], 0
    for span in _CODE_SPAN.finditer(line):
        parts += [change(line[at : span.start()]), span.group(0)]
        at = span.end()
    return "".join([*parts, change(line[at:])])


def _html_blocks_read(text: str, notes: bool = False) -> str:
    """HTML written into Markdown, read as Markdown: a <table> as a GFM table, a
    <details> box as its summary (bold) and its body, an <aside> or <div> as its lines; a
    comment is hidden, as a rendered page hides it (a wiki's export stamp, a teacher's
    answer kept back), but read as its text where it holds ``notes`` (Marp writes a
    slide's speaker notes so) unless it only sets a slide's look; code fences are left
    alone."""
    out: list[str] = []
    lines = text.split("\n")
    prose = _prose_lines(lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        if not prose[i]:
            pass
        elif _HTML_TABLE.match(line):
            end = next((j for j in range(i, len(lines)) if "</table>" in lines[j].lower()), i)
            _, blocks = parse_html("\n".join(lines[i : end + 1]))
            out += ["", *(part for b in blocks for part in (b.text, "")), ""]
            i = end + 1
            continue
        elif line.lstrip().startswith("<!--"):
            end = next((j for j in range(i, len(lines)) if "-->" in lines[j]), None)
            if end is not None:
                said, after = "\n".join(lines[i : end + 1]).strip()[4:].rsplit("-->", 1)
                if notes and not _DIRECTIVE.fullmatch(said.strip()):
                    out += ["", *said.strip().split("\n"), ""]  # a slide's notes, a note
                out.append(after)
                i = end + 1
                continue
        elif _DETAILS.match(line) or _BOX_TAG.match(line):
            line = ""
        elif summary := _SUMMARY.match(line):
            line = f"\n**{summary.group(1).strip()}**\n"
        out.append(line)
        i += 1
    return "\n".join(out)


# A reference-style link's definition ([ieee]: https://… "title"), and a link that uses one:
# [text][ref], [text][] or [ref] alone.
_LINK_DEFINITION = re.compile(
    r"^ {0,3}\[([^\]^][^\]]*)\]:[ \t]*<?(\S+?)>?(?:[ \t]+[\"'(].*[\"')])?[ \t]*$"
)
_REFERENCE_LINK = re.compile(r"\[([^\[\]]+)\](?:\[([^\[\]]*)\])?(?![(:\[])")


def _links_inline(text: str) -> str:
    """Reference-style links as inline ones ([text](url)), as a reader sees them, and no
    definition lines left at the end of the text; code is left alone."""
    lines = text.split("\n")
    prose = _prose_lines(lines)
    urls: dict[str, str] = {}
    for line, is_prose in zip(lines, prose, strict=True):
        if is_prose and (definition := _LINK_DEFINITION.match(line)):
            urls.setdefault(definition.group(1).strip().casefold(), definition.group(2))
    if not urls:
        return text

    def inline(m: re.Match) -> str:
        label, ref = m.group(1), m.group(2)
        url = urls.get((ref or label).strip().casefold())
        return f"[{label}]({url})" if url else m.group(0)

    return "\n".join(
        _outside_code_spans(line, lambda part: _REFERENCE_LINK.sub(inline, part))
        if is_prose
        else line
        for line, is_prose in zip(lines, prose, strict=True)
        if not (is_prose and _LINK_DEFINITION.match(line))
    )


def _without_contents(text: str) -> str:
    """The text without its hand-written tables of contents: runs of two or more list items
    that each only link to a heading of the page. Every entry names a section the page
    holds under its own heading, so nothing is lost; kept, the list matches any question
    about the page, and the engine quoted it as an answer (a list of every topic). HTML
    pages lose theirs the same way (``webpage.py``: a ``nav``)."""
    lines = text.split("\n")
    prose = _prose_lines(lines)
    entry = [
        is_prose and _CONTENTS_ITEM.match(line) is not None
        for line, is_prose in zip(lines, prose, strict=True)
    ]
    in_run = [
        entry[i] and ((i > 0 and entry[i - 1]) or (i + 1 < len(lines) and entry[i + 1]))
        for i in range(len(lines))
    ]
    return "\n".join(line for line, dropped in zip(lines, in_run, strict=True) if not dropped)


_IMAGE = re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)([ \t]*)")
_EMPTY_LINK = re.compile(r"\[\s*\]\([^)\n]*\)[ \t]*")


def _images_read(text: str) -> str:
    """Images as the HTML reader reads them (``image_text``): their alt text, or nothing when
    it only names the file; a link left with no text (a badge's) goes too. Their paths
    (doc/assets/agent_1.png) are no words of the page either."""
    lines = text.split("\n")

    def read(part: str) -> str:
        return _EMPTY_LINK.sub("", _IMAGE.sub(_image_read, part))

    return "\n".join(
        _outside_code_spans(line, read) if is_prose and "![" in line else line
        for line, is_prose in zip(lines, _prose_lines(lines), strict=True)
    )


def _image_read(m: re.Match) -> str:
    said = image_text(m.group(1))
    return said + m.group(2) if said else ""  # no gap left where nothing is said


def _prose_lines(lines: list[str]) -> list[bool]:
    """Per line: outside every code fence (a fence's own lines are code too)."""
    prose: list[bool] = []
    fence: str | None = None
    for line in lines:
        if marker := FENCE.match(line):
            fence = None if fence and line.strip().startswith(fence) else fence or marker.group(1)
            prose.append(False)
        else:
            prose.append(fence is None)
    return prose


def _with_footnotes_inline(text: str) -> str:
    """Footnotes ([^1] and its "[^1]: …" at the end) read where they are referred to, in
    brackets, as a Word document's are: a definition far from its reference lands in
    another chunk."""
    notes: dict[str, str] = {}
    kept: list[str] = []
    current: str | None = None
    for line in text.split("\n"):
        if definition := _FOOTNOTE.match(line):
            current = definition.group(1)
            notes[current] = definition.group(2).strip()
        elif current and line.startswith(("    ", "\t")) and line.strip():
            notes[current] += " " + line.strip()  # the definition goes on, indented
        else:
            current = None
            kept.append(line)
    if not notes:
        return text

    def inline(m: re.Match) -> str:
        if m.group(1) not in notes:
            return m.group(0)
        note = notes[m.group(1)]
        if m.string[m.end() : m.end() + 1] in ("。", "."):
            note = note.rstrip("。.")  # the sentence's own full stop follows: "扱う (…)。"
        return f" ({note})"

    return re.sub(r"\[\^([^\]\s]+)\]", inline, "\n".join(kept))


# A GFM delimiter row: cells of dashes (colons for alignment) between pipes, the outer
# pipes optional ("--- | :---:"); a pipe-less one needs two cells to be told from a rule.
_DELIMITER_CELL = r"[ \t]*:?-+:?[ \t]*"
_DELIMITER_ROW = re.compile(
    rf"^ {{0,3}}(?:\|?{_DELIMITER_CELL}(?:\|{_DELIMITER_CELL})+\|?|\|{_DELIMITER_CELL}\|?)$"
)
_CELL_PIPE = re.compile(r"(?<!\\)\|")


def with_outer_pipes(lines: list[str]) -> list[str]:
    """A paragraph's lines with every GFM table written with its outer pipes.

    GFM lets a table leave them out (``a | b`` over ``--- | ---``). Chunking keeps a table
    whole, and the engine reads it row by row, by those pipes; without them the rows read as
    sentences, and a break between two Japanese rows would even be joined as layout. A
    table is a header row whose cells the delimiter row below it matches, and the lines
    after it that hold a pipe."""
    out = list(lines)
    i = 1
    while i < len(out):
        header = out[i - 1]
        if _DELIMITER_ROW.match(out[i]) and _cells(header) == _cells(out[i]) > 1:
            end = i + 1
            while end < len(out) and _CELL_PIPE.search(out[end]):
                end += 1
            for j in range(i - 1, end):
                out[j] = _piped(out[j])
            i = end
        i += 1
    return out


def markdown_table(rows: Sequence[Sequence[object]]) -> list[str]:
    """Rows as a GFM table, the first row its header: each cell on one line, its pipes
    escaped; empty rows dropped, short rows padded."""
    cells = [[_table_cell(value) for value in row] for row in rows]
    cells = [row for row in cells if any(row)]
    if not cells:
        return []
    width = max(len(row) for row in cells)
    lines = [f"| {' | '.join(row + [''] * (width - len(row)))} |" for row in cells]
    return [lines[0], "|" + " --- |" * width, *lines[1:]]


def _table_cell(value: object) -> str:
    return re.sub(r"\s+", " ", "" if value is None else str(value)).strip().replace("|", "\\|")


def _cells(row: str) -> int:
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return len(_CELL_PIPE.split(inner))


def _piped(row: str) -> str:
    row = row.strip()
    if not row.startswith("|"):
        row = "| " + row
    if not row.endswith("|") or row.endswith("\\|"):
        row += " |"
    return row
