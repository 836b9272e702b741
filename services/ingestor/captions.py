"""Caption files of recorded lectures (WebVTT .vtt, SubRip .srt) → ``Block``s.

A recorded lecture's captions hold what the teacher said and nothing else does. A cue is
a line or two of speech with its time; read as text, the cues of each minute make one
paragraph that starts with the time it was said ("[12:30] …"), so a quoted answer tells
the student where to look in the video. Cue numbers, styling tags, speaker tags and the
lines a rolling auto-caption repeats are left out.
"""

from __future__ import annotations

import re

from services.ingestor.chunking import Block
from services.ingestor.parsing import join_cjk_lines

PARAGRAPH_SECONDS = 60

_TIMING = re.compile(
    r"^(?:(\d+):)?(\d{1,2}):(\d{2})[.,]\d{1,3}\s+-->\s+(?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3}"
)
_TAG = re.compile(r"<[^>]*>|\{\\[^}]*\}")  # <v Ana>, <i>, <00:01.200>; SubRip's {\an8}
_HEADER_BLOCKS = ("WEBVTT", "NOTE", "STYLE", "REGION")


def parse_captions(text: str) -> tuple[str | None, list[Block]]:
    title = _vtt_title(text)
    heading = (title,) if title else ()
    paragraphs: list[tuple[int, list[str]]] = []
    for start, lines in _cues(text):
        if not paragraphs or start - paragraphs[-1][0] >= PARAGRAPH_SECONDS:
            paragraphs.append((start, []))
        said = paragraphs[-1][1]
        for line in lines:
            if not said or line != said[-1]:  # a rolling caption shows each line twice
                said.append(line)
    blocks = [
        Block(f"[{_clock(start)}] {_joined(said)}", heading) for start, said in paragraphs if said
    ]
    return title, blocks


def _joined(lines: list[str]) -> str:
    """Caption lines as running text: Japanese lines join without a space."""
    return join_cjk_lines("\n".join(lines)).replace("\n", " ")


def _cues(text: str) -> list[tuple[int, list[str]]]:
    """(start second, text lines) of each cue, in file order."""
    cues: list[tuple[int, list[str]]] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.strip().split("\n")
        timing = next((i for i, line in enumerate(lines) if _TIMING.match(line.strip())), None)
        if timing is None or lines[0].startswith(_HEADER_BLOCKS):
            continue
        hours, minutes, seconds = _TIMING.match(lines[timing].strip()).groups()
        start = int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)
        spoken = [_TAG.sub("", line).strip() for line in lines[timing + 1 :]]
        cues.append((start, [line for line in spoken if line]))
    return cues


def _vtt_title(text: str) -> str | None:
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    match = re.match(r"WEBVTT[ \t]+-?[ \t]*(.+)", first)
    return match.group(1).strip() if match else None


def _clock(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
