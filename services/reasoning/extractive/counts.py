"""A count the question asks for, and whether a text gives one.

"How many parameters does the reranker have?", "__consumer_offsets の既定のパーティション数
は？", "辞書には何語くらい入っている？": the answer is a number that counts the thing
named. Notes that speak of the thing without counting it ("調整すべきパラメータが少ない",
"パーティションが別のコンシューマに移る") hold no answer, however close they read. The thing
is the plural noun after "how many" or the noun after "the number of", a counter after 何
(何語, 何件, 何段階), or what stands before 数 (パーティション数, 次元数). A question that
asks how to compute, write or choose it (クラスタ数を決める方法) is answered by a formula,
code or a way, and one that asks the count beside other things (コア数とメモリ) may be
answered by a passage that gives the others: neither is checked.

A text counts the thing when a number stands just before it ("16 BHT entries", "3つのパラ
メータ", "70万語", "32-bit", "2.3% of the trips") or just after it ("partitions=50",
"パーティション数は 3", "状態数 | 12"). Japanese text names an English thing only in the
katakana it writes it in (partitions: パーティション): an English word inside Japanese
notes is a gloss or another thing's name (k-fold in k分割交差検証), and the count there is
written in Japanese, which this does not read. A passage names the thing, or would: another
passage in its language does (the notes' word for it), and the count would stand by it.
A passage in the other language, or notes that never name the thing, say nothing either
way: the count may be written with other words ("how many trips" answered by "312 rows").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from services.reasoning.extractive.loanwords import KATAKANA, english_spellings
from services.reasoning.extractive.text import detect_language

# Counters after 何 that count a thing. The measures of ``question.py`` (何人, 何回, 何日,
# 何%) and the counts a list answers (何種類, 何つ) are left to their own checks.
_COUNTERS = (
    "段階|次元|文字|ページ|語|個|件|本|台|枚|冊|行|列|層|桁|ビット|コア|スレッド|ノード"
    "|パーティション|レプリカ|トークン"
)
# What stands before 数 when it counts: a katakana or Latin word, or a counter (関数, 変数,
# 係数 and 周波数 are words of their own); nor is 数 a count when a word goes on from it
# (数学, 数値, 数式, 数列) or it means "several" (数日, 数回, 数人)
_BEFORE_SU = r"[ァ-ヴー]{2,}|[A-Za-z][\w.-]*|単位|状態|要素|次元|文字|段階"
_ASKED_JA = re.compile(rf"何\s*({_COUNTERS})|({_BEFORE_SU})数(?!学|値|式|列|理|字|日|週|年|回|人)")
# a count asked beside other things (コア数とメモリ、スワップの大きさ) may be answered
# by the passage that gives the others, with the count in another
_AMONG_OTHERS = re.compile(r"\s*(?:と|や|、|,|および|及び)")
# English: the noun after "how many" (its modifiers and what follows dropped: a countable
# noun after "how many" is plural), or after "the number of"
_SKIPPED = {"more", "fewer", "different", "distinct", "total", "separate", "unique", "of", "the"}
_ENDS = re.compile(
    r"\b(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have|had|in|of|per"
    r"|at|for|on|to|from|with|by|there|and|or|if|when|that|it|they|we|you|i|the|a|an)\b|[?？,.;]",
    re.I,
)
# A formula, code or a way asked for is answered by it, not by a number next to the thing
# (残りトークン数はどう計算する, "木を何本作っている" answered by n_estimators=200, クラスタ数を
# 決める方法)
_HOW = re.compile(
    r"式|コード|書き方|どう書|どう(?:計算|求め|決め|選|やって|すれ)|どのように|方法|決め方|選び方"
    r"|\b(?:code\b|formula|equation|comput|calculat|how (?:do|does|did|should|can|to)\b)",
    re.I,
)
# "the serial number of" names no count
_HOW_MANY = re.compile(
    r"\bhow many\s+([^?？,.;]*)"
    r"|\b(?:the|a|total|default|maximum|max|minimum|min|average|expected)\s+number of\s+([\w-]+)",
    re.I,
)

# a share or a note in brackets between a count and its thing: "1,388 (0.9%) couples"
_ASIDE = r"(?:\s*[(（][^)）\n]{0,16}[)）])?"
_NUMBER = (
    r"(?:\d[\d,.]*(?:\s*[万千億])?|[一二三四五六七八九十百千万億]+"
    r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty"
    r"|thirty|fifty|hundred|thousand|million|dozen)\b)"
)


@lru_cache(maxsize=1024)  # judged again at every iteration of a session
def counted(question: str) -> tuple[str, ...]:
    """The words that name what the question asks to count, or () when it asks no count."""
    text = unicodedata.normalize("NFKC", question)
    if _HOW.search(text):
        return ()
    found: list[str] = []
    for match in _ASKED_JA.finditer(text):
        if _AMONG_OTHERS.match(text, match.end()):
            continue
        found.append(match.group(1) or match.group(2))
    for match in _HOW_MANY.finditer(text):
        if match.group(2):
            found.append(match.group(2))
            continue
        words = match.group(1).split()
        while words and words[0].casefold() in _SKIPPED:
            words.pop(0)
        phrase = []
        for word in words:
            if _ENDS.fullmatch(word.casefold()):
                break
            phrase.append(word)
        plural = [w for w in phrase if len(w) > 2 and w.endswith("s") and not w.endswith("ss")]
        found += plural[:1] or phrase
    return tuple(dict.fromkeys(w for w in found if len(w) > 1 or not w.isascii()))


def names(things: tuple[str, ...], text: str) -> bool:
    """Does the text name the thing counted?"""
    text = unicodedata.normalize("NFKC", text)
    return any(re.search(re.escape(s), text, re.I) for s in _spellings(things, text))


def would_name(things: tuple[str, ...], passage: str, others: list[str]) -> bool:
    """Would the passage name the thing counted if it counted it? It does name it, or
    another passage in its language does: the notes' word for it."""
    if names(things, passage):
        return True
    language = detect_language(passage)
    return any(detect_language(o) == language and names(things, o) for o in others)


def counts(things: tuple[str, ...], text: str) -> bool:
    """Does the text give a count of the thing: a number just before or just after it?"""
    text = unicodedata.normalize("NFKC", text)
    for spelling in _spellings(things, text):
        word = re.escape(spelling)
        between = r"\s*(?:[-‐]|つの|個の|本の|の)?\s*(?:[A-Za-z][\w-]*\s+){0,3}"
        before = rf"{_NUMBER}(?:\s*%)?{_ASIDE}{between}{word}"
        after = rf"{word}[^\n。．.!?！？、,]{{0,8}}?{_NUMBER}"
        if re.search(before, text, re.I) or re.search(after, text, re.I):
            return True
    return False


def _spellings(things: tuple[str, ...], text: str) -> list[str]:
    """The thing's words as the text may write them: themselves and their singulars, or,
    for an English word in Japanese text, the katakana it is written in there (partitions:
    パーティション). An English word inside Japanese text is another thing's name or a
    gloss (k-fold of k分割交差検証, numtaps), and the count is written in Japanese."""
    japanese = detect_language(text) == "ja"
    spellings: list[str] = []
    for thing in things:
        if not thing.isascii():
            spellings.append(thing)
        elif japanese:
            spellings += [k for k in KATAKANA.findall(text) if english_spellings(k, thing)]
        else:
            spellings += [thing, *([thing[:-1]] if thing.endswith("s") and len(thing) > 3 else [])]
    return list(dict.fromkeys(spellings))
