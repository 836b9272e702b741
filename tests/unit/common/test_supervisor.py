"""``eduanima run``'s supervisor: a service that exits is restarted, with backoff; the others
keep running. Processes are stand-ins whose exit the test decides; time is passed in."""

from __future__ import annotations

from services.common.supervisor import Child, Supervisor, children_for


class FakeProcess:
    def __init__(self, env: dict[str, str]):
        self.env = env
        self.code: int | None = None

    def poll(self) -> int | None:
        return self.code


def supervised(*services: str) -> tuple[Supervisor, list[FakeProcess], list[str]]:
    spawned: list[FakeProcess] = []
    said: list[str] = []

    def spawn(child: Child) -> FakeProcess:
        spawned.append(FakeProcess(dict(child.env)))
        return spawned[-1]

    children = [Child(name, {"INSTANCE_ID": f"{name}-0"}) for name in services]
    supervisor = Supervisor(children, spawn=spawn, say=said.append)  # type: ignore[arg-type]
    supervisor.start_all()
    return supervisor, spawned, said


def test_an_exited_service_is_restarted_after_a_delay_and_the_others_keep_running():
    supervisor, spawned, said = supervised("searcher", "librarian")
    searcher, librarian = spawned
    started = supervisor.children[0].started_at
    searcher.code = -9
    supervisor.tend(now=started + 5.0)
    assert len(spawned) == 2 and "searcher[searcher-0] exited with code -9" in said[-1]
    supervisor.tend(now=started + 5.5)  # within the first delay (1 s)
    assert len(spawned) == 2
    supervisor.tend(now=started + 6.1)
    assert len(spawned) == 3
    assert spawned[2].env["EDUANIMA_RESTARTS"] == "1"  # its health report shows the count
    assert librarian.poll() is None and supervisor.children[1].restarts == 0
    assert "restarted (restart 1)" in said[-1]


def test_repeated_crashes_back_off_and_a_stable_run_resets_the_delay():
    supervisor, spawned, _ = supervised("professor")
    child = supervisor.children[0]
    delays = []
    now = child.started_at
    for _ in range(7):  # crashes right after each start
        spawned[-1].code = 1
        now += 0.1
        supervisor.tend(now=now)
        delays.append(round(child.restart_at - now, 1))
        now = child.restart_at
        supervisor.tend(now=now)
    assert delays == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert child.restarts == 7 and spawned[-1].env["EDUANIMA_RESTARTS"] == "7"
    spawned[-1].code = 1
    supervisor.tend(now=now + 120.0)  # it had run for two minutes: back to the first delay
    assert round(child.restart_at - (now + 120.0), 1) == 1.0


def test_several_instances_get_their_own_stable_names():
    children = children_for(["searcher", "librarian"], 2, "host", env={"A": "1"})
    names = [(c.service, c.env["INSTANCE_ID"]) for c in children]
    assert names == [
        ("searcher", "host-0"),
        ("searcher", "host-1"),
        ("librarian", "host-0"),
        ("librarian", "host-1"),
    ]
    assert all(c.env["A"] == "1" for c in children)
    assert [c.env["INSTANCE_INDEX"] for c in children] == ["0", "1", "0", "1"]
    alone = children_for(["searcher"], 1, "host", env={})[0].env
    assert "INSTANCE_ID" not in alone and "INSTANCE_INDEX" not in alone
