"""Running a part's items on worker processes (or inline), with progress lines."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from multiprocessing import get_context
from typing import Any

from vision.synth.parts.worker import BLOCK, Config, init


class _Inline:
    """Stands in for a process pool when one worker is asked for (tests, debugging)."""

    def __init__(self, config: Config) -> None:
        init(config)

    def imap(self, fn: Callable, items: list, chunksize: int = 1) -> Iterator:
        return map(fn, items)

    def __enter__(self) -> "_Inline":
        return self

    def __exit__(self, *exc) -> None:
        return None


def make_pool(workers: int, config: Config) -> Any:
    """A context manager with `imap`: a process pool, or the inline stand-in for one worker."""
    if workers <= 1:
        return _Inline(config)
    # "spawn", not fork: a forked child can deadlock inside OpenCV when the parent has already used
    # OpenCV's thread pool (seen in the test-suite, which renders in the parent first).
    return get_context("spawn").Pool(workers, initializer=init, initargs=(config,))


def run_items(pool: Any, fn: Callable, items: list, label: str) -> list:
    """fn over items in order; chunks of a quarter deck block keep a worker on one deck."""
    start = time.time()
    results = []
    for i, r in enumerate(pool.imap(fn, items, chunksize=BLOCK // 4)):
        results.append(r)
        if (i + 1) % 200 == 0 or i + 1 == len(items):
            print(f"  {label}: {i + 1}/{len(items)} items, {time.time() - start:.0f} s", flush=True)
    return results
