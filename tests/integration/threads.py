"""Running jobs in threads that all start at the same moment (for tests of concurrency)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from sqlalchemy import Engine
from sqlalchemy.orm import Session


def together(jobs: list[Callable[[], object]], timeout: float = 180) -> list[object]:
    """Run each job in its own thread, all released at once; each one's result or error."""
    barrier = threading.Barrier(len(jobs))
    outcomes: list[object] = [None] * len(jobs)

    def run(index: int) -> None:
        barrier.wait(timeout=60)
        try:
            outcomes[index] = jobs[index]()
        except Exception as error:  # handed back to the test, whatever it is
            outcomes[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


def at_once(engine: Engine, jobs: list[Callable[[Session], object]]) -> list[object]:
    """`together`, each job given a session of its own on ``engine``."""

    def in_a_session(job: Callable[[Session], object]) -> Callable[[], object]:
        def run() -> object:
            with Session(engine, expire_on_commit=False) as session:
                return job(session)

        return run

    return together([in_a_session(job) for job in jobs], timeout=120)
