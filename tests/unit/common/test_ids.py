"""UUIDv7 row ids: time-ordered, and strictly increasing within one process, so rows stored
together (a material's chunks) sort in the order they were made."""

from __future__ import annotations

import time
import uuid

from services.common.ids import uuid7


def test_uuid7s_of_one_process_increase_strictly_and_keep_their_version_and_variant():
    ids = [uuid7() for _ in range(5_000)]  # many in one millisecond, past the counter's 4,096
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert all(u.version == 7 and u.variant == uuid.RFC_4122 for u in ids)


def test_a_uuid7_starts_with_the_time_in_milliseconds():
    before = time.time_ns() // 1_000_000
    stamp = uuid7().int >> 80
    assert before <= stamp <= time.time_ns() // 1_000_000 + 2  # + the counter's carry, if any
