"""Small PDFs made in memory with fpdf2, for parser tests."""

from __future__ import annotations

from fpdf import FPDF


def make_pdf(
    pages: list[list[str | list[str] | tuple[int, str]]],
    *,
    bookmarks: dict[int, list[str]] | None = None,
    blank_pages: int = 0,
    title: str | None = None,
) -> bytes:
    """One page per list of paragraphs; a paragraph given as a list of lines is a listing set
    in Courier, line by line; one given as (size, text) is a line in bold of that size, with
    no outline entry; ``bookmarks[page_index]`` titles are printed as headings and
    added to the outline; ``blank_pages`` pages with a drawing but no text are appended."""
    pdf = FPDF(format="A4")
    if title:
        pdf.set_title(title)
    for index, paragraphs in enumerate(pages):
        pdf.add_page()
        for heading in (bookmarks or {}).get(index, []):
            pdf.set_font("Helvetica", "B", 14)
            pdf.start_section(heading)
            pdf.multi_cell(0, 8, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 11)
        for paragraph in paragraphs:
            if isinstance(paragraph, list):
                pdf.set_font("Courier", "", 9)
                for line in paragraph:
                    pdf.cell(0, 5, line, new_x="LMARGIN", new_y="NEXT")
                pdf.set_font("Helvetica", "", 11)
            elif isinstance(paragraph, tuple):
                size, line = paragraph
                pdf.set_font("Helvetica", "B", size)
                pdf.cell(0, size * 0.6, line, new_x="LMARGIN", new_y="NEXT")
                pdf.set_font("Helvetica", "", 11)
            else:
                pdf.multi_cell(0, 6, paragraph, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
    for _ in range(blank_pages):
        pdf.add_page()
        pdf.rect(20, 20, 100, 60, style="F")  # a "scanned" page: ink, no text layer
    return bytes(pdf.output())
