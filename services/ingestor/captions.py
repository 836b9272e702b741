"""Caption files of recorded lectures (WebVTT .vtt, SubRip .srt) → ``Block``s.

A recorded lecture's captions hold what the teacher said and nothing else does. A cue is
a line or two of speech with its time; read as text, the cues of each minute make one
paragraph that starts with the time it was said ("[12:30] …"), so a quoted answer tells
the student where to look in the video. A new speaker (WebVTT's ``<v 山田>``, a SubRip
line that opens with "AUDIENCE:" or "[Prof. Lind]") starts a paragraph of their own,
named: a student's question does not run on into the teacher's answer. Cue numbers,
styling tags, notes for the captions' editors and the lines a rolling auto-caption
repeats are left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from services.ingestor.chunking import Block
from services.ingestor.parsing import run_on

PARAGRAPH_SECONDS = 60

_TIMING = re.compile(
    r"^(?:(\d+):)?(\d{1,2}):(\d{2})[.,]\d{1,3}\s+-->\s+(?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3}"
)
_VOICE = re.compile(r"^<v(?:\.[\w.-]+)?\s+([^>]+)>")  # WebVTT: <v 山田>, <v.loud Ana>
# A SubRip line that names who speaks: "AUDIENCE: …", "[Prof. Lind] …" (tags removed).
_NAMED = re.compile(r"^(?:\[([^\]]{1,40})\]\s*|([A-Z][A-Z .'-]{1,30}):\s+)")
_TAG = re.compile(r"<[^>]*>|\{\\[^}]*\}")  # <i>, <00:01.200>, </v>; SubRip's {\an8}
_HEADER_BLOCKS = ("WEBVTT", "NOTE", "STYLE", "REGION")


@dataclass
class _Paragraph:
    start: int
    speaker: str
    said: list[str] = field(default_factory=list)


def parse_captions(text: str) -> tuple[str | None, list[Block]]:
    title = _vtt_title(text)
    heading = (title,) if title else ()
    paragraphs: list[_Paragraph] = []
    speaker = ""
    for start, lines in _cues(text):
        for line in lines:
            named, line = _speaker(line)
            opens = not paragraphs or start - paragraphs[-1].start >= PARAGRAPH_SECONDS
            if named and named != speaker:
                speaker, opens = named, True
            if opens:
                paragraphs.append(_Paragraph(start, speaker if named or not paragraphs else ""))
            said = paragraphs[-1].said
            if line and (not said or line != said[-1]):  # a rolling caption repeats lines
                said.append(line)
    blocks = [Block(_text(p), heading) for p in paragraphs if p.said]
    return title, blocks


def _speaker(line: str) -> tuple[str, str]:
    """(who speaks, if the line names them; the line without the name)."""
    if voice := _VOICE.match(line):
        return voice.group(1).strip(), _TAG.sub("", line[voice.end() :]).strip()
    line = _TAG.sub("", line).strip()
    if named := _NAMED.match(line):
        return (named.group(1) or named.group(2)).strip(), line[named.end() :].strip()
    return "", line


def _text(paragraph: _Paragraph) -> str:
    """ "[m:ss] Speaker: what was said", the caption lines as running text (Japanese lines
    join without a space)."""
    said = run_on("\n".join(paragraph.said))
    who = f"{paragraph.speaker}: " if paragraph.speaker else ""
    return f"[{_clock(paragraph.start)}] {who}{said}"


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
        cues.append((start, [line.strip() for line in lines[timing + 1 :] if line.strip()]))
    return cues


def _vtt_title(text: str) -> str | None:
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    match = re.match(r"WEBVTT[ \t]+-?[ \t]*(.+)", first)
    return match.group(1).strip() if match else None


def _clock(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
