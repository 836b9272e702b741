"""Professor settings: Kafka, the database (sessions, enrollment checks), the LLM and embedder,
and the sweep of stalled sessions."""

from pydantic import Field

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
    professor_sweep_interval_s: float = Field(
        30.0, gt=0, description="How often the professor looks for stalled sessions."
    )
    # A minute past the deadline: far beyond an iteration's seconds at the load `bench soak`
    # measured (p95 3.5 s at 12 questions/s), so only a session nothing comes back for is ended.
    professor_stall_grace_s: float = Field(
        60.0,
        ge=0,
        description="How long past its deadline a session may stay RUNNING before the sweep"
        " ends it FAILED (stop_reason stalled).",
    )
