"""Librarian settings: Kafka and the LLM only. No DSN, no storage: it cannot reach either."""

from services.common.settings import EmbedderSettings, KafkaSettings, LLMSettings


class LibrarianSettings(KafkaSettings, LLMSettings, EmbedderSettings):
    pass
