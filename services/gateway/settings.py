"""Gateway settings: Kafka (publish, follow answers), the database (roles, status), storage,
bearer authentication (static tokens and/or JWTs), the engines of the teachers' search test, and
where the insights service is (its subject view, for teachers)."""

from __future__ import annotations

from pydantic import Field, SecretStr

from services.common.settings import (
    DatabaseSettings,
    EmbedderSettings,
    InsightsClientSettings,
    KafkaSettings,
    LLMSettings,
    StorageSettings,
)


class GatewaySettings(
    KafkaSettings,
    DatabaseSettings,
    StorageSettings,
    LLMSettings,
    EmbedderSettings,
    InsightsClientSettings,
):
    gateway_host: str = Field("127.0.0.1", description="Interface the HTTP API listens on.")
    gateway_port: int = Field(8765, description="Port of the HTTP API and the web console.")
    gateway_tokens: SecretStr = Field(
        SecretStr(""),
        description="Static bearer tokens for local use and the user each stands for:"
        " 'token1=user1,token2=user2'. Empty (and no JWT settings): every authenticated"
        " endpoint answers 401.",
    )
    gateway_jwks: str = Field(
        "",
        description="Where the JWT signing keys are: a JWKS URL (https://…/jwks.json, fetched"
        " and cached) or the path of a JWKS file. Empty: JWTs are not accepted.",
    )
    gateway_jwt_issuer: str = Field(
        "", description="Required `iss` of a JWT (the OIDC provider's issuer URL)."
    )
    gateway_jwt_audience: str = Field(
        "", description="Required `aud` of a JWT (this API's client id or audience)."
    )
    gateway_jwt_algorithms: str = Field(
        "RS256,ES256", description="Signature algorithms accepted, comma-separated."
    )
    gateway_jwt_leeway_s: int = Field(
        30, ge=0, description="Clock skew allowed on `exp`, `nbf` and `iat`, in seconds."
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
