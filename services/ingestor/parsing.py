"""Text formats → ``Block``s with heading paths: Markdown, plain text, HTML.

PDF and Q/A tables live in ``pdf.py`` and ``qa.py``. Every parser returns
``(title or None, blocks)``; ``chunking.chunk_blocks`` bounds the sizes.
"""

from __future__ import annotations

import codecs
import re
import textwrap
from collections.abc import Sequence
from html.parser import HTMLParser

from services.common.errors import InvalidInput
from services.common.text import LIST_ITEM, fenced
from services.ingestor.chunking import Block

_CJK = r"\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
# A line break between two CJK characters is layout, not a space; but a line that opens
# with a bullet (・, ●, ■ …) starts a list item, and one indented with an ideographic
# space starts a paragraph (字下げ) or sets off an item, a formula or a table row: both
# keep their break.
_CJK_BREAK = re.compile(rf"(?<=[{_CJK}])[ \t]*\n[ \t]*(?=[{_CJK}])(?![・●○■□◆◇▪※\u3000])")


_KANA = re.compile(r"[\u3041-\u309f\u30a0-\u30ff]")


def decode_text(data: bytes, filename: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, Shift_JIS (Japanese Excel/Windows),
    EUC-JP (notes kept on a Unix server) or Windows-1252 (Western Windows). The Japanese
    encodings accept each other's bytes and many Windows-1252 texts too, as mojibake
    ("Crème" -> "Cr鑪e"): of those that decode, the one that reads as Japanese with the most
    kana is taken, and Windows-1252 where none reads as Japanese."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _lines(_decoded(data, "utf-16"), filename)
    text = _decoded(data, "utf-8-sig")
    if text is None:
        western = _decoded(data, "cp1252")
        japanese = [t for e in ("cp932", "euc_jp") if (t := _decoded(data, e)) is not None]
        japanese = [t for t in japanese if western is None or reads_as_japanese(t)]
        text = max(japanese, key=lambda t: len(_KANA.findall(t))) if japanese else western
    return _lines(text, filename)


def reads_as_japanese(text: str) -> bool:
    """Kana, or mostly symbols and JIS level-1 kanji (Shift_JIS lead bytes 0x81-0x98).
    Windows-1252 text read as Shift_JIS turns its accented letters into level-2 kanji,
    half-width katakana and private-use characters instead (鑪, ﾟ, U+E506)."""
    if _KANA.search(text):
        return True
    leads = [ch.encode("cp932", errors="replace")[0] for ch in text if ord(ch) >= 0x80]
    common = sum(0x81 <= lead <= 0x98 for lead in leads)
    return common >= len(leads) - common


def _decoded(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _lines(text: str | None, filename: str) -> str:
    if text is None:
        raise InvalidInput(
            f"{filename!r} is not UTF-8, UTF-16, Shift_JIS, EUC-JP or Windows-1252 text"
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")


def join_cjk_lines(text: str) -> str:
    return _CJK_BREAK.sub("", text)


class _Headings:
    """The stack of open headings; ``path`` is what a block below them belongs to."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def open(self, level: int, title: str) -> None:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, title))

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(title for _, title in self._stack)


# --- Markdown -------------------------------------------------------------------------

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n(?:---|\.\.\.)\n", re.DOTALL)


def parse_markdown(text: str) -> tuple[str | None, list[Block]]:
    front = _FRONT_MATTER.match(text)
    named = _FRONT_TITLE.search(front.group(0)) if front else None
    text = text[front.end() :] if front else text
    # a Marp deck's comments are its speaker notes; another page's are hidden from readers
    notes = front is not None and _MARP.search(front.group(0)) is not None
    text = _links_inline(_TOC_MARKER.sub("", text))
    text = _with_footnotes_inline(_html_blocks_read(_obsidian_read(text), notes))
    headings = _Headings()
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
        elif fence := _FENCE.match(line):
            flush()
            marker, body = fence.group(1), [line]
            i += 1
            while i < len(lines):
                body.append(lines[i])
                if lines[i].strip().startswith(marker):
                    break
                i += 1
            blocks.append(Block("\n".join(body), headings.path))
        elif atx := _ATX.match(line):
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
        if fence is None and not commented and (marker := _FENCE.match(line)):
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


def _prose_lines(lines: list[str]) -> list[bool]:
    """Per line: outside every code fence (a fence's own lines are code too)."""
    prose: list[bool] = []
    fence: str | None = None
    for line in lines:
        if marker := _FENCE.match(line):
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


# --- plain text ------------------------------------------------------------------------


# A plain-text heading is a one-line paragraph that numbers a section ("3. L2 正則化",
# "2.1 Setup", "第3章 索引", "（2）誕生日のパラドックス") or is marked (【まとめ】, ■2 言葉の整理),
# with no sentence end. The number's depth is the level; a bracketed heading sits below
# whatever is open.
_NUMBERED_HEADING = re.compile(
    r"^(?:(\d{1,2}(?:\.\d{1,2})*)[.．]?|第[0-9０-９一二三四五六七八九十]+[章節部])[ \t\u3000]+\S"
)
# （1）, (1) and ① number sections one and two levels below "1." when a line of its own
# stands above prose: 「（1）暗号学的ハッシュ関数とは」.
_PAREN_HEADING = re.compile(r"^(?:([(（]\d{1,2}[)）])|[①-⑳])[ \t\u3000]*\S")
_BRACKET_HEADING = re.compile(r"^【[^】]{1,30}】$|^[■□◆◇▼▽◎][ \t\u3000]*\S")
# A line that ends a sentence (or introduces what follows): no heading, no title, and a short
# PDF line that ends so ends its paragraph.
SENTENCE_END = re.compile(r"[。．.!?！？:：]$")
_MAX_HEADING_CHARS = 50
_BRACKET_LEVEL = 9


def _heading_level(paragraph: str) -> int | None:
    """The level of a heading-shaped paragraph, or None for anything else."""
    line = paragraph.strip()
    if "\n" in line or len(line) > _MAX_HEADING_CHARS or SENTENCE_END.search(line):
        return None
    if _BRACKET_HEADING.match(line):
        return _BRACKET_LEVEL
    if numbered := _NUMBERED_HEADING.match(line):
        number = numbered.group(1)
        return number.count(".") + 1 if number else 1
    if parenthesised := _PAREN_HEADING.match(line):
        return 2 if parenthesised.group(1) else 3
    return None


def _marked_heading_apart(paragraph: str) -> list[str]:
    """A section line marked ■ or 【】 with its text right under it: the heading, then the
    text ("■2　言葉の整理" over its list)."""
    first, _, rest = paragraph.partition("\n")
    if rest.strip() and _BRACKET_HEADING.match(first.strip()) and _heading_level(first):
        return [first, rest]
    return [paragraph]


def _plain_title(paragraph: str) -> str | None:
    """A first paragraph of a few short lines with no sentence end is the document's title."""
    lines = [line.strip() for line in paragraph.strip().split("\n")]
    if len(lines) > 3 or any(len(x) > 60 or SENTENCE_END.search(x) for x in lines):
        return None
    return " ".join(lines)


# Markdown written into a .txt file (notes exported from editors and chat tools, design
# documents): two kinds of Markdown marks, or three ATX headings, and it is read as Markdown.
# Headings and fences are the ones parse_markdown reads (_ATX, _FENCE).
_TABLE_SEPARATOR = re.compile(r"^ {0,3}\|?[ \t]*:?-{3,}:?[ \t]*\|", re.M)
_BOLD = re.compile(r"\*\*[^*\n]+\*\*")
_LINK = re.compile(r"!?\[[^\]\n]+\]\([^)\s]+\)")  # a link or an image


def looks_like_markdown(text: str) -> bool:
    lines = text.split("\n")
    headings = sum(1 for line in lines if (atx := _ATX.match(line)) and atx.group(2))
    kinds = [
        headings > 0,
        any(_FENCE.match(line) for line in lines),
        bool(_TABLE_SEPARATOR.search(text)),
        bool(_BOLD.search(text)),
        bool(_LINK.search(text)),
    ]
    return sum(kinds) >= 2 or headings >= 3


def parse_plain_text(text: str) -> tuple[str | None, list[Block]]:
    """Paragraphs separated by blank lines, under the headings that plain text marks by
    numbering or brackets; a text file written in Markdown is read as Markdown.

    A run of numbered one-liners at one level, each separated by a blank line, is a list,
    not a series of empty sections: a line is a heading only when neither neighbour is a
    heading-shaped line of the same level.
    """
    if looks_like_markdown(text):
        return parse_markdown(text)
    paragraphs = [
        part
        for p in re.split(r"\n[ \t\u3000]*\n", text)
        if p.strip()
        for part in _marked_heading_apart(p.strip("\n").rstrip())
    ]
    levels = [_heading_level(p) for p in paragraphs]
    title = None
    if len(paragraphs) > 1 and levels[0] is None:
        title = _plain_title(paragraphs[0])
    headings = _Headings()
    if title:  # like a Markdown H1: every block sits below it
        headings.open(0, title)
    blocks: list[Block] = []
    for i, paragraph in enumerate(paragraphs):
        level = levels[i]
        neighbours = levels[i - 1 : i] + levels[i + 1 : i + 2]
        is_heading = level is not None and i + 1 < len(paragraphs) and level not in neighbours
        if is_heading:
            headings.open(level, paragraph)
        elif i == 0 and title:
            # the title heads every block; a title of several lines (the course, a date, the
            # author under it) is text too, or nothing could quote its date
            if "\n" in paragraph.strip():
                blocks.append(Block(paragraph.strip(), headings.path))
        else:
            blocks.extend(Block(text, headings.path) for text in _plain_blocks(paragraph))
    return title, blocks


# Indentation: an ideographic space or a tab, or two spaces. Columns of a table aligned by
# hand are set apart by an ideographic space, two spaces or a tab.
_INDENT = re.compile(r"^(?:[\u3000\t]|  )[\u3000 \t]*")
_COLUMN_GAP = re.compile(r"\u3000[\u3000 ]*| {2,}|\t+")
_CODE_MARK = re.compile(r"[=(){}\[\];<>]|^\$ |^#|^//")


def _plain_blocks(paragraph: str) -> list[str]:
    """A paragraph's prose and what it sets off by indenting. An indented line is a line of
    its own (a list item, a formula, a row), never the rest of the sentence above it."""
    runs: list[tuple[bool, list[str]]] = []
    for line in (line for line in paragraph.split("\n") if line.strip()):
        indented = _INDENT.match(line) is not None
        if runs and runs[-1][0] == indented:
            runs[-1][1].append(line)
        elif runs and indented and _hangs(line.strip(), runs[-1][1]):
            runs[-1][1].append(f"  {line.strip()}")  # a hanging indent goes on with the item
        elif len(runs) == 1 and len(runs[0][1]) == 1 and not indented:
            runs[0] = (False, [runs[0][1][0].strip(), line])  # a paragraph's first-line indent
        else:
            runs.append((indented, [line]))
    out = []
    for indented, lines in runs:
        if indented:
            out.extend(_indented_blocks(lines))
        else:
            out.append(join_cjk_lines("\n".join(with_outer_pipes(lines))))
    return out


def _hangs(text: str, lines: list[str]) -> bool:
    """An indented line of text (no item, row or code of its own) after a list item, or
    after a line going on with one, goes on with that item: a hanging indent."""
    if LIST_ITEM.match(text) or _COLUMN_GAP.search(text) or _looks_like_code([text]):
        return False
    for line in reversed(lines):
        if LIST_ITEM.match(line):
            return True
        if not line.startswith("  "):
            return False
    return False


def _indented_blocks(lines: list[str]) -> list[str]:
    """Indented lines as list items and lines of their own; between items, lines in the
    same columns are a table, lines of code a fenced block, and other lines indented deeper
    than the item above them go on with that item."""
    blocks: list[str] = []
    kept: list[str] = []  # items and lines, one block until a table or code comes between
    group: list[tuple[int, str, str]] = []  # (indentation width, text, raw) between items
    item_width: int | None = None

    def close(block: str | None = None) -> None:
        if kept:
            blocks.append("\n".join(kept))
            kept.clear()
        if block:
            blocks.append(block)

    def settle() -> None:
        texts = [text for _, text, _ in group]
        rows = [_COLUMN_GAP.split(text) for text in texts]
        if len(rows) > 1 and len(rows[0]) > 1 and len({len(r) for r in rows}) == 1:
            close("\n".join(markdown_table(rows)))
        elif _looks_like_code(texts):
            raw = [r.replace("\u3000", "  ").rstrip() for _, _, r in group]
            close(fenced(textwrap.dedent("\n".join(raw))))
        elif item_width is not None and min(w for w, _, _ in group) > item_width:
            kept.extend(f"  {text}" for text in texts)  # goes on with the item above
        else:
            kept.extend(texts)
        group.clear()

    for line in lines:
        width = sum(2 if c == "\u3000" else 4 if c == "\t" else 1 for c in _INDENT.match(line)[0])
        text = line.strip()
        if LIST_ITEM.match(text):
            if group:
                settle()
            kept.append(text)
            item_width = width
        else:
            group.append((width, text, line))
    if group:
        settle()
    close()
    return blocks


def _looks_like_code(lines: list[str]) -> bool:
    """Lines of ASCII, most of them with the marks code is written in (= ( ) [ ] { } ;)."""
    ascii_only = all(line.isascii() for line in lines)
    marked = sum(1 for line in lines if _CODE_MARK.search(line))
    return ascii_only and marked * 2 >= len(lines)


# --- HTML -------------------------------------------------------------------------------

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
_FILE_NAME = re.compile(r"^\S+\.(?:png|jpe?g|gif|svg|webp|bmp)$", re.I)
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
        self._headings = _Headings()
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
        elif tag == "table":
            self._flush()
            self._rows = []
        elif tag == "img":
            # what a reader who cannot see the image is told of it ("成績の内訳を示す円グラフ")
            alt = _collapse(dict(attrs).get("alt") or "")
            if alt and not _FILE_NAME.match(alt):
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

    def handle_data(self, data: str) -> None:
        if self._in == "title":
            self._title_text.append(data)
        elif self._in == "style":
            self._hidden_classes |= _hidden_classes(data)
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


def _hidden_classes(style: str) -> set[str]:
    """Classes a style sheet hides on screen (.print-only{display:none}); rules for print or
    other media only are not the screen's."""
    hidden: set[str] = set()
    for selectors, body in _CLASS_RULE.findall(_MEDIA_RULES.sub("", style)):
        if _DISPLAY_NONE.search(body):
            hidden.update(re.findall(r"^\s*\.([\w-]+)\s*$", selectors.replace(",", "\n"), re.M))
    return hidden


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
