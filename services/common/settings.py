"""Typed settings. Nothing else in the project reads ``os.environ``.

Each concern is a small frozen pydantic-settings class; a service composes the
ones it is allowed to have. The librarian composes no ``DatabaseSettings`` or
``StorageSettings``: it cannot even be configured with credentials.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class _Base(BaseSettings):
    model_config = SettingsConfigDict(frozen=True, extra="ignore", populate_by_name=True)


class HomeSettings(_Base):
    eduanima_home: Path = Field(
        Path(".eduanima"),
        description="State directory of the local deployment (Kafka, Postgres, GCS data, logs).",
    )


class RuntimeSettings(HomeSettings):
    """How a service process reports on itself; read once by ``services.common.service``."""

    eduanima_health_dir: Path | None = Field(
        None,
        description="Where each service process writes its health report (JSON, every "
        "second): dependencies, stages, restarts, RSS. Default: EDUANIMA_HOME/health.",
    )
    eduanima_restarts: int = Field(
        0,
        description="Set by `eduanima run` when it restarts a service that exited "
        "unexpectedly: how many times it did, shown in the service's health.",
    )

    blas_threads: int = Field(
        1,
        ge=1,
        description="numpy's BLAS threads in each process (services/common/blas.py). Measured "
        "one question at a time on 2 cores: the default (one per core) left idle workers "
        "spinning and the loop took 265 ms through Kafka; with 1, 168 ms.",
    )

    @property
    def health_dir(self) -> Path:
        return self.eduanima_health_dir or self.eduanima_home / "health"


class KafkaSettings(_Base):
    kafka_bootstrap_servers: str = Field(
        "127.0.0.1:29092", description="Kafka bootstrap servers (host:port[,host:port])."
    )
    eduanima_topic_prefix: str = Field(
        "", description="Prefix for every topic name; tests use it to isolate runs."
    )
    schema_registry_url: str | None = Field(
        None, description="Confluent Schema Registry URL; when unset, Avro single-object encoding."
    )
    instance_id: str = Field(
        default_factory=socket.gethostname,
        description="This instance's name, stable across its restarts and unique among running "
        "instances of a service: its stages' transactional IDs derive from it, so a restarted "
        "instance aborts the transaction its crashed self left open (which would otherwise hold "
        "back read_committed consumers of those partitions until the transaction times out). "
        "`eduanima run --instances N` names them <hostname>-<i>.",
    )
    kafka_session_timeout_ms: int = Field(
        20_000,
        ge=6_000,
        description="Consumer group session timeout of the stages. Stages are static members "
        "(group.instance.id from INSTANCE_ID): a restarted instance takes its partitions back "
        "at once and one that stops leaves its group, so this only bounds how long the "
        "partitions of an instance that is gone for good wait; longer than a broker restart, "
        "so that one does not make every member rejoin.",
    )
    eduanima_test_hold_transaction: str = Field(
        "",
        description="Test hook, never set in production: '<stage>[@<n>]' makes that stage, "
        "after n committed batches, hold its next transaction open (batch consumed, outputs "
        "produced, nothing committed) so that a fault test can kill it there.",
    )


class DatabaseSettings(_Base):
    database_url: SecretStr = Field(
        SecretStr("postgresql://eduanima@127.0.0.1:25432/eduanima"),
        description="PostgreSQL DSN (libpq URL).",
    )
    db_pool_max: int = Field(8, description="Largest connection pool size.")
    db_wait_s: float = Field(
        5.0,
        description="How long a use of the pool waits for a connection; with PostgreSQL down "
        "it then fails (and a stage retries its batch later).",
    )


class StorageSettings(_Base):
    storage_emulator_host: str | None = Field(
        "http://127.0.0.1:29023",
        description="GCS emulator URL; set to empty to use real Google Cloud Storage.",
    )
    gcs_bucket: str = Field("eduanima-materials", description="Bucket holding original files.")
    gcs_project: str = Field("eduanima-local", description="GCP project for the storage client.")


class GatewayClientSettings(_Base):
    """Where the CLI's user commands (materials, unanswered, subject list) reach the gateway."""

    eduanima_gateway_url: str = Field(
        "", description="The gateway's base URL; default http://127.0.0.1:<GATEWAY_PORT>."
    )
    gateway_port: int = Field(8765, description="Port of a local gateway (the default URL).")
    eduanima_token: SecretStr | None = Field(
        None, description="Bearer token of the CLI's user (a static token or a JWT)."
    )

    @property
    def base_url(self) -> str:
        return self.eduanima_gateway_url.rstrip("/") or f"http://127.0.0.1:{self.gateway_port}"


class InsightsClientSettings(_Base):
    """Where the gateway and the CLI reach the insights service's web server."""

    insights_url: str = Field(
        "http://127.0.0.1:6066",
        description="Base URL of an insights instance; it gathers what the others hold.",
    )


class GeminiSettings(_Base):
    gemini_api_key: SecretStr | None = Field(None, description="Gemini API key; unset = offline.")
    gemini_base_url: str | None = Field(
        None, description="Override of the Gemini REST endpoint (tests serve canned bodies)."
    )
    gemini_timeout_ms: int = Field(60_000, description="Per-request timeout for Gemini calls.")
    gemini_attempts: int = Field(4, description="Attempts per Gemini call (SDK retry options).")


class EmbedderSettings(GeminiSettings):
    embedder: Literal["use-m3", "gemini"] = Field(
        "use-m3", description="Embedding engine: offline USE-m3 or gemini-embedding-001."
    )
    gemini_embedding_model: str = Field("gemini-embedding-001", description="Gemini embed model.")
    embedding_dimension: int = Field(512, description="Stored vector dimension.")
    embed_batch_size: int = Field(64, description="Texts per embedding call.")
    embed_threads: int = Field(
        1,
        ge=1,
        description="BLAS threads of the USE-m3 forward pass. Measured on 2 quiet cores: "
        "128 paragraphs 415 ms with 1, 300 ms with 2; one query 1.9 ms against 1.5 ms. The "
        "question loop keeps 1: its services share the cores, and idle BLAS workers spin "
        "(services/common/blas.py).",
    )


class LLMSettings(GeminiSettings):
    llm_engine: Literal["extractive", "gemini"] | None = Field(
        None, description="LLM engine; default: gemini when GEMINI_API_KEY is set, else extractive."
    )
    llm_fallback: Literal["extractive", "none"] = Field(
        "extractive",
        description="What takes a step Gemini fails after its retries: the offline extractive "
        "engine (the answer says so), or none (the session ends FAILED).",
    )
    professor_gemini_model_planning: str = Field(
        "gemini-3-flash-preview", description="Gemini model for Phase 2 planning."
    )
    librarian_gemini_model_search: str = Field(
        "gemini-3-flash-preview", description="Gemini model for evaluating and refining searches."
    )
    professor_gemini_model_answer: str = Field(
        "gemini-3-pro-preview", description="Gemini model for the final answer and its review."
    )
    gemini_answer_context_chars: int = Field(
        24_000,
        description="Evidence text shown to the Gemini answer step: the selected chunks whole, "
        "then their neighbours, up to this many characters (about a third as many tokens).",
    )

    @property
    def engine(self) -> str:
        if self.llm_engine:
            return self.llm_engine
        return "gemini" if self.gemini_api_key else "extractive"
