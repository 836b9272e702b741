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
# A banner that divides a file into parts, at column 0: a title between two rule lines
# ("-- -----" / "-- 研究室と利用者" / "-- -----") or inside one ("# ==== Helpers ====").
_RULE_COMMENT = re.compile(r"^(?:--|#|//)\s*[=\-*#~_]{3,}\s*$")
_TITLE_COMMENT = re.compile(r"^(?:--|#|//)\s*(?![=\-*#~_])(\S.*?)\s*$")
_RULED_TITLE = re.compile(r"^(?:--|#|//)\s*[=\-*#~]{3,}\s*([^=\-*#~\s].*?)\s*[=\-*#~]{3,}\s*$")
_MAX_BANNER_LINES = 3
_TRAILING_COMMENT = re.compile(r"\s+(?:--|#|//)\s.*$")
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
    for level, heading, lines in _sections(code.split("\n"), starts):
        body = "\n".join(lines).strip("\n")
        if heading:
            parts.append(f"{'#' * level} {heading}")
        if not body.strip():
            continue
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


def _sections(lines: list[str], starts: re.Pattern) -> list[tuple[int, str, list[str]]]:
    """As (heading level, heading, lines): the code before the first definition, then one
    section per top-level definition, each with the comments and decorators right above
    it. A banner ("-- 研究室と利用者" between rule lines) heads a section of its own, one
    level above the definitions under it, so each of them is read as part of it."""
    sections: list[tuple[int, str, list[str]]] = [(2, "", [])]
    level = 2
    i = 0
    while i < len(lines):
        if banner := _banner(lines, i):
            title, i = banner
            sections.append((2, _shortened(title), []))
            level = 3
            continue
        line = lines[i]
        if starts.match(line):
            current = sections[-1][2]
            attached: list[str] = []
            while current and current[-1].strip() and _ATTACHED.match(current[-1]):
                attached.insert(0, current.pop())
            sections.append((level, _heading(line), [*attached, line]))
        else:
            sections[-1][2].append(line)
        i += 1
    return sections


def _banner(lines: list[str], i: int) -> tuple[str, int] | None:
    """The title of a banner starting at line ``i`` and the line after it, or None."""
    if ruled := _RULED_TITLE.match(lines[i]):
        return ruled[1], i + 1
    if not _RULE_COMMENT.match(lines[i]):
        return None
    titles: list[str] = []
    for j in range(i + 1, min(i + 2 + _MAX_BANNER_LINES, len(lines))):
        if _RULE_COMMENT.match(lines[j]):
            return (" ".join(titles), j + 1) if titles else None
        if not (title := _TITLE_COMMENT.match(lines[j])):
            return None
        titles.append(title[1])
    return None


def _heading(line: str) -> str:
    """The definition's first line, without the comment at its end."""
    return _shortened(_TRAILING_COMMENT.sub("", line).strip().rstrip(" {(:"))


def _shortened(text: str) -> str:
    """At most ``_MAX_HEADING_CHARS``, cut at a space: a heading, not a line of code."""
    if len(text) <= _MAX_HEADING_CHARS:
        return text
    return text[:_MAX_HEADING_CHARS].rsplit(" ", 1)[0] + " …"
