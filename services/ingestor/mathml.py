"""MathML, as LibreOffice Math stores a formula inside an OpenDocument file, as LaTeX.

The common constructs become their LaTeX (fractions, scripts, roots, sums and integrals
with their limits, accents, fences, matrices); anything else keeps its text in order.
Symbols stay the Unicode characters stored (α, ≤, ∑), as ``omml.py`` leaves Word's, which
the engine reads as formula marks. The StarMath source LibreOffice keeps beside it (an
``annotation``) is not LaTeX and is left out.
"""

from __future__ import annotations

from xml.etree import ElementTree

from services.ingestor.parsing import latex_fence

MATHML = "http://www.w3.org/1998/Math/MathML"
_LARGE = {"∑": r"\sum", "∏": r"\prod", "∫": r"\int", "∬": r"\iint", "∮": r"\oint"}
_ACCENTS = {"^": r"\hat", "ˆ": r"\hat", "~": r"\tilde", "˜": r"\tilde", "¯": r"\bar",
            "‾": r"\bar", "→": r"\vec", "⃗": r"\vec", "˙": r"\dot", "·": r"\dot"}  # fmt: skip
_SKIPPED = {"annotation", "annotation-xml", "mphantom", "none", "mprescripts"}


def to_latex(math: ElementTree.Element) -> str:
    """A ``math`` element's formula as LaTeX, on one line."""
    return " ".join(_latex(math).split())


def is_math(element: ElementTree.Element) -> bool:
    return element.tag == f"{{{MATHML}}}math"


def _name(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _latex(element: ElementTree.Element) -> str:
    name = _name(element)
    if name in _SKIPPED:
        return ""
    args = [e for e in element if _name(e) not in _SKIPPED]
    if name in ("mi", "mn", "mo", "mtext", "ms"):
        text = "".join(element.itertext()).strip()
        return _LARGE.get(text, latex_fence(text) if name == "mo" else text)
    if name == "mspace":
        return " "
    if name == "mfrac" and len(args) == 2:
        return rf"\frac{{{_latex(args[0])}}}{{{_latex(args[1])}}}"
    if name == "msqrt":
        return rf"\sqrt{{{''.join(map(_latex, args))}}}"
    if name == "mroot" and len(args) == 2:
        return rf"\sqrt[{_latex(args[1])}]{{{_latex(args[0])}}}"
    if name in ("msub", "munder") and len(args) == 2:
        return _scripts(args[0], below=args[1])
    if name in ("msup", "mover") and len(args) == 2:
        accent = _ACCENTS.get("".join(args[1].itertext()).strip())
        if name == "mover" and accent:
            return rf"{accent}{{{_latex(args[0])}}}"
        return _scripts(args[0], above=args[1])
    if name in ("msubsup", "munderover") and len(args) == 3:
        return _scripts(args[0], below=args[1], above=args[2])
    if name == "mfenced":
        opening = latex_fence(element.get("open", "("))
        closing = latex_fence(element.get("close", ")"))
        return f"{opening}{', '.join(map(_latex, args))}{closing}"
    if name == "mtable":
        rows = [" & ".join(_latex(cell) for cell in row) for row in args]
        return r"\begin{matrix} " + r" \\ ".join(rows) + r" \end{matrix}"
    return "".join(_latex(e) for e in args)  # math, semantics, mrow, mstyle, mpadded …


def _scripts(
    base: ElementTree.Element,
    below: ElementTree.Element | None = None,
    above: ElementTree.Element | None = None,
) -> str:
    out = _latex(base)
    if below is not None:
        out += f"_{{{_latex(below)}}}"
    if above is not None:
        out += f"^{{{_latex(above)}}}"
    return out
