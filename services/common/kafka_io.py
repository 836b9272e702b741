"""Kafka clients shared by every service: producers and consumers made from the settings,
which errors are worth waiting out, reading a topic to its end, and ``Publisher`` for
events sent outside a stage. The stage runner, built on them, is ``stage_runner.py``.
"""

from __future__ import annotations

import logging
import time
import zlib
from collections.abc import Iterable, Iterator
from typing import Any

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition
from prometheus_client import Counter

from services.common.avro_codec import AvroCodec, SchemaRegistry
from services.common.faults import retry_while_down
from services.common.settings import KafkaSettings
from topics.registry import LOOP_MESSAGE_BYTES, TopicSpec, full_name

logger = logging.getLogger(__name__)

PRODUCED = Counter("eduanima_produced_total", "Messages produced", ["topic"])


# Errors that say "not now" rather than "never": a broker restarting or unreachable, a
# leader or coordinator moving, a topic created a moment ago. librdkafka marks some of
# them retriable itself; the others are the ones its callers see while a broker is away.
_NOT_READY = frozenset(
    {
        KafkaError._TRANSPORT,
        KafkaError._ALL_BROKERS_DOWN,
        KafkaError._TIMED_OUT,
        KafkaError._TIMED_OUT_QUEUE,
        KafkaError._MSG_TIMED_OUT,
        KafkaError._WAIT_COORD,
        KafkaError._RESOLVE,
        KafkaError._UNKNOWN_TOPIC,
        KafkaError._UNKNOWN_PARTITION,
        KafkaError._NODE_UPDATE,
        KafkaError.UNKNOWN_TOPIC_OR_PART,
        KafkaError.LEADER_NOT_AVAILABLE,
        KafkaError.NOT_LEADER_FOR_PARTITION,
        KafkaError.BROKER_NOT_AVAILABLE,
        KafkaError.REPLICA_NOT_AVAILABLE,
        KafkaError.COORDINATOR_NOT_AVAILABLE,
        KafkaError.COORDINATOR_LOAD_IN_PROGRESS,
        KafkaError.NOT_COORDINATOR,
        KafkaError.REQUEST_TIMED_OUT,
        KafkaError.NETWORK_EXCEPTION,
        KafkaError.NOT_ENOUGH_REPLICAS,
        KafkaError.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
        KafkaError.KAFKA_STORAGE_ERROR,
        KafkaError.CONCURRENT_TRANSACTIONS,
        KafkaError.REBALANCE_IN_PROGRESS,
        KafkaError.OFFSET_NOT_AVAILABLE,
        KafkaError.FENCED_LEADER_EPOCH,
        KafkaError.UNKNOWN_LEADER_EPOCH,
    }
)
_FENCED = frozenset({KafkaError._FENCED, KafkaError.PRODUCER_FENCED, KafkaError.FENCED_INSTANCE_ID})


def kafka_error(exc: BaseException) -> KafkaError | None:
    if isinstance(exc, KafkaException) and exc.args and isinstance(exc.args[0], KafkaError):
        return exc.args[0]
    return None


def fenced(err: KafkaError) -> bool:
    """Another client took over this one's transactional id or group instance id."""
    return err.code() in _FENCED


def not_ready(err: KafkaError) -> bool:
    """A Kafka error worth waiting out: never a fatal or fencing one."""
    if err.fatal() or fenced(err):
        return False
    return err.retriable() or err.code() in _NOT_READY


def kafka_transient(exc: BaseException) -> str | None:
    """``"kafka"`` when ``exc`` is a Kafka error that a retry may get past, else None."""
    err = kafka_error(exc)
    return "kafka" if err is not None and not_ready(err) else None


def partition_for(key: str, partitions: int) -> int:
    """The partition a keyed message goes to: librdkafka's ``consistent_random`` partitioner
    (CRC-32 of the key, modulo the count), pinned in ``make_producer``. A follower reads only
    its session's partition with it."""
    return zlib.crc32(key.encode()) % partitions


def codec_for(settings: KafkaSettings) -> AvroCodec:
    registry = (
        SchemaRegistry(settings.schema_registry_url) if settings.schema_registry_url else None
    )
    return AvroCodec(registry)


def make_producer(
    settings: KafkaSettings, *, transactional_id: str | None = None, **extra: Any
) -> Producer:
    config: dict[str, Any] = {
        "bootstrap.servers": settings.kafka_bootstrap_servers,
        "enable.idempotence": True,
        "acks": "all",
        "linger.ms": 2,
        # the loop topics take messages above librdkafka's default 1 MB (the topic's own
        # max.message.bytes still holds on every other topic); headroom for the request
        "message.max.bytes": LOOP_MESSAGE_BYTES + 1024 * 1024,
        # Followers compute a key's partition themselves (partition_for): keep it explicit.
        "partitioner": "consistent_random",
        **extra,
    }
    if transactional_id:
        config["transactional.id"] = transactional_id
        # a batch may embed a long file: allow it the broker's default maximum (15 min)
        config["transaction.timeout.ms"] = 900_000
    return Producer(config)


