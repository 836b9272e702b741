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

from services.common.text import fenced
from services.ingestor.chunking import Block
from services.ingestor.formats import file_path, source_language
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
# A JavaScript or TypeScript function is as often a constant: export const f = async (x) =>
_ARROW = (
    r"^(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*(?::[^=]+)?=\s*(?:async\s+)?"
    r"(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)"
)
_SCRIPT = re.compile(f"{_DEFINITION.pattern}|{_ARROW}", re.I)
# Where a section starts in the languages that define things otherwise: a shell function, a
# Makefile target, a Dockerfile stage, an INI or TOML table, a YAML top-level mapping.
_SECTION_STARTS = {
    "javascript": _SCRIPT,
    "typescript": _SCRIPT,
    "bash": re.compile(r"^(?:function\s+)?[A-Za-z_][\w-]*\s*\(\)\s*\{?\s*$|^function\s+\w"),
    "makefile": re.compile(r"^[\w./%-]+(?:\s+[\w./%-]+)*\s*:(?!=)"),
    "dockerfile": re.compile(r"^FROM\s", re.I),
    "ini": re.compile(r"^\[[^\]]+\]\s*$"),
    "toml": re.compile(r"^\[\[?[^\]]+\]\]?\s*$"),
    "conf": re.compile(r"^\[[^\]]+\]\s*$"),
    "yaml": re.compile(r"^[A-Za-z_\"'][^:#]*:\s*(?:#.*)?$"),  # a key that opens a mapping
}
# A YAML section longer than this is split at its own keys ("services" at each service).
_YAML_SPLIT_CHARS = 600
# What stays with the definition below it: comments and decorators with no blank line between.
_ATTACHED = re.compile(r"^\s*(?:#|//|--|/\*|\*|@)")
_LINE_COMMENT = re.compile(r"^\s*(?:#(?!!)|//|--|;)\s?")
_BANNER = re.compile(r"^[\s=\-*#/~_+]*$")  # a comment line of rules only: "# ======"
_DOCSTRING = re.compile(r'\A\s*(?:[rRuU]?)("""|\'\'\')(.*?)\1[ \t]*\n?', re.S)
_BLOCK_COMMENT = re.compile(r"\A\s*/\*+(.*?)\*/[ \t]*\n?", re.S)
_PREAMBLE = re.compile(r"\A(?:#!.*\n|#.*-\*-.*-\*-.*\n)+")  # shebang, coding line
_MAX_HEADING_CHARS = 80


def parse_source(text: str, filename: str) -> tuple[str, list[Block]]:
    name = file_path(filename).name
    language = source_language(filename) or ""
    header, code = _leading_comment(text)
    # The file's name with the first line of its own description heads every section, as a
    # Markdown file's title does: "schema.sql: 図書貸出のスキーマ" names what CREATE TABLE
    # loans belongs to.
    summary = _shortened(header.split("\n", 1)[0].strip())
    parts = [f"# {name}: {summary}" if summary else f"# {name}"]
    if header:
        parts.append(header)
    starts = _SECTION_STARTS.get(language, _DEFINITION)
    for heading, lines in _sections(code.split("\n"), starts):
        body = "\n".join(lines).strip("\n")
        if not body.strip():
            continue
        if heading:
            parts.append(f"## {heading}")
        if language == "yaml" and heading and len(body) > _YAML_SPLIT_CHARS:
            parts += _yaml_children(lines)
        else:
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


def _yaml_children(lines: list[str]) -> list[str]:
    """A long YAML section as its key line, then a subsection per key one level in."""
    keyed = [i for i, line in enumerate(lines) if line.strip()]
    children = [i for i in keyed[1:] if re.match(r"^( +)[A-Za-z_\"'][^:#]*:(?:\s|$)", lines[i])]
    indent = min((len(lines[i]) - len(lines[i].lstrip()) for i in children), default=0)
    cuts = [i for i in children if len(lines[i]) - len(lines[i].lstrip()) == indent]
    if not cuts:
        return [fenced("\n".join(lines).strip("\n"), "yaml")]
    parts = [fenced("\n".join(lines[: cuts[0]]).strip("\n"), "yaml")]
    for start, end in zip(cuts, [*cuts[1:], len(lines)], strict=True):
        key = lines[start].strip().split(":")[0].strip("\"' ")
        parts += [f"### {key}", fenced("\n".join(lines[start:end]).strip("\n"), "yaml")]
    return parts


def _sections(lines: list[str], starts: re.Pattern) -> list[tuple[str, list[str]]]:
    """The code before the first definition, then one section per top-level definition,
    each with the comments and decorators right above it."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in lines:
        if starts.match(line):
            current = sections[-1][1]
            attached: list[str] = []
            while current and current[-1].strip() and _ATTACHED.match(current[-1]):
                attached.insert(0, current.pop())
            sections.append((_heading(line), [*attached, line]))
        else:
            sections[-1][1].append(line)
    return sections


def _heading(line: str) -> str:
    return _shortened(line.strip().rstrip(" {(:"))


def _shortened(text: str) -> str:
    """At most ``_MAX_HEADING_CHARS``, cut at a space: a heading, not a line of code."""
    if len(text) <= _MAX_HEADING_CHARS:
        return text
    return text[:_MAX_HEADING_CHARS].rsplit(" ", 1)[0] + " …"
