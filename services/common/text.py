"""Lexical terms for BM25, shared by the ingestor (stored terms) and the searcher (query terms).

Japanese has no spaces between words. Measured with bm25s on the eval sets
(nDCG@10 / recall@10, dev split):

    tokenizer                      jsquad_ja        xquad_en     terms per paragraph (ja)
    char bigrams + Latin words     0.900 / 0.943    0.954 / 0.993    145
    SudachiPy mode A, content POS  0.894 / 0.960    0.955 / 0.993     61
    SudachiPy mode C, content POS  0.894 / 0.953    0.955 / 0.993     57
    Sudachi A + bigrams            0.911 / 0.950    0.958 / 0.990    206

Quality is a tie within the noise of 300 queries; Sudachi mode A gives the best
recall@10 with 2.4x fewer terms per chunk and per query, which makes the BM25
query in Postgres (cost ~ candidates x query terms) correspondingly cheaper.
So terms are Sudachi mode-A normalised forms of content morphemes: particles,
auxiliary verbs, symbols and blanks are dropped (their IDF is near zero anyway), except
the letters Sudachi calls symbols (Greek letters and their names).
Latin words come out of Sudachi lower-cased, digits as numbers.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Sequence

from sudachipy import dictionary, tokenizer

# Parts of speech that carry no topic: particles, auxiliary verbs, punctuation, blanks.
# Sudachi also calls Greek letters and their names symbols (記号: δ, λ, デルタ, ラムダ); in
# course materials they name parameters (ridge regression's λ, BM25+'s δ) and are searched
# for, so a 記号 made of letters is kept.
_DROPPED_POS = frozenset({"助詞", "助動詞", "補助記号", "空白", "記号"})
# A line that starts a list item, for the chunker and the engine's units alike: Markdown
# bullets and numbers, and the numbering of plain-text notes and PDFs, (1), （1）, ①, a.,
# the bullets Japanese text writes without a space (・項目, ●項目), and the ones a PDF of
# slides prints (• item, – sub-item, a Beamer theme's ▶ item).
LIST_ITEM = re.compile(
    r"^\s*(?:[-*+–]\s+|[・●○■□◆◇▪•◦‣▶►▸▹➤➢]\s*|\d{1,2}[.)．]\s+|[a-z][.)]\s+|[(（]\d{1,2}[)）]\s*"
    r"|[①-⑳]\s*)"
)
# Sudachi refuses inputs above ~49 KB; chunks are split on line breaks below this size.
_MAX_PIECE_CHARS = 4000

# Surface words never worth searching for (English); compared lower-cased.
_EN_STOP = (
    "a an the this that these those it its is are was were be been being am do does did "
    "doing have has had having of to in on at by for with from into onto about as than then "
    "and or but nor so if not no yes can could would should shall will may might must "
    "what which who whom whose when where why how whether there here i me my we our you your "
    "he she him her his they them their one ones some any all each both more most other such "
    "only own same very just also too up down out over under again further once please tell "
    "explain describe define definition meaning mean means called call named name between "
    "difference differences differ different compare compared comparison versus vs "
    "give list show kind type example examples many much get gets got make makes made "
    "take takes took according"
)
EN_STOP_WORDS = frozenset(_EN_STOP.split())

_local = threading.local()
_dictionary_lock = threading.Lock()
_dictionary: dictionary.Dictionary | None = None


def normalise(text: str) -> str:
    """NFKC folds full-width forms (Ｐｙｔｈｏｎ, ３) into their ASCII twins."""
    return unicodedata.normalize("NFKC", text).lower()


def _tokenizer() -> tokenizer.Tokenizer:
    """One Sudachi tokenizer per thread (they are not thread-safe); one shared dictionary."""
    global _dictionary
    tok = getattr(_local, "tokenizer", None)
    if tok is None:
        with _dictionary_lock:
            if _dictionary is None:
                _dictionary = dictionary.Dictionary(dict="core")
        tok = _local.tokenizer = _dictionary.tokenizer(mode=tokenizer.Tokenizer.SplitMode.A)
    return tok


def _pieces(text: str) -> list[str]:
    pieces: list[str] = []
    for line in text.splitlines():
        while len(line) > _MAX_PIECE_CHARS:
            pieces.append(line[:_MAX_PIECE_CHARS])
            line = line[_MAX_PIECE_CHARS:]
        if line.strip():
            pieces.append(line)
    return pieces


def lexical_terms(text: str) -> list[str]:
    """Terms in order of occurrence, one entry per occurrence."""
    tok = _tokenizer()
    terms: list[str] = []
    for piece in _pieces(normalise(text)):
        for morpheme in tok.tokenize(piece):
            pos = morpheme.part_of_speech()[0]
            if pos in _DROPPED_POS and not (pos == "記号" and morpheme.surface().isalpha()):
                continue
            term = morpheme.normalized_form().lower().strip()
            if term:
                terms.append(term)
    return terms


def chunk_terms(heading_path: Sequence[str], text: str) -> list[str]:
    """The terms a chunk is indexed by: its text's and its headings'. A paragraph under
    "梅雨" is about 梅雨 even when it never names it (eval: +0.02 nDCG@10, +0.01 recall@10 on
    jsquad_ja)."""
    return lexical_terms("\n".join([*heading_path, text]))


# What ``vocabulary_terms`` keeps: words that name things or actions. Numbers, auxiliary
# uses (し → 為る, ください → 下さる), adnominals (その → 其の) and adverbs translate into noise.
_VOCABULARY_POS = frozenset({"名詞", "動詞", "形容詞"})
_NOT_VOCABULARY_POS = frozenset({"数詞", "非自立可能"})
# A Japanese character: kana and CJK ideographs (the extension A block and the unified block).
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"[a-z][a-z-]*")


def script_of(term: str) -> str | None:
    """The script of a term, "ja" or "latin"; None for numbers and signs."""
    if JAPANESE.search(term):
        return "ja"
    if _LATIN_WORD.fullmatch(term):
        return "latin"
    return None


def vocabulary_terms(text: str) -> list[str]:
    """Distinct terms of ``text`` as ``lexical_terms`` writes them (and BM25 matches them)
    that are words worth translating into the other script: content words, Japanese of two
    characters or more, Latin words of four letters or more that are not stop words. A
    single kanji (化, 相) has near neighbours in every language, and short Latin words are
    mostly abbreviations and code names (hnsw, nan, acks), which Japanese notes write in
    Latin letters too. Sudachi writes many English words in katakana (rank → ランク, and → アンド):
    those pass when the English word does."""
    words = _content_words(text)
    return list(dict.fromkeys(t for s, t in words if translatable(s) and translatable(t)))


def query_words(text: str) -> list[str]:
    """The words of a question to translate, as written (lower-cased): "overlap", not the
    katakana Sudachi normalises it to, since its translation (重ねる) is what the notes may
    hold. Only words in the question's own script: a Japanese question that names
    something in Latin letters (Observer Group, StandardScaler) names it as written."""
    own = text_script(text)
    words = (s for s, _ in _content_words(text) if translatable(s))
    return list(dict.fromkeys(w for w in words if script_of(w) == own))


def text_script(text: str) -> str:
    """The script ``text`` is mainly written in: Japanese unless Latin letters outnumber
    Japanese characters three to one (a kanji carries about as much as a short English
    word). The same rule as ``chunks.script`` (``search_text_script``, migration 0006)."""
    latin = sum(1 for c in text if c.isascii() and c.isalpha())
    return "latin" if latin > 3 * len(JAPANESE.findall(text)) else "ja"


def _content_words(text: str) -> list[tuple[str, str]]:
    """(surface, normalised form) of the content morphemes of ``text``, lower-cased."""
    tok = _tokenizer()
    found = []
    for piece in _pieces(normalise(text)):
        for morpheme in tok.tokenize(piece):
            pos = morpheme.part_of_speech()
            if pos[0] in _VOCABULARY_POS and pos[1] not in _NOT_VOCABULARY_POS:
                found.append((morpheme.surface().strip(), morpheme.normalized_form().lower()))
    return found


def translatable(word: str) -> bool:
    """A word worth translating into the other script (``vocabulary_terms``)."""
    script = script_of(word)
    if script == "ja":
        return len(word) >= 2
    return script == "latin" and len(word) >= 4 and word not in EN_STOP_WORDS


def inflected_spans(text: str) -> list[tuple[int, int]]:
    """(begin, end) character offsets of the verbs and adjectives in ``text`` (not
    normalised, so offsets index ``text`` itself): 生まれ in いつ頃生まれたか."""
    tok = _tokenizer()
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.strip() and len(line) <= _MAX_PIECE_CHARS:
            for m in tok.tokenize(line):
                if m.part_of_speech()[0] in ("動詞", "形容詞"):
                    spans.append((offset + m.begin(), offset + m.end()))
        offset += len(line)
    return spans


def morphemes(text: str) -> list[tuple[str, str]]:
    """(surface, part of speech) of each morpheme, for callers that rebuild words from them
    (compound nouns); lines above Sudachi's size limit are cut like ``lexical_terms`` does."""
    return [(surface, pos[0]) for surface, pos, _ in tagged_morphemes(text)]


