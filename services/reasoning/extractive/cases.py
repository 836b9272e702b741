"""A case the question states, which the notes give only for others.

"What hit rate did the 64 KiB cache get?" over notes that measured a 16 KiB and a 32 KiB
cache; 3相コミット over notes on 2相コミット. The passage speaks of the same kind of thing,
and its numbers belong to another case. A question states a case as a number with a unit:
a size in bytes, a temperature, a frequency, bits, threads, cores, or a count that names a
variant (相 phase, 段 stage, 層 level, ways). When the best unit, the units next to it and
its section's heading give that unit only with other numbers, and the passage nowhere
with the question's own, the question's case is not answered there. Numbers are compared
as numbers (37 °C is 37.0 °C), sizes and frequencies with their prefix (64 KiB is 64 KB,
not 64 MB; 8 kHz is 8000 Hz).
"""

from __future__ import annotations

import re
import unicodedata

# small counts as English notes spell them ("a four-stage pipeline")
_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "twelve": 12, "sixteen": 16,
}  # fmt: skip
_NUMBER = rf"(?<![0-9A-Za-z.])(\d+(?:\.\d+)?|{'|'.join(_WORDS)})"
# kind -> the unit as written after the number; a prefix group where sizes have one
_UNITS = {
    "bytes": r"([KMGT])i?B\b",
    "temperature": r"(?:°C|℃)",
    "frequency": r"([kMG]?)Hz\b",
    "bits": r"(?:ビット|bits?\b)",
    "threads": r"(?:スレッド|threads?\b)",
    "cores": r"(?:コア|cores?\b)",
    "phase": r"(?:相(?!当|対|談|手|互|関|性|違)|phases?\b)",
    "stage": r"(?:段(?!階|落)|stages?\b)",
    "level": r"(?:層|levels?\b)",
    "ways": r"(?:ウェイ|ways?\b)",
}
# between the number and its unit: a space, a hyphen, or the end of a formula and TeX's
# tie ($f_s = 8$~kHz)
_PATTERNS = {
    kind: re.compile(rf"{_NUMBER}[$}}]?[\s~]*-?\s*{unit}", re.I) for kind, unit in _UNITS.items()
}
_PREFIX = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def _values(kind: str, text: str) -> dict[float, str]:
    """The numbers of a kind the text gives, each with how it was written."""
    found: dict[float, str] = {}
    for match in _PATTERNS[kind].finditer(unicodedata.normalize("NFKC", text)):
        number = match.group(1).lower()
        value = float(_WORDS[number] if number in _WORDS else number)
        prefix = (match.group(2) or "").upper() if match.re.groups > 1 else ""
        found.setdefault(value * _PREFIX[prefix], match.group(0).strip())
    return found


def other_case(question: str, near: str, passage: str) -> str:
    """The case the question states that the text near the answer gives only for other
    numbers ("64 KiB", where it gives 16 KiB and 32 KiB), and the whole passage nowhere;
    or ''. The passage may state the case in a worked example's first line, and the unit
    that answers speaks of one of its numbers only ("fs = 8 kHz で遮断周波数 1 kHz", then
    "1 kHz のまま設計すると")."""
    for kind in _UNITS:
        stated = _values(kind, question)
        if not stated or not _values(kind, near):
            continue
        given = _values(kind, passage)
        if missing := [written for value, written in stated.items() if value not in given]:
            return missing[0]
    return ""
