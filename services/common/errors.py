"""Typed project errors. Foreign exceptions are wrapped with context (``raise X from exc``)."""

from __future__ import annotations


def describe(exc: BaseException) -> str:
    """The error in one line with its class, as a FAILED outcome tells it."""
    return f"{type(exc).__name__}: {exc}"


class EduanimaError(Exception):
    """Base of every error the project raises on purpose."""


class StoreError(EduanimaError):
    """A database operation failed."""


class BlobStoreError(EduanimaError):
    """Reading or writing an original file in object storage failed."""


class StorageUnavailable(BlobStoreError):
    """Object storage did not answer (connection refused, timeouts, 5xx): worth retrying,
    unlike a missing blob or a refused request."""


class SchemaCompatibilityError(EduanimaError):
    """A schema change would break readers of released versions."""


class AvroDecodeError(EduanimaError):
    """Bytes on a topic could not be decoded as the expected event."""

    def __init__(self, reason: str, topic: str = "?", partition: int = -1, offset: int = -1):
        self.reason, self.topic, self.partition, self.offset = reason, topic, partition, offset
        super().__init__(f"cannot decode {topic}[{partition}]@{offset}: {reason}")


class InvalidInput(EduanimaError):
    """Input a user or producer sent that the system refuses, with a readable reason."""


class NotEnrolled(InvalidInput):
    """The user is not enrolled in the subject, or the subject does not exist."""


class Forbidden(InvalidInput):
    """The user is enrolled, but their role does not allow this (for example: a student
    publishing a shared material, or changing someone else's)."""


class OutputTooLarge(EduanimaError):
    """A stage made an output larger than its topic takes (``max.message.bytes``)."""


class EngineError(EduanimaError):
    """An LLM or embedding engine failed or is not available (for example: needs Gemini)."""


class DependencyUnavailable(EduanimaError):
    """Kafka, PostgreSQL or object storage cannot be reached now: wait and try again.

    Not the input's fault and not a bug, so nothing is dead-lettered or failed for it:
    a stage aborts its batch, waits and redoes it (``services.common.faults``).
    """

    def __init__(self, dependency: str, reason: str):
        self.dependency = dependency
        super().__init__(f"{dependency} unavailable: {reason}")
