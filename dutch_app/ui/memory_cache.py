"""A per-process cache bounded by memory, for history frames and statistics.

Streamlit's own caches bound entries by count and age only. A host serves many
groups at once, each with a frame of its own (tens of MB for a large group), so
a count says little about memory. This cache weighs every entry in bytes, keeps
the total under a budget by dropping the least recently used entries, and when
the machine (or the container's cgroup) runs short of memory it drops entries
rather than grow. Entries also age out after a time to live.

Two sessions asking for the same missing entry at once compute it once: the
second waits for the first. Different missing entries are computed a few at a time
(``computing_at_once``), the others waiting for a free slot: the memory of a
computation in progress (a history load peaks at about twice the frame it makes) is
not weighed by the budget, so twenty groups opening their statistics at once, after a
restart say, would otherwise take twenty such peaks at the same moment; the processors
are shared among them anyway. Values are shared between sessions, never copied;
callers treat them as read-only (history frames are handed out as shallow
copies, which pandas' copy-on-write keeps apart from the cached frame).
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd

T = TypeVar("T")

MIB = 2**20


def weigh(value: object, _depth: int = 0) -> int:
    """About how many bytes ``value`` holds: frames by their deep memory usage, arrays by
    their buffers, dataclasses and containers by their parts.

    >>> weigh(b"x" * 1000) >= 1000
    True
    >>> weigh(pd.DataFrame({"a": range(1000)})) >= 8000
    True
    """
    if isinstance(value, pd.DataFrame):
        return int(value.memory_usage(deep=True, index=True).sum())
    if isinstance(value, pd.Series):
        return int(value.memory_usage(deep=True, index=True))
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, (bytes, bytearray, str)):
        return sys.getsizeof(value)
    if _depth > 6:
        return sys.getsizeof(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = (getattr(value, field.name) for field in dataclasses.fields(value))
        return sys.getsizeof(value) + sum(weigh(part, _depth + 1) for part in parts)
    if isinstance(value, dict):
        items = value.items()
        return sys.getsizeof(value) + sum(
            weigh(k, _depth + 1) + weigh(v, _depth + 1) for k, v in items
        )
    if isinstance(value, (list, tuple, set, frozenset)):
        return sys.getsizeof(value) + sum(weigh(part, _depth + 1) for part in value)
    return sys.getsizeof(value)


def available_memory() -> int | None:
    """Bytes the process could still take: the smaller of the machine's ``MemAvailable``
    and what the container's cgroup limit leaves; None when neither can be read."""
    found: list[int] = []
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                found.append(int(line.split()[1]) * 1024)
    except OSError:
        pass
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        used = Path("/sys/fs/cgroup/memory.current").read_text().strip()
        if limit.isdigit() and used.isdigit():
            found.append(max(0, int(limit) - int(used)))
    except OSError:
        pass
    return min(found) if found else None


@dataclasses.dataclass
class _Entry:
    value: Any
    size: int
    stored_at: float


class MemoryBoundedCache:
    """A thread-safe least-recently-used cache whose total size stays under ``budget``
    bytes, that gives memory back while less than ``reserve`` bytes are available."""

    def __init__(
        self,
        budget: int,
        *,
        reserve: int = 256 * MIB,
        ttl: float = 3600.0,
        available: Callable[[], int | None] = available_memory,
        clock: Callable[[], float] = time.monotonic,
        computing_at_once: int = 2,
    ) -> None:
        self.budget, self.reserve, self.ttl = budget, reserve, ttl
        self.computing_at_once = computing_at_once
        self._available, self._clock = available, clock
        self._entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._computing: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(computing_at_once)
        self._holder = threading.local()  # .slot: this thread computes an entry now
        self.size = 0
        self.evictions = 0

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return self._fresh(key) is not None

    def get_or_compute(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The cached value of ``key``, computed (once, whoever asks at the same time) if
        it is missing or older than the time to live.

        A computation takes one of the slots first, so only a few run at once. It may ask
        for other entries (a view's statistics ask for its history frame): those are
        computed in the slot it holds. Whoever registers a key as being computed holds a
        slot, and waits for no other key's slot, so waiting on a key never waits in a
        circle."""
        while True:
            with self._lock:
                entry, waiting = self._found(key)
            if entry is not None:
                return entry.value
            if waiting is not None:
                waiting.wait()
                continue
            with self._slot():
                with self._lock:
                    entry, waiting = self._found(key)
                    if entry is None and waiting is None:
                        self._computing[key] = threading.Event()
                if entry is not None:
                    return entry.value
                if waiting is None:
                    return self._compute(key, compute)
            waiting.wait()

    def _found(self, key: Hashable) -> tuple[_Entry | None, threading.Event | None]:
        """(the fresh entry of ``key`` if any, else the event of its computation under way
        if any); called with the lock held."""
        entry = self._fresh(key)
        if entry is not None:
            self._entries.move_to_end(key)
            return entry, None
        return None, self._computing.get(key)

    @contextlib.contextmanager
    def _slot(self) -> Iterator[None]:
        """Hold one of the computing slots (this thread's own if it holds one already)."""
        if getattr(self._holder, "slot", False):
            yield
            return
        with self._slots:
            self._holder.slot = True
            try:
                yield
            finally:
                self._holder.slot = False

    def _compute(self, key: Hashable, compute: Callable[[], T]) -> T:
        try:
            value = compute()
            self._store(key, value, weigh(value))
            return value
        finally:
            with self._lock:
                self._computing.pop(key).set()

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()
            self.size = 0

    def _fresh(self, key: Hashable) -> _Entry | None:
        entry = self._entries.get(key)
        if entry is not None and self._clock() - entry.stored_at > self.ttl:
            self._drop(key)
            return None
        return entry

    def _drop(self, key: Hashable) -> None:
        self.size -= self._entries.pop(key).size
        self.evictions += 1

    def _short_of_memory(self) -> bool:
        free = self._available()
        return free is not None and free < self.reserve

    def _store(self, key: Hashable, value: object, size: int) -> None:
        with self._lock:
            if key in self._entries:
                self.size -= self._entries.pop(key).size
            if size > self.budget:
                return  # handed out, never kept: one entry may not push out all the others
            self._entries[key] = _Entry(value, size, self._clock())
            self.size += size
            while self._entries and (self.size > self.budget or self._short_of_memory()):
                oldest = next(iter(self._entries))
                self._drop(oldest)
                if oldest == key:
                    break
