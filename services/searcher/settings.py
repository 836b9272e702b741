"""Searcher settings: Kafka, the database it searches, the embedder for query vectors."""

from services.common.settings import DatabaseSettings, EmbedderSettings, KafkaSettings


class SearcherSettings(KafkaSettings, DatabaseSettings, EmbedderSettings):
    pass
