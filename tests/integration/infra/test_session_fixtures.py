"""The shared fixtures deliver what other tests rely on: isolated, migrated, topics applied."""

from __future__ import annotations

import re

import numpy as np
import psycopg
import pytest
from confluent_kafka.admin import AdminClient

from services.common import db
from services.common.settings import DatabaseSettings, KafkaSettings
from topics.registry import ALL_TOPICS

pytestmark = pytest.mark.integration


def test_kafka_settings_carry_a_run_prefix_and_every_registry_topic(
    kafka_settings: KafkaSettings,
) -> None:
    prefix = kafka_settings.eduanima_topic_prefix
    assert re.fullmatch(r"t[0-9a-f]{8}\.", prefix)
    admin = AdminClient({"bootstrap.servers": kafka_settings.kafka_bootstrap_servers})
    present = set(admin.list_topics(timeout=15).topics)
    missing = {prefix + spec.name for spec in ALL_TOPICS} - present
    assert not missing


def test_db_settings_point_at_a_fresh_fully_migrated_run_database(
    db_settings: DatabaseSettings, db_conn: psycopg.Connection
) -> None:
    name = db_conn.execute("SELECT current_database()").fetchone()[0]
    assert re.fullmatch(r"eduanima_test_[0-9a-f]{8}", name)
    applied = {row[0] for row in db_conn.execute("SELECT name FROM schema_migrations")}
    assert applied == {file_name for _, file_name, _ in db.migration_files()}
    assert db.migrate(db_settings) == []


def test_db_conn_has_pgvector_registered(db_conn: psycopg.Connection) -> None:
    # Unregistered, numpy arrays would not adapt and the result would come back as text.
    row = db_conn.execute("SELECT %s::vector", (np.array([1.0, 2.0, 3.0]),)).fetchone()
    assert not isinstance(row[0], str)
    assert row[0].to_list() == [1.0, 2.0, 3.0]


def test_subject_ids_are_fresh(subject_id: str) -> None:
    assert re.fullmatch(r"subj-[0-9a-f]{12}", subject_id)
