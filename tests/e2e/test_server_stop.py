"""A real ``streamlit run serve.py`` stops at once, even with pages waiting on the live route.

Open Play pages hold a request to the live route for up to 40 s. A host restarting a
server (SIGTERM) must not wait for them: the server answers them 503, so that they ask
a server that is running, and exits.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

import pytest
import requests

from dutch_app.accounts import make_backend
from dutch_app.config import load_settings
from dutch_app.services import games, groups, players
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import get_engine, make_session_factory
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import PASSWORD, SESSION_COOKIE
from tests.servers import start_streamlit, stop_process_group, wait_until

STOPPED_WITHIN = 5.0  # seconds; before, the longest wait of a page (40 s)
PAGES = 3  # open Play pages waiting on the server


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_a_server_with_pages_waiting_on_it_stops_at_once(stop_signal, tmp_path):
    url = f"sqlite:///{tmp_path / 'dutch.db'}"
    env = {
        "DUTCH_DATABASE_URL": url,
        "DUTCH_SECRET_KEY": "a-test-key-for-the-server-stop-0123456789",
        "DUTCH_AUTH_BACKEND": "local",
        "DUTCH_LIVE_WAITS_PER_PERSON": str(PAGES),
    }
    engine = get_engine(url)
    sessions = make_session_factory(engine)
    accounts = make_backend(sessions, load_settings(secrets={}, environ=env))
    ann = accounts.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        group = perform(session, groups.create_group, ann.user_id, "Card night")
        perform(session, players.add_player, ann.user_id, group.id, "Ben")
        seats = [p.id for p in perform(session, players.list_players, ann.user_id, group.id)]
        game = perform(session, games.start_game, ann.user_id, group.id, seats, PRESETS["classic"])
        version = perform(session, games.game_version, ann.user_id, game.id)
    engine.dispose()
    run = start_streamlit("serve.py", {**os.environ, **env}, tmp_path)
    cookies = {SESSION_COOKIE: accounts.issue_token(ann.user_id)}
    live = f"{run.url}/_dutch/live?game={game.id}&since={version}"
    answers: list[int] = []

    def wait_like_a_page() -> None:
        answers.append(requests.get(live, cookies=cookies, timeout=60).status_code)

    def all_waiting() -> bool:
        """Whether Ann holds as many waiting requests as she may: then one more request is
        refused at once (429), before its version is looked at. While she holds fewer, this
        one names a version the game is not at, and is answered at once without waiting."""
        behind = f"{run.url}/_dutch/live?game={game.id}&since={version + 1}"
        return requests.get(behind, cookies=cookies, timeout=10).status_code == 429

    pages = [threading.Thread(target=wait_like_a_page) for _ in range(PAGES)]
    try:
        for page in pages:
            page.start()
        assert wait_until(all_waiting, timeout=30)  # nothing moves in this game: they wait
        assert answers == []
        stopping = time.monotonic()
        os.killpg(run.process.pid, stop_signal)
        try:
            run.process.wait(timeout=STOPPED_WITHIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the server still ran {STOPPED_WITHIN} s after {stop_signal.name}")
        assert time.monotonic() - stopping < STOPPED_WITHIN
        for page in pages:
            page.join(timeout=5)
        assert answers == [503] * PAGES
    finally:
        stop_process_group(run.process)
