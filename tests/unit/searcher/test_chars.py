"""Which query strings the character list searches for, as written."""

from __future__ import annotations

import pytest

from services.searcher.chars import _like_pattern, identifier_like, literal_spans


@pytest.mark.parametrize(
    "token",
    ["hnsw.iterative_scan", "SF-E5003", "cs318-embed-small", "ShelfFinder", "E5003", "a/b1", "x:y"],
)
def test_identifiers_are_searched(token):
    assert identifier_like(token)


@pytest.mark.parametrize("token", ["scan", "HNSW", "1973", "0.4", "3-2", "ab", "A1", "Windows"])
def test_plain_words_numbers_and_short_tokens_are_left_to_bm25(token):
    assert not identifier_like(token)


def test_spans_are_lower_cased_deduplicated_in_order_and_skip_japanese():
    spans = literal_spans(
        ["hnsw.iterative_scan は何のために有効にするの？", "HNSW.iterative_scan と SF-E5003"]
    )
    assert spans == ["hnsw.iterative_scan", "sf-e5003"]
    assert literal_spans(["反復インデックススキャンとは"]) == []


def test_like_wildcards_in_identifiers_are_escaped():
    # "_" in iterative_scan must match itself, not any character
    assert _like_pattern("iterative_scan") == "%iterative\\_scan%"
    assert _like_pattern("100%") == "%100\\%%"
