"""Content words as an embedder can read them: the unit of cross-lingual term matching.

A question in English over Japanese notes shares no lexical term with them, but its
words have translations there: "graduate students" and 大学院生, "availability" and
可用性 sit close in the multilingual embedding space (USE-m3: 0.68 and 0.73, against
0.17–0.38 for the other words of the same sentences). Matching word to word keeps
that signal, which a whole-sentence similarity drowns in topic overlap.
"""

from __future__ import annotations

import re
import unicodedata

from services.common.text import morphemes
from services.reasoning.extractive.text import EN_STOP_WORDS, detect_language, stop_terms, terms

_NOUN_LIKE = {"名詞", "接尾辞", "形状詞", "接頭辞"}
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_.+#-]*[A-Za-z0-9+#]|[A-Za-z]")
_MAX_WORD_CHARS = 24


def content_words(text: str) -> list[str]:
    """Distinct content words of ``text``: Japanese compound nouns whole and split at their
    nouns (月間可用性 → 月間可用性, 月間, 可用性), and English words and two-word phrases."""
    text = unicodedata.normalize("NFKC", text)
    words = _japanese_words(text) if detect_language(text) == "ja" else []
    words += _english_words(text)
    stops = stop_terms()
    kept = [w for w in words if len(w) <= _MAX_WORD_CHARS and any(t not in stops for t in terms(w))]
    return list(dict.fromkeys(kept))


def _japanese_words(text: str) -> list[str]:
    words: list[str] = []
    run: list[tuple[str, str]] = []
    for surface, pos in [*morphemes(text), ("", "")]:
        if pos in _NOUN_LIKE and surface.strip() and not _LATIN.fullmatch(surface):
            run.append((surface, pos))
            continue
        if run:
            words.extend(_compound(run))
            run = []
    return words


def _compound(run: list[tuple[str, str]]) -> list[str]:
    """The whole run, and each noun with the suffixes that follow it."""
    parts: list[str] = []
    for surface, pos in run:
        if pos in ("接尾辞",) and parts:
            parts[-1] += surface
        elif pos == "接頭辞":
            parts.append(surface)
        elif parts and parts[-1] in {s for s, p in run if p == "接頭辞"}:
            parts[-1] += surface
        else:
            parts.append(surface)
    whole = "".join(surface for surface, _ in run)
    return [whole] + [p for p in parts if p != whole and len(p) > 1]


def _english_words(text: str) -> list[str]:
    """Runs of adjacent non-stop words (up to three) and each of their words."""
    words: list[str] = []
    run: list[str] = []
    for token in [*re.findall(r"[A-Za-z][A-Za-z0-9_.+#-]*[A-Za-z0-9+#]|[A-Za-z]|\S", text), ""]:
        if _LATIN.fullmatch(token) and token.lower() not in EN_STOP_WORDS:
            run.append(token)
            continue
        if run:
            if 1 < len(run) <= 3:
                words.append(" ".join(run))
            words.extend(run)
            run = []
    return words
