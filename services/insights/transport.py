"""faust's aiokafka transport, corrected where exactly-once tables lost or doubled counts.

Each correction was found with two insights instances and sessions arriving across the
rebalances (``tests/integration/insights/test_insights_rebalance.py``), and each class
says what it measured:

- ``ConsumerThread``: recovery's end of a changelog comes from the broker, not from a cache
  that is empty for a partition not yet fetched (a moved partition crashed the worker);
- ``Consumer.position``: recovery takes a changelog's tail as aborted only once every record
  fetched from it is in the table (it skipped records still on their way: after a crash
  takeover, a subject's counts started again from 1);
- ``Consumer``: a partition is read again before committing past a message the streams
  never saw (dropped while a rebalance suspended the flow: a question never counted), and
  the commit waits for the re-read however long it takes (it went past a late one: a
  session never finished after a crash);
- ``DrainableBuffer`` + ``TransactionManager``: a transaction commits only once every
  table change made so far is in it, and no stream changes a table meanwhile (a change
  landed in the next transaction and was lost when a rebalance aborted it);
- ``AbortingTransactionManager``: a rebalance aborts every open transaction, since faust
  rebuilds every table from its changelog then (a count went back from 4 to 3).

With them, processing stays exactly once in the sense the tests check; ``stages.py`` is
idempotent besides, so a message read twice still counts once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import faust
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from faust.transport.consumer import TransactionManager as TransactionManagerBase
from faust.transport.drivers import aiokafka as driver
from faust.transport.producer import ProducerBuffer


def after_reread(asked_from: int | None, committed: int, first: int | None) -> str:
    """What to do about the ``committed`` offset of a partition whose next offset has been
    acknowledged but not this one, given where a re-read was last asked from and the first
    offset it handed over (None: nothing yet): "read again" when none was asked from here,
    or when the message came again and still was not acknowledged; "wait" until the re-read
    hands something over; "commit" past the offset once the re-read began after it (there is
    nothing there for a read_committed consumer: a transaction marker)."""
    if asked_from != committed or first == committed:
        return "read again"
    if first is None:
        return "wait"
    return "commit"


def recovered_through(position: int, fetched: int | None, applied: int | None) -> int:
    """The last offset of a changelog partition that recovery is done with, given the
    consumer's ``position`` (the next offset to fetch: past aborted records and transaction
    markers too), the last offset ``fetched`` (handed to faust) and the last one ``applied``
    to the table: ``position - 1`` once every record fetched has been applied, else the last
    applied record (-1 for none), since one fetched may still be on its way to the table.
    faust compares it with the highwater, the last offset to read (the position itself would
    count the record at the highwater as read before it was even fetched)."""
    if fetched is not None and (applied is None or fetched > applied):
        return -1 if applied is None else applied
    return position - 1


class ConsumerThread(driver.AIOKafkaConsumerThread):
    """When a table partition is assigned, faust's recovery reads its changelog up to the
    "highwater" (the last offset, taken as end offset - 1). In exactly-once mode faust takes
    the end offset from aiokafka's cached last stable offset, which stays unknown (-1) for a
    partition the consumer has not fetched yet: a partition moved by a rebalance crashed the
    worker (ConsistencyError, "persisted offset 84 > highwater -1"), and by faust's own
    arithmetic one with no earlier offset would be taken as empty and not recovered.

    Here the end offset comes from the broker (``end_offsets`` of a read_committed consumer
    is the last stable offset), less one: a transactional changelog always ends with a
    commit marker, which no consumer receives, so the last record recovery can reach is the
    one before it. Without that, recovery would wait for the marker until faust's
    aborted-transaction check gives up (two 5-second timeouts) on every assignment.
    """

    fetched: dict[Any, int]  # per partition, the last offset handed to faust since a seek
    reread_first: dict[Any, int | None]  # see reread

    def __post_init__(self) -> None:
        super().__post_init__()
        self.fetched = {}
        self.reread_first = {}

    async def _fetch_records(self, *args: Any, **kwargs: Any) -> Any:
        # in the consumer's thread, in the same step as aiokafka moves the position past them
        records = await super()._fetch_records(*args, **kwargs)
        for tp, messages in records.items():
            if messages:
                self.fetched[tp] = messages[-1].offset
                if tp in self.reread_first and self.reread_first[tp] is None:
                    self.reread_first[tp] = messages[0].offset
        return records

    async def reread(self, tp: Any, offset: int) -> None:
        """Read ``tp`` again from ``offset``, noting the first offset handed over after it
        (``reread_first``; None until then)."""
        await self.call_thread(self._reread, tp, offset)

    async def _reread(self, tp: Any, offset: int) -> None:
        # in the consumer's thread, like _fetch_records: a record handed over after the seek
        # was fetched after it (aiokafka drops what it held of the partition)
        consumer = self._ensure_consumer()
        if tp in consumer.assignment():  # not moved away meanwhile
            self.reread_first[tp] = None
            consumer.seek(tp, offset)

    async def _seek_wait(self, consumer: Any, partitions: Mapping[Any, int]) -> None:
        for tp in partitions:  # what was fetched before the seek is not coming any more
            self.fetched.pop(tp, None)
        await super()._seek_wait(consumer, partitions)

    async def _highwaters(self, partitions: list[Any]) -> Mapping[Any, int]:
        consumer: AIOKafkaConsumer = self._ensure_consumer()
        ends = await consumer.end_offsets(partitions)
        if not self.consumer.in_transaction:
            return ends
        return {tp: max(end - 1, 0) for tp, end in ends.items()}


class Consumer(driver.Consumer):
    """faust's consumer, which reads a partition again before committing past a message its
    streams never saw.

    faust commits the offset after the first run of consecutive acknowledged offsets, and
    tolerates one missing offset right after the committed one (a transaction's commit
    marker, which no consumer receives, often sits there). A message fetched during a
    rebalance, while the flow is suspended, is dropped without being acknowledged; when it
    is the first after the committed offset, that tolerance committed past it. Measured
    with two instances: a question at the committed offset of a partition that had just
    moved was never counted. So when the first acknowledged offset is one past the
    committed one, the partition is read again from there, and the commit waits for what
    the re-read hands over first: the message itself (then it is acknowledged in turn), or
    a later one, when the offset holds nothing a read_committed consumer receives (a
    marker) and the commit goes ahead.

    The commit used to go ahead on the next commit (a second later) when the message had
    not come by then. Measured under CPU load: the re-read of an answer came 1.1 s after it
    was asked for, the offset had been committed past it 0.06 s earlier, and the session it
    completed was lost with the instance, killed before its next commit (one of 33 sessions
    of a subject never finished).
    """

    _reread_from: dict[Any, int] | None = None

    def _new_consumer_thread(self) -> ConsumerThread:
        return ConsumerThread(self, loop=self.loop, beacon=self.beacon)

    def _new_offset(self, tp: Any) -> int | None:
        acked = self._acked[tp]
        committed = self._committed_offset[tp]
        if acked and committed is not None and min(acked) == committed + 1:
            if not self._gap[tp].overlaps(committed):
                if self._reread_from is None:
                    self._reread_from = {}
                first = self._thread.reread_first.get(tp)
                step = after_reread(self._reread_from.get(tp), committed, first)
                if step == "read again":
                    self._reread_from[tp] = committed
                    self._thread.reread_first.pop(tp, None)  # whatever an earlier re-read saw
                    self.log.info("reading %s again from %s before committing", tp, committed)
                    asyncio.ensure_future(self._reread(tp, committed))
                    return None
                if step == "wait":
                    return None
                self.log.info(
                    "%s holds no message at %s (the re-read began at %s)", tp, committed, first
                )
        return super()._new_offset(tp)

    async def _reread(self, tp: Any, offset: int) -> None:
        self._read_offset[tp] = offset or None  # as faust's seek: the re-read is not taken as read
        await self._thread.reread(tp, offset)

    async def position(self, tp: Any) -> int | None:
        """For a changelog partition, the last offset recovery is done with (faust calls this
        only to decide that a recovering changelog ends in an aborted transaction).

        The records recovery waits for then never come, so faust ends the recovery once two
        waits for a changelog record have timed out and the position has reached the
        highwater. But the position moves when records are handed over to faust, before they
        are applied to a table, and faust keeps counting timeouts from one recovery to the
        next: the first 5-second timeout after a rebalance could end the recovery while the
        fetched changelog still sat in faust's queue, and recovery then skipped those records
        as already seen. Measured with two instances, the second taking over all partitions
        from the first (SIGKILLed) under CPU load: recovery ended 0.08 s after it started,
        with the tables holding a fraction of their changelogs, and the subject counts started
        again from 1 on top of that (35 of 40 questions left in the committed changelog, 3 in
        the view).
        """
        position = await super().position(tp)
        if position is None or not self._is_changelog_tp(tp):
            return position
        applied = self.app.tables.recovery.active_offsets.get(tp)
        return recovered_through(position, self._thread.fetched.get(tp), applied)

    async def on_partitions_revoked(self, revoked: set[Any]) -> None:
        for tp in revoked:
            (self._reread_from or {}).pop(tp, None)
            self._thread.reread_first.pop(tp, None)
        await super().on_partitions_revoked(revoked)


class DrainableBuffer(ProducerBuffer):
    """faust's send buffer, which also knows when everything put in it reached the producer.

    Table changes go through this buffer (a table's ``__setitem__`` cannot await), and a
    background task hands them to the transactional producer. faust commits a transaction
    without waiting for that task, so a change still in the buffer landed in the *next*
    transaction. Measured with two instances: sessions whose offsets had committed were
    missing from the tables after a rebalance aborted that next transaction.
    """

    in_flight = 0

    async def _send_pending(self, fut: Any) -> None:
        self.in_flight += 1  # taken off the queue (size) but not yet handed over
        try:
            await super()._send_pending(fut)
        finally:
            self.in_flight -= 1

    async def drain(self, timeout_s: float = 30.0) -> None:
        """Wait until everything put in the buffer is in the producer's hands."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        while self.size or self.in_flight:
            if self.should_stop or self.state != "running":
                raise RuntimeError("the producer buffer stopped with changes still in it")
            if asyncio.get_running_loop().time() > deadline:
                raise RuntimeError(f"the producer buffer did not drain in {timeout_s} s")
            await asyncio.sleep(0.001)


class Producer(driver.Producer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        buffer = DrainableBuffer(loop=self.loop, beacon=self.beacon)
        if getattr(self.buffer, "threaded_producer", None) is not None:
            buffer.threaded_producer = self.buffer.threaded_producer
        buffer.app = self.app
        self.buffer = buffer


class TransactionManager(TransactionManagerBase):
    async def commit(self, offsets: Mapping[Any, int], start_new_transaction: bool = True) -> bool:
        """Commit only once every table change made so far is in the transaction, and let no
        stream change a table until it has committed: the changes of one event then never
        straddle two transactions (measured: a session's entry committed in one, the count
        it made lost with the next, aborted in a rebalance)."""
        async with self.app.commit_lock:
            await self.producer.buffer.drain()
            open_offsets = {tp: o for tp, o in offsets.items() if self._in_transaction(tp)}
            if len(open_offsets) < len(offsets):
                # e.g. stopping in the middle of a rebalance: faust would commit through a
                # producer that has no transaction (IllegalOperation, and the worker hung).
                # Those offsets stay uncommitted; their events are read again, idempotently.
                self.log.info(
                    "not committing %s: no open transaction", set(offsets) - set(open_offsets)
                )
            if not open_offsets:
                return False
            return await super().commit(open_offsets, start_new_transaction)

    def _in_transaction(self, tp: Any) -> bool:
        group = self.app.assignor.group_for_topic(tp.topic)
        transactional_id = f"{self.app.conf.id}-{group}-{tp.partition}"
        producer: AIOKafkaProducer | None = self.producer._transaction_producers.get(
            transactional_id
        )
        return producer is not None and producer._txn_manager.is_in_transaction()


class AbortingTransactionManager(TransactionManager):
    async def on_rebalance(self, assigned: Any, revoked: Any, newly_assigned: Any) -> None:
        """Abort every open transaction on a rebalance, not only those of partitions that
        moved: faust drops the acknowledgements of everything not yet committed, and
        rebuilds the tables from their changelogs, so what an open transaction holds would
        otherwise commit on top of a state that no longer includes it (measured: a count
        went from 4 back to 3). A new producer under the same transactional id aborts what
        the old one left open; the events are then read again from the committed offsets.
        """
        for transactional_id in list(self.producer._transaction_producers):
            await self.producer.stop_transaction(transactional_id)
        await super().on_rebalance(assigned, revoked, newly_assigned)


class Transport(driver.Transport):
    Consumer = Consumer
    Producer = Producer
    TransactionManager = AbortingTransactionManager


class App(faust.App):
    """A faust app on the corrected transport (consumer and producer alike).

    Streams that change tables hold ``commit_lock`` while they handle an event (without
    awaiting inside), so a commit falls between events, never inside one.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commit_lock = asyncio.Lock()

    def _new_transport(self) -> Any:
        return Transport(self.conf.broker_consumer, self)

    def _new_producer_transport(self) -> Any:
        return Transport(self.conf.broker_producer, self)
