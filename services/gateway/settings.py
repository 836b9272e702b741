"""Gateway settings: Kafka (publish, follow answers), the database (enrollment, status), storage."""

from __future__ import annotations

from pydantic import Field, SecretStr

from services.common.settings import DatabaseSettings, KafkaSettings, StorageSettings


class GatewaySettings(KafkaSettings, DatabaseSettings, StorageSettings):
    gateway_host: str = Field("127.0.0.1", description="Interface the HTTP API listens on.")
    gateway_port: int = Field(8765, description="Port of the HTTP API and the web console.")
    gateway_tokens: SecretStr = Field(
        SecretStr(""),
        description="Bearer tokens and the user each one stands for: 'token1=user1,token2=user2'."
        " Empty: every authenticated endpoint answers 401.",
    )
    max_upload_bytes: int = Field(
        20 * 1024 * 1024, description="Largest upload accepted, in bytes (larger: 413)."
    )
    gateway_session_wait_s: float = Field(
        15.0,
        description="How long an SSE request waits for the professor to record a new session"
        " before answering 404.",
    )
    gateway_follow_timeout_s: float = Field(
        300.0, description="Longest an SSE stream waits for a session's final answer."
    )
