"""Ratio 8: how much memory loading a history takes, against the size of the frame it makes.

A fresh Python process loads the group's first day of history (imports, the
driver and the database's caches warm up on a small frame, so that hardly any
freed buffer is left for the real load to reuse), resets the kernel's peak-RSS mark
(``/proc/self/clear_refs``), loads the whole history and reads the new peak
(``VmHWM``).
Everything the load allocates counts: the driver's rows, Arrow buffers and numpy arrays
alike. The frame's own size is ``DataFrame.memory_usage(deep=True)``. Three
children are measured and the median taken.

Run as a child: ``python -m benchmarks.load_memory URL OWNER_ID GROUP_ID`` prints
``growth_bytes frame_bytes``.
"""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
from pathlib import Path

from benchmarks.databases import BenchDatabase
from benchmarks.timing import Comparison

ROOT = Path(__file__).resolve().parent.parent
CHILDREN = 3


def _status_bytes(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"/proc/self/status has no {field}")


def _child(url: str, owner_id: int, group_id: int) -> tuple[int, int]:
    from sqlalchemy import func, select
    from sqlalchemy.orm import sessionmaker

    from dutch_app.services import history
    from dutch_app.services.unit_of_work import perform
    from dutch_app.storage.db import make_engine
    from dutch_app.storage.models import Game

    engine = make_engine(url)
    sessions = sessionmaker(engine, expire_on_commit=False)
    with sessions() as session:
        # Warm every code path on the group's first day only: a small frame, so that
        # hardly any freed memory is left for the real load to reuse.
        first = session.scalar(select(func.min(Game.started_at)).where(Game.group_id == group_id))
        perform(session, history.load_history, owner_id, group_id, date_to=first.date())
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")
    before = _status_bytes("VmRSS")
    with sessions() as session:
        frame = perform(session, history.load_history, owner_id, group_id)
    peak = _status_bytes("VmHWM")
    return peak - before, int(frame.memory_usage(deep=True).sum())


def peak_growth(database: BenchDatabase) -> Comparison:
    """8. Peak memory growth of one load ÷ the finished frame's size (MiB)."""
    growths, sizes = [], []
    for _ in range(CHILDREN):
        command = [sys.executable, "-m", "benchmarks.load_memory", database.url]
        command += [str(database.owner_id), str(database.group_id)]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)  # noqa: S603
        growth, size = (int(value) for value in done.stdout.split())
        growths.append(growth / 2**20)
        sizes.append(size / 2**20)
    return Comparison(statistics.median(growths), statistics.median(sizes), CHILDREN, "MiB")


if __name__ == "__main__":
    grown, frame_size = _child(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    print(grown, frame_size)
