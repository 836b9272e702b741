"""Professor settings: Kafka, the database (sessions, enrollment checks), the LLM and embedder."""

from services.common.settings import DatabaseSettings, EmbedderSettings, KafkaSettings, LLMSettings


class ProfessorSettings(KafkaSettings, DatabaseSettings, LLMSettings, EmbedderSettings):
    pass
