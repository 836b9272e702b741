"""Katakana terms a question names, and the English spellings passages may give them.

Japanese writes a borrowed term in katakana (ダイクストラ for Dijkstra, スキップリスト for
skip list, エフェメラルポート for ephemeral port); English notes write the term itself. The
multilingual embedder knows common loanwords but not rare terms and names (ダイクストラ ↔
Dijkstra 0.57), so whether English notes name a katakana term is read from the sounds.

Both spellings are reduced to the consonants a katakana reader hears, in the classes
katakana cannot tell apart (l and r, b and v; s, z, sh, ch and j); vowels, h, w and y drop,
and so does an English r that no vowel follows, which katakana writes as a long vowel
(Ford → フォード). ダイクストラ and Dijkstra both read DKSTR. A name from another language
is written as it sounds there, so a closing v is f (Chebyshev → チェビシェフ), and an
English spelling may also be heard another way: a g before e or i hard (Runge → ルンゲ, as
in target), an r before a consonant sounded (Markov → マルコフ), a closing -dre or -tre
sounded (Legendre → ルジャンドル).

Two skeletons match when equal, or one letter apart once they are six letters long. Fewer
than four consonants name too many words to tell apart (プロセス PRS: process, plus,
policy), so such a skeleton matches only a capitalised name (フォード: Ford, not food),
unless the caller accepts three; a person's name matches only a capitalised word at any
length (ラプラス: Laplace, not replace).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from services.common.text import tagged_morphemes

# The consonant each kana opens with, in the classes above (ン is N); vowel kana, small kana
# (ャ, ェ), ハ行 but フ, ヤ行, ワ and the marks of length and doubling give none.
_KANA_CONSONANT = {
    **dict.fromkeys("カキクケコ", "K"),
    **dict.fromkeys("ガギグゲゴ", "G"),
    **dict.fromkeys("サシスセソザジズゼゾチツヂヅ", "S"),
    **dict.fromkeys("タテト", "T"),
    **dict.fromkeys("ダデド", "D"),
    **dict.fromkeys("ナニヌネノン", "N"),
    **dict.fromkeys("フ", "F"),
    **dict.fromkeys("バビブベボヴ", "B"),
    **dict.fromkeys("パピプペポ", "P"),
    **dict.fromkeys("マミムメモ", "M"),
    **dict.fromkeys("ラリルレロ", "R"),
}
KATAKANA = re.compile(r"[ァ-ヴー]+")
# Bellman-Ford is two words; Dijkstra's is Dijkstra, or Dijkstras (Banker's: バンカーズ)
_LATIN_WORD = re.compile(r"[A-Za-z]+(?:['’]s\b)?")
_VOWEL = re.compile(r"[aeiouy]", re.I)
# Words no loanword writes, which would otherwise join a run (インターネット is no "into net")
_FUNCTION_WORDS = frozenset(
    """a an the of to in on at by for with from into onto and or but nor is are was were be
    been being it its this that these those as if then than so not no do does did can could
    will would shall should may might must have has had i you he she we they me him her us
    them my your our their what which who whom whose when where why how""".split()
)
# English spellings to the consonant classes, each before the shorter ones it holds (tion
# before t); a letter not listed is read as itself, and vowels, h, w and y drop.
_ENGLISH = [
    ("tion", "SN"), ("ij", ""), ("sion", "SN"), ("tch", "S"), ("dge", "S"), ("sch", "SK"),
    ("ph", "F"), ("th", "S"), ("sh", "S"), ("ch", "S"), ("ck", "K"), ("gh", ""),
    ("qu", "K"), ("kn", "N"), ("wr", "R"), ("x", "KS"), ("q", "K"),
    ("ce", "S"), ("ci", "S"), ("cy", "S"), ("c", "K"),
    ("ge", "S"), ("gi", "S"), ("gy", "S"),
    ("z", "S"), ("j", "S"), ("l", "R"), ("v", "B"),
]  # fmt: skip
_ENGLISH_PATTERN = re.compile("|".join(re.escape(s) for s, _ in _ENGLISH))
_ENGLISH_CLASS = dict(_ENGLISH)
# an r no vowel follows, or in a closing -re (store → ストア), and a b after m (tomb)
_SILENT = re.compile(r"r+(?![aeiouy])|r+e$|(?<=m)b(?![aeiouy])")
# a closing v, as Russian names say it (Liskov → リスコフ)
_CLOSING_V = re.compile(r"v$")
# Readings an English spelling may also have, each tried apart: a hard g before e or i
# (target, Runge: ゲ, not ジ), an r before a consonant sounded (Markov → マルコフ) and a
# closing -dre or -tre sounded (Legendre → ルジャンドル). Upper case marks a class.
_OTHER_READINGS = (
    (re.compile(r"g(?=[eiy])"), "G"),
    (re.compile(r"r(?=[^aeiouyr])"), "R"),
    (re.compile(r"(?<=[dt])re$"), "R"),
)
MIN_CONSONANTS = 4


def katakana_names(question: str) -> list[list[str]]:
    """The katakana terms a question names, each as its words: a name (ダイクストラ, a
    proper noun or a word the dictionary does not know: クラスカル) or a compound of katakana
    words (スキップ リスト, ミューテーション テスト). A single common word (ルール, タイミング)
    is no name: it has Japanese paraphrases (規則, 時期) a passage may use instead."""
    names: list[list[str]] = []
    run: list[tuple[str, bool]] = []
    for surface, pos, unknown in [*tagged_morphemes(question), ("", (), False)]:
        if KATAKANA.fullmatch(surface) and pos[:1] == ("名詞",):
            run.append((surface, unknown or pos[1:2] == ("固有名詞",)))
            continue
        if len(run) > 1 or (run and run[0][1]):
            names.append([s for s, _ in run])
        run = []
    return names


def katakana_skeleton(word: str) -> str:
    """The consonants of a katakana word, in their classes (ダイクストラ → DKSTR)."""
    out = "".join(_KANA_CONSONANT.get(kana, "") for kana in unicodedata.normalize("NFKC", word))
    return _collapsed(re.sub(r"N(?=[PBM])", "M", out))  # コンパクション: compaction


@lru_cache(maxsize=50_000)
def english_skeleton(words: str) -> str:
    """The consonants a katakana reader would hear in English ``words`` (Dijkstra → DKSTR)."""
    return _skeleton_of("".join(_SILENT.sub("", _CLOSING_V.sub("f", w)) for w in _words(words)))


@lru_cache(maxsize=50_000)
def english_skeletons(word: str) -> frozenset[str]:
    """Every skeleton one English word may be heard as: the usual reading, and each other
    reading of its spelling (Runge → RNS, RNG; Legendre → RSND, RSNDR)."""
    plain = "".join(_CLOSING_V.sub("f", w) for w in _words(word))
    found = {english_skeleton(word)}
    for spelling, sound in _OTHER_READINGS:
        if spelling.search(plain):
            # the marked letters stay upper case: past the silent r and the classes
            found.add(_skeleton_of(_SILENT.sub("", spelling.sub(sound, plain))))
    return frozenset(found)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.casefold())


def _skeleton_of(text: str) -> str:
    """The consonant classes of lower-case letters (upper-case ones are classes already)."""
    text = _ENGLISH_PATTERN.sub(lambda m: _ENGLISH_CLASS[m.group(0)].lower(), text)
    return _collapsed(re.sub(r"[aeiouyhw]", "", text).upper())


def transliterates(katakana: str, english: str) -> bool:
    """Is the katakana word a way of writing the English word or words (up to three)?"""
    words = english.split()
    return len(words) <= 3 and english in english_spellings(katakana, english, max_words=3)


def english_spellings(
    katakana: str, text: str, *, max_words: int = 3, min_consonants: int = MIN_CONSONANTS
) -> list[str]:
    """The runs of up to ``max_words`` English words of ``text`` that ``katakana`` writes.
    A run of several words matches part by part: each word ends where a katakana word of
    the compound does (スレッド|プール ↔ thread pool), so インターネット is no "want enter"."""
    parts = _part_skeletons(katakana)
    whole = "".join(skeleton for skeleton, _ in parts)
    single = _collapsed(whole)
    if len(single) < 2:
        return []
    ends, at = set(), 0
    for skeleton, unknown in parts:
        if unknown:  # a word the dictionary does not know may join several: シャード|キー
            ends.update(range(at + 1, at + len(skeleton)))
        at += len(skeleton)
        ends.add(at)
    words = _english_words(text)
    person = _person(katakana)
    found = []
    for start in range(len(words)):
        word = words[start].removesuffix("'s").removesuffix("’s")
        if person and not _is_name(word):
            continue  # ラプラス is Laplace, not "replace"
        # the word, as written with its possessive (Banker's: バンカーズ), and its singulars
        for spelling in dict.fromkeys((word, words[start], *_singulars(word))):
            if any(
                _skeletons_match(single, skeleton, min_consonants)
                or (_is_name(word) and single == skeleton)
                for skeleton in english_skeletons(spelling)
            ):
                found.append(word)
        run, head = [], ""  # the run's words, and the skeleton of all of them
        for word in words[start : start + max_words]:
            run.append(word)
            forms = (word, *_singulars(word))
            if len(run) > 1 and any(head + english_skeleton(f) == whole for f in forms):
                found.append(" ".join(run))
            head += english_skeleton(word)
            if len(head) not in ends or not english_skeleton(word):
                break
    return list(dict.fromkeys(found))


def _singulars(word: str) -> tuple[str, ...]:
    """The singulars an English plural may have: katakana writes a loanword in the singular
    (ガードビット for "guard bits", フィルター for "filters", ポリシー for "policies")."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return ()
    if word.endswith("ies"):
        return (word[:-3] + "y",)
    return (word[:-1], word[:-2]) if word.endswith("es") else (word[:-1],)


