"""LaTeX sources (.tex: lecture notes, Beamer slides, exercise sheets) → ``Block``s, through
Markdown.

Many teachers keep their notes as LaTeX and hand out the PDF; the source is the better
material, because its structure is explicit. Sections and frame titles become headings,
``itemize`` / ``enumerate`` / ``description`` lists, ``tabular`` tables, display math
(``equation``, ``align``, ``\\[ \\]``) ``$$`` displays, and ``verbatim`` / ``lstlisting`` /
``minted`` fenced code; a figure keeps its caption. Formatting commands keep their text,
layout commands and references go, and math is left as written: Markdown materials carry
their formulas as ``$…$`` LaTeX too.
"""

from __future__ import annotations

import re

from services.common.text import LIST_ITEM, fenced
from services.ingestor.chunking import Block
from services.ingestor.markdown import markdown_table, parse_markdown
from services.ingestor.parsing import run_on, unwrap

# A brace group up to three levels deep: \textbf{a {b {c}}}.
_GROUP = r"\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"
_OPTION = r"(?:\[[^\]]*\])?"

_COMMENT = re.compile(r"(?<!\\)%.*")
_CODE_ENV = re.compile(
    r"\\begin\{(verbatim\*?|Verbatim|lstlisting|minted)\}(\[[^\]]*\])?"
    r"(?:\{([\w+#-]+)\})?\n?(.*?)\\end\{\1\}",
    re.S,
)  # fmt: skip
_LISTING_LANGUAGE = re.compile(r"language\s*=\s*\{?([\w+#-]+)", re.I)
_INLINE_CODE = re.compile(
    r"\\verb\*?([^\w\s])(.*?)\1|\\(?:texttt|lstinline|mintinline\{[\w+#-]+\})" + _GROUP
)
_TT_ESCAPE = re.compile(r"\\([%&_#${}])")  # \texttt{async\_commit} reads async_commit
_DOCUMENT = re.compile(r"\\begin\{document\}(.*?)(?:\\end\{document\}|\Z)", re.S)
_TITLE = re.compile(r"\\title" + _OPTION + _GROUP)
_MATH_ENVS = "equation|align|gather|multline|eqnarray|displaymath|math|flalign|alignat"
_DISPLAY = re.compile(
    rf"\\begin\{{((?:{_MATH_ENVS})\*?)\}}(?:\{{\d+\}})?(.*?)\\end\{{\1\}}|(?<!\\)\\\[(.*?)\\\]"
    r"|\$\$(.*?)\$\$",
    re.S,
)
_TABLE_ENV = re.compile(
    r"\\begin\{(tabular\*?|tabularx|longtable|tabulary)\}(?:\{[^{}]*\})?" + _GROUP
    + r"(.*?)\\end\{\1\}",
    re.S,
)  # fmt: skip
_RULE = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|endhead|endfirsthead|cline\{[^}]*\}"
                   r"|cmidrule(?:\([^)]*\))?\{[^}]*\})")  # fmt: skip
_MULTI = re.compile(r"\\multi(?:column|row)\{[^}]*\}\{[^}]*\}" + _GROUP)
_CAPTION = re.compile(r"\\caption" + _OPTION + _GROUP)
_BOX_WIDTH = re.compile(r"\\(?:parbox|makebox|framebox)(?:\[[^\]]*\])*\{[^{}]*\}")
_FIGURE = re.compile(r"\\begin\{(figure\*?|wrapfigure)\}(.*?)\\end\{\1\}", re.S)
_SECTIONS = {
    "part": 1, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4,
    "paragraph": 5, "subparagraph": 6,
}  # fmt: skip
_SECTION = re.compile(r"\\(" + "|".join(_SECTIONS) + r")\*?" + _OPTION + _GROUP)
_FRAME = re.compile(r"\\begin\{frame\}" + _OPTION + r"(?:" + _GROUP + r")?|\\frametitle" + _GROUP)
_LIST_BEGIN = re.compile(r"\\begin\{(itemize|enumerate|description)\}(?:\[([^\]]*)\])?")
_LIST_END = re.compile(r"\\end\{(itemize|enumerate|description)\}")
_ITEM = re.compile(r"\\item(?:<[^>]*>)?(?:\[([^\]]*)\])?\s*")
# Environments that frame text: their name goes, their title (a Beamer block's, a theorem's
# name) leads their first sentence, "定義 (正規形): 関係が…", as the label it is.
_BOX = re.compile(r"(?:\\begin\{(?:block|alertblock|exampleblock)\}" + _GROUP
                  + r"|\\begin\{(theorem|definition|lemma|corollary|proposition|example|remark"
                  r"|exercise|problem|proof)\*?\}(?:\[([^\]]*)\])?)\s*")  # fmt: skip
