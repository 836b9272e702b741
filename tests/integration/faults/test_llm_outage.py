"""Gemini failing every request (a local fake: 503s, malformed output, answers too slow):
each session ends with a FINAL event, ANSWERED through the offline fallback (and saying
so), or FAILED with the reason when the fallback is switched off."""

from __future__ import annotations

import pytest

from tools.chaos.scenarios import llm_outage

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_the_offline_engine_takes_the_steps_gemini_fails(chaos_stack):
    result = llm_outage(chaos_stack, sessions=3)
    print(result.summary())
    served = result.evidence["gemini_failures_served"]
    assert served["unavailable"] and served["malformed"] and served["slow"]  # every kind landed
    assert result.counts["lost"] == 0 and result.counts["duplicated"] == 0
    finals = result.evidence["finals"]
    assert len(finals) == 3
    for final in finals.values():
        assert final["status"] in ("ANSWERED", "INSUFFICIENT")
        assert {"plan", "answer"} <= set(final["fallback_steps"])
        assert final["answer_says_so"]


def test_without_a_fallback_the_sessions_end_failed_with_the_reason(chaos_stack):
    result = llm_outage(chaos_stack, sessions=2, fallback="none")
    print(result.summary())
    assert result.counts == {"started": 2, "finished": 0, "failed": 2, "lost": 0, "duplicated": 0}
    for final in result.evidence["finals"].values():
        assert final["stop_reason"] == "engine_failed"
        assert "the reasoning engine failed" in final["answer_head"]
        assert "gemini plan" in final["answer_head"]
