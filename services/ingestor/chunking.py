"""Turn parsed blocks into bounded Markdown chunks in meaning units.

Parsers emit ``Block``s (one paragraph, list, table or code block each, with
the heading path above it and its page). This module bounds their size by
characters, not words, because Japanese has no spaces: long blocks are split at
sentence ends (。！？.!?), then hard-cut; small neighbours under the same
heading (and page) are packed together up to a target size.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from services.common.materials import Chunk


@dataclass(frozen=True)
class Block:
    """One meaning unit as parsed, before size bounds."""

    text: str
    heading_path: tuple[str, ...] = ()
    page: int | None = None


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

# A sentence ends at 。！？ (plus closing brackets), or at .!? followed by a space.
_SENTENCE_END = re.compile(r"(?<=[。！？!?])[」』）)]*|(?<=[.!?])[\"')\]]*(?=\s)")
# Where to cut a sentence that alone is too long: after a comma-like mark or a space.
_SOFT_BREAK = re.compile(r"[、，,;；:：]\s*|\s+")


def split_sentences(text: str) -> list[str]:
    """Sentences with their end marks and trailing spaces kept, so joining restores the text."""
    pieces, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        while end < len(text) and text[end] in " \t":
            end += 1
        if end > start:
            pieces.append(text[start:end])
            start = end
    if start < len(text):
        pieces.append(text[start:])
    return [p for p in pieces if p.strip()]


def hard_split(text: str, limit: int) -> list[str]:
    """Cut text into pieces of at most ``limit`` characters, preferring a soft break."""
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
    for block in blocks:
        text = block.text.strip()
        if not text:
            continue
        budget = _body_budget(block.heading_path, limits)
        key = (block.heading_path, block.page)
        if not groups or groups[-1][:2] != key:
            groups.append((block.heading_path, block.page, []))
        groups[-1][2].extend(split_long(text, budget))

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