_ENVIRONMENT = re.compile(r"\\(?:begin|end)\{[^}]*\}(?:\{[^{}]*\})?" + _OPTION)
# Commands whose arguments are not text: layout, references, pictures, document set-up.
_DROPPED = re.compile(
    r"\\(?:label|ref|eqref|pageref|cite[tp]?|nocite|index|includegraphics|vspace|hspace"
    r"|setlength|addtolength|usepackage|documentclass|newcommand|renewcommand|bibliography"
    r"|bibliographystyle|input|include|usetheme|usecolortheme|setbeamertemplate"
    r"|graphicspath|pagestyle|thispagestyle|author|date|institute|title|subtitle)(?![A-Za-z])\*?"
    r"(?:<[^>]*>)?" + _OPTION + r"(?:" + _GROUP + r")?"
)
_TEXT_COMMAND = re.compile(
    r"\\(?:textbf|textit|emph|underline|textrm|textsf|textsc|textup|textmd|mbox|text|alert"
    r"|structure|textcolor\{[^}]*\}|hl|uline|footnotesize|small)" + _GROUP
)
_FOOTNOTE = re.compile(r"\\footnote" + _GROUP)
_LINK = re.compile(r"\\href" + _GROUP + _GROUP + r"|\\url" + _GROUP)
_BARE_COMMAND = re.compile(r"\\[A-Za-z]+\*?(?:<[^>]*>)?(?:\[[^\]]*\])?")
_ESCAPED = {"\\%": "%", "\\&": "&", "\\_": "_", "\\#": "#", "\\$": "$", "\\{": "{",
            "\\}": "}", "~": " ", "``": "“", "''": "”", "---": "—", "--": "–"}  # fmt: skip
# Words and spaces written as commands: "vs.\ liveness", "1, 2, \ldots", "\LaTeX".
_SYMBOL_TEXT = {
    " ": " ", "\n": "\n", ",": " ", ";": " ", ":": " ", "!": "", "@": "", "/": "", "ldots": "…",
    "dots": "…", "cdots": "…", "LaTeX": "LaTeX", "TeX": "TeX", "S": "§", "textbackslash": "\\",
    "quad": " ", "qquad": " ", "textasciitilde": "~", "textasciicircum": "^", "textbar": "|",
    "textless": "<", "textgreater": ">", "textunderscore": "_",
}  # fmt: skip
_SYMBOLS = re.compile(
    r"\\(ldots|dots|cdots|LaTeX|TeX|S|textbackslash|quad|qquad|textasciitilde|textasciicircum"
    r"|textbar|textless|textgreater|textunderscore)(?![A-Za-z])(?:\{\})?"
    r"|\\([ \n,;:!@/])"
)
_REFERENCE = re.compile(r"[ \t~]*[(（]?\\(?:ref|eqref|pageref|autoref|cref)\{[^}]*\}[)）]?")
_QUOTES = re.compile(r"``|''")
_NEW_THEOREM = re.compile(r"\\newtheorem\*?\{(\w+)\}(?:\[\w+\])?" + _GROUP)
_TITLE_PAGE = re.compile(r"\\maketitle\b|\\titlepage\b")
_TITLE_MATTER = ("subtitle", "author", "institute", "date")
# \newcommand{\name}[args]{body} and \def\name{body}: a teacher's own shorthand.
_MACRO = re.compile(
    r"\\(?:re)?newcommand\*?\{?\\([A-Za-z]+)\}?(?:\[(\d)\])?" + _GROUP
    + r"|\\def\\([A-Za-z]+)" + _GROUP
)  # fmt: skip
_INLINE_MATH = re.compile(r"(?<!\\)\$[^$\n]+?(?<!\\)\$")
# siunitx, as physics and engineering notes write quantities: \SI{95.5}{\micro\farad},
# \qty{10}{mH}, \si{\kilo\ohm}, \num{1e-3}, \ang{30}. They read as printed: 95.5 µF.
_QUANTITIES = [
    re.compile(rf"\\({names})(?![A-Za-z]){_OPTION}" + _GROUP * arity)
    for names, arity in (("SIrange|qtyrange", 3), ("SI|qty|numrange", 2), ("si|unit|num|ang", 1))
]
_UNIT_WORDS = {
    "yocto": "y", "pico": "p", "nano": "n", "micro": "µ", "milli": "m", "centi": "c",
    "deci": "d", "kilo": "k", "mega": "M", "giga": "G", "tera": "T", "ohm": "Ω", "volt": "V",
    "ampere": "A", "farad": "F", "henry": "H", "hertz": "Hz", "watt": "W", "second": "s",
    "metre": "m", "meter": "m", "gram": "g", "joule": "J", "newton": "N", "coulomb": "C",
    "siemens": "S", "tesla": "T", "weber": "Wb", "radian": "rad", "degree": "°",
    "degreeCelsius": "°C", "celsius": "°C", "kelvin": "K", "percent": "%", "decibel": "dB",
    "minute": "min", "hour": "h", "litre": "L", "liter": "L", "pascal": "Pa", "mole": "mol",
    "byte": "B", "bit": "bit", "per": "/", "squared": "²", "cubed": "³",
}  # fmt: skip
_UNIT_WORD = re.compile(r"\\([A-Za-z]+)\s*")


