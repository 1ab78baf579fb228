"""The shared worker threads: one pool a process, and a forked child makes its own."""
from __future__ import annotations

import os

import pytest

from vision.threads import WORKER_THREADS, workers


def test_one_pool_of_the_machines_cores_is_shared():
    assert workers() is workers() and workers()._max_workers == WORKER_THREADS
    assert list(workers().map(lambda n: n * n, range(5))) == [0, 1, 4, 9, 16]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_runs_work_on_its_own_threads():
    parent_pool = workers()
    parent_pool.submit(lambda: None).result()  # the parent's threads exist before the fork
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # in the child: the parent's threads are gone; work given to the pool must still run
        try:
            answer = workers().submit(lambda: 42).result(timeout=10)
            os.write(write_end, b"new" if workers() is not parent_pool and answer == 42 else b"old")
        finally:
            os._exit(0)
    os.close(write_end)
    _, status = os.waitpid(child, 0)
    assert os.read(read_end, 16) == b"new" and status == 0
