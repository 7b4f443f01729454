"""What the app's web server does when it starts and stops.

A stopping server (SIGTERM from a host's restart, or Ctrl+C) first ends the requests that
open pages hold on the live route, so that it stops at once instead of after the longest
wait, and the pages ask a running server. Uvicorn, which Streamlit's ``st.App`` runs on,
takes those signals for itself while it serves; the handler here runs first and then
hands the signal on to uvicorn's, which stops the server as before.

Before it serves, the process is warmed up (:mod:`dutch_app.web.warm`): what the pages
import and load is loaded once and left out of the collector's walks; its open-file limit
is raised as far as the system allows, and running out of open files anyway is logged
sparsely (:mod:`dutch_app.web.open_files`).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from types import FrameType
from typing import Any

from dutch_app.web.live import LiveRoute
from dutch_app.web.open_files import quiet_accept_errors, raise_open_file_limit
from dutch_app.web.warm import warm_up

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _on_stop_signals(callback: Callable[[], None]) -> Callable[[], None]:
    """Call ``callback`` on a stop signal before the handler in place now; returns the undo.

    Signal handlers can be set only in the main thread; elsewhere (a server run inside
    another program) nothing is set and the waits end by themselves.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}

    def handle(sig: int, frame: FrameType | None) -> None:
        callback()
        handler = previous[signal.Signals(sig)]
        if callable(handler):
            handler(sig, frame)
        else:  # the default (stop) or ignore: as if this handler had never been set
            signal.signal(sig, handler)
            signal.raise_signal(sig)

    for sig in STOP_SIGNALS:
        signal.signal(sig, handle)

    def undo() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    return undo


def lifespan(live: LiveRoute) -> Callable[[Any], AbstractAsyncContextManager[None]]:
    """The lifespan to give ``st.App``: the process warmed up before the first page, and
    open pages' waits ended as soon as the server stops."""

    @contextlib.asynccontextmanager
    async def run(_app: Any) -> AsyncIterator[None]:
        warm_up()
        raise_open_file_limit()
        loop = asyncio.get_running_loop()
        loud = quiet_accept_errors(loop)

        def stop_waits() -> None:  # the signal handler runs between two steps of the loop
            loop.call_soon_threadsafe(live.stop)

        undo = _on_stop_signals(stop_waits)
        try:
            yield None
        finally:
            undo()
            loud()
            live.stop()

    return run
