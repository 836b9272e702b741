"""Katakana loanwords and the English they write: cases written for each spelling rule."""

from __future__ import annotations

import pytest

from services.reasoning.extractive.loanwords import (
    english_spellings,
    katakana_names,
    transliterates,
)


@pytest.mark.parametrize(
    "katakana, english",
    [
        ("ダイクストラ", "Dijkstra"),  # Dutch ij is a vowel
        ("クラスカル", "Kruskal"),  # l and r are one sound
        ("エフェメラルポート", "ephemeral port"),  # ph is f
        ("ハートマン", "Hartmann"),  # an r before a consonant is a long vowel
        ("トゥームストーン", "tombstone"),  # the b after m is silent
        ("スキップリスト", "skip list"),  # a compound, word by word
        ("ミューテーションテスト", "mutation test"),  # tion is ション
        ("トポロジカル", "topological"),  # a soft g
        ("ストアバッファ", "store buffer"),  # a closing -re is a long vowel
        ("シャードキー", "shard key"),  # a word the dictionary lacks may join two
        ("チェビシェフ", "Chebyshev"),  # a closing v is f in a Russian name
        ("マルコフ", "Markov"),  # and its r before a consonant is sounded
        ("ルンゲ", "Runge"),  # a hard g before e
        ("ルジャンドル", "Legendre"),  # a sounded closing -dre
        ("ラプラス", "Laplace"),  # a person's name, capitalised
    ],
)
def test_a_katakana_word_writes_its_english_source(katakana, english):
    assert transliterates(katakana, english)


@pytest.mark.parametrize(
    "katakana, english",
    [
        ("インターネット", "want enter"),  # one word is not two
        ("プロセス", "plus"),  # too few consonants to tell apart
        ("トライ", "trie"),  # nor tree, try
        ("スキップリスト", "sorted list"),
        ("ラプラス", "replace"),  # a person's name is written capitalised
    ],
)
def test_a_katakana_word_does_not_write_what_only_sounds_alike(katakana, english):
    assert not transliterates(katakana, english)


def test_spellings_are_found_in_running_text_possessives_and_hyphens_included():
    text = "Dijkstra's algorithm fails with negative edges; Bellman-Ford and the Banker's algorithm"
    assert english_spellings("ダイクストラ", text) == ["Dijkstra"]
    assert english_spellings("ベルマン", text) == ["Bellman"]
    assert english_spellings("フォード", text) == ["Ford"]  # short, but a capitalised name
    assert english_spellings("バンカーズ", text) == ["Banker"]


def test_katakana_writes_an_english_plural_in_the_singular():
    text = "The accumulator keeps 8 guard bits; both filters and all policies are listed."
    assert english_spellings("ガードビット", text, min_consonants=3) == ["guard bits"]
    assert english_spellings("フィルター", text, min_consonants=3) == ["filters"]
    assert english_spellings("ポリシー", text, min_consonants=3) == ["policies"]
    assert english_spellings("ガードビット", "a guard band of 2 kHz", min_consonants=3) == []


def test_names_are_proper_nouns_unknown_words_and_compounds_not_common_words():
    names = katakana_names("ダイクストラ法とクラスカル法の違いは？")
    assert names == [["ダイクストラ"], ["クラスカル"]]
    assert katakana_names("スキップリストの探索の計算量は？") == [["スキップ", "リスト"]]
    assert katakana_names("演習レポートの提出のルールは？") == []
