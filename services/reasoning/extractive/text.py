"""Text tools of the extractive engine: language, sentences, content keywords, term weights.

Matching happens in the space of ``services.common.text.lexical_terms`` (the
same terms the searcher ranks with), so a keyword and a passage sentence are
compared after the same normalisation. Question words and light verbs are
removed by stop lists that are themselves passed through ``lexical_terms``,
which keeps them right whatever normal form the tokenizer gives them.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from services.common.text import (
    EN_STOP_WORDS,
    JAPANESE,
    inflected_spans,
    inside_parentheses,
    lexical_terms,
    normalise,
)

_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\u3005\u30fc]")

# Sentence ends: Japanese full stops and marks (with a closing bracket kept), English
# terminators followed by a blank, and line breaks (Markdown headings, list items).
_SENTENCE_END = re.compile(r"[。！？!?]+[」』）)\"”’]*|\.(?=[\"”’)]*(?:\s|$))[\"”’)]*|\n+")
# A full stop after these ends no sentence: initials (M. Theo), abbreviations (approx.).
_NOT_AN_END = re.compile(
    r"(?:^|[\s(])(?:[A-Za-z]|approx|e\.g|i\.e|etc|vs|cf|al|fig|no|nos|vol|pp|ca|mr|mrs|ms|dr|prof|st|jr|sr|inc|ltd|co|u\.s)\.$",
    re.I,
)


# Japanese question words, frames and light verbs (surface forms).
_JA_STOP = (
    "何 なに なん 何か いつ どこ 誰 だれ どの どれ どう どんな どのような どういう 如何 "
    "なぜ 何故 どうして いくつ いくら 幾ら どのくらい どれくらい 教える 教えて ください "
    "下さい する ある いる なる 言う いう こと もの よう ため ところ とき について "
    "に関して に対して における による とは 一通り"
)
# Words that frame a question but name no topic; kept out of a task's key terms.
_FRAME = "定義 意味 説明 違い 差 相違 比較 特徴 関係 理由 仕組み 方法 例 種類"


# Greek letters, capital and small: the λ or α a formula names, kept as words of their own.
_GREEK = "\u0391-\u03a9\u03b1-\u03c9"
# Latin words, numbers and Greek letters are matched as written.
_LATIN_WORD = re.compile(rf"[A-Za-z][A-Za-z0-9]*(?:['’][A-Za-z]+)?|[0-9]+|[{_GREEK}]")


def terms(text: str) -> list[str]:
    """Matching terms, one per occurrence.

    Japanese goes through ``lexical_terms``; Latin words are lower-cased and
    lightly stemmed here, because ``lexical_terms`` gives inflections of one
    English word different forms (die -> ダイ, died -> died) and the engine
    must match "died" in a question with "die" in a sentence.
    """
    latin = [_stem(w) for w in _LATIN_WORD.findall(unicodedata.normalize("NFKC", text))]
    rest = _LATIN_WORD.sub(" ", unicodedata.normalize("NFKC", text))
    japanese = lexical_terms(rest) if JAPANESE.search(rest) else []
    return japanese + [w for w in latin if w]


def _stem(word: str) -> str:
    """A light suffix stripper: enough to meet died/die, signed/sign, financing/finance.
    A stop word in capitals is a keyword of a language (SQL's WHERE, HAVING, IS NULL), kept
    as written: "WHERE と HAVING はどう違うの？" asks about them."""
    if _keyword_in_capitals(word):
        return word
    word = re.sub(r"['’]s$", "", word.lower())
    if word.isdigit() or len(word) <= 3:
        return word
    verbal = False
    if word.endswith("ed") and not word.endswith("eed") and len(word) >= 4:
        word, verbal = word[:-1], True  # died -> die, signed -> signe (-> sign below)
    elif word.endswith("ing") and len(word) >= 6:
        word, verbal = word[:-3], True
    elif word.endswith("ies") and len(word) >= 5:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "xes", "ches", "shes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    if verbal and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouylsz":
        word = word[:-1]  # stopped -> stop
    return word


@lru_cache(maxsize=1)
def stop_terms() -> frozenset[str]:
    """Matching terms of all stop words."""
    words = _JA_STOP.split() + sorted(EN_STOP_WORDS)
    return frozenset(t for w in words for t in terms(w))


# Words that only say how to answer (list them, in order, in detail), never what to find.
_INSTRUCTION = (
    "挙げる 挙 順番 順 具体的 具体 詳しい 詳しく 簡単 手短 箇条書き 全部 全て 一通り いくつか "
    "一覧 説明 "
    "list steps step example examples detail details order brief briefly explain describe"
)


@lru_cache(maxsize=1)
def instruction_terms() -> frozenset[str]:
    return frozenset(t for w in _INSTRUCTION.split() for t in terms(w))


@lru_cache(maxsize=1)
def frame_terms() -> frozenset[str]:
    words = _FRAME.split() + ["difference", "definition", "meaning", "comparison", "reason"]
    return frozenset(t for w in words for t in terms(w))


def detect_language(text: str) -> str:
    return "ja" if JAPANESE.search(text) else "en"


@dataclass(frozen=True)
class Span:
    """A sentence as a slice of its passage: ``passage[start:end] == text``."""

    start: int
    end: int
    text: str


def split_sentences(text: str) -> list[Span]:
    spans: list[Span] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if match.group(0).startswith(".") and _NOT_AN_END.search(
            text[max(0, match.start() - 6) : match.start() + 1]
        ):
            continue
        if match.group(0)[0] in "。！？" and inside_parentheses(text, match.start()):
            continue
        _append_trimmed(spans, text, start, match.end())
        start = match.end()
    _append_trimmed(spans, text, start, len(text))
    return spans


def _append_trimmed(spans: list[Span], text: str, start: int, end: int) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    piece = text[start:end]
    # A bare list marker or heading hash is not a sentence.
    if piece and re.search(r"\w", piece):
        spans.append(Span(start, end, piece))


def content_terms(text: str) -> list[str]:
    """Distinct lexical terms of ``text`` without stop words, in order of first occurrence."""
    stops = stop_terms()
    return _distinct(t for t in terms(_drop_english_stops(text)) if t not in stops)


# Words joined into one name (k-means, t-SNE, read-your-writes): every part names it.
_JOINED_NAME = re.compile(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)+")


def key_terms(keywords: Sequence[str]) -> list[str]:
    """The terms a passage must contain to be about these keywords. A part of a joined name
    stays though it is a stop or frame word alone: without "means", "k-means" was the
    letter k, and any passage about k-fold validation held all of it."""
    frames, stops = frame_terms(), stop_terms()
    joined = " ".join(keywords)
    named = {t for name in _JOINED_NAME.findall(joined) for t in terms(name)}
    return [
        t
        for t in _distinct(terms(_drop_english_stops(joined)))
        if t in named or (t not in stops and t not in frames)
    ]


def _drop_english_stops(text: str) -> str:
    return re.sub(
        r"[A-Za-z][A-Za-z'’-]*",
        lambda m: "" if m.group(0).lower() in EN_STOP_WORDS else m.group(0),
        text,
    )


def _distinct(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)


# Runs that make up Japanese content words: kanji (with 々), katakana (with ー・), Latin/digits,
# Greek letters.
_JA_RUN = re.compile(
    rf"(?:[\u3400-\u4dbf\u4e00-\u9fff\u3005\u30a0-\u30ff\uff66-\uff9fA-Za-z0-9{_GREEK}]"
    r"[\u30fc\u30fb]?"
    # an identifier stays whole: ef_search, sf-search-api, isolation.level, pg_trgm
    r"|(?<=[A-Za-z0-9])[_.\-](?=[A-Za-z0-9]))+"
)
# 何 with the counter after it is the question word inside a run (最小何レプリカ, 何月何日,
# 何日間, 何か月, 何回目)
_QUESTION_COUNTER = re.compile(
    r"何(?:故|曜日|曜|(?:時限|(?:年|日|時|週|分|秒)間?|[かヶカケ]?月|人|個|回|番|歳|割|倍|件|本|冊"
    r"|台|枚|段|行|列|次元|桁|限|文字|ページ|%)目?)?"
)
_VERB_ENDINGS = tuple("るうくすつぬむぶぐ")
_JA_FORMAL_NOUNS = set("事物時為所等他彼此其際方")
_JA_NOUN_END = re.compile(r"(?:[のにをはがでとへもや]|$|[、。？！?!\s])")


def keywords_of(text: str) -> list[str]:
    """Content keywords of a question fragment, as surface strings for keyword search.

    Japanese: runs of kanji/katakana/Latin (compound nouns stay whole), plus
    hiragana nouns the tokenizer finds that no run covers. English: runs of
    consecutive non-stop words ("coefficient", "determination").
    """
    text = unicodedata.normalize("NFKC", text)
    if detect_language(text) == "ja":
        return _japanese_keywords(text)
    words = re.findall(rf"[A-Za-z0-9][A-Za-z0-9_'’.+#-]*[A-Za-z0-9+#]|[A-Za-z0-9{_GREEK}]", text)
    phrases: list[str] = []
    current: list[str] = []
    for i, word in enumerate(words):
        if is_stop_word(word) or _in_idiom(words, i) or word.lower() in _EN_JOINS:
            if current:
                phrases.append(" ".join(current))
            current = []
        else:
            current.append(word)
    if current:
        phrases.append(" ".join(current))
    return _distinct(phrases)


# Words that join clauses or set a time around them name nothing a passage is about, yet
# they are no stop words of the index: a question opening "After how long…" was keyed on
# "After", one ending "…read before the lab?" on "read before". Measured on the eighteen
# sets: one set gained, no other set's score moved (docs/quality.md).
_EN_JOINS = frozenset(
    "before after because since while until though although even during without within".split()
)


# Verbs of two words whose noun names no topic: "hand in" a report is submitting it, a
# meeting "takes place".
_EN_IDIOMS = {
    ("hand", "in"),
    ("handed", "in"),
    ("take", "place"),
    ("took", "place"),
    ("takes", "place"),
    ("taken", "place"),
}


def _in_idiom(words: Sequence[str], i: int) -> bool:
    lower = [w.lower() for w in words[max(0, i - 1) : i + 2]]
    return any(pair in _EN_IDIOMS for pair in zip(lower, lower[1:], strict=False))


# A contraction's own word decides: "What's", "there's", "don't" frame a question as "what",
# "there", "do" do; a possessive stays with its name ("Amdahl's law").
_CONTRACTION = re.compile(r"['’](?:s|re|ll|ve|d|m)$|n['’]t$", re.I)


def _keyword_in_capitals(word: str) -> bool:
    return len(word) > 1 and word.isupper() and word.lower() in EN_STOP_WORDS


def is_stop_word(word: str) -> bool:
    if _keyword_in_capitals(word):
        return False
    lower = word.lower()
    return lower in EN_STOP_WORDS or _CONTRACTION.sub("", lower) in EN_STOP_WORDS


def _japanese_keywords(text: str) -> list[str]:
    stops = stop_terms()
    # A leading 何 belongs to the question word (何年, 何人), not to the topic; 何か月 is
    # written with a kana too (the same length, so positions stay).
    text = re.sub(r"何[かカケ]月", "何ヶ月", text)
    verbs = inflected_spans(text)
    matches = [(m.start(), _run_end(m, verbs)) for m in _JA_RUN.finditer(text)]
    pieces = [_QUESTION_COUNTER.split(text[start:end]) for start, end in matches]
    runs = [parts[0] for parts in pieces]
    nouns = {
        r
        for r, (start, end) in zip(runs, matches, strict=True)
        if r == text[start:end] and r not in _JA_FORMAL_NOUNS and _JA_NOUN_END.match(text, end)
    }  # 何歳 → 歳 is a counter, not a topic
    runs += [part for parts in pieces for part in parts[1:] if part]
    runs = [r for r in runs if r and r not in _JA_STOP.split()]
    # A lone kanji counts when a particle or the end follows it (港が, 鱗に), not a verb's
    # ending (使われる): one kanji is often the whole topic in Japanese.
    kept = [r for r in runs if len(r) >= 2 or r in nouns or not any(len(o) >= 2 for o in runs)]
    kept = [r for r in kept if any(t not in stops for t in terms(r)) and not _ja_idiom(r, text)]
    covered = "".join(kept)
    # Hiragana nouns (もつれ, ひらがな) that no run holds; verbs are left to the ranking.
    for term in content_terms(text):
        if term in covered or len(term) < 2 or term in frame_terms() or term.startswith("何"):
            continue
        if _QUESTION_COUNTER.fullmatch(f"何{term}") and f"何{term}" in text:
            continue  # the counter of a question word (何時間 → 時間), no topic
        if term.endswith(_VERB_ENDINGS) or term.endswith("い") and not _has_kanji(term):
            continue
        if term in text:
            kept.append(term)
    return _distinct(kept)


# Nouns of an idiom that names no topic: 手に入る is "to get", 気になる "to wonder",
# 一通り "all of it, in turn".
_JA_IDIOMS = {
    "手": re.compile(r"手に入"),
    "気": re.compile(r"気にな"),
    "一通": re.compile(r"一通り"),
}


def _ja_idiom(noun: str, text: str) -> bool:
    idiom = _JA_IDIOMS.get(noun)
    return idiom is not None and idiom.search(text) is not None


def _run_end(run: re.Match, verbs: Sequence[tuple[int, int]]) -> int:
    """Where a run's noun ends: before the stem of a verb or adjective that starts inside
    it and goes on in kana (いつ頃生まれた: the run 頃生 holds 頃 and the stem of 生まれ)."""
    return min(
        (begin for begin, end in verbs if run.start() < begin < run.end() < end),
        default=run.end(),
    )


def _has_kanji(text: str) -> bool:
    return re.search(r"[\u3400-\u4dbf\u4e00-\u9fff]", text) is not None


def char_bigrams(text: str) -> set[str]:
    """Bigrams of Japanese characters (no word boundaries needed); empty for Latin text."""
    chars = [c if _CJK_CHAR.match(c) else " " for c in normalise(text)]
    joined = "".join(chars)
    return {joined[i : i + 2] for i in range(len(joined) - 1) if " " not in joined[i : i + 2]}


class TermWeights:
    """BM25-style IDF over a pool of sentences: rare terms weigh more.

    A term absent from the whole pool gets the largest weight, so a question
    about something the passages never mention cannot be covered by the
    common words it shares with them.
    """

    FLOOR = 0.05

    def __init__(self, documents: Sequence[set[str]]):
        self.n = len(documents)
        self.df: dict[str, int] = {}
        for doc in documents:
            for term in doc:
                self.df[term] = self.df.get(term, 0) + 1

    def weight(self, term: str) -> float:
        df = self.df.get(term, 0)
        return max(self.FLOOR, math.log(1.0 + (self.n - df + 0.5) / (df + 0.5)))

    def coverage(self, wanted: Sequence[str], present: set[str]) -> float:
        """Share of the weight of ``wanted`` terms that ``present`` holds (0..1)."""
        total = sum(self.weight(t) for t in wanted)
        if total == 0:
            return 0.0
        return sum(self.weight(t) for t in wanted if t in present) / total


def squash_spaces(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


_ASKS_NUMBER = re.compile(
    r"いつ(?!か)|いくつ(?!か)|いくら(?!か)|幾つ(?!か)|どのくらい|どれくらい|どれだけ|どの程度"
    r"|何(?:年|月|日|時|分|秒|人|個|回|歳|割|倍|件|本|台|枚|段|行|列|次元|桁|文字|ページ|バイト"
    r"|ミリ|マイクロ|%|パーセント|KB|MB|GB|TB|km|キロ|メートル|世紀|名|隻|機|種|週|度|点|位|番|ms)"
    r"|\bhow (?:many|much|long|old|far|often|large|big|tall|high|fast|small|wide)\b|\bwhen\b"
    r"|\b(?:what|which) (?:year|date|century|decade|percentage|value|size|number|threshold"
    r"|limit|rate|ratio|dimension|score)s?\b|\bwhat (?:is|are) the (?:default|value|size|limit)",
    re.I,
)
_NUMBER = re.compile(
    r"[0-9]|[一二三四五六七八九十百千万億]+(?:年|月|日|人|つ|個|回|歳|割|倍|世紀|名)"
    r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty"
    r"|hundred|thousand|million|billion|dozen|january|february|march|april|may|june|july|august"
    r"|september|october|november|december|century)\b",
    re.I,
)


def asks_for_number(question: str) -> bool:
    """Questions about when, how many, how much: the answer holds a number or a date."""
    return _ASKS_NUMBER.search(unicodedata.normalize("NFKC", question)) is not None


def has_number(text: str) -> bool:
    return _NUMBER.search(unicodedata.normalize("NFKC", text)) is not None
