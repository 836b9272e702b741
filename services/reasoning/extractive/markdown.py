"""Markdown as a reader sees it: the text without the markers.

Chunks are stored as Markdown (headings, lists, tables, fences, emphasis, inline code,
``$…$`` formulas). A quote shown to a student must not carry ``###`` or ``**``, and the
reflection pass must compare a quote with its passage in the same form, so both go
through ``plain_text``. Only markers go: every word, number, symbol and formula stays.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^\s{0,3}(?:`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.M)
_QUOTE = re.compile(r"^\s{0,3}>\s?", re.M)
_BULLET = re.compile(r"^(\s*)[-*+]\s+(?=\S)", re.M)
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=\S)\*(?![\w*])")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_DISPLAY_MATH = re.compile(r"^\s*\$\$\s*$")
_INLINE_MATH = re.compile(r"\$\$?([^$\n]+?)\$\$?")
_HELD = re.compile(r"\ue000(\d+)\ue001")  # a span held aside by _inline
# A line break inside a table cell (BM25<br>HNSW) separates words; the tag is no text.
_LINE_BREAK_TAG = re.compile(r"\s*<br\s*/?>\s*", re.I)


def table_cells(line: str) -> list[str] | None:
    """The cells of a Markdown table row, or None when the line is not one."""
    stripped = line.strip()
    if not (stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1):
        return None
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", stripped[1:-1])]


def _plain_line(line: str) -> str:
    cells = table_cells(line)
    if cells is not None:
        return " | ".join(_inline(_LINE_BREAK_TAG.sub(" ", c)) for c in cells)
    return _inline(line)


def _inline(text: str) -> str:
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    # Code spans and formulas are read before emphasis, as CommonMark reads them: the ** of
    # `np.sum(w**2)` is an exponent. Each is held aside under a placeholder meanwhile.
    held: list[str] = []

    def hold(content: str) -> str:
        held.append(content.strip())
        return f"\ue000{len(held) - 1}\ue001"

    text = _CODE_SPAN.sub(lambda m: hold(m.group(2)), text)
    text = _INLINE_MATH.sub(lambda m: hold(m.group(1)), text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(r"\1", text)
    text = _HELD.sub(lambda m: held[int(m.group(1))], text)
    return text.replace("\\|", "|")


def plain_text(markdown: str) -> str:
    """``markdown`` without its markers; lines stay lines (list items, rows, code lines);
    a line that is only a marker (a fence, a table rule, ``$$``) goes."""
    kept = [
        line
        for line in markdown.split("\n")
        if not (_FENCE.match(line) or _TABLE_RULE.match(line) or _DISPLAY_MATH.match(line))
    ]
    text = _HEADING.sub("", "\n".join(kept))
    text = _QUOTE.sub("", text)
    text = _BULLET.sub(r"\1", text)
    lines = [_plain_line(line).rstrip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
