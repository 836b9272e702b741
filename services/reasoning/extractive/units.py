"""The pieces of a passage that can answer something: sentences, list items, table rows,
code lines and formulas.

Course materials put answers in structure as often as in prose: a parameter in a code
line, a value in a table cell, the aspects of a step in a list, a definition in a
``$$`` display. A sentence splitter sees none of that, so a passage is read as
Markdown into units, each with the text that introduces it (the sentence before a
list, table or code block; a table's header row) and the group it belongs to, so the
answerer can quote a whole list or table when that is what was asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from services.common.text import LIST_ITEM
from services.reasoning.extractive.markdown import plain_text, table_cells
from services.reasoning.extractive.text import split_sentences

SENTENCE, ITEM, ROW, CODE, FORMULA = "sentence", "item", "row", "code", "formula"
HEADING = "heading"
STRUCTURED = (ITEM, ROW, CODE, FORMULA)

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_DISPLAY = re.compile(r"^\s*\$\$")
_COMMENT = re.compile(r"^(?:--|#|//)\s*")
_SQL = {"sql", "psql", "postgresql", "postgres", "plpgsql"}
# A block of these right after a code block is what the code printed (the ingestor writes a
# notebook cell's output so; lecture notes show a query's EXPLAIN the same way).
_OUTPUT = {"text", "output", "console", "stdout", "out"}
# A FAQ's question line ("Q: …", "Ｑ：…", "質問: …"): the answer under it reads with it
FAQ_QUESTION = re.compile(r"^\s*(?:Q|Ｑ|質問)\s*[:：.]")
_MAX_STATEMENT_LINES = 12
# A line break inside a sentence: the line goes on in lower case, or ends with 、
_SOFT_BREAK = re.compile(r"(?<=[A-Za-z0-9,`)])\n(?=[a-z`(])|(?<=、)\n")


@dataclass(frozen=True)
class Unit:
    kind: str  # sentence | item | row | code | formula | heading
    text: str  # as a reader sees it: Markdown markers removed
    start: int  # the unit's raw Markdown is passage[start:end]
    end: int
    group: int = -1  # the list, table, code block or formula it belongs to; -1 for prose
    context: str = ""  # what introduces it (plain text): a list's lead-in, a table's header
    output: bool = False  # a line its code block printed (a notebook cell's result)


@dataclass
class _Line:
    start: int
    end: int
    raw: str


def _lines(text: str) -> list[_Line]:
    lines, offset = [], 0
    for raw in text.split("\n"):
        lines.append(_Line(offset, offset + len(raw), raw))
        offset += len(raw) + 1
    return lines


def units_of(passage: str) -> list[Unit]:
    """Units of a Markdown passage, in reading order."""
    units: list[Unit] = []
    lines = _lines(passage)
    group = 0
    lead_in = ""  # the last prose sentence: what a following list, table or code introduces
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.raw.strip()
        if not stripped:
            i += 1
            continue
        if fence := _FENCE.match(line.raw):
            info = line.raw.strip().lstrip("`~").strip().lower()
            printed = (
                info in _OUTPUT
                and units
                and units[-1].kind == CODE
                and _only_blank_between(lines, units[-1].end, line.start)
            )
            if printed:  # what the code above printed: one group with it
                i = _code_block(
                    lines, i + 1, fence.group(1), False, group - 1, lead_in, units, output=True
                )
                continue
            i = _code_block(lines, i + 1, fence.group(1), info in _SQL, group, lead_in, units)
            group += 1
            continue  # i is past the closing fence: a line right after it is read too
        elif _DISPLAY.match(line.raw):
            first = i
            i += 1
            if line.raw.strip() == "$$":  # a display over several lines
                while i < len(lines) and not lines[i].raw.strip().endswith("$$"):
                    i += 1
                i += 1
            end = lines[min(i, len(lines)) - 1].end
            formula = plain_text(passage[line.start : end]).replace("\n", " ").strip()
            if formula:
                units.append(Unit(FORMULA, formula, line.start, end, group, lead_in))
            group += 1
            continue
        elif table_cells(line.raw) is not None:
            header = ""
            while i < len(lines) and table_cells(lines[i].raw) is not None:
                row = lines[i]
                if not _TABLE_RULE.match(row.raw):
                    text = plain_text(row.raw)
                    if not header:
                        header = text
                    units.append(Unit(ROW, text, row.start, row.end, group, _join(lead_in, header)))
                i += 1
            group += 1
            continue
        elif LIST_ITEM.match(line.raw):
            while i < len(lines) and LIST_ITEM.match(lines[i].raw):
                start, end = lines[i].start, lines[i].end
                i += 1
                # an item's continuation lines are indented or plain text before a blank;
                # a code block indented under it is read as code (its own units)
                while (
                    i < len(lines)
                    and lines[i].raw.strip()
                    and _continues(lines[i].raw)
                    and not _FENCE.match(lines[i].raw)
                ):
                    end = lines[i].end
                    i += 1
                text = plain_text(passage[start:end]).replace("\n", " ")
                units.append(Unit(ITEM, text, start, end, group, lead_in))
            group += 1
            if i < len(lines) and _FENCE.match(lines[i].raw) and lines[i].raw[:1] in " \t":
                lead_in = units[-1].text  # the step whose command is indented under it
            continue
        elif _HEADING.match(line.raw):
            units.append(Unit(HEADING, plain_text(line.raw), line.start, line.end))
            lead_in = ""
        else:
            first, end = line.start, line.end
            i += 1
            while i < len(lines) and _is_prose(lines[i].raw):
                end = lines[i].end
                i += 1
            lead_in = _prose(passage, first, end, units) or lead_in
            continue
        i += 1
    return units


def _prose(passage: str, start: int, end: int, units: list[Unit]) -> str:
    """Sentences of a paragraph as units, each in the context of the one before it (a
    sentence often answers what its predecessor set up: "そのため…", "This is why…"); in a
    Q/A pair the question is the context of every sentence of the answer. Returns the
    last sentence (a possible lead-in of what follows)."""
    previous = question = ""
    # a line broken inside a sentence (notes wrapped at 90 columns) is one line: the same
    # length, so each sentence's offsets still point into the passage
    paragraph = _SOFT_BREAK.sub(" ", passage[start:end])
    for span in split_sentences(paragraph):
        text = plain_text(span.text).replace("\n", " ")
        if not text:
            continue
        if FAQ_QUESTION.match(text):
            question = text
        context = question if question and text != question else previous
        units.append(Unit(SENTENCE, text, start + span.start, start + span.end, -1, context))
        previous = text
    return previous


def _is_prose(raw: str) -> bool:
    stripped = raw.strip()
    return bool(stripped) and not (
        _FENCE.match(raw)
        or _DISPLAY.match(raw)
        or table_cells(raw) is not None
        or LIST_ITEM.match(raw)
        or _HEADING.match(raw)
    )


def _continues(raw: str) -> bool:
    return raw.startswith((" ", "\t")) and not LIST_ITEM.match(raw)


def _code_block(
    lines: list[_Line],
    i: int,
    fence: str,
    sql: bool,
    group: int,
    lead_in: str,
    units: list[Unit],
    output: bool = False,
) -> int:
    """Statements of a fenced block as units; returns the index after the closing fence.

    A statement is a line with its continuation lines (more indented, closing a bracket,
    or following a line left open; in SQL, until its semicolon), at most
    ``_MAX_STATEMENT_LINES``: an SQL statement over several lines, a YAML key with its
    nested keys. A comment says what the
    statements under it do, up to the next comment or blank line: their context.
    """
    comment = ""
    while i < len(lines) and not lines[i].raw.strip().startswith(fence):
        code = lines[i].raw.strip()
        if not code:
            comment = ""
            i += 1
            continue
        if _COMMENT.match(code):
            comment = _COMMENT.sub("", code)
            i += 1
            continue
        start, end = lines[i].start, lines[i].end
        indent, previous = _indent(lines[i].raw), code
        i += 1
        taken = 1
        while (
            i < len(lines)
            and taken < _MAX_STATEMENT_LINES
            and _continues_code(lines[i].raw, indent, previous, fence, sql)
        ):
            end = lines[i].end
            previous = lines[i].raw.strip()
            taken += 1
            i += 1
        text = " ".join(part.strip() for part in lines_between(lines, start, end))
        units.append(Unit(CODE, text, start, end, group, _join(lead_in, comment), output))
    return i + 1


def comment_above(text: str, start: int) -> int:
    """Where the comment lines right above the code line at ``start`` begin (``start`` when
    there are none): the comment says what the statement does ("-- 貸出は1人5冊まで" above
    a check of ``count(*) < 5``), and the statement alone does not."""
    while start > 0:
        line_start = text.rfind("\n", 0, start - 1) + 1
        if not _COMMENT.match(text[line_start : start - 1].strip()):
            break
        start = line_start
    return start


def _only_blank_between(lines: list[_Line], start: int, end: int) -> bool:
    """Nothing but blank lines and the closing fence lies between ``start`` and ``end``."""
    between = [line.raw.strip() for line in lines if start < line.start and line.end < end]
    return all(not raw or _FENCE.match(raw) for raw in between)


def _continues_code(raw: str, indent: int, previous: str, fence: str, sql: bool) -> bool:
    code = raw.strip()
    if not code or code.startswith(fence) or _COMMENT.match(code):
        return False
    return (
        (sql and not previous.endswith(";"))
        or _indent(raw) > indent
        or code[0] in ")]}"
        or previous.endswith(("(", "[", "{", ",", "\\"))
    )


def lines_between(lines: list[_Line], start: int, end: int) -> list[str]:
    return [line.raw for line in lines if start <= line.start and line.end <= end]


def _indent(raw: str) -> int:
    return len(raw) - len(raw.lstrip())


def _join(*parts: str) -> str:
    return " / ".join(p for p in parts if p)


def group_units(units: list[Unit], unit: Unit) -> list[Unit]:
    """Every unit of ``unit``'s list, table, code block or formula, in order."""
    if unit.group < 0:
        return [unit]
    return [u for u in units if u.group == unit.group and u.kind == unit.kind]
