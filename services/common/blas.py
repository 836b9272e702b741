"""numpy's BLAS (OpenBLAS) held to a few threads in each process.

OpenBLAS starts a worker per core, and after each call its workers spin for a
while before they sleep. On a small machine running several eduanima processes
(searcher, librarian, professor, a CLI), every matrix product one of them makes
leaves a core spinning that the next stage of the same question needed. Measured
on 2 cores with ``eduanima bench loop``, one question at a time: an idle
observer's 1 ms embedding stalled for 120 ms at p90 while the loop ran, the
spinning workers used 20-47 % of a core in each process, and a question took
265 ms through Kafka (p50 262 ms); with one thread, 168 ms (p50 86 ms). What one
thread costs a single process on a quiet machine is small beside that: a query
embeds in 1.9 ms against 1.5 ms with two (the ingestor, bulk work, keeps two).
"""

from __future__ import annotations

import numpy as np  # noqa: F401 - loaded first, so that its BLAS is the one limited
from threadpoolctl import threadpool_limits


def limit_blas_threads(threads: int) -> None:
    """From now on, BLAS calls of this process use at most ``threads`` threads."""
    threadpool_limits(limits=threads, user_api="blas")
