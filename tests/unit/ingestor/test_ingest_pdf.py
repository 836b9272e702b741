"""PDF with a text layer: page numbers, outline headings, paragraphs; no text layer → vision."""

from pathlib import Path

import pytest
from ingest_pdf_factory import make_pdf

from services.common.errors import EngineError, InvalidInput
from services.common.materials import Chunk
from services.ingestor.pdf import parse_pdf
from services.ingestor.stages import parse_material

LONG = (
    "The standard deviation is the square root of the variance and has the same unit as the "
    "data, which makes it easier to interpret than the variance itself."
)


def test_pages_headings_and_paragraphs():
    data = make_pdf(
        [[LONG, "Short closing line."], ["Second page text that has no heading of its own."]],
        bookmarks={0: ["Variance and standard deviation"]},
        title="Handout",
    )
    parsed = parse_pdf(data, "handout.pdf")
    assert parsed.title == "Handout"
    assert parsed.page_count == 2 and parsed.pages_without_text == []
    assert [(b.page, b.heading_path, b.text) for b in parsed.blocks] == [
        (1, ("Variance and standard deviation",), LONG),  # wrapped lines joined back
        (1, ("Variance and standard deviation",), "Short closing line."),
        (
            2,
            ("Variance and standard deviation",),
            "Second page text that has no heading of its own.",
        ),
    ]


def test_without_an_outline_a_line_set_larger_than_the_body_is_a_heading():
    # a browser or slide export has no bookmarks; its headings are set larger
    data = make_pdf(
        [
            [(20, "Describing data"), (14, "Centre"), LONG, (14, "Spread"), "Range and IQR."],
            [(14, "Sampling"), "A sample is drawn at random."],
        ]
    )
    blocks = parse_pdf(data, "slides.pdf").blocks
    assert [(b.heading_path, b.text) for b in blocks] == [
        (("Describing data", "Centre"), LONG),
        (("Describing data", "Spread"), "Range and IQR."),
        (("Describing data", "Sampling"), "A sample is drawn at random."),
    ]


def test_a_line_in_a_headings_size_right_after_it_is_text_under_it():
    # a subtitle or byline set as large as the title: no heading replaces the title unread
    data = make_pdf([[(18, "Linear systems"), (18, "Lectures 8 and 9, 28 May"), LONG]])
    blocks = parse_pdf(data, "notes.pdf").blocks
    assert [(b.heading_path, b.text) for b in blocks] == [
        (("Linear systems",), "Lectures 8 and 9, 28 May"),
        (("Linear systems",), LONG),
    ]


def test_a_large_number_or_a_large_sentence_is_no_heading():
    data = make_pdf([[(16, "Overview"), LONG, (28, "2.140e+10"), (16, "It ends here.")]])
    blocks = parse_pdf(data, "deck.pdf").blocks
    assert [(b.heading_path, b.text) for b in blocks] == [
        (("Overview",), LONG),
        (("Overview",), "2.140e+10"),
        (("Overview",), "It ends here."),
    ]


def test_a_listing_in_a_monospaced_font_is_one_code_block_as_printed():
    listing = [
        "def verify(row, password):",
        "    if row.scheme == 'wrapped':",
        "        return check(row.hash, pre)",
        " ",
        "    return check(row.hash, password)",
    ]
    printed = ["function          time per hash", "bcrypt, cost 12   240 ms"]
    data = make_pdf([["The check reads:", listing, "Measured on one core:", printed]])
    blocks = parse_pdf(data, "lab.pdf").blocks
    assert [b.text for b in blocks] == [
        "The check reads:",
        "```\n" + "\n".join(listing).replace("\n \n", "\n\n") + "\n```",
        "Measured on one core:",
        "```\n" + "\n".join(printed) + "\n```",  # columns kept as printed
    ]
    assert blocks[1].kind == "code"


def test_a_document_printed_in_a_monospaced_font_is_prose():
    # a text file printed to PDF: Courier throughout, under a page header in another font
    lines = [f"Line {n} of notes printed from a text file in Courier." for n in range(12)]
    blocks = parse_pdf(make_pdf([["notes.txt - page 1", lines]]), "notes.pdf").blocks
    assert {b.kind for b in blocks} == {"prose"}
    assert "Line 11 of notes" in blocks[-1].text


def test_a_cjk_font_with_an_embedded_two_byte_cmap_reads_as_text():
    # data/cjk_cff_font.pdf is one sentence set by fpdf2 2.8.9 in Noto Sans CJK JP taken
    # from its .ttc (a CFF font), which fpdf2 encodes with an embedded CMap of two-byte
    # codes: pypdf alone reads "\x00テ\x00ス\x00ト…", and past 255 glyphs, garbage
    data = (Path(__file__).parent / "data" / "cjk_cff_font.pdf").read_bytes()
    blocks = parse_pdf(data, "cff.pdf").blocks
    assert [b.text for b in blocks] == [
        "テストは欠陥が「ある」ことは示せるが、「ない」ことは示せない。"
    ]


