"""Soft keyword matching: a word of a unit close to a keyword in the embedding space stands
for it. Across scripts (an English keyword, a Japanese word) the credit is full sooner than
within one language, since a translation sits lower than a same-language synonym and no
term can match exactly. The embedder here is a table of vectors chosen for the case, so the
similarities are exact."""

from __future__ import annotations

import numpy as np
import pytest

from services.reasoning.extractive.scoring import (
    SOFT_FLOOR,
    SOFT_FULL,
    SOFT_FULL_ACROSS_SCRIPTS,
    UnitScorer,
)
from services.reasoning.llm import Passage, PlannedTask

SIMILARITY = 0.6  # a translation's typical distance (tombstone ↔ トゥームストーン: 0.59)


class TableEmbedder:
    """'tombstone' on the first axis; its translation and an English near-synonym both at
    cosine SIMILARITY from it, on axes of their own; every other text orthogonal."""

    name = "table"
    dimension = 64

    def __init__(self) -> None:
        axes = np.eye(self.dimension)
        side = np.sqrt(1 - SIMILARITY**2)
        self.fixed = {
            "tombstone": axes[0],
            "トゥームストーン": SIMILARITY * axes[0] + side * axes[1],
            "gravestone": SIMILARITY * axes[0] + side * axes[2],
        }

    def embed(self, texts):
        rows = []
        for text in texts:
            if text in self.fixed:
                rows.append(self.fixed[text])
            else:  # a free axis per text keeps the rest unrelated
                axis = 3 + (sum(map(ord, text)) % (self.dimension - 3))
                rows.append(np.eye(self.dimension)[axis])
        return np.array(rows, dtype=np.float32)


def own_cover(text: str) -> float:
    task = PlannedTask("T1", "When is a tombstone removed?", keywords=["tombstone"])
    ranked = UnitScorer(TableEmbedder()).score([task], [Passage(0, text, ranks={"dense": 1})])
    return ranked["T1"][0].signals.cover_unit


def test_the_thresholds_put_a_translation_at_full_credit_and_a_synonym_below_it():
    assert SOFT_FLOOR < SOFT_FULL_ACROSS_SCRIPTS <= SIMILARITY < SOFT_FULL


def test_a_translation_in_the_other_script_counts_as_the_keyword():
    assert own_cover("トゥームストーンは24時間後に消える。") == pytest.approx(1.0)


def test_a_same_language_neighbour_at_the_same_distance_counts_in_part():
    expected = (SIMILARITY - SOFT_FLOOR) / (SOFT_FULL - SOFT_FLOOR)
    assert own_cover("The gravestone is removed after a day.") == pytest.approx(expected, abs=0.01)


class PhraseEmbedder(TableEmbedder):
    """'heat engine' on the first axis. エンジン sits at 0.7 from it but at 0.9 from its part
    'engine'; 熱機関, its translation, at 0.7 from it and far from 'engine'."""

    def __init__(self) -> None:
        super().__init__()
        axes = np.eye(self.dimension)
        self.fixed = {
            "heat engine": axes[0],
            "engine": 0.6 * axes[0] + 0.8 * axes[1],
            "エンジン": 0.7 * axes[0] + 0.6 * axes[1] + np.sqrt(0.15) * axes[2],
            "熱機関": 0.7 * axes[0] + np.sqrt(0.51) * axes[3],
        }


def phrase_cover(question: str, text: str) -> float:
    task = PlannedTask("T1", question, keywords=["heat engine"])
    ranked = UnitScorer(PhraseEmbedder()).score([task], [Passage(0, text, ranks={"dense": 1})])
    return ranked["T1"][0].signals.cover_unit


def test_what_a_thing_is_asked_where_a_word_translates_only_a_part_of_its_name():
    # エンジン translates "engine", not "heat engine": asked what a heat engine is, it
    # holds half the name, word by word; asked anything else of it, the whole as before
    definition = "heat engine とは何ですか？"
    assert phrase_cover(definition, "エンジンは回る。") == pytest.approx(0.5, abs=0.01)
    assert phrase_cover(definition, "熱機関は回る。") == pytest.approx(1.0)
    assert phrase_cover("How efficient is a heat engine?", "エンジンは回る。") == pytest.approx(1.0)
