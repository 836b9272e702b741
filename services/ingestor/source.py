"""Source and configuration files (.py, .sql, .java, .yaml …) → ``Block``s, through Markdown.

Programming courses hand out code as it is: a lab's skeleton, the SQL of an exercise, the
configuration a tutorial walks through. A student asks about a function by its name ("what
does ``simpson()`` return?") or about the file ("which port does the lab's compose file
open?"). So the file is read as a document named by its file name: its leading comment
or docstring, which says what the file is for, becomes the prose that introduces the
code, and each top-level definition (``def``, ``class``, ``function``, ``CREATE TABLE`` …)
becomes a section headed by its first line, holding its code whole, with the comments and
decorators right above it. The chunker splits a long section at line boundaries and
repeats its heading, so every piece still says which function it belongs to.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from services.common.text import fenced
from services.ingestor.chunking import Block
from services.ingestor.formats import source_language
from services.ingestor.markdown import parse_markdown

# A top-level definition starts a section (matched at column 0, any case: SQL is written
# both ways).
_DEFINITION = re.compile(
    r"^(?:(?:export|public|private|protected|static|final|abstract|async|pub|default)\s+)*"
    r"(?:def|class|function|func|fn|fun|sub|struct|enum|interface|impl|trait|module|object"
    r"|CREATE\s+(?:OR\s+REPLACE\s+)?(?:UNIQUE\s+)?(?:TABLE|VIEW|MATERIALIZED\s+VIEW|INDEX"
    r"|FUNCTION|PROCEDURE|TRIGGER|TYPE|EXTENSION|SCHEMA))\b",
    re.I,
)
# What stays with the definition below it: comments and decorators with no blank line between.
_ATTACHED = re.compile(r"^\s*(?:#|//|--|/\*|\*|@)")
_LINE_COMMENT = re.compile(r"^\s*(?:#(?!!)|//|--|;)\s?")
_BANNER = re.compile(r"^[\s=\-*#/~_+]*$")  # a comment line of rules only: "# ======"
_DOCSTRING = re.compile(r'\A\s*(?:[rRuU]?)("""|\'\'\')(.*?)\1[ \t]*\n?', re.S)
_BLOCK_COMMENT = re.compile(r"\A\s*/\*+(.*?)\*/[ \t]*\n?", re.S)
_PREAMBLE = re.compile(r"\A(?:#!.*\n|#.*-\*-.*-\*-.*\n)+")  # shebang, coding line
_MAX_HEADING_CHARS = 80


def parse_source(text: str, filename: str) -> tuple[str, list[Block]]:
    name = PurePosixPath(filename.replace("\\", "/")).name
    language = source_language(filename) or ""
    header, code = _leading_comment(text.expandtabs(4))
    parts = [f"# {name}"]
    if header:
        parts.append(header)
    for heading, lines in _sections(code.split("\n")):
        body = "\n".join(lines).strip("\n")
        if not body.strip():
            continue
        if heading:
            parts.append(f"## {heading}")
        parts.append(fenced(body, language))
    _, blocks = parse_markdown("\n\n".join(parts))
    return name, blocks


def _leading_comment(text: str) -> tuple[str, str]:
    """(the file's opening docstring or comment as prose, the code after it)."""
    text = _PREAMBLE.sub("", text)
    for pattern in (_DOCSTRING, _BLOCK_COMMENT):
        if match := pattern.match(text):
            inside = match.group(match.lastindex or 0)
            lines = [re.sub(r"^\s*\*+ ?", "", line) for line in inside.split("\n")]
            return _prose(lines), text[match.end() :]
    lines = text.split("\n")
    count = 0
    while count < len(lines) and _LINE_COMMENT.match(lines[count]):
        count += 1
    if count == 0:
        return "", text
    return _prose([_LINE_COMMENT.sub("", line, count=1) for line in lines[:count]]), "\n".join(
        lines[count:]
    )


def _prose(lines: list[str]) -> str:
    """Comment text as paragraphs, its rule lines ("# =====") dropped: as Markdown, a rule
    under a line would make it a heading."""
    kept = ["" if _BANNER.match(line) else line.strip() for line in lines]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def _sections(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The code before the first definition, then one section per top-level definition,
    each with the comments and decorators right above it."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in lines:
        if _DEFINITION.match(line):
            current = sections[-1][1]
            attached: list[str] = []
            while current and current[-1].strip() and _ATTACHED.match(current[-1]):
                attached.insert(0, current.pop())
            sections.append((_heading(line), [*attached, line]))
        else:
            sections[-1][1].append(line)
    return sections


def _heading(line: str) -> str:
    heading = line.strip().rstrip(" {(:")
    if len(heading) > _MAX_HEADING_CHARS:
        heading = heading[:_MAX_HEADING_CHARS].rsplit(" ", 1)[0] + " …"
    return heading
