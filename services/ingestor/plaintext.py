"""Plain text → ``Block``s: numbered and marked section lines as headings, paragraphs,
lists and indented code; a .txt holding Markdown is read as Markdown.
"""

from __future__ import annotations

import re
import textwrap

from services.common.text import LIST_ITEM, fenced
from services.ingestor.chunking import Block
from services.ingestor.markdown import (
    ATX_HEADING,
    FENCE,
    markdown_table,
    parse_markdown,
    with_outer_pipes,
)
from services.ingestor.parsing import HeadingStack, join_cjk_lines

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


# A rule drawn across the page (====, ----, ━━━━) sets a section title apart in plain text,
# above and below it ("====\n2. 安全規則\n====") or under it ("概要\n----"). Lab guides and TA
# memos are written so (course_cloud, course_circ); the rules themselves are no text.
_RULE = re.compile(r"^([=\-*~_#━─═＝－])\1{2,}[ \t\u3000]*$")


def _titles_apart(paragraph: str) -> list[tuple[str, int | None]]:
    """A paragraph as (text, None) pieces and the section titles its rules set apart as
    (title, level): a title of one line, framed by rules or underlined by one. A title's
    numbering gives its level (2.1 is 2); an unnumbered one is 1."""
    lines = paragraph.split("\n")
    rules = [i for i, line in enumerate(lines) if _RULE.match(line.strip())]
    if not rules:
        return [(paragraph, None)]
    pieces: list[tuple[str, int | None]] = []
    start = 0
    for end in [*rules, len(lines)]:
        run = [line for line in lines[start:end] if line.strip()]
        if run:
            title = run[0].strip()
            ruled_below = end < len(lines)
            if len(run) == 1 and ruled_below and _title_shaped(title):
                numbered = _NUMBERED_HEADING.match(title)
                number = numbered.group(1) if numbered else None
                pieces.append((title, number.count(".") + 1 if number else 1))
            else:
                pieces.append(("\n".join(run), None))
        start = end + 1
    return pieces


def _title_shaped(line: str) -> bool:
    return len(line) <= _MAX_HEADING_CHARS and not SENTENCE_END.search(line)


def _plain_title(paragraph: str) -> str | None:
    """A first paragraph of a few short lines with no sentence end is the document's title.
    What a title block sets off in columns is no part of it: a date spaced out to the right
    of the subject, a name pushed to the right margin."""
    raw = paragraph.strip("\n").split("\n")
    lines = [line.strip() for line in raw]
    if len(lines) > 3 or any(len(x) > 60 or SENTENCE_END.search(x) for x in lines):
        return None
    kept = [
        _COLUMN_SPREAD.split(line)[0]
        for line, whole in zip(lines, raw, strict=True)
        if len(whole) - len(line) < _RIGHT_ALIGNED
    ]
    return " ".join(part for part in kept if part) or None


# Three spaces or more set a column apart; a line indented this far is pushed to the right.
_COLUMN_SPREAD = re.compile(r"[ \u3000]{3,}|\t")
_RIGHT_ALIGNED = 20


# Markdown written into a .txt file (notes exported from editors and chat tools, design
# documents): two kinds of Markdown marks, or three ATX headings, and it is read as Markdown.
# Headings and fences are the ones parse_markdown reads (ATX_HEADING, FENCE).
_TABLE_SEPARATOR = re.compile(r"^ {0,3}\|?[ \t]*:?-{3,}:?[ \t]*\|", re.M)
_BOLD = re.compile(r"\*\*[^*\n]+\*\*")
_LINK = re.compile(r"!?\[[^\]\n]+\]\([^)\s]+\)")  # a link or an image


def looks_like_markdown(text: str) -> bool:
    lines = text.split("\n")
    headings = sum(1 for line in lines if (atx := ATX_HEADING.match(line)) and atx.group(2))
    kinds = [
        headings > 0,
        any(FENCE.match(line) for line in lines),
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
    pieces = [
        piece
        for p in re.split(r"\n[ \t\u3000]*\n", text)
        if p.strip()
        for part in _marked_heading_apart(p.strip("\n").rstrip())
        for piece in _titles_apart(part)
    ]
    paragraphs = [text for text, _ in pieces]
    ruled = [level is not None for _, level in pieces]
    levels = [level if level is not None else _heading_level(text) for text, level in pieces]
    title = None
    if len(paragraphs) > 1 and levels[0] is None:
        title = _plain_title(paragraphs[0])
    headings = HeadingStack()
    if title:  # like a Markdown H1: every block sits below it
        headings.open(0, title)
    blocks: list[Block] = []
    for i, paragraph in enumerate(paragraphs):
        level = levels[i]
        neighbours = levels[i - 1 : i] + levels[i + 1 : i + 2]
        is_heading = ruled[i] or (
            level is not None and i + 1 < len(paragraphs) and level not in neighbours
        )
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
        elif runs and indented and not runs[-1][0] and _goes_on(runs[-1][1][-1], line.strip()):
            runs[-1][1].append(line.strip())  # the sentence above goes on, hanging
        elif len(runs) == 1 and len(runs[0][1]) == 1 and not indented:
            runs[0] = (False, [runs[0][1][0].strip(), line])  # a paragraph's first-line indent
        else:
            runs.append((indented, [line]))
    out = []
    for indented, lines in runs:
        if indented:
            out.extend(_indented_blocks(lines))
        else:
            out.append(_joined(with_outer_pipes(lines)))
    return out


# A line that opens a field of a notice: 日時：…, 教室：…, 実験2（11月24日）：….
_FIELD = re.compile(r"^[^\s:：|]{1,20}[:：]")


def _joined(lines: list[str]) -> str:
    """Wrapped lines joined as a reader reads them (Japanese without a space). Where two
    lines or more open a field (日時：…, 教室：…, as a notice or an e-mail lists them), each
    field stays a line of its own, its wrapped lines joined: the fields had run together
    ("…60分）教室：…")."""
    if sum(1 for line in lines if _FIELD.match(line)) < 2:
        return join_cjk_lines("\n".join(lines))
    fields: list[list[str]] = []
    for line in lines:
        if _FIELD.match(line) or not fields:
            fields.append([line])
        else:
            fields[-1].append(line)
    return "\n".join(join_cjk_lines("\n".join(field)) for field in fields)


# A line that stops inside a sentence: after a comma or a particle (を実行し、 / 測定点を).
_MID_SENTENCE = re.compile(r"(?:[、，,]|[をにがはでとへ])$")


def _goes_on(line: str, text: str) -> bool:
    """An indented line of text under a line that stops mid-sentence is the rest of that
    sentence, wrapped with a hanging indent ("実験2：…を実行し、" over "  予想波形を…")."""
    return bool(_MID_SENTENCE.search(line.rstrip())) and _plain_line(text)


def _plain_line(text: str) -> bool:
    """No list item, row of columns or code of its own."""
    return not (LIST_ITEM.match(text) or _COLUMN_GAP.search(text) or _looks_like_code([text]))


def _hangs(text: str, lines: list[str]) -> bool:
    """An indented line of text (no item, row or code of its own) after a list item, or
    after a line going on with one, goes on with that item: a hanging indent."""
    if not _plain_line(text):
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
