"""A service stops on SIGTERM whichever of its threads the kernel hands the signal to.

Python runs signal handlers in the main thread only, and a main thread blocked in an
untimed wait is not woken when another thread receives the signal: the handler, and so
the stop, would wait for whatever wakes it next.
"""

from __future__ import annotations

import subprocess
import sys

# A service whose one runner waits for the stop, after sending SIGTERM to its own thread
# (as the kernel may: a process-directed signal goes to any thread not blocking it).
PROBE = """
import signal, threading, time
from services.common.service import main, run_runners

class Runner:
    stage = "probe"

    def run(self, stop):
        time.sleep(0.5)  # the main thread is waiting for this one by now
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
        if not stop.wait(30):
            raise SystemExit("the stop never came")

main("probe", lambda stop: run_runners([Runner()], stop))
"""


def test_sigterm_received_by_a_runner_thread_stops_the_service(tmp_path):
    env = {"EDUANIMA_HEALTH_DIR": str(tmp_path), "LOG_LEVEL": "WARNING", "PATH": ""}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "the stop never came" not in done.stderr
