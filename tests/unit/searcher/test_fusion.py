import pytest

from services.searcher.fusion import (
    DEFAULT_FUSION,
    FusionConfig,
    Hit,
    convex,
    fuse,
    rrf,
    single_source,
)

LISTS = {
    "bm25": [Hit("a", 9.0), Hit("b", 5.0), Hit("c", 1.0)],
    "vector": [Hit("c", 0.9), Hit("a", 0.8), Hit("d", 0.1)],
}


def test_rrf_sums_reciprocal_ranks_and_keeps_sources():
    fused = {f.key: f for f in rrf(LISTS, FusionConfig("rrf", rrf_constant=60))}
    assert fused["a"].score == pytest.approx(1 / 61 + 1 / 62)
    assert fused["d"].score == pytest.approx(1 / 63)
    assert fused["a"].ranks == {"bm25": 1, "vector": 2}
    assert fused["a"].scores == {"bm25": 9.0, "vector": 0.8}
    assert fused["b"].ranks == {"bm25": 2}
    assert [f.key for f in rrf(LISTS)] == ["a", "c", "b", "d"]


def test_weighted_rrf_favours_the_heavier_source():
    heavy_vector = FusionConfig("rrf", {"bm25": 1.0, "vector": 5.0}, rrf_constant=1)
    assert [f.key for f in rrf(LISTS, heavy_vector)][0] == "c"


def test_convex_uses_min_max_normalised_scores():
    fused = {f.key: f for f in convex(LISTS, FusionConfig("convex", {"bm25": 0.5, "vector": 0.5}))}
    assert fused["a"].score == pytest.approx(0.5 * 1.0 + 0.5 * (0.7 / 0.8))
    assert fused["b"].score == pytest.approx(0.5 * 0.5)
    assert fused["d"].score == pytest.approx(0.0)


def test_convex_takes_an_absolute_source_as_it_is():
    lists = {"bm25": [Hit("a", 9.0), Hit("b", 3.0)], "chars": [Hit("b", 0.6), Hit("c", 0.5)]}
    config = FusionConfig("convex", {"bm25": 0.85, "chars": 1.0}, absolute=frozenset({"chars"}))
    fused = {f.key: f.score for f in convex(lists, config)}
    # min-max would give c 0.0 and b 1.0; as they are, c keeps 0.5 and b 0.6 + 0
    assert fused == pytest.approx({"a": 0.85, "b": 0.6, "c": 0.5})


def test_convex_with_equal_scores_does_not_divide_by_zero():
    fused = convex({"bm25": [Hit("x", 2.0), Hit("y", 2.0)]}, FusionConfig("convex"))
    assert [f.score for f in fused] == [1.0, 1.0]


def test_ties_break_deterministically_on_best_rank():
    lists = {"bm25": [Hit("a", 1), Hit("b", 1)], "vector": [Hit("b", 1), Hit("a", 1)]}
    assert [f.key for f in rrf(lists)] == ["a", "b"]
    assert [f.key for f in rrf(lists)] == [f.key for f in rrf(lists)]


def test_single_source_keeps_raw_scores_and_order():
    fused = single_source(("bm25", LISTS["bm25"]))
    assert [(f.key, f.score, f.ranks) for f in fused][0] == ("a", 9.0, {"bm25": 1})


def test_default_fusion_is_lexical_leaning_score_fusion():
    assert DEFAULT_FUSION.method == "convex"
    assert DEFAULT_FUSION.weight("bm25") > DEFAULT_FUSION.weight("vector")
    assert [f.key for f in fuse(LISTS, DEFAULT_FUSION)][0] == "a"


def test_unknown_method_and_bad_constant():
    with pytest.raises(ValueError):
        fuse(LISTS, FusionConfig("nope"))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        rrf(LISTS, FusionConfig("rrf", rrf_constant=-1))
