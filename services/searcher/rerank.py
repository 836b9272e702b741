"""A second look at the fused candidates, with what fusion cannot see (seeds 000 §3③, 002 §5).

BM25 counts a question's terms wherever they stand in a chunk, and the vector reads the
chunk as a whole. Neither sees what a reader notices at once: the question's terms standing
together ("ef_search を大きくすると recall が上がる") rather than scattered over a long
chunk, each in another sentence. ``rerank`` adds that proximity, weighted, to the fused
score of the first candidates and sorts them again. Pure: the engine reads each
candidate's stored terms and the scope's document frequencies, and passes them in.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from services.searcher.fusion import Fused


@dataclass(frozen=True)
class RerankConfig:
    proximity: float = 0.0  # weight of the proximity signal, added to the fused score
    # Candidates looked at again: the first k, at least this many. Twice k measured the
    # same on every set (eval retrieval) and read twice the rows.
    pool_min: int = 10

    @property
    def active(self) -> bool:
        return self.proximity > 0


def weights_of(query_terms: Sequence[str], df: Mapping[str, int], n_chunks: int) -> dict:
    """Each distinct query term's rarity in the scope, ln(1 + N/df); a term no chunk holds
    weighs as if one did."""
    return {t: math.log(1.0 + n_chunks / max(df.get(t, 1), 1)) for t in dict.fromkeys(query_terms)}


def proximity(terms: Sequence[str], weights: Mapping[str, float]) -> float:
    """How much of the question the chunk holds, and how close together: the rarity share of
    the query terms present, times how densely the shortest window holding all of them
    holds them (distinct terms over the window's length). 0 with fewer than two present."""
    positions = [(i, t) for i, t in enumerate(terms) if t in weights]
    present = {t for _, t in positions}
    if len(present) < 2:
        return 0.0
    total = sum(weights.values())
    share = sum(weights[t] for t in present) / total if total else 0.0
    # the shortest window holding every present term once (two pointers over the positions)
    counts: dict[str, int] = {}
    best = len(terms)
    left = 0
    for end, term in positions:
        counts[term] = counts.get(term, 0) + 1
        while len(counts) == len(present):
            start, first = positions[left]
            best = min(best, end - start + 1)
            counts[first] -= 1
            if counts[first] == 0:
                del counts[first]
            left += 1
    return share * len(present) / best


def rerank(
    fused: Sequence[Fused],
    terms_of: Mapping[Hashable, Sequence[str]],
    weights: Mapping[str, float],
    config: RerankConfig,
) -> list[Fused]:
    """The candidates ``terms_of`` holds the terms of, sorted again by fused score plus the
    weighted proximity; the rest keep their place after them. Scores are the new sums."""
    looked = [f for f in fused if f.key in terms_of]
    rest = [f for f in fused if f.key not in terms_of]
    rescored = []
    for order, entry in enumerate(looked):
        bonus = config.proximity * proximity(terms_of[entry.key], weights)
        rescored.append((entry.score + bonus, order, entry))
    rescored.sort(key=lambda r: (-r[0], r[1]))
    out = []
    for score, _, entry in rescored:
        out.append(Fused(entry.key, score, dict(entry.ranks), dict(entry.scores)))
    return out + rest
