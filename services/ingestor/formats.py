"""Which kind of file a material is: magic bytes first, then extension, then mime type.

Magic bytes win because browsers and CLIs often send ``application/octet-stream``
or a wrong extension; text formats have no magic, so for them the extension
(and then the declared mime type) decides.
"""

from __future__ import annotations

import codecs
import io
import zipfile
from enum import StrEnum
from pathlib import PurePosixPath

from services.common.errors import InvalidInput


class Format(StrEnum):
    MARKDOWN = "markdown"
    TEXT = "text"
    HTML = "html"
    PDF = "pdf"
    CSV = "csv"
    QA_JSONL = "qa-jsonl"
    IMAGE = "image"
    DOCX = "docx"
    PPTX = "pptx"
    XLSX = "xlsx"
    ODT = "odt"  # OpenDocument (LibreOffice): text, slides, spreadsheets
    ODP = "odp"
    ODS = "ods"
    NOTEBOOK = "ipynb"
    LATEX = "tex"
    CODE = "code"  # source and configuration files (source.py)
    CAPTIONS = "captions"  # a recorded lecture's WebVTT or SubRip captions
    RST = "rst"  # reStructuredText (Sphinx sources)


MIME_TYPES = {
    Format.MARKDOWN: "text/markdown",
    Format.TEXT: "text/plain",
    Format.HTML: "text/html",
    Format.PDF: "application/pdf",
    Format.CSV: "text/csv",
    Format.QA_JSONL: "application/jsonl",
    Format.DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    Format.PPTX: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    Format.XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    Format.ODT: "application/vnd.oasis.opendocument.text",
    Format.ODP: "application/vnd.oasis.opendocument.presentation",
    Format.ODS: "application/vnd.oasis.opendocument.spreadsheet",
    Format.NOTEBOOK: "application/x-ipynb+json",
    Format.LATEX: "application/x-tex",
    Format.CODE: "text/plain",
    Format.CAPTIONS: "text/vtt",
    Format.RST: "text/x-rst",
}

_IMAGE_MAGIC = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"GIF87a": "image/gif",
    b"GIF89a": "image/gif",
}

# Source and configuration files (source.py), with the language their code is fenced as.
SOURCE_LANGUAGES = {
    ".py": "python", ".sql": "sql", ".c": "c", ".h": "c", ".cpp": "cpp", ".cc": "cpp",
    ".hpp": "cpp", ".java": "java", ".js": "javascript", ".mjs": "javascript",
    ".ts": "typescript", ".go": "go", ".rs": "rust", ".rb": "ruby", ".kt": "kotlin",
    ".scala": "scala", ".cs": "csharp", ".swift": "swift", ".hs": "haskell", ".ml": "ocaml",
    ".jl": "julia", ".r": "r", ".sh": "bash", ".bash": "bash", ".ps1": "powershell",
    ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".json": "json", ".ini": "ini",
    ".cfg": "ini", ".conf": "conf", ".properties": "properties", ".xml": "xml",
}  # fmt: skip
# Files known by their whole name, having no extension.
SOURCE_NAMES = {"dockerfile": "dockerfile", "makefile": "makefile"}


def file_path(filename: str) -> PurePosixPath:
    """An uploaded file's name as a path, whichever separator its system wrote."""
    return PurePosixPath(filename.replace("\\", "/"))


def source_language(filename: str) -> str | None:
    """The fence language of a source or configuration file, or None for other files."""
    path = file_path(filename)
    return SOURCE_LANGUAGES.get(path.suffix.lower()) or SOURCE_NAMES.get(path.name.lower())


_EXTENSIONS = {
    ".md": Format.MARKDOWN,
    ".markdown": Format.MARKDOWN,
    ".txt": Format.TEXT,
    ".text": Format.TEXT,
    ".html": Format.HTML,
    ".htm": Format.HTML,
    ".pdf": Format.PDF,
    ".csv": Format.CSV,
    ".jsonl": Format.QA_JSONL,
    ".ndjson": Format.QA_JSONL,
    ".docx": Format.DOCX,
    ".pptx": Format.PPTX,
    ".xlsx": Format.XLSX,
    ".odt": Format.ODT,
    ".odp": Format.ODP,
    ".ods": Format.ODS,
    ".ipynb": Format.NOTEBOOK,
    ".tex": Format.LATEX,
    ".ltx": Format.LATEX,
    ".vtt": Format.CAPTIONS,
    ".srt": Format.CAPTIONS,
    ".rst": Format.RST,
    **{suffix: Format.CODE for suffix in SOURCE_LANGUAGES},
}

_NAMES = {name: Format.CODE for name in SOURCE_NAMES}
_IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp"})


def is_material_file(filename: str) -> bool:
    """Whether a file of this name is one to upload (the CLI picks them out of a folder)."""
    path = file_path(filename)
    suffix = path.suffix.lower()
    return suffix in _EXTENSIONS or suffix in _IMAGE_SUFFIXES or path.name.lower() in _NAMES


_MIMES = {
    "text/markdown": Format.MARKDOWN,
    "text/x-markdown": Format.MARKDOWN,
    "text/plain": Format.TEXT,
    "text/html": Format.HTML,
    "application/xhtml+xml": Format.HTML,
    "application/pdf": Format.PDF,
    "text/csv": Format.CSV,
    "application/jsonl": Format.QA_JSONL,
    "application/x-ndjson": Format.QA_JSONL,
    "application/x-ipynb+json": Format.NOTEBOOK,
    "application/x-tex": Format.LATEX,
    "text/x-tex": Format.LATEX,
    "text/vtt": Format.CAPTIONS,
    "text/x-rst": Format.RST,
}

