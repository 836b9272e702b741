"""Names a question gives that no passage holds.

A student asks about ``sched_latency``, ``SCHED_RR`` or the Nagle algorithm; the notes
cover the scheduler and TCP but never name those. Word overlap and similarity then find
a passage about the scheduler and the judge takes it for an answer. A name cannot be
paraphrased the way a common word can (可用性 for 稼働率), so when the question names
something no candidate passage holds, in any spelling a reader would accept, the
passages do not answer it. The search ranks a rare name first (BM25, the identifier
list), so a name the scope holds reaches the candidates.

A name here is a Latin-script token with a digit, an underscore, a dot inside or two
capitals (``tcp_fin_timeout``, ``BM25+``, ``vm.swappiness``, ``XGBoost``), or a
capitalised word that does not open an English sentence (``Nagle``, ``Tokyo``). Units
(MB, ms), dates (February) and numbered parts (Lab 3) are no names. A passage holds a
name in any spelling a reader accepts: another case, the plural or its people (SSDs,
Kenyans), written apart or joined (Sky+HD, UserDatagram), an acronym of capitalised words
(AAA), typeset in a formula (HKDF-Extract in ``\\mathrm{HKDF\\text{-}Extract}``), one word
of a longer name (Graham Twigg, where the passage says Twigg), a typo of one or two
letters (Bedigo for Bendigo; in a name of five letters, letters swapped or changed, since
a letter more or less makes another word: Spark is no park), and across scripts a Japanese
word very close to it in USE-m3 space (Tokyo ↔ 東京 0.84, Hartmann ↔ ハートマン 0.71). Those
spellings are the ones the public QA sets' questions use (xquad_en: Sentanta, Bedigo,
Kenyans, AAA).

A Japanese question names a thing in katakana too: a name (ダイクストラ, クラスカル: a
proper noun, or a word the dictionary does not know) or a compound of katakana words
(スキップリスト, ミューテーションテスト); a single common word (ルール) has paraphrases and
is none. A passage holds it in katakana, or in the English it writes (Dijkstra, "mutation
test": ``loanwords.py``), or, for a compound, word by word.

A term a Japanese question glosses in English (線形走査（linear scan）, トライ木（trie）) is
named twice: the passages hold it when they write it whole in either spelling, since its
words apart are other things (a scan, a tree). Two near misses more are refused this way
(course_algo, course_comp), and no answer is lost on the eleven sets.

A setting the question states (``lists = 1000``, ``acks=1``) is a name with its value: the
passages hold it when one states it, in any spacing or in prose (ef_search を 100 に), or
tabulates it, the value in a column headed by the setting's name (a printed table with a
``batch`` column and a row ``64`` states batch=64). Notes that give ``lists = 100`` do not
answer a question about 1000. A one-letter name (``x = 2``, ``n = 8``) is a worked
example's variable, which a student may choose freely: no setting.

An identifier the question names (a table, a topic, a file, a setting: ``delivery_log``,
``__consumer_offsets``, ``lab3.wav``) that one candidate passage holds, the passage that
would answer must hold too: notes name the thing they speak of, and the best passage that
does not speaks of something else (the retention of other tables, another topic's
partitions). The price: a question that leads through the identifier to a second material
which writes it another way (a return code whose sorter bin a table gives by its suffix).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import cached_property

import numpy as np

from services.reasoning.extractive.loanwords import (
    english_spellings,
    katakana_names,
    katakana_skeleton,
)
from services.reasoning.extractive.text import detect_language, is_stop_word
from services.reasoning.extractive.words import content_words
from services.reasoning.llm import Passage

# A Latin name and a Japanese word this close in USE-m3 space are one name written in two
# scripts (Tokyo ↔ 東京 0.84, Hartmann ↔ ハートマン 0.71). A name the model does not know
# sits near unrelated words up to about 0.60 (Nagle ↔ スループット 0.60, sched_latency ↔
# 一貫性 0.58, in course_os passages), as near as some real transliterations (Kafka ↔ カフカ
# 0.62, Nagle ↔ ネーグル 0.59): those stay unrecognised, the price of not taking any
# passage for one that names the thing.
SAME_NAME_ACROSS_SCRIPTS = 0.70

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_.+'’\-]*[A-Za-z0-9+]|[A-Za-z]")
_WORD = re.compile(r"[a-z0-9][a-z0-9_.+\-]*[a-z0-9+]|[a-z0-9]")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*[A-Za-z]")
_SENTENCE_END = re.compile(r"(?:^|[.?!。？！]\s*)$")
_CAPITALISED_RUN = re.compile(r"(?:[A-Z][A-Za-z]*[\s-]+)*[A-Z][A-Za-z]*")
_INFLECTION = re.compile(r"(?:ians|ans|ns|es|s|n|'s|’s)$")
# A setting written in prose: its value within this many characters after its name
# ("ef_search を 100 に" is 4, "set lists to 1,000" 4). Not fitted: the five sets write
# their settings with "=", so none moves with it.
_PROSE_REACH = 16
_NUMBER = r"-?\d[\d,]*(?:\.\d+)?"  # as written: 1,000 and 0.50 included
_PROSE_NUMBER = re.compile(_NUMBER)
_SETTING = re.compile(rf"(?<![\w.])([A-Za-z_][\w.]+)\s*=\s*({_NUMBER})(?!\w|\.\d)")

_LATEX_TEXT = re.compile(r"\\(?:text|textrm|textit|textbf|math[a-z]{2,4}|operatorname)\{([^{}]*)\}")
# Units are written many ways (MB, MiB, メガバイト), and so are dates (February, 2月): they
# name no thing of the materials.
_NO_NAMES = {
    *"b kb mb gb tb pb kib mib gib tib bps kbps mbps gbps hz khz mhz ghz".split(),
    *"ns µs us ms sec min km kg mm cm db ppm".split(),
    *"january february march april may june july august september october november".split(),
    *"december monday tuesday wednesday thursday friday saturday sunday".split(),
}
# A capitalised word before a number is a numbered part of a course or a text (Lab 3,
# Lecture 6, Exercise 2, Table 1), which Japanese notes write 演習3, 第6回, 表1: no name.
_NUMBERED = re.compile(r"\s*(?:[0-9]|[IVX]+\b)")

Embed = Callable[[Sequence[str]], dict[str, np.ndarray]]


def names_in(question: str) -> list[list[str]]:
    """The names a question gives, each as its words (a run of capitalised words is one
    name: any of its words stands for it)."""
    text = unicodedata.normalize("NFKC", question)
    english = detect_language(text) == "en"
    names: list[list[str]] = []
    run_end: int | None = None  # where the last capitalised word of a run ended
    for match in _TOKEN.finditer(text):
        token = re.sub(r"['’]s$", "", match.group(0))
        opens = english and _SENTENCE_END.search(text[: match.start()]) is not None
        marked = bool(re.search(r"[0-9_]|[a-z]\.[a-z]", token)) or sum(map(str.isupper, token)) > 1
        numbered = _NUMBERED.match(text, match.end()) is not None
        capitalised = token[0].isupper() and not opens and not numbered
        common = token.casefold() in _NO_NAMES
        if len(token) < 2 or common or is_stop_word(token) or not (marked or capitalised):
            run_end = None
            continue
        if run_end is not None and not marked and text[run_end : match.start()].isspace():
            names[-1].append(token)  # Graham Twigg: one name
        else:
            names.append([token])
        run_end = None if marked else match.end()
    return names


# A Japanese term glossed in English in parentheses: 線形走査（linear scan）, トライ木（trie）
# (NFKC makes the full-width parentheses ASCII).
_GLOSS = re.compile(
    r"([\u30a0-\u30ff\u4e00-\u9fff][\u3040-\u30ff\u4e00-\u9fff]{0,11})"
    r"\s*\(\s*([a-z][a-z\-]*(?: [a-z][a-z\-]*){0,3})\s*\)"
)


def glosses_in(question: str) -> list[tuple[str, str]]:
    """The terms a Japanese question glosses in lower-case English, as (term, English): a
    capitalised gloss (Git, C1) is a name already."""
    return _GLOSS.findall(unicodedata.normalize("NFKC", question))


# an identifier: a Latin token with an underscore, or with a dot between its parts
_IDENTIFIER = re.compile(
    r"(?<![A-Za-z0-9_.])(?:[A-Za-z0-9]*_[A-Za-z0-9_]*|[A-Za-z]\w*(?:\.\w+)+)"
    r"(?![A-Za-z0-9_.])",
    re.A,
)


def identifiers_in(question: str) -> list[str]:
    """The identifiers a question names (``__consumer_offsets``, ``sieve.mc``); a
    subscript (``W_i``) or a number (``0.5``) is none."""
    text = unicodedata.normalize("NFKC", question)
    return [
        i for i in dict.fromkeys(_IDENTIFIER.findall(text))
        if len(i) > 3 and re.search(r"[A-Za-z]{2}", i)
    ]  # fmt: skip


def absent_names(question: str, passages: Sequence[Passage], embed: Embed | None) -> list[str]:
    """The names of ``question`` that no passage holds in any accepted spelling."""
    return PassageNames(passages, embed).absent(question)


class PassageNames:
    """Passages as a reader matches a name against them; read once for every question
    (or task) asked of the same passages, and only when one of them gives a name."""

    def __init__(self, passages: Sequence[Passage], embed: Embed | None):
        self.passages = passages
        self.embed = embed

    def absent(self, question: str) -> list[str]:
        return (
            self._absent_names(question)
            + [
                f"{name} = {value}"
                for name, value in settings_in(question)
                if not self._states(name, value)
            ]
            + [
                f"{term}（{english}）"
                for term, english in glosses_in(question)
                if not self._glossed(term, english)
            ]
        )

    def only_elsewhere(self, question: str, index: int) -> str:
        """An identifier of the question that the passage at ``index`` never names and
        another passage does, or ''."""
        names = identifiers_in(question)
        if not names:
            return ""
        held = self._own_texts
        own = held.get(index, "")
        return next(
            (
                name
                for name in names
                if name.casefold() not in own
                and any(name.casefold() in text for i, text in held.items() if i != index)
            ),
            "",
        )

    def _glossed(self, term: str, english: str) -> bool:
        """The passages write the term whole, in Japanese or in the English it is glossed
        with (a word of the English alone is another thing: scan is no linear scan)."""
        words = r"[\s\-]*".join(map(re.escape, re.split(r"[\s\-]+", english.casefold())))
        spelt = re.search(rf"(?<![a-z]){words}s?(?![a-z])", self._folded)
        return term in self._text or spelt is not None

    def _absent_names(self, question: str) -> list[str]:
        names = names_in(question)
        katakana = self.katakana_absent(question)
        if not names:
            return katakana
        missing = [" ".join(name) for name in names if not any(map(self._holds, name))]
        if detect_language(self._text) == "ja":  # a name written in Japanese
            missing = self._unmatched(missing, lambda: self._japanese)
        return missing + katakana

    def katakana_absent(self, question: str) -> list[str]:
        """The katakana names of ``question`` the passages write neither in katakana nor in
        English (ダイクストラ where the notes say Dijkstra is held). A compound is absent when
        neither it nor one of its words is held (スキップ of スキップリスト): its common words
        (リスト) are everywhere, and it may be paraphrased around them (サンプルコード, "the
        example code"). A word of a compound too short to tell by its consonants (ポート,
        PT: part, pot, put) counts as held."""
        names = [n for n in katakana_names(question) if not self._katakana_held("".join(n))]
        unheld = {
            p for name in names for p in name
            if (len(name) == 1 or len(katakana_skeleton(p)) >= 3) and not self._katakana_held(p)
        }  # fmt: skip
        unheld = set(self._unmatched(sorted(unheld), lambda: self._english))
        return ["".join(name) for name in names if unheld.intersection(name)]

    def _unmatched(self, names: list[str], words_of: Callable[[], list[str]]) -> list[str]:
        """The names no word of the other script stands for (USE-m3, SAME_NAME_ACROSS_SCRIPTS);
        the words are read only when there is a name to match."""
        if not names or self.embed is None:
            return names
        words = words_of()
        if not words:
            return names
        vectors = self.embed([*names, *words])
        matrix = np.stack([vectors[w] for w in words])
        return [n for n in names if (matrix @ vectors[n]).max() < SAME_NAME_ACROSS_SCRIPTS]

    def _katakana_held(self, word: str) -> bool:
        return word in self._katakana_text or bool(
            english_spellings(word, self._text, min_consonants=3)
        )

    def _states(self, name: str, value: str) -> bool:
        setting = (name.casefold(), value)
        return (
            setting in self._settings
            or _in_prose(self._folded, *setting)
            or any(_tabulates(block, *setting) for block in self._blocks)
        )

    def _holds(self, name: str) -> bool:
        word = name.casefold()
        stem = _INFLECTION.sub("", word)
        return (
            word in self._folded
            or re.sub(r"[\s\-_]+", "", word) in self._squashed
            or (len(stem) >= 3 and stem in self._folded)
            or name in self._acronyms
            or any(_misspelt(word, w) for w in self._words)
            or self._holds_parts(word)
        )

    def _holds_parts(self, word: str) -> bool:
        """A dotted name's last two parts, each a word of the passages: code defines
        ``ExternalFee.fee`` as ``class ExternalFee`` and its ``def fee``, and a module is
        imported under another name (``np.linalg.lstsq`` is ``numpy.linalg.lstsq``)."""
        parts = word.split(".")
        if len(parts) < 2 or not all(parts[-2:]):
            return False
        return all(
            re.search(rf"(?<![a-z0-9_]){re.escape(part)}(?![a-z0-9_])", self._folded)
            for part in parts[-2:]
        )

    @cached_property
    def _own_texts(self) -> dict[int, str]:
        """What each passage itself says, with its heading (not the chunks around it),
        folded; read once for every task judged on the same passages."""
        return {p.index: _own_text(p).casefold() for p in self.passages}

    @cached_property
    def _text(self) -> str:
        raw = "\n".join(
            f"{p.heading}\n{p.text}\n{p.context}\n{p.neighbours}" for p in self.passages
        )
        return unicodedata.normalize("NFKC", _as_typeset(raw.replace("\u00a0", " ")))

    @cached_property
    def _settings(self) -> set[tuple[str, str]]:
        return {(name.casefold(), value) for name, value in settings_in(self._text)}

    @cached_property
    def _folded(self) -> str:
        return self._text.casefold()

    @cached_property
    def _blocks(self) -> list[str]:
        """The passages' paragraphs and tables, each apart (a table is one block)."""
        return re.split(r"\n\s*\n", self._folded)

    @cached_property
    def _squashed(self) -> str:
        return re.sub(r"[\s\-_]+", "", self._folded)

    @cached_property
    def _words(self) -> set[str]:
        return set(_WORD.findall(self._folded))

    @cached_property
    def _acronyms(self) -> set[str]:
        return _acronyms(self._text)

    @cached_property
    def _katakana_text(self) -> str:
        return re.sub(r"[\s・･]", "", self._text)

    @cached_property
    def _english(self) -> list[str]:
        """The English words, one by one: a katakana name part is one word (Hartmann)."""
        return sorted({w for w in _LATIN_WORD.findall(self._text) if not is_stop_word(w)})

    @cached_property
    def _japanese(self) -> list[str]:
        return [w for w in content_words(self._text) if len(w) > 1 and detect_language(w) == "ja"]