def parse_latex(text: str) -> tuple[str | None, list[Block]]:
    """(the \\title, or the first heading; the blocks)."""
    kept: list[str] = []  # code and math, out of the way of the text rewriting

    def keep(markdown: str) -> str:
        kept.append(markdown)
        return f"\n\n\x00{len(kept) - 1}\x00\n\n"

    text = _CODE_ENV.sub(
        lambda m: _captioned(m, keep(fenced(m.group(4).rstrip("\n"), _language(m)))), text
    )
    text = "\n".join(_COMMENT.sub("", line) for line in text.split("\n"))
    text = _expand_macros(text)
    for quantities in _QUANTITIES:
        text = quantities.sub(_quantity, text)
    title_match = _TITLE.search(text)
    title = " ".join(_inline(title_match.group(1)).split()) if title_match else None
    theorems = {m.group(1): _inline(m.group(2)).strip() for m in _NEW_THEOREM.finditer(text)}
    body = document.group(1) if (document := _DOCUMENT.search(text)) else text
    matter = _title_matter(text)
    body = _TITLE_PAGE.sub(lambda _: f"\n\n{matter}\n\n" if matter else "\n", body, count=1)
    body = _QUOTES.sub(lambda m: "“" if m.group(0) == "``" else "”", body)
    body = _INLINE_CODE.sub(_code_span, body)
    body = _DISPLAY.sub(lambda m: keep(_display(m)), body)
    body = _TABLE_ENV.sub(lambda m: keep(_table(m.group(3))), body)
    body = _FIGURE.sub(lambda m: _figure(m.group(2)), body)
    body = _SECTION.sub(lambda m: _heading(_SECTIONS[m.group(1)], m.group(2)), body)
    body = _FRAME.sub(lambda m: _heading(3, m.group(1) or m.group(2) or ""), body)
    body = _BOX.sub(lambda m: _box(m, theorems), body)
    body = "\n".join(line.strip() for line in body.split("\n"))  # indentation means nothing
    body = _lists(body)
    body = _ENVIRONMENT.sub("\n", body)
    body = unwrap(_inline(body))  # a line break in a LaTeX paragraph is a space
    body = re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], body)
    if title:
        body = f"# {title}\n\n{body}"
    markdown_title, blocks = parse_markdown(body)
    return title or markdown_title, blocks


def _expand_macros(text: str) -> str:
    """The document's own macros replaced by what they stand for (arguments #1…#9), their
    definitions taken out."""
    macros: dict[str, tuple[int, str]] = {}
    for match in _MACRO.finditer(text):
        if match.group(1):
            macros[match.group(1)] = (int(match.group(2) or 0), match.group(3))
        else:
            macros[match.group(4)] = (0, match.group(5))
    text = _MACRO.sub("", text)
    for name, (count, body) in macros.items():
        use = re.compile(rf"\\{name}(?![A-Za-z])\s*" + _GROUP * count)

        def expand(match: re.Match, body: str = body) -> str:
            for n, argument in enumerate(match.groups(), start=1):
                body = body.replace(f"#{n}", argument)
            return body

        text = use.sub(expand, text)
    return text


