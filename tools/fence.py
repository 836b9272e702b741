"""Fence a stage instance that will not come back, aborting the transaction it left open.

Each stage commits a batch in one Kafka transaction under the ID
``<prefix><stage>-<INSTANCE_ID>``. An instance killed inside one and never started
again leaves it open until the broker times it out (``transaction.timeout.ms``, 15
minutes), and until then no read_committed reader gets past its first message on those
partitions: the questions behind it wait. Starting a producer once under that ID does
what the instance's restart would have done: the broker fences the old producer and
aborts its transaction, and the readers go on.

An instance that is running after all is fenced as well: its stage stops on the fatal
error and its supervisor (``eduanima run``) starts it again, which costs a restart.
"""

from __future__ import annotations

from services.common.kafka_io import make_producer
from services.common.settings import KafkaSettings
from services.common.stage_runner import transactional_id

# Every stage that writes in transactions (the ``stage`` each service gives its runner).
STAGES = ("ingestor", "searcher", "librarian", "professor.plan", "professor.conduct")


def fence(settings: KafkaSettings, stage: str, instance_id: str, timeout_s: float = 30.0) -> str:
    """Abort what the stage instance left open; returns the transactional ID fenced.
    ValueError for a stage that is none of ``STAGES``."""
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}; the stages are {', '.join(STAGES)}")
    if not instance_id.strip():
        raise ValueError("the instance ID is empty")
    fenced = transactional_id(settings.eduanima_topic_prefix, stage, instance_id)
    producer = make_producer(settings, transactional_id=fenced)
    # the coordinator bumps the ID's epoch and aborts the open transaction before it answers
    producer.init_transactions(timeout_s)
    producer.flush(0)
    return fenced
