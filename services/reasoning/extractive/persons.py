"""People a question asks about, and whether the unit that would answer speaks of them.

A question about a TA's office hours, over a syllabus that gives only the lecturer's,
matches the row "オフィスアワー | 国枝：月曜 14:40〜16:10" on every word but the name: a
person's attribute given for another person. A question names a person by a title (樋口
さん, 国枝先生, Dr. Okonkwo, TA Lindgren), so that a method named after one (ダイクストラ法,
Welch's t test) is no person asked about. A unit names a person by a kanji name the
dictionary knows (国枝, 樋口) or by a titled one (Lindgren 先生, Dr Okonkwo); katakana
names in notes are mostly a law's or a method's (ヘスの法則, ガウス・ザイデル法). The same
person may be written in the other script (沖田 in the question, Dr. Okita in English
notes): the kanji name's reading and the Latin name are compared by their consonants, as
loanwords are.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from services.common.text import person_names, tagged_morphemes
from services.reasoning.extractive.loanwords import english_skeletons, katakana_skeleton
from services.reasoning.extractive.text import detect_language
from services.reasoning.extractive.words import content_words

Embed = Callable[[Sequence[str]], dict[str, np.ndarray]]

_KANJI_NAME = re.compile(r"[\u4e00-\u9fff々]+")
# the words a Japanese question names a person with, after the name
_TITLE_AFTER = ("さん", "先生", "教授", "准教授", "講師", "氏", "くん", "君")
_TITLED_LATIN = re.compile(
    r"\b(?:Dr|Prof|Professor|TA|Mr|Ms|Mrs)\.?\s+(?:[A-Z][a-z]+\s+)?([A-Z][a-z]+)"
    r"|\b([A-Z][a-z]+)\s*(?:" + "|".join(_TITLE_AFTER) + ")"
)


@lru_cache(maxsize=1024)  # judged again at every iteration of a session
def asked_persons(question: str) -> tuple[str, ...]:
    """The people the question names by a title: 樋口 (TAの樋口さん), Okonkwo (Dr.
    Okonkwo's phone extension). Before a title a surname the dictionary takes for a place
    (佐伯先生: 地名) is a person too."""
    question = unicodedata.normalize("NFKC", question)
    found = [a or b for a, b in _TITLED_LATIN.findall(question)]
    words = [(w, p) for w, p, _ in tagged_morphemes(question) if w.strip()]
    for at, (surface, pos) in enumerate(words):
        if pos[1:2] != ("固有名詞",) or not _KANJI_NAME.fullmatch(surface):
            continue
        after = [w for w, _ in words[at + 1 : at + 3]]
        given = after[:1] and words[at + 1][1][1:3] == ("固有名詞", "人名")
        if after[:1] and after[0] in _TITLE_AFTER:
            found.append(surface)
        elif given and after[1:] and after[1] in _TITLE_AFTER:  # 樋口 遼さん: the surname
            found.append(surface)
            words[at + 1] = ("", ())
    return tuple(dict.fromkeys(found))


def speaks_of_another(asked: Sequence[str], text: str, context: str = "") -> str:
    """The person the unit names instead of the ones asked about, or "" when it names one
    of them (in its text or its lead-in) or nobody."""
    text, context = unicodedata.normalize("NFKC", text), unicodedata.normalize("NFKC", context)
    if not asked or any(_names(person, f"{context}\n{text}") for person in asked):
        return ""
    kanji = [s for s, _ in person_names(text) if _KANJI_NAME.fullmatch(s)]
    latin = [a or b for a, b in _TITLED_LATIN.findall(text)]
    return next(iter([*kanji, *latin]), "")


def asked_of(persons: Sequence[str], question: str) -> list[str]:
    """What the question asks of the people it names: its content words without the names,
    their titles and what says who they are (オフィスアワー of TAの樋口さんのオフィスアワー;
    phone extension)."""
    question = unicodedata.normalize("NFKC", question)
    titles = {t.casefold() for t in (*_TITLE_AFTER, "Dr", "Prof", "Professor", "TA", "Mr", "Ms")}
    # "s office hours" is what the possessive of "Dr Okonkwo's office hours" leaves
    words = [
        w.removeprefix("s ")
        for w in content_words(question)
        if len(w) > 1
        and w.casefold() not in titles
        and not any(p.casefold() in w.casefold() for p in persons)
    ]
    # who the person is says nothing asked of them: 経理課 of 経理課の早瀬さんの内線番号
    squeezed = re.sub(r"\s+", "", question)
    words = [
        w
        for w in words
        if not any(re.search(rf"{re.escape(w)}\w*の{re.escape(p)}", squeezed) for p in persons)
    ]
    # a compound whole: its parts alone sit near unrelated words (アワー ↔ 中和 0.56)
    return [w for w in words if not any(w != other and w in other for other in words)]


def holds_any(words: list[str], text: str, embed: Embed | None, floor: tuple[float, float]) -> bool:
    """Does the text hold one of the words, itself or a word the embedder puts at least
    ``floor`` close (same script, across scripts)?"""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if any(w.casefold() in folded for w in words):
        return True
    # a letter or a number stands for no word (the Q of "Q:" sits at 0.53 from アワー)
    theirs = [
        t
        for t in content_words(unicodedata.normalize("NFKC", text))
        if len(t) > 1 and not t.isdigit()
    ]
    if embed is None or not theirs:
        return False
    vectors = embed([*words, *theirs])
    for w in words:
        for t in theirs:
            across = detect_language(w) != detect_language(t)
            if float(np.dot(vectors[w], vectors[t])) >= floor[across]:
                return True
    return False


def _names(person: str, text: str) -> bool:
    """Does the text name the person, in either script?"""
    if person.casefold() in text.casefold():
        return True
    if _KANJI_NAME.fullmatch(person):  # 沖田 asked, "Dr. Okita" written
        reading = next((r for s, r in person_names(person) if s == person), "")
        sound = katakana_skeleton(reading)
        return bool(sound) and any(
            sound in english_skeletons(word) for word in re.findall(r"[A-Z][a-z]+", text)
        )
    # Okita asked, オキタ written
    sounds = english_skeletons(person)
    return any(katakana_skeleton(reading) in sounds for _, reading in person_names(text))
