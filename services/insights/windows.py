"""Tumbling windows (hour, day) and the total, kept inside one table value.

A windowed value is ``{"total": agg, "hour": {start_ms: agg}, "day": {start_ms: agg}}``
where ``agg`` is any JSON object the caller updates. Windows are event-time (the time the
caller passes, e.g. when a question was asked), aligned to the epoch in UTC like faust's
own tumbling windows, and the oldest are dropped past a retention counted from the newest
window the value has seen (not from the wall clock, so replaying old history keeps its
windows).

Why not faust's windowed tables: one event updates the total and both windows. Kept in one
value, that is one changelog record, so the three can never disagree after a crash; a
faust ``.tumbling()`` table per window would write three keys to two more changelogs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS
WINDOWS = {"hour": HOUR_MS, "day": DAY_MS}
# How many windows of each size a value keeps (the console charts the last 24 hours).
RETAINED = {"hour": 48, "day": 35}

Agg = dict[str, Any]


def window_start(at_ms: int, size_ms: int) -> int:
    return at_ms - at_ms % size_ms


def empty() -> dict[str, Any]:
    return {"total": None, "hour": {}, "day": {}}


def update(
    windowed: dict[str, Any], at_ms: int, fold: Callable[[Agg | None], Agg]
) -> dict[str, Any]:
    """A new windowed value with ``fold`` applied to the total and to the windows of ``at_ms``.

    ``fold`` gets the current aggregate (None when the window is new) and returns the new one.
    """
    out: dict[str, Any] = {"total": fold(windowed["total"])}
    for name, size in WINDOWS.items():
        windows = dict(windowed[name])
        start = window_start(at_ms, size)
        newest = max([start, *map(int, windows)])
        if start > newest - RETAINED[name] * size:  # not already past retention
            windows[str(start)] = fold(windows.get(str(start)))
        out[name] = {
            key: agg for key, agg in windows.items() if int(key) > newest - RETAINED[name] * size
        }
    return out


def merge(
    values: list[dict[str, Any]], combine: Callable[[list[Agg]], Agg]
) -> dict[str, Any] | None:
    """Several partial windowed values as one: each window's aggregates combined."""
    if not values:
        return None
    out: dict[str, Any] = {"total": combine([v["total"] for v in values if v["total"] is not None])}
    for name in WINDOWS:
        starts = sorted({int(k) for v in values for k in v[name]})
        out[name] = {
            str(s): combine([v[name][str(s)] for v in values if str(s) in v[name]]) for s in starts
        }
    return out


def recent(windowed: dict[str, Any], name: str, now_ms: int, count: int) -> list[tuple[int, Any]]:
    """The last ``count`` windows of size ``name`` up to the one holding ``now_ms``, oldest
    first, each (start_ms, aggregate or None when nothing happened in it)."""
    size = WINDOWS[name]
    last = window_start(now_ms, size)
    starts = [last - i * size for i in range(count - 1, -1, -1)]
    return [(s, windowed[name].get(str(s))) for s in starts]
