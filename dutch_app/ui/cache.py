"""Cached reads, keyed by the group's cache stamp: its random cache key and data version.

Every write to a group bumps its data version in the same transaction, and the
version is read afresh on every rerun (one indexed lookup). Keying the caches by
it means another member's new round shows up on the very next rerun, while an
unchanged group is served from memory. A group's history is the same for each
of its members, so one cached frame serves them all (a large group's frame is
tens of MB): the reader's id is not part of the key. Reading the version checks
membership first, so only members ever reach a cached frame.

The router reads the person's groups, each with its data version, at the start
of every run. A page that only reads takes the version from that
:class:`~dutch_app.services.views.GroupView` instead of asking again: it is as
fresh as a second read a few milliseconds later would be, and the group being in
the person's own list is the membership check.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar, cast

import cachetools
import numpy as np
import pandas as pd
import streamlit as st

from dutch_app.services import groups, history, players
from dutch_app.services.views import GroupView, PlayerView
from dutch_app.stats_view import StatsFilters
from dutch_app.ui.context import call, require_account, resources, run_service

T = TypeVar("T")

MIB = 2**20
RESERVE = 256 * MIB
"""Below this much free memory the shared cache keeps nothing."""


@st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
def _roster(_reader_id: int, group_id: int, version: str) -> list[PlayerView]:
    del version  # part of the cache key only
    return run_service(players.list_players, _reader_id, group_id)


def roster(group: GroupView) -> list[PlayerView]:
    """The group's players by name, as of the data version ``group`` was read with.

    ``group`` must come from the signed-in person's own group list of this run.
    """
    return _roster(require_account().user_id, group.id, group.cache_stamp)


def my_player(group: GroupView) -> str | None:
    """The name of the signed-in person's player in ``group``, if they have one."""
    me = require_account().user_id
    return next((player.name for player in roster(group) if player.user_id == me), None)


def weigh(value: object, _depth: int = 0) -> int:
    """About how many bytes ``value`` holds: frames by their deep memory usage, arrays by
    their buffers, dataclasses and containers by their parts.

    >>> weigh(pd.DataFrame({"a": range(1000)})) >= 8000
    True
    """
    if isinstance(value, (pd.DataFrame, pd.Series)):
        return int(np.sum(value.memory_usage(deep=True, index=True)))
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    parts: list[object] = []
    if _depth > 6 or isinstance(value, (bytes, bytearray, str)):
        pass
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = [getattr(value, field.name) for field in dataclasses.fields(value)]
    elif isinstance(value, dict):
        parts = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        parts = list(value)
    return sys.getsizeof(value) + sum(weigh(part, _depth + 1) for part in parts)


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


class _Entries(cachetools.TTLCache[Hashable, Any]):
    """Least recently used out first, weighed in bytes, an hour to live; and while the
    machine has less than :data:`RESERVE` free, every entry is given back and none kept."""

    def __init__(self, budget: int, available: Callable[[], int | None]) -> None:
        super().__init__(budget, ttl=3600, getsizeof=weigh)
        self.available = available

    def __setitem__(self, key: Hashable, value: Any) -> None:
        free = self.available()
        if free is not None and free < RESERVE:
            self.clear()
        else:
            super().__setitem__(key, value)


class SharedMemory:
    """The server process's cache of history frames and Stats bundles, bounded by memory
    (``cache_megabytes`` of the limits) rather than by a count of entries.

    Values are shared between sessions, never copied: callers treat them as read-only.
    Two sessions asking for the same missing entry compute it once, the second waiting for
    the first; a value larger than the whole budget is handed out but not kept. History
    frames load ``loading_slots`` at a time: a load peaks at about twice the frame it
    makes, which the budget does not weigh, so groups opening their statistics together
    (after a restart, say) take turns instead of holding all those peaks at once.
    """

    def __init__(
        self,
        budget: int,
        loading_slots: int,
        available: Callable[[], int | None] = available_memory,
    ) -> None:
        self.entries = _Entries(budget, available)
        self.loading_slots = loading_slots
        self.loading = threading.BoundedSemaphore(loading_slots)
        self.lock = threading.Condition()
        self._cached = cachetools.cached(
            self.entries, key=lambda key, _compute: key, condition=self.lock
        )(lambda _key, compute: compute())

    def get_or_compute(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The cached value of ``key``, computed (once, whoever asks at the same time) if
        it is missing or older than an hour."""
        return cast(T, self._cached(key, compute))

    def peek(self, key: Hashable) -> Any | None:
        """The cached value of ``key``, or None: never computed here."""
        with self.lock:
            return self.entries.get(key)

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` under ``key`` (as a computed value would be kept)."""
        with self.lock:
            self.entries[key] = value


@st.cache_resource(show_spinner=False)
def shared_memory() -> SharedMemory:
    """The server process's :class:`SharedMemory`, sized by its limits."""
    limits = resources().settings.limits
    return SharedMemory(limits.cache_megabytes * MIB, limits.loading_slots)


def _history(reader_id: int, group_id: int, version: str, filters: StatsFilters) -> pd.DataFrame:
    def load() -> pd.DataFrame:
        with shared_memory().loading:
            return run_service(
                history.load_history,
                reader_id,
                group_id,
                date_from=filters.date_from,
                date_to=filters.date_to,
                player_ids=None if filters.player_ids is None else list(filters.player_ids),
            )

    key = ("history", group_id, version, filters)
    # A shallow copy: the cached frame is shared by every session, and copy-on-write keeps
    # a page's changes to its copy away from it.
    return shared_memory().get_or_compute(key, load).copy(deep=False)


def history_frame(group_id: int, filters: StatsFilters) -> pd.DataFrame:
    """The group's history frame with these filters, fresh as of this rerun."""
    account = require_account()
    version = call(groups.cache_stamp, group_id)  # checks membership
    return _history(account.user_id, group_id, version, filters)
