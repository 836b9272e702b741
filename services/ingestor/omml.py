"""A Word or slide paragraph's text, and Office Math (OMML), the equations of Word and
PowerPoint, as LaTeX.

Neither python-docx nor python-pptx reads equations: a paragraph's text skips them, so
a formula in a lecture note would vanish from its chunk. The common constructs become
their LaTeX (fractions, scripts, roots, sums and integrals, delimiters, functions,
accents, matrices, equation arrays); anything else keeps its text in order. Symbols stay
the Unicode characters Office stores (α, ≤, ∑), which the engine reads as formula marks.
"""

from __future__ import annotations

from services.ingestor.parsing import latex_fence, scripted

MATH = "http://schemas.openxmlformats.org/officeDocument/2006/math"
_OPERATORS = {"∑": r"\sum", "∏": r"\prod", "∫": r"\int", "∬": r"\iint", "∮": r"\oint"}
_ACCENTS = {"̂": r"\hat", "̃": r"\tilde", "̄": r"\bar", "⃗": r"\vec", "̇": r"\dot"}


def is_math(element) -> bool:
    return _local(element) in ("oMath", "oMathPara") and _namespace(element) == MATH


def paragraph_text(paragraph) -> tuple[str, bool]:
    """A Word (``w:p``) or slide (``a:p``) paragraph element's text in order, with what
    python-docx and python-pptx leave out: equations (as ``$…$``), tracked insertions and
    text boxes. Or the bare LaTeX and True when the paragraph is one equation alone."""
    parts: list[tuple[bool, str]] = []  # (is an equation, text)
    for child in paragraph:
        name = _local(child)
        if name.endswith("Pr"):
            continue
        math = child if is_math(child) else _math_inside(child)
        if math is not None:
            parts.append((True, to_latex(math)))
        elif name in ("br", "tab"):
            parts.append((False, "\n" if name == "br" else "\t"))
        else:
            parts.append((False, _plain(child)))
    equations = [text for is_equation, text in parts if is_equation]
    if len(equations) == 1 and not any(t.strip() for is_eq, t in parts if not is_eq):
        return equations[0], True
    return "".join(f"${t}$" if is_equation else t for is_equation, t in parts), False


def _math_inside(element):
    """The first equation in an element: a slide keeps its equations in
    ``mc:AlternateContent``, beside a picture of them for older readers."""
    return next((e for e in element.iter() if is_math(e)), None)


def _plain(element) -> str:
    """The text of a run, field, hyperlink or tracked insertion, in order: text, tabs and
    breaks. Deleted text (``w:delText``) is not text; a fallback copy kept for older
    readers (``mc:Fallback``, as beside a text box) is skipped, or it would read twice."""
    name = _local(element)
    if name == "Fallback":
        return ""
    if name == "t" and _namespace(element) != MATH:
        return element.text or ""
    if name == "tab":
        return "\t"
    if name in ("br", "cr"):
        return "\n"
    text = "".join(_plain(child) for child in element)
    if name == "r" and (raised := run_raised(element)) is not None:
        return scripted(text, above=raised)
    # a paragraph inside this one (a text box's) is a paragraph of its own
    return f"\n\n{text}\n\n" if name == "p" and text.strip() else text


def run_raised(run) -> bool | None:
    """True for a superscript run, False for a subscript, None for one on the line: Word
    and Excel's rich text mark it ``vertAlign``, a slide a ``baseline`` offset (30000 up,
    -25000 down)."""
    properties = next((c for c in run if _local(c) == "rPr"), None)
    if properties is None:
        return None
    baseline = properties.get("baseline")
    if baseline is not None and baseline.lstrip("-").isdigit() and int(baseline):
        return int(baseline) > 0
    align = next((c for c in properties if _local(c) == "vertAlign"), None)
    if align is None:
        return None
    value = next((v for k, v in align.attrib.items() if k.rsplit("}", 1)[-1] == "val"), "")
    return {"superscript": True, "subscript": False}.get(value)


