"""The second look after fusion: the question's terms side by side read closer."""

from __future__ import annotations

import pytest

from services.searcher.fusion import Fused
from services.searcher.rerank import RerankConfig, proximity, rerank, weights_of

WEIGHTS = {"ef_search": 2.0, "recall": 1.0, "上がる": 1.0}


def test_terms_side_by_side_read_closer_than_terms_a_chunk_apart():
    together = "ef_search を 大きく する と recall が 上がる".split()
    scattered = ["ef_search", *["x"] * 30, "recall", *["x"] * 30, "上がる"]
    assert proximity(together, WEIGHTS) > 3 * proximity(scattered, WEIGHTS)


def test_the_shortest_window_counts_not_the_first_one():
    # the terms first stand far apart, then side by side
    terms = ["ef_search", *["x"] * 20, "recall", "x", "ef_search", "recall", "上がる"]
    assert proximity(terms, WEIGHTS) == pytest.approx(1.0)


def test_one_term_alone_says_nothing_about_proximity():
    assert proximity(["ef_search", "x", "x"], WEIGHTS) == 0.0
    assert proximity([], WEIGHTS) == 0.0


def test_a_rare_term_weighs_more_than_a_common_one():
    rarity = weights_of(["ef_search", "recall"], {"ef_search": 2, "recall": 50}, n_chunks=100)
    assert rarity["ef_search"] > 2 * rarity["recall"]
    holds_rare = proximity(["ef_search", "上がる"], {**rarity, "上がる": rarity["recall"]})
    holds_common = proximity(["recall", "上がる"], {**rarity, "上がる": rarity["recall"]})
    assert holds_rare > holds_common


def test_rerank_lifts_the_chunk_that_holds_the_question_together():
    fused = [Fused("scattered", 1.00), Fused("together", 0.95), Fused("beyond", 0.90)]
    terms_of = {
        "scattered": ["ef_search", *["x"] * 40, "recall", *["x"] * 40, "上がる"],
        "together": ["ef_search", "を", "上げる", "と", "recall", "が", "上がる"],
    }
    order = rerank(fused, terms_of, WEIGHTS, RerankConfig(proximity=0.2))
    assert [f.key for f in order] == ["together", "scattered", "beyond"]  # beyond: not looked at
    assert order[0].score == pytest.approx(0.95 + 0.2 * proximity(terms_of["together"], WEIGHTS))


def test_without_weights_the_fused_order_stands():
    fused = [Fused("a", 1.0), Fused("b", 0.5)]
    terms_of = {"a": ["x"], "b": ["ef_search", "recall"]}
    assert not RerankConfig().active
    assert [f.key for f in rerank(fused, terms_of, WEIGHTS, RerankConfig())] == ["a", "b"]
