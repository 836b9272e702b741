"""reStructuredText (.rst: Sphinx documentation, lab guides) → ``Block``s, through Markdown.

Labs and course sites built with Sphinx keep their sources as reStructuredText. A section
title is underlined (and maybe overlined) with punctuation, and its level is the order in
which the document first uses that style. Literal blocks (a paragraph ending in ``::``)
and ``code-block`` directives become fenced code, ``math`` displays ``$$`` displays,
admonitions (``note``, ``warning`` …) a paragraph that names them, and simple, grid and
``list-table`` tables Markdown tables. Roles keep their text (``:math:`` as ``$…$``), and
what a reader never sees (comments, ``toctree``, ``image``, substitution definitions) goes.
"""

from __future__ import annotations

import re
import textwrap

from services.common.text import fenced
from services.ingestor.chunking import PROSE, Block
from services.ingestor.markdown import markdown_table, parse_markdown
from services.ingestor.parsing import unwrap

_ADORNMENT = re.compile(r"""^([=\-~^"'`#*+<>:._])\1{2,}\s*$""")
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:-]+)::\s*(.*)$")
_CODE_DIRECTIVES = {"code-block", "code", "sourcecode", "highlight"}
_ADMONITIONS = {
    "note", "warning", "tip", "important", "caution", "attention", "hint", "danger", "error",
    "seealso", "admonition", "topic", "sidebar", "rubric",
}  # fmt: skip
_TABLE_DIRECTIVES = {"list-table", "table", "csv-table"}
_ROLE = re.compile(r":(\w[\w:-]*):`([^`]+)`")
_TARGETED = re.compile(r"^(.*?)\s*<([^<>]+)>$")  # "Title <target>"
_LINK = re.compile(r"`([^`<]+?)\s*<([^<>`]+)>`__?")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)]|#\.)\s+")
_GRID_BORDER = re.compile(r"^\+(?:[-=]+\+)+\s*$")
_SIMPLE_BORDER = re.compile(r"^=+(?:\s+=+)+\s*$")


def parse_rst(text: str) -> tuple[str | None, list[Block]]:
    lines = text.expandtabs(4).split("\n")
    titles = _labelled_titles(lines)
    out: list[str] = []
    styles: list[tuple[str, bool]] = []  # title adornments, in the order they appear
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = _section_title(lines, i)
        if heading is not None:
            title, style, used = heading
            if style not in styles:
                styles.append(style)
            out += ["", f"{'#' * min(styles.index(style) + 1, 6)} {_inline(title)}", ""]
            i += used
            continue
        base = _depth(line)
        if directive := _DIRECTIVE.match(line):
            body, i = _indented_block(lines, i + 1, base)
            shown = _directive(directive.group(2), directive.group(3), body)
            out += ["", *_indented(shown, base), ""]
            continue
        if line.lstrip().startswith(".. "):  # a comment, a target, a substitution: unseen
            _, i = _indented_block(lines, i + 1, base)
            continue
        if _GRID_BORDER.match(line) or _SIMPLE_BORDER.match(line):
            table, i = _table(lines, i)
            out += ["", *table, ""]
            continue
        if line.rstrip().endswith("::") and _starts_indented_block(lines, i + 1, base):
            # "text::" shows "text:"; "text ::" and a lone "::" show no colon at all
            lead = line.rstrip()[:-2]
            shown = lead if lead.endswith(" ") or not lead.strip() else f"{lead}:"
            out.append(_inline(shown.rstrip(), titles) if shown.strip() else "")
            body, i = _indented_block(lines, i + 1, base)
            item = _ITEM.match(line)  # "2. Check it::" sets its code in under its text
            out += ["", *_indented([fenced(body)], len(item.group(0)) if item else base), ""]
            continue
        if line[:1].isspace() and line.strip() and _after_blank_outside_list(out):
            quote, i = _indented_block(lines, i, 0)  # a block quote: indented prose, not code
            out += [_inline(_enumerated(q), titles) for q in quote.split("\n")]
            continue
        out.append(_inline(_field(_enumerated(line)), titles))
        i += 1
    return parse_markdown(unwrap("\n".join(out)))  # a line break in a paragraph is a space


