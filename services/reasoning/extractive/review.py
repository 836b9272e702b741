"""Reflection for the extractive engine: keep only claims their cited passage supports.

A claim is a sentence (or a quoted passage) with its citations. It stays when
its quoted text occurs in a cited passage or, for an unquoted paraphrase, when
most of its terms do; everything else is dropped and named in the critique.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

from services.reasoning.extractive.answerer import (
    CLOSEST,
    INSUFFICIENT,
    NOT_COVERED,
    NOT_NAMED,
    NOTE,
    QUOTED_ABOVE,
)
from services.reasoning.extractive.markdown import plain_text
from services.reasoning.extractive.text import content_terms, detect_language, squash_spaces, terms
from services.reasoning.llm import Passage, Review

_FRAMING = {
    *NOTE.values(),
    *INSUFFICIENT.values(),
    *NOT_COVERED.values(),
    *QUOTED_ABOVE.values(),
    *CLOSEST.values(),
}
_NOT_NAMED = re.compile(
    "|".join(re.escape(t).replace(re.escape("{}"), "[^「」“”]+") for t in NOT_NAMED.values())
)


def review(question: str, language: str, draft: str, evidence: Sequence[Passage]) -> Review:
    language = language if language in NOTE else detect_language(question)
    by_number = {p.index + 1: p for p in evidence}
    kept_lines: list[str] = []
    dropped: list[str] = []
    reasons: list[str] = []
    checked = supported = 0
    lines = iter(draft.splitlines())
    for line in lines:
        if opener := _CODE_OPENER.match(line):
            block = [line, *_until_fence(lines, opener["fence"])]
            checked += 1
            problem = _unsupported_code("\n".join(block[1:-1]), opener["cites"], by_number)
            if problem:
                dropped.append(f"code {opener['cites']}")
                reasons.append(problem)
            else:
                supported += 1
                kept_lines.extend(block)
            continue
        if _is_framing(line):
            kept_lines.append(line)
            continue
        kept_units: list[str] = []
        for unit in split_claims(line):
            body = re.sub(r"\s*\[\d+\]", "", unit).strip()
            if not content_terms(body):
                kept_units.append(unit)  # punctuation or connective, no claim
                continue
            checked += 1
            problem = _unsupported(unit, body, by_number)
            if problem:
                dropped.append(unit.strip())
                reasons.append(problem)
            else:
                supported += 1
                kept_units.append(unit)
        if any(content_terms(re.sub(r"\[\d+\]", "", u)) for u in kept_units):
            kept_lines.append("".join(kept_units).rstrip())
    if supported == 0:
        answer = INSUFFICIENT[language]
    else:
        answer = "\n".join(kept_lines).strip()
    critique = f"{checked} claims checked, {supported} supported by their cited passage"
    if dropped:
        critique += f", {len(dropped)} dropped: " + "; ".join(reasons)
    return Review(answer=answer, critique=critique + ".", dropped=dropped)


# A code block the answerer quoted: its opening fence carries the citations (```` ``` [2] ````).
_CODE_OPENER = re.compile(r"^(?P<fence>`{3,})\s*(?P<cites>(?:\[\d+\])+)\s*$")


def _until_fence(lines: Iterator[str], fence: str) -> list[str]:
    """The block's lines up to and including its closing fence."""
    block = []
    for line in lines:
        block.append(line)
        if line.strip() == fence:
            break
    return block


def _unsupported_code(code: str, cites: str, by_number: dict[int, Passage]) -> str | None:
    """Code is compared with its passage as written, not as a reader sees prose: Markdown
    markers mean nothing inside a fence (``x**2 + y**2`` is no emphasis)."""
    cited = [int(n) for n in re.findall(r"\d+", cites)]
    sources = [by_number[n] for n in cited if n in by_number]
    if not sources:
        return f"code cites {cites}, which is not in the evidence"
    if not any(_comparable(code) in _comparable(p.text + "\n" + p.context) for p in sources):
        return f"quoted code not in [{cited[0]}]: {squash_spaces(code)[:40]}"
    return None


