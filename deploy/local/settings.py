"""Settings of the local deployment: where its state lives and which loopback ports it uses.

Services do not read these; they read ``KafkaSettings``/``DatabaseSettings``/``StorageSettings``,
whose defaults match the default ports here. Change a port here and export the matching
service setting too (``KAFKA_BOOTSTRAP_SERVERS``, ``DATABASE_URL``, ``STORAGE_EMULATOR_HOST``).
"""

from __future__ import annotations

from pydantic import Field

from services.common.settings import HomeSettings, StorageSettings


class LocalDeploySettings(HomeSettings):
    eduanima_kafka_port: int = Field(29092, description="Kafka broker port on 127.0.0.1.")
    eduanima_kafka_controller_port: int = Field(
        29093, description="KRaft controller port on 127.0.0.1."
    )
    eduanima_pg_port: int = Field(25432, description="PostgreSQL port on 127.0.0.1.")
    eduanima_gcs_port: int = Field(29023, description="GCS emulator port on 127.0.0.1.")
    eduanima_kafka_heap: str = Field("768m", description="Kafka JVM max heap (-Xmx).")
    gcs_bucket: str = Field(
        StorageSettings.model_fields["gcs_bucket"].default,
        description="Bucket created in the emulator by `up` (same env var as StorageSettings).",
    )

    @property
    def kafka_bootstrap(self) -> str:
        return f"127.0.0.1:{self.eduanima_kafka_port}"

    @property
    def emulator_host(self) -> str:
        return f"http://127.0.0.1:{self.eduanima_gcs_port}"

    def database_url(self, dbname: str = "eduanima") -> str:
        return f"postgresql://eduanima@127.0.0.1:{self.eduanima_pg_port}/{dbname}"
