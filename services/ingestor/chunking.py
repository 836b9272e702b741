"""Turn parsed blocks into bounded Markdown chunks in meaning units.

Parsers emit ``Block``s (one paragraph, list, table or code block each, with
the heading path above it and its page). This module bounds their size by
characters, not words, because Japanese has no spaces: long prose is split at
sentence ends (。！？.!?), then hard-cut; small neighbours under the same
heading (and page) are packed together up to a target size.

A list, a table, a code block or a formula display is a structure: it stays in one
piece with the sentence that introduces it (the last sentence of the paragraph right
before it), because an answer that sits in a list item or a table cell means nothing
without that sentence. A structure too long for one chunk is split at item, row or
line boundaries, and every part repeats the introducing sentence (and a table's
header row, a code block's fence); the chunk's heading line repeats the heading.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from services.common.materials import Chunk
from services.common.text import LIST_ITEM, inside_parentheses

PROSE, LIST, TABLE, CODE, FORMULA = "prose", "list", "table", "code", "formula"


@dataclass(frozen=True)
class Block:
    """One meaning unit as parsed, before size bounds."""

    text: str
    heading_path: tuple[str, ...] = ()
    page: int | None = None
    intro: str = ""  # the sentence that introduces a structure (set by chunk_blocks)

    @property
    def kind(self) -> str:
        """What the text is, read from the text itself, whichever parser made it."""
        lines = [line for line in self.text.strip().split("\n") if line.strip()]
        if not lines:
            return PROSE
        if _FENCE_LINE.match(lines[0]):
            return CODE
        if lines[0].strip().startswith("$$"):
            return FORMULA
        if all(_TABLE_ROW.match(line) for line in lines):
            return TABLE
        if LIST_ITEM.match(lines[0]):
            return LIST
        return PROSE


@dataclass(frozen=True)
class ChunkLimits:
    """Sizes in characters (code points)."""

    target_chars: int = 700  # pack neighbours up to this size
    max_chars: int = 1000  # never exceed this, heading line included
    min_chars: int = 120  # a piece below this joins a neighbour under the same heading

    def __post_init__(self) -> None:
        if not 0 < self.min_chars <= self.target_chars <= self.max_chars:
            raise ValueError("need 0 < min_chars <= target_chars <= max_chars")


DEFAULT_LIMITS = ChunkLimits()

_FENCE_LINE = re.compile(r"^\s{0,3}(?:`{3,}|~{3,})")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
# A sentence ends at 。！？ (plus closing brackets), or at .!? followed by a space.
_SENTENCE_END = re.compile(r"(?<=[。！？!?])[」』）)]*|(?<=[.!?])[\"')\]]*(?=\s)")
# Where to cut a sentence that alone is too long: after a comma-like mark or a space.
_SOFT_BREAK = re.compile(r"[、，,;；:：]\s*|\s+")


def split_sentences(text: str) -> list[str]:
    """Sentences with their end marks and trailing spaces kept, so joining restores the text.
    A sentence end inside （parentheses）, bold or a code span ends none, but where the
    bold closes with it: "**P1。夜間は作業しない。** 2人で作業する。" cut inside left a
    stray ** on each side."""
    pieces, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        if inside_parentheses(text, match.start()):
            continue
        if _inside_span(text, match.start()):
            if not text.startswith("**", end):
                continue
            end += 2  # the bold closes with the sentence
        while end < len(text) and text[end] in " \t":
            end += 1
        if end > start:
            pieces.append(text[start:end])
            start = end
    if start < len(text):
        pieces.append(text[start:])
    return [p for p in pieces if p.strip()]


def _inside_span(text: str, at: int) -> bool:
    """Is position ``at`` inside **bold** or a `code span` opened earlier on its line?"""
    line = text[text.rfind("\n", 0, at) + 1 : at]
    without_code = re.sub(r"`[^`]*`", "", line)
    return without_code.count("`") % 2 == 1 or without_code.count("**") % 2 == 1


def hard_split(text: str, limit: int) -> list[str]:
    """Cut text into pieces of at most ``limit`` characters, preferring a soft break."""
    if limit < 1:
        raise ValueError(f"a piece must hold at least one character, not {limit}")
    pieces = []
    while len(text) > limit:
        window = text[:limit]
        cut = limit
        breaks = [m.end() for m in _SOFT_BREAK.finditer(window) if m.end() > limit // 2]
        if breaks:
            cut = breaks[-1]
        pieces.append(text[:cut])
        text = text[cut:]
    if text.strip():
        pieces.append(text)
    return pieces


def split_long(text: str, limit: int) -> list[str]:
    """Split one block into pieces of at most ``limit`` characters, at sentence ends first."""
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    current = ""
    for sentence in split_sentences(text):
        for part in hard_split(sentence, limit):
            if current and len(current) + len(part) > limit:
                pieces.append(current)
                current = ""
            current += part
    if current.strip():
        pieces.append(current)
    return [p.strip() for p in pieces if p.strip()]


def heading_line(path: Sequence[str]) -> str:
    """The Markdown heading a chunk starts with, so the chunk reads on its own."""
    if not path:
        return ""
    return f"{'#' * min(len(path), 6)} {path[-1]}\n\n"


def chunk_blocks(blocks: Iterable[Block], limits: ChunkLimits = DEFAULT_LIMITS) -> list[Chunk]:
    """Bounded chunks, in document order, numbered from 0."""
    groups: list[tuple[tuple[str, ...], int | None, list[str]]] = []
    for block in _with_intros(_merged_lists(b for b in blocks if b.text.strip())):
        budget = _body_budget(block.heading_path, limits)
        key = (block.heading_path, block.page)
        if not groups or groups[-1][:2] != key:
            groups.append((block.heading_path, block.page, []))
        if block.kind == PROSE:
            groups[-1][2].extend(split_long(block.text.strip(), budget))
        else:
            groups[-1][2].extend(split_structure(block, budget))

    chunks: list[Chunk] = []
    for path, page, pieces in groups:
        head = heading_line(path)
        for body in _pack(pieces, limits, _body_budget(path, limits)):
            text = head + body if len(head) + len(body) <= limits.max_chars else body
            chunks.append(Chunk(ordinal=len(chunks), text=text, page=page, heading_path=path))
    return chunks


def _body_budget(path: Sequence[str], limits: ChunkLimits) -> int:
    """Characters left for the body once the heading line is counted."""
    budget = limits.max_chars - len(heading_line(path))
    # An absurdly long heading is dropped from the chunk rather than starving the body.
    return budget if budget >= limits.min_chars else limits.max_chars


def _pack(pieces: list[str], limits: ChunkLimits, budget: int) -> list[str]:
    """Greedy packing up to the target; a small last piece joins its predecessor if it fits."""
    target = min(limits.target_chars, budget)
    packed: list[str] = []
    for piece in pieces:
        if packed and (
            len(packed[-1]) + 2 + len(piece) <= target
            or (len(piece) < limits.min_chars and len(packed[-1]) + 2 + len(piece) <= budget)
            or (len(packed[-1]) < limits.min_chars and len(packed[-1]) + 2 + len(piece) <= budget)
        ):
            packed[-1] = f"{packed[-1]}\n\n{piece}"
        else:
            packed.append(piece)
    return packed


def _merged_lists(blocks: Iterable[Block]) -> Iterator[Block]:
    """Consecutive list blocks under one heading are one list (HTML gives one per item), and
    a code block indented under an item is that item's (a runbook's step and its command)."""
    pending: Block | None = None
    for block in blocks:
        if (
            pending is not None
            and (block.kind == LIST or block.kind == CODE and block.text[:1] in " \t")
            and pending.kind == LIST
            and (block.heading_path, block.page) == (pending.heading_path, pending.page)
        ):
            pending = dataclasses.replace(pending, text=f"{pending.text}\n{block.text}")
            continue
        if pending is not None:
            yield pending
        pending = block
    if pending is not None:
        yield pending


def _with_intros(blocks: Iterable[Block]) -> list[Block]:
    """A structure takes the last sentence of the paragraph right before it (under the
    same heading and page) as its intro; the paragraph keeps the rest."""
    out: list[Block] = []
    for block in blocks:
        previous = out[-1] if out else None
        if (
            block.kind != PROSE
            and previous is not None
            and previous.kind == PROSE
            and (previous.heading_path, previous.page) == (block.heading_path, block.page)
        ):
            sentences = split_sentences(previous.text.strip())
            rest = "".join(sentences[:-1]).strip()
            if rest:
                out[-1] = dataclasses.replace(previous, text=rest)
            else:
                out.pop()
            block = dataclasses.replace(block, intro=sentences[-1].strip())
        out.append(block)
    return out


def split_structure(block: Block, limit: int) -> list[str]:
    """A structure with its intro, in as few parts as fit ``limit``, split only at item,
    row or line boundaries; every part repeats the intro (and a table's header rows, a
    code block's fences). A single item longer than the limit is hard-cut."""
    text = block.text.strip()
    whole = f"{block.intro}\n\n{text}" if block.intro else text
    if len(whole) <= limit:
        return [whole]
    lines = text.split("\n")
    head: list[str] = []
    tail: list[str] = []
    if block.kind == TABLE:
        rule = next((i for i, line in enumerate(lines) if _TABLE_RULE.match(line)), -1)
        head, lines = (lines[: rule + 1], lines[rule + 1 :]) if 0 < rule < 3 else ([], lines)
    elif block.kind == CODE and len(lines) > 2 and _FENCE_LINE.match(lines[-1]):
        head, lines, tail = lines[:1], lines[1:-1], lines[-1:]
    elif block.kind == FORMULA and lines[0].strip() == "$$" and lines[-1].strip() == "$$":
        head, lines, tail = lines[:1], lines[1:-1], lines[-1:]
    frame = "\n".join(([block.intro, ""] if block.intro else []) + head)
    room = limit - len(frame) - len("\n".join(tail)) - 2
    if room < limit // 4:  # an intro or header too long to repeat: parts go without it
        frame, room = "\n".join(head), limit - len("\n".join(head + tail)) - 2
    if room < limit // 4:  # a header or fence wider than a part (a padded table): said once
        frame, lines, tail = "", head + lines + tail, []
        room = limit - 2
    if block.kind == LIST:
        items = _items(lines)
    elif block.kind == CODE:
        items = _statements(lines, room)
    else:
        items = lines
    parts: list[list[str]] = [[]]
    # a blank line of code stays (hard_split gives nothing for it): it parts functions, but
    # does not open a part (a fence and then an empty line)
    for piece in (piece for item in items for piece in hard_split(item, room) or [""]):
        if parts[-1] and len("\n".join(parts[-1] + [piece])) > room:
            parts.append([])
        if not parts[-1]:
            piece = _LEADING_BLANK_LINES.sub("", piece)
        if parts[-1] or piece:
            parts[-1].append(piece)
    return ["\n".join(x for x in (frame, "\n".join(p), "\n".join(tail)) if x) for p in parts]


_LEADING_BLANK_LINES = re.compile(r"^(?:[ \t]*\n)+")


def _statements(lines: list[str], room: int) -> list[str]:
    """A listing's lines in the pieces it may be parted at: statements, each ending at a
    blank line or at an SQL statement's semicolon, so that a part does not open in the
    middle of a CREATE TABLE or a diagram."""
    pieces: list[list[str]] = [[]]
    for line in lines:
        if not line.strip() and pieces[-1] and pieces[-1][-1].strip():
            pieces.append([])  # a blank line starts the next statement, and stays in it
        pieces[-1].append(line)
        if line.rstrip().endswith(";"):
            pieces.append([])
    statements: list[str] = []
    for piece in (p for p in pieces if p):
        text = "\n".join(piece)
        statements += [text] if len(text) <= room else _continued(piece, room)
    return statements


def _continued(statement: list[str], room: int) -> list[str]:
    """A statement longer than a part, in parts each of which repeats its opening line
    ("CREATE TABLE core.booking (") as a table's parts repeat its header: the columns after
    the cut still say which table they are."""
    opening = next((line for line in statement if line.strip()), "")
    if len(opening) > room // 2:
        return statement  # too wide to repeat: line by line
    parts: list[list[str]] = [[]]
    for line in statement:
        if parts[-1] and len("\n".join([*parts[-1], line])) > room:
            parts.append([opening])
        parts[-1].append(line)
    return ["\n".join(part) for part in parts]


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _items(lines: list[str]) -> list[str]:
    """List items with their continuation lines (and the code under them: a line of it
    that looks like an item, a YAML list's "- name", is the code's)."""
    items: list[str] = []
    fenced = False
    for line in lines:
        if (LIST_ITEM.match(line) and not fenced) or not items:
            items.append(line)
        else:
            items[-1] += "\n" + line
        if _FENCE_LINE.match(line.lstrip()):
            fenced = not fenced
    return items