_OPEN = {"「": "」", "『": "』", "“": "”"}
_TERMINATORS = "。．.!?！？"


def _is_framing(line: str) -> bool:
    stripped = line.strip()
    return (
        not stripped
        or stripped in _FRAMING
        or _NOT_NAMED.fullmatch(stripped) is not None
        or stripped.startswith(("■", "#"))
        or (stripped.endswith((":", "：")) and not re.search(r"\[\d+\]", stripped))
    )


_QUOTE_LINE = re.compile(r"^\s*(?:[-*・]\s*)*[「“](?P<quote>.*)[」”]\s*(?:\[\d+\]\s*)+$", re.S)


def split_claims(line: str) -> list[str]:
    """Split a line into claims: each ends at a sentence end or after its citations.

    Quoted text is never split, so a quoted passage of several sentences stays one claim;
    a whole-line quote is one claim even when the passage's own brackets are unbalanced.
    """
    if _QUOTE_LINE.match(line):
        return [line]
    units: list[str] = []
    start = 0
    closers: list[str] = []
    in_straight = False
    i = 0
    while i < len(line):
        ch = line[i]
        if ch in _OPEN:
            closers.append(_OPEN[ch])
        elif closers and ch == closers[-1]:
            closers.pop()
        elif ch == '"':
            in_straight = not in_straight
        quoted = bool(closers) or in_straight
        ends_sentence = ch in _TERMINATORS and (
            ch != "." or i + 1 == len(line) or line[i + 1] in " ["
        )
        if not quoted and (ends_sentence or line.startswith("[", i)):
            end = _after_citations(line, i + (0 if line.startswith("[", i) else 1))
            if end > i + 1 or ends_sentence:
                units.append(line[start:end])
                start = i = end
                continue
        i += 1
    if line[start:].strip():
        units.append(line[start:])
    return units


def _after_citations(line: str, i: int) -> int:
    """Index after the citations ([1][2]) and terminators that follow position ``i``."""
    match = re.compile(r"(?:\s*\[\d+\])*[。．.!?！？]*").match(line, i)
    return match.end() if match else i


def _quoted(text: str) -> list[str]:
    """Outermost quoted strings of a claim (balanced 「」『』“”, and straight double quotes)."""
    found: list[str] = []
    closers: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if ch in _OPEN:
            if not closers:
                start = i + 1
            closers.append(_OPEN[ch])
        elif closers and ch == closers[-1]:
            closers.pop()
            if not closers:
                found.append(text[start:i])
    found.extend(re.findall(r'"([^"]+)"', text))
    return [q for q in found if q.strip()]


def _comparable(text: str) -> str:
    """Blanks do not count: a quote joins sentences that stand on separate lines, or with no
    space between them in Japanese, in its passage."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def _unsupported(unit: str, body: str, by_number: dict[int, Passage]) -> str | None:
    """Why the claim must go, or None when its cited passages support it."""
    cited = [int(n) for n in re.findall(r"\[(\d+)\]", unit)]
    short = squash_spaces(body)[:40]
    if not cited:
        return f"no citation: {short}"
    unknown = [n for n in cited if n not in by_number]
    if unknown:
        return f"cites [{unknown[0]}], which is not in the evidence: {short}"
    sources = [by_number[n] for n in cited]
    # quotes are shown as a reader sees them: compare them with the passage in that form
    material = [_comparable(plain_text(p.text) + "\n" + plain_text(p.context)) for p in sources]
    whole = _QUOTE_LINE.match(unit)
    quotes = [whole["quote"]] if whole else _quoted(body)
    if quotes:
        for quote in quotes:
            if not any(_comparable(quote) in m for m in material):
                return f"quoted text not in [{cited[0]}]: {squash_spaces(quote)[:40]}"
        return None
    claim_terms = content_terms(body)
    present = set(terms(" ".join(material)))
    share = sum(t in present for t in claim_terms) / len(claim_terms)
    if share < 0.5:
        return f"only {share:.0%} of its terms occur in [{cited[0]}]: {short}"
    return None
