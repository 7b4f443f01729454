"""Work a server does by itself once in a while, such as deleting unused anonymous accounts.

No timer thread: the start-up runs it, and each page run asks whether a day has passed
since (a comparison of two times); the one run that finds it due does the work.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from dutch_app.accounts.common import Clock
from dutch_app.storage.models import utcnow

log = logging.getLogger(__name__)


class Daily:
    """``work(now)`` at most once every ``every``, when asked through `run_if_due`."""

    def __init__(
        self,
        work: Callable[[datetime], object],
        every: timedelta = timedelta(days=1),
        clock: Clock = utcnow,
    ) -> None:
        self._work = work
        self._every = every
        self._clock = clock
        self._last: datetime | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Daily(every={self._every}, last={self._last})"

    def run_if_due(self) -> bool:
        """Do the work if it never ran or last ran ``every`` ago; whether it ran.

        A failure is logged and the work waits for the next period, so a page is never
        held up by it twice in a row.
        """
        now = self._clock()
        with self._lock:
            if self._last is not None and now - self._last < self._every:
                return False
            self._last = now
        try:
            self._work(now)
        except Exception:
            log.exception("daily housekeeping failed; it runs again in %s", self._every)
        return True
