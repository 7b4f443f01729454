"""Open files of the server process: as many as the system allows, and a quiet log when out.

Every open page holds a connection to the live route, and every connection is an open
file. Many systems start a process with a soft limit of 1,024 open files; when a server
reaches it, ``accept()`` fails, and Python's event loop (3.11) reports each failure, up to
2,048 of them per turn of the loop: a server log grew by 20 MB in 15 s that way. So at
start the soft limit is raised to the hard one (:func:`raise_open_file_limit`), and those
reports are logged at most once per :data:`REPORT_EVERY` seconds, with the count of the
ones left out (:func:`quiet_accept_errors`).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

REPORT_EVERY = 60.0
"""Seconds between two log lines about connections refused for want of open files."""
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


def raise_open_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; the limit now.

    Where the hard limit cannot be reached (a system that refuses it), the limit stays
    as it was and the log says so.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft == hard:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError) as error:
        log.warning("the open-file limit stays at %s (hard limit %s): %s", soft, hard, error)
        return soft
    log.info("open-file limit raised from %s to %s", soft, hard)
    return hard


class Sparse:
    """Says whether to report an event now: at most once per ``every`` seconds, with the
    number of events left out since the last report.

    >>> now = [0.0]
    >>> sparse = Sparse(every=60, clock=lambda: now[0])
    >>> sparse.due(), sparse.due(), sparse.due()
    (0, None, None)
    >>> now[0] = 61.0
    >>> sparse.due()
    2
    """

    def __init__(self, every: float = REPORT_EVERY, clock: Callable[[], float] = time.monotonic):
        self._every = every
        self._clock = clock
        self._last: float | None = None
        self._left_out = 0

    def due(self) -> int | None:
        """The events left out since the last report when one is due now, else None."""
        now = self._clock()
        if self._last is not None and now - self._last < self._every:
            self._left_out += 1
            return None
        left_out, self._left_out, self._last = self._left_out, 0, now
        return left_out


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
    """Log ``loop``'s reports of ``accept()`` failing for want of resources at most once per
    :data:`REPORT_EVERY` seconds; every other report goes where it went before. Returns the
    undo."""
    previous = loop.get_exception_handler()
    sparse = Sparse()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        accepting = "accept" in str(context.get("message", ""))
        if accepting and isinstance(error, OSError) and error.errno in OUT_OF_RESOURCES:
            left_out = sparse.due()
            if left_out is not None:
                log.error(
                    "new connections refused: %s (%s more like it left out of this log); "
                    "raise the open-file limit or lower the live route's limits "
                    "(docs/hosting.md)",
                    error,
                    left_out,
                )
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
    return lambda: loop.set_exception_handler(previous)