def _quantity(match: re.Match) -> str:
    """A siunitx quantity, number or unit as it prints: 95.5 µF, kΩ, 30°, 2–5 mA."""
    command, *args = match.groups()
    if command in ("si", "unit"):
        return _units(args[0])
    if command == "ang":
        return f"{args[0]}°"
    if command == "num":
        return args[0]
    if command == "numrange":
        return f"{args[0]}–{args[1]}"
    if command in ("SIrange", "qtyrange"):
        return f"{args[0]}–{args[1]} {_units(args[2])}".rstrip()
    return f"{args[0]} {_units(args[1])}".rstrip()  # \SI, \qty


def _units(text: str) -> str:
    units = _UNIT_WORD.sub(lambda m: _UNIT_WORDS.get(m.group(1), m.group(0)), text)
    return re.sub(r"\s+", "", units) if units != text else units.strip()


def _title_matter(text: str) -> str:
    """What ``\\maketitle`` prints below the title: subtitle, author, institute, date."""
    found = [re.search(rf"\\{name}" + _OPTION + _GROUP, text) for name in _TITLE_MATTER]
    return "\n\n".join(line for m in found if m and (line := _inline(m.group(1)).strip()))


def _captioned(match: re.Match, listing: str) -> str:
    """A listing's caption introduces it, as the sentence before it would."""
    caption = re.search(r"caption\s*=\s*(\{[^{}]*\}|[^,\]]+)", match.group(2) or "")
    return f"\n\n{caption.group(1).strip('{} ')}\n{listing}" if caption else listing


def _language(match: re.Match) -> str:
    """minted names the language as an argument, lstlisting as an option."""
    if match.group(1) == "minted":
        return match.group(3) or ""
    option = _LISTING_LANGUAGE.search(match.group(2) or "")
    return option.group(1).lower() if option else ""


def _code_span(match: re.Match) -> str:
    if match.group(2) is not None:  # \verb|…| is verbatim
        return f"`{match.group(2)}`"
    code = _SYMBOLS.sub(lambda m: _SYMBOL_TEXT[m.group(1) or m.group(2)], match.group(3))
    return "`" + _TT_ESCAPE.sub(r"\1", code) + "`"


def _display(match: re.Match) -> str:
    formula = match.group(2) or match.group(3) or match.group(4) or ""
    formula = re.sub(r"\\(?:label|tag)\{[^}]*\}|\\nonumber|\\notag", "", formula)
    # an align's rows read as lines, without their alignment marks: "2W > N", not "2W &> N"
    rows = [re.sub(r"(?<!\\)&", "", row).strip() for row in re.split(r"\\\\", formula)]
    return "$$\n" + "\n".join(row for row in rows if row) + "\n$$"


def _table(body: str) -> str:
    body = _RULE.sub("", _MULTI.sub(r"\1", body))
    rows = [re.split(r"(?<!\\)&", row) for row in re.split(r"\\\\(?:\[[^\]]*\])?", body)]
    cells = [[_inline(cell).strip() for cell in row] for row in rows]
    return "\n".join(markdown_table([row for row in cells if any(row)]))


def _figure(body: str) -> str:
    """What a figure shows in text (a boxed diagram written as lines), then its caption; a
    picture itself is left out."""
    caption = _CAPTION.search(body)
    shown = _BOX_WIDTH.sub("", _CAPTION.sub("", body))
    text = f"\n\n{shown}\n\n"
    return text + (f"{_inline(caption.group(1)).strip()}\n\n" if caption else "")


def _heading(level: int, name: str) -> str:
    name = _inline(name).strip()
    return f"\n\n{'#' * min(level, 6)} {name}\n\n" if name else "\n"


def _box(match: re.Match, theorems: dict[str, str]) -> str:
    """A Beamer block's title or a theorem's name, leading what it labels: the block's first
    sentence, or the sentence that introduces its list. (A heading would also take in what
    follows the block in its frame.)"""
    if match.group(1) is not None:
        return f"\n\n{_inline(match.group(1)).strip()}: "
    kind, name = theorems.get(match.group(2)) or match.group(2).capitalize(), match.group(3)
    return f"\n\n{kind} ({_inline(name).strip()}): " if name else f"\n\n{kind}: "