def tagged_morphemes(text: str) -> list[tuple[str, tuple[str, ...], bool]]:
    """(surface, the first three levels of its part of speech, unknown to the dictionary)
    of each morpheme: 名詞 固有名詞 人名 marks a name (ダイクストラ)."""
    tok = _tokenizer()
    return [
        (m.surface(), tuple(m.part_of_speech()[:3]), m.is_oov())
        for piece in _pieces(unicodedata.normalize("NFKC", text))
        for m in tok.tokenize(piece)
    ]


def person_names(text: str) -> list[tuple[str, str]]:
    """(surface, reading in katakana) of each morpheme the dictionary calls a person's name
    (名詞 固有名詞 人名: 樋口, 国枝, ラプラス)."""
    tok = _tokenizer()
    return [
        (m.surface(), m.reading_form())
        for piece in _pieces(unicodedata.normalize("NFKC", text))
        for m in tok.tokenize(piece)
        if tuple(m.part_of_speech()[1:3]) == ("固有名詞", "人名")
    ]


def inside_parentheses(text: str, at: int, reach: int = 100) -> bool:
    """Is position ``at`` inside full-width parentheses opened earlier on its line, which
    close within ``reach`` characters? A full stop there ends no sentence:
    "提出物（表紙を付ける。PDF に限る）は月曜まで" is one sentence. An unclosed （ decides
    nothing."""
    line_start = text.rfind("\n", 0, at) + 1
    if "（" not in text[line_start:at]:  # the common case, found without a Python loop
        return False
    depth = 0
    for char in text[line_start:at]:
        if char == "（":
            depth += 1
        elif char == "）" and depth:
            depth -= 1
    if not depth:
        return False
    line_end = text.find("\n", at)
    ahead = text[at : min(at + reach, line_end if line_end >= 0 else len(text))]
    return "）" in ahead


def fenced(body: str, info: str = "") -> str:
    """``body`` as a fenced Markdown block (``info`` after the opening fence): the fence is
    longer than any run of backticks in the body, so no line of it can close the block
    early. The ingestor writes a notebook's cells so, the engine its quoted code."""
    fence = "`" * max(3, _longest_backtick_run(body) + 1)
    return f"{fence}{info}\n{body}\n{fence}"


def _longest_backtick_run(text: str) -> int:
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return longest
