"""Detached background processes with pid files, readiness deadlines and log tails.

The local components must outlive the command that starts them (``eduanima up`` returns
while Kafka keeps running), so they are started through ``sh -c 'cmd &'``: the shell exits
at once, the component is re-parented, and nothing is left for Python to reap.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from services.common.errors import EduanimaError

logger = logging.getLogger(__name__)

POLL_INTERVAL_S = 0.2


class LocalDeployError(EduanimaError):
    """A local infrastructure component could not be installed, started or stopped."""


def log_tail(path: Path, lines: int = 40) -> str:
    """Last ``lines`` lines of a log file, or a note that there is none."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return f"(no log file at {path})"
    return "\n".join(text.splitlines()[-lines:])


def port_open(port: int, host: str = "127.0.0.1", timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def pid_alive(pid: int) -> bool:
    """True while ``pid`` runs; a zombie (exited, not yet reaped) counts as dead."""
    with contextlib.suppress(ChildProcessError):
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


def pid_cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def read_pid(pid_file: Path, marker: str) -> int | None:
    """The live pid recorded in ``pid_file`` whose command line contains ``marker``.

    The marker (a path of this state directory) guards against a recycled pid.
    """
    try:
        pid = int(pid_file.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None
    if pid_alive(pid) and marker in pid_cmdline(pid):
        return pid
    return None


def spawn_detached(
    argv: Sequence[str], *, log_file: Path, pid_file: Path, cwd: Path, env: dict[str, str]
) -> int:
    """Start ``argv`` in its own session, stdout/stderr appended to ``log_file``; return its pid."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    script = 'exec_log="$1"; shift; "$@" >>"$exec_log" 2>&1 </dev/null & echo $!'
    try:
        out = subprocess.run(
            ["/bin/sh", "-c", script, "sh", str(log_file), *argv],
            cwd=cwd,
            env=env,
            check=True,
            capture_output=True,
            text=True,
            start_new_session=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise LocalDeployError(f"cannot start {argv[0]}: {exc}") from exc
    pid = int(out.stdout.strip())
    pid_file.write_text(f"{pid}\n")
    return pid


def wait_until(
    ready: Callable[[], bool],
    *,
    timeout_s: float,
    what: str,
    log_file: Path,
    alive: Callable[[], bool] = lambda: True,
) -> float:
    """Poll ``ready`` until it holds; fail early if the process died. Returns seconds waited."""
    start = time.monotonic()
    deadline = start + timeout_s
    while True:
        if ready():
            return time.monotonic() - start
        if not alive():
            raise LocalDeployError(
                f"{what} exited during startup; last log lines of {log_file}:\n{log_tail(log_file)}"
            )
        if time.monotonic() > deadline:
            raise LocalDeployError(
                f"{what} not ready after {timeout_s:.0f} s; last log lines of {log_file}:\n"
                f"{log_tail(log_file)}"
            )
        time.sleep(POLL_INTERVAL_S)


def terminate(pid: int, *, what: str, timeout_s: float = 60.0) -> None:
    """SIGTERM, wait for a clean exit, SIGKILL only if the deadline passes."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while pid_alive(pid):
        if time.monotonic() > deadline:
            logger.warning("%s (pid %s) ignored SIGTERM for %.0f s; killing", what, pid, timeout_s)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            break
        time.sleep(POLL_INTERVAL_S)


PORT_SETTINGS = (
    "EDUANIMA_KAFKA_PORT, EDUANIMA_KAFKA_CONTROLLER_PORT, EDUANIMA_PG_PORT, EDUANIMA_GCS_PORT"
)


def listener_pid(port: int) -> int | None:
    """Pid of the local process listening on 127.0.0.1:``port``, if /proc tells."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # 0A = LISTEN
                inodes.add(fields[9])
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            for fd in fd_dir.iterdir():
                link = os.readlink(fd)
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    return int(fd_dir.parent.name)
        except OSError:
            continue
    return None


def describe_foreign(port: int) -> str:
    pid = listener_pid(port)
    if pid is None:
        return f"127.0.0.1:{port}"
    return f"127.0.0.1:{port} (pid {pid}: {pid_cmdline(pid).strip()[:160]})"


def refuse_taken_port(port: int, what: str) -> None:
    """Fail when ``port`` is taken by something that does not speak ``what``'s protocol."""
    raise LocalDeployError(
        f"{describe_foreign(port)} is taken, but not by a {what} this state directory started "
        f"and it does not answer as {what}; stop it or choose other ports ({PORT_SETTINGS})"
    )
