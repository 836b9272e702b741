"""On a retry the vector list's best hit keeps a seat among the k candidates."""

import uuid

from services.searcher.engine import Candidate, dense_best, with_seat
from services.searcher.fusion import DEFAULT_FUSION, Hit, fuse


def _candidate(chunk_id: uuid.UUID) -> Candidate:
    return Candidate(chunk_id, uuid.uuid4(), "notes", None, [], 0, "text", None, None, 0.0)


def test_the_vector_lists_best_hit_takes_the_last_seat_when_fusion_left_it_out():
    ids = [uuid.uuid4() for _ in range(8)]
    # BM25 ranks the first six; the vector's first hit is the last chunk, nowhere in BM25
    lists = {
        "bm25": [Hit(i, 10.0 - n) for n, i in enumerate(ids[:6])],
        "vector": [Hit(ids[7], 0.9), Hit(ids[0], 0.5)],
    }
    fused = fuse(lists, DEFAULT_FUSION)
    k = 5
    assert ids[7] not in [f.key for f in fused[:k]]  # outvoted by BM25's weight
    seated = dense_best(fused, lists, k)
    assert seated is not None and seated.key == ids[7]
    candidates = [_candidate(f.key) for f in [*fused[:k], seated]]
    chosen = with_seat(candidates, seated.key, k)
    assert [c.chunk_id for c in chosen] == [*[f.key for f in fused[: k - 1]], ids[7]]


def test_a_seat_changes_nothing_when_the_hit_is_already_in_or_no_vector_list_ran():
    ids = [uuid.uuid4() for _ in range(6)]
    candidates = [_candidate(i) for i in ids]
    assert with_seat(candidates, ids[2], 4) == candidates[:4]
    assert with_seat(candidates, None, 4) == candidates[:4]
    bm25_only = {"bm25": [Hit(i, 1.0) for i in ids]}
    assert dense_best(fuse(bm25_only, DEFAULT_FUSION), bm25_only, 5) is None
    # too few places to give one up
    both = {**bm25_only, "vector": [Hit(ids[5], 0.9)]}
    assert dense_best(fuse(both, DEFAULT_FUSION), both, 2) is None
