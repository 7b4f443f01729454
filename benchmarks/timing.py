"""Side-by-side timing: two tasks run alternately in one process, medians compared.

Running A and B in turns (A B, B A, A B, ...) means a slow moment of the
machine (other work on a shared processor, the disk cache warming) hits both
about equally, so the ratio of the medians is steadier than either time alone.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Comparison:
    """Median seconds (or other units) of the measured task and of its baseline."""

    measured: float
    baseline: float
    samples: int
    unit: str = "s"
    details: dict | None = None
    """More of what was measured, for the JSON file (plain values)."""

    @property
    def ratio(self) -> float:
        """measured ÷ baseline."""
        return self.measured / self.baseline if self.baseline else float("inf")

    def as_dict(self) -> dict:
        """Plain values for the JSON file."""
        values = asdict(self)
        if values["details"] is None:
            del values["details"]
        return {**values, "ratio": self.ratio}


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (0.95 for the 95th), between neighbours.

    >>> percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.5), percentile([1.0, 2.0], 0.99)
    (3.0, 1.99)
    """
    ordered = sorted(values)
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def timed(task: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds one call of ``task`` takes on ``clock`` (garbage collection left out of the
    window); ``time.process_time`` counts the CPU of this process's threads instead."""
    gc.collect()
    began = clock()
    task()
    return clock() - began


def compare(
    measured: Callable[[], object],
    baseline: Callable[[], object],
    repeats: int,
    warmups: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> Comparison:
    """Run both tasks ``warmups`` times, then ``repeats`` times each, alternating who goes
    first, and compare the median times.

    >>> slow, quick = (lambda: sum(range(20_000))), (lambda: sum(range(10_000)))
    >>> compare(slow, quick, repeats=5).ratio > 1
    True
    """
    for _ in range(warmups):
        measured()
        baseline()
    times_measured: list[float] = []
    times_baseline: list[float] = []
    for turn in range(repeats):
        if turn % 2 == 0:
            times_measured.append(timed(measured, clock))
            times_baseline.append(timed(baseline, clock))
        else:
            times_baseline.append(timed(baseline, clock))
            times_measured.append(timed(measured, clock))
    return Comparison(statistics.median(times_measured), statistics.median(times_baseline), repeats)