def _section_title(lines: list[str], i: int) -> tuple[str, tuple[str, bool], int] | None:
    """(title, (adornment character, overlined), lines used) when a title starts at ``i``."""
    line = lines[i]
    over = _ADORNMENT.match(line)
    if over and i + 2 < len(lines) and lines[i + 1].strip():
        under = _ADORNMENT.match(lines[i + 2])
        if under and under.group(1) == over.group(1):
            return lines[i + 1].strip(), (over.group(1), True), 3
    if line.strip() and not line[0].isspace() and i + 1 < len(lines) and not over:
        under = _ADORNMENT.match(lines[i + 1])
        if under and len(lines[i + 1].rstrip()) >= _width(line.rstrip()) * 0.8:
            return line.strip(), (under.group(1), False), 2
    return None


def _after_blank_outside_list(out: list[str]) -> bool:
    """Whether an indented line here opens a block of its own: it follows a blank line and
    no list item, whose continuation it would be."""
    if not out or out[-1].strip():
        return False
    last = next((line for line in reversed(out) if line.strip()), "")
    return not last[:1].isspace() and not re.match(r"^(?:[-*+]|\d+[.)])\s", last)


def _width(text: str) -> int:
    """Display columns: a Japanese character takes two, as a title's underline counts it."""
    return sum(2 if ord(ch) > 0x2E7F else 1 for ch in text)


def _indented_block(lines: list[str], i: int, base: int) -> tuple[str, int]:
    """The lines from ``i`` indented deeper than ``base`` (blank lines inside kept),
    dedented, and where they end."""
    end = i
    while end < len(lines) and (not lines[end].strip() or _depth(lines[end]) > base):
        end += 1
    while end > i and not lines[end - 1].strip():
        end -= 1
    return textwrap.dedent("\n".join(lines[i:end])).strip("\n"), end


def _starts_indented_block(lines: list[str], i: int, base: int) -> bool:
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i < len(lines) and _depth(lines[i]) > base


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip())


def _indented(markdown: list[str], base: int) -> list[str]:
    """Markdown set in as deep as the directive was: inside a list item, it stays there."""
    pad = " " * base
    return [pad + line if line else line for text in markdown for line in text.split("\n")]


def _directive(name: str, argument: str, body: str) -> list[str]:
    content = re.sub(r"\A(?:[ \t]*:[\w -]+:.*\n?)+", "", body).strip("\n")  # no :options:
    if name in _CODE_DIRECTIVES:
        return [fenced(content, argument.strip())] if content else []
    if name == "math":
        formula = content or argument
        return ["$$", formula.strip(), "$$"] if formula.strip() else []
    if name in _ADMONITIONS:
        label = _inline(argument.strip() or name.capitalize())
        _, blocks = parse_rst(content)  # an admonition holds reStructuredText of its own
        texts = [b.text for b in blocks]
        if texts and blocks[0].kind == PROSE:  # "Note: …" reads as one paragraph
            return [f"{label}: {texts[0]}", "", *texts[1:]]
        return [f"{label}:", "", *texts]
    if name in _TABLE_DIRECTIVES:
        caption = [_inline(argument.strip()), ""] if argument.strip() else []
        if name == "list-table":
            return caption + markdown_table(_list_table(content))
        _, blocks = parse_rst(content)
        return caption + [b.text for b in blocks]
    if name == "figure":
        caption = content.strip()
        return [_inline(caption)] if caption else []
    return []  # image, toctree, index, contents, raw, only …: nothing a reader reads


def _list_table(body: str) -> list[list[str]]:
    """``list-table`` rows: "* - a" starts a row, "  - b" adds a cell."""
    rows: list[list[str]] = []
    for line in body.split("\n"):
        if match := re.match(r"^\*\s+-\s+(.*)$", line):
            rows.append([_inline(match.group(1))])
        elif (match := re.match(r"^\s+-\s+(.*)$", line)) and rows:
            rows[-1].append(_inline(match.group(1)))
        elif line.strip() and rows:
            rows[-1][-1] += " " + _inline(line.strip())
    return rows


