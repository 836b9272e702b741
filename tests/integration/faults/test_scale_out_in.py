"""A second searcher and librarian join with sessions in flight (rebalance), then the first
of each stops (it leaves its group): every session ends, nothing twice."""

from __future__ import annotations

import pytest

from tools.chaos.scenarios import scale_out_in

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_stages_scale_out_and_in_under_load(chaos_stack):
    result = scale_out_in(chaos_stack, sessions=30)
    print(result.summary())
    evidence = result.evidence
    assert evidence["sessions_in_flight_at_scale_out"] > 0
    assert evidence["sessions_in_flight_at_scale_in"] > 0
    for stage, partitions in evidence["second_instance_partitions"].items():
        assert 0 < len(partitions) < 6, stage  # the rebalance shared the partitions
    for stage, handover in evidence["scale_in"].items():
        assert handover["exit_code"] == 0, stage  # stopped cleanly, leaving its group
        assert handover["partitions_taken_s"] is not None, stage
    assert result.recovery_s is not None  # the remaining instances went on committing
    assert result.counts == {
        "started": 30,
        "finished": 30,
        "failed": 0,
        "lost": 0,
        "duplicated": 0,
    }
