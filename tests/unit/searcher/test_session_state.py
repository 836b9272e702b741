"""The searcher keeps a session's state (seen chunks, retry, last iteration) for a day: long
past any question's time limit, and not for every question ever asked."""

from __future__ import annotations

from services.common.events import SessionState
from services.professor.stages import MAX_TIMEOUT_MS
from services.searcher.stages import STATE_TTL_MS, live_sessions

NOW = 10 * STATE_TTL_MS


def state(session: str, age_ms: int) -> SessionState:
    return SessionState(session, ["c1"], 0, 0, NOW - age_ms)


def test_states_older_than_a_day_are_dropped_and_live_ones_kept():
    sessions = {
        "answered-yesterday": state("answered-yesterday", STATE_TTL_MS + 1),
        "at-the-limit": state("at-the-limit", STATE_TTL_MS),
        "running": state("running", 5_000),
    }
    assert sorted(live_sessions(sessions, NOW)) == ["at-the-limit", "running"]


def test_a_state_outlives_any_questions_time_limit_by_far():
    assert STATE_TTL_MS >= 100 * MAX_TIMEOUT_MS
