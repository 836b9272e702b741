"""Jupyter notebooks (.ipynb) → ``Block``s, through Markdown.

Programming and data-science courses hand out their labs as notebooks. A notebook is
JSON: Markdown cells are Markdown already; a code cell becomes a fenced block in the
kernel's language, followed by what it printed (stream text, a result's plain text, an
error's name and message) as a ``text`` block, so "what does this cell print?" finds
its answer next to its code. Pictures in outputs are skipped. A long output keeps its
first ``MAX_OUTPUT_CHARS`` characters: a training log of thousands of lines would bury
the cell it came from, and the original file stays in storage.
"""

from __future__ import annotations

import json
import re

from services.common.errors import InvalidInput
from services.common.text import fenced
from services.ingestor.chunking import Block
from services.ingestor.markdown import parse_markdown

MAX_OUTPUT_CHARS = 1500


def parse_notebook(text: str, filename: str) -> tuple[str | None, list[Block]]:
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{filename!r} is not a Jupyter notebook: {exc.msg}") from exc
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise InvalidInput(f"{filename!r} is not a Jupyter notebook: no list of cells")
    metadata = notebook.get("metadata") or {}
    language = (metadata.get("kernelspec") or {}).get("language") or (
        metadata.get("language_info") or {}
    ).get("name", "")
    parts: list[str] = []
    for cell in notebook["cells"]:
        if not isinstance(cell, dict):
            continue
        source = _trimmed(_text(cell.get("source")))
        if cell.get("cell_type") == "markdown" and source:
            parts.append(source)
        elif cell.get("cell_type") == "code" and source:
            parts.append(fenced(source, language))
            printed = _trimmed("\n".join(filter(None, map(_output, cell.get("outputs") or []))))
            if printed:
                parts.append(fenced(_bounded(printed), "text"))
    title, blocks = parse_markdown("\n\n".join(parts))
    return metadata.get("title") or title, blocks


def _output(output: dict) -> str:
    kind = output.get("output_type")
    if kind == "stream":
        return _text(output.get("text"))
    if kind in ("execute_result", "display_data"):
        return _text((output.get("data") or {}).get("text/plain"))
    if kind == "error":
        return f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
    return ""


def _text(value: object) -> str:
    """A notebook string: one string, or a list of lines (nbformat 4 allows both)."""
    if isinstance(value, list):
        return "".join(str(line) for line in value)
    return "" if value is None else str(value)


def _trimmed(text: str) -> str:
    """Without blank lines around it, its first line's indentation kept: a DataFrame's
    printed header is indented over its index column."""
    return re.sub(r"\A(?:[ \t]*\n)+", "", text).rstrip()


def _bounded(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    return text[:MAX_OUTPUT_CHARS].rsplit("\n", 1)[0] + "\n…"
