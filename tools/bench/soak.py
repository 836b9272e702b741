"""``eduanima bench soak``: questions at a fixed rate against the running services.

Open loop: one question every 1/rate seconds whatever happens to the earlier ones, for
the given minutes, then a grace period for the last answers. Reported: latency (ask →
FINAL received) p50/p95, sessions started, finished, failed and lost (no FINAL by the
end of the grace period), the largest consumer lag each stage had (sampled every 5 s
from its group's committed offsets), and each service process's RSS at the start, every
30 s, and at the end (from its health report). The services are whatever ``eduanima
run`` (or anything else) started on the configured broker and topic prefix.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from confluent_kafka import KafkaException, TopicPartition
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from services.common import health
from services.common.events import AnswerEvent
from services.common.kafka_io import codec_for, make_consumer, start_offsets
from services.common.settings import DatabaseSettings, KafkaSettings, RuntimeSettings
from services.sdk import Client
from tools.bench.machine import percentile, write_report
from tools.chaos.sessions import QUESTIONS
from topics.registry import (
    ANSWERS,
    EVALUATIONS,
    SEARCH_REQUESTS,
    SEARCH_RESULTS,
    TopicSpec,
    full_name,
)
from topics.registry import QUESTIONS as QUESTIONS_TOPIC

console = Console(stderr=True)
# stage -> (its consumer group, the topic it consumes)
STAGE_GROUPS: dict[str, tuple[str, TopicSpec]] = {
    "professor.plan": ("professor-plan", QUESTIONS_TOPIC),
    "searcher": ("searcher", SEARCH_REQUESTS),
    "librarian": ("librarian", SEARCH_RESULTS),
    "professor.conduct": ("professor-conduct", EVALUATIONS),
}
LOOP_SERVICES = ("searcher", "librarian", "professor")


def live_services(health_dir: Path) -> list[dict[str, Any]]:
    """Health reports of service processes that are running now."""
    return [
        r
        for r in health.read_reports(health_dir)
        if r.get("state") == "running" and health.rss_bytes(r["pid"]) is not None
    ]


class Finals(threading.Thread):
    """FINAL events of the sessions this soak asks, from the end of ``answers`` as it was
    when the soak started."""

    def __init__(self, kafka: KafkaSettings):
        super().__init__(name="soak-finals", daemon=True)
        self.kafka = kafka
        self.asked: dict[str, float] = {}
        self.finals: dict[str, tuple[float, str]] = {}
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.topic = full_name(ANSWERS, kafka.eduanima_topic_prefix)
        self.consumer = make_consumer(kafka, f"soak-{uuid.uuid4()}")
        self.consumer.assign(
            start_offsets(
                self.consumer, self.topic, range(ANSWERS.partitions), int(time.time() * 1000)
            )
        )

    def run(self) -> None:
        codec = codec_for(self.kafka)
        try:
            while not self.stop.is_set():
                msg = self.consumer.poll(0.2)
                if msg is None or msg.error() or msg.value() is None:
                    continue
                key = (msg.key() or b"").decode()
                with self.lock:
                    if key not in self.asked or key in self.finals:
                        continue
                event = codec.decode(AnswerEvent, msg.value())
                if event.kind == "FINAL":
                    with self.lock:
                        self.finals[key] = (time.monotonic(), event.status or "")
        finally:
            self.consumer.close()

    def done(self) -> int:
        with self.lock:
            return len(self.finals)


def stage_lags(kafka: KafkaSettings) -> dict[str, int]:
    """Per stage, the messages its group has not committed yet (all partitions)."""
    lags = {}
    for stage, (group, spec) in STAGE_GROUPS.items():
        topic = full_name(spec, kafka.eduanima_topic_prefix)
        consumer = make_consumer(kafka, kafka.eduanima_topic_prefix + group)
        try:
            parts = [TopicPartition(topic, p) for p in range(spec.partitions)]
            committed = consumer.committed(parts, timeout=10)
            lag = 0
            for tp in committed:
                low, high = consumer.get_watermark_offsets(
                    TopicPartition(topic, tp.partition), timeout=10
                )
                lag += high - (tp.offset if tp.offset >= 0 else low)
            lags[stage] = lag
        finally:
            consumer.close()
    return lags


class Sampler(threading.Thread):
    """Consumer lag every 5 s and RSS every 30 s, beside the asking loop: a probe that
    waits on a busy broker must not hold up the open-loop questions. A probe that times
    out is counted, not fatal."""

    def __init__(self, kafka: KafkaSettings, health_dir: Path, started: float):
        super().__init__(daemon=True, name="soak-sampler")
        self.kafka, self.health_dir, self.started = kafka, health_dir, started
        self.lags: dict[str, list[int]] = {stage: [] for stage in STAGE_GROUPS}
        self.rss: dict[str, list[tuple[float, int]]] = {}
        self.lag_probes_timed_out = 0
        self.stop = threading.Event()

    def run(self) -> None:
        next_lag = next_rss = time.monotonic()
        while not self.stop.is_set():
            now = time.monotonic()
            if now >= next_lag:
                try:
                    for stage, lag in stage_lags(self.kafka).items():
                        self.lags[stage].append(lag)
                except KafkaException:
                    self.lag_probes_timed_out += 1
                next_lag += 5
            if now >= next_rss:
                self.sample_rss()
                next_rss += 30
            self.stop.wait(max(0.0, min(next_lag, next_rss) - time.monotonic()))

    def sample_rss(self) -> None:
        elapsed = round(time.monotonic() - self.started, 1)
        for name, value in rss_by_service(self.health_dir).items():
            self.rss.setdefault(name, []).append((elapsed, value))


def rss_by_service(health_dir: Path) -> dict[str, int]:
    return {
        f"{r['service']}-{r['instance']}": health.rss_bytes(r["pid"]) or 0
        for r in live_services(health_dir)
    }


def run_soak(
    rate: float,
    minutes: float,
    out: str,
    subject: str | None = None,
    user: str = "student-1",
    grace_s: float = 120.0,
) -> dict[str, Any]:
    kafka = KafkaSettings()
    health_dir = RuntimeSettings().health_dir
    running = {r["service"] for r in live_services(health_dir)}
    missing = [s for s in LOOP_SERVICES if s not in running]
    if missing:
        raise RuntimeError(
            f"no running {', '.join(missing)} reports to {health_dir}: start the services "
            "first (`eduanima run`), with the same EDUANIMA_HOME"
        )
    if subject is None:
        from services.reasoning.embedders import UseM3Embedder
        from tools.chaos.scenarios import prepare_course

        subject = "soak-demo"
        console.print(f"storing the demo course as {subject} (once)…")
        url = DatabaseSettings().database_url.get_secret_value()
        prepare_course(url, subject, user, UseM3Embedder())

    client = Client(kafka)
    finals = Finals(kafka)
    finals.start()
    load_before = os.getloadavg()
    started = time.monotonic()
    sampler = Sampler(kafka, health_dir, started)
    sampler.start()
    duration = minutes * 60
    every = 1.0 / rate
    asked = 0
    next_ask = started
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), console=console
    ) as progress:
        task = progress.add_task("soak", total=duration)
        while time.monotonic() - started < duration:
            now = time.monotonic()
            if now >= next_ask:
                session = client.ask(
                    subject, user, QUESTIONS[asked % len(QUESTIONS)], timeout_ms=600_000
                )
                with finals.lock:
                    finals.asked[session] = time.monotonic()
                asked += 1
                next_ask += every
            progress.update(
                task,
                completed=now - started,
                description=f"soak: {asked} asked, {finals.done()} answered",
            )
            time.sleep(max(0.0, next_ask - time.monotonic()))
        ended = time.monotonic()
        deadline = ended + grace_s
        while finals.done() < asked and time.monotonic() < deadline:
            time.sleep(0.5)
            progress.update(task, description=f"grace: {finals.done()}/{asked} answered")
    finals.stop.set()
    finals.join(timeout=10)
    sampler.stop.set()
    sampler.join(timeout=30)
    sampler.sample_rss()
    lags, rss = sampler.lags, sampler.rss

    with finals.lock:
        latencies = [finals.finals[s][0] - t for s, t in finals.asked.items() if s in finals.finals]
        statuses = [status for _t, status in finals.finals.values()]
    mib = 2**20
    report = {
        "benchmark": "soak",
        "rate_per_s": rate,
        "minutes": minutes,
        "subject": subject,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "sessions": {
            "started": asked,
            "finished": sum(1 for s in statuses if s in ("ANSWERED", "INSUFFICIENT")),
            "failed": sum(1 for s in statuses if s == "FAILED"),
            "lost": asked - len(statuses),
        },
        "latency_s": {
            "p50": round(percentile(latencies, 50), 2),
            "p95": round(percentile(latencies, 95), 2),
            "max": round(max(latencies), 2) if latencies else None,
        },
        "max_consumer_lag": {stage: max(values, default=0) for stage, values in lags.items()},
        "lag_probes_timed_out": sampler.lag_probes_timed_out,
        "rss_mib": {
            name: {
                "start": round(series[0][1] / mib, 1),
                "end": round(series[-1][1] / mib, 1),
                "max": round(max(v for _t, v in series) / mib, 1),
                "samples": [(t, round(v / mib, 1)) for t, v in series],
            }
            for name, series in rss.items()
        },
        "services": sorted(f"{r['service']}-{r['instance']}" for r in live_services(health_dir)),
        "grace_s": grace_s,
        "notes": "open loop: questions are asked at the rate whatever the answers do; latency "
        "is publish -> FINAL received; lag sampled every 5 s and RSS every 30 s, by a thread "
        "of their own",
    }
    write_report(out, report)
    return report
