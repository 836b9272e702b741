"""The storage emulator down during ingestion (a private one, stopped and started here): a
short outage ends the jobs STORED after retries, a long one FAILED with the reason."""

from __future__ import annotations

import pytest

from tools.chaos.scenarios import storage_outage

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_jobs_wait_for_storage_then_store_or_fail_with_the_reason(chaos_stack, private_gcs):
    stack = chaos_stack.on_storage(private_gcs)
    result = storage_outage(stack, private_gcs, jobs=2, wait_s=10.0)
    print(result.summary())
    short, long = result.evidence["short"], result.evidence["long"]
    # the fault landed: jobs waited for storage, PENDING with the reason, and were tried again
    for phase in (short, long):
        assert phase["pending_while_down"]
        assert max(phase["attempts"]) >= 2
    assert short["statuses"] == ["STORED", "STORED"]
    assert long["statuses"] == ["FAILED", "FAILED"]
    assert all("object storage did not answer for" in e for e in long["errors"])
    assert result.counts == {"started": 4, "finished": 2, "failed": 2, "lost": 0, "duplicated": 0}
    assert result.evidence["service_exits"] == {}
