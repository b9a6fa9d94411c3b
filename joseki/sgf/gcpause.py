"""Pausing Python's cyclic garbage collector around bulk work that allocates many small objects (learn, mine)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic collector inside the block (reference counting still frees memory).

    Flattening and importing build many small tuples and lists and no cycles; the collector's
    passes over them cost about a third of the time. The first pass after the block walks
    every object the block allocated that is still alive, so a job whose objects are
    temporary runs in a function called inside the block.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
