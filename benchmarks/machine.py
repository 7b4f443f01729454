"""What the machine did beside a measurement: memory it had to read back, and the kernel's
own memory reclaim.

A virtual machine may run the kernel's proactive reclaim (DAMON, whose worker threads are
named ``kdamond.N``): memory left untouched for a while is paged out, and whoever touches
it next waits for it to be read back from disk (a major page fault for a mapped page, a
refault for a page of a file read through the page cache). A long benchmark run leaves a
lot of such memory behind it (the copies of the million-row databases, the pages of the
processes that loaded them), so its later measurements can meet the reclaim at work where
a short run of its own does not. These counters tell such a window or level from one the
measured work slowed. They are Linux's (``/proc``); elsewhere they are all 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
RECLAIM_THREADS = ("kdamond",)  # the kernel's proactive reclaim (DAMON)


@dataclass(frozen=True)
class Counts:
    """The machine's counters at one moment (since boot)."""

    major_faults: int = 0
    refaults: int = 0  # file pages read again after the kernel had dropped them
    reclaim_cpu_ns: int = 0

    def since(self, before: Counts) -> dict[str, float]:
        """What happened between ``before`` and these counts."""
        return {
            "major_faults": self.major_faults - before.major_faults,
            "refaults": self.refaults - before.refaults,
            "reclaim_cpu_ms": (self.reclaim_cpu_ns - before.reclaim_cpu_ns) / 1e6,
        }


def counts(proc: Path = PROC) -> Counts:
    """The counters now (all 0 where ``/proc`` does not have them)."""
    try:
        lines = (proc / "vmstat").read_text().splitlines()
    except OSError:
        return Counts()
    stats = dict(line.split(maxsplit=1) for line in lines if " " in line)
    return Counts(
        major_faults=_number(stats.get("pgmajfault")),
        refaults=_number(stats.get("workingset_refault_file", stats.get("workingset_refault"))),
        reclaim_cpu_ns=_reclaim_cpu_ns(proc),
    )


def _number(text: str | None) -> int:
    try:
        return int(text or 0)
    except ValueError:
        return 0


def processes_named(names: tuple[str, ...], proc: Path = PROC) -> Iterator[Path]:
    """The ``/proc`` folders of the processes (and kernel threads) whose name begins with
    one of ``names``; one that ends meanwhile is left out."""
    try:
        entries = list(proc.iterdir())
    except OSError:
        return
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
        except OSError:  # gone meanwhile
            continue
        if name.startswith(names):
            yield entry


def _reclaim_cpu_ns(proc: Path) -> int:
    """The processor time of the reclaim's kernel threads (the first field of schedstat)."""
    total = 0
    for entry in processes_named(RECLAIM_THREADS, proc):
        try:
            total += int((entry / "schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):  # gone meanwhile, or no schedstat
            continue
    return total
