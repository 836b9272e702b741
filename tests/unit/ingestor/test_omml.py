"""Office Math constructs as LaTeX, one per case, each written as Word stores it."""

import pytest
from docx.oxml import parse_xml

from services.ingestor.omml import MATH, paragraph_text, to_latex


def r(text: str) -> str:
    return f"<m:r><m:t>{text}</m:t></m:r>"


def math(body: str):
    return parse_xml(f'<m:oMath xmlns:m="{MATH}">{body}</m:oMath>')


@pytest.mark.parametrize(
    ("body", "latex"),
    [
        (f"<m:rad><m:radPr><m:degHide m:val='1'/></m:radPr><m:deg/><m:e>{r('x')}</m:e></m:rad>",
         r"\sqrt{x}"),
        (f"<m:rad><m:deg>{r('3')}</m:deg><m:e>{r('x')}</m:e></m:rad>", r"\sqrt[3]{x}"),
        (f"<m:nary><m:naryPr><m:chr m:val='∑'/></m:naryPr><m:sub>{r('i=1')}</m:sub>"
         f"<m:sup>{r('n')}</m:sup><m:e>{r('x')}</m:e></m:nary>", r"\sum_{i=1}^{n} x"),
        (f"<m:sSubSup><m:e>{r('x')}</m:e><m:sub>{r('i')}</m:sub><m:sup>{r('2')}</m:sup>"
         "</m:sSubSup>", "{x}_{i}^{2}"),
        (f"<m:d><m:dPr><m:begChr m:val='['/><m:endChr m:val=']'/><m:sepChr m:val=','/></m:dPr>"
         f"<m:e>{r('a')}</m:e><m:e>{r('b')}</m:e></m:d>", "[a,b]"),
        (f"<m:d><m:e>{r('x+1')}</m:e></m:d>", "(x+1)"),
        # a brace opening a system of equations is a brace, not LaTeX's grouping
        (f"<m:d><m:dPr><m:begChr m:val='{{'/><m:endChr m:val=''/></m:dPr>"
         f"<m:e>{r('x=1')}</m:e></m:d>", r"\{x=1"),
        (f"<m:acc><m:e>{r('y')}</m:e></m:acc>", r"\hat{y}"),
        (f"<m:bar><m:e>{r('x')}</m:e></m:bar>", r"\overline{x}"),
        (f"<m:m><m:mr><m:e>{r('1')}</m:e><m:e>{r('0')}</m:e></m:mr>"
         f"<m:mr><m:e>{r('0')}</m:e><m:e>{r('1')}</m:e></m:mr></m:m>",
         r"\begin{matrix} 1 & 0 \\ 0 & 1 \end{matrix}"),
        (f"<m:limLow><m:e>{r('lim')}</m:e><m:lim>{r('n→∞')}</m:lim></m:limLow>", "lim_{n→∞}"),
    ],
)  # fmt: skip
def test_constructs(body, latex):
    assert to_latex(math(body)) == latex


def test_an_equation_inside_a_sentence_is_inline_and_alone_it_is_a_display():
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    sentence = parse_xml(
        f'<w:p xmlns:w="{w}" xmlns:m="{MATH}"><w:r><w:t xml:space="preserve">where </w:t></w:r>'
        f"<m:oMath>{r('N')}</m:oMath><w:r><w:t xml:space='preserve'> is the count</w:t></w:r></w:p>"
    )
    assert paragraph_text(sentence) == ("where $N$ is the count", False)
    alone = parse_xml(f'<w:p xmlns:w="{w}" xmlns:m="{MATH}"><m:oMath>{r("E=mc^2")}</m:oMath></w:p>')
    assert paragraph_text(alone) == ("E=mc^2", True)


def test_a_text_box_is_read_once_not_again_from_its_fallback_copy():
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    mc = "http://schemas.openxmlformats.org/markup-compatibility/2006"
    text = "<w:r><w:t>注意：索引は書き込みを遅くする</w:t></w:r>"
    box = f"<w:txbxContent><w:p>{text}</w:p></w:txbxContent>"
    paragraph = parse_xml(
        f'<w:p xmlns:w="{w}" xmlns:mc="{mc}"><w:r><w:t xml:space="preserve">図1 </w:t></w:r>'
        f"<w:r><mc:AlternateContent><mc:Choice Requires='wps'>{box}</mc:Choice>"
        f"<mc:Fallback>{box}</mc:Fallback></mc:AlternateContent></w:r></w:p>"
    )
    text, _ = paragraph_text(paragraph)
    assert text.split() == ["図1", "注意：索引は書き込みを遅くする"]  # once, a paragraph apart


def test_a_text_box_s_paragraphs_stay_apart():
    # a boxed "ポイント" title ran into its first sentence: ポイントヒープは…
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    box = "".join(f"<w:p><w:r><w:t>{t}</w:t></w:r></w:p>" for t in ("ポイント", "根が最小である。"))
    paragraph = parse_xml(
        f'<w:p xmlns:w="{w}"><w:r><w:txbxContent>{box}</w:txbxContent></w:r></w:p>'
    )
    text, _ = paragraph_text(paragraph)
    assert [p.strip() for p in text.strip().split("\n\n") if p.strip()] == [
        "ポイント",
        "根が最小である。",
    ]
