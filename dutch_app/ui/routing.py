"""Make sure every page is reached through the router in ``app.py``.

Streamlit treats a ``pages/`` folder as a set of stand-alone pages until the
entry point calls ``st.navigation``, and it checks for the folder again in each
new test run. So a run that opens a page's own address (``/history``) before the
router has run would execute that page file by itself: without the sign-in
gate, the sidebar or the error guard. Each page calls :func:`ensure_routed`
first; in that case it runs ``app.py`` in its place, within the same run (so no
click or typed value is lost), and the router then runs the page as usual.

No switch of Streamlit 1.67 does this in one place: while the flag is on, the
script runner runs the page file instead of ``app.py``, so ``app.py`` cannot act
first, and ``AppTest`` decides the flag again before every run, so turning it off
once at start-up (in ``serve.py``) would not hold in tests. This module is the only
one that reads or writes the flag; ``tests/unit/test_routing_contract.py`` checks
the behaviour on a tiny app.
"""

from __future__ import annotations

import runpy
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

APP = Path(__file__).resolve().parents[2] / "app.py"


def ensure_routed() -> None:
    """Hand the run to ``app.py`` when a page was started on its own."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        runpy.run_path(str(APP), run_name="__main__")
        st.stop()


@contextmanager
def routed_as_on_a_server() -> Iterator[None]:
    """Runs (under ``AppTest``, which decides the flag again before each run) in which
    Streamlit already knows the app routes with ``st.navigation``, as on a server after
    its first run: for measuring pages without the hand-over."""
    original = PagesManager.__init__

    def known_router(self, *args, **kwargs) -> None:
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False  # what st.navigation left on a server

    with mock.patch.object(PagesManager, "__init__", known_router):
        yield
