"""faust's aiokafka transport, corrected where exactly-once tables lost or doubled counts.

Each correction was found with two insights instances and sessions arriving across the
rebalances (``tests/integration/insights/test_insights_rebalance.py``), and each class
says what it measured:

- ``ConsumerThread``: recovery's end of a changelog comes from the broker, not from a cache
  that is empty for a partition not yet fetched (a moved partition crashed the worker);
- ``Consumer``: a partition is read again before committing past a message the streams
  never saw (dropped while a rebalance suspended the flow: a question never counted);
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
    committed one, the partition is read again from there once; if the offset still does
    not come, it is a marker and the commit goes ahead.
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
                if self._reread_from.get(tp) != committed:
                    self._reread_from[tp] = committed
                    self.log.info("reading %s again from %s before committing", tp, committed)
                    asyncio.ensure_future(self.seek(tp, committed))
                    return None
        return super()._new_offset(tp)

    async def on_partitions_revoked(self, revoked: set[Any]) -> None:
        for tp in revoked:
            (self._reread_from or {}).pop(tp, None)
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