def to_latex(element) -> str:
    """An ``m:oMath`` (or ``m:oMathPara``) element as LaTeX."""
    return " ".join(_latex(element).split())


def _latex(element) -> str:
    tag = _local(element)
    if tag == "t":
        return element.text or ""
    if tag in _CONSTRUCTS:
        return _CONSTRUCTS[tag](element)
    if tag.endswith("Pr"):  # properties: how to draw, not what is written
        return ""
    return "".join(_latex(child) for child in element)


def _part(element, name: str) -> str:
    child = element.find(f"{{{MATH}}}{name}")
    return _latex(child) if child is not None else ""


def _property(element, prefix: str, name: str, default: str) -> str:
    found = element.find(f"{{{MATH}}}{prefix}Pr/{{{MATH}}}{name}")
    if found is None:
        return default
    return found.get(f"{{{MATH}}}val", default)


def _fraction(e) -> str:
    return rf"\frac{{{_part(e, 'num')}}}{{{_part(e, 'den')}}}"


def _scripts(e) -> str:
    base, sub, sup = _part(e, "e"), _part(e, "sub"), _part(e, "sup")
    return f"{{{base}}}" + (f"_{{{sub}}}" if sub else "") + (f"^{{{sup}}}" if sup else "")


def _root(e) -> str:
    degree = _part(e, "deg")
    return rf"\sqrt[{degree}]{{{_part(e, 'e')}}}" if degree else rf"\sqrt{{{_part(e, 'e')}}}"


def _nary(e) -> str:
    symbol = _property(e, "nary", "chr", "∫")
    operator = _OPERATORS.get(symbol, symbol)
    sub, sup = _part(e, "sub"), _part(e, "sup")
    limits = (f"_{{{sub}}}" if sub else "") + (f"^{{{sup}}}" if sup else "")
    return f"{operator}{limits} {_part(e, 'e')}"


def _delimited(e) -> str:
    opening = latex_fence(_property(e, "d", "begChr", "("))
    closing = latex_fence(_property(e, "d", "endChr", ")"))
    separator = _property(e, "d", "sepChr", "|")
    items = [_latex(child) for child in e.findall(f"{{{MATH}}}e")]
    return f"{opening}{separator.join(items)}{closing}"


def _function(e) -> str:
    name = _part(e, "fName").strip()
    return f"\\{name} {_part(e, 'e')}" if name.isalpha() else f"{name} {_part(e, 'e')}"


def _accent(e) -> str:
    command = _ACCENTS.get(_property(e, "acc", "chr", "̂"), r"\hat")
    return f"{command}{{{_part(e, 'e')}}}"


def _bar(e) -> str:
    return rf"\overline{{{_part(e, 'e')}}}"


def _lower_limit(e) -> str:
    return f"{_part(e, 'e')}_{{{_part(e, 'lim')}}}"


def _upper_limit(e) -> str:
    return f"{_part(e, 'e')}^{{{_part(e, 'lim')}}}"


def _equations(e) -> str:
    return r" \\ ".join(_latex(child) for child in e.findall(f"{{{MATH}}}e"))


def _matrix(e) -> str:
    rows = [
        " & ".join(_latex(cell) for cell in row.findall(f"{{{MATH}}}e"))
        for row in e.findall(f"{{{MATH}}}mr")
    ]
    return r"\begin{matrix} " + r" \\ ".join(rows) + r" \end{matrix}"


_CONSTRUCTS = {
    "f": _fraction,
    "sSup": _scripts,
    "sSub": _scripts,
    "sSubSup": _scripts,
    "rad": _root,
    "nary": _nary,
    "d": _delimited,
    "func": _function,
    "acc": _accent,
    "bar": _bar,
    "limLow": _lower_limit,
    "limUpp": _upper_limit,
    "eqArr": _equations,
    "m": _matrix,
}


def _local(element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


def _namespace(element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag[1:].split("}", 1)[0] if tag.startswith("{") else ""
