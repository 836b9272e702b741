"""Insights shell: a faust app around the pure stages in ``stages.py``.

Two agents, one per group of co-partitioned topics:

- ``loop`` reads ``questions``, ``search.requests``, ``search.results``, ``evaluations`` and
  ``answers`` (6 partitions each, keyed by session): the ``sessions`` table joins each
  session's events, the ``loop`` table keeps per-partition aggregates of subjects
  (``subject/<id>/<p>``) and stage timings (``timings/<p>``);
- ``ingest`` reads ``ingest.jobs``, ``chunks.stored`` and ``materials.changes`` (3
  partitions): the ``jobs`` table pairs each job with its result, the ``ingest`` table keeps
  per-partition materials (``materials/<id>/<p>``) and the ingestor's timings.

Every table writes the partition it was computed from; its changelog (declared in
``topics/registry.py``) has the partition count of its sources. Processing is exactly once:
each partition group's table changes and consumed offsets commit in one Kafka transaction,
inputs are read read_committed (the loop's aborted batches never count), ``transport.py``
corrects where faust itself lost or doubled counts across rebalances, and ``stages.py`` is
idempotent besides. (At least once, faust doubled counts in a graceful rebalance: 3,120
counted of 3,000 messages, in a first experiment with two workers.)

The views (faust's web server) gather the partials of every instance: each answers for the
partitions it owns (``/insights/local/…``), and the serving one merges them (``views.py``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import faust
import httpx
from prometheus_client import CollectorRegistry, Counter

from services.common import health
from services.common.events import ChunksStored, IngestJob, MaterialChanged
from services.common.kafka_io import make_consumer
from services.common.settings import RuntimeSettings
from services.insights import codec, lag, stages, transport, views
from services.insights.metrics import InsightsCollector
from services.insights.settings import InsightsSettings
from topics.apply import admin_client
from topics.registry import (
    INSIGHTS_INGEST,
    INSIGHTS_JOBS,
    INSIGHTS_LOOP,
    INSIGHTS_SESSIONS,
    TopicSpec,
    full_name,
)

logger = logging.getLogger(__name__)

SWEEP_EVERY_S = 60.0  # how often a partition's stale pending entries are looked for
STOP_GRACE_S = 20.0


class ObservedTopic(faust.Topic):
    """A faust topic that reports what it cannot decode instead of skipping it silently.

    faust acks an undecodable message and calls ``on_decode_error``, which does nothing by
    default. The bytes stay on their topic (at the logged offset); this logs them and
    counts them in ``eduanima_insights_undecodable_total``.
    """

    undecodable: Counter  # set on the subclass each app makes (faust clones topics)

    async def on_decode_error(self, exc: Exception, message: Any) -> None:
        logger.error(
            "insights cannot decode %s[%s]@%s: %s",
            message.topic,
            message.partition,
            message.offset,
            exc,
        )
        self.undecodable.labels(message.topic).inc()


class Insights:
    """The faust app, its topics, tables, agents and web pages."""

    def __init__(self, settings: InsightsSettings):
        self.settings = settings
        self.prefix = prefix = settings.eduanima_topic_prefix
        codec.register(settings)
        servers = ";".join(
            f"kafka://{s.strip()}" for s in settings.kafka_bootstrap_servers.split(",")
        )
        self.app = transport.App(
            f"{prefix}insights",
            broker=servers,
            store="memory://",
            # the tables live in memory and recover from their changelogs; faust still makes an
            # (empty) data folder, which by default lands in the working directory
            datadir=str(Path(tempfile.gettempdir()) / "{conf.name}-data"),
            processing_guarantee="exactly_once",
            # topics are code: topics/registry.py declares the changelogs, `topics apply` makes them
            topic_allow_declare=False,
            topic_disable_leader=True,
            # a moved partition recovers its compacted changelog in well under a second: no
            # standby replicas consuming every changelog twice
            table_standby_replicas=0,
            consumer_auto_offset_reset="earliest",
            broker_commit_interval=settings.insights_commit_interval_s,
            broker_session_timeout=settings.insights_session_timeout_s,
            broker_heartbeat_interval=min(3.0, settings.insights_session_timeout_s / 3),
            web_bind=settings.insights_web_host,
            web_port=settings.web_port,
            canonical_url=settings.canonical_url,
            # faust's own pages would show raw table contents (questions included) to anyone
            web_router_enabled=False,
            web_tables_enabled=False,
            web_stats_enabled=False,
            web_graph_enabled=False,
            autodiscover=False,
            worker_redirect_stdouts=False,
        )
        self.registry = CollectorRegistry()
        undecodable = Counter(
            "eduanima_insights_undecodable_total",
            "Messages insights could not decode (left on their topic, logged)",
            ["topic"],
            registry=self.registry,
        )
        self.topic_class = type("Observed", (ObservedTopic,), {"undecodable": undecodable})
        self.loop_source = self._source(lag.LOOP_SOURCES)
        self.ingest_source = self._source(lag.INGEST_SOURCES)
        self.sessions = self._table("sessions", INSIGHTS_SESSIONS)
        self.loop = self._table("loop", INSIGHTS_LOOP)
        self.jobs = self._table("jobs", INSIGHTS_JOBS)
        self.ingest = self._table("ingest", INSIGHTS_INGEST)
        self.lag: list[dict[str, Any]] = []
        self.lag_measured_at_ms: int | None = None
        self._lag_lock = threading.Lock()
        self._lag_reader: Any = None
        self._swept: dict[tuple[str, int], float] = {}
        self.app.on_partitions_revoked.connect(self.forget_revoked)
        self.app.on_rebalance_complete.connect(self.report_partitions)
        self.app.agent(self.loop_source, name="loop")(self.loop_agent)
        self.app.agent(self.ingest_source, name="ingest")(self.ingest_agent)
        self.app.task(self.refresh_lag)  # once at start, then every interval
        self.app.timer(settings.insights_lag_interval_s)(self.refresh_lag)
        self._pages()
        from faust.sensors.prometheus import setup_prometheus_sensors

        setup_prometheus_sensors(
            self.app, pattern="/metrics", registry=self.registry, name_prefix="eduanima_faust"
        )
        self.registry.register(InsightsCollector(self))

    def _source(self, specs: tuple[TopicSpec, ...]) -> faust.Topic:
        if len({s.partitions for s in specs}) != 1:
            raise ValueError(f"not co-partitioned: {[(s.name, s.partitions) for s in specs]}")
        return self.topic_class(
            self.app,
            topics=[full_name(s, self.prefix) for s in specs],
            key_serializer="raw",
            value_serializer=codec.CODEC,
        )

    def _table(self, name: str, spec: TopicSpec) -> faust.Table:
        changelog = self.app.topic(
            full_name(spec, self.prefix),
            partitions=spec.partitions,
            compacting=True,
            deleting=False,
            key_serializer="json",
            value_serializer="json",
        )
        # keys and values are JSON (faust's default for tables without a model)
        return self.app.Table(name, partitions=spec.partitions, changelog_topic=changelog)

    async def forget_revoked(self, sender: Any, revoked: set[Any], **_: Any) -> None:
        """Forget what memory holds of revoked partitions (on a rebalance: all of them), so
        that whichever instance gets one next, this one included, rebuilds it from its
        changelog: exactly what committed, while the transaction that held the rest is
        aborted (``transport.AbortingTransactionManager``) and its events read again."""
        recovery = self.app.tables.recovery
        for table in (self.sessions, self.loop, self.jobs, self.ingest):
            topic = table.changelog_topic.get_topic_name()
            gone = {tp.partition for tp in revoked if tp.topic == topic}
            data = table.data.data  # the memory store's dict
            for key in [k for k, v in data.items() if _partition_of(k, v) in gone]:
                del data[key]
            for tp in [tp for tp in revoked if tp.topic == topic]:
                recovery.active_offsets.pop(tp, None)
                recovery.active_highwaters.pop(tp, None)

    async def report_partitions(self, sender: Any, **_: Any) -> None:
        """The partitions each side owns now, in the process's health report."""
        actives = self.app.assignor.assigned_actives()
        for name, table in (("insights.loop", self.loop), ("insights.ingest", self.ingest)):
            topic = table.changelog_topic.get_topic_name()
            health.stage_assigned(name, [tp.partition for tp in actives if tp.topic == topic])

    # --- agents -----------------------------------------------------------------------------

    async def loop_agent(self, stream: Any) -> None:
        async for event in stream.events():
            message = event.message
            async with self.app.commit_lock:
                self.on_loop_event(
                    event.value, message.partition, message.offset, int(message.timestamp * 1000)
                )

    async def ingest_agent(self, stream: Any) -> None:
        async for event in stream.events():
            message = event.message
            async with self.app.commit_lock:
                self.on_ingest_event(
                    event.value, message.partition, message.offset, int(message.timestamp * 1000)
                )

    def on_loop_event(self, event: Any, p: int, offset: int, at_ms: int) -> None:
        """One loop event: join it to its session; count a new question, fold a finished
        session into its subject's and the stages' aggregates."""
        try:
            absorbed = stages.absorb(self.sessions.get(event.session_id), event, at_ms, p, offset)
        except (TypeError, AttributeError) as exc:
            self._unexpected(event, p, exc)
            return
        if absorbed.changed:
            self.sessions[event.session_id] = absorbed.entry
        if absorbed.question is not None:
            subject, asked_ms = absorbed.question
            key = f"subject/{subject}/{p}"
            self.loop[key] = stages.count_question(self.loop.get(key), asked_ms)
        outcome = absorbed.outcome
        if outcome is not None:
            if outcome.subject_id:
                key = f"subject/{outcome.subject_id}/{p}"
                self.loop[key] = stages.count_outcome(self.loop.get(key), outcome)
            key = f"timings/{p}"
            self.loop[key] = stages.add_timings(self.loop.get(key), outcome.timings)
        self._sweep_sessions(p, at_ms)

    def on_ingest_event(self, event: Any, p: int, offset: int, at_ms: int) -> None:
        """A job or its result (paired per key), or a material change."""
        if isinstance(event, MaterialChanged):
            k = f"materials/{event.subject_id}/{p}"
            self.ingest[k] = stages.count_change(self.ingest.get(k), event)
            return
        if not isinstance(event, (IngestJob, ChunksStored)):
            self._unexpected(event, p, TypeError("not an ingest event"))
            return
        key = event.idempotency_key
        paired = stages.absorb_ingest(self.jobs.get(key), event, at_ms, p, offset)
        if paired.changed:
            self.jobs[key] = paired.entry
        self._count_ingested(paired.done, p)
        self._sweep_jobs(p, at_ms)

    def _count_ingested(self, done: list[stages.Ingested], p: int) -> None:
        for item in done:
            k = f"materials/{item.subject_id}/{p}"
            self.ingest[k] = stages.count_ingested(self.ingest.get(k), item)
            if item.duration_ms is not None:
                k = f"timings/{p}"
                timing = [("ingestor", item.duration_ms, item.at_ms)]
                self.ingest[k] = stages.add_timings(self.ingest.get(k), timing)

    def _unexpected(self, event: Any, p: int, exc: Exception) -> None:
        logger.error("insights: unexpected %s on partition %s: %s", type(event).__name__, p, exc)
        self.topic_class.undecodable.labels(f"unexpected {type(event).__name__}").inc()

    def _due(self, table: str, p: int) -> bool:
        now = time.monotonic()
        if now - self._swept.get((table, p), 0.0) < SWEEP_EVERY_S:
            return False
        self._swept[(table, p)] = now
        return True

    def _sweep_sessions(self, p: int, now_ms: int) -> None:
        """Drop this partition's sessions that will not complete (only its own keys: a
        deletion is written to the current event's partition)."""
        if not self._due("sessions", p):
            return
        ttl = int(self.settings.insights_pending_ttl_s * 1000)
        for session_id, entry in list(self.sessions.items()):
            if entry.get("p") == p and stages.expired(entry, now_ms, ttl):
                if not entry.get("done"):
                    logger.info("insights: session %s never completed; dropped", session_id)
                del self.sessions[session_id]

    def _sweep_jobs(self, p: int, now_ms: int) -> None:
        if not self._due("jobs", p):
            return
        ttl = int(self.settings.insights_pending_ttl_s * 1000)
        for job_key, entry in list(self.jobs.items()):
            if entry.get("p") != p:
                continue
            kept, done = stages.expire_jobs(entry, now_ms, ttl)
            if kept is None:
                del self.jobs[job_key]
                self._count_ingested(done, p)

    def _measure_lag(self) -> list[dict[str, Any]]:
        with self._lag_lock:  # the start-up task and the timer may overlap
            if self._lag_reader is None:
                self._lag_reader = make_consumer(self.settings, f"{self.prefix}insights-lag")
            return lag.measure(admin_client(self.settings), self._lag_reader, self.prefix)

    async def refresh_lag(self) -> None:
        try:
            self.lag = await asyncio.get_running_loop().run_in_executor(None, self._measure_lag)
            self.lag_measured_at_ms = int(time.time() * 1000)
        except Exception as exc:  # noqa: BLE001 - the views say lag is unknown, nothing more
            logger.warning("insights: consumer lag not measured: %s", exc)

    # --- what this instance holds ---------------------------------------------------------------

    def owned(self) -> dict[str, list[int]]:
        """The partitions of each aggregate table this instance owns and has recovered
        (none while a rebalance or a recovery is under way)."""
        app = self.app
        ready = not app.rebalancing and not app.in_recovery
        actives = app.assignor.assigned_actives() if ready else set()
        return {
            name: sorted(
                tp.partition for tp in actives if tp.topic == table.changelog_topic.get_topic_name()
            )
            for name, table in (("loop", self.loop), ("ingest", self.ingest))
        }

    def local_subject(self, subject_id: str) -> views.Local:
        owned = self.owned()
        return views.Local(
            partitions=owned,
            partials={
                "loop": {p: self.loop.get(f"subject/{subject_id}/{p}") for p in owned["loop"]},
                "ingest": {
                    p: self.ingest.get(f"materials/{subject_id}/{p}") for p in owned["ingest"]
                },
            },
        )

    def local_stages(self) -> views.Local:
        owned = self.owned()
        return views.Local(
            partitions=owned,
            partials={
                "loop": {p: self.loop.get(f"timings/{p}") for p in owned["loop"]},
                "ingest": {p: self.ingest.get(f"timings/{p}") for p in owned["ingest"]},
            },
        )

    async def gather(self, path: str, local: views.Local) -> views.Gathered:
        """This instance's partials and every other member's (from the group's assignment)."""
        own = str(self.app.conf.canonical_url).rstrip("/")
        peers = [
            str(url).rstrip("/")
            for url in self.app.assignor.changelog_distribution
            if str(url).rstrip("/") != own
        ]
        answers = [local]
        if peers:
            async with httpx.AsyncClient(timeout=self.settings.insights_peer_timeout_s) as client:
                replies = await asyncio.gather(
                    *(client.get(peer + path) for peer in peers), return_exceptions=True
                )
            for peer, reply in zip(peers, replies, strict=True):
                if isinstance(reply, BaseException) or reply.status_code != 200:
                    logger.warning("insights: no partials from %s: %s", peer, reply)
                    continue
                answers.append(views.Local.from_json(reply.json()))
        expected = {"loop": INSIGHTS_LOOP.partitions, "ingest": INSIGHTS_INGEST.partitions}
        return views.gather(answers, expected)

    # --- web pages -----------------------------------------------------------------------------

    def _pages(self) -> None:
        async def local_subject(view: Any, request: Any, subject_id: str) -> Any:
            return view.json(self.local_subject(subject_id).as_json())

        async def local_stages(view: Any, request: Any) -> Any:
            return view.json(self.local_stages().as_json())

        async def subject(view: Any, request: Any, subject_id: str) -> Any:
            """One subject, gathered from every instance."""
            path = f"/insights/local/subjects/{subject_id}"
            gathered = await self.gather(path, self.local_subject(subject_id))
            body = views.subject_view(
                subject_id,
                gathered.partials["loop"],
                gathered.partials["ingest"],
                int(time.time() * 1000),
            )
            return view.json({**body, "complete": gathered.complete, "coverage": gathered.coverage})

        async def stage_timings(view: Any, request: Any) -> Any:
            """Every stage's timings and consumer lag."""
            gathered = await self.gather("/insights/local/stages", self.local_stages())
            partials = gathered.partials["loop"] + gathered.partials["ingest"]
            body = views.stages_view(
                partials, self.lag, int(time.time() * 1000), self.lag_measured_at_ms
            )
            return view.json({**body, "complete": gathered.complete, "coverage": gathered.coverage})

        for path, handler in (
            ("/insights/local/subjects/{subject_id}", local_subject),
            ("/insights/local/stages", local_stages),
            ("/insights/subjects/{subject_id}", subject),
            ("/insights/stages", stage_timings),
        ):
            self.app.page(path)(handler)


