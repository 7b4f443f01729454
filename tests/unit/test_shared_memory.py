"""The server's shared cache: entries weighed in bytes within the budget, memory given back
under pressure, one computation for simultaneous askers."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dutch_app.ui.cache import MIB, SharedMemory, weigh


def frame(megabytes: int) -> pd.DataFrame:
    return pd.DataFrame({"x": np.zeros(megabytes * MIB // 8, dtype="int64")})


def plenty() -> int:
    return 64 * 2**30


def memory(budget: int, available=plenty) -> SharedMemory:
    return SharedMemory(budget, loading_slots=2, available=available)


def test_entries_are_weighed_and_the_total_stays_under_the_budget():
    cache = memory(10 * MIB)
    for group in range(6):
        cache.get_or_compute(("history", group), lambda: frame(3))
    assert cache.entries.currsize <= 10 * MIB
    assert list(cache.entries) == [("history", 3), ("history", 4), ("history", 5)]


def test_under_memory_pressure_entries_are_given_back_instead_of_kept():
    free = {"bytes": plenty()}
    cache = memory(100 * MIB, available=lambda: free["bytes"])
    cache.get_or_compute("a", lambda: frame(2))
    cache.get_or_compute("b", lambda: frame(2))
    assert len(cache.entries) == 2
    free["bytes"] = 100 * MIB  # the machine runs short: less than the reserve is left
    value = cache.get_or_compute("c", lambda: frame(2))
    assert len(value) == 2 * MIB // 8  # still answered
    assert len(cache.entries) == 0 and cache.entries.currsize == 0


def test_a_value_larger_than_the_whole_budget_is_answered_but_not_kept():
    cache = memory(2 * MIB)
    cache.get_or_compute("small", lambda: frame(1))
    assert len(cache.get_or_compute("huge", lambda: frame(4))) == 4 * MIB // 8
    assert list(cache.entries) == ["small"]


def test_simultaneous_askers_compute_a_missing_entry_once():
    cache = memory(10 * MIB)
    calls = []
    started = threading.Barrier(8)

    def slow_load():
        calls.append(1)
        time.sleep(0.2)
        return frame(1)

    def ask(_number: int) -> None:
        started.wait()
        cache.get_or_compute("group-7", slow_load)

    threads = [threading.Thread(target=ask, args=(n,), daemon=True) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in threads), "an asker never got its answer"
    assert len(calls) == 1


def test_weighing_follows_frames_inside_dataclasses_and_containers():
    @dataclass(frozen=True)
    class Bundle:
        tables: dict
        spec: bytes

    bundle = Bundle({"a": frame(1), "b": frame(1)}, b"x" * 1000)
    assert 2 * MIB <= weigh(bundle) < 3 * MIB
