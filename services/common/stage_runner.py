"""The stage runner: the thin Kafka shell around a pure stage.

A stage is a pure function ``handle(event) -> list[Emit]``. ``StageRunner`` polls,
decodes, handles, produces and commits. Each batch is one Kafka transaction holding the
outputs *and* the consumed offsets, so a crash at any point either publishes everything a
message caused or nothing, and the message is handled again (consume-transform-produce,
KIP-447). Bad input goes to the input topic's dead-letter topic in the same transaction.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition
from prometheus_client import Counter

from services.common import health
from services.common.errors import AvroDecodeError, InvalidInput, OutputTooLarge
from services.common.faults import Backoff, Transient, any_of, named_dependency, retry_while_down
from services.common.kafka_io import (
    PRODUCED,
    codec_for,
    fenced,
    kafka_error,
    kafka_transient,
    make_consumer,
    make_producer,
    not_ready,
)
from services.common.settings import KafkaSettings
from topics.registry import TopicSpec, dlq_name, full_name

logger = logging.getLogger(__name__)
E = TypeVar("E")

CONSUMED = Counter("eduanima_consumed_total", "Messages consumed", ["topic", "stage"])
DEAD_LETTERED = Counter(
    "eduanima_dead_lettered_total", "Messages sent to a DLQ", ["topic", "stage"]
)


class Rejected(InvalidInput):
    """Bad input that still deserves an answer: the emits are published, then the message
    is dead-lettered."""

    def __init__(self, message: str, emits: list[Emit]):
        super().__init__(message)
        self.emits = emits


@dataclass(frozen=True)
class Emit:
    """One output of a stage: an event for a topic, under a key."""

    topic: TopicSpec
    key: str
    event: Any
    headers: dict[str, str] = field(default_factory=dict)


def dead_letter_headers(msg: Message, exc: BaseException, stage: str) -> list[tuple[str, bytes]]:
    return [
        ("error.class", type(exc).__name__.encode()),
        ("error.message", str(exc)[:2000].encode()),
        ("stage", stage.encode()),
        ("source.topic", (msg.topic() or "").encode()),
        ("source.partition", str(msg.partition()).encode()),
        ("source.offset", str(msg.offset()).encode()),
    ]


class ProducerStuck(KafkaException):
    """A transaction call outlived its own timeout by far: the producer is wedged."""


class Watchdog:
    """Runs blocking client calls on a daemon thread of its own, and gives up on one that
    outlives a deadline. librdkafka's ``send_offsets_to_transaction`` can block for good,
    ignoring its timeout, after a broker restart (confluentinc/librdkafka#5456, #5511: a
    coordinator cached on a broker connection it has since dropped). A call given up on
    leaves its thread blocked: the caller replaces the client, and this watchdog with it.
    """

    def __init__(self, name: str):
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._serve, name=name, daemon=True).start()

    def _serve(self) -> None:
        while True:
            call, box, done = self._calls.get()
            try:
                call()
            except BaseException as exc:  # noqa: BLE001 - handed back to the caller
                box.append(exc)
            finally:
                done.set()

    def call(self, call: Callable[[], None], deadline_s: float, what: str) -> None:
        box: list[BaseException] = []
        done = threading.Event()
        self._calls.put((call, box, done))
        if not done.wait(deadline_s):
            raise ProducerStuck(
                KafkaError(KafkaError._TIMED_OUT, f"{what} did not return in {deadline_s:.0f} s")
            )
        if box:
            raise box[0]


# A message whose handling has failed this many times, with an error that names no
# dependency (a bug, or input the stage cannot handle), goes to the DLQ with the error
# instead of failing again: the partition behind it moves on, and `eduanima dlq replay`
# brings it back once the stage is fixed.
POISON_AFTER = 3
# A topic's message size when it sets none (the broker's message.max.bytes), and what a
# record adds to its value (key, headers, batch framing), kept free when an output is sized.
DEFAULT_MESSAGE_BYTES = 1_048_588
RECORD_OVERHEAD_BYTES = 16 * 1024
# How long a transaction step may take before it is retried (and, 3 s later, given up on).
TXN_STEP_S = 5.0
STUCK_AFTER_S = TXN_STEP_S + 3.0


def transactional_id(prefix: str, stage: str, instance_id: str) -> str:
    """The transactional ID of one instance of a stage: the same across its restarts, so a
    restart (or ``tools/fence.py``) aborts what the instance left open."""
    return f"{prefix}{stage}-{instance_id}"


class StageRunner(Generic[E]):
    """Runs one stage as a member of a consumer group until ``stop`` is set.

    Decode failures and ``InvalidInput`` go to the input topic's DLQ (original
    bytes, error in headers), inside the same transaction as the offset
    commit. When a dependency is down (Kafka, or whatever ``transient`` names,
    such as PostgreSQL), the batch is aborted, the consumer rewinds to the
    batch's first offsets, ``on_abort`` lets the stage forget what the batch
    did to its memory, and after a backoff the batch is redone: the service
    says so in its log and health and keeps running. Any other exception
    raised while a message is handled (or an output too large for its topic,
    sized before anything is produced) aborts the batch, which is redone after
    the same backoff; the POISON_AFTER-th time that message fails, it is
    dead-lettered with the error instead, after the outputs ``on_poison`` gives
    for it (a FAILED outcome, so that no one waits for it for ever). Anything
    else propagates: the process exits and the batch is redone after its restart.

    The member is static (``group.instance.id`` = ``<stage>-<INSTANCE_ID>``): a
    restarted instance takes its partitions back at once instead of waiting
    for the group to notice that its killed self is gone.
    """

    def __init__(
        self,
        settings: KafkaSettings,
        *,
        stage: str,
        group_id: str,
        source: TopicSpec,
        event_type: type[E],
        handle: Callable[[E], Iterable[Emit]],
        batch_size: int = 16,
        on_assign: Callable[[Consumer, list[TopicPartition]], None] | None = None,
        on_abort: Callable[[list[TopicPartition]], None] | None = None,
        transient: Transient | None = None,
        on_poison: Callable[[E, Exception], Iterable[Emit]] | None = None,
    ):
        self.settings, self.stage, self.source = settings, stage, source
        self.event_type, self.handle, self.batch_size = event_type, handle, batch_size
        self.prefix = settings.eduanima_topic_prefix
        self.codec = codec_for(settings)
        self.group_id = self.prefix + group_id
        self._consumer_failed: KafkaError | None = None
        self._replaced: list[float] = []
        self.consumer = self._make_consumer()
        # Stable across restarts: init_transactions then aborts what a crashed predecessor
        # left open.
        self.transactional_id = transactional_id(self.prefix, stage, settings.instance_id)
        self._wedged: list[Producer] = []  # given up on, kept: a thread is still blocked in it
        self.producer, self._watchdog = self._make_producer()
        self._on_assign, self._on_abort, self._on_poison = on_assign, on_abort, on_poison
        extra = [transient] if transient else []
        self._transient = any_of(kafka_transient, named_dependency, *extra)
        # capped low: after an outage the stage tries again within ~2 s of the dependency
        # being back (each try of a database that is down waits DB_WAIT_S anyway)
        self._backoff = Backoff(first=0.5, cap=2.0)
        self._committed = 0
        self._handling: tuple[str, int, int] | None = None  # the message being handled
        self._failures: dict[tuple[str, int, int], int] = {}  # by message: failed handlings
        self._aside = ThreadPoolExecutor(1, thread_name_prefix=f"{stage}-offsets")
        self._hold_after = hook_hold_after(settings.eduanima_test_hold_transaction, stage)
        self._last_client_error = 0.0

    def _make_producer(self) -> tuple[Producer, Watchdog]:
        self._producer_lost_brokers = False
        producer = make_producer(
            self.settings, transactional_id=self.transactional_id, error_cb=self._producer_error
        )
        return producer, Watchdog(f"{self.stage}-txn")

    def _producer_error(self, err: KafkaError) -> None:
        if err.code() == KafkaError._ALL_BROKERS_DOWN:
            self._producer_lost_brokers = True  # see _transact
        self._client_error(err)

    def _replace_producer(self, stop: threading.Event, reason: str) -> None:
        """A fresh producer with the same transactional id: its init_transactions fences the
        old one and aborts the transaction it had open."""
        logger.warning("stage %s: replacing its producer: %s", self.stage, reason)
        self._wedged.append(self.producer)
        self.producer, self._watchdog = self._make_producer()
        retry_while_down(
            lambda: self.producer.init_transactions(10),
            what=f"stage {self.stage} replacing its producer",
            transient=kafka_transient,
            stop=stop,
        )

    def _make_consumer(self) -> Consumer:
        return make_consumer(
            self.settings,
            self.group_id,
            **{
                "group.instance.id": f"{self.stage}-{self.settings.instance_id}",
                "session.timeout.ms": self.settings.kafka_session_timeout_ms,
                "heartbeat.interval.ms": max(500, self.settings.kafka_session_timeout_ms // 10),
                "error_cb": self._consumer_error,
            },
        )

    def encoded(self, emit: Emit) -> tuple[Emit, bytes]:
        """The output as it will be produced; OutputTooLarge when its topic cannot take it."""
        value = self.codec.encode(emit.event, full_name(emit.topic, self.prefix))
        limit = (emit.topic.max_message_bytes or DEFAULT_MESSAGE_BYTES) - RECORD_OVERHEAD_BYTES
        if len(value) > limit:
            raise OutputTooLarge(
                f"{type(emit.event).__name__} of {len(value):,} bytes for {emit.topic.name},"
                f" which takes {limit:,}"
            )
        return emit, value

    def produce(self, emit: Emit, value: bytes | None = None) -> None:
        topic = full_name(emit.topic, self.prefix)
        self.producer.produce(
            topic,
            key=emit.key.encode(),
            value=self.codec.encode(emit.event, topic) if value is None else value,
            headers=[(k, v.encode()) for k, v in emit.headers.items()],
        )
        PRODUCED.labels(topic).inc()

    def _dead_letter(self, msg: Message, exc: BaseException) -> None:
        logger.warning(
            "dead-lettering %s[%s]@%s in %s: %s",
            msg.topic(),
            msg.partition(),
            msg.offset(),
            self.stage,
            exc,
        )
        self.producer.produce(
            dlq_name(self.source, self.prefix),
            key=msg.key(),
            value=msg.value(),
            headers=dead_letter_headers(msg, exc, self.stage),
        )
        DEAD_LETTERED.labels(msg.topic(), self.stage).inc()

    def process(self, msg: Message) -> None:
        CONSUMED.labels(msg.topic(), self.stage).inc()
        self._handling = where = (msg.topic(), msg.partition(), msg.offset())
        event: E | None = None
        try:
            event = self.codec.decode(
                self.event_type, msg.value(), msg.topic(), msg.partition(), msg.offset()
            )
            # sized before anything is produced: an output its topic cannot take is the
            # message's fault, as a bug is (it would fail the same way after every restart)
            outputs = [self.encoded(emit) for emit in self.handle(event)]
        except Rejected as exc:
            for emit in exc.emits:
                self.produce(emit)
            self._dead_letter(msg, exc)
            return
        except (AvroDecodeError, InvalidInput) as exc:
            self._dead_letter(msg, exc)
            return
        except Exception as exc:
            if self._transient(exc) or self._failures.get(where, 0) < POISON_AFTER - 1:
                raise
            self._failures.pop(where, None)
            self._poisoned(msg, event, exc)
            return
        self._handling = None  # what fails from here on is no fault of the message's
        for emit, value in outputs:
            self.produce(emit, value)

    def _poisoned(self, msg: Message, event: E | None, exc: Exception) -> None:
        """Dead-letter a message whose handling failed every time, after what the stage
        says about it (``on_poison``: the outcome its producer waits for, FAILED)."""
        emits: list[Emit] = []
        if event is not None and self._on_poison is not None:
            try:
                emits = list(self._on_poison(event, exc))
            except Exception:  # the dead letter still goes; the outcome is in the log
                logger.exception("stage %s: reporting a poison message failed", self.stage)
        for emit in emits:
            self.produce(emit)
        self._dead_letter(msg, exc)

    def _assigned(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        health.stage_assigned(self.stage, [p.partition for p in partitions])
        if self._on_assign:
            self._on_assign(consumer, partitions)

    def run(self, stop: threading.Event) -> None:
        try:
            # a broker that is not up yet is waited for, as any other outage
            retry_while_down(
                lambda: self.producer.init_transactions(10),
                what=f"stage {self.stage} starting",
                transient=kafka_transient,
                stop=stop,
            )
        except KafkaException:
            self.consumer.close()
            if stop.is_set():
                return
            raise
        self.consumer.subscribe([full_name(self.source, self.prefix)], on_assign=self._assigned)
        logger.info("stage %s consuming %s", self.stage, full_name(self.source, self.prefix))
        try:
            while not stop.is_set():
                batch = self._next_batch()
                if not batch:
                    continue
                try:
                    self._transact(batch, stop)
                except Exception as exc:
                    if stop.is_set() and self._transient(exc):
                        self._abort_quietly()  # stopping anyway; a restart redoes the batch
                        break
                    self._recover(batch, exc, stop)
            self._leave_group()
        finally:
            self.consumer.close()
            self.producer.flush(10)

    def _leave_group(self) -> None:
        """A static member that closes keeps its partitions until its session times out;
        one that stops on purpose (scaling in) hands them over now. Unsubscribing first
        makes librdkafka send the LeaveGroup it skips on close (measured: the other member
        had the partitions 0.06 s after, against 6 s)."""
        try:
            self.consumer.unsubscribe()
            deadline = time.monotonic() + 2
            while self.consumer.assignment() and time.monotonic() < deadline:
                self.consumer.poll(0.05)
        except KafkaException as exc:  # a broker that is away: the session timeout will do
            logger.info("stage %s: could not leave the group: %s", self.stage, exc)

    def _transact(self, batch: list[Message], stop: threading.Event) -> None:
        """One batch, one transaction: its outputs and its consumed offsets, or nothing.

        A producer that has seen every broker go away is replaced before it is used again:
        after a broker restart, librdkafka's first send_offsets_to_transaction blocks for
        good (see ``Watchdog``; measured: every stage's first transaction after a restart
        of the local broker). ``poll(0)`` serves the producer's error events first."""
        self.producer.poll(0)
        if self._producer_lost_brokers:
            self._replace_producer(stop, "it lost every broker while idle")
        self.producer.begin_transaction()
        # The consumed offsets are known before the stage runs, so they join the transaction
        # while it works (on the aside thread, through the watchdog as before): their two
        # broker round trips (AddOffsetsToTxn, TxnOffsetCommit) no longer add to every hop.
        # Measured one question at a time: 5.2-8.3 ms per hop on the critical path before.
        offsets = self.consumer.position(self.consumer.assignment())
        metadata = self.consumer.consumer_group_metadata()
        producer = self.producer
        joined = self._aside.submit(
            self._until_done,
            "send_offsets_to_transaction",
            lambda: producer.send_offsets_to_transaction(offsets, metadata, TXN_STEP_S),
            stop,
        )
        try:
            for msg in batch:
                self.process(msg)
            self._handling = None
            if self._hold_after == self._committed:
                self._hold_open(batch, stop)
        finally:
            wait([joined])  # no other transactional call may overlap it, abort included
        joined.result()
        self.producer.poll(0)
        if self._producer_lost_brokers:  # the broker went away during this batch
            raise ProducerStuck(
                KafkaError(KafkaError._ALL_BROKERS_DOWN, "every broker went away in the batch")
            )
        self._until_done(
            "commit_transaction", lambda: producer.commit_transaction(TXN_STEP_S), stop
        )
        self._committed += 1
        self._backoff.reset()
        health.stage_committed(self.stage, len(batch))
        health.dependency_ok("kafka")

    def _until_done(self, what: str, call: Callable[[], None], stop: threading.Event) -> None:
        """A transaction step that timed out may simply be called again (librdkafka's
        contract for retriable errors); abortable and fatal errors, and a step stuck past
        its own timeout, go to ``_recover``."""
        while True:
            try:
                self._watchdog.call(call, STUCK_AFTER_S, what)
                return
            except ProducerStuck:
                raise
            except KafkaException as exc:
                err = kafka_error(exc)
                if err is None or not err.retriable() or err.txn_requires_abort():
                    raise
                if stop.is_set():
                    raise
                health.dependency_down("kafka", exc)
                delay = self._backoff.next()
                logger.warning(
                    "stage %s: Kafka did not complete the transaction yet (%s); "
                    "trying again in %.1f s",
                    self.stage,
                    err.str(),
                    delay,
                )
                stop.wait(delay)

    def _recover(self, batch: list[Message], exc: Exception, stop: threading.Event) -> None:
        """Abort the batch; wait and redo it when a dependency was down, else re-raise."""
        err = kafka_error(exc)
        failed = self._consumer_failed or (
            err if err is not None and err.code() == KafkaError.FENCED_INSTANCE_ID else None
        )
        if failed is not None:  # the consumer failed during the batch
            self._replace_consumer(failed.str())
            return
        if err is not None and (err.fatal() or fenced(err)):
            self._abort_quietly()
            if fenced(err):
                raise RuntimeError(
                    f"stage {self.stage}: another instance took over transactional id "
                    f"{self.transactional_id}; give each running instance its own INSTANCE_ID"
                ) from exc
            raise exc
        if isinstance(exc, ProducerStuck):
            health.stage_aborted(self.stage, str(exc))
            self._replace_producer(stop, str(exc))  # fences it, aborting its transaction
            self._rewind(batch)
            return
        dependency = self._transient(exc)
        if dependency is None and self._handling is not None:
            self._failed_handling(batch, exc, stop)
            return
        if dependency is None:
            logger.error("stage %s failed; aborting batch\n%s", self.stage, traceback.format_exc())
            self._abort_quietly()
            raise exc
        health.dependency_down(dependency, exc)
        health.stage_aborted(self.stage, f"{dependency} unavailable: {exc}")
        self._abort_while_down(stop)
        self._rewind(batch)
        delay = self._backoff.next()
        logger.warning(
            "stage %s: %s unavailable; batch of %d aborted, redone in %.1f s: %s",
            self.stage,
            dependency,
            len(batch),
            delay,
            exc,
        )
        stop.wait(delay)

    def _failed_handling(self, batch: list[Message], exc: Exception, stop: threading.Event) -> None:
        """A message's handling raised: abort and redo the batch after a backoff, counting
        the failure against the message (``process`` dead-letters it at POISON_AFTER)."""
        where, self._handling = self._handling, None
        failures = self._failures[where] = self._failures.get(where, 0) + 1
        if len(self._failures) > 1_000:  # bounded: the oldest counts go first
            del self._failures[next(iter(self._failures))]
        logger.error(
            "stage %s failed on %s[%s]@%s (failure %d; the %dth dead-letters it); aborting\n%s",
            self.stage, *where, failures, POISON_AFTER, traceback.format_exc(),
        )  # fmt: skip
        health.stage_aborted(self.stage, f"{type(exc).__name__}: {exc}")
        self._abort_quietly()
        self._rewind(batch)
        stop.wait(self._backoff.next())

    def _abort_while_down(self, stop: threading.Event) -> None:
        """Abort, retrying while the coordinator cannot be reached (no transaction is fine)."""

        def abort() -> None:
            try:
                self._watchdog.call(
                    lambda: self.producer.abort_transaction(TXN_STEP_S),
                    STUCK_AFTER_S,
                    "abort_transaction",
                )
            except ProducerStuck as exc:
                self._replace_producer(stop, str(exc))  # its init aborts what was open
            except KafkaException as exc:
                err = kafka_error(exc)
                if err is not None and err.code() == KafkaError._STATE:
                    return  # nothing was begun: the failure came before begin_transaction
                raise

        retry_while_down(
            abort, what=f"stage {self.stage} aborting", transient=kafka_transient, stop=stop
        )

    def _abort_quietly(self) -> None:
        try:
            self._watchdog.call(
                lambda: self.producer.abort_transaction(TXN_STEP_S),
                STUCK_AFTER_S,
                "abort_transaction",
            )
        except KafkaException as exc:  # the process is about to exit; its restart aborts
            logger.warning("stage %s: abort failed: %s", self.stage, exc)

    def _rewind(self, batch: list[Message]) -> None:
        """Seek each partition of the batch back to its first message, to be consumed again,
        and let the stage forget what the batch did to its memory (``on_abort``)."""
        first: dict[tuple[str, int], int] = {}
        for msg in batch:
            key = (msg.topic(), msg.partition())
            first[key] = min(first.get(key, msg.offset()), msg.offset())
        for (topic, partition), offset in first.items():
            try:
                self.consumer.seek(TopicPartition(topic, partition, offset))
            except KafkaException as exc:  # revoked meanwhile: its new owner starts there
                logger.info("stage %s: not rewinding %s[%s]: %s", self.stage, topic, partition, exc)
        if self._on_abort is not None:
            self._on_abort(self.consumer.assignment())

    def _hold_open(self, batch: list[Message], stop: threading.Event) -> None:
        """Test hook (EDUANIMA_TEST_HOLD_TRANSACTION): the batch is consumed and its outputs
        are on the broker, but the transaction is not committed; wait to be killed."""
        self.producer.flush(10)
        inputs = [
            {
                "topic": m.topic(),
                "partition": m.partition(),
                "offset": m.offset(),
                "key": (m.key() or b"").decode(errors="replace"),
            }
            for m in batch
        ]
        health.stage_holding(self.stage, inputs)
        logger.warning(
            "TEST HOOK: stage %s holds its transaction open after %d committed batch(es)",
            self.stage,
            self._committed,
        )
        stop.wait(TEST_HOLD_S)

    def _consumer_error(self, err: KafkaError) -> None:
        if err.fatal():  # the consumer is unusable; the loop replaces it (_replace_consumer)
            self._consumer_failed = err
        self._client_error(err)

    def _replace_consumer(self, reason: str) -> None:
        """A new consumer, same static identity, in place of one that failed for good.

        After a broker outage longer than the session timeout, librdkafka rejoins the group
        on its own, and the coordinator may fence the old membership of the same
        ``group.instance.id`` ("static consumer fenced"): a fatal error for that consumer,
        although nobody else took its place. The open transaction (if any) is aborted, the
        stage forgets what it did, and the new member resumes from the committed offsets.
        Fenced again and again within a minute means another process really has this
        INSTANCE_ID: that stops the stage.
        """
        now = time.monotonic()
        self._replaced = [t for t in self._replaced if now - t < 60] + [now]
        if len(self._replaced) > 3:
            raise RuntimeError(
                f"stage {self.stage}: its consumer failed {len(self._replaced)} times in a "
                f"minute ({reason}); is another instance running as {self.stage}-"
                f"{self.settings.instance_id}? Give each running instance its own INSTANCE_ID"
            )
        logger.warning("stage %s: replacing its failed consumer: %s", self.stage, reason)
        self._abort_quietly()
        try:
            self.consumer.close()
        except (KafkaException, RuntimeError) as exc:
            logger.info("stage %s: closing the failed consumer: %s", self.stage, exc)
        self._consumer_failed = None
        self.consumer = self._make_consumer()
        self.consumer.subscribe([full_name(self.source, self.prefix)], on_assign=self._assigned)
        if self._on_abort is not None:
            self._on_abort([])  # the new assignment restores what the stage needs

    def _client_error(self, err: KafkaError) -> None:
        """librdkafka's own errors (from poll): a broker that is away shows in the health."""
        if err.fatal() or not not_ready(err):
            logger.error("stage %s: Kafka client error: %s", self.stage, err.str())
            return
        health.dependency_down("kafka", err.str())
        if time.monotonic() - self._last_client_error > 10:
            self._last_client_error = time.monotonic()
            logger.warning("stage %s: Kafka unavailable: %s", self.stage, err.str())

    def _next_batch(self) -> list[Message]:
        """Wait for one message, then take only what has already arrived.

        ``consume(n, timeout)`` waits for n messages or the whole timeout, so every
        hop of a quiet loop would idle for the timeout (measured: 611 ms → 193 ms
        for a one-iteration question through four hops).
        """
        if self._consumer_failed is not None:
            self._replace_consumer(self._consumer_failed.str())
        first = self.consumer.poll(0.2)
        if first is None:
            return []
        batch = [first, *self.consumer.consume(self.batch_size - 1, timeout=0)]
        return [m for m in batch if self._is_message(m)]

    def _is_message(self, msg: Message) -> bool:
        err = msg.error()
        if err is None:
            return True
        if err.code() == KafkaError._PARTITION_EOF:  # informational
            return False
        if err.fatal() or err.code() == KafkaError.FENCED_INSTANCE_ID:
            self._consumer_failed = err  # replaced before the next poll
            return False
        if not_ready(err):  # a partition whose leader is away: the consumer retries it
            health.dependency_down("kafka", err.str())
            logger.warning("stage %s: %s", self.stage, err.str())
            return False
        raise KafkaException(err)


# How long the test hook holds a transaction open: far longer than any test takes to kill.
TEST_HOLD_S = 300.0


def hook_hold_after(setting: str, stage: str) -> int | None:
    """The number of batches ``stage`` commits before the test hook holds one open, from
    ``<stage>[@<batches>]``; None when the hook is off or names another stage."""
    if not setting:
        return None
    name, _, after = setting.partition("@")
    if name != stage:
        return None
    return int(after or 0)
