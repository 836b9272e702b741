"""Fusing ranked lists from several retrievers into one, keeping each source's rank and score.

Three methods, all pure:

- ``rrf``: Reciprocal Rank Fusion, sum of w_s / (c + rank_s); ranks only, so it
  needs no score calibration. Equal weights are "plain RRF".
- ``convex``: score-normalised convex combination, sum of w_s * norm(score_s),
  with min-max normalisation per list; a document missing from a list gets 0.
- ``fuse``: dispatch by :class:`FusionConfig`.

The default configuration is chosen by measurement (``tools.evaluation.retrieval``);
see ``DEFAULT_FUSION`` for the figures.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

Method = Literal["rrf", "convex"]


@dataclass(frozen=True)
class Hit:
    """One retriever's result: an id and its raw score (higher = better)."""

    key: Hashable
    score: float


@dataclass
class Fused:
    key: Hashable
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # 1-based rank per source
    scores: dict[str, float] = field(default_factory=dict)  # raw score per source


@dataclass(frozen=True)
class FusionConfig:
    method: Method = "rrf"
    weights: Mapping[str, float] = field(default_factory=dict)  # missing source = 1.0
    rrf_constant: float = 60.0
    # Sources whose scores are already on [0, 1] (convex fusion takes them as they are).
    absolute: frozenset[str] = frozenset()

    def weight(self, source: str) -> float:
        return float(self.weights.get(source, 1.0))


def _collect(lists: Mapping[str, Sequence[Hit]]) -> dict[Hashable, Fused]:
    fused: dict[Hashable, Fused] = {}
    for source, hits in lists.items():
        for rank, hit in enumerate(hits, start=1):
            entry = fused.setdefault(hit.key, Fused(hit.key, 0.0))
            if source not in entry.ranks:  # a list repeating a key counts its best rank
                entry.ranks[source] = rank
                entry.scores[source] = hit.score
    return fused


def _ordered(fused: dict[Hashable, Fused]) -> list[Fused]:
    # Ties break on the best single rank, then on first appearance: deterministic.
    order = {key: i for i, key in enumerate(fused)}
    return sorted(
        fused.values(),
        key=lambda f: (-f.score, min(f.ranks.values()), order[f.key]),
    )


def rrf(lists: Mapping[str, Sequence[Hit]], config: FusionConfig = FusionConfig()) -> list[Fused]:
    if config.rrf_constant < 0:
        raise ValueError("the RRF constant must not be negative")
    fused = _collect(lists)
    for entry in fused.values():
        entry.score = sum(
            config.weight(source) / (config.rrf_constant + rank)
            for source, rank in entry.ranks.items()
        )
    return _ordered(fused)


def _min_max(hits: Sequence[Hit]) -> dict[Hashable, float]:
    if not hits:
        return {}
    values = [h.score for h in hits]
    low, high = min(values), max(values)
    span = high - low
    # A list whose scores are all equal says only "these matched": give them 1.
    return {h.key: (h.score - low) / span if span > 0 else 1.0 for h in hits}


def convex(
    lists: Mapping[str, Sequence[Hit]], config: FusionConfig = FusionConfig()
) -> list[Fused]:
    fused = _collect(lists)
    for source, hits in lists.items():
        if source in config.absolute:
            normalised = {h.key: h.score for h in hits}
        else:
            normalised = _min_max(hits)
        for key, value in normalised.items():
            fused[key].score += config.weight(source) * value
    return _ordered(fused)


def single_source(item: tuple[str, Sequence[Hit]]) -> list[Fused]:
    """One retriever alone: its own order and raw scores."""
    source, hits = item
    fused = _collect({source: hits})
    for entry in fused.values():
        entry.score = entry.scores[source]
    return list(fused.values())


def fuse(lists: Mapping[str, Sequence[Hit]], config: FusionConfig) -> list[Fused]:
    if config.method == "rrf":
        return rrf(lists, config)
    if config.method == "convex":
        return convex(lists, config)
    raise ValueError(f"unknown fusion method {config.method!r}")


PLAIN_RRF = FusionConfig(method="rrf", rrf_constant=60.0)
# Chosen on jsquad_ja dev as the best nDCG@10 of ``eduanima eval retrieval --sweep``
# (engine, k=20, 40 per list; nDCG@10 / recall@10):
#   bm25 alone 0.9164 / 0.970, vector alone 0.7352 / 0.870, plain RRF c=60 0.8574 / 0.947,
#   weighted RRF bm25x1.5..3, c=10..60: 0.863-0.902, convex min-max with bm25 weight
#   0.5 0.897, 0.6 0.909, 0.7 0.917, 0.8 0.917 / 0.967, 0.85 0.921 / 0.970,
#   0.9 0.917 / 0.970. USE-m3 is much weaker than BM25 on these SQuAD-style questions,
#   so rank-only fusion lets weak vector hits displace strong lexical ones; score fusion
#   keeps the size of each retriever's margin. On xquad_en, where the vector is nearly as
#   good, 0.85 still beats BM25 alone (0.964 vs 0.957) though a lower weight would do
#   better there (0.5: 0.978): the weight is the dev split's best, not each set's peak.
#
# "chars" (services/searcher/chars.py) is a third list only for queries naming an identifier
# (hnsw.iterative_scan, SF-E5003, cs318-embed-small). Its score is already on [0, 1]: the
# identifier's rarity, ln(1 + N/df) over ln(1 + N), so a string in one chunk gives that chunk
# the full weight 1.0 and it outranks chunks that merely share the string's pieces with BM25,
# while a name the material repeats (ShelfFinder in its design document, 8 of 171 chunks)
# gives about 0.6 and no longer displaces BM25's best chunk (min-max normalised, all holders
# of one string had tied at 1.0). `eduanima eval retrieval`, service conditions (real
# chunker, dynamic k=5), hit@k / MRR@k, chars min-max -> absolute: course 0.7835 / 0.6591 ->
# 0.8557 / 0.7361, course identifiers (25 questions) 1.0 / 0.96 -> 1.0 / 0.94, course_ml
# 0.8289 / 0.6814 -> 0.8158 / 0.6781, jsquad_ja 0.96 / 0.9022 and xquad_en 0.9867 / 0.9475
# unchanged. Without the list at all: course 0.866 / 0.753, identifiers 0.96 / 0.8467,
# course_ml 0.7895 / 0.6331. The ideal-condition hybrid figures are unchanged by it.
DEFAULT_FUSION = FusionConfig(
    method="convex",
    weights={"bm25": 0.85, "vector": 0.15, "chars": 1.0},
    absolute=frozenset({"chars"}),
)