def _own_text(passage: Passage) -> str:
    """What a passage itself says, with its heading (not the chunks around it)."""
    return unicodedata.normalize("NFKC", f"{passage.heading}\n{passage.text}\n{passage.context}")


def _as_typeset(text: str) -> str:
    """A formula's names as a reader sees them typeset: \\mathrm{HKDF\\text{-}Extract} is
    HKDF-Extract."""
    while (unwrapped := _LATEX_TEXT.sub(r"\1", text)) != text:
        text = unwrapped
    return text


def settings_in(text: str) -> list[tuple[str, str]]:
    """The settings a text states, as (name, value): ``lists = 1,000`` is ("lists", "1000")."""
    plain = unicodedata.normalize("NFKC", text)
    return [(m[1], _number(m[2])) for m in _SETTING.finditer(plain)]


def _number(text: str) -> str:
    """A number as written, without thousands separators or trailing decimal zeros (0.50 is
    0.5)."""
    text = text.replace(",", "")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _in_prose(text: str, name: str, value: str) -> bool:
    """The value is the first number after the name, a few characters on ("ef_search を 100
    にすると", "set lists to 1,000")."""
    for match in re.finditer(rf"(?<![\w.]){re.escape(name)}(?![\w])", text):
        number = _PROSE_NUMBER.search(text, match.end(), match.end() + _PROSE_REACH)
        if number and _number(number[0]) == value:
            return True
    return False


