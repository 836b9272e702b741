"""What the text formats share: decoding a file's bytes, joining Japanese lines the layout
broke, and the stack of open headings.

The formats themselves live in ``markdown.py``, ``plaintext.py`` and ``webpage.py`` (PDF,
office files, notebooks and Q/A tables in their own modules). Every parser returns
``(title or None, blocks)``; ``chunking.chunk_blocks`` bounds the sizes.
"""

from __future__ import annotations

import codecs
import re

from services.common.errors import InvalidInput
from services.common.text import LIST_ITEM

_CJK = r"\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
# A line break between two CJK characters is layout, not a space; but a line that opens
# with a bullet (・, ●, ■ …) starts a list item, and one indented with an ideographic
# space starts a paragraph (字下げ) or sets off an item, a formula or a table row: both
# keep their break.
_CJK_BREAK = re.compile(rf"(?<=[{_CJK}])[ \t]*\n[ \t]*(?=[{_CJK}])(?![・●○■□◆◇▪※\u3000])")


_KANA = re.compile(r"[\u3041-\u309f\u30a0-\u30ff]")
# An image's alt text that only names a file or an asset (lp.png, agent_lp, ReAct_fig):
# what a tool filled in, not what a reader who cannot see the image is told of it. A word
# with a hyphen (B-tree, Wi-Fi) may well be what the figure shows, and stays.
_ASSET_NAME = re.compile(
    r"^(?:\S+\.(?:png|jpe?g|gif|svg|webp|bmp)|[A-Za-z0-9-]*_[A-Za-z0-9_-]*)$", re.I
)


def image_text(alt: str) -> str:
    """What an image says in text: its alt text ("成績の内訳を示す円グラフ"), or nothing when
    the alt text only names its file."""
    alt = " ".join(alt.split())
    return "" if _ASSET_NAME.match(alt) else alt


def latex_fence(char: str) -> str:
    """A fence stored as its character, as LaTeX writes it: a brace is ``\\{``, since ``{``
    alone only groups (the brace that opens a system of equations vanished, or was left
    unbalanced)."""
    return {"{": r"\{", "}": r"\}"}.get(char, char)


# A superscript that is a word's ending (1st, 2nd, 1er), not an exponent.
_ORDINAL = re.compile(r"st|nd|rd|th|er|re|e|ème")
# The characters Unicode has raised and lowered forms of: what is raised or lowered is
# written with them when it can be (10³, H₂O, SO₄²⁻), as the page shows it. Compatibility
# normalisation (NFKC, which search terms and answer keys go through) reads them as plain
# characters: "kJ mol⁻¹" is "kJ mol−1" to them, as the line the reader flattened it into was.
_RAISED = str.maketrans(
    "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW",
    "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ",
)
_LOWERED = str.maketrans("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")


def scripted(text: str, above: bool) -> str:
    """Raised or lowered text as the page shows it: 10 with a raised 3 is 10³, not 103; H
    with a lowered 2 is H₂. What Unicode has no such form of is written as a formula is
    (V_{R,max}, ΔS_{sys}); a raised ordinal ending (1st) stays text."""
    text = text.strip()
    if not text or (above and _ORDINAL.fullmatch(text)):
        return text
    table = _RAISED if above else _LOWERED
    shown = text.translate(table)
    if all(ord(c) in table for c in text):
        return shown
    mark = "^" if above else "_"
    return f"{mark}{text}" if len(text) == 1 else f"{mark}{{{text}}}"


def decode_text(data: bytes, filename: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, Shift_JIS (Japanese Excel/Windows),
    EUC-JP (notes kept on a Unix server) or Windows-1252 (Western Windows). The Japanese
    encodings accept each other's bytes and many Windows-1252 texts too, as mojibake
    ("Crème" -> "Cr鑪e"): of those that decode, the one that reads as Japanese with the most
    kana is taken, and Windows-1252 where none reads as Japanese."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _lines(_decoded(data, "utf-16"), filename)
    text = _decoded(data, "utf-8-sig")
    if text is None:
        western = _decoded(data, "cp1252")
        japanese = [t for e in ("cp932", "euc_jp") if (t := _decoded(data, e)) is not None]
        japanese = [t for t in japanese if western is None or reads_as_japanese(t)]
        text = max(japanese, key=lambda t: len(_KANA.findall(t))) if japanese else western
    return _lines(text, filename)


def reads_as_japanese(text: str) -> bool:
    """Kana, or mostly symbols and JIS level-1 kanji (Shift_JIS lead bytes 0x81-0x98).
    Windows-1252 text read as Shift_JIS turns its accented letters into level-2 kanji,
    half-width katakana and private-use characters instead (鑪, ﾟ, U+E506)."""
    if _KANA.search(text):
        return True
    leads = [ch.encode("cp932", errors="replace")[0] for ch in text if ord(ch) >= 0x80]
    common = sum(0x81 <= lead <= 0x98 for lead in leads)
    return common >= len(leads) - common


def _decoded(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _lines(text: str | None, filename: str) -> str:
    if text is None:
        raise InvalidInput(
            f"{filename!r} is not UTF-8, UTF-16, Shift_JIS, EUC-JP or Windows-1252 text"
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")


def join_cjk_lines(text: str) -> str:
    return _CJK_BREAK.sub("", text)


def run_on(text: str) -> str:
    """Lines as one run of text, as a reader sees wrapped lines: Japanese lines join without
    a space, the others with one."""
    return re.sub(r"\s*\n\s*", " ", join_cjk_lines(text))


# A line that Markdown reads as a structure of its own, or a placeholder the caller keeps.
_STRUCTURE_LINE = re.compile(r"^\s*(?:#{1,6}\s|\||```|~~~|\$\$|\x00)")


def unwrap(markdown: str) -> str:
    """Markdown written from a source whose line breaks inside a paragraph are only
    wrapping (LaTeX, reStructuredText), with each paragraph's lines joined: as a reader
    sees it, Japanese lines without a space, others with one. Code, tables, headings and
    list items keep their lines; a line that follows one of them is left as it is."""
    out: list[str] = []
    fenced_code = False
    joinable = False  # the line before is prose that the next prose line may join
    for line in markdown.split("\n"):
        if re.match(r"^\s*(?:```|~~~)", line):
            fenced_code = not fenced_code
        prose = (
            not fenced_code
            and bool(line.strip())
            and not _STRUCTURE_LINE.match(line)
            and not LIST_ITEM.match(line)
        )
        if prose and joinable:
            out[-1] = run_on(f"{out[-1]}\n{line.strip()}")
        else:
            out.append(line)
        joinable = prose or (bool(line.strip()) and LIST_ITEM.match(line) is not None)
    return "\n".join(out)


class HeadingStack:
    """The stack of open headings; ``path`` is what a block below them belongs to."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def open(self, level: int, title: str) -> None:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, title))

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(title for _, title in self._stack)
