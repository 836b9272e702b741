"""The loop topics take the largest message the loop can make: a SearchResult of K_CAP
candidates, each at the chunker's longest, with both neighbours as long, in 3-byte
characters, with room to spare for the loop state it carries. Kafka's default 1 MB would not."""

from __future__ import annotations

from services.common.avro_codec import AvroCodec
from services.common.events import Candidate, SearchResult
from services.ingestor.chunking import DEFAULT_LIMITS
from services.searcher.dynamic_k import K_CAP
from tests.unit.common.test_avro_codec import sample_state
from topics.registry import (
    EVALUATIONS,
    LOOP_MESSAGE_BYTES,
    SEARCH_REQUESTS,
    SEARCH_RESULTS,
    dlq_spec,
)


def largest_search_result() -> SearchResult:
    longest = "索" * DEFAULT_LIMITS.max_chars  # 3 bytes in UTF-8
    candidates = [
        Candidate(
            i,
            "0" * 36,
            "0" * 36,
            "t" * 200,
            1,
            ["h" * 100] * 3,
            i,
            longest,
            longest,
            longest,
            0.5,
            {"bm25": 1, "vector": 1, "chars": 1},
            {"bm25": 0.5, "vector": 0.5, "chars": 0.5},
        )
        for i in range(K_CAP)
    ]
    return SearchResult("s", 4, "neighbours", candidates, K_CAP, 10**6, 1000, 4, sample_state())


def test_the_largest_search_result_needs_more_than_1_mb_and_fits_in_half_the_limit():
    size = len(AvroCodec().encode(largest_search_result(), "search.results"))
    assert 1_048_576 < size < LOOP_MESSAGE_BYTES / 2, size


def test_every_loop_topic_carrying_candidates_or_state_and_its_dlq_takes_that_size():
    for spec in (SEARCH_REQUESTS, SEARCH_RESULTS, EVALUATIONS):
        for topic in (spec, dlq_spec(spec)):
            assert topic.configs["max.message.bytes"] == str(LOOP_MESSAGE_BYTES), topic.name