def _tabulates(block: str, name: str, value: str) -> bool:
    """A table (Markdown, or printed in aligned columns) with a column headed ``name`` and
    ``value`` in that column of a later row."""
    column: int | None = None
    for line in block.splitlines():
        cells = _cells(line)
        if column is not None and len(cells) > column and cells[column] == value:
            return True
        if column is None and name in cells:
            column = cells.index(name)
    return False


def _cells(line: str) -> list[str]:
    line = line.strip()
    cells = line.strip("|").split("|") if line.startswith("|") else line.split()
    return [_number(c.strip()) for c in cells]


def _acronyms(text: str) -> set[str]:
    """Initials of every run of capitalised words and of each part of it ("The American
    Automobile Association": AAA)."""
    found: set[str] = set()
    for run in _CAPITALISED_RUN.findall(text):
        initials = "".join(word[0] for word in re.split(r"[\s-]+", run) if word)
        found.update(
            initials[i:j] for i in range(len(initials)) for j in range(i + 2, len(initials) + 1)
        )
    return found


def _misspelt(name: str, word: str) -> bool:
    """``name`` is ``word`` with a typo: one or two edits in a long name, letters swapped
    or changed in a name of five ("Zeria" for Zeira), where a letter more or less makes
    another word ("Spark" is no "park"). Its numbers stay as they are."""
    if len(name) < 5 or (len(name) == 5 and len(word) != 5):
        return False
    # a typo is in letters: another number names another thing (aes-192-gcm is no aes-128-gcm)
    if re.findall(r"\d+", name) != re.findall(r"\d+", word):
        return False
    return _close(name, word)


def _close(a: str, b: str) -> bool:
    """A typo apart: one edit (two for names of eight letters or more), a swap counting
    as one."""
    limit = 1 if len(a) < 8 else 2
    if abs(len(a) - len(b)) > limit:
        return False
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return False
        previous2, previous = previous, current
    return previous[-1] <= limit