def test_the_running_footer_of_every_page_is_left_out():
    # slides exported as PDF: course, lecture and page number at the foot of each page
    topics = ["Centre: mean and median", "Exercise 2", "Exercise 3", "Spread: variance"]
    pages = [[topic, f"DS-2140 | Lecture 3 | {n} / 4"] for n, topic in enumerate(topics, 1)]
    blocks = parse_pdf(make_pdf(pages), "slides.pdf").blocks
    assert [b.text for b in blocks] == topics  # "Exercise 2" on page 2 is no page number


def test_a_browser_prints_date_title_and_address_on_both_of_two_pages_and_they_go():
    pages = [
        ["2026/06/03 22:14 notes.md", topic, f"file:///home/t/notes.md {n}/2"]
        for n, topic in enumerate(["Gaussian elimination", "LU decomposition"], 1)
    ]
    blocks = parse_pdf(make_pdf(pages), "notes.pdf").blocks
    assert [b.text for b in blocks] == ["Gaussian elimination", "LU decomposition"]


def test_bullets_printed_on_a_slide_are_items_each():
    items = [f"- Bullet {n} on a line as long as the others on this slide page" for n in (1, 2)]
    blocks = parse_pdf(make_pdf([["Plan for the two lectures", *items]]), "plan.pdf").blocks
    assert [b.text for b in blocks] == ["Plan for the two lectures", *items]


def test_a_line_printed_short_goes_on_when_the_next_cannot_open_a_paragraph():
    # the word that did not fit went to the next line: a lower-case word goes on with the
    # sentence; a line after a full stop, or opening with a capital, is a new paragraph
    long = (
        "The planner writes one search request for each task it finds in the question, and"
        " the searcher answers each request with the chunks it ranks first."
    )
    page = [long, "The index is rebuilt by the\nnightly job (about an hour).\nQueries wait."]
    blocks = parse_pdf(make_pdf([page]), "notes.pdf").blocks
    assert [b.text for b in blocks] == [
        long, "The index is rebuilt by the nightly job (about an hour).", "Queries wait.",
    ]  # fmt: skip


def test_a_japanese_line_in_a_fixed_pitch_font_is_no_listing():
    # data/cjk_fixed_pitch_heading.pdf (fpdf2 2.8.9, Noto Sans CJK JP and Noto Sans Mono
    # CJK JP from their .ttc): a heading in the fixed-pitch face, prose, a listing in the
    # same face with a Japanese comment, prose. Japanese fonts are fixed-pitch too.
    data = (Path(__file__).parent / "data" / "cjk_fixed_pitch_heading.pdf").read_bytes()
    assert [b.kind for b in parse_pdf(data, "notes.pdf").blocks] == [
        "prose", "prose", "code", "prose",
    ]  # fmt: skip


def test_parse_material_keeps_page_numbers_in_chunks():
    data = make_pdf([["Page one text."], ["Page two text."]])
    parsed = parse_material(data, "two.pdf")
    assert [(c.page, c.text) for c in parsed.chunks] == [
        (1, "Page one text."),
        (2, "Page two text."),
    ]
    assert parsed.page_count == 2 and not parsed.read_by_vision
    assert parsed.title == "two"  # no metadata title: the file name


class FakeVision:
    def __init__(self):
        self.calls = []

    def read(self, data, mime_type, filename):
        self.calls.append((mime_type, filename))
        return [Chunk(0, "## Figure 1\n\nA box plot of quiz scores.", 1, ("Figure 1",))]


def test_pdf_without_text_layer_goes_to_vision():
    vision = FakeVision()
    parsed = parse_material(make_pdf([], blank_pages=2), "scan.pdf", vision=vision)
    assert vision.calls == [("application/pdf", "scan.pdf")]
    assert parsed.read_by_vision
    # the model's own heading line is not doubled
    assert [c.text for c in parsed.chunks] == ["# Figure 1\n\nA box plot of quiz scores."]


def test_pdf_without_text_layer_and_no_gemini_fails_clearly():
    with pytest.raises(
        EngineError, match=r"without a text layer.*needs Gemini \(set GEMINI_API_KEY\)"
    ):
        parse_material(make_pdf([], blank_pages=1), "scan.pdf", vision=None)


def test_mostly_text_pdf_keeps_its_text_and_reports_the_blank_page():
    parsed = parse_pdf(make_pdf([["Text page one."], ["Text page two."]], blank_pages=1), "x.pdf")
    assert parsed.has_text_layer
    assert parsed.pages_without_text == [3]


@pytest.mark.parametrize(
    "data",
    [b"%PDF-1.4\nthis is garbage\n%%EOF", b"%PDF-1.7", make_pdf([["x"]])[:300]],
)
def test_corrupt_pdf_is_invalid_input(data):
    with pytest.raises(InvalidInput, match="corrupt or unreadable PDF"):
        parse_material(data, "broken.pdf")
