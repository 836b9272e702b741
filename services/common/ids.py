"""Identifiers: UUIDv7 (time-ordered, RFC 9562) for rows, and content hashes."""

from __future__ import annotations

import hashlib
import os
import time
import uuid


def uuid7() -> uuid.UUID:
    """A UUIDv7: 48-bit Unix milliseconds, version 7, variant 10, 74 random bits."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= (rand >> 68 & 0xFFF) << 64  # rand_a: 12 bits
    value |= 0b10 << 62
    value |= rand & ((1 << 62) - 1)  # rand_b: 62 bits
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
