"""The fault harness's health sampler sees an outage that began and ended between two reads."""

from __future__ import annotations

import time
from types import SimpleNamespace

from tools.chaos.fleet import Sampler


class Member:
    def __init__(self, label: str):
        self.label = label
        self.reports = [{"dependencies": {"kafka": {"ok": True, "outages": 0}}}]

    def report(self) -> dict:
        return self.reports[-1]


def wait_rounds(sampler: Sampler, rounds: int = 3) -> None:
    seen = sampler.rounds
    deadline = time.monotonic() + 5
    while sampler.rounds < seen + rounds and time.monotonic() < deadline:
        time.sleep(0.01)


def test_an_outage_over_before_the_next_read_counts_as_reported():
    brief, steady = Member("searcher-a"), Member("librarian-a")
    with Sampler(SimpleNamespace(members=[brief, steady]), every=0.01) as sampler:
        wait_rounds(sampler)
        # down and up again between two reads: only the outage count shows it
        brief.reports.append({"dependencies": {"kafka": {"ok": True, "outages": 1}}})
        wait_rounds(sampler)
    assert sampler.down == {"kafka": {"searcher-a"}}


def test_outages_from_before_the_sampler_looked_are_not_counted():
    member = Member("professor-a")
    member.reports = [{"dependencies": {"postgres": {"ok": True, "outages": 2}}}]
    with Sampler(SimpleNamespace(members=[member]), every=0.01) as sampler:
        wait_rounds(sampler)
    assert sampler.down == {}


def test_a_dependency_down_at_a_read_counts_as_reported():
    member = Member("professor-a")
    with Sampler(SimpleNamespace(members=[member]), every=0.01) as sampler:
        wait_rounds(sampler)
        member.reports.append({"unavailable": ["kafka"], "dependencies": {}})
        wait_rounds(sampler)
    assert sampler.down == {"kafka": {"professor-a"}}
