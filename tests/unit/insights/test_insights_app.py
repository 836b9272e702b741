"""The faust app as built: the project's Avro codec registered once, topics and changelogs
from the registry (faust creates none), tables co-partitioned with what they read, and no
database or storage anywhere in the service's imports."""

from __future__ import annotations

from faust.serializers import codecs

from services.common.events import AnswerEvent, Citation, QuestionAsked
from services.common.kafka_io import codec_for
from services.common.settings import KafkaSettings
from services.insights import codec, lag
from services.insights.app import Insights
from services.insights.settings import InsightsSettings
from tests.unit.import_graph import modules_of, reachable_imports
from topics.registry import ALL_TOPICS, INSIGHTS_TOPICS, full_name


def test_the_avro_codec_decodes_any_event_through_faust():
    codec.register(KafkaSettings())
    final = AnswerEvent(
        "s", 1001, "FINAL", 5, status="ANSWERED", citations=[Citation(1, "m", "t", None, "c", "…")]
    )
    question = QuestionAsked("s", "stats", "u", "？", 1)
    for event in (final, question):
        data = codec_for(KafkaSettings()).encode(event)
        assert codecs.loads(codec.CODEC, data) == event
        assert codecs.dumps(codec.CODEC, event) == data


def test_the_app_reads_the_registry_topics_and_declares_nothing():
    settings = InsightsSettings(
        eduanima_topic_prefix="t1.", instance_index=2, insights_web_port=7000
    )
    insights = Insights(settings)
    app = insights.app
    assert app.conf.id == "t1.insights"
    assert app.conf.topic_allow_declare is False and app.conf.topic_disable_leader is True
    assert app.conf.processing_guarantee.value == "exactly_once"
    assert app.conf.web_port == 7002 and str(app.conf.canonical_url) == "http://127.0.0.1:7002"
    assert set(insights.loop_source.topics) == {full_name(s, "t1.") for s in lag.LOOP_SOURCES}
    assert set(insights.ingest_source.topics) == {full_name(s, "t1.") for s in lag.INGEST_SOURCES}
    registry = {full_name(s, "t1."): s for s in ALL_TOPICS}
    for table, sources in (
        (insights.sessions, lag.LOOP_SOURCES),
        (insights.loop, lag.LOOP_SOURCES),
        (insights.jobs, lag.INGEST_SOURCES),
        (insights.ingest, lag.INGEST_SOURCES),
    ):
        spec = registry[table.changelog_topic.get_topic_name()]
        assert spec in INSIGHTS_TOPICS and spec.compacted
        # a table's changelog partition p holds what partition p of its sources made
        assert table.partitions == spec.partitions == {s.partitions for s in sources}.pop()


def test_insights_never_imports_the_database_or_storage_layers():
    reached = reachable_imports(modules_of("services.insights"))
    assert "services.common.kafka_io" in reached  # the walk follows the service's imports
    forbidden = ("services.common.db", "services.common.blobstore", "psycopg", "google.cloud")
    assert [m for m in reached if m.startswith(forbidden)] == []