def _lists(text: str) -> str:
    """itemize, enumerate and description as Markdown lists, nested by indentation."""
    out: list[str] = []
    kinds: list[str] = []
    numbers: list[int] = []  # the next number of each open list
    labels: list[str] = []  # how each open enumerate prints its number: "(#)", "#."
    pos = 0
    for match in re.finditer(f"{_LIST_BEGIN.pattern}|{_LIST_END.pattern}|{_ITEM.pattern}", text):
        out.append(_item_text(text[pos : match.start()]) if kinds else text[pos : match.start()])
        pos = match.end()
        begin, option, end, label = match.groups()
        if begin:
            out.append("" if kinds else "\n")  # a nested list goes on under its item
            kinds.append(begin)
            numbers.append(1)
            labels.append(_label_format(option or ""))
        elif end:
            if kinds:
                kinds.pop()
                numbers.pop()
                labels.pop()
            out.append("\n" if kinds else "\n\n")
        elif kinds:
            indent = "    " * (len(kinds) - 1)
            marker = _numbered(labels[-1], numbers[-1]) if kinds[-1] == "enumerate" else "-"
            if not LIST_ITEM.match(f"{marker} "):  # "(a)" is no Markdown marker: "- (a)"
                marker = f"- {marker}"
            numbers[-1] += 1
            lead = f"{_inline(label).strip()}: " if label else ""
            out.append(f"\n{indent}{marker} {lead}")
    out.append(text[pos:])
    return "".join(out)


# enumitem's label=(\alph*) and enumerate's short form [(a)]: the counter and what frames it.
_COUNTER = re.compile(r"\\(alph|Alph|roman|Roman|arabic)\*")
_SHORT_COUNTER = re.compile(r"[aAiI1]")  # enumerate's [(a)], [i.], [1)]


def _label_format(option: str) -> str:
    """The label as a template, "{alph}" where the number goes: "({alph})", "{arabic}."."""
    option = re.sub(r"^.*?\blabel\s*=\s*\{?", "", option).split(",")[0].rstrip("}")
    counter = _COUNTER.search(option) or _SHORT_COUNTER.search(option)
    if not counter:
        return "{arabic}."
    short = {"a": "alph", "A": "Alph", "i": "roman", "I": "Roman", "1": "arabic"}
    style = counter.group(1) if counter.re is _COUNTER else short[counter.group(0)]
    before, after = option[: counter.start()], option[counter.end() :]
    return f"{_plain(before)}{{{style}}}{_plain(after)}".strip() or "{arabic}."


def _numbered(template: str, n: int) -> str:
    roman = "i ii iii iv v vi vii viii ix x xi xii xiii xiv xv".split()
    values = {
        "arabic": str(n),
        "alph": chr(ord("a") + n - 1) if n <= 26 else str(n),
        "Alph": chr(ord("A") + n - 1) if n <= 26 else str(n),
        "roman": roman[n - 1] if n <= len(roman) else str(n),
        "Roman": roman[n - 1].upper() if n <= len(roman) else str(n),
    }
    for style, value in values.items():
        template = template.replace(f"{{{style}}}", value)
    return template


def _item_text(text: str) -> str:
    """An item's text on one line: it runs on over the source's line breaks. A display or
    table inside the item keeps its own lines."""
    if "\x00" in text:
        return text.rstrip()
    return run_on(text).strip()


def _inline(text: str) -> str:
    """Text commands unwrapped, the rest dropped; math and code spans left as written."""
    parts = re.split(r"(`[^`\n]*`|\x00\d+\x00)", text)
    return "".join(part if i % 2 else _prose(part) for i, part in enumerate(parts))


def _prose(text: str) -> str:
    text = text.replace("\\(", "$").replace("\\)", "$")
    pieces = _INLINE_MATH.split(text)
    maths = _INLINE_MATH.findall(text)
    out = [_plain(pieces[0])]
    for math, piece in zip(maths, pieces[1:], strict=True):
        out += [math, _plain(piece)]
    return "".join(out)


def _plain(text: str) -> str:
    text = _REFERENCE.sub("", text)
    text = _DROPPED.sub("", text)
    text = _LINK.sub(lambda m: f"{m.group(2)} ({m.group(1)})" if m.group(1) else m.group(3), text)
    text = _FOOTNOTE.sub(lambda m: f" ({m.group(1)})", text)
    for _ in range(3):  # nested: \textbf{\emph{x}}
        text = _TEXT_COMMAND.sub(r"\1", text)
    # a forced line break ends a line of its own (a title page's, a boxed diagram's)
    text = re.sub(r"\\\\(?:\[[^\]]*\])?|\\newline\b", "\n\n", text)
    text = re.sub(r"\\par\b", "\n\n", text)
    text = _SYMBOLS.sub(lambda m: _SYMBOL_TEXT[m.group(1) or m.group(2)], text)
    for escaped, plain in _ESCAPED.items():
        text = text.replace(escaped, plain)
    text = _BARE_COMMAND.sub("", text)
    return re.sub(r"(?<!\\)[{}]", "", text)