def _partition_of(key: str, value: Any) -> int:
    """Pending entries carry their partition; aggregate keys end with it (``…/<p>``)."""
    if isinstance(value, dict) and "p" in value:
        return value["p"]
    return int(key.rsplit("/", 1)[1])


class InsightsWorker(faust.Worker):
    """faust's worker with the project's logging, and a bound on how long it may take to
    stop: a stop that hangs (faust waiting on a consumer in the middle of a rebalance) ends
    the process after ``STOP_GRACE_S``. Nothing is lost by that: what it had not committed is
    aborted and redone by whichever instance takes its partitions."""

    def _setup_logging(self) -> None:
        from services.common.logs import configure_logging

        configure_logging()

    def _schedule_shutdown(self, signal: Any) -> None:
        if not self._signal_stop_time:  # the first signal starts the clock
            timer = threading.Timer(STOP_GRACE_S, _give_up)
            timer.daemon = True
            timer.start()
        super()._schedule_shutdown(signal)


def _give_up() -> None:
    logger.error(
        "insights did not stop within %s s; exiting without a clean close (what it had not"
        " committed is redone by the next owner of its partitions)",
        STOP_GRACE_S,
    )
    logging.shutdown()
    os._exit(1)


def main() -> None:
    """``python -m services.insights``: run until SIGTERM; a crash exits non-zero. Like every
    service process it writes a health report (``services.common.health``)."""
    settings = InsightsSettings()
    runtime = RuntimeSettings()
    insights = Insights(settings)
    reporter = health.start(
        runtime.health_dir,
        service="insights",
        instance=settings.instance_id,
        restarts=runtime.eduanima_restarts,
    )
    logger.info("insights on %s (restart %d)", settings.canonical_url, runtime.eduanima_restarts)
    worker = InsightsWorker(insights.app, quiet=True, redirect_stdouts=False)
    try:
        worker.execute_from_commandline()
    except SystemExit as exc:
        reporter.stop("crashed" if exc.code else "stopped")
        raise
