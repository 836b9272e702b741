"""Lexical terms for BM25, shared by the ingestor (stored terms) and the searcher (query terms).

Japanese has no spaces between words, so CJK runs become overlapping
character bigrams; Latin/digit runs become lower-cased words.
"""

from __future__ import annotations

import re
import unicodedata

_LATIN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u30fc]+")


def normalise(text: str) -> str:
    """NFKC folds full-width forms (Ｐｙｔｈｏｎ, ３) into their ASCII twins."""
    return unicodedata.normalize("NFKC", text).lower()


def lexical_terms(text: str) -> list[str]:
    """Terms in order of occurrence, one entry per occurrence."""
    norm = normalise(text)
    terms: list[str] = []
    for match in re.finditer(f"{_LATIN.pattern}|{_CJK.pattern}", norm):
        run = match.group(0)
        if _CJK.fullmatch(run):
            terms.extend(run[i : i + 2] for i in range(len(run) - 1)) if len(run) > 1 else terms.append(run)
        else:
            terms.append(run)
    return terms
