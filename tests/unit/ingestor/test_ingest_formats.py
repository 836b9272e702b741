"""Format detection: magic bytes first, then extension, then declared mime type."""

import io
import zipfile

import pytest

from services.common.errors import InvalidInput
from services.ingestor.formats import Format, detect_format, is_material_file


@pytest.mark.parametrize(
    ("data", "filename", "mime", "expected"),
    [
        (b"%PDF-1.7\n...", "scan.bin", "application/octet-stream", (Format.PDF, "application/pdf")),
        (b"\x89PNG\r\n\x1a\n....", "board.dat", "", (Format.IMAGE, "image/png")),
        (b"\xff\xd8\xff\xe0JFIF", "photo", "", (Format.IMAGE, "image/jpeg")),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "x.webp", "", (Format.IMAGE, "image/webp")),
        (b"# Title\n", "notes.MD", "", (Format.MARKDOWN, "text/markdown")),
        (b"plain", "notes.txt", "text/plain", (Format.TEXT, "text/plain")),
        (b"<!DOCTYPE html><p>x</p>", "page.txt", "", (Format.HTML, "text/html")),
        (b"<h1>x</h1>", "page.htm", "", (Format.HTML, "text/html")),
        (b"question,answer\n", "faq.csv", "", (Format.CSV, "text/csv")),
        (b'{"q": 1}\n', "faq.jsonl", "", (Format.QA_JSONL, "application/jsonl")),
        (b"# x", "upload", "text/markdown; charset=utf-8", (Format.MARKDOWN, "text/markdown")),
        (b"\\section{x}", "lec05.tex", "", (Format.LATEX, "application/x-tex")),
        (b"\\section{x}", "upload", "text/x-tex", (Format.LATEX, "application/x-tex")),
        (b"def f(): pass", "lab3.py", "", (Format.CODE, "text/plain")),
        (b"CREATE TABLE t (id int);", "schema.SQL", "", (Format.CODE, "text/plain")),
        (b"FROM python:3.12", "Dockerfile", "", (Format.CODE, "text/plain")),
        (b"services: {}", "compose.yaml", "", (Format.CODE, "text/plain")),
        (b"WEBVTT\n", "lecture05.vtt", "", (Format.CAPTIONS, "text/vtt")),
        # text of a kind not known here is read as plain text
        (b"Course notes\n", "README", "", (Format.TEXT, "text/plain")),
        ("* 見出し\n".encode(), "notes.org", "", (Format.TEXT, "text/plain")),
        (b"Title\n=====\n", "guide.rst", "", (Format.RST, "text/x-rst")),
    ],
)
def test_detects(data, filename, mime, expected):
    assert detect_format(data, filename, mime) == expected


def zipped(**entries: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("data", "filename", "mime", "message"),
    [
        (b"\x00\x01\x02", "blob.exe", "application/octet-stream", "unsupported file type"),
        (b"\x89\x01\x02\xff\xfe", "blob", "", "no extension"),
        ("ノート".encode("cp932"), "notes.org", "", "extension '.org'"),
        (b"not really a pdf", "paper.pdf", "application/pdf", "not one (no %PDF- header)"),
        (b"abc\x00\x00def", "notes.md", "", "contains binary data"),
        (
            zipped(mimetype=b"application/vnd.oasis.opendocument.graphics"),
            "図.odg",
            "",
            "an OpenDocument file of a kind other than text, slides or a spreadsheet",
        ),
        (zipped(mimetype=b"application/epub+zip"), "book.epub", "", "an EPUB book"),
        (zipped(**{"a.md": b"# a"}), "notes.zip", "", "a ZIP archive; upload the files inside"),
    ],
)
def test_refuses_with_a_readable_reason(data, filename, mime, message):
    with pytest.raises(InvalidInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        detect_format(data, filename, mime)


@pytest.mark.parametrize(
    ("filename", "picked"),
    [("notes.md", True), ("lab3.py", True), ("sub/Makefile", True), ("slides.tex", True),
     ("photo.JPG", True), ("notes.odt", True), ("setup.exe", False), ("README", False),
     (".DS_Store", False)],
)  # fmt: skip
def test_a_folder_upload_picks_the_files_the_ingestor_reads(filename, picked):
    assert is_material_file(filename) is picked
