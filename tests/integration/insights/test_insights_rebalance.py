"""Two insights instances: the tables' partitions move when the second joins and again when
the first crashes, while sessions keep arriving; no count is lost or doubled."""

from __future__ import annotations

import random
import signal
import socket
import threading
import time
from collections import Counter

import pytest
from insights_instances import InsightsInstances
from loop_events import Session

from services.common.kafka_io import Publisher
from topics.apply import admin_client
from topics.registry import ALL_TOPICS, full_name

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SUBJECTS = ("rb-algebra", "rb-biology", "rb-chemistry")


def free_port_pair() -> int:
    """A port p with p + 1 free too (instance i listens on base + i)."""
    for _ in range(50):
        with socket.socket() as a:
            a.bind(("127.0.0.1", 0))
            base = a.getsockname()[1]
            with socket.socket() as b:
                try:
                    b.bind(("127.0.0.1", base + 1))
                except OSError:
                    continue
                return base
    raise RuntimeError("no two consecutive free ports")


def sessions(n: int, rng: random.Random, now_ms: int) -> list[Session]:
    return [
        Session(
            subject_id=rng.choice(SUBJECTS),
            status=rng.choice(["ANSWERED", "ANSWERED", "INSUFFICIENT", "FAILED"]),
            iterations=rng.randint(1, 3),
            keywords=[rng.choice(["標準誤差", "分散", "中央値"])],
            cited=[("m-1", "講義1")] if rng.random() < 0.5 else [],
            asked_at_ms=now_ms - rng.randint(0, 3_600_000),
            latency_ms=rng.randint(200, 9000),
        )
        for _ in range(n)
    ]


def publish(publisher: Publisher, batch: list[Session], pause_s: float = 0.0) -> None:
    for session in batch:
        session.publish(publisher)
        if pause_s:
            publisher.flush()
            time.sleep(pause_s)  # spread over the rebalance, not a synchronisation
    publisher.flush()


def expected(published: list[Session]) -> dict[str, dict[str, int]]:
    out = {}
    for subject in SUBJECTS:
        mine = [s for s in published if s.subject_id == subject]
        statuses = Counter(s.status for s in mine)
        out[subject] = {
            "questions": len(mine),
            "answered": statuses["ANSWERED"],
            "insufficient": statuses["INSUFFICIENT"],
            "failed": statuses["FAILED"],
            "cited": sum(1 for s in mine if s.cited),
        }
    return out


def observed(view: dict) -> dict[str, int]:
    cited = {m["material_id"]: m["cited"] for m in view["materials"]}
    return {
        "questions": view["questions"],
        "answered": view["answered"],
        "insufficient": view["insufficient"],
        "failed": view["failed"],
        "cited": cited.get("m-1", 0),
    }


def wait_for_counts(instances: InsightsInstances, index: int, published: list[Session]) -> None:
    want = expected(published)
    for subject in SUBJECTS:
        view = instances.wait_for(
            f"/insights/subjects/{subject}",
            lambda v, w=want[subject]: observed(v) == w,
            index=index,
        )
        assert observed(view) == want[subject]
    searches = sum(s.iterations for s in published)
    stages = instances.wait_for(
        "/insights/stages",
        lambda v: {r["stage"]: r["count"] for r in v["stages"]}["searcher"] == searches,
        index=index,
    )
    counts = {r["stage"]: r["count"] for r in stages["stages"]}
    assert counts["question"] == len(published) and counts["librarian"] == searches


def owned(instances: InsightsInstances, index: int) -> list[int]:
    return instances.get("/insights/local/stages", index)["partitions"]["loop"]


def test_counts_are_neither_lost_nor_doubled_across_rebalances(isolated_kafka):
    rng = random.Random(16)
    publisher = Publisher(isolated_kafka)
    instances = InsightsInstances(isolated_kafka, free_port_pair())
    published: list[Session] = []
    try:
        instances.start(0)
        first = sessions(40, rng, int(time.time() * 1000))
        publish(publisher, first)
        published += first
        wait_for_counts(instances, 0, published)
        assert owned(instances, 0) == [0, 1, 2, 3, 4, 5]

        # the second instance joins while sessions keep arriving
        second = sessions(40, rng, int(time.time() * 1000))
        feeder = threading.Thread(target=publish, args=(publisher, second, 0.1))
        feeder.start()
        instances.start(1)
        feeder.join()
        published += second
        for index in (0, 1):  # either instance gathers the other's partitions
            wait_for_counts(instances, index, published)
        split = [owned(instances, 0), owned(instances, 1)]
        assert split[0] and split[1], split  # the partitions moved
        assert sorted(split[0] + split[1]) == [0, 1, 2, 3, 4, 5]

        # the first crashes (SIGKILL: no commit, no leave) while sessions keep arriving: its
        # partitions move to the second once the group's session timeout passes
        third = sessions(40, rng, int(time.time() * 1000))
        feeder = threading.Thread(target=publish, args=(publisher, third, 0.1))
        feeder.start()
        assert instances.stop(0, signal.SIGKILL) == -signal.SIGKILL
        feeder.join()
        published += third
        wait_for_counts(instances, 1, published)
        assert owned(instances, 1) == [0, 1, 2, 3, 4, 5]
    finally:
        instances.stop_all()
    # faust created no topic of its own (no leader, changelog or repartition topic): every
    # topic under the prefix is one the registry declares and `topics apply` made
    prefix = isolated_kafka.eduanima_topic_prefix
    present = {t for t in admin_client(isolated_kafka).list_topics(timeout=15).topics}
    assert {t for t in present if t.startswith(prefix)} == {
        full_name(spec, prefix) for spec in ALL_TOPICS
    }
