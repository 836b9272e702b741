"""Insights settings: Kafka, and faust's web server and commit cadence. No database, no
storage: everything insights knows comes from the topics."""

from __future__ import annotations

import socket

from pydantic import Field

from services.common.settings import KafkaSettings


class InsightsSettings(KafkaSettings):
    insights_web_host: str = Field(
        "127.0.0.1",
        description="Interface faust's web server listens on (0.0.0.0 in docker-compose). It"
        " has no authentication: teachers reach the subject view through the gateway.",
    )
    insights_web_port: int = Field(
        6066, description="Port of the first instance; instance i listens on this + i."
    )
    instance_index: int = Field(
        0,
        ge=0,
        description="This process's index among the instances `eduanima run --instances N`"
        " starts (it sets it); offsets the web port so instances on one host do not collide.",
    )
    insights_advertised_host: str = Field(
        "",
        description="Host name the other instances reach this one at; default the listen"
        " address, or the host name when that is 0.0.0.0.",
    )
    insights_commit_interval_s: float = Field(
        1.0,
        gt=0,
        description="How often the tables' changes and the consumed offsets commit (one"
        " Kafka transaction per partition group): the views lag the topics by about this.",
    )
    insights_session_timeout_s: float = Field(
        10.0,
        gt=0,
        description="How long the group waits for a silent instance before its partitions"
        " move to the others (a crashed instance's are recovered from the changelogs).",
    )
    insights_lag_interval_s: float = Field(
        10.0, gt=0, description="How often the consumer lag of every stage is measured."
    )
    insights_pending_ttl_s: float = Field(
        24 * 3600.0,
        gt=0,
        description="A session (or ingest job) still incomplete after this much event time is"
        " dropped from the join: a message it needs went to a dead-letter topic or out of"
        " retention.",
    )
    insights_peer_timeout_s: float = Field(
        5.0, gt=0, description="How long a view waits for another instance's partitions."
    )

    @property
    def web_port(self) -> int:
        return self.insights_web_port + self.instance_index

    @property
    def canonical_url(self) -> str:
        host = self.insights_advertised_host or self.insights_web_host
        if host in ("0.0.0.0", "::", ""):
            host = socket.gethostname()
        return f"http://{host}:{self.web_port}"
