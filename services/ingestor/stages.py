"""Ingestion stage logic, pure: an original file's bytes → bounded Markdown chunks.

The Kafka shell (``app.py``) fetches the bytes named by an IngestJob, calls
``parse_material``, embeds the chunks and stores them. Everything here raises
``InvalidInput`` for a file the user must fix and ``EngineError`` when reading
it needs an engine that is not available; it never returns an empty result.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from typing import Protocol

from services.common.errors import EngineError, InvalidInput
from services.common.events import IngestJob
from services.common.ids import sha256_hex
from services.common.materials import Chunk
from services.ingestor.captions import parse_captions
from services.ingestor.chunking import DEFAULT_LIMITS, Block, ChunkLimits, chunk_blocks
from services.ingestor.formats import Format, detect_format, file_path
from services.ingestor.latex import parse_latex
from services.ingestor.markdown import parse_markdown
from services.ingestor.notebook import parse_notebook
from services.ingestor.office import parse_docx, parse_pptx, parse_xlsx
from services.ingestor.opendocument import parse_odp, parse_ods, parse_odt
from services.ingestor.parsing import decode_text
from services.ingestor.pdf import parse_pdf
from services.ingestor.plaintext import parse_plain_text
from services.ingestor.qa import parse_csv, parse_qa_jsonl
from services.ingestor.rst import parse_rst
from services.ingestor.source import parse_source
from services.ingestor.webpage import parse_html

logger = logging.getLogger(__name__)

DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024


class VisionReader(Protocol):
    """Reads a file that has no text layer (scanned PDF, image) into chunks."""

    def read(self, data: bytes, mime_type: str, filename: str) -> list[Chunk]: ...


@dataclass(frozen=True)
class ParsedMaterial:
    title: str
    format: Format
    mime_type: str
    chunks: tuple[Chunk, ...]
    page_count: int | None = None
    read_by_vision: bool = False


# Office documents read into blocks with pages (a slide's number): Word, PowerPoint and
# their OpenDocument twins.
_DOCUMENT_READERS = {
    Format.DOCX: parse_docx,
    Format.PPTX: parse_pptx,
    Format.ODT: parse_odt,
    Format.ODP: parse_odp,
}


def parse_material(
    data: bytes,
    filename: str,
    mime_type: str = "",
    *,
    vision: VisionReader | None = None,
    limits: ChunkLimits = DEFAULT_LIMITS,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> ParsedMaterial:
    """Chunks of one original file, or InvalidInput / EngineError with a readable reason."""
    check_size(data, filename, max_file_bytes)
    fmt, canonical_mime = detect_format(data, filename, mime_type)
    fallback_title = file_path(filename).stem or filename
    title: str | None = None
    page_count: int | None = None
    by_vision = False

    if fmt is Format.PDF:
        pdf = parse_pdf(data, filename)
        page_count = pdf.page_count
        if pdf.has_text_layer:
            title, chunks = pdf.title, chunk_blocks(pdf.blocks, limits)
        else:
            chunks = _read_by_vision(vision, data, canonical_mime, filename, limits)
            title, by_vision = pdf.title, True
    elif fmt is Format.IMAGE:
        chunks = _read_by_vision(vision, data, canonical_mime, filename, limits)
        by_vision = True
    elif fmt in _DOCUMENT_READERS:
        title, blocks = _DOCUMENT_READERS[fmt](data, filename)
        chunks = chunk_blocks(blocks, limits)
        page_count = max((b.page or 0 for b in blocks), default=0) or None
    elif fmt is Format.NOTEBOOK:
        title, blocks = parse_notebook(decode_text(data, filename), filename)
        chunks = chunk_blocks(blocks, limits)
    elif fmt in (Format.XLSX, Format.ODS):
        title, chunks = (parse_xlsx if fmt is Format.XLSX else parse_ods)(data, filename, limits)
    elif fmt is Format.CSV:
        # a table that is not Q/A rows is named by its file, as a heading would name it
        chunks = parse_csv(decode_text(data, filename), filename, limits, (fallback_title,))
    elif fmt is Format.QA_JSONL:
        chunks = parse_qa_jsonl(decode_text(data, filename), filename, limits)
    elif fmt is Format.CODE:
        title, blocks = parse_source(decode_text(data, filename), filename)
        chunks = chunk_blocks(blocks, limits)
    else:
        parser = {
            Format.MARKDOWN: parse_markdown,
            Format.HTML: parse_html,
            Format.TEXT: parse_plain_text,
            Format.LATEX: parse_latex,
            Format.RST: parse_rst,
            Format.CAPTIONS: parse_captions,
        }[fmt]
        title, blocks = parser(decode_text(data, filename))
        chunks = chunk_blocks(blocks, limits)

    if not chunks:
        raise InvalidInput(f"{filename!r} contains no text to index")
    logger.info(
        "parsed material",
        extra={
            "material": filename,
            "format": fmt.value,
            "chunks": len(chunks),
            "vision": by_vision,
        },
    )
    return ParsedMaterial(
        title=title or fallback_title,
        format=fmt,
        mime_type=canonical_mime,
        chunks=tuple(chunks),
        page_count=page_count,
        read_by_vision=by_vision,
    )


def parse_job(
    job: IngestJob,
    data: bytes,
    *,
    vision: VisionReader | None,
    limits: ChunkLimits = DEFAULT_LIMITS,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> ParsedMaterial:
    """``parse_material`` for the bytes an IngestJob names, checked against the job's hash."""
    if job.sha256 and sha256_hex(data) != job.sha256:
        raise InvalidInput(
            f"{job.blob_uri} does not hold the bytes job {job.job_id} was submitted with"
            " (sha256 differs)"
        )
    parsed = parse_material(
        data,
        job.filename,
        job.mime_type,
        vision=vision,
        limits=limits,
        max_file_bytes=max_file_bytes,
    )
    if job.title.strip():
        parsed = dataclasses.replace(parsed, title=job.title.strip())
    return parsed


def check_size(data: bytes, filename: str, max_file_bytes: int) -> None:
    if not data or not data.strip():
        raise InvalidInput(f"{filename!r} is empty")
    if len(data) > max_file_bytes:
        raise InvalidInput(
            f"{filename!r} is {_mib(len(data))}, over the {_mib(max_file_bytes)} limit"
        )


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB"


def _read_by_vision(
    vision: VisionReader | None, data: bytes, mime_type: str, filename: str, limits: ChunkLimits
) -> list[Chunk]:
    what = "an image" if mime_type.startswith("image/") else "a PDF without a text layer"
    if vision is None:
        raise EngineError(f"{filename!r} is {what}: reading it needs Gemini (set GEMINI_API_KEY)")
    try:
        read = vision.read(data, mime_type, filename)
    except EngineError as exc:
        raise EngineError(f"{filename!r} is {what}: {exc}") from exc
    # The model's units are re-bounded like any parser's blocks.
    return chunk_blocks((Block(_body(c), c.heading_path, c.page) for c in read), limits)


def _body(chunk: Chunk) -> str:
    """The chunk text without a leading heading line that repeats its own heading."""
    first, _, rest = chunk.text.strip().partition("\n")
    own_heading = bool(chunk.heading_path) and first.startswith("#")
    if own_heading and first.lstrip("#").strip() == chunk.heading_path[-1]:
        return rest.strip()
    return chunk.text
