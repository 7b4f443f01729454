"""The memory-bounded cache: weighed entries, least recently used out first, memory given
back under pressure, one computation for simultaneous askers, a time to live."""

from __future__ import annotations

import threading
import time

import numpy as np
import pandas as pd
import pytest

from dutch_app.ui.memory_cache import MIB, MemoryBoundedCache, weigh


def frame(megabytes: int) -> pd.DataFrame:
    return pd.DataFrame({"x": np.zeros(megabytes * MIB // 8, dtype="int64")})


def plenty() -> int:
    return 64 * 2**30


def _run_together(count: int, target) -> None:
    """Run ``target(number)`` in ``count`` threads at once; all must end within 10 s."""
    threads = [
        threading.Thread(target=target, args=(number,), daemon=True) for number in range(count)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 10
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    assert not any(thread.is_alive() for thread in threads), "a computation never finished"


def test_entries_are_weighed_and_the_total_stays_under_the_budget():
    cache = MemoryBoundedCache(budget=10 * MIB, available=plenty)
    for group in range(6):
        cache.get_or_compute(("history", group), lambda: frame(3))
    assert cache.size <= 10 * MIB
    assert len(cache) == 3
    assert ("history", 5) in cache and ("history", 0) not in cache


def test_the_least_recently_used_entry_goes_first():
    cache = MemoryBoundedCache(budget=7 * MIB, available=plenty)
    cache.get_or_compute("a", lambda: frame(3))
    cache.get_or_compute("b", lambda: frame(3))
    cache.get_or_compute("a", lambda: frame(3))  # a is used again: b is now the oldest
    cache.get_or_compute("c", lambda: frame(3))
    assert "a" in cache and "c" in cache and "b" not in cache


def test_under_memory_pressure_entries_are_dropped_instead_of_kept():
    free = {"bytes": 64 * 2**30}
    cache = MemoryBoundedCache(budget=100 * MIB, reserve=50 * MIB, available=lambda: free["bytes"])
    cache.get_or_compute("a", lambda: frame(2))
    cache.get_or_compute("b", lambda: frame(2))
    assert len(cache) == 2
    free["bytes"] = 10 * MIB  # the machine runs short
    value = cache.get_or_compute("c", lambda: frame(2))
    assert len(value) == 2 * MIB // 8  # still answered
    assert len(cache) == 0 and cache.size == 0


def test_a_value_larger_than_the_whole_budget_is_answered_but_not_kept():
    cache = MemoryBoundedCache(budget=2 * MIB, available=plenty)
    cache.get_or_compute("small", lambda: frame(1))
    assert len(cache.get_or_compute("huge", lambda: frame(4))) == 4 * MIB // 8
    assert "huge" not in cache and "small" in cache


def test_simultaneous_askers_compute_a_missing_entry_once():
    cache = MemoryBoundedCache(budget=10 * MIB, available=plenty)
    calls = []
    started = threading.Barrier(8)

    def slow_load():
        calls.append(1)
        time.sleep(0.2)
        return frame(1)

    def ask(_number: int) -> None:
        started.wait()
        cache.get_or_compute("group-7", slow_load)

    _run_together(8, ask)
    assert len(calls) == 1


def test_a_failed_computation_is_not_kept_and_the_next_asker_tries_again():
    cache = MemoryBoundedCache(budget=10 * MIB, available=plenty)

    def broken():
        raise RuntimeError("database away")

    with pytest.raises(RuntimeError, match="database away"):
        cache.get_or_compute("k", broken)
    assert cache.get_or_compute("k", lambda: 42) == 42


def test_entries_expire_after_their_time_to_live():
    now = {"t": 0.0}
    cache = MemoryBoundedCache(budget=MIB, ttl=60, available=plenty, clock=lambda: now["t"])
    cache.get_or_compute("k", lambda: "old")
    now["t"] = 61
    assert cache.get_or_compute("k", lambda: "new") == "new"


def test_weighing_follows_frames_inside_dataclasses_and_containers():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Bundle:
        tables: dict
        spec: bytes

    bundle = Bundle({"a": frame(1), "b": frame(1)}, b"x" * 1000)
    assert 2 * MIB <= weigh(bundle) < 3 * MIB


def test_different_entries_are_computed_a_few_at_a_time():
    """Twenty groups missing at once: at most ``computing_at_once`` loads run together,
    the others wait for a slot, and every one is answered."""
    cache = MemoryBoundedCache(budget=100 * MIB, available=plenty, computing_at_once=2)
    lock = threading.Lock()
    running, most, answers = [0], [0], {}

    def load(group: int):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.02)
        with lock:
            running[0] -= 1
        return group * 10

    def ask(group: int) -> None:
        answers[group] = cache.get_or_compute(("history", group), lambda: load(group))

    _run_together(20, ask)
    assert most[0] == 2
    assert answers == {group: group * 10 for group in range(20)}


def test_a_computation_asks_for_another_entry_in_the_slot_it_holds():
    """A view's statistics ask for its history frame while computing: with one slot, and
    other threads asking for the frames directly at the same time, nothing waits in a
    circle."""
    cache = MemoryBoundedCache(budget=100 * MIB, available=plenty, computing_at_once=1)
    frames, bundles = [], {}

    def history(group: int):
        frames.append(group)
        time.sleep(0.01)
        return f"frame {group}"

    def ask(number: int) -> None:
        group = number % 3
        if number % 2:
            cache.get_or_compute(("history", group), lambda: history(group))
        else:
            key = ("bundle", group)
            bundles[number] = cache.get_or_compute(
                key, lambda: cache.get_or_compute(("history", group), lambda: history(group))
            )

    _run_together(12, ask)
    assert sorted(frames) == [0, 1, 2]  # each frame loaded once
    # checked here: an assertion failing in a thread would not fail the test
    assert bundles == {number: f"frame {number % 3}" for number in range(0, 12, 2)}
