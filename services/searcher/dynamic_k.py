"""How many chunks one search returns: k = f(N) x complexity x retry expansion, the
expansion bounded by 3 x sqrt(N).

The caller never chooses k (seed 000): the searcher knows the scope size N and
the session's retry count. f grows with log N because a dense corpus needs a
wider net to see past near-duplicates, and a tiny one would only add noise.
"""

from __future__ import annotations

import math

# (N, k) anchors of f; log-linear between them, flat outside.
F_ANCHORS: tuple[tuple[int, float], ...] = ((1_000, 5.0), (100_000, 20.0), (1_000_000, 50.0))
MIN_COMPLEXITY, MAX_COMPLEXITY = 1.0, 2.0
# Each retry widens by sqrt(10): 5 -> 16 -> 50, the exponential search of seed 000.
RETRY_GROWTH = math.sqrt(10.0)
K_CAP = 200
# The growth stops at 3 x sqrt(N): half of a 100-chunk subject on retry 2 (k=50) would be no
# search at all, while a 40-chunk one should still widen from 10 (k 10 -> 19). A first
# search's k is never cut by it.
GROWTH_LIMIT_PER_SQRT_N = 3.0


def base_k(n_scope: int) -> float:
    """f(N): 5 below 1,000 chunks, 20 at 100,000, 50 from 1,000,000, log-interpolated."""
    if n_scope <= F_ANCHORS[0][0]:
        return F_ANCHORS[0][1]
    for (n0, k0), (n1, k1) in zip(F_ANCHORS, F_ANCHORS[1:], strict=False):
        if n_scope < n1:
            share = math.log(n_scope / n0) / math.log(n1 / n0)
            return k0 + share * (k1 - k0)
    return F_ANCHORS[-1][1]


def choose_k(n_scope: int, complexity: float = 1.0, retry: int = 0, cap: int = K_CAP) -> int:
    """Dynamic k; never above ``cap``. complexity 1.0 = a definition, 2.0 = a comparison."""
    if n_scope < 0 or retry < 0:
        raise ValueError("n_scope and retry must not be negative")
    if math.isnan(complexity):
        raise ValueError("complexity must be a number")
    complexity = min(max(complexity, MIN_COMPLEXITY), MAX_COMPLEXITY)
    first = base_k(n_scope) * complexity
    grown = first * RETRY_GROWTH ** min(retry, 10)
    k = min(grown, max(first, GROWTH_LIMIT_PER_SQRT_N * math.sqrt(n_scope)))
    return max(1, min(cap, math.ceil(k - 1e-9)))
