"""Settings of the ingestor: database, storage, embedder, Kafka, plus parsing limits."""

from __future__ import annotations

from pydantic import Field

from services.common.settings import (
    DatabaseSettings,
    EmbedderSettings,
    KafkaSettings,
    StorageSettings,
)
from services.ingestor.chunking import ChunkLimits


class IngestionSettings(DatabaseSettings, StorageSettings, EmbedderSettings, KafkaSettings):
    professor_gemini_model_ingestion: str = Field(
        "gemini-3-flash-preview",
        description="Gemini model that reads PDFs without a text layer and images into chunks.",
    )
    embed_threads: int = Field(
        2,
        ge=1,
        description="BLAS threads while embedding a file's chunks: 2 embed 128 paragraphs in "
        "300 ms where 1 takes 415 ms (2 quiet cores); ingestion is bulk work, not on a "
        "question's path.",
    )
    max_file_bytes: int = Field(
        20 * 1024 * 1024, description="Largest original file accepted, in bytes."
    )
    chunk_target_chars: int = Field(
        700, description="Chunks are packed up to this many characters."
    )
    chunk_max_chars: int = Field(1000, description="Hard upper bound of a chunk, in characters.")
    ingest_storage_wait_s: float = Field(
        300.0,
        description="How long the ingestor waits out object storage that does not answer "
        "(jobs stay PENDING with the error, retried with backoff) before the jobs that meet the "
        "outage end FAILED.",
    )
    chunk_min_chars: int = Field(
        120, description="Smaller pieces join a neighbour under the same heading."
    )

    @property
    def chunk_limits(self) -> ChunkLimits:
        return ChunkLimits(self.chunk_target_chars, self.chunk_max_chars, self.chunk_min_chars)
