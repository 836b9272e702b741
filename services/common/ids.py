"""Identifiers: UUIDv7 (time-ordered, RFC 9562) for rows, and content hashes."""

from __future__ import annotations

import hashlib
import os
import threading
import time
import uuid

_last = (0, 0)  # (milliseconds, counter) of the last UUIDv7 this process made
_last_lock = threading.Lock()


def uuid7() -> uuid.UUID:
    """A UUIDv7: 48-bit Unix milliseconds, version 7, a 12-bit counter, variant 10, 62 random
    bits. The counter (RFC 9562 §6.2, method 1) makes a process's UUIDs strictly increasing
    within a millisecond too, so rows stored together sort in the order they were made: the
    chunks of a material by ordinal, which is how the searcher breaks ties in score."""
    global _last
    with _last_lock:
        ms, counter = time.time_ns() // 1_000_000, 0
        if ms <= _last[0]:  # the same millisecond, or the clock stepped back
            ms, counter = _last[0], _last[1] + 1
            if counter > 0xFFF:
                ms, counter = ms + 1, 0
        _last = (ms, counter)
    value = (ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= counter << 64  # rand_a holds the counter
    value |= 0b10 << 62
    value |= int.from_bytes(os.urandom(8), "big") & ((1 << 62) - 1)  # rand_b: 62 bits
    return uuid.UUID(int=value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def ingest_key(subject_id: str, data: bytes, namespace: str = "subject") -> str:
    """Default idempotency key of an IngestJob: hash of (subject, namespace, file bytes).

    ``namespace`` is ``subject`` for shared materials and ``private:<owner>`` for a note, so
    one user's note is never taken for the same bytes a teacher (or another user) uploads.
    """
    h = hashlib.sha256()
    h.update(subject_id.encode("utf-8"))
    h.update(b"\x00")
    if namespace != "subject":
        h.update(namespace.encode("utf-8"))
        h.update(b"\x00")
    h.update(data)
    return h.hexdigest()
