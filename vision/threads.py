"""The process's worker threads, for NumPy and OpenCV calls that use one core each (NumPy's, OpenCV's DFT), split in
independent parts or run beside the caller's own: the target machine has two cores (docs/reader-decisions.md@538d56c,
"speed"). Work given to them must not itself wait on them (a read is never run on them)."""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

WORKER_THREADS = 2  # the target machine's cores

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def workers() -> ThreadPoolExecutor:
    """The shared pool (made on first use, kept for the process)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(WORKER_THREADS, thread_name_prefix="vision-worker")
        return _pool


def _forget_in_child() -> None:
    """A forked child has none of its parent's threads: it makes its own pool on first use (else it would wait
    forever on work queued for threads that do not exist there)."""
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_in_child)