_ZIP = b"PK\x03\x04"
# An Office Open XML file is a ZIP whose main part names what it is, whatever the filename.
_OFFICE_PARTS = {
    "word/document.xml": Format.DOCX,
    "ppt/presentation.xml": Format.PPTX,
    "xl/workbook.xml": Format.XLSX,
}
# Any other ZIP is a container people upload by mistake; the refusal says what to do.
_OTHER_ZIP = "a ZIP archive; upload the files inside it one by one"
# OpenDocument says what it is in a first entry named "mimetype", as EPUB does.
_OPEN_DOCUMENTS = {
    b"application/vnd.oasis.opendocument.text": Format.ODT,
    b"application/vnd.oasis.opendocument.presentation": Format.ODP,
    b"application/vnd.oasis.opendocument.spreadsheet": Format.ODS,
}
_ZIP_DOCUMENTS = {
    b"application/vnd.oasis.opendocument": "an OpenDocument file of a kind other than text,"
    " slides or a spreadsheet (a drawing, a formula); export it to PDF",
    b"application/epub+zip": "an EPUB book; export it to PDF",
}
_LEGACY_OFFICE = (
    b"\xd0\xcf\x11\xe0",
    "a legacy Office document (.doc, .ppt, .xls); save it as .docx or .pptx, or export it to PDF",
)

SUPPORTED = (
    "Markdown, plain text, HTML, PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx),"
    " OpenDocument (.odt, .odp, .ods),"
    " Jupyter notebooks (.ipynb), LaTeX (.tex), reStructuredText (.rst), source and"
    " configuration files (.py, .sql, .java, .yaml …), lecture captions (.vtt, .srt),"
    " PNG/JPEG/GIF/WebP images, CSV, Q/A JSONL; other UTF-8 text as plain text"
)


def image_mime(data: bytes) -> str | None:
    for magic, mime in _IMAGE_MAGIC.items():
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def detect_format(data: bytes, filename: str, mime_type: str = "") -> tuple[Format, str]:
    """The format and the canonical mime type to store, or InvalidInput saying why not."""
    if b"%PDF-" in data[:1024]:  # the PDF spec allows junk before the header
        return Format.PDF, MIME_TYPES[Format.PDF]
    if (image := image_mime(data)) is not None:
        return Format.IMAGE, image
    if data.startswith(_ZIP):
        fmt = _office_format(data, filename)
        return fmt, MIME_TYPES[fmt]
    if data.startswith(_LEGACY_OFFICE[0]):
        raise InvalidInput(f"{filename!r} is {_LEGACY_OFFICE[1]}; supported: {SUPPORTED}")

    path = file_path(filename)
    suffix = path.suffix.lower()
    declared = mime_type.split(";")[0].strip().lower()
    fmt = _EXTENSIONS.get(suffix) or _NAMES.get(path.name.lower()) or _MIMES.get(declared)
    if fmt is None and _reads_as_text(data):
        fmt = Format.TEXT  # a README, an .org or .adoc file: plain text is the closest reading
    if fmt is None:
        kind = f"extension {suffix!r}" if suffix else "no extension"
        raise InvalidInput(
            f"unsupported file type for {filename!r} ({kind}, mime {declared or 'unknown'});"
            f" supported: {SUPPORTED}"
        )
    if fmt is Format.PDF:
        raise InvalidInput(f"{filename!r} is named as a PDF but is not one (no %PDF- header)")
    if fmt in (Format.DOCX, Format.PPTX, Format.XLSX, Format.ODT, Format.ODP, Format.ODS):
        raise InvalidInput(f"{filename!r} is named as a .{fmt.value} but is not one (not a ZIP)")
    if fmt is Format.TEXT and _looks_like_html(data):
        fmt = Format.HTML
    if _looks_binary(data):
        raise InvalidInput(f"{filename!r} should be {fmt.value} text but contains binary data")
    return fmt, MIME_TYPES[fmt]


def _reads_as_text(data: bytes) -> bool:
    """UTF-8 text of printable characters, as a file of an unknown kind must be to be read:
    a binary file in a legacy 8-bit code would decode to noise."""
    try:
        text = data[:65536].decode("utf-8-sig", errors="strict")
    except UnicodeDecodeError as exc:
        if exc.start < 65536 - 4:  # not only a character cut at the sample's end
            return False
        text = data[: exc.start].decode("utf-8-sig")
    printable = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return bool(text.strip()) and printable >= 0.98 * len(text)


def _looks_like_html(data: bytes) -> bool:
    head = data[:512].lstrip().lower()
    return head.startswith(b"<!doctype html") or head.startswith(b"<html")


def _looks_binary(data: bytes) -> bool:
    # UTF-16 text legitimately holds NUL bytes; its BOM says so.
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    return b"\x00" in data[:8192]


def _office_format(data: bytes, filename: str) -> Format:
    """A Word, PowerPoint, Excel or OpenDocument file by what is inside it, or InvalidInput."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
        # OpenDocument and EPUB say what they are in a first entry named "mimetype"
        declared = archive.read("mimetype")[:100] if "mimetype" in names else b""
    except (zipfile.BadZipFile, OSError, KeyError) as exc:
        raise InvalidInput(f"{filename!r} is a damaged ZIP container: {exc}") from exc
    for part, fmt in _OFFICE_PARTS.items():
        if part in names:
            return fmt
    for mime, fmt in _OPEN_DOCUMENTS.items():
        if declared.strip() == mime:
            return fmt
    for mime, what in _ZIP_DOCUMENTS.items():
        if declared.startswith(mime):
            raise InvalidInput(f"{filename!r} is {what}; supported: {SUPPORTED}")
    raise InvalidInput(f"{filename!r} is {_OTHER_ZIP}; supported: {SUPPORTED}")
