"""What dutch_app/ui/routing.py relies on in Streamlit, checked against the installed version.

The app keeps its screens in a top-level ``pages/`` folder and routes with ``st.navigation``
in ``app.py``. Streamlit still runs a page file on its own when a run starts before any
``st.navigation`` call and a ``pages/`` folder sits beside the main script; ensure_routed()
notices that through ``PagesManager.uses_pages_directory`` and hands the run to ``app.py``.
If an upgrade renames or rewires that flag, these tests fail before a page can be reached
without the sign-in gate.
"""

import inspect
from pathlib import Path

import pytest
import streamlit as st
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest

from dutch_app.ui import routing


@pytest.fixture
def flag():
    before = PagesManager.uses_pages_directory
    yield
    PagesManager.uses_pages_directory = before


def test_a_pages_folder_beside_the_main_script_turns_the_old_routing_on(tmp_path, flag):
    (tmp_path / "pages").mkdir()
    PagesManager.uses_pages_directory = None
    PagesManager(str(tmp_path / "app.py"), setup_watcher=False)
    assert PagesManager.uses_pages_directory is True


def test_the_flag_once_decided_stays_for_the_process(tmp_path, flag):
    (tmp_path / "pages").mkdir()
    PagesManager.uses_pages_directory = False
    PagesManager(str(tmp_path / "app.py"), setup_watcher=False)
    assert PagesManager.uses_pages_directory is False


def test_st_navigation_turns_the_old_routing_off_and_the_runner_reads_the_flag():
    assert "PagesManager.uses_pages_directory = False" in inspect.getsource(st.navigation)
    runner = inspect.getsource(script_runner.ScriptRunner)
    assert "if PagesManager.uses_pages_directory:" in runner
    assert "_mpa_v1(" in runner


def test_ensure_routed_hands_over_to_the_router_beside_the_pages_folder():
    assert routing.APP.name == "app.py"
    assert (routing.APP.parent / "pages").is_dir()
    assert Path(routing.APP).is_file()


def test_under_apptest_a_page_file_beside_a_pages_folder_runs_without_the_router(tmp_path, flag):
    """The behaviour itself, on a tiny app: without the hand-over, switching to a page runs
    the page file alone (the router does not run), and st.navigation turned it off only
    for the run it was in. If Streamlit changes this, ensure_routed() may be unneeded or
    wrong; either way this test tells."""
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "one.py").write_text('import streamlit as st\nst.write("page")\n')
    (tmp_path / "app.py").write_text(
        "import streamlit as st\n"
        'st.write("router")\n'
        'st.navigation([st.Page("pages/one.py", default=True)]).run()\n'
    )
    at = AppTest.from_file(str(tmp_path / "app.py")).run()
    assert [m.value for m in at.markdown] == ["router", "page"]
    assert PagesManager.uses_pages_directory is False  # st.navigation turned it off
    at.switch_page("pages/one.py").run()
    assert [m.value for m in at.markdown] == ["page"]  # decided again: the router did not run
