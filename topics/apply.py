"""``eduanima topics apply``: make the broker match ``topics.registry``, idempotently.

Creates missing topics, raises partition counts that are too low, sets configs
that drifted, and refuses to shrink partitions (Kafka cannot, and a silent
mismatch would break keyed ordering). A second run reports no changes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    NewPartitions,
    NewTopic,
)

from services.common.errors import EduanimaError
from services.common.settings import KafkaSettings
from topics.registry import ALL_TOPICS, TopicSpec

logger = logging.getLogger(__name__)


class TopicDriftError(EduanimaError):
    """The broker holds a topic that cannot be made to match its spec."""


@dataclass(frozen=True)
class Change:
    topic: str
    action: str  # create | partitions | config
    detail: str


def admin_client(settings: KafkaSettings) -> AdminClient:
    return AdminClient({"bootstrap.servers": settings.kafka_bootstrap_servers})


def plan_changes(
    admin: AdminClient, prefix: str, specs: tuple[TopicSpec, ...] = ALL_TOPICS
) -> list[Change]:
    existing = admin.list_topics(timeout=15).topics
    changes: list[Change] = []
    present = []
    for spec in specs:
        name = prefix + spec.name
        if name not in existing:
            changes.append(Change(name, "create", f"{spec.partitions} partitions {spec.configs}"))
            continue
        have = len(existing[name].partitions)
        if have > spec.partitions:
            raise TopicDriftError(
                f"{name} has {have} partitions, spec says {spec.partitions}: refusing to shrink"
            )
        if have < spec.partitions:
            changes.append(Change(name, "partitions", f"{have} -> {spec.partitions}"))
        present.append((name, spec))
    if present:
        resources = [ConfigResource(ConfigResource.Type.TOPIC, name) for name, _ in present]
        described = admin.describe_configs(resources)
        for (name, spec), resource in zip(present, resources, strict=True):
            current = {k: v.value for k, v in described[resource].result(timeout=15).items()}
            drift = {k: v for k, v in spec.configs.items() if current.get(k) != v}
            if drift:
                changes.append(
                    Change(name, "config", ", ".join(f"{k}={v}" for k, v in drift.items()))
                )
    return changes


def apply_topics(
    settings: KafkaSettings, specs: tuple[TopicSpec, ...] = ALL_TOPICS
) -> list[Change]:
    """Apply the registry to the broker; return the changes made (empty when in sync)."""
    admin = admin_client(settings)
    prefix = settings.eduanima_topic_prefix
    changes = plan_changes(admin, prefix, specs)
    by_name = {prefix + s.name: s for s in specs}
    creates = [
        NewTopic(
            c.topic,
            num_partitions=by_name[c.topic].partitions,
            replication_factor=1,
            config=by_name[c.topic].configs,
        )
        for c in changes
        if c.action == "create"
    ]
    grows = [
        NewPartitions(c.topic, by_name[c.topic].partitions)
        for c in changes
        if c.action == "partitions"
    ]
    configs = [
        ConfigResource(
            ConfigResource.Type.TOPIC,
            c.topic,
            incremental_configs=[
                ConfigEntry(k, v, incremental_operation=AlterConfigOpType.SET)
                for k, v in by_name[c.topic].configs.items()
            ],
        )
        for c in changes
        if c.action == "config"
    ]
    for futures in (
        admin.create_topics(creates) if creates else {},
        admin.create_partitions(grows) if grows else {},
        admin.incremental_alter_configs(configs) if configs else {},
    ):
        for future in futures.values():
            future.result(timeout=30)
    for change in changes:
        logger.info("topic %s: %s %s", change.topic, change.action, change.detail)
    return changes


def describe(settings: KafkaSettings, topic: str) -> dict[str, str]:
    admin = admin_client(settings)
    resource = ConfigResource(ConfigResource.Type.TOPIC, settings.eduanima_topic_prefix + topic)
    entries = admin.describe_configs([resource])[resource].result(timeout=15)
    return {k: v.value for k, v in entries.items()}
