import math

import pytest

from services.searcher.dynamic_k import K_CAP, base_k, choose_k


def test_anchors_of_f():
    assert base_k(10) == 5
    assert base_k(999) == 5
    assert base_k(100_000) == pytest.approx(20)
    assert base_k(1_000_000) == 50
    assert base_k(50_000_000) == 50


def test_f_is_log_interpolated_and_monotonic():
    # 10,000 is half way (in log) from 1,000 to 100,000
    assert base_k(10_000) == pytest.approx(12.5)
    values = [base_k(n) for n in (1, 500, 1_000, 3_000, 10_000, 99_999, 100_000, 300_000, 10**6)]
    assert values == sorted(values)


def test_complexity_scales_and_is_clamped():
    assert choose_k(500, 1.0) == 5
    assert choose_k(500, 2.0) == 10
    assert choose_k(500, 7.0) == 10
    assert choose_k(500, 0.1) == 5


def test_retries_widen_exponentially_with_a_cap():
    assert [choose_k(500, 1.0, r) for r in range(3)] == [5, 16, 50]
    assert choose_k(10**7, 2.0, 4) == K_CAP
    assert choose_k(10**7, 2.0, 10**6) == K_CAP


def test_retry_growth_respects_the_scope_size():
    # 100 chunks: the growth stops at 3 x sqrt(100) = 30, never at 50
    assert [choose_k(100, 1.0, r) for r in range(4)] == [5, 16, 30, 30]
    assert choose_k(100, 2.0, 2) == 30
    # a 40-chunk scope still widens a comparison's first k of 10
    assert [choose_k(40, 2.0, r) for r in range(3)] == [10, 19, 19]
    # a first search is never cut below f(N) x complexity, however small the scope
    assert choose_k(6, 2.0, 0) == 10 and choose_k(6, 2.0, 3) == 10
    # large scopes grow as before
    assert [choose_k(100_000, 1.0, r) for r in range(3)] == [20, 64, 200]


def test_bad_input():
    with pytest.raises(ValueError):
        choose_k(-1)
    with pytest.raises(ValueError):
        choose_k(10, retry=-1)
    with pytest.raises(ValueError):
        choose_k(10, complexity=math.nan)
