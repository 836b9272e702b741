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