def make_consumer(settings: KafkaSettings, group_id: str, **extra: Any) -> Consumer:
    return Consumer(
        {
            "bootstrap.servers": settings.kafka_bootstrap_servers,
            "group.id": group_id,
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            # never see outputs of transactions that a crashed stage aborted
            "isolation.level": "read_committed",
            "group.protocol": "classic",
            "max.poll.interval.ms": 900_000,
            **extra,
        }
    )


def read_to_end(
    consumer: Consumer,
    topic: str,
    partitions: Iterable[int] | None = None,
    give_up_after_s: float | None = None,
    start: dict[int, int] | None = None,
) -> Iterator[Message]:
    """Every committed message of a topic's partitions (default: all), from the start (or the
    offsets in ``start``) to the end as it is now.

    With read_committed the last offsets may be control records that are never
    delivered, so a partition is done once the consumer's position reaches its end.
    A read_committed consumer's end is the last stable offset: an open transaction's first
    message ends the reading there, without waiting for it (nor reading what others
    committed after it). ``give_up_after_s`` of silence (a broker away) stops ops tools
    waiting; state restore passes None, as giving up would lose state.
    """
    what = f"reading {topic}"

    def retried(call):
        return retry_while_down(
            call, what=what, transient=kafka_transient, deadline_s=give_up_after_s
        )

    if partitions is None:
        partitions = retried(lambda: topic_partitions(consumer, topic, missing_ok=True))
    ends = {}
    for p in partitions:
        low, high = retried(
            lambda p=p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)
        )
        if high > max(low, (start or {}).get(p, low)):
            ends[p] = high
    consumer.assign([TopicPartition(topic, p, (start or {}).get(p, 0)) for p in ends])
    quiet_since = time.monotonic()
    while ends:
        msg = consumer.poll(0.5)
        if msg is None or msg.error():
            for p in list(ends):
                if consumer.position([TopicPartition(topic, p)])[0].offset >= ends[p]:
                    del ends[p]
            if give_up_after_s is not None and time.monotonic() - quiet_since > give_up_after_s:
                break
            continue
        quiet_since = time.monotonic()
        yield msg
        if msg.offset() + 1 >= ends.get(msg.partition(), 0):
            ends.pop(msg.partition(), None)
    consumer.unassign()


def topic_partitions(consumer: Consumer, topic: str, *, missing_ok: bool = False) -> list[int]:
    """The topic's partition numbers. A topic whose metadata is not ready yet (just created,
    leader moving) raises a retriable KafkaException; a missing one too, unless ``missing_ok``
    (then: no partitions)."""
    meta = consumer.list_topics(topic, timeout=10).topics.get(topic)
    error = meta.error if meta is not None else KafkaError(KafkaError.UNKNOWN_TOPIC_OR_PART)
    if error is not None:
        if missing_ok and error.code() == KafkaError.UNKNOWN_TOPIC_OR_PART:
            return []
        raise KafkaException(error)
    if not meta.partitions or any(p.leader < 0 for p in meta.partitions.values()):
        raise KafkaException(KafkaError(KafkaError.LEADER_NOT_AVAILABLE, f"{topic}: no leader yet"))
    return sorted(meta.partitions)


def start_offsets(
    consumer: Consumer, topic: str, partitions: Iterable[int], since_ms: int
) -> list[TopicPartition]:
    """Per partition, the first offset at or after ``since_ms``, for a read_committed consumer.

    ``offsets_for_times`` under read_committed answers -1 when the only newer records are
    in a transaction still open, so the fallback is the last stable offset as it was
    *before* the lookup (a read_committed consumer's high watermark): never past them.
    """
    partitions = list(partitions)
    stable = {
        p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1]
        for p in partitions
    }
    found = consumer.offsets_for_times(
        [TopicPartition(topic, p, since_ms) for p in partitions], timeout=10
    )
    return [
        TopicPartition(topic, tp.partition, tp.offset if tp.offset >= 0 else stable[tp.partition])
        for tp in found
    ]


class Publisher:
    """Produces events outside a stage (SDK, CLI, gateway) and raises if any was not delivered."""

    def __init__(self, settings: KafkaSettings, producer: Producer | None = None):
        self.settings = settings
        self.codec = codec_for(settings)
        self.producer = producer or make_producer(settings)
        self._errors: list[str] = []

    def publish(self, spec: TopicSpec, key: str, event: Any) -> None:
        topic = full_name(spec, self.settings.eduanima_topic_prefix)

        def report(err: Any, _msg: Any) -> None:
            if err is not None:
                self._errors.append(f"{topic}: {err}")

        self.producer.produce(
            topic, key=key.encode(), value=self.codec.encode(event, topic), on_delivery=report
        )
        PRODUCED.labels(topic).inc()

    def flush(self, timeout: float = 30) -> None:
        left = self.producer.flush(timeout)
        errors, self._errors = self._errors, []
        if left or errors:
            raise KafkaException(
                f"{left} message(s) undelivered after {timeout}s; errors: {errors or 'none'}"
            )


def now_ms() -> int:
    return int(time.time() * 1000)
