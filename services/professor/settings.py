"""Professor settings: Kafka, the database (sessions, enrollment checks), the LLM and embedder."""

from services.common.settings import (
    DatabaseSettings,
    EmbedderSettings,
    HomeSettings,
    KafkaSettings,
    LLMSettings,
)


class ProfessorSettings(
    KafkaSettings, DatabaseSettings, LLMSettings, EmbedderSettings, HomeSettings
):
    pass