def _table(lines: list[str], i: int) -> tuple[list[str], int]:
    """A grid or simple table from its first border line, as Markdown, and where it ends."""
    end = i
    while end < len(lines) and lines[end].strip():
        end += 1
    block = lines[i:end]
    grid = _GRID_BORDER.match(block[0]) is not None
    border = block[0] if grid else block[0].replace("=", "-")
    columns = _column_spans(border, grid)
    rows: list[list[str]] = []
    current: list[list[str]] | None = None
    for line in block[1:]:
        if _GRID_BORDER.match(line) or _SIMPLE_BORDER.match(line):
            if current:
                rows.append([" ".join(cell).strip() for cell in current])
            current = None
            continue
        cells = [cell.strip(" |") for cell in _cut(line, columns)]
        if current is None or not grid and cells[0]:
            if current:
                rows.append([" ".join(cell).strip() for cell in current])
            current = [[c] for c in cells]
        else:
            for cell, text in zip(current, cells, strict=True):
                cell.append(text)
    if current:
        rows.append([" ".join(cell).strip() for cell in current])
    return markdown_table([[_inline(cell) for cell in row] for row in rows]), end


def _cut(line: str, columns: list[tuple[int, int]]) -> list[str]:
    """The line's text in each column, columns counted in display width (a Japanese
    character takes two, as the table's borders are drawn for)."""
    cells = [""] * len(columns)
    position = 0
    for char in line:
        for n, (start, stop) in enumerate(columns):
            if start <= position < stop:
                cells[n] += char
        position += _width(char)
    return cells


def _column_spans(border: str, grid: bool) -> list[tuple[int, int]]:
    if grid:
        cuts = [m.start() for m in re.finditer(r"\+", border)]
        return [(a + 1, b) for a, b in zip(cuts, cuts[1:], strict=False)]
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", border)]
    # the last column of a simple table runs to the end of its line
    return [*spans[:-1], (spans[-1][0], 10_000)] if spans else []


def _labelled_titles(lines: list[str]) -> dict[str, str]:
    """Label -> the title of the section right after its ``.. _label:`` target: what a
    ``:ref:`label``` shows."""
    titles: dict[str, str] = {}
    for i, line in enumerate(lines):
        if target := re.match(r"^\.\.\s+_([\w.:-]+):\s*$", line):
            for j in range(i + 1, min(i + 4, len(lines))):
                if (title := _section_title(lines, j)) is not None:
                    titles[target.group(1).lower()] = title[0]
                    break
    return titles


def _field(line: str) -> str:
    """A field list's ":著者: 山田 花子" as the "著者: 山田 花子" a reader sees."""
    return re.sub(r"^:([^:`\s][^:`]*):\s+", r"\1: ", line)


def _enumerated(line: str) -> str:
    """reStructuredText's auto-numbered item ("#.") as Markdown's."""
    return re.sub(r"^(\s*)#\.(\s)", r"\g<1>1.\2", line)


def _inline(text: str, titles: dict[str, str] | None = None) -> str:
    text = _ROLE.sub(lambda m: _role(m, titles or {}), text)
    text = _LINK.sub(r"\1 (\2)", text)
    text = re.sub(r"``(.+?)``", r"`\1`", text)
    return re.sub(r"`([^`]+)`_{1,2}", r"\1", text)  # a reference to a named target


def _role(match: re.Match, titles: dict[str, str]) -> str:
    role, content = match.group(1), match.group(2)
    if role == "math":
        return f"${content}$"
    if role in ("code", "literal", "command", "file", "samp", "kbd"):
        return f"`{content}`"
    targeted = _TARGETED.match(content)
    if targeted and targeted.group(1):
        return targeted.group(1)
    if role == "ref":  # a bare label shows its section's title
        return titles.get(content.lower(), content)
    return content.lstrip("~!")