@lru_cache(maxsize=8)
def _english_words(text: str) -> tuple[str, ...]:
    """The words of ``text`` a loanword may write; read once for the several katakana names
    (and their words) checked against the same passages."""
    return tuple(w for w in _LATIN_WORD.findall(unicodedata.normalize("NFKC", text)) if _is_word(w))


@lru_cache(maxsize=10_000)
def _katakana_words(katakana: str) -> tuple[tuple[str, tuple[str, ...], bool], ...]:
    """The katakana words of a term as the dictionary reads them: (surface, part of speech,
    unknown to the dictionary)."""
    return tuple(m for m in tagged_morphemes(katakana) if KATAKANA.fullmatch(m[0]))


def _part_skeletons(katakana: str) -> tuple[tuple[str, bool], ...]:
    """The skeleton of each katakana word of a compound (スレッド|プール: SRD, PR), and
    whether the dictionary knows the word."""
    return tuple((katakana_skeleton(s), unknown) for s, _, unknown in _katakana_words(katakana))


def _person(katakana: str) -> bool:
    """A person's name (ラプラス, ダイクストラ: the dictionary's 人名), which English writes
    capitalised: a common word with its consonants (replace, RPRS) is another thing."""
    words = _katakana_words(katakana)
    return len(words) == 1 and words[0][1][1:3] == ("固有名詞", "人名")


def _is_name(word: str) -> bool:
    """A capitalised word: a short skeleton (フォード, FD) matches only a name (Ford), not the
    common words that share it (food, find)."""
    return word[0].isupper() and word[1:].islower()


def _is_word(token: str) -> bool:
    """An English word: a vowel, and written in lower case, capitalised or in capitals (not
    a run of an encoded string such as kEW or OxhR)."""
    return (
        len(token) > 1
        and _VOWEL.search(token) is not None
        and (token.islower() or token.isupper() or token[1:].islower())
        and token.casefold() not in _FUNCTION_WORDS
    )


def _skeletons_match(a: str, b: str, min_consonants: int = MIN_CONSONANTS) -> bool:
    if min(len(a), len(b)) < min_consonants:
        return False
    if a == b:
        return True
    return min(len(a), len(b)) >= 6 and _one_apart(a, b)


def _one_apart(a: str, b: str) -> bool:
    """One letter changed, added or dropped."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _collapsed(skeleton: str) -> str:
    return re.sub(r"(.)\1+", r"\1", skeleton)
